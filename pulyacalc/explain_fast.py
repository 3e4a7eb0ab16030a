"""``explain``'s fast path for line logs: a deal line read before in the same state is one
look-up and a few additions, as for ``score`` (scoring/fast.py), and reaches the renderer
as a ``Hit`` — its ``Head`` (what the explanation says of the deal but its number, its
place in the log and the finish) and its ``Block`` (what it writes) — instead of a
``DealExplained`` built anew.  The renderer (render/explain_fast.py) draws each block once
per run and fills in what varies per deal: the number, the line, the paper.

What a line does is a pure function of its text and of the dealer and raspasy run it is
read in (``fold.KEY``), except where its pool points go (RULES.md 2.8): so ``Seen`` keeps,
per (dealer, run) and raw line, what the full path (``Scorer.feed``) wrote, and a hit
places the pool points again on the pools as they stand.  Every ordinary deal scored the
full way is a ``Hit`` too (its head and block made from its result); a correction, a seat
change, Classic's bombs, and everything after a seat change come as the full path's
``DealExplained`` (``whole``).  What is kept is small — per state and line a few tuples,
per distinct set of writes one ``Block`` — and bounded: all of it is forgotten at once
when full.  tests/test_explain_fast.py holds every format's bytes to the plain path's.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.model import Correction, Play, Raspasy, SeatChange, Unreadable
from pulyacalc.core.sheet import MOUNTAIN, POOL, SheetView, Write
from pulyacalc.scoring.pool import place

if TYPE_CHECKING:
    from pulyacalc.core.errors import Problems
    from pulyacalc.logs.lines import LineDeals
    from pulyacalc.scoring.fold import DealResult, Scorer

#: lines remembered over all states, and distinct sets of writes: everything is forgotten
#: at once when either is full, so that memory stays flat however long the log
SEEN_SIZE = 60_000
BLOCKS_SIZE = 8_000
#: the progress bar is told the line once per this many lines
PROGRESS_EVERY = 1024


class Block:
    """A deal's writes in order (its entries but for their number), ``cells`` where they
    go on the flat paper (``FastDeals.vals``), each once; ``drawn``: the renderer's template."""

    __slots__ = ("writes", "cells", "drawn")

    def __init__(self, writes: tuple[Write, ...], cells: tuple[int, ...]) -> None:
        self.writes, self.cells = writes, cells
        self.drawn: Any = None


class Head:
    """What an ordinary deal's explanation says of it but its number, its line in the log
    and whether the pulya was finished before it."""

    __slots__ = ("kind", "dealer", "line", "column", "run", "drawn")

    def __init__(self, kind: str, dealer: str, line: str, column: int, run: int) -> None:
        self.kind, self.dealer, self.line, self.column, self.run = kind, dealer, line, column, run
        #: the renderer's own (its values, encoded once)
        self.drawn: Any = None


#: an ordinary deal: (head, block, number, line in the log, after the pulya was finished)
Hit = tuple[Head, Block, int, int, bool]


class Seen:
    """What a raw line does in one state (dealer, run): its writes off the pools
    (``others``: flat cell and amount), its pool points to place (``pool``: flat cell and
    write), the state after it (``next``: that state's table, ``dealer``, ``run``), its
    head, its block when every pool point goes into the player's own pool (``block``), and
    once where they go is fixed (``fixed``: the block and the additions)."""

    __slots__ = (
        "writes",
        "others",
        "pool",
        "next",
        "get",
        "dealer",
        "run",
        "head",
        "block",
        "fixed",
        "ends",
        "free",
    )

    def __init__(
        self,
        writes: tuple[Write, ...],
        others: tuple[tuple[int, Amount], ...],
        pool: tuple[tuple[int, Write], ...],
        nxt: dict[str, Seen],
        state: tuple[str, int],
        head: Head,
        block: Block,
    ) -> None:
        self.writes, self.others, self.pool = writes, others, pool
        self.next, self.get = nxt, nxt.get
        self.dealer, self.run = state
        self.head, self.block = head, block
        self.fixed: tuple[Block, tuple[tuple[int, Amount], ...]] | None = None
        #: a contract that ends a raspasy run (raspasy.run_ends_on): the run after it is 0
        self.ends = False
        #: a contract that writes the same whoever dealt (``free``)
        self.free = False


