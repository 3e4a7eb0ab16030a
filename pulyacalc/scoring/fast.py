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

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.errors import Problems
from pulyacalc.core.model import Correction, Deal, SeatChange, Unreadable
from pulyacalc.core.sheet import POOL, WHISTS, Entry, Sheet, Write
from pulyacalc.scoring.fold import DealResult, Memo, Scorer, memo
from pulyacalc.scoring.pool import place

#: raw lines ``FastCache`` remembers (over all states); emptied when full, so that memory
#: stays flat however long the log
FAST_CACHE_SIZE = 100_000
#: this many lines missed one after another and the fast path reads on the full way,
#: line by line, until a line is known again (a log whose every line is new or wrong)
SLOW_STREAK = 16


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


class Tracer(Protocol):
    """Who is shown what every deal writes, without anything kept per deal (``pulya.Marks``:
    the drawn sheet's running totals; ``ledger.LedgerRun``, ``stats.Counting``).  What
    ``result`` gives for a deal scored the full way is kept with its line if it is learnt
    (``Known.tag``; a line derived from another shares that line's), and each hit of the
    line is shown it."""

    def index(self, players: tuple[str, ...]) -> None:
        """The flat paper ``hit`` is told of is ``FastCache.at``'s for these players."""
        ...

    def result(self, r: DealResult) -> object:
        """A deal (correction, seat change) scored the full way; returns its line's tag."""
        ...

    def hit(self, number: int, writes: Sequence[tuple[int, Amount]], tag: object) -> None:
        """A hit: deal ``number`` changed these cells by so much — (flat index, amount),
        ``FastCache.at``'s index, each once and none by 0 (``_net``), pool points where
        they went; ``tag``: its line's (``result``).  Once the pools are closed a line's
        ``writes`` are one object, hit after hit."""
        ...


class Known:
    """What a raw line does in one state.  ``others``: its entries off the pools, as
    (flat index, amount) — they change nothing the fold reads, so a hit only counts them
    and ``FastCache.flush`` adds them up; ``pool``: its pool points to place, as (player
    index, amount, write); ``hits``: the hits while a pool write's place depended on the
    pools, ``fixed``: the hits after (its pool writes placed by the fixed rule,
    ``FastCache.placed``); the state after it: ``dealer``, ``run``, and ``next`` its
    table (``get``: the table's look-up, bound once)."""

    __slots__ = (
        "others",
        "pool",
        "next",
        "get",
        "dealer",
        "run",
        "raspasy",
        "ends_run",
        "hits",
        "fixed",
        "key",
        "written",
        "tag",
    )

    def __init__(
        self,
        others: tuple[tuple[int, Amount], ...],
        pool: tuple[tuple[int, Amount, Write], ...],
        nxt: dict[str, Known],
        dealer: str,
        run: int,
        raspasy: bool,
        ends_run: bool,
    ) -> None:
        self.others = others
        self.pool = pool
        self.next = nxt
        self.get = nxt.get
        self.dealer = dealer
        self.run = run
        self.raspasy = raspasy
        self.ends_run = ends_run
        self.hits = 0
        self.fixed = 0
        #: ``FastCache.keyer`` of the deal (b"" without one)
        self.key = b""
        #: once its pool writes are fixed, everything it writes (``_written``, for a ``Tracer``)
        self.written: tuple[tuple[int, Amount], ...] | None = None
        #: what the ``Tracer`` gave when the line was learnt (``Tracer.result``)
        self.tag: object = None


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
        #: what the scorers of these players and convention remember (``fold.memo``)
        self.memo: Memo | None = None

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
        self,
        table: dict[str, Known],
        raw: str,
        scorer: Scorer,
        raspasy: bool,
        sheet: Sheet,
        key: bytes,
        tag: object = None,
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
        assert all(w.area != POOL for w in others)  # rules.written: pool points go in ``pool``
        k = table[raw] = Known(
            tuple((at(w.area, w.player, w.on), w.amount) for w in others),
            tuple((index[w.player], w.amount, w) for w in pool),
            self.table(scorer.dealer, scorer.raspasy_run),
            scorer.dealer,
            scorer.raspasy_run,
            raspasy,
            ends_run,
        )
        k.key, k.tag = key, tag
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
            k0.pool,
            k0.next if k0.ends_run else self.table(k0.dealer, run),
            k0.dealer,
            0 if k0.ends_run else run,
            False,
            k0.ends_run,
        )
        k.key, k.tag = k0.key, k0.tag
        table[raw] = k
        self.learnt += 1
        return k

    def flush(self, sheet: Sheet) -> None:
        """Write what the hits counted (``touched``) onto ``sheet``'s mountains and whists."""
        players, n = self.players, len(self.players)
        acc: list[Amount] = [0] * self.size
        placed = self.placed
        for k in self.touched:
            hits, fixed = k.hits + k.fixed, k.fixed
            for i, a in k.others:
                acc[i] += a * hits
            if fixed:
                for _, _, w in k.pool:
                    for i, a in placed[w]:
                        acc[i] += a * fixed
            k.hits = k.fixed = 0
        self.touched.clear()
        for i, p in enumerate(players):
            if acc[n + i]:
                sheet.mountain[p] = exact(sheet.mountain[p] + acc[n + i])
            row = sheet.whists[p]
            for j, q in enumerate(players):
                a = acc[2 * n + i * n + j]
                if a:
                    row[q] = exact(row[q] + a)


