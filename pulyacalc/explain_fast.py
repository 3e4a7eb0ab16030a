"""``explain``'s fast path for line logs: a deal line read before in the same state is one
look-up and a few additions, as for ``score`` (scoring/fast.py), and is told to the
renderer as a ``Hit`` — its ``Shape`` (what it writes and how it reads) and what varies:
its number, its line, whether the pulya was finished before it — instead of a
``DealExplained`` built anew.  The renderer (render/explain_fast.py) draws each shape
once per format and fills in what varies.

What a line does is a pure function of its text and of the dealer and raspasy run it is
read in (``fold.KEY``), except where its pool points go (RULES.md 2.8): so ``Seen`` keeps,
per (dealer, run) and raw line, what the full path (``Scorer.feed``) wrote, and a hit
places the pool points again on the pools as they stand (``pool.place`` where they do not
simply go into the player's own pool).  A line not seen, a numbered line, a correction, a
line with a problem, Classic's bombs in play, and everything after a seat change go the
full path, whose result is a ``Hit`` too when it is an ordinary deal, else a
``Whole`` (explained and drawn the plain way).  tests/test_explain_fast.py holds every format's
bytes to the plain path's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.model import Correction, Deal, SeatChange
from pulyacalc.core.sheet import MOUNTAIN, POOL, Entry, SheetView, Write
from pulyacalc.scoring.pool import place

if TYPE_CHECKING:
    from pulyacalc.logs.lines import LineDeals
    from pulyacalc.scoring.fold import DealResult, Scorer

#: lines remembered (over all states) and shapes kept; each forgotten all at once when
#: full, so that memory stays flat however long the log
SEEN_SIZE = 100_000
SHAPES_SIZE = 50_000
#: the progress bar is told the line once per this many lines
PROGRESS_EVERY = 1024


class Shape:
    """An ordinary deal as ``explain`` shows it, but for its number, its line in the log,
    whether the pulya was finished before it, and the paper after it: its kind, dealer,
    text, column, raspasy run and writes.  ``cells``: where each write goes on the flat
    paper (``FastDeals.vals``); ``drawn``: the renderer's templates, per format."""

    __slots__ = ("kind", "dealer", "line", "file", "column", "run", "writes", "cells", "result", "drawn")

    def __init__(self, r: DealResult, line: str, cells: tuple[int, ...]) -> None:
        loc = r.deal.loc
        self.kind, self.dealer, self.line, self.run = r.kind, r.dealer, line, r.raspasy_run
        self.file, self.column = loc.file, loc.column
        self.writes = tuple(Write(e.rule, e.player, e.area, e.amount, e.on, e.why) for e in r.entries)
        self.cells = cells
        #: the full path's result it was first seen in (its deal and entries, to draw it)
        self.result = r
        self.drawn: dict[tuple[str, bool], Any] = {}


#: a deal shown by its shape: (shape, number, line in the log, after the pulya was finished)
Hit = tuple[Shape, int, int, bool]


class Whole:
    """A deal or correction shown as the full path explains it: its result, its text, and
    the paper after it."""

    __slots__ = ("result", "line", "running")

    def __init__(self, result: DealResult, line: str, running: SheetView) -> None:
        self.result, self.line, self.running = result, line, running


class Seen:
    """What a raw line does in one state (dealer, run): its writes off the pools' placing
    (``others``, with their cells), the pool points to place (``pool``), the state after it
    (``next``: that state's table, ``dealer``, ``run``), and its shape when every pool point
    goes into the player's own pool (``shape``; ``shapes`` for other placings)."""

    __slots__ = (
        "others",
        "writes",
        "pool",
        "next",
        "dealer",
        "run",
        "shape",
        "first",
        "shapes",
        "fixed",
        "ends_run",
    )

    def __init__(
        self,
        others: tuple[Write, ...],
        cells: tuple[int, ...],
        pool: tuple[tuple[int, Write], ...],
        nxt: dict[str, Seen],
        dealer: str,
        run: int,
        first: Shape,
    ) -> None:
        self.writes = others
        self.others = tuple((c, w.amount, w.area == POOL) for c, w in zip(cells, others, strict=True))
        self.pool, self.next, self.dealer, self.run = pool, nxt, dealer, run
        self.first = first
        #: the shape when every pool point goes into the player's own pool (None: the line
        #: was learnt when they did not, so that shape is made when first needed)
        self.shape = first if first.writes == (*others, *(w for _, w in pool)) else None
        self.shapes: dict[tuple[Write, ...], Shape] = {}
        #: the shape and additions once where its pool points go is fixed (``FastDeals._fixed``)
        self.fixed: tuple[Shape, tuple[tuple[int, Amount], ...]] | None = None
        #: a contract that ends a raspasy run (raspasy.run_ends_on): the run after it is 0
        self.ends_run = False


