"""Canonical writers for both log formats, streaming (``pulyacalc convert``, docs/format.md "Canonical form").
A round trip keeps :func:`deal_key`; not where a deal was written, comments on their own lines, spellings."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from pulyacalc.core.amounts import num
from pulyacalc.core.errors import Loc
from pulyacalc.core.i18n import M_
from pulyacalc.core.model import (
    CONTRACT_SPELLINGS,
    CORRECTION_WORDS,
    Correction,
    Deal,
    Header,
    Log,
    Play,
    Raspasy,
    SeatChange,
    Unreadable,
    first_dealer,
)
from pulyacalc.core.remembered import Remembered
from pulyacalc.core.seating import change_table
from pulyacalc.logs.correction import correction_line
from pulyacalc.logs.header import header_values
from pulyacalc.logs.read import refused
from pulyacalc.logs.seat import seat_line
from pulyacalc.logs.words import ENGLISH, Words
from pulyacalc.yamlsource import Node

_PLAIN_YAML = re.compile(r"^[^\W\d][\w.\-]*$")
_YAML_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "null", "y", "n"})
#: characters a name cannot hold in the line format
_LINE_UNSAFE = re.compile(r"[\s,#\[\]:]")
#: canonical texts remembered per deal template and note: a log repeats a few thousand texts
WRITTEN_SIZE = 20_000


def deal_key(deal: Deal | Correction | SeatChange) -> tuple[Any, ...]:
    """What makes two deals the same deal, whatever the format or spelling."""
    note = (" ".join(deal.note.split()) or None) if deal.note else None
    if isinstance(deal, SeatChange):
        return (deal.change, deal.player, note)
    if isinstance(deal, Correction):
        reason = " ".join(deal.reason.split())
        return ("correction", deal.player, deal.area, deal.on, deal.amount, reason, note)
    tricks = tuple(sorted(deal.tricks.items()))
    if isinstance(deal, Raspasy):
        return ("raspasy", tricks, deal.dealer, note, tuple(sorted(deal.dark)))
    d, calls = deal, tuple(sorted((k, str(v)) for k, v in deal.calls.items()))
    talon = tuple(sorted(map(str, d.talon))) if d.talon else ()
    return ("play", d.declarer, str(d.contract), calls, tricks, d.dealer, note, talon, d.concede, d.dark)


def _clockwise(players: tuple[str, ...], start: str) -> list[str]:
    i = players.index(start)
    return [players[(i + k) % len(players)] for k in range(len(players))]


def _quoted(text: str) -> str:
    """A double-quoted YAML scalar (JSON's string syntax is YAML's double-quoted one)."""
    import json  # only when something needs quoting: ledger and explain reach this module

    return json.dumps(text, ensure_ascii=False)


# -- the line format -----------------------------------------------------------------------


def check_line_names(header: Header) -> None:
    """The line format writes names as single words: refuse names it cannot hold."""
    bad = [p for p in header.players if _LINE_UNSAFE.search(p)]
    if bad:
        cannot = M_("the line format cannot write the name {bad!r}", bad=bad[0])
        hint = M_("names in the line format are single words without , # [ ] or ':'")
        raise refused(header.locs.get("players", Loc(header.source)), cannot, hint)


def write_lines(log: Log, words: Words = ENGLISH) -> Iterator[str]:
    """The log in the canonical line format, one line at a time, in ``words``' language."""
    header = log.header
    check_line_names(header)
    words = _unclaimed(words, header.players)
    yield f"{words.key('players')}: {' '.join(header.players)}\n"
    for key, value in header_values(header):
        yield f"{words.key(key)}: {words.value(key, value)}\n"
    for key, node in _flat_overrides(header):
        yield f"{key}: {_line_value(node)}\n"
    yield "\n"
    dealer = first_dealer(header.players, header.dealer)
    stays = _dealer_stays(header)
    table, vacated = header.players, None  # the table changes with a seat change (RULES.md 6.3)
    turn = _turns(table)
    texts = Remembered(lambda _, deal: deal_line(deal, table, dealer, words) + "\n", size=WRITTEN_SIZE)
    for deal in log.deals:
        if isinstance(deal, Unreadable):  # reported by the reader; keeps its turn to deal
            dealer = turn[dealer]
            continue
        if isinstance(deal, (Correction, SeatChange)):  # not a deal: no turn to deal
            yield deal_line(deal, table, dealer, words) + "\n"
            if isinstance(deal, SeatChange) and (deal.change == "join") != (deal.player in table):
                table, dealer, vacated = change_table(table, dealer, vacated, deal.change, deal.player)
                turn = _turns(table)  # the table changes
                words = _unclaimed(words, (deal.player,))
            continue
        vacated = None
        if deal.dealer is not None:
            dealer = deal.dealer
        if deal.template is None:
            yield deal_line(deal, table, dealer, words) + "\n"
        else:
            yield texts.made((deal.template, deal.note, table, dealer), deal)
        if not (stays and isinstance(deal, Raspasy)):
            dealer = turn[dealer]