#: ``_Pass.open_hits``' answer when the pools close: the lines after go ``fixed_hits``
_CLOSED = (0, "")


def run(
    scorer: Scorer,
    source: LineSource,
    cache: FastCache,
    record: list[str] | None = None,
    record_limit: int = 0,
    watcher: Watcher | None = None,
    tracer: Tracer | None = None,
) -> int:
    """Feed every line of ``source`` to ``scorer``; returns the items read (deals and
    corrections, as the full path yields them).  ``record``: each raw line is appended to
    it while fewer than ``record_limit`` items have been read (for ``evening``'s exact
    second look at a short log).  ``watcher``: told each deal scored the full way and each
    hit after the finish, and asked whether to stop (``Watcher``); no line is derived.
    ``tracer``: shown what every deal writes (``Tracer``)."""
    if tracer is not None:
        tracer.index(cache.players)
    return _Pass(scorer, source, cache, record, record_limit, watcher, tracer).run()


class _Pass:
    """One ``run``.  Between two lines that go the full way (``_slow``) every line is a
    hit; the hits are read by two tight loops — ``open_hits`` while a pool may still take
    points, ``fixed_hits`` once every write-off is fixed — which keep the running state in
    local variables and leave it here when a line misses.  ``count`` and ``mark``: the
    scorer's deal count and the line number at the last slow line (every line since is a
    deal); ``table``: what is known in the state the next line is read in."""

    def __init__(
        self,
        scorer: Scorer,
        source: LineSource,
        cache: FastCache,
        record: list[str] | None,
        limit: int,
        watcher: Watcher | None,
        tracer: Tracer | None = None,
    ) -> None:
        self.scorer, self.source, self.cache, self.watcher = scorer, source, cache, watcher
        self.tracer = tracer
        self.players = scorer.players
        self.target = scorer.target
        self.limit = len(self.players) * self.target
        self.helps = scorer.conv.help
        self.record, self.record_limit = record, limit
        self.start = scorer.count
        self.corrections = 0
        #: the table changed (RULES.md 6.3): what was learnt is for another table, so
        #: every line after goes the full path
        self.changed = False
        self.table = cache.table(scorer.dealer, scorer.raspasy_run) if scorer.classic_idle else cache.busy
        cache.memo = memo(scorer, cache.memo)
        self.pools: list[Amount] = []
        self.ptotal: Amount = 0
        self.count = self.mark = self.lineno = 0

    def run(self) -> int:
        scorer, source = self.scorer, self.source
        pending, source.pending = source.pending, None
        source.started = True
        if pending is not None:
            if self.record is not None:
                self.record.append(pending[1])
            _slow(self, *pending)
        self.lineno = source.number
        self.load()
        numbered: Iterator[tuple[int, str]] = enumerate(source.lines, source.number + 1)
        streak = last = 0
        while True:
            miss = self.fixed_hits(numbered) if self.closed() else self.open_hits(numbered)
            if miss is None:
                break
            if miss is not _CLOSED:
                self.sync(miss[0] - 1)
                _slow(self, *miss)
                streak, last = (streak + 1 if miss[0] == last + 1 else 0), miss[0]
                if streak >= SLOW_STREAK:
                    # lines that miss one after another (a log wrong on every line): the
                    # full way line by line, until one is known
                    numbered, paused = _slow_run(self, numbered)
                    streak = 0
                    if paused:
                        self.load()
                        break
                self.load()
                if self.watcher is not None and self.watcher.pause():
                    break
        self.sync(self.lineno)
        source.number = self.lineno
        self.cache.flush(scorer.sheet)
        return scorer.count - self.start + self.corrections

    def closed(self) -> bool:
        """Where every pool write goes is fixed: every pool closed (with help), the pulya
        finished (without)."""
        if self.helps:
            target = self.target
            return all(v >= target for v in self.pools)
        return self.ptotal >= self.limit

    def load(self) -> None:
        """The state after a slow line (numbered ``lineno``), from the scorer."""
        sheet = self.scorer.sheet
        self.pools = [sheet.pool[p] for p in self.players]
        self.ptotal = sum(self.pools)
        self.count, self.mark = self.scorer.count, self.lineno

    def sync(self, last: int) -> None:
        """The scorer and the reader brought up to date with the hits up to line ``last``."""
        hits = last - self.mark
        scorer, sheet = self.scorer, self.scorer.sheet
        scorer.count = self.count + hits
        self.source.count += hits
        scorer.dealer, scorer.raspasy_run = _state(self)
        for name, v in zip(self.players, self.pools, strict=True):
            sheet.pool[name] = v

    def open_hits(self, numbered: Iterator[tuple[int, str]]) -> tuple[int, str] | None:
        """The hits while a pool may take points: each counted and its pool points added;
        returns the first line that misses, ``_CLOSED`` once the pools close, or None at
        the end."""
        cache, scorer = self.cache, self.scorer
        pools, ptotal, table = self.pools, self.ptotal, self.table
        target, limit, helps = self.target, self.limit, self.helps
        busy, derive, touched, digest = cache.busy, cache.derive, cache.touched.append, cache.digest
        watcher, trace = self.watcher, None if self.tracer is None else self.tracer.hit
        unfinished = scorer.after_finish_from is None
        told = unfinished or watcher is not None  # each hit after the finish is told to a watcher
        count, mark = self.count, self.mark
        get = table.get
        lineno = self.lineno
        try:
            for lineno, raw in numbered:  # noqa: B007
                if self.record is not None:
                    _recording(self, lineno, raw)
                k = get(raw)
                if k is None:
                    k = None if table is busy or watcher is not None else derive(table, raw)
                    if k is None:
                        return lineno, raw
                if told and ptotal >= limit:  # finished before this deal
                    if unfinished:
                        scorer.after_finish_from = count + lineno - mark
                        unfinished = False
                    if watcher is not None:
                        watcher.late(count + lineno - mark, lineno, raw)
                h = k.hits
                k.hits = h + 1
                if not h and not k.fixed:
                    touched(k)
                if digest is not None:
                    digest(k.key)
                table, get = k.next, k.get
                if k.pool:
                    after_finish = ptotal >= limit
                    writes = None if trace is None else list(k.others)
                    for p, a, w in k.pool:
                        v = pools[p] + a
                        if w.on is None and a > 0 and (v < target or not helps):
                            # the common case: all of it into his own pool (pool.place's first branch)
                            pools[p] = v if type(v) is int else exact(v)
                            ptotal += a
                            if writes is not None:
                                writes.append((p, a))
                            continue
                        moved = _place_one(self, w, after_finish)
                        ptotal = sum(pools)
                        if writes is not None:
                            writes += moved
                    if trace is not None and writes is not None:
                        trace(count + lineno - mark, _net(writes), k.tag)
                    if (ptotal >= limit and all(v >= target for v in pools)) if helps else ptotal >= limit:
                        return _CLOSED
                elif trace is not None:
                    trace(count + lineno - mark, _net(k.others), k.tag)
            return None
        finally:
            self.ptotal, self.table, self.lineno = ptotal, table, lineno

    def fixed_hits(self, numbered: Iterator[tuple[int, str]]) -> tuple[int, str] | None:
        """The hits once every pool write's place is fixed (``closed``): each only counted,
        the places of its pool writes found the first time (``FastCache.placed``); returns
        the first line that misses, or None at the end."""
        cache, scorer = self.cache, self.scorer
        table = self.table
        busy, derive, touched, digest = cache.busy, cache.derive, cache.touched.append, cache.digest
        watcher, trace = self.watcher, None if self.tracer is None else self.tracer.hit
        unfinished = scorer.after_finish_from is None
        count, mark = self.count, self.mark
        get = table.get
        lineno = self.lineno
        try:
            for lineno, raw in numbered:  # noqa: B007
                if self.record is not None:
                    _recording(self, lineno, raw)
                k = get(raw)
                if k is None:
                    k = None if table is busy or watcher is not None else derive(table, raw)
                    if k is None:
                        return lineno, raw
                if unfinished:  # closed: finished before this deal
                    scorer.after_finish_from = count + lineno - mark
                    unfinished = False
                if watcher is not None:
                    watcher.late(count + lineno - mark, lineno, raw)
                f = k.fixed
                k.fixed = f + 1
                if not f:
                    if not k.hits:
                        touched(k)
                    if k.pool:
                        _fix(self, k)
                if trace is not None:  # (what it writes is found once: ``_written``)
                    trace(count + lineno - mark, k.written or _written(cache, k), k.tag)
                if digest is not None:
                    digest(k.key)
                table, get = k.next, k.get
            return None
        finally:
            self.table, self.lineno = table, lineno


