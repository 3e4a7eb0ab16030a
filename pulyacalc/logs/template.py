"""The text of a new evening (`pulyacalc new`): a line-format header and a commented example line per kind
of deal, dealt in turn from ``dealer:`` as the convention seats the table (who sits out, who deals after a
raspasy, the compulsory raspasy first), so that, uncommented in order, they score and check clean."""

from __future__ import annotations

from typing import Literal

from pulyacalc.convention.schema import Convention
from pulyacalc.core.i18n import N_
from pulyacalc.core.seating import Seats
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

#: with two players, what a deal line looks like (RULES.md 6.2)
_TWO: dict[Lang, str] = {
    "en": "# Two players: a dummy holds the third hand and always passes; a line names the two.\n",
    "ru": "# Вдвоём: третью руку держит болван, он всегда пасует; в строке сдачи только двое.\n",
}

Kind = Literal["compulsory", "made", "failed", "unwhisted", "half", "misere", "raspasy", "talon"]

_KINDS: dict[Lang, dict[Kind, str]] = {
    "en": {"compulsory": "compulsory raspasy", "made": "made", "failed": "failed (one short)",
           "unwhisted": "not whisted", "half": "half-whist", "misere": "misère", "raspasy": "raspasy",
           "talon": "raspasy: the dealer's talon trick"},
    "ru": {"compulsory": "обязательные распасы", "made": "сыграна", "failed": "без одной",
           "unwhisted": "без виста", "half": "полвиста", "misere": "мизер", "raspasy": "распасы",
           "talon": "распасы: взятка сдающего из прикупа"},
}  # fmt: skip


class Unserved(ValueError):
    """A convention and table size no template fits (its message says why: an N_ msgid)."""


def looks_russian(names: list[str]) -> bool:
    """Whether the players' names are written in Cyrillic (then the call words are Russian)."""
    return any("\u0400" <= ch <= "\u04ff" for name in names for ch in name)


def kinds(conv: Convention, n: int) -> list[Kind]:
    """The examples a table of ``n`` under ``conv`` gets, in the order they are dealt."""
    raspasy = n != 2 or conv.two_all_pass != "redeal"  # two passes with two: a redeal, not raspasy
    opening = conv.bombs_opening
    if opening and not raspasy:
        raise Unserved(N_("compulsory raspasy (bombs.opening) with two players who redeal on two passes"))
    exit_level = conv.exit_level(opening) if opening else 6
    if exit_level > 7:
        raise Unserved(N_("the exit from the compulsory raspasy is above a seven"))
    contracts: list[Kind] = ["failed", "made"] if exit_level == 7 else ["made", "failed"]
    half: list[Kind] = ["half"] if 6 in conv.half_whist_levels else []
    passed: list[Kind] = ["raspasy"] if raspasy else []
    # the dealer who sits out plays the talon on raspasy when the convention says so
    passed += ["talon"] if raspasy and n >= 4 and conv.raspasy_talon_to_dealer else []
    compulsory: list[Kind] = ["compulsory"] * opening
    if opening:  # on the compulsory raspasy's bombs a misère may close every pool: the last example
        return [*compulsory, *contracts, "unwhisted", *half, *passed, "misere"]
    return [*contracts, "unwhisted", *half, "misere", *passed]


def _line(kind: Kind, seats: Seats, conv: Convention, w: Words) -> str:
    whist, pas, half = w.call("whist"), w.call("pass"), w.call("half")
    if seats.dummy:  # two players: the other's tricks are the side's, the dummy's included
        a, b = seats.active
        if kind == "half" and conv.two_half_whist == "after_dummy":
            b, a = seats.active  # «за свои» only after the dummy's pass: the dealer declares
        return {
            "made": f"{a} 6♠ 7, {b} {whist} 3",
            "failed": f"{a} 7♥ 6, {b} {whist} 4",
            "unwhisted": f"{a} 6♣, {b} {pas}",
            "half": f"{a} 6♦, {b} {half}",
            "misere": f"{a} {w.misere} 0",
        }.get(kind, f"{w.raspasy} {a} 6, {b} 4")
    a, b, c = seats.active
    return {
        "made": f"{a} 6♠ 7, {b} {whist} 2, {c} {pas} 1",
        "failed": f"{a} 7♥ 6, {b} {whist} 3, {c} {pas} 1",
        "unwhisted": f"{a} 6♣, {b} {pas}, {c} {pas}",
        "half": f"{a} 6♦, {b} {pas}, {c} {half}",
        "misere": f"{a} {w.misere} 0",
        "talon": f"{w.raspasy} {a} 4, {b} 2, {c} 3, {seats.dealer} {w.talon} 1",
    }.get(kind, f"{w.raspasy} {a} 4, {b} 2, {c} 4")


def template(players: list[str], conv: Convention, convention: str, lang: Lang) -> str:
    """The new evening: its header (the last player deals first, keys in ``lang``) and the
    examples commented out. Unserved when no template fits the convention and table."""
    w = LOG_LANGUAGES[lang]
    seats = Seats(tuple(players), players[-1], conv.five_second_out)
    examples: list[tuple[str, Kind]] = []
    for kind in kinds(conv, len(players)):
        examples.append((_line(kind, seats, conv, w), kind))
        if kind not in ("compulsory", "raspasy", "talon") or conv.raspasy_dealer_after == "slides":
            seats = Seats(seats.players, seats.next_dealer(), conv.five_second_out)
    width = max(len(line) for line, _ in examples) + 2
    out = [_HEAD[lang], _TWO[lang] if len(players) == 2 else "", "\n"]
    out.append(f"{w.key('players')}: {' '.join(players)}\n{w.key('dealer')}: {players[-1]}\n")
    out.append(f"{w.key('convention')}: {convention}\n\n")
    for k, (line, kind) in enumerate(examples, 1):
        out.append(f"# {line.ljust(width)}# {k} {_KINDS[lang][kind]}\n")
    return "".join(out)
