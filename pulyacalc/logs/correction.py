"""A correction (RULES.md 2.9, docs/format.md "Corrections"): what a table writes on the
sheet by hand, for what no rule covers; both readers check its parts in :func:`_make`."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from pulyacalc.core.amounts import Amount, exact, num
from pulyacalc.core.errors import Loc, Problems
from pulyacalc.core.i18n import M_
from pulyacalc.core.model import AREA_SPELLINGS, Correction
from pulyacalc.logs.header import match_player
from pulyacalc.logs.words import ENGLISH, Words
from pulyacalc.yamlsource import MAX_DENOMINATOR, MAX_NUMBER, MAX_NUMBER_CHARS, Node

#: the word before the player whists are written on
ON_WORDS = frozenset({"on", "на"})
YAML_KEYS = ("player", "area", "on", "amount", "reason")
#: a reason's text after its opening quote, to its closing one (``\\"`` is a quote inside)
_REASON_RE = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)
_AMOUNT_RE = re.compile(r"^[+\-]?(\d+|\d+/\d+|\d+\.\d+)$")
_AREAS_HINT = "an area is pool, mountain or whists (пуля, гора, висты)"
_EXAMPLE = M_('e.g. correction Anna mountain -4 "remise of deal 12 written twice"')

#: a written part: its text, where it is, and how wide to underline it
Part = tuple[str, Loc, int]


def parse_correction_line(
    line: str, loc: Loc, players: tuple[str, ...], problems: Problems
) -> Correction | None:
    """A correction line (its ``# note`` included) → a Correction, or None with its problems."""
    file, lineno, base = loc.file, loc.line, loc.column or 1
    before = len(problems)

    def at(offset: int) -> Loc:
        return Loc(file, lineno, base + offset)

    def err(offset: int, message: str, hint: str = "", width: int = 1) -> None:
        problems.add(at(offset), message, hint, source=line, width=width)

    quote = line.find('"')
    hash_at = line.find("#")
    head_end = len(line) if quote < 0 else quote
    note: str | None = None
    if 0 <= hash_at < head_end:  # a note before any reason: the reason is missing
        head_end = hash_at
        note = line[hash_at + 1 :].strip() or None
    words = [(m.group(), m.start()) for m in re.finditer(r"\S+", line[:head_end])]
    if words and words[0][0][:1].isdigit():
        w, j = words.pop(0)
        err(j, M_("a correction is not a deal: it takes no deal number"), M_("remove the number"), len(w))
    word, word_at = words.pop(0)
    reason: Part | None = None
    if quote < 0 or quote > head_end:
        err(len(line.rstrip()), M_("a correction needs its reason in double quotes"), _EXAMPLE)
    else:
        closed = _REASON_RE.match(line, quote + 1)
        if closed is None:
            err(quote, M_("the reason's closing quote is missing"), M_('write the reason as "…"'))
        else:
            end = closed.end() - 1
            text = line[quote + 1 : end].replace('\\"', '"').replace("\\\\", "\\")
            reason = (text, at(quote), end + 1 - quote)
            rest = line[end + 1 :]
            stripped = rest.lstrip()
            if stripped.startswith("#"):
                note = stripped[1:].strip() or None
            elif stripped:
                err(end + 1 + len(rest) - len(stripped), M_("after the reason only a # note may follow"))

    def part(k: int) -> Part:
        return words[k][0], at(words[k][1]), len(words[k][0])

    parts = {name: part(k) for k, name in enumerate(("player", "area")) if k < len(words)}
    k = len(parts)
    if k < len(words) and words[k][0].casefold() in ON_WORDS:
        if k + 1 < len(words):
            parts["on"] = part(k + 1)
        else:
            on_word, j = words[k]
            err(j, M_("{value} whom?", value=on_word), M_("e.g. 'whists on Boris'"), len(on_word))
        k += 2
    if k < len(words):
        parts["amount"] = part(k)
        k += 1
    for w, j in words[k:]:
        err(j, M_("unexpected {w!r} in a correction", w=w), _EXAMPLE, len(w))
    if reason is not None:
        parts["reason"] = reason
    made = _make(parts, at(word_at), players, problems, note, line)  # every problem at once
    return made if len(problems) == before else None


def parse_correction_yaml(
    node: Node, at: Loc, players: tuple[str, ...], problems: Problems, note: str | None
) -> Correction | None:
    """``correction: {player, area, on, amount, reason}``'s value → a Correction, or None."""
    if node.kind != "map":
        example = M_("e.g. {player: Anna, area: mountain, amount: -4, reason: 'written twice'}")
        got = M_("correction: expected a mapping, got {describe}", describe=node.describe())
        problems.add(node.loc, got, example)
        return None
    parts: dict[str, Part] = {}
    before = len(problems)
    for k, v in node.pairs:
        key = k.text.strip()
        if key not in YAML_KEYS:
            allowed = M_("allowed: {join}", join=", ".join(YAML_KEYS))
            problems.add(k.loc, M_("unknown key {key!r} in a correction", key=key), allowed)
        elif v.kind != "scalar" or v.null:
            got = M_("correction {key}: expected a value, got {describe}", key=key, describe=v.describe())
            problems.add(v.loc, got)
        else:
            parts[key] = (v.text.strip(), v.loc, 1)
    if len(problems) != before:
        return None
    return _make(parts, at, players, problems, note, "")


def _make(
    parts: dict[str, Part],
    loc: Loc,
    players: tuple[str, ...],
    problems: Problems,
    note: str | None,
    source: str,
) -> Correction | None:
    """Check the parts of a correction, in either format, and make it."""
    before = len(problems)

    def err(part: Part | None, message: str, hint: str = "") -> None:
        where, width = (loc, 1) if part is None else (part[1], part[2])
        problems.add(where, message, hint, source=source, width=width)

    def player(part: Part | None, what: str) -> str | None:
        if part is None:
            err(None, M_("a correction needs the {what}", what=what), _EXAMPLE)
            return None
        who, hint = match_player(part[0], players)
        if who is None:
            err(part, M_("unknown player {part!r}", part=part[0]), hint)
        return who

    who = player(parts.get("player"), "player it is written for")
    a = parts.get("area")
    area = None if a is None else AREA_SPELLINGS.get(a[0].casefold())
    if a is None:
        err(None, M_("a correction needs the area: pool, mountain or whists"), _EXAMPLE)
    elif area is None:
        err(a, M_("unknown area {a!r}", a=a[0]), _AREAS_HINT)
    on = None
    if "on" in parts and area is not None and area != "whists":
        only_whists = M_("only whists are written on someone, not the {area}", area=area)
        err(parts["on"], only_whists, M_("drop 'on NAME'"))
    elif area == "whists":
        on = player(parts.get("on"), "player the whists are on ('whists on Boris')")
        if on is not None and on == who:
            err(parts["on"], M_("{who} cannot write whists on himself", who=who), M_("name another player"))
    amount = _amount(parts.get("amount"), err)
    r = parts.get("reason")
    reason = r[0].strip() if r is not None else ""
    if r is not None and not reason:
        err(r, M_("the reason is empty"), M_("say why the table wrote this correction"))
    elif r is None and source == "":
        err(None, M_("a correction needs its reason"), M_("reason: 'remise of deal 12 written twice'"))
    if len(problems) != before or who is None or area is None or amount is None:
        return None
    locs = {name: p[1] for name, p in parts.items()}
    return Correction(who, area, amount, reason, on, note, loc, locs, source)


def _amount(part: Part | None, err: Callable[..., None]) -> Amount | None:
    """The amount as written, exact: ``-4``, ``+10``, ``1/2``, ``0.5``, ``−3/2``."""
    if part is None:
        err(None, M_("a correction needs its amount"), _EXAMPLE)
        return None
    text = part[0].replace("\u2212", "-")
    if not _AMOUNT_RE.match(text):
        whole = M_("a whole number or a fraction: -4, 10, 1/2, 0.5")
        err(part, M_("{part!r} is not an amount", part=part[0]), whole)
        return None
    try:
        value = exact(Fraction(text)) if len(text) <= MAX_NUMBER_CHARS else MAX_NUMBER + 1
    except ZeroDivisionError:
        err(part, M_("{part!r} divides by zero", part=part[0]), M_("a fraction like 1/2"))
        return None
    if abs(Fraction(value)) > MAX_NUMBER or Fraction(value).denominator > MAX_DENOMINATOR:
        most = M_("at most {most:,} in size, with at most six decimal places", most=MAX_NUMBER)
        err(part, M_("{part!r} is out of range", part=part[0][:40]), most)
        return None
    if value == 0:
        err(part, M_("a correction of 0 changes nothing"), M_("write the amount to add, or drop the line"))
        return None
    return value


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def correction_line(c: Correction, note: bool = True, words: Words = ENGLISH) -> str:
    """A correction in the canonical line format, with its note unless ``note`` is false."""
    on = f" {words.on} {c.on}" if c.on is not None else ""
    area = words.areas.get(c.area, c.area)
    reason = _quoted(" ".join(c.reason.split()))
    text = f"{words.correction} {c.player} {area}{on} {num(c.amount)} {reason}"
    if note and c.note and c.note.strip():
        text += "  # " + " ".join(c.note.split())
    return text