class FastDeals:
    """The deals of a line log for ``explain``, as ``Hit`` or ``Whole``, with the
    paper kept flat in ``vals``: player i's pool at ``i*(n+2)``, mountain at ``i*(n+2)+1``,
    whists on player j at ``i*(n+2)+2+j``."""

    def __init__(
        self, scorer: Scorer, source: LineDeals, text: Callable[[Deal | Correction | SeatChange, str], str]
    ) -> None:
        """``text``: a deal as one line (``explain.deal_text``)."""
        self.scorer, self.source, self.text = scorer, source, text
        self.players = players = scorer.sheet.players
        self.n = n = len(players)
        self.index = {p: i for i, p in enumerate(players)}
        self.vals: list[Amount] = [0] * (n * (n + 2))
        self.tables: dict[tuple[str, int], dict[str, Seen]] = {}
        self.owner: dict[int, tuple[str, int]] = {}
        self.shapes: dict[tuple[object, ...], Shape] = {}
        self.seen = 0
        self.stop = False
        #: a seat change was read: the table is another, everything goes the full path
        self.changed = False
        self._load()

    def at(self, area: str, player: str, on: str | None) -> int:
        i = self.index[player] * (self.n + 2)
        if area == POOL:
            return i
        if area == MOUNTAIN:
            return i + 1
        assert on is not None
        return i + 2 + self.index[on]

    def _load(self) -> None:
        """``vals`` from the scorer's sheet."""
        sheet, n = self.scorer.sheet, self.n
        for i, p in enumerate(self.players):
            b = i * (n + 2)
            self.vals[b] = sheet.pool[p]
            self.vals[b + 1] = sheet.mountain[p]
            for q, v in sheet.whists[p].items():
                self.vals[b + 2 + self.index[q]] = v

    def _store(self) -> None:
        """The scorer's sheet from ``vals``."""
        sheet, n, vals = self.scorer.sheet, self.n, self.vals
        for i, p in enumerate(self.players):
            b = i * (n + 2)
            sheet.pool[p] = vals[b]
            sheet.mountain[p] = vals[b + 1]
            row = sheet.whists[p]
            for q in row:
                row[q] = vals[b + 2 + self.index[q]]

    def table(self, dealer: str, run: int) -> dict[str, Seen]:
        t = self.tables.get((dealer, run))
        if t is None:
            t = self.tables[dealer, run] = {}
            self.owner[id(t)] = (dealer, run)
        return t

    def shape(self, r: DealResult, line: str) -> Shape | None:
        """The shape of a deal the full path scored, when it has one (an ordinary deal with
        no bomb, read from a line and column of the log); one object per distinct shape."""
        loc = r.deal.loc
        if (
            self.changed
            or r.kind in ("correction", "join", "leave")
            or r.bomb != 1
            or r.dark
            or r.bombs_earned
            or r.bomb_spent
            or not loc.line
            or not loc.column
        ):
            return None
        cells = tuple(self.at(e.area, e.player, e.on) for e in r.entries)
        probe = Shape(r, line, cells)
        key = (probe.kind, probe.dealer, probe.line, probe.file, probe.column, probe.run, probe.writes)
        known = self.shapes.get(key)
        if known is None:
            if len(self.shapes) >= SHAPES_SIZE:
                self.shapes.clear()
            known = self.shapes[key] = probe
        return known

    def items(self, upto: int | None, progress: Callable[[int], None] | None) -> Iterator[Hit | Whole]:
        """Every deal and correction of the log in order (up to deal ``upto`` and the
        corrections after it, as ``explain._upto`` reads them)."""
        return _items(self, upto, progress)

    def _state(self) -> dict[str, Seen] | None:
        """The table of the scorer's state, None while lines must go the full path."""
        scorer = self.scorer
        if self.changed or not scorer.classic_idle:
            return None
        return self.table(scorer.dealer, scorer.run)

    def _learn(self, table: dict[str, Seen], raw: str, shape: Shape, written: object) -> None:
        """Remember the line the full path just scored (``Scorer.last``: what it wrote
        before its pool points were placed) in ``table``."""
        from pulyacalc.scoring.rules import Written

        assert isinstance(written, Written)
        if self.seen >= SEEN_SIZE:
            for t in self.tables.values():
                t.clear()  # in place: every Seen's ``next`` stays a table of ours
            self.seen = 0
        _, others, pool, ends_run, _ = written
        at, scorer = self.at, self.scorer
        k = table[raw] = Seen(
            others,
            tuple(at(w.area, w.player, w.on) for w in others),
            tuple((at(POOL, w.player, None), w) for w in pool),
            self.table(scorer.dealer, scorer.run),
            scorer.dealer,
            scorer.run,
            shape,
        )
        k.ends_run = ends_run and shape.kind != "raspasy"
        self.seen += 1

    def _derive(self, table: dict[str, Seen], raw: str) -> Seen | None:
        """A contract read in a raspasy run writes what it writes outside one (2.7:
        ``fold.KEY`` holds run 0 for any deal that is not raspasy); only the run after it
        differs (scoring/fast.py derives it alike).  None when ``raw`` is no such contract."""
        dealer, run = self.owner[id(table)]
        if not run:
            return None
        k0 = self.table(dealer, 0).get(raw)
        if k0 is None or k0.first.kind == "raspasy":
            return None
        k = Seen(
            k0.writes,
            tuple(c for c, _, _ in k0.others),
            k0.pool,
            k0.next if k0.ends_run else self.table(k0.dealer, run),
            k0.dealer,
            0 if k0.ends_run else run,
            k0.first,
        )
        k.ends_run = k0.ends_run
        table[raw] = k
        self.seen += 1
        return k

    def _fixed(self, k: Seen, after_finish: bool) -> tuple[Shape, tuple[tuple[int, Amount], ...]]:
        """Where ``k``'s pool points go once that is fixed (every pool closed, or the pulya
        finished without help): its shape then, and what it adds to each cell."""
        scorer, n = self.scorer, self.n
        pools = {p: self.vals[i * (n + 2)] for i, p in enumerate(self.players)}
        placed = tuple(
            x
            for _, w in k.pool
            for x in place(w, pools, scorer.target, scorer.conv, after_finish, scorer._clockwise)
        )
        return self._placed(k, placed), tuple((self.at(x.area, x.player, x.on), x.amount) for x in placed)

    def _placed(self, k: Seen, writes: tuple[Write, ...]) -> Shape:
        """The shape of ``k``'s deal with its pool points placed as ``writes`` say."""
        shape = k.shapes.get(writes)
        if shape is None:
            from dataclasses import replace

            r = k.first.result
            entries = tuple(Entry(r.number, *w) for w in (*k.writes, *writes))
            cells = tuple(self.at(e.area, e.player, e.on) for e in entries)
            if len(k.shapes) >= 64:  # placings with help vary with the pools: keep a few
                k.shapes.clear()
            shape = k.shapes[writes] = Shape(replace(r, entries=entries), k.first.line, cells)
        return shape

    def view(self) -> SheetView:
        """The paper now."""
        if not self.changed:
            self._store()
        return self.scorer.sheet.view()


