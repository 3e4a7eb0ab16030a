"""A line that changes the table (RULES.md 6.3): ``join Дима`` / ``leave Вера`` (Russian
``входит`` / ``выходит``), in a line log or as a YAML log's deal ``{join: NAME}``."""

from __future__ import annotations

from collections.abc import Container

from pulyacalc.core.errors import Loc, Problems, quoted
from pulyacalc.core.i18n import M_
from pulyacalc.core.model import SEAT_WORDS, SeatChange
from pulyacalc.logs.header import match_player, name_fault
from pulyacalc.logs.words import ENGLISH, Words


def starts_with(text: str, players: tuple[str, ...], words: Container[str], numbered: bool = False) -> bool:
    """Is the line a seat change or a correction (RULES.md 6.3, 2.9), not a player's name?"""
    first = text.split(None, 2)
    if numbered and len(first) > 1 and first[0][:1].isdigit():
        del first[0]
    low = first[0].casefold() if first else ""
    return low in words and all(p.casefold() != low for p in players)


def parse_seat(
    word: str,
    name: str,
    loc: Loc,
    name_loc: Loc,
    players: tuple[str, ...],
    problems: Problems,
    *,
    note: str | None = None,
    source: str = "",
) -> SeatChange | None:
    """``join``/``leave`` and a name → a SeatChange, or None with the problem at ``name_loc``."""
    change = SEAT_WORDS[word.casefold()]
    if change == "leave":
        found, hint = match_player(name, players)
        if found is None:
            cannot = M_("{name} cannot leave: not a player", name=quoted(name))
            problems.add(name_loc, cannot, hint, source=source)
            return None
        return SeatChange(change, found, note, loc, {"player": name_loc}, source)
    fault = name_fault(name) or (
        M_("a newcomer's name is one word: {name}", name=quoted(name)) if len(name.split()) != 1 else None
    )
    if fault is not None:
        problems.add(name_loc, fault, source=source)
        return None
    # a player on the sheet keeps the name first written (so the scorer says he joins once), whatever its case
    name = next((p for p in players if p.casefold() == name.casefold()), name)
    return SeatChange(change, name, note, loc, {"player": name_loc}, source)


def parse_seat_line(line: str, loc: Loc, players: tuple[str, ...], problems: Problems) -> SeatChange | None:
    """A line log's ``join NAME`` / ``leave NAME`` [``# note``]."""
    text, _, comment = line.partition("#")
    words = text.split()
    base = loc.column or 1
    if len(words) != 2:
        one_name = M_("a seat change is one word and one name: 'join Дима' or 'leave Вера'")
        problems.add(loc, one_name, source=line, width=max(1, len(text.rstrip())))
        return None
    at = text.find(words[1], len(words[0]))
    name_loc = Loc(loc.file, loc.line, base + at)
    note = comment.strip() or None
    return parse_seat(words[0], words[1], loc, name_loc, players, problems, note=note, source=line)


def seat_line(c: SeatChange, *, note: bool = True, words: Words = ENGLISH) -> str:
    """The canonical line: ``join Дима`` [``# note``] (``входит Дима`` in Russian words)."""
    return f"{words.seat(c.change)} {c.player}" + (f"  # {c.note}" if note and c.note else "")