def _unclaimed(words: Words, names: tuple[str, ...]) -> Words:
    """``words`` with a word that starts a line or a clause and is also a player's name (a player named
    ``поправка``: the reader would take the line for his) replaced by another spelling the readers take."""
    low = {n.casefold() for n in names}
    for f in ("correction", "talon_cards", "dealer"):
        if getattr(words, f).split()[0].casefold() in low:
            from pulyacalc.logs.lines import DEALER_WORDS, TALON_WORDS  # only for such a name

            others = {"correction": CORRECTION_WORDS, "talon_cards": TALON_WORDS, "dealer": DEALER_WORDS}[f]
            other: Any = next((w for w in sorted(others) if w not in low), getattr(words, f))
            words = replace(words, **{f: other})
    return words


def _turns(table: tuple[str, ...]) -> dict[str, str]:
    """Who deals after each player at ``table`` (the next clockwise)."""
    return {p: table[(i + 1) % len(table)] for i, p in enumerate(table)}


def _dealer_stays(header: Header) -> bool:
    """The dealer deals again after a raspasy (``raspasy.dealer_after: stays``): followed
    as the scorer does, so that a 4-player raspasy names the dealer's talon."""
    from pulyacalc.core.errors import PulyaError
    from pulyacalc.logs.header import convention_for

    try:
        return convention_for(header).raspasy_dealer_after == "stays"
    except PulyaError:
        return False


def deal_line(
    deal: Deal | Correction | SeatChange, players: tuple[str, ...], dealer: str, words: Words = ENGLISH
) -> str:
    """One deal in the canonical line format; ``dealer`` is this deal's dealer."""
    if isinstance(deal, SeatChange):
        return seat_line(deal, words=words)
    if isinstance(deal, Correction):
        return correction_line(deal, words=words)
    clauses: list[str] = []
    if isinstance(deal, Raspasy):
        order = _clockwise(players, dealer)[1:] + [dealer]
        for p in order:
            if p in deal.tricks:
                word = words.talon if p == dealer and len(players) >= 4 else words.call("pass")
                dark = f" {words.dark}" if p in deal.dark and word != words.talon else ""
                clauses.append(f"{p} {word}{dark} {deal.tricks[p]}")
        for p, n in deal.tricks.items():  # names not at the table (reported when scoring)
            if p not in players:
                clauses.append(f"{p} {words.call('pass')} {n}")
    else:
        own = deal.tricks.get(deal.declarer)
        conceded = f" {words.concede}" if deal.concede else ""
        contract = (f"{words.dark} " if deal.dark else "") + words.contract(deal.contract)
        clauses.append(f"{deal.declarer} {contract}{conceded}" + (f" {own}" if own is not None else ""))
        order = _clockwise(players, deal.declarer)[1:] if deal.declarer in players else list(players)
        for p in order:
            call = deal.calls.get(p)
            got = deal.tricks.get(p)
            if call is not None:
                clauses.append(f"{p} {words.call(call)}" + (f" {got}" if got is not None else ""))
            elif got is not None:
                clauses.append(f"{p} {got}")
        if deal.talon:
            clauses.append(f"{words.talon_cards} " + " ".join(str(c) for c in deal.talon))
    if deal.dealer is not None:
        clauses.append(f"{words.dealer} {deal.dealer}")
    text = ", ".join(clauses)
    if deal.note and deal.note.strip():
        text += "  # " + " ".join(deal.note.split())
    return text


def _flat_overrides(header: Header) -> Iterator[tuple[str, Node]]:
    """Overrides as dotted keys: a section mapping (``whist: {on_failure: …}``) is opened."""
    from pulyacalc.convention.schema import SCHEMA

    def walk(key: str, node: Node) -> Iterator[tuple[str, Node]]:
        if key not in SCHEMA and node.kind == "map":
            for k, v in node.pairs:
                yield from walk(f"{key}.{k.text.strip()}", v)
        else:
            yield key, node

    for key, node in header.overrides:
        yield from walk(key, node)


def _line_value(node: Node) -> str:
    if node.kind == "seq":
        return " ".join(_line_value(n) for n in node.items)
    if node.kind == "map":
        return _yaml_value(node)
    return "" if node.null else node.text.strip()


# -- YAML ------------------------------------------------------------------------------------


def yaml_scalar(text: str) -> str:
    """A string as a YAML scalar: plain when that reads back as the same string."""
    if _PLAIN_YAML.match(text) and text.lower() not in _YAML_WORDS:
        return text
    found = CONTRACT_SPELLINGS.get(text.lower())
    if found is not None and str(found) == text:  # a contract as it prints: 6♠, 10NT
        return text
    return _quoted(text)


