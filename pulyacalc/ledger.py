"""The ledger: what each deal moved each player's final result by (issue 14, RULES.md §3.x).

The settlement of RULES.md §3 is linear in the sheet until it is rounded:
``G_p = M_p + ratio × (target − P_p)``; the amnesty subtracts the smallest ``G`` from
everyone (a common shift, which the average mountain cancels); the mountain result
``unit × (avg − G_p)`` is linear in ``G``; netted whists are linear in ``W``.  So each entry
a deal writes adds a fixed amount to every player's exact result, and a deal's row is the
sum over its entries (:func:`deal_row`).  The target is the same for every deal and adds
nothing.  The rows of any log (finished or not) add up exactly to the exact settlement;
what the convention's rounding then changes is its own row (:attr:`Ledger.rounding`).

The entries are the scorer's own (``play(..., keep=True)``): there is no second scoring
path.  A row is not what the evening would be without the deal: deleting it would move
the next dealer, the raspasy run and where the later pools close.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.sheet import MOUNTAIN, POOL, Entry
from pulyacalc.evening import Evening, score_file, settle_evening
from pulyacalc.scoring.settlement import mountain_factor

if TYPE_CHECKING:
    from pulyacalc.scoring.settlement import Settlement


def deal_row(entries: Iterable[Entry], players: tuple[str, ...], conv: Convention) -> dict[str, Amount]:
    """What these entries add to each player's exact result (RULES.md §3, linear part).

    Each entry moves a mountain equivalent ``G`` or a whist: a pool point ``a`` of ``q``
    lowers ``G_q`` by ``ratio × a``; a mountain point raises ``G_q``; whists ``w`` by ``q``
    on ``r`` are ``+w`` for ``q`` and ``−w`` for ``r``.  A change ``δG`` is worth
    ``unit × (mean δG − δG_p)`` to player ``p`` (× n / (n − 1) when each mountain is
    divided among the opponents, ``settlement.mountain_divisor``).  The row sums to 0."""
    ratio = conv.pool_point_in_mountain
    unit = mountain_factor(conv, len(players))
    moved: dict[str, Fraction] = dict.fromkeys(players, Fraction(0))
    whists: dict[str, Fraction] = dict.fromkeys(players, Fraction(0))
    for e in entries:
        if e.area == POOL:
            moved[e.player] -= ratio * Fraction(e.amount)
        elif e.area == MOUNTAIN:
            moved[e.player] += Fraction(e.amount)
        else:
            assert e.on is not None
            whists[e.player] += Fraction(e.amount)
            whists[e.on] -= Fraction(e.amount)
    mean = sum(moved.values(), Fraction(0)) / len(players)
    return {p: exact(unit * (mean - moved[p]) + whists[p]) for p in players}


@dataclass(frozen=True)
class LedgerRow:
    number: int
    dealer: str
    #: the deal in the canonical line format (``pulyacalc convert``)
    text: str
    #: what the deal moved each player's exact result by, in whists (sums to 0)
    result: dict[str, Amount]
    #: the rows so far, this one included
    running: dict[str, Amount]
    #: with a whist price: the change of the running total in money, each running total
    #: to the cent as ``score`` rounds money (so a deal's money is result × price within
    #: a cent, and the money column adds up to the cent)
    money: dict[str, Decimal] | None = None
    money_running: dict[str, Decimal] | None = None


@dataclass(frozen=True)
class Ledger:
    evening: Evening
    settlement: Settlement
    rows: tuple[LedgerRow, ...]
    #: the rows added up: the exact settlement (before rounding)
    total: dict[str, Amount]
    #: the settlement as rounded − ``total``: what the rounding moved (0 under exact)
    rounding: dict[str, Amount]
    #: with a whist price: score's money − the money column's sum (0 under exact)
    money_rounding: dict[str, Decimal] | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return self.evening.sheet.players  # a newcomer included (RULES.md 6.3)

    @property
    def rounding_name(self) -> Rounding:
        return self.settlement.rounding


def ledger(ev: Evening, price: Decimal | None = None) -> Ledger:
    """The ledger of an evening played with ``keep=True``; raises RuleError (located at the
    log's ``rounding:``) when the rounding cannot settle it, as ``score`` does."""
    from pulyacalc.logs.write import deal_line
    from pulyacalc.scoring.settlement import to_money

    s = settle_evening(ev, price)
    players = ev.sheet.players  # everyone settled: a newcomer and one who left (RULES.md 6.3)
    running: dict[str, Amount] = dict.fromkeys(players, 0)
    paid: dict[str, Decimal] = dict.fromkeys(players, Decimal(0))
    rows: list[LedgerRow] = []
    for r in ev.results:
        result = deal_row(r.entries, players, ev.convention)
        running = {p: exact(running[p] + result[p]) for p in players}
        money = money_running = None
        if price is not None:
            money_running = to_money(running, players, price)
            money = {p: money_running[p] - paid[p] for p in players}
            paid = money_running
        text = deal_line(r.deal, players, r.dealer)
        rows.append(LedgerRow(r.number, r.dealer, text, result, running, money, money_running))
    rounding = {p: exact(s.result[p] - running[p]) for p in players}
    money_rounding = None
    if s.money is not None:
        money_rounding = {p: s.money[p] - paid[p] for p in players}
    return Ledger(ev, s, tuple(rows), running, rounding, money_rounding)


def ledger_file(
    path: str,
    *,
    convention: str | None = None,
    rounding: Rounding | None = None,
    input_format: str | None = None,
    max_yaml_bytes: int | None = None,
    price: Decimal | None = None,
) -> Ledger:
    """Score a log keeping every deal, and its ledger.  Raises PulyaError."""
    ev = score_file(
        path,
        convention=convention,
        rounding=rounding,
        input_format=input_format,
        max_yaml_bytes=max_yaml_bytes,
        keep=True,
    )
    return ledger(ev, price)