class FastDeals:
    """The deals of a line log for ``explain``, as ``Hit`` or the full path's explained
    deal, with the paper kept flat in ``vals``: player i's pool at ``i*(n+2)``, mountain at
    ``i*(n+2)+1``, whists on player j at ``i*(n+2)+2+j``."""

    def __init__(
        self,
        scorer: Scorer,
        source: LineDeals | ListDeals,
        text: Callable[[Any, str], str],
        whole: Callable[[DealResult], Any],
    ) -> None:
        """``text``: a deal as one line (``explain.deal_text``); ``whole``: a result of the
        full path explained, on the scorer's paper as it stands."""
        self.scorer, self.source, self.text, self.whole = scorer, source, text, whole
        self.players = players = scorer.sheet.players
        self.n = n = len(players)
        self.index = {p: i for i, p in enumerate(players)}
        self.vals: list[Amount] = [0] * (n * (n + 2))
        self.tables: dict[tuple[str, int], dict[str, Seen]] = {}
        self.owner: dict[int, tuple[str, int]] = {}
        self.blocks: dict[tuple[Write, ...], Block] = {}
        #: each parse's deal as one line (``text``), and each head (``head``)
        self.texts: dict[Any, str] = {}
        self.heads: dict[tuple[str, str, str, int, int], Head] = {}
        #: each set of writes' ``Seen.fixed`` (``fixed``)
        self.fixes: dict[Any, tuple[Block, tuple[tuple[int, Amount], ...]]] = {}
        self.seen = 0
        #: whether a contract writes the same whoever dealt (``free``; None: not yet asked)
        self.contracts_free: bool | None = None
        #: each dealer's next (``Seats.next_dealer``)
        self.next_dealer: dict[str, str] = {}
        #: a seat change was read: the table is another, everything goes the full path
        self.changed = False
        self.stop = False
        self.load()

    def at(self, area: str, player: str, on: str | None) -> int:
        i = self.index[player] * (self.n + 2)
        if area == POOL:
            return i
        if area == MOUNTAIN:
            return i + 1
        assert on is not None
        return i + 2 + self.index[on]

    def load(self) -> None:
        """``vals`` from the scorer's sheet."""
        sheet, n, vals = self.scorer.sheet, self.n, self.vals
        for i, p in enumerate(self.players):
            b = i * (n + 2)
            vals[b] = sheet.pool[p]
            vals[b + 1] = sheet.mountain[p]
            for q, v in sheet.whists[p].items():
                vals[b + 2 + self.index[q]] = v

    def store(self) -> None:
        """The scorer's sheet from ``vals``."""
        sheet, n, vals = self.scorer.sheet, self.n, self.vals
        for i, p in enumerate(self.players):
            b = i * (n + 2)
            sheet.pool[p] = vals[b]
            sheet.mountain[p] = vals[b + 1]
            row = sheet.whists[p]
            for q in row:
                row[q] = vals[b + 2 + self.index[q]]

    def view(self) -> SheetView:
        """The paper now."""
        if not self.changed:
            self.store()
        return self.scorer.sheet.view()

    def table(self, dealer: str, run: int) -> dict[str, Seen]:
        t = self.tables.get((dealer, run))
        if t is None:
            t = self.tables[dealer, run] = {}
            self.owner[id(t)] = (dealer, run)
        return t

    def block(self, writes: tuple[Write, ...]) -> Block:
        """The one ``Block`` of these writes."""
        b = self.blocks.get(writes)
        if b is None:
            if len(self.blocks) >= BLOCKS_SIZE:
                self.forget()
            at = self.at
            # each cell once: the renderer draws the cells a deal changed
            cells = tuple(dict.fromkeys(at(w.area, w.player, w.on) for w in writes))
            b = self.blocks[writes] = Block(writes, cells)
        return b

    def head(self, kind: str, dealer: str, line: str, column: int, run: int) -> Head:
        """The one ``Head`` of what it says (so drawn once, whatever state it is read in)."""
        key = (kind, dealer, line, column, run)
        h = self.heads.get(key)
        if h is None:
            if len(self.heads) >= SEEN_SIZE:
                self.heads.clear()
            h = self.heads[key] = Head(kind, dealer, line, column, run)
        return h

    def forget(self) -> None:
        """Everything learnt forgotten (a cache is full)."""
        for t in self.tables.values():
            t.clear()  # in place: every Seen's ``next`` stays a table of ours
        self.blocks.clear()
        self.texts.clear()
        self.heads.clear()
        self.fixes.clear()
        self.seen = 0

    def item(self, r: DealResult) -> Hit | Any:
        """A result of the full path as it reaches the renderer: a ``Hit`` when it is an
        ordinary deal read from a line (no bomb, no seat change so far), else explained whole."""
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
            return self.whole(r)
        template = getattr(r.deal, "template", None)
        line = self.texts.get(template) if template is not None else None
        if line is None:
            line = self.text(r.deal, r.kind)
            if template is not None:
                if len(self.texts) >= SEEN_SIZE:
                    self.texts.clear()
                self.texts[template] = line  # the same parse, the same text (explain.deal_text)
        head = self.head(r.kind, r.dealer, line, loc.column, r.raspasy_run)
        block = self.block(tuple(Write(e.rule, e.player, e.area, e.amount, e.on, e.why) for e in r.entries))
        return head, block, r.number, loc.line, r.after_finish

    def learn(self, table: dict[str, Seen], raw: str, hit: Hit, written: Any, deal: Any) -> None:
        """Remember the line the full path just scored (``written``: ``Scorer.last``, what
        it wrote before its pool points were placed; ``deal``: what it was read as) in
        ``table``."""
        if self.seen >= SEEN_SIZE:
            self.forget()
        _, others, pool, ends_run, _ = written
        at, scorer = self.at, self.scorer
        writes = (*others, *pool)
        block = hit[1] if hit[1].writes == writes else self.block(writes)
        k = table[raw] = Seen(
            others,
            tuple((at(w.area, w.player, w.on), w.amount) for w in others),
            tuple((at(POOL, w.player, None), w) for w in pool),
            self.table(scorer.dealer, scorer.raspasy_run),
            (scorer.dealer, scorer.raspasy_run),
            hit[0],
            block,
        )
        k.ends = ends_run and hit[0].kind != "raspasy"
        k.free = type(deal) is Play and deal.dealer is None and hit[0].kind != "raspasy" and free(self, deal)
        self.seen += 1

    def items(
        self,
        upto: int | None,
        progress: Callable[[int], None] | None,
        end: Callable[[], None] | None = None,
    ) -> Iterator[Hit | Any]:
        """Every deal and correction of the log in order (up to deal ``upto`` and the
        corrections after it, as ``explain._upto`` reads them); ``end`` is called after
        the last (in the place of a generator around this one, which would cost every
        deal a step)."""
        return _items(self, upto, progress, end)