def _yaml_value(node: Node) -> str:
    if node.kind == "seq":
        return "[" + ", ".join(_yaml_value(n) for n in node.items) + "]"
    if node.kind == "map":
        return "{" + ", ".join(f"{_yaml_value(k)}: {_yaml_value(v)}" for k, v in node.pairs) + "}"
    if node.null:
        return "null"
    text = node.text.strip()
    if node.quoted:
        return _quoted(node.text)
    if re.match(r"^[\w.\-/ ]+$", text) and text.lower() not in _YAML_WORDS:
        return text
    return _quoted(text)


def _flow(mapping: Mapping[str, object]) -> str:
    return "{" + ", ".join(f"{yaml_scalar(k)}: {v}" for k, v in mapping.items()) + "}"


def write_yaml(log: Log, words: Words = ENGLISH) -> Iterator[str]:
    """The log in canonical YAML, in ``words``' language (a deal's keys, ``declarer:`` …, stay English)."""
    header = log.header
    yield f"{words.key('players')}: [{', '.join(yaml_scalar(p) for p in header.players)}]\n"
    for key, value in header_values(header):
        shown = words.value(key, value) if isinstance(value, str) else value
        yield f"{words.key(key)}: {yaml_scalar(shown) if isinstance(shown, str) else shown}\n"
    flat = list(_flat_overrides(header))
    if flat:
        yield f"{words.key('overrides')}:\n"
        for key, node in flat:
            yield f"  {key}: {_yaml_value(node)}\n"
    first = True
    texts = Remembered(lambda _, deal: "".join(yaml_deal(deal, header.players, words)), size=WRITTEN_SIZE)
    for deal in log.deals:
        if isinstance(deal, Unreadable):  # reported by the reader
            continue
        if first:
            yield f"{words.key('deals')}:\n"
            first = False
        template = None if isinstance(deal, (Correction, SeatChange)) else deal.template
        if template is None:
            yield from yaml_deal(deal, header.players, words)
        else:
            yield texts.made((template, deal.note), deal)
    if first:
        yield f"{words.key('deals')}: []\n"


def yaml_deal(
    deal: Deal | Correction | SeatChange, players: tuple[str, ...], words: Words = ENGLISH
) -> Iterator[str]:
    if isinstance(deal, SeatChange):
        note = f", note: {_quoted(deal.note)}" if deal.note else ""
        yield f"  - {{{deal.change}: {yaml_scalar(deal.player)}{note}}}\n"
        return
    if isinstance(deal, Correction):
        on = f", on: {yaml_scalar(deal.on)}" if deal.on is not None else ""
        amount = num(deal.amount)
        shown = amount if type(deal.amount) is int else _quoted(amount)
        area = words.areas.get(deal.area, deal.area)
        yield (
            f"  - correction: {{player: {yaml_scalar(deal.player)}, area: {area}{on}, "
            f"amount: {shown}, reason: {_quoted(deal.reason)}}}\n"
        )
    elif isinstance(deal, Raspasy):
        yield f"  - raspasy: {_flow(_ordered(deal.tricks, players))}\n"
        if deal.dark:
            yield f"    dark: [{', '.join(yaml_scalar(p) for p in deal.dark)}]\n"
    else:
        assert isinstance(deal, Play)
        yield f"  - declarer: {yaml_scalar(deal.declarer)}\n"
        yield f"    contract: {yaml_scalar(words.contract(deal.contract))}\n"
        if deal.calls:
            calls = _ordered(deal.calls, players, deal.declarer)
            yield f"    defenders: {_flow({p: words.call(c) for p, c in calls.items()})}\n"
        if deal.tricks:
            yield f"    tricks: {_flow(_ordered(deal.tricks, players, deal.declarer))}\n"
        if deal.talon:
            yield f"    talon: [{', '.join(str(c) for c in deal.talon)}]\n"
        if deal.concede:
            yield "    concede: true\n"
        if deal.dark:
            yield "    dark: true\n"
    if not isinstance(deal, Correction) and deal.dealer is not None:
        yield f"    dealer: {yaml_scalar(deal.dealer)}\n"
    if deal.note is not None and deal.note.strip():
        yield f"    note: {_quoted(deal.note)}\n"


def _ordered(
    by: Mapping[str, object], players: tuple[str, ...], start: str | None = None
) -> dict[str, object]:
    """``by`` clockwise from ``start`` (when at the table), then those not at the table."""
    order = _clockwise(players, start) if start in players else list(players)
    out = {p: by[p] for p in order if p in by}
    out.update({p: n for p, n in by.items() if p not in out})
    return out
