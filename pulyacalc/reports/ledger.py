"""The ledger: what each deal moved each player's result by (issue 14, RULES.md §3).  Settlement is linear
in the sheet until rounded: a row is its entries' sum (:func:`row_of`); rows sum to the exact settlement."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, NamedTuple

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.errors import Problems, shown
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Correction, Deal, Play, Raspasy, SeatChange
from pulyacalc.core.remembered import REMEMBERED, Remembered
from pulyacalc.core.sheet import MOUNTAIN, POOL, Entry, Write
from pulyacalc.logs.read import read_log
from pulyacalc.logs.words import ENGLISH, Words
from pulyacalc.logs.write import deal_line
from pulyacalc.play import Evening, score_file, settle_evening
from pulyacalc.scoring.fold import DealResult, Line, Step
from pulyacalc.scoring.settlement import MONEY, Settlement, mountain_factor, to_money

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pulyacalc.reports.season import ScoreOptions

#: an entry as the ledger reads it: (area, player, amount, on whom)
Booked = tuple[str, str, Amount, "str | None"]


def deal_row(entries: Iterable[Entry], players: tuple[str, ...], conv: Convention) -> dict[str, Amount]:
    """What these entries add to each player's exact result (:func:`row_of`)."""
    return row_of(((e.area, e.player, e.amount, e.on) for e in entries), players, conv)


def row_of(writes: Iterable[Booked], players: tuple[str, ...], conv: Convention) -> dict[str, Amount]:
    """What these writes add to each player's exact result (RULES.md §3, linear part): a
    change ``δG`` of mountain equivalents is worth ``unit × (mean δG − δG_p)`` to ``p``."""
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


@dataclass(slots=True, eq=False)
class Moved:
    """A deal's row but for its number, shared by the deals of a line that write the same."""

    dealer: str
    text: str
    result: dict[str, Amount]
    #: (a common denominator, ``result`` × it, whole): added to running totals so kept
    scaled: tuple[int, tuple[int, ...]] = (0, ())


class LedgerRow(NamedTuple):
    number: int
    #: its dealer, text and result (shared by the deals of a line that write the same)
    moved: Moved
    #: the rows so far, this one included ({} when the running totals were not asked for)
    running: dict[str, Amount]
    #: with a price: the deal's money, running totals to the cent as ``score`` (result × price within a cent)
    money: dict[str, Decimal] | None = None
    money_running: dict[str, Decimal] | None = None

    @property
    def dealer(self) -> str:
        return self.moved.dealer

    @property
    def text(self) -> str:
        return self.moved.text

    @property
    def result(self) -> dict[str, Amount]:
        return self.moved.result


@dataclass(frozen=True)
class Ledger:
    evening: Evening
    settlement: Settlement
    #: the rows, when kept (``ledger``); () when each was handed on (``ledger_run``)
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


#: told each row as it is made
Sink = Callable[[LedgerRow], object]