def free(self: FastDeals, deal: Play) -> bool:
    """Whether a contract (a ``Play`` that names no dealer) writes the same whoever
    dealt: when ``resolve`` reads the same of the seats under every dealer
    (``resolve.seating``: with two or three players, nobody sits out), the scorer
    shares its answer and what it writes across dealers (``fold._resolved``,
    ``fold.written_key``), and only the dealer named in its head and the next dealer
    differ.  Asked once per table (a seat change sends everything the full way)."""
    if self.contracts_free is None:
        from pulyacalc.core.seating import Seats
        from pulyacalc.scoring.resolve import seating

        scorer = self.scorer
        seen = {seating(deal, Seats(self.players, p, scorer.conv.five_second_out)) for p in self.players}
        self.contracts_free = len(seen) == 1
    return self.contracts_free


#: lines that could not be read remembered (``_items``)
UNREADABLE = 10_000


def derive(self: FastDeals, table: dict[str, Seen], raw: str) -> Seen | None:
    """A contract read in a raspasy run writes what it writes outside one (2.7:
    ``fold.KEY`` holds run 0 for any deal that is not raspasy); only the run after it
    differs (scoring/fast.py derives it alike).  A contract learnt under another
    dealer that writes the same whoever dealt (``Seen.free``) likewise: only its head's
    dealer and the next state differ.  None when ``raw`` is no such contract."""
    dealer, run = self.owner[id(table)]
    k0 = self.table(dealer, 0).get(raw) if run else None
    if k0 is None or k0.head.kind == "raspasy":
        return other_dealer(self, table, raw, dealer, run)
    k = Seen(
        k0.writes,
        k0.others,
        k0.pool,
        k0.next if k0.ends else self.table(k0.dealer, run),
        (k0.dealer, 0 if k0.ends else run),
        k0.head,
        k0.block,
    )
    k.ends, k.fixed = k0.ends, k0.fixed
    table[raw] = k
    self.seen += 1
    return k