def _state(p: _Pass) -> tuple[str, int]:
    """The dealer and raspasy run ``p.table`` stands for (the scorer's own when busy)."""
    cache, table = p.cache, p.table
    return (p.scorer.dealer, p.scorer.raspasy_run) if table is cache.busy else cache.owner[id(table)]


def _slow_run(p: _Pass, numbered: Iterator[tuple[int, str]]) -> tuple[Iterator[tuple[int, str]], bool]:
    """Lines read the full way (``_slow``) one after another, with no hit between to
    bring the scorer up to date for, until one is known (given back to read as a hit),
    the log ends, or the watcher pauses (True)."""
    cache, watcher = p.cache, p.watcher
    for lineno, raw in numbered:
        table = p.table
        if raw in table or (table is not cache.busy and watcher is None and cache.derive(table, raw)):
            return itertools.chain(((lineno, raw),), numbered), False
        if p.record is not None:
            _recording(p, lineno, raw)
        _slow(p, lineno, raw)
        if watcher is not None and watcher.pause():
            return numbered, True
    return numbered, False


def _slow(p: _Pass, lineno: int, raw: str) -> None:
    """The full path for one line; learns it when it may."""
    scorer, source, cache, table = p.scorer, p.source, p.cache, p.table
    p.lineno = lineno
    problems = source.problems
    before = len(problems)
    d = source.one(lineno, raw)
    if d is None:
        if p.changed:
            p.table = cache.busy
        return
    plain = source.plain
    key = b""
    digest, keyer = cache.digest, cache.keyer
    if digest is not None and keyer is not None and not isinstance(d, Unreadable):
        key = keyer(d)
        digest(key)
    if isinstance(d, SeatChange):
        cache.flush(scorer.sheet)  # a newcomer's column is made from the mountains as written
    r = scorer.feed(d)
    tag = None if p.tracer is None or r is None else p.tracer.result(r)
    skip = r is not None and (p.watcher is None or p.watcher.result(r))
    if isinstance(d, (Correction, SeatChange)):
        p.corrections += 1
    p.changed = p.changed or isinstance(d, SeatChange)
    if p.changed or not scorer.classic_idle:
        p.table = cache.busy
        return
    if r is not None and skip and plain and len(problems) == before and table is not cache.busy:
        cache.learn(table, raw, scorer, r.kind == "raspasy", scorer.sheet, key, tag)
    p.table = cache.table(scorer.dealer, scorer.raspasy_run)


