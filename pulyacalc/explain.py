"""Explaining an evening entry by entry: who writes how much, where, and why.

``explain_file`` scores a log keeping every deal and a snapshot of the paper after each
deal (the running totals the paper keeps, «нарастающим итогом»: ``play`` with
``running=True``); ``explain`` does the same for an evening already played.  Each ``Entry`` of
:mod:`pulyacalc.scoring` becomes an ``Explained`` line: the entry, its rule from
:mod:`pulyacalc.rulebook`, and a sentence a person can check with a pencil.

Nothing here computes a score: the numbers are the scorer's own entries, so the entries
``explain`` prints add up exactly to the sheet ``score`` prints.  Each deal also carries its
ledger row (:func:`pulyacalc.ledger.deal_row`): what its entries move each result by.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pulyacalc.core.amounts import Amount, num
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Correction, Deal, Play, Raspasy
from pulyacalc.core.rulebook import RULEBOOK, Rule
from pulyacalc.core.sheet import MOUNTAIN, POOL, Entry, SheetView
from pulyacalc.evening import Evening, score_file
from pulyacalc.scoring.fold import DealResult


@dataclass(frozen=True)
class Explained:
    entry: Entry
    rule: Rule
    #: "Vera whists on Boris: 3 tricks × 4 = 12"
    text: str


@dataclass(frozen=True)
class DealExplained:
    result: DealResult
    #: the deal as one line of the line format
    line: str
    #: where the deal is written in the log (FILE:LINE)
    where: str
    entries: tuple[Explained, ...]
    #: the paper after this deal
    running: SheetView
    #: what the deal moved each player's exact result by (its ledger row, RULES.md §3.8)
    ledger: dict[str, Amount]


@dataclass(frozen=True)
class Explanation:
    evening: Evening
    deals: tuple[DealExplained, ...]


def deal_text(deal: Deal | Correction, kind: str = "") -> str:
    """A deal as one line of the line format: ``Anna 6♠ 7, Boris whist 2, Vera pass 1``."""
    if isinstance(deal, Correction):
        from pulyacalc.logs.correction import correction_line

        return correction_line(deal, note=False)
    if isinstance(deal, Raspasy):
        return ", ".join(f"{p} pass {t}" for p, t in deal.tricks.items()) + " (raspasy)"
    assert isinstance(deal, Play)
    head = f"{deal.declarer} {deal.contract}" + (" concede" if deal.concede else "")
    if deal.declarer in deal.tricks:
        head += f" {deal.tricks[deal.declarer]}"
    parts = [head]
    for who, call in deal.calls.items():
        clause = f"{who} {call}"
        if who in deal.tricks:
            clause += f" {deal.tricks[who]}"
        parts.append(clause)
    for who, t in deal.tricks.items():
        if who != deal.declarer and who not in deal.calls:
            parts.append(f"{who} {t}")
    if deal.talon:  # written as convert writes it (logs/write.deal_line)
        parts.append("talon cards " + " ".join(str(c) for c in deal.talon))
    return ", ".join(parts)


def _signed(x: Amount) -> str:
    return f"+{num(x)}" if x > 0 else num(x)


def place(e: Entry) -> str:
    """Where an entry is written: 'pool', 'mountain', 'whists on Boris'."""
    if e.area == POOL:
        return "pool"
    if e.area == MOUNTAIN:
        return "mountain"
    return f"whists on {e.on}"


def sentence(e: Entry) -> str:
    """'Vera whists on Boris: 3 tricks × 4 = 12' — the entry with its arithmetic."""
    if e.area == POOL:
        lead = f"{e.player} pool {_signed(e.amount)}"
    elif e.area == MOUNTAIN:
        lead = f"{e.player} mountain {_signed(e.amount)}"
    else:
        lead = f"{e.player} whists on {e.on} {_signed(e.amount)}"
    why = e.why.strip()
    if not why:
        return lead
    if e.rule == "correction":  # the table's own words: no arithmetic to finish
        return f"{lead}: {why}"
    return f"{lead}: {with_result(why, -e.amount if e.amount < 0 else e.amount)}"


_OPERATORS = ("×", "/", "+", "−")


def with_result(why: str, amount: Amount) -> str:
    """Add '= amount' to the arithmetic at the head of a rule's explanation, unless it is there."""
    cut = len(why)
    for mark in ("; ", " ("):
        i = why.find(mark, 1)
        if i > 0:
            cut = min(cut, i)
    head, tail = why[:cut], why[cut:]
    last_expr = head.rsplit("=", 1)[-1]
    if not any(op in last_expr for op in _OPERATORS):
        return why
    last = head.split()[-1]
    if not _is_number(last):
        return why
    return f"{head} = {num(amount)}{tail}"


def _is_number(token: str) -> bool:
    try:
        Fraction(token)
    except (ValueError, ZeroDivisionError):
        return False
    return True


def explain_entries(result: DealResult) -> tuple[Explained, ...]:
    return tuple(Explained(e, RULEBOOK[e.rule], sentence(e)) for e in result.entries)


def explain_file(
    path: str,
    *,
    convention: str | None = None,
    rounding: Rounding | None = None,
    input_format: str | None = None,
) -> Explanation:
    """Score a log and explain every deal (raises PulyaError with every problem)."""
    ev = score_file(path, convention=convention, rounding=rounding, input_format=input_format, running=True)
    return explain(ev)


def explain(ev: Evening) -> Explanation:
    """Every deal of an evening played with ``running=True``, explained."""
    from pulyacalc.ledger import deal_row  # only here: prices reads deal_text from this module

    players, conv = ev.header.players, ev.convention
    return Explanation(
        ev,
        tuple(
            DealExplained(
                r,
                deal_text(r.deal, r.kind),
                str(r.deal.loc),
                explain_entries(r),
                paper,
                deal_row(r.entries, players, conv),
            )
            for r, paper in zip(ev.results, ev.running, strict=True)
        ),
    )


def totals(entries: list[Entry] | tuple[Entry, ...], players: tuple[str, ...]) -> SheetView:
    """Add entries up into a sheet (what the paper would show with only these entries)."""
    from pulyacalc.core.sheet import Sheet

    sheet = Sheet(players)
    for e in entries:
        sheet.apply(e)
    return sheet.view()