def other_dealer(self: FastDeals, table: dict[str, Seen], raw: str, dealer: str, run: int) -> Seen | None:
    """:func:`derive` from the same contract learnt under another dealer (out of a
    raspasy run), when it writes the same whoever dealt."""
    tables = self.tables
    for p in self.players:
        t = tables.get((p, 0)) if p != dealer else None
        k1 = t.get(raw) if t is not None else None
        if k1 is None or not k1.free:
            continue
        nxt = self.next_dealer.get(dealer)
        if nxt is None:
            from pulyacalc.core.seating import Seats

            nxt = Seats(self.players, dealer, self.scorer.conv.five_second_out).next_dealer()
            self.next_dealer[dealer] = nxt
        h = k1.head
        k = Seen(
            k1.writes,
            k1.others,
            k1.pool,
            self.table(nxt, 0 if k1.ends else run),
            (nxt, 0 if k1.ends else run),
            self.head(h.kind, dealer, h.line, h.column, h.run),
            k1.block,
        )
        k.ends, k.fixed, k.free = k1.ends, k1.fixed, True
        table[raw] = k
        self.seen += 1
        return k
    return None


def fixed(self: FastDeals, k: Seen, after_finish: bool) -> tuple[Block, tuple[tuple[int, Amount], ...]]:
    """Where ``k``'s pool points go once that is fixed (every pool closed, or the pulya
    finished without help): its block then, and what it adds to each cell (its writes
    off the pools and its pool points where they go, summed per cell: one addition a
    cell it changes, exact as the additions one by one)."""
    # the same writes in any state are fixed alike (a line under each dealer and run)
    key = (k.writes, k.pool)
    known = self.fixes.get(key)
    if known is not None:
        k.fixed = known
        return known
    scorer, n, vals = self.scorer, self.n, self.vals
    pools = {p: vals[i * (n + 2)] for i, p in enumerate(self.players)}
    placed = tuple(
        x
        for _, w in k.pool
        for x in place(w, pools, scorer.target, scorer.conv, after_finish, scorer._clockwise)
    )
    adds: dict[int, Amount] = {}
    for i, a in (*k.others, *((self.at(x.area, x.player, x.on), x.amount) for x in placed)):
        adds[i] = adds.get(i, 0) + a
    block = self.block((*k.writes, *placed)) if placed else k.block
    if len(self.fixes) >= BLOCKS_SIZE:
        self.fixes.clear()
    k.fixed = self.fixes[key] = (block, tuple((i, exact(a)) for i, a in adds.items() if a))
    return k.fixed


def _placed(self: FastDeals, k: Seen, j: int, after_finish: bool) -> Block:
    """A hit whose pool write ``j`` (and those after it) do not simply go into the
    player's own pool: each placed by ``pool.place`` on the pools as they stand."""
    scorer, n, vals, at = self.scorer, self.n, self.vals, self.at
    out = [w for _, w in k.pool[:j]]
    for i, w in k.pool[j:]:
        v, a = vals[i], w.amount
        if w.on is None and (
            scorer.target - v > 0 and a < scorer.target - v if scorer.conv.help else not after_finish
        ):
            vals[i] = exact(v + a)
            out.append(w)
            continue
        pools = {p: vals[q * (n + 2)] for q, p in enumerate(self.players)}
        for x in place(w, pools, scorer.target, scorer.conv, after_finish, scorer._clockwise):
            c = at(x.area, x.player, x.on)
            vals[c] = exact(vals[c] + x.amount)
            out.append(x)
    return self.block((*k.writes, *out))