class Rows:
    """Each deal's row, told each result in order, and the rows added up; unless ``final``
    (``players`` the table as it ends), none from a join on: a row reads the final table."""

    def __init__(
        self,
        players: tuple[str, ...],
        conv: Convention,
        price: Decimal | None = None,
        running: bool = False,
        final: bool = True,
        seated: tuple[str, ...] | None = None,
        words: Words = ENGLISH,
    ) -> None:
        self.players, self.price, self.final = players, price, final
        self.running = running or price is not None
        self.joined = False
        #: the table a deal is dealt at, for its text (``seated``: the first, if ``players`` is the last)
        self.table = seated or players
        #: (line read, note, dealer) → the deal's text (in ``words``); (that or the text, writes) → its row
        self.words = words
        self.texts = Remembered(lambda _, deal, dealer: deal_line(deal(), self.table, dealer, words))
        self.moved = Remembered(self._moved)
        #: writes → what they move each result by (many lines write the same)
        self.results = Remembered(lambda booked: row_of(booked, players, conv))
        #: (dealer, text, what it moves each result by) → its row
        self.alike = Remembered(lambda key, result: Moved(key[0], key[1], result))
        #: without running totals: each row's deals not yet added up (``_add_up``)
        self.counts: dict[Moved, int] = {}
        self.sums: dict[str, Amount] = dict.fromkeys(players, 0)
        #: running totals × ``scale`` (ints: no Fraction sum per deal); each int's amount made once (bounded)
        self.scale = 1
        self.scaled = [0] * len(players)
        self.amounts: dict[int, Amount] = {}
        #: with a price: the money running totals
        self.paid: dict[str, Decimal] = dict.fromkeys(players, Decimal(0))

    def step(self, s: Step) -> LedgerRow | None:
        item = s.item
        if s.table:
            self._seat(s.table)
        # a raw line read again (no deal made): its text is its raw text's with that dealer
        line = (item.raw, s.dealer) if isinstance(item, Line) else self._line(item, s.dealer)
        return self._row(s.number, s.dealer, s.kind, line, s.writes, s.deal, s.writes.writes)

    def result(self, r: DealResult) -> LedgerRow | None:
        """The row of a deal's result kept by ``play(..., keep=True)``."""
        entries = r.entries
        if r.table:
            self._seat(r.table)
        writes = tuple((e.area, e.player, e.amount, e.on) for e in entries)
        line = self._line(r.deal, r.dealer)
        return self._row(r.number, r.dealer, r.kind, line, writes, lambda: r.deal, lambda: entries)

    def _seat(self, table: tuple[str, ...]) -> None:
        # the texts remembered were written for the table before it
        self.table = table
        self.texts.clear()
        self.moved.clear()

    def _line(self, deal: Deal | Correction | SeatChange, dealer: str) -> object:
        """What a deal's text is made once per: its line read, note and dealer; else the text itself."""
        if isinstance(deal, (Play, Raspasy)) and deal.template is not None:
            return (deal.template, deal.note, dealer)
        return shown(deal_line(deal, self.table, dealer, self.words), 0)  # a correction's reason: echoed text

    def _row(
        self,
        number: int,
        dealer: str,
        kind: str,
        line: object,
        writes: Hashable,
        deal: Callable[[], Deal | Correction | SeatChange],
        written: Callable[[], Iterable[Entry | Write]],
    ) -> LedgerRow | None:
        """The row of a deal whose text is made once per ``line``, its result once per ``writes``."""
        self.joined = self.joined or (kind == "join" and not self.final)
        if self.joined:
            return None
        m = self.moved.made((line, writes), dealer, deal, written)
        if not self.running:  # added up by counts: a Fraction sum per distinct row, not per deal
            counts = self.counts
            counts[m] = counts.get(m, 0) + 1
            if len(counts) >= REMEMBERED:
                self._add_up()
            return LedgerRow(number, m, {})
        return self._running(number, m)

    def _running(self, number: int, m: Moved) -> LedgerRow:
        """The row with the running totals after it (and the money)."""
        scale, steps = m.scaled
        if scale != self.scale:
            scale, steps = m.scaled = self._scaled(m.result)
        amounts, scaled = self.amounts, self.scaled
        if len(amounts) >= REMEMBERED:
            amounts.clear()
        running = self.sums = {}
        for i, p in enumerate(self.players):
            n = scaled[i] = scaled[i] + steps[i]
            v = amounts.get(n)
            if v is None:
                v = amounts[n] = exact(Fraction(n, scale))
            running[p] = v
        if self.price is None:
            return LedgerRow(number, m, running)
        paid = to_money(running, self.players, self.price)
        money = {p: MONEY.subtract(paid[p], self.paid[p]) for p in self.players}
        self.paid = paid
        return LedgerRow(number, m, running, money, paid)

    def _scaled(self, result: dict[str, Amount]) -> tuple[int, tuple[int, ...]]:
        """``result`` × a denominator common to it and the running totals (rescaled when it grows)."""
        values = [result[p] for p in self.players]
        scale = self.scale
        for v in values:  # (an int is its own numerator, over 1)
            if scale % v.denominator:
                scale = lcm(scale, v.denominator)
        if scale != self.scale:
            self.scaled = [n * (scale // self.scale) for n in self.scaled]
            self.scale = scale
            self.amounts.clear()
        return scale, tuple(v.numerator * (scale // v.denominator) for v in values)

    def _moved(
        self,
        key: tuple[object, Hashable],
        dealer: str,
        deal: Callable[[], Deal | Correction | SeatChange],
        written: Callable[[], Iterable[Entry | Write]],
    ) -> Moved:
        """A deal's ``Moved`` made: its text (once per line), its result (``row_of``)."""
        line = key[0]
        text = line if type(line) is str else self.texts.made(line, deal, dealer)
        result = self.results(tuple((w.area, w.player, w.amount, w.on) for w in written()))
        # writes that move the results alike (half of a long log's) make one Moved
        return self.alike.made((dealer, text, tuple(result.items())), result)

    def _add_up(self) -> None:
        sums = self.sums
        for m, times in self.counts.items():
            for p, v in m.result.items():
                sums[p] = exact(sums[p] + v * times)
        self.counts.clear()

    def total(self) -> dict[str, Amount]:
        self._add_up()
        return self.sums


def ledger(ev: Evening, price: Decimal | None = None, words: Words = ENGLISH) -> Ledger:
    """The ledger of an evening played with ``keep=True``; raises RuleError as ``score`` does."""
    s = settle_evening(ev, price)
    # everyone settled: a newcomer and one who left (RULES.md 6.3)
    rows = Rows(ev.sheet.players, ev.convention, price, running=True, seated=ev.header.players, words=words)
    kept = tuple(row for row in map(rows.result, ev.results) if row is not None)
    return _ledger(ev, s, kept, rows)


def _ledger(ev: Evening, s: Settlement, kept: tuple[LedgerRow, ...], rows: Rows) -> Ledger:
    """The ledger of rows told: what the rounding moves, in whists and money."""
    players, total, money = ev.sheet.players, rows.total(), s.money
    rounding = {p: exact(s.result[p] - total[p]) for p in players}
    money_rounding = None if money is None else {p: MONEY.subtract(money[p], rows.paid[p]) for p in players}
    return Ledger(ev, s, kept, total, rounding, money_rounding)


def ledger_file(
    path: str, *, price: Decimal | None = None, words: Words = ENGLISH, **options: Unpack[ScoreOptions]
) -> Ledger:
    """Score a log keeping every deal, and its ledger.  Raises PulyaError."""
    return ledger(score_file(path, keep=True, **options), price, words)


def ledger_run(
    path: str,
    sink: Sink,
    *,
    running: bool = False,
    price: Decimal | None = None,
    players: tuple[str, ...] | None = None,
    seated: list[tuple[str, ...]] | None = None,
    words: Words = ENGLISH,
    **options: Unpack[ScoreOptions],
) -> Ledger | None:
    """Score a log handing each row to ``sink``, keeping none: the ledger without its rows, or None when
    the log seats a newcomer (the final table appended to ``seated``: read again with it as ``players``)."""
    from pulyacalc.play import load_convention, score_log  # (looked up when called: tests watch it)

    problems = Problems()
    log = read_log(path, options.get("input_format"), problems, max_yaml_bytes=options.get("max_yaml_bytes"))
    # the convention as score_log loads it (its problems are reported there)
    convention, rounding = options.get("convention"), options.get("rounding")
    conv = load_convention(log, Problems(), convention, rounding)
    table, final = players or log.header.players, players is not None
    rows = None if conv is None else Rows(table, conv, price, running, final, log.header.players, words)

    def each(step: Step) -> None:
        assert rows is not None  # score_log plays no deal when the convention does not load
        row = rows.step(step)
        if row is not None:
            sink(row)

    ev = score_log(log, problems, convention=convention, rounding=rounding, each=each)
    assert rows is not None
    if rows.joined:
        if seated is not None:
            seated.append(ev.sheet.players)
        return None
    return _ledger(ev, settle_evening(ev, price), (), rows)
