"""The text of a new evening (`pulyacalc new`): a line-format header and one commented
example line per kind of deal, dealt in turn from ``dealer:``, so that uncommenting them
in order gives an evening that scores.
"""

from __future__ import annotations

from typing import Literal

from pulyacalc.logs.words import LOG_LANGUAGES, Words

Lang = Literal["en", "ru"]

_HEAD: dict[Lang, str] = {
    "en": """\
# An evening of Preferans. One deal per line: PLAYER CALL [TRICKS], clauses separated by
# commas; a # starts a comment. Uncomment or copy an example, change the names and counts,
# then run `pulyacalc score FILE` (and `pulyacalc check FILE` for a second look).
# The format: docs/format.md.
""",
    "ru": """\
# Вечер преферанса. Одна сдача на строку: ИГРОК ЗАКАЗ [ВЗЯТКИ], части через запятую;
# # начинает комментарий. Раскомментируйте или скопируйте пример, поправьте имена и взятки,
# затем `pulyacalc score ФАЙЛ` (и `pulyacalc check ФАЙЛ` для проверки).
# Формат: docs/format.md.
""",
}

_KINDS: dict[Lang, tuple[str, ...]] = {
    "en": ("made", "failed (one short)", "not whisted", "half-whist", "misère",
           "raspasy", "raspasy: the dealer's talon trick"),
    "ru": ("сыграна", "без одной", "без виста", "полвиста", "мизер",
           "распасы", "распасы: взятка сдающего из прикупа"),
}  # fmt: skip


def looks_russian(names: list[str]) -> bool:
    """Whether the players' names are written in Cyrillic (then the call words are Russian)."""
    return any("\u0400" <= ch <= "\u04ff" for name in names for ch in name)


def _seats(players: list[str], first_dealer: int, k: int) -> tuple[str, list[str]]:
    """Deal k's dealer and the three who play it, first hand first."""
    n = len(players)
    dealer = (first_dealer + k) % n
    order = [players[(dealer + 1 + i) % n] for i in range(n)]
    return players[dealer], (order[:3] if n == 4 else order)


def _examples(players: list[str], w: Words) -> list[str]:
    # one line per kind, each for its place in the rotation (deal k of the evening)
    lines: list[str] = []
    whist, pas = w.call("whist"), w.call("pass")
    kinds = 7 if len(players) == 4 else 6
    for k in range(kinds):
        dealer, (a, b, c) = _seats(players, len(players) - 1, k)
        lines.append(
            [
                f"{a} 6♠ 7, {b} {whist} 2, {c} {pas} 1",
                f"{a} 7♥ 6, {b} {whist} 3, {c} {pas} 1",
                f"{a} 6♣, {b} {pas}, {c} {pas}",
                f"{a} 6♦, {b} {pas}, {c} {w.call('half')}",
                f"{a} {w.misere} 0",
                f"{w.raspasy} {a} 4, {b} 2, {c} 4",
                f"{w.raspasy} {a} 4, {b} 2, {c} 3, {dealer} {w.talon} 1",
            ][k]
        )
    return lines


def template(players: list[str], convention: str, lang: Lang) -> str:
    """The new evening: its header (the last player deals first) and the examples commented out."""
    examples = _examples(players, LOG_LANGUAGES[lang])
    width = max(len(line) for line in examples) + 2
    out = [_HEAD[lang], "\n"]
    out.append(f"players: {' '.join(players)}\ndealer: {players[-1]}\nconvention: {convention}\n\n")
    for k, (line, kind) in enumerate(zip(examples, _KINDS[lang], strict=False)):
        out.append(f"# {line.ljust(width)}# {k + 1} {kind}\n")
    return "".join(out)