def _items(
    self: FastDeals,
    upto: int | None,
    progress: Callable[[int], None] | None,
    end: Callable[[], None] | None,
) -> Iterator[Hit | Any]:
    """:meth:`FastDeals.items`: the loop of scoring/fast.py, each deal told.  Between two
    lines read the full way the scorer and the reader are not told of the hits: ``hits``
    counts them and ``last`` is the last one's, so that ``sync`` brings them up to date."""
    scorer, source, vals = self.scorer, self.source, self.vals
    problems = source.problems
    n = self.n
    target = scorer.target
    limit = n * target
    helps = scorer.conv.help
    pools_at = tuple(i * (n + 2) for i in range(n))
    #: deals read, problems kept, and whether the last line read the full way left the
    #: paper as it was (a deal that could not be read: vals and the scorer's sheet agree)
    state: dict[str, Any] = {"read": 0, "kept": len(problems.items), "same": False}
    hits = 0
    last: Seen | None = None
    #: lines that could not be read: none is ever learnt, so none is derived (``derive``
    #: only spares the full way, which reads such a line again and says why)
    unreadable: set[str] = set()

    def sync() -> None:
        nonlocal hits, last
        scorer.count += hits
        source.count += hits
        hits = 0
        if last is not None:
            scorer.dealer, scorer.raspasy_run = last.dealer, last.run
            last = None

    def slow(lineno: int, raw: str, table: dict[str, Seen] | None) -> Iterator[Hit | Any]:
        """The full path for one line; learns it when it may."""
        same = state["same"] and not hits  # no hit since: the scorer's paper is vals already
        state["same"] = False
        sync()
        if not self.changed and not same:
            self.store()
        before = len(problems)
        d = source.one(lineno, raw)
        if d is None:
            return
        if not isinstance(d, Correction):
            state["read"] += 1
            if upto is not None and state["read"] > upto:
                del problems.items[state["kept"] :]  # the next deal's: not ours (explain._upto)
                self.stop = True
                return
        plain = source.plain
        # (a deal that could not be read is never learnt: its state need not be looked at)
        idle = type(d) is not Unreadable and scorer.classic_idle and not self.changed
        r = scorer.feed(d)
        state["kept"] = len(problems.items)
        self.changed = self.changed or isinstance(d, SeatChange)
        # a deal that could not be read only passes the deal on: the paper is as it was
        state["same"] = unread = type(d) is Unreadable
        if unread:  # (never learnt: not looked for under other states again, bounded)
            if len(unreadable) >= UNREADABLE:
                unreadable.clear()
            unreadable.add(raw)
        if not self.changed and not unread:
            self.load()
        if r is None:
            return
        item = self.item(r)
        yield item
        if (
            type(item) is tuple
            and table is not None
            and idle
            and plain
            and scorer.classic_idle
            and len(problems) == before
            and scorer.last is not None
        ):
            self.learn(table, raw, item, scorer.last, d)

    def now() -> tuple[Amount, bool]:
        """The pools' total and whether every pool is closed."""
        return sum(vals[i] for i in pools_at), all(vals[i] >= target for i in pools_at)

    self.stop = False
    table = None if self.changed or not scorer.classic_idle else self.table(scorer.dealer, scorer.raspasy_run)
    pending, source.pending = source.pending, None
    source.started = True
    if pending is not None:
        yield from slow(*pending, table)
        table = (
            None if self.changed or not scorer.classic_idle else self.table(scorer.dealer, scorer.raspasy_run)
        )
    ptotal, closed = now()
    #: every pool point's place fixed (``closed`` with help, the pulya finished without):
    #: each hit then only adds its ``Seen.fixed`` and changes no pool
    settled = closed if helps else ptotal >= limit
    marked = scorer.after_finish_from is not None
    read, count = state["read"], scorer.count
    stop_at = sys.maxsize if upto is None else upto
    lineno = source.number
    get = table.get if table is not None else None
    numbered = (
        source.numbered() if isinstance(source, ListDeals) else enumerate(source.lines, source.number + 1)
    )
    for lineno, raw in () if self.stop else numbered:  # noqa: B007
        if progress is not None and not lineno % PROGRESS_EVERY:
            progress(lineno)
        k = get(raw) if get is not None else None
        if k is None and table is not None and raw not in unreadable:
            k = derive(self, table, raw)
        if k is None:
            state["read"] = read
            yield from slow(lineno, raw, table)
            if self.stop:
                break
            read, count = state["read"], scorer.count
            if not state["same"]:
                ptotal, closed = now()
                settled = closed if helps else ptotal >= limit
            marked = scorer.after_finish_from is not None
            table = (
                None
                if self.changed or not scorer.classic_idle
                else self.table(scorer.dealer, scorer.raspasy_run)
            )
            get = table.get if table is not None else None
            continue
        read += 1
        if read > stop_at:
            del problems.items[state["kept"] :]  # lines read since the last item: not ours
            break
        hits += 1
        count += 1
        if settled:
            if not marked:
                if scorer.after_finish_from is None:
                    scorer.after_finish_from = count
                marked = True
            # where each pool point goes is fixed per write now, and changes no pool
            block, adds = k.fixed or fixed(self, k, True)
            for i, a in adds:
                v = vals[i] + a
                vals[i] = v if type(v) is int else exact(v)
            last = k
            yield k.head, block, count, lineno, True
            table = k.next
            get = k.get
            continue
        after_finish = ptotal >= limit
        if after_finish and not marked:
            if scorer.after_finish_from is None:
                scorer.after_finish_from = count
            marked = True
        for i, a in k.others:
            v = vals[i] + a
            vals[i] = v if type(v) is int else exact(v)
        block = k.block
        if k.pool:
            for j, (i, w) in enumerate(k.pool):
                v = vals[i]
                a = w.amount
                room = target - v
                if w.on is None and (room > 0 and a < room if helps else True):
                    # the common case: all of it into his own pool, which it does not close
                    s = v + a
                    vals[i] = s if type(s) is int else exact(s)
                    ptotal += a
                    continue
                block = _placed(self, k, j, after_finish)
                ptotal, closed = now()
                break
            settled = closed if helps else ptotal >= limit
        last = k
        yield k.head, block, count, lineno, after_finish
        table = k.next
        get = k.get
    sync()
    source.number = lineno
    if progress is not None:
        progress(lineno)
    if not self.changed:
        self.store()
    if end is not None:
        end()


