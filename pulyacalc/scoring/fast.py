"""The fold's fast path for line logs (issue 13): a deal line read before in the same
state is one dictionary look-up and a few additions.

Logs repeat a few thousand distinct lines.  What a line does to the paper is a pure
function of its text and of the state it is read in — the dealer and the raspasy run
before it (``fold.KEY`` is made of what these determine: the parse of the text, the dealer,
the run) — except where its pool points go, which reads the pools (RULES.md 2.8).  So
``run`` keeps, per state, each raw line's ``Known``: the entries it writes (as additions
to a flat array of the paper's totals), its pool points, and the state after it.  A hit
builds no deal, no ``Loc``, no ``Entry`` and no ``DealResult``; a miss (a new line, a new
state, a numbered line, a correction, a line with a problem) goes the full way — the
reader's ``one`` and ``Scorer.feed`` — and, when it is the same deal wherever it stands
and had no problem, is learnt.

Pool points go straight into the pool when the room exceeds them (with help), or while
the pulya is not finished (without); once every pool is closed (with help) or the pulya
is finished (without), where a pool write goes is fixed per write (``PoolPlacing``), so
that is remembered too.  Anything else is ``pool.place``, as in the full path.

Every result equals the full path's: tests/test_fast_path.py compares both on generated
logs.  ``FastCache`` may be shared by evenings of the same players and convention
(``season``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.errors import Problems
from pulyacalc.core.model import Correction, Deal, SeatChange, Unreadable
from pulyacalc.core.sheet import POOL, WHISTS, Entry, Sheet, Write
from pulyacalc.scoring.fold import DealResult, Scorer
from pulyacalc.scoring.pool import place

#: raw lines ``FastCache`` remembers (over all states); emptied when full, so that memory
#: stays flat however long the log
FAST_CACHE_SIZE = 100_000


class LineSource(Protocol):
    """The line reader as the fast path uses it (``logs.lines.LineDeals``)."""

    lines: Iterator[str]
    pending: tuple[int, str] | None
    number: int
    count: int
    plain: bool
    started: bool
    problems: Problems

    def one(self, lineno: int, raw: str) -> Deal | Correction | SeatChange | Unreadable | None: ...


class Watcher(Protocol):
    """Who is told what the fast path scores (``checks.Checking``: the findings of a long
    log at the fast path's speed)."""

    def result(self, r: DealResult) -> bool:
        """A deal scored the full way; False: never skip it (a hit of its line in the same
        state goes the full way again, and no line is derived from it)."""
        ...

    def late(self, number: int, lineno: int, raw: str) -> None:
        """A hit played after the pulya was finished: its number, line and text."""
        ...

    def pause(self) -> bool:
        """Asked after each line scored the full way: True ends ``run`` there (the scorer
        and the reader brought up to date; ``run`` again goes on)."""
        ...


class Known:
    """What a raw line does in one state.  ``others``: its entries off the pools, as
    (flat index, amount) — they change nothing the fold reads, so a hit only counts them
    (``hits``) and ``FastCache.flush`` adds them up; ``dpool``: pool entries among them
    (player index, amount), added at once; ``pool``: its pool points to place, as (player
    index, amount, write); ``fixed``: the hits whose pool points were placed by the fixed
    rule (``FastCache.placed``); the state after it: ``dealer``, ``run``, and ``next``
    its table."""

    __slots__ = (
        "others",
        "dpool",
        "pool",
        "next",
        "dealer",
        "run",
        "raspasy",
        "ends_run",
        "hits",
        "fixed",
        "key",
    )

    def __init__(
        self,
        others: tuple[tuple[int, Amount], ...],
        dpool: tuple[tuple[int, Amount], ...],
        pool: tuple[tuple[int, Amount, Write], ...],
        nxt: dict[str, Known],
        dealer: str,
        run: int,
        raspasy: bool,
        ends_run: bool,
    ) -> None:
        self.others = others
        self.dpool = dpool
        self.pool = pool
        self.next = nxt
        self.dealer = dealer
        self.run = run
        self.raspasy = raspasy
        self.ends_run = ends_run
        self.hits = 0
        self.fixed = 0
        #: ``FastCache.keyer`` of the deal (b"" without one)
        self.key = b""


class FastCache:
    """What the fast path has learnt for one table of players under one convention: a
    table of ``Known`` per state (dealer, raspasy run), and the fixed placing of pool
    writes once the pools are closed."""

    def __init__(self, players: tuple[str, ...], conv: Convention) -> None:
        self.players = players
        self.conv = conv
        n = len(players)
        self.index = {p: i for i, p in enumerate(players)}
        #: the flat paper: pools, then mountains, then whists of each on each
        self.size = 2 * n + n * n
        self.tables: dict[tuple[str, int], dict[str, Known]] = {}
        self.owner: dict[int, tuple[str, int]] = {}
        #: the table while Classic state is in play (``Scorer.classic_idle`` false): it
        #: learns nothing, so every line goes the full way
        self.busy: dict[str, Known] = {}
        self.learnt = 0
        #: the Known hit since the last ``flush`` (each once)
        self.touched: list[Known] = []
        #: a pool write → its entries once it cannot go into a pool as it is
        self.placed: dict[Write, tuple[tuple[int, Amount], ...]] = {}
        #: when set (``season``): each deal and correction read, in order, is given to
        #: ``digest`` as ``keyer`` makes it into bytes (a line's once, when learnt)
        self.keyer: Callable[[Deal | Correction | SeatChange], bytes] | None = None
        self.digest: Callable[[bytes], None] | None = None

    def table(self, dealer: str, run: int) -> dict[str, Known]:
        t = self.tables.get((dealer, run))
        if t is None:
            t = self.tables[dealer, run] = {}
            self.owner[id(t)] = (dealer, run)
        return t

    def at(self, area: str, player: str, on: str | None) -> int:
        """The flat index of ``player``'s ``area`` (whists: on ``on``)."""
        n, i = len(self.players), self.index[player]
        if area == POOL:
            return i
        if area == WHISTS:
            assert on is not None
            return 2 * n + i * n + self.index[on]
        return n + i

    def learn(
        self, table: dict[str, Known], raw: str, scorer: Scorer, raspasy: bool, sheet: Sheet, key: bytes
    ) -> None:
        """Remember what ``scorer`` last wrote (``Scorer.last``) for ``raw`` in ``table``."""
        known = scorer.last
        assert known is not None
        if self.learnt >= FAST_CACHE_SIZE:
            self.flush(sheet)
            for t in self.tables.values():
                t.clear()  # in place: every Known's ``next`` stays a table of this cache
            self.placed.clear()
            self.learnt = 0
        _, others, pool, ends_run, _ = known
        at, index = self.at, self.index
        k = table[raw] = Known(
            tuple((at(w.area, w.player, w.on), w.amount) for w in others if w.area != POOL),
            tuple((index[w.player], w.amount) for w in others if w.area == POOL),
            tuple((index[w.player], w.amount, w) for w in pool),
            self.table(scorer.dealer, scorer.run),
            scorer.dealer,
            scorer.run,
            raspasy,
            ends_run,
        )
        k.key = key
        self.learnt += 1

    def derive(self, table: dict[str, Known], raw: str) -> Known | None:
        """A contract read in a raspasy run (``table``'s run > 0) writes what it writes
        outside one (2.7: ``fold.KEY`` holds run 0 for any deal that is not raspasy); only
        the run after it differs.  None when ``raw`` is not such a known contract."""
        dealer, run = self.owner[id(table)]
        if not run:
            return None
        k0 = self.table(dealer, 0).get(raw)
        if k0 is None or k0.raspasy:
            return None
        k = Known(
            k0.others,
            k0.dpool,
            k0.pool,
            k0.next if k0.ends_run else self.table(k0.dealer, run),
            k0.dealer,
            0 if k0.ends_run else run,
            False,
            k0.ends_run,
        )
        k.key = k0.key
        table[raw] = k
        self.learnt += 1
        return k

    def flush(self, sheet: Sheet) -> None:
        """Write what the hits counted (``touched``) onto ``sheet``'s mountains and whists."""
        players, n = self.players, len(self.players)
        acc: list[Amount] = [0] * self.size
        placed = self.placed
        for k in self.touched:
            hits = k.hits
            if hits:
                for i, a in k.others:
                    acc[i] += a * hits
                k.hits = 0
            fixed = k.fixed
            if fixed:
                for _, _, w in k.pool:
                    for i, a in placed[w]:
                        acc[i] += a * fixed
                k.fixed = 0
        self.touched.clear()
        for i, p in enumerate(players):
            if acc[n + i]:
                sheet.mountain[p] = exact(sheet.mountain[p] + acc[n + i])
            row = sheet.whists[p]
            for j, q in enumerate(players):
                a = acc[2 * n + i * n + j]
                if a:
                    row[q] = exact(row[q] + a)


def _pools(sheet: Sheet, players: tuple[str, ...]) -> list[Amount]:
    return [sheet.pool[p] for p in players]


def run(
    scorer: Scorer,
    source: LineSource,
    cache: FastCache,
    record: list[str] | None = None,
    record_limit: int = 0,
    watcher: Watcher | None = None,
) -> int:
    """Feed every line of ``source`` to ``scorer``; returns the items read (deals and
    corrections, as the full path yields them).  ``record``: each raw line is appended to
    it while fewer than ``record_limit`` items have been read (for ``evening``'s exact
    second look at a short log).  ``watcher``: told each deal scored the full way and each
    hit after the finish, and asked whether to stop (``Watcher``); no line is derived."""
    conv, players = scorer.conv, scorer.players
    n = len(players)
    target = scorer.target
    limit = n * target
    helps = conv.help
    problems = source.problems
    sheet = scorer.sheet
    placed = cache.placed
    clockwise = scorer._clockwise
    at = cache.at
    corrections = 0
    start = scorer.count
    #: the table changed (RULES.md 6.3): what was learnt is for another table, so every
    #: line after goes the full path
    changed = False
    digest, keyer = cache.digest, cache.keyer
    touched = cache.touched.append

    def slow(lineno: int, raw: str, table: dict[str, Known]) -> dict[str, Known]:
        """The full path for one line; learns it when it may.  Returns the next table."""
        nonlocal corrections, changed
        before = len(problems)
        d = source.one(lineno, raw)
        if d is None:
            return cache.busy if changed else table
        plain = source.plain
        key = b""
        if digest is not None and keyer is not None and not isinstance(d, Unreadable):
            key = keyer(d)
            digest(key)
        r = scorer.feed(d)
        skip = r is not None and (watcher is None or watcher.result(r))
        if isinstance(d, (Correction, SeatChange)):
            corrections += 1
        changed = changed or isinstance(d, SeatChange)
        if changed or not scorer.classic_idle:
            return cache.busy
        if r is not None and skip and plain and len(problems) == before and table is not cache.busy:
            cache.learn(table, raw, scorer, r.kind == "raspasy", sheet, key)
        return cache.table(scorer.dealer, scorer.run)

    def state(table: dict[str, Known]) -> tuple[str, int]:
        """The dealer and raspasy run a table stands for (the scorer's own when busy)."""
        return (scorer.dealer, scorer.run) if table is cache.busy else cache.owner[id(table)]

    def place_one(w: Write, pools: list[Amount], after_finish: bool) -> None:
        """``pool.place`` for one write, its entries written: pools into ``pools``, the
        rest onto the sheet."""
        for x in place(w, dict(zip(players, pools, strict=True)), target, conv, after_finish, clockwise):
            i = at(x.area, x.player, x.on)
            if i < n:
                pools[i] = exact(pools[i] + x.amount)
            else:
                scorer.sheet.apply(Entry(0, *x))

    table = cache.table(scorer.dealer, scorer.run) if scorer.classic_idle else cache.busy
    pending, source.pending = source.pending, None
    source.started = True
    if pending is not None:
        if record is not None:
            record.append(pending[1])
        table = slow(*pending, table)
    lineno = source.number
    # the state between slow lines: the count of deals and the line number at the last
    # one (every line since was a deal hit), the pools, and whether they are closed
    pools = _pools(sheet, players)
    ptotal = sum(pools)
    closed = all(v >= target for v in pools)
    count, mark = scorer.count, lineno
    get = table.get
    first = lineno + 1
    for lineno, raw in enumerate(source.lines, first):  # noqa: B007
        if record is not None:
            if count + lineno - mark - 1 - start + corrections >= record_limit:
                record = None  # enough: the log is not short
            else:
                record.append(raw)
        k = get(raw)
        if k is None and table is not cache.busy and watcher is None:
            k = cache.derive(table, raw)
        if k is None:
            # the full path: bring the scorer and the reader up to date, and back
            hits = lineno - mark - 1
            scorer.count = count + hits
            scorer.dealer, scorer.run = state(table)
            source.count += hits
            for i, name in enumerate(players):
                sheet.pool[name] = pools[i]
            table = slow(lineno, raw, table)
            pools = _pools(sheet, players)
            ptotal = sum(pools)
            closed = all(v >= target for v in pools)
            get = table.get
            count, mark = scorer.count, lineno
            if watcher is not None and watcher.pause():
                break
            continue
        k.hits += 1
        if ptotal >= limit:  # finished before this deal
            if scorer.after_finish_from is None:
                scorer.after_finish_from = count + lineno - mark
            if watcher is not None:
                watcher.late(count + lineno - mark, lineno, raw)
        if k.hits == 1:
            touched(k)
        if digest is not None:
            digest(k.key)
        if k.dpool:
            for p, a in k.dpool:
                v = pools[p] + a
                pools[p] = v if type(v) is int else exact(v)
                ptotal += a
            closed = all(v >= target for v in pools)
        if k.pool:
            after_finish = ptotal >= limit
            if closed if helps else after_finish:
                # every pool closed (with help) / the pulya finished (without): where each
                # pool write goes is fixed per write, and changes no pool
                k.fixed += 1
                for _, _, w in k.pool:
                    if w not in placed:
                        now = dict(zip(players, pools, strict=True))
                        placed[w] = tuple(
                            (at(x.area, x.player, x.on), x.amount)
                            for x in place(w, now, target, conv, True, clockwise)
                        )
            else:
                for p, a, w in k.pool:
                    v = pools[p] + a
                    if w.on is None and a > 0 and (v < target or not helps):
                        # the common case: all of it into his own pool (pool.place's first branch)
                        pools[p] = v if type(v) is int else exact(v)
                        ptotal += a
                        continue
                    place_one(w, pools, after_finish)
                    ptotal = sum(pools)
                    closed = all(v >= target for v in pools)
        table = k.next
        get = table.get
    hits = lineno - mark
    scorer.count = count + hits
    scorer.dealer, scorer.run = state(table)
    source.count += hits
    source.number = lineno
    for i, name in enumerate(players):
        sheet.pool[name] = pools[i]
    cache.flush(sheet)
    return scorer.count - start + corrections