def _fix(p: _Pass, k: Known) -> None:
    """Where each of ``k``'s pool writes goes now that it is fixed (``_Pass.closed``), found
    once (``FastCache.placed``)."""
    cache, placed, at = p.cache, p.cache.placed, p.cache.at
    for _, _, w in k.pool:
        if w not in placed:
            now = dict(zip(p.players, p.pools, strict=True))
            placed[w] = tuple(
                (at(x.area, x.player, x.on), x.amount)
                for x in place(w, now, p.target, cache.conv, True, p.scorer._clockwise)
            )


def _written(cache: FastCache, k: Known) -> tuple[tuple[int, Amount], ...]:
    """What ``k`` adds to each cell once its pool writes are fixed (``_fix``), found once."""
    if k.written is None:
        k.written = _net(k.others + tuple(x for _, _, w in k.pool for x in cache.placed[w]))
    return k.written


def _net(writes: Sequence[tuple[int, Amount]]) -> tuple[tuple[int, Amount], ...]:
    """Writes added up per cell, the cells they leave as they were left out (what a
    ``Tracer`` is shown)."""
    if len(writes) == 1:
        return tuple(writes) if writes[0][1] else ()
    net: dict[int, Amount] = {}
    for i, a in writes:
        net[i] = net.get(i, 0) + a
    return tuple((i, a) for i, a in net.items() if a)


def _place_one(p: _Pass, w: Write, after_finish: bool) -> list[tuple[int, Amount]]:
    """``pool.place`` for one write, its entries written: pools into ``p.pools``, the rest
    onto the sheet; returns them as (flat index, amount)."""
    players, pools, at, n, scorer = p.players, p.pools, p.cache.at, len(p.players), p.scorer
    now = dict(zip(players, pools, strict=True))
    out: list[tuple[int, Amount]] = []
    for x in place(w, now, p.target, scorer.conv, after_finish, scorer._clockwise):
        i = at(x.area, x.player, x.on)
        out.append((i, x.amount))
        if i < n:
            pools[i] = exact(pools[i] + x.amount)
        else:
            scorer.sheet.apply(Entry(0, *x))
    return out


def _recording(p: _Pass, lineno: int, raw: str) -> None:
    """``raw`` recorded while fewer than ``record_limit`` items were read before it."""
    assert p.record is not None
    if p.count + lineno - p.mark - 1 - p.start + p.corrections >= p.record_limit:
        p.record = None  # enough: the log is not short
    else:
        p.record.append(raw)