def _items(
    self: FastDeals, upto: int | None, progress: Callable[[int], None] | None
) -> Iterator[Hit | Whole]:
    """:meth:`FastDeals.items`: the loop of scoring/fast.py, each deal told.  Between two
    lines read the full way the scorer and the reader are not told of the hits: ``hits``
    counts them and ``last`` is the last one's, so that ``sync`` brings them up to date."""
    scorer, source, vals = self.scorer, self.source, self.vals
    problems = source.problems
    conv, players, n = scorer.conv, self.players, self.n
    target = scorer.target
    limit = n * target
    helps = conv.help
    clockwise = scorer._clockwise
    pools_at = tuple(i * (n + 2) for i in range(n))
    read = 0  # items read, as explain._upto counts them (no correction)
    ptotal = sum(vals[i] for i in pools_at)
    closed = all(vals[i] >= target for i in pools_at)
    hits = 0
    last: Seen | None = None
    #: the problems when the last item was read: what a line read after it adds belongs
    #: to the deal past ``upto`` when that is the next (explain._upto)
    kept = len(problems.items)

    def sync() -> None:
        nonlocal hits, last
        scorer.count += hits
        source.count += hits
        hits = 0
        if last is not None:
            scorer.dealer, scorer.run = last.dealer, last.run
            last = None

    def slow(lineno: int, raw: str, table: dict[str, Seen] | None) -> Iterator[Hit | Whole]:
        nonlocal read, ptotal, closed, kept
        sync()
        if not self.changed:
            self._store()
        before = len(problems)
        idle = scorer.classic_idle and not self.changed
        d = source.one(lineno, raw)
        if d is None:
            return
        if not isinstance(d, Correction):
            read += 1
            if upto is not None and read > upto:
                del problems.items[kept:]  # the next deal's: not ours (explain._upto)
                self.stop = True
                return
        plain = source.plain
        r = scorer.feed(d)
        kept = len(problems.items)
        self.changed = self.changed or isinstance(d, SeatChange)
        if not self.changed:
            self._load()
            ptotal = sum(vals[i] for i in pools_at)
            closed = all(vals[i] >= target for i in pools_at)
        if r is None:
            return
        line = self.text(r.deal, r.kind)
        shape = self.shape(r, line)
        if shape is None:
            yield Whole(r, line, scorer.sheet.view())
            return
        yield shape, r.number, lineno, r.after_finish
        learnable = table is not None and idle and plain and scorer.classic_idle and len(problems) == before
        if learnable and table is not None and scorer.last is not None:
            self._learn(table, raw, shape, scorer.last)

    self.stop = False
    table = None if self.changed or not scorer.classic_idle else self.table(scorer.dealer, scorer.run)
    pending, source.pending = source.pending, None
    source.started = True
    if pending is not None:
        yield from slow(*pending, table)
        table = self._state()
    lineno = source.number
    get = table.get if table is not None else None
    for lineno, raw in enumerate(() if self.stop else source.lines, source.number + 1):  # noqa: B007
        if progress is not None and not lineno % PROGRESS_EVERY:
            progress(lineno)
        k = get(raw) if get is not None else None
        if k is None and table is not None:
            k = self._derive(table, raw)
        if k is None:
            yield from slow(lineno, raw, table)
            if self.stop:
                break
            table = self._state()
            get = table.get if table is not None else None
            continue
        read += 1
        if upto is not None and read > upto:
            del problems.items[kept:]  # lines read since the last item: not ours (explain._upto)
            break
        hits += 1
        count = scorer.count + hits
        after_finish = ptotal >= limit
        if after_finish and scorer.after_finish_from is None:
            scorer.after_finish_from = count
        for i, a, pool in k.others:
            v = vals[i] + a
            vals[i] = v if type(v) is int else exact(v)
            if pool:
                ptotal += a
                if v >= target:
                    closed = all(vals[j] >= target for j in pools_at)
        shape = k.shape
        if k.pool and (closed if helps else after_finish):
            # every pool closed (with help) / the pulya finished (without): where each
            # pool point goes is fixed per write now, and changes no pool
            fixed = k.fixed
            if fixed is None:
                fixed = k.fixed = self._fixed(k, after_finish)
            shape = fixed[0]
            for i, a in fixed[1]:
                v = vals[i] + a
                vals[i] = v if type(v) is int else exact(v)
        elif k.pool:
            placed: list[Write] = []
            common = shape is not None
            for i, w in k.pool:
                v = vals[i]
                a = w.amount
                if w.on is None and (target - v > 0 and a < target - v if helps else not after_finish):
                    # the common case: all of it into his own pool, which it does not close
                    s = v + a
                    vals[i] = s if type(s) is int else exact(s)
                    ptotal += a
                    placed.append(w)
                    continue
                common = False
                pools = {p: vals[pools_at[j]] for j, p in enumerate(players)}
                for x in place(w, pools, target, conv, after_finish, clockwise):
                    c = self.at(x.area, x.player, x.on)
                    s = vals[c] + x.amount
                    vals[c] = s if type(s) is int else exact(s)
                    if x.area == POOL:
                        ptotal += x.amount
                    placed.append(x)
                closed = all(vals[j] >= target for j in pools_at)
            if not common:
                shape = self._placed(k, tuple(placed))
        elif shape is None:
            shape = self._placed(k, ())
        assert shape is not None
        last = k
        yield shape, count, lineno, after_finish
        table = k.next
        get = table.get
    sync()
    source.number = lineno
    if progress is not None:
        progress(lineno)
    if not self.changed:
        self._store()


def fast_source(deals: object) -> LineDeals | None:
    """The line reader when the log's deals are one not yet read (as ``evening`` takes it)."""
    from pulyacalc.logs.lines import LineDeals

    if type(deals) is LineDeals and not deals.started and deals.pending is not None:
        return deals
    return None