class ListDeals:
    """A log's deals read whole (a YAML log's: logs/yaml_log.py), read by ``FastDeals`` as
    a line log's lines: each numbered by its line in the log, and keyed, in the place of a
    line's text, by what makes it the same deal wherever it stands: the text it was read
    from (``Deal.template``, shared by the deals of one text) and its column.  A deal
    without one (a mapping, a correction, a seat change, one that could not be read) is
    keyed by None: read the full way, never learnt."""

    __slots__ = ("deals", "problems", "pending", "started", "number", "count", "plain", "current")

    def __init__(self, deals: list[Any], problems: Problems) -> None:
        self.deals, self.problems = deals, problems
        #: as ``LineDeals`` has them: no line read ahead; the last line number; deals counted
        self.pending: tuple[int, str] | None = None
        self.started = False
        self.number = self.count = 0
        self.plain = False
        self.current: Any = None

    def numbered(self) -> Iterator[tuple[int, Any]]:
        """Each deal's line and key, the deal kept for ``one``."""
        for d in self.deals:
            self.current = d
            template = getattr(d, "template", None)
            yield d.loc.line or 0, None if template is None else (template, d.loc.column)

    def one(self, lineno: int, key: Any) -> Any:
        """The deal just numbered; ``plain`` when it has a key."""
        d = self.current
        self.plain = key is not None and type(d) in (Play, Raspasy)
        self.count += 1
        return d
