"""The ledger: what each deal moved each player's final result by (issue 14, RULES.md §3.x).

The settlement of RULES.md §3 is linear in the sheet until it is rounded:
``G_p = M_p + ratio × (target − P_p)``; the amnesty subtracts the smallest ``G`` from
everyone (a common shift, which the average mountain cancels); the mountain result
``unit × (avg − G_p)`` is linear in ``G``; netted whists are linear in ``W``.  So each entry
a deal writes adds a fixed amount to every player's exact result, and a deal's row is the
sum over its entries (:func:`deal_row`).  The target is the same for every deal and adds
nothing.  The rows of any log (finished or not) add up exactly to the exact settlement;
what the convention's rounding then changes is its own row (:attr:`Ledger.rounding`).

The entries are the scorer's own: there is no second scoring path.  ``ledger_file``
keeps every deal (``play(..., keep=True)``); ``LedgerRun`` is told each deal as it is
scored (a ``fast.Tracer``: ``evening.play_traced``) and hands each row on, so that the
``ledger`` command needs flat memory however long the log: a line read again in the same
state writes what it wrote before, so its row (its ``Moved``) is made once.  A row is not
what the evening would be without the deal: deleting it would move the next dealer, the
raspasy run and where the later pools close.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.sheet import MOUNTAIN, POOL, WHISTS, Entry
from pulyacalc.evening import Evening, score_file, settle_evening
from pulyacalc.ledger_totals import Block, Totals
from pulyacalc.scoring.settlement import mountain_factor

if TYPE_CHECKING:
    from pulyacalc.scoring.fold import DealResult
    from pulyacalc.scoring.settlement import Settlement

#: an entry as the ledger reads it: (area, player, amount, on whom)
Written = tuple[str, str, Amount, "str | None"]


def deal_row(entries: Iterable[Entry], players: tuple[str, ...], conv: Convention) -> dict[str, Amount]:
    """What these entries add to each player's exact result (RULES.md §3, linear part);
    :func:`row_of` says how."""
    return row_of(((e.area, e.player, e.amount, e.on) for e in entries), players, conv)


def row_of(writes: Iterable[Written], players: tuple[str, ...], conv: Convention) -> dict[str, Amount]:
    """What these writes add to each player's exact result (RULES.md §3, linear part).

    Each entry moves a mountain equivalent ``G`` or a whist: a pool point ``a`` of ``q``
    lowers ``G_q`` by ``ratio × a``; a mountain point raises ``G_q``; whists ``w`` by ``q``
    on ``r`` are ``+w`` for ``q`` and ``−w`` for ``r``.  A change ``δG`` is worth
    ``unit × (mean δG − δG_p)`` to player ``p`` (× n / (n − 1) when each mountain is
    divided among the opponents, ``settlement.mountain_divisor``).  The row sums to 0."""
    ratio = conv.pool_point_in_mountain
    unit = mountain_factor(conv, len(players))
    # whole numbers stay int until the mean (Fraction arithmetic is slow); exact either way
    moved: dict[str, Amount] = dict.fromkeys(players, 0)
    whists: dict[str, Amount] = dict.fromkeys(players, 0)
    for area, player, amount, on in writes:
        if area == POOL:
            moved[player] -= ratio * amount
        elif area == MOUNTAIN:
            moved[player] += amount
        else:
            assert on is not None
            whists[player] += amount
            whists[on] -= amount
    mean = Fraction(sum(moved.values())) / len(players)
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


class Moved:
    """A deal's row but for its number: its dealer, its text (the canonical line) and what it
    moved each result by; one for every deal of a line read in one state, its pool points
    placed one way.  ``shown``: what a view made of it (its cache); ``times``: its deals
    not yet added up (``LedgerRun``)."""

    __slots__ = ("dealer", "text", "result", "shown", "times", "ints")

    def __init__(self, dealer: str, text: str, result: dict[str, Amount]) -> None:
        self.dealer, self.text, self.result = dealer, text, result
        self.shown: object = None
        self.times = 0
        #: its result over the running totals' denominator (``Totals.add``): (den, numerators)
        self.ints: tuple[int, tuple[int, ...]] | None = None


#: what a hit wrote (``fast.Tracer.hit``): (flat index of the paper, amount)
Placed = Sequence[tuple[int, Amount]]


class _Line:
    """A line learnt by the fast path (``fast.Known.tag``): its dealer and text, and its
    ``Moved`` per placing of its pool points (what it writes, ``fast.Tracer.hit``); the
    last is looked up by identity first (once the pools are closed a line's writes are one
    object, hit after hit)."""

    __slots__ = ("dealer", "text", "moved", "last", "last_moved", "epoch")

    def __init__(self, dealer: str, text: str, epoch: int) -> None:
        self.dealer, self.text, self.epoch = dealer, text, epoch
        self.moved: dict[Placed, Moved] = {}
        self.last: Placed | None = None
        self.last_moved: Moved | None = None


#: rows of ``Moved`` held before they are added up, and placings one line keeps (bounded)
ADD_EVERY = 100_000
PLACINGS = 64
#: rows with running totals handed to a block sink at a time
BLOCK = 2048

#: told each row: the deal's number, its ``Moved``, and with running totals (or money)
#: the totals after it
Sink = Callable[[int, Moved, "Totals | None"], None]
#: told a block of rows with running totals: their numbers, their ``Moved``, the totals
#: after the last, and each row's (``Totals.add_block``)
BlockSink = Callable[[list[int], list[Moved], Totals, Block], None]


class LedgerRun:
    """The ledger of a log as it is scored (a ``fast.Tracer``, given to ``play``): each deal's
    row handed to ``sink`` in order, and the rows added up (``total``).  With ``running``
    (or a whist price) each row also carries the running totals (and money).  A log that
    seats a newcomer cannot be told so (every row reads the final table: ``joined``)."""

    def __init__(
        self,
        players: tuple[str, ...],
        conv: Convention,
        sink: Sink,
        running: bool,
        price: Decimal | None,
        final: bool = False,
    ) -> None:
        self.players, self.conv, self.sink, self.price = players, conv, sink, price
        #: ``players`` is the table as it ends (a second reading): a newcomer is told
        self.final = final
        #: the table of the paper hits are told of changed this many times (``index``)
        self.epoch = 0
        self.running = Totals(players, price) if running or price else None
        #: a sink that takes the rows with running totals a block at a time (its ``block``:
        #: the numbers, the rows, the totals and ``Totals.add_block``'s columns), and the
        #: rows not handed to it yet
        self.blocks: BlockSink | None = getattr(sink, "block", None)
        self.queued: list[int] = []
        self.queue: list[Moved] = []
        self.sums: dict[str, Amount] = dict.fromkeys(players, 0)
        self.pending: list[Moved] = []
        self.joined = False
        #: the writes of a deal → its row (many lines write the same), and (dealer, text,
        #: writes) → its ``Moved`` (a line in other states, another placing alike), bounded
        self.rows: dict[tuple[Written, ...], dict[str, Amount]] = {}
        self.made: dict[tuple[str, str, tuple[Written, ...]], Moved] = {}
        #: (dealer, text, what it moved each result by) → its ``Moved`` (bounded with ``made``)
        self.alike: dict[tuple[str, str, tuple[tuple[str, Amount], ...]], Moved] = {}

    def _made(self, dealer: str, text: str, writes: tuple[Written, ...]) -> Moved:
        m = self.made.get((dealer, text, writes))
        if m is None:
            row = self.rows.get(writes)
            if row is None:
                row = self.rows[writes] = row_of(writes, self.players, self.conv)
            if len(self.made) >= ADD_EVERY or len(self.rows) >= ADD_EVERY:
                self.made.clear()
                self.rows.clear()
                self.alike.clear()
            # writes placed otherwise that move the results alike make the same row (about
            # half of a long log's): one Moved, whose view (``shown``) is made once
            alike = (dealer, text, tuple(row.items()))
            m = self.alike.get(alike)
            if m is None:
                m = self.alike[alike] = Moved(dealer, text, row)
            self.made[dealer, text, writes] = m
        return m

    def result(self, r: DealResult) -> object:
        from pulyacalc.logs.write import deal_line

        self.joined = self.joined or (r.kind == "join" and not self.final)
        if self.joined:
            return None
        text = deal_line(r.deal, self.players, r.dealer)
        writes = tuple((e.area, e.player, e.amount, e.on) for e in r.entries)
        self.told(r.number, self._made(r.dealer, text, writes))
        return _Line(r.dealer, text, self.epoch)

    def index(self, players: tuple[str, ...]) -> None:
        """The flat paper hits are told of (``FastCache.at``): pools, mountains, whists."""
        self.joined = self.joined or (players != self.players and not self.final)
        if getattr(self, "table", players) != players:
            self.epoch += 1  # a line's placings read the old table's paper
        self.table = players
        self.flat: list[tuple[str, str, str | None]] = [(POOL, p, None) for p in players]
        self.flat += [(MOUNTAIN, p, None) for p in players]
        self.flat += [(WHISTS, p, q) for p in players for q in players]

    def hit(self, number: int, writes: Placed, tag: object) -> None:
        line: _Line = tag  # type: ignore[assignment]  # what result() gave
        if line.epoch != self.epoch:
            line.moved.clear()
            line.last = line.last_moved = None
            line.epoch = self.epoch
        if writes is line.last:
            m = line.last_moved
        else:
            m = line.moved.get(writes)
            line.last, line.last_moved = writes, m
        if m is None:
            m = line.last_moved = self._moved(line, writes)
        if self.running is None:  # the common case, written out (once a deal)
            m.times += 1
            if m.times == 1:
                self.pending.append(m)
                if len(self.pending) >= ADD_EVERY:
                    self.add_up()
            self.sink(number, m, None)
        elif self.blocks is not None:  # ``told`` written out (once a deal)
            self.queued.append(number)
            self.queue.append(m)
            if len(self.queue) >= BLOCK:
                self.flush()
        else:
            self.told(number, m)

    def _moved(self, line: _Line, writes: Placed) -> Moved:
        """The row of ``line`` writing ``writes``, made."""
        flat = self.flat
        m = self._made(
            line.dealer,
            line.text,
            tuple((area, player, a, on) for i, a in writes for area, player, on in (flat[i],)),
        )
        if len(line.moved) < PLACINGS:
            line.moved[writes] = m
        return m

    def told(self, number: int, m: Moved) -> None:
        running = self.running
        if running is None:
            m.times += 1
            if m.times == 1:
                self.pending.append(m)
                if len(self.pending) >= ADD_EVERY:
                    self.add_up()
            self.sink(number, m, None)
            return
        if self.blocks is not None:
            self.queued.append(number)
            self.queue.append(m)
            if len(self.queue) >= BLOCK:
                self.flush()
            return
        running.add(m)
        self.sink(number, m, running)

    def flush(self) -> None:
        """The rows queued for a block sink added up and handed to it."""
        if self.queue and self.blocks is not None and self.running is not None:
            self.blocks(self.queued, self.queue, self.running, self.running.add_block(self.queue))
            self.queued, self.queue = [], []

    def add_up(self) -> None:
        sums = self.sums
        for m in self.pending:
            for p, v in m.result.items():
                sums[p] = exact(sums[p] + v * m.times)
            m.times = 0
        self.pending.clear()

    @property
    def total(self) -> dict[str, Amount]:
        """The rows so far added up (the running totals)."""
        self.flush()
        if self.running is not None:
            return self.running.amounts()
        self.add_up()
        return self.sums


def ledger_run(
    path: str,
    sink: Sink,
    *,
    running: bool = False,
    convention: str | None = None,
    rounding: Rounding | None = None,
    input_format: str | None = None,
    max_yaml_bytes: int | None = None,
    price: Decimal | None = None,
    players: tuple[str, ...] | None = None,
    seated: list[tuple[str, ...]] | None = None,
) -> Ledger | None:
    """Score a log handing each row to ``sink`` as it is scored (``LedgerRun``), keeping
    none: the ledger without its rows, or None when the log seats a newcomer (its rows
    were not all told: every row reads the table as it ends, appended to ``seated``; read
    the log again with it as ``players``).  Raises PulyaError as ``ledger_file``."""
    from pulyacalc.core.errors import Problems
    from pulyacalc.evening import load_convention, score_log
    from pulyacalc.logs.read import read_log

    problems = Problems()
    log = read_log(path, input_format, problems, max_yaml_bytes=max_yaml_bytes)
    # the convention as score_log loads it (its problems are reported there)
    conv = load_convention(log, Problems(), convention, rounding)
    table = players or log.header.players
    run = None if conv is None else LedgerRun(table, conv, sink, running, price, players is not None)
    ev = score_log(log, problems, convention=convention, rounding=rounding, trace=run)
    assert run is not None  # score_log raises when the convention does not load
    run.flush()
    if run.joined:
        if seated is not None:
            seated.append(ev.sheet.players)
        return None
    s = settle_evening(ev, price)
    total = run.total
    players = ev.sheet.players
    rounding_row = {p: exact(s.result[p] - total[p]) for p in players}
    money_rounding = None
    if s.money is not None:
        assert run.running is not None  # a price keeps running totals
        paid = run.running.paid()
        money_rounding = {p: s.money[p] - paid[p] for p in players}
    return Ledger(ev, s, (), total, rounding_row, money_rounding)
