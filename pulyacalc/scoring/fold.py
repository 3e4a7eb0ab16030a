"""Scoring as a fold over deals: ``Scorer.run`` yields a small ``Step`` for each item of a log.

The fold holds no rule of the game: it asks ``resolve``, ``rules.written`` (RULES.md 2.1–2.7)
and ``pool.place`` (2.8).  Its one cache (``Memo``) remembers the pure answers per ``KEY``
(tests/test_scoring_pure.py); ``Scorer(memo=False)`` remembers nothing (tests/test_fold_memo.py).
A scorer whose sheet is read only at the end (``owing``) adds the known writes that touch no
pool once per distinct line, counted."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from functools import partial
from itertools import chain, count
from operator import attrgetter
from typing import NamedTuple, Protocol

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import MAX_SUM_DENOMINATOR, MAX_WRITTEN, Amount, exact, past_limit
from pulyacalc.core.errors import Loc, Problems, shown
from pulyacalc.core.i18n import M_, N_, Text
from pulyacalc.core.kinds import DummyHand, ResultKind, SecondOut
from pulyacalc.core.model import Correction, Deal, Header, Play, Raspasy, SeatChange, Unreadable
from pulyacalc.core.remembered import Remembered
from pulyacalc.core.seating import Seats, Vacated, change_table
from pulyacalc.core.sheet import MOUNTAIN, POOL, Entry, Sheet, SheetView, Write
from pulyacalc.scoring.pool import Settled, place, settled, settled_deal, settled_paper
from pulyacalc.scoring.resolve import Resolved, resolve
from pulyacalc.scoring.resolve import seating as resolve_seating
from pulyacalc.scoring.rules import Written, seating, written


class DealResult(NamedTuple):
    """What one deal (or a correction, or a seat change) did to the sheet."""

    #: the deal's number; a correction has the number of the deal before it (0: none)
    number: int
    deal: Deal | Correction | SeatChange
    dealer: str  # "" for a correction, which is not dealt
    kind: ResultKind
    entries: tuple[Entry, ...]
    after_finish: bool  # the pool was finished before this deal (RULES.md 2.8)
    #: consecutive raspasy count at this deal (1 = first of a run; 0 for other deals)
    raspasy_run: int
    #: the raspasy run before this deal: for a contract, the run it is the exit from (2.7)
    after_raspasy: int
    #: Classic (RULES.md 2.10): the declarer's bomb in play (1: none), dark level (0: none), bombs earned
    bomb: int = 1
    dark: int = 0
    bombs_earned: tuple[tuple[str, int], ...] = ()
    bomb_spent: bool = False  # used up by his won game (K note 29)
    after_dark: int = 0  # the level of the dark raspasy just before this deal
    table: tuple[str, ...] = ()  # a seat change's table after it (RULES.md 6.3)


#: the cache key, in ``_written_of``'s order: (parameter of ``resolve`` / ``rules.written``, what it holds)
KEY: tuple[tuple[str, str], ...] = (
    ("deal", "template"),
    ("seats", "dealer"),
    ("run", "run"),
    ("bomb", "bomb"),
    ("dark", "dark"),
)
#: the other parameters of those functions, and why the key need not cover them
NOT_KEYED: dict[str, str] = {
    "conv": "fixed for the scorer's life",
    "problems": "only added to (resolve counts its own); a deal with a problem is never remembered",
    "resolved": "resolve's answer for the same key",
}

#: answers (``resolve``, ``rules.written``) and raw lines kept; all forgotten when full: memory stays flat
WRITTEN_CACHE_SIZE = 50_000
LINES_CACHE_SIZE = 100_000


#: the parts of a resolved deal ``written`` reads as they are (its deal is read by its
#: ``template``, its seats by ``rules.seating``): a part added to ``Resolved`` is read too
_RESOLVED_PARTS = attrgetter(*(f.name for f in fields(Resolved) if f.name not in ("deal", "seats")))


def written_key(res: Resolved, run: int, bomb: int, dark: int) -> Hashable | None:
    """Everything ``rules.written`` reads of its arguments but the convention, or None for a
    deal without a ``template``: with three players, the same line whoever dealt."""
    template = res.deal.template
    return None if template is None else (template, _RESOLVED_PARTS(res), seating(res), run, bomb, dark)


_NOT_AT_TABLE = N_("a correction names someone not at the table: {names}")
_PAST_LIMIT = N_(
    "this {what} would make {player}'s {area} {amount}, past the limit of 10^30 in size and "
    'a denominator of 10^12 (docs/format.md "Limits")'
)
_PAST_HINT = N_("check the convention's prices, dark.factor and bombs.cap, and the corrections above")
_DARKEST = N_(
    'this dark raspasy would be worth ×{factor}^{level}, past the limit of 10^30 (docs/format.md "Limits"): '
    "{level} dark raspasy in a row and no bombs.cap"
)


def _past(problems: Problems, loc: Loc, what: Text, player: str, area: str, amount: Amount) -> None:
    """The problem of a write past the limit; its amount shortened to its first digits."""
    q = Fraction(amount)
    text: str = f"{float(q):.6g}" if abs(q) < 10**300 else "> 1e300"
    if q.denominator > MAX_SUM_DENOMINATOR:
        digits = N_("{amount} (a fraction whose denominator has {n} digits)")
        text = M_(digits, amount=text, n=len(str(q.denominator)))
    problems.add(loc, M_(_PAST_LIMIT, what=what, amount=text, player=player, area=M_(area)), M_(_PAST_HINT))


@dataclass(slots=True, eq=False)
class DealWrites:
    """What one deal (correction, seat change) wrote, undated.  One object per distinct set of
    writes while the fold remembers, so a consumer may key a cache by it (it hashes by identity)."""

    written: Written | None
    others: tuple[Write, ...]
    placed: tuple[Write, ...]

    def writes(self) -> tuple[Write, ...]:
        """Everything written, in the order it was written (``DealResult.entries``, undated)."""
        return self.others + self.placed


class LineSource(Protocol):
    """A line log's reader as the fold reads it (``logs.lines.LineDeals``): ``plain`` says
    the last line ``one`` read reads the same anywhere, ``again`` makes a known line's deal."""

    lines: Iterator[str]
    pending: tuple[int, str] | None
    number: int
    count: int
    plain: bool
    started: bool

    def one(self, lineno: int, raw: str) -> Deal | Correction | SeatChange | Unreadable | None: ...

    def again(self, lineno: int, raw: str, template: Hashable) -> Deal: ...


@dataclass(slots=True, eq=False)
class Flat:
    """A known line's ``writes`` under one class of paper (``how``, ``pool.settled_deal``); ``adds``:
    those summed per cell (None until read again under ``how``: most are not); ``more``: what they add
    to the table's pools; ``owed``: they write in no pool (``Scorer.owing`` may add them up later)."""

    how: Settled
    writes: DealWrites
    adds: tuple[Write, ...] | None = None
    more: Amount = 0
    owed: bool = False

    def sum(self, players: tuple[str, ...]) -> tuple[Write, ...]:
        """Its writes summed per cell of the paper (``adds``, ``more``, ``owed`` set)."""
        cells: dict[tuple[str, str, str | None], tuple[Write, Amount]] = {}
        for w in self.writes.writes():
            key = (w.area, w.player, w.on)
            was = cells.get(key)
            cells[key] = (w, w.amount) if was is None else (was[0], was[1] + w.amount)
        adds = tuple(w if a is w.amount else w._replace(amount=exact(a)) for w, a in cells.values() if a)
        self.adds = adds
        self.more = exact(sum(w.amount for w in adds if w.area == POOL and w.player in players))
        self.owed = all(w.area != POOL for w in adds)
        return adds


@dataclass(slots=True, eq=False, repr=False)  # (its ``next`` leads to every line known)
class Line:
    """A raw deal line read before in one state (dealer, raspasy run, no Classic state in play):
    read again in the same state, no deal is made, nothing resolved or checked."""

    raw: str
    template: Hashable
    written: Written
    dealer: str
    run: int
    next_dealer: str
    run_after: int
    next: dict[str, Line]
    #: its writes per class of paper (shared with lines of the same writes: ``_derived``, ``_dealt_alike``)
    flats: dict[Settled, Flat] = field(default_factory=dict)
    #: what it wrote the last time it was read (``DealWrites``: the same, mostly)
    writes: DealWrites | None = None


class Memo:
    """The fold's one cache, one copy of each distinct value kept (``same_*``).  Scorers of the
    same players and convention may share one (``season``)."""

    def __init__(self) -> None:
        self.written: dict[tuple[Hashable, str, int, int, int], Written] = {}
        self.by_parts: dict[Hashable, Written] = {}
        self.resolved: dict[tuple[Hashable, tuple[object, ...]], Resolved] = {}
        self.same_written: dict[Written, Written] = {}
        self.same_writes: dict[Write, Write] = {}
        self.same_placed: dict[tuple[Write, ...], tuple[Write, ...]] = {}
        #: (id of an interned write, ``pool.settled``'s class) → (the write, ``place``'s answer)
        self.placed: dict[tuple[int, Settled], tuple[Write, tuple[Write, ...]]] = {}
        #: (id of ``written``, id of ``placed``) → their ``DealWrites``
        self.deal_writes: dict[tuple[int, int], DealWrites] = {}
        self.lines: dict[tuple[str, int], dict[str, Line]] = {}
        self.learnt = 0

    def table(self, dealer: str, run: int) -> dict[str, Line]:
        """The lines known in the state (``dealer`` deals next, raspasy ``run``)."""
        return self.lines.setdefault((dealer, run), {})

    def full(self) -> bool:
        most = max(len(self.written), len(self.by_parts), len(self.resolved), len(self.deal_writes))
        return most >= WRITTEN_CACHE_SIZE or self.learnt >= LINES_CACHE_SIZE

    def forget(self) -> None:
        """Forget everything; line tables are emptied in place, as each known line points to one."""
        for d in (self.written, self.by_parts, self.resolved, self.same_written, self.same_writes):
            d.clear()
        for c in (self.same_placed, self.placed, self.deal_writes):
            c.clear()
        for t in self.lines.values():
            t.clear()
        self.learnt = 0


class Step(NamedTuple):
    """What ``Scorer.run`` yields per deal (correction, seat change); entries, result, deal made if asked."""

    number: int  # as ``DealResult``'s
    line: int  # the line it was read at
    dealer: str
    kind: ResultKind
    writes: DealWrites
    after_finish: bool
    raspasy_run: int
    after_raspasy: int
    bomb: int
    dark: int
    bombs_earned: tuple[tuple[str, int], ...]
    bomb_spent: bool
    after_dark: int
    table: tuple[str, ...]
    item: Deal | Correction | SeatChange | Line  # a known line's ``Line``, made by ``reader``
    reader: LineSource | None

    def deal(self) -> Deal | Correction | SeatChange:
        """The deal (correction, seat change), made now for a line known before."""
        item = self.item
        if isinstance(item, Line):
            assert self.reader is not None
            return self.reader.again(self.line, item.raw, item.template)
        return item

    def entries(self) -> tuple[Entry, ...]:
        n = self.number
        return tuple([_new_entry((n, *w)) for w in self.writes.writes()])

    def result(self) -> DealResult:
        # the fields from ``after_finish`` to ``table`` are the result's, in its order
        return DealResult(self.number, self.deal(), self.dealer, self.kind, self.entries(), *self[5:14])


#: a ``Step`` from a tuple, skipping ``__new__``'s 16-argument call (known lines make a million a log)
_new_step = partial(tuple.__new__, Step)
_new_entry = partial(tuple.__new__, Entry)  # (each entry: a Write's six fields after its deal)

Item = Deal | Correction | SeatChange | Unreadable


class Scorer:
    """The fold: deals that break a rule are reported into ``problems``, not scored and never
    remembered.  ``memo``: True a fresh ``Memo``, False none, or one shared."""

    def __init__(
        self,
        header: Header,
        conv: Convention,
        problems: Problems | None = None,
        start: SheetView | None = None,  # the paper the first deal is written on
        memo: Memo | bool = True,
    ) -> None:
        self.players = header.players
        self.conv = conv
        self.target = header.pool if header.pool is not None else conv.pool_target
        self.sheet = Sheet(header.players, start)
        self.problems = problems if problems is not None else Problems()
        self.dealer = header.dealer if header.dealer is not None else header.players[-1]
        self.dummy_hand: DummyHand = header.dummy or "first"  # 2 players: who speaks first
        self.raspasy_run = 0
        self.count = 0
        #: items fed: deals (unreadable ones too), corrections and seat changes
        self.read = 0
        #: first deal after the pulya finished (RULES.md 2.8) or None: ``score`` points to ``check`` for them
        self.after_finish_from: int | None = None
        #: who joined or left the table (RULES.md 6.3) and after which deal: ("join", name, 3)
        self.changes: list[tuple[str, str, int]] = []
        #: Classic (RULES.md 2.10): each player's bombs (in the order earned, K note 30), the last
        #: dark raspasy's level (0: none; ``dark_said``: a dark pass said), the compulsory one to come
        self.bombs: dict[str, list[int]] = {p: [] for p in header.players}
        self.dark_run = self.dark_said = 0
        self.opening = conv.bombs_opening if start is None else 0  # a pulya taken up mid-way
        #: the last dark level whose bomb is within the limit (``bombs.cap: 0`` sets none)
        f = conv.dark_factor
        self._darkest = next(n for n in count() if f ** (n + 1) > MAX_WRITTEN) if f > 1 else MAX_WRITTEN
        self._clockwise = clockwise_of(self.players)  # the others, clockwise from each
        self._vacated: Vacated = None  # an empty seat (RULES.md 6.3, K3.1.2)
        #: one Seats per dealer, made once, with the next deal's dealer
        self._seats: dict[str, tuple[Seats, str]] = {}
        self.memo: Memo | None = Memo() if memo is True else memo or None
        #: ``_paper``, kept by ``_known`` while it knows the pools (None: to work out)
        self._paper: tuple[Amount, bool, Settled | None] | None = None
        self.quiet = False  # no step is read (``score``): ``_known`` makes none
        #: the sheet is read only after the lines (``score``, ``check``): known lines' writes outside pools
        #: are only counted in ``owed`` until ``pay_owed``; the pools, which rules read, are always current
        self.owing = False
        self.owed: dict[Flat, int] = {}
        #: known lines ``check`` finds nothing in but being after the finish, whatever they write: no step
        #: before the finish, nor after it while nothing reads the sheet and no problem waits; each run is
        #: told in ``passed``: its first deal's number, its length, the first ``told`` (line no., Line)
        self.unread: set[Line] = set()
        self.told = 0
        self.passed: list[tuple[int, int, list[tuple[int, Line]]]] = []
        #: the line last learnt from a deal scored the full way (``check`` may tell it ``unread``)
        self.last_learnt: Line | None = None
        #: a consumer that reads a known line by its ``Line`` alone (``season``'s digest): each
        #: known line without a comment is given to it, in order among the steps, and makes none
        self.each_known: Callable[[Line], object] | None = None

    @property
    def finished(self) -> bool:
        """The pools of the players at the table add up to players × target (RULES.md 2.8)."""
        players = self.players
        return sum(map(self.sheet.pool.__getitem__, players)) >= len(players) * self.target

    @property
    def classic_idle(self) -> bool:
        """No Classic state (RULES.md 2.10): the next deal depends on the dealer and run alone (``Line``)."""
        return not self.opening and not self.dark_run and not any(self.bombs.values())

    def run(self, items: Iterable[Item] = (), lines: LineSource | None = None) -> Iterator[Step]:
        """A step per item scored (none if unreadable or refused), then per deal of ``lines`` not read yet."""
        steps = filter(None, map(self.step, items))
        return steps if lines is None else chain(steps, _read(self, lines))

    def step(self, deal: Item) -> Step | None:
        """One item scored: its step, or None (unreadable, or refused: see ``problems``)."""
        self.read += 1
        if isinstance(deal, Correction):
            return _correct(self, deal)
        if isinstance(deal, SeatChange):
            return seat_change(self, deal)
        self._vacated = None
        self.count += 1
        finished = self.finished
        if finished and self.after_finish_from is None:
            self.after_finish_from = self.count
        if isinstance(deal, Unreadable):
            # its problems are reported by the reader; it still takes its turn to deal
            self.dealer = self._clockwise[self.dealer][0]
            return None
        return self._play(deal, finished)

    def _play(self, deal: Deal, after_finish: bool) -> Step | None:
        if deal.dealer is not None:
            self.dealer = deal.dealer
        raspasy = isinstance(deal, Raspasy)
        seats, self.dealer = _seats_of(self, self.dealer, raspasy)  # its seats, and the next deal's dealer
        opening = self.opening > 0  # the first deals: a raspasy counts all dark (K3.7.9)
        if opening:
            self.opening -= 1
        # 2.7: a raspasy's place in its run; 0 for other deals, so a contract's key does not hold the run
        run = self.raspasy_run + 1 if raspasy else 0
        # 2.10: the declarer's bomb in play, a raspasy's level of dark passes in a row
        bomb, dark = 1, 0
        if isinstance(deal, Raspasy):
            factor = self.conv.dark_factor
            if opening or deal.dark:
                dark = self.conv.dark_level(self.dark_run)
                if dark > self._darkest:
                    self.problems.add(deal.loc, M_(_DARKEST, level=dark, factor=factor), M_(_PAST_HINT))
                    return None
        else:
            held = self.bombs.get(deal.declarer)
            bomb = held[0] if held else 1
        known = _written_of(self, deal, seats, run, bomb, dark)
        if known is None:
            return None
        after_raspasy, after_dark = self.raspasy_run, self.dark_said
        earned: tuple[tuple[str, int], ...] = ()
        if isinstance(deal, Raspasy):
            self.dark_run, self.dark_said = dark, dark if deal.dark else 0
            earned = earn_bombs(self.conv, self.bombs, deal, seats, dark, opening)
        else:
            self.dark_run = self.dark_said = 0  # dark raspasy «подряд»: any other deal ends them
        spent = known.won and bomb != 1
        if spent and isinstance(deal, Play):
            self.bombs[deal.declarer].pop(0)
        self.raspasy_run = run_after(self.raspasy_run, run, known.ends_run)
        writes = _write(self, known, after_finish)
        return Step(
            self.count, deal.loc.line, seats.dealer, known.kind, writes, after_finish, run, after_raspasy,
            bomb, dark, earned, spent, after_dark, (), deal, None,
        )  # fmt: skip

    def _known(self, line: Line, lineno: int, reader: LineSource, noted: str | None) -> Step | None:
        """Score a deal line known in this state (``Line``): its writes written, as the sums it wrote
        before if placed under the same class; ``noted``: the raw line if it has a comment (its deal made
        at once).  No seat is vacated here: a full step came after any seat change (a fresh ``Memo``)."""
        self.count = n = self.count + 1
        self.read += 1
        total, after_finish, how = self._paper or _paper(self)
        if after_finish and self.after_finish_from is None:
            self.after_finish_from = n
        self.dealer = line.next_dealer
        after_raspasy, self.raspasy_run = self.raspasy_run, line.run_after
        written = line.written
        how = how or settled_deal(written.pool, self.sheet.pool, self.target, how, self.conv)
        flat = None if how is None else line.flats.get(how)
        if flat is None:
            writes = line.writes = _write(self, written, after_finish, line.writes)
            self._paper = None
            if how is not None:  # summed when read again under this class (most are not)
                line.flats[how] = Flat(how, writes)
        else:
            adds = flat.adds if flat.adds is not None else flat.sum(self.players)
            writes = flat.writes
            if flat.owed and self.owing:
                self.owed[flat] = self.owed.get(flat, 0) + 1
            else:
                _add(self.sheet, adds)
                if flat.more:
                    _paper(self, total + flat.more)
        if self.quiet:
            return None
        if noted is None and self.each_known is not None:
            self.each_known(line)
            return None
        if noted is None and line in self.unread:
            if not after_finish:
                return None
            if self.owing and not self.problems:  # a run of one passed (``_read``)
                self.passed.append((n, 1, [(lineno, line)]))
                return None
        item = line if noted is None else reader.again(lineno, noted, line.template)
        return _new_step((
            n, lineno, line.dealer, written.kind, writes, after_finish, line.run, after_raspasy,
            1, 0, (), False, 0, (), item, reader,
        ))  # fmt: skip

    def pay_owed(self) -> None:
        """The writes ``owed`` added to the sheet, each as many times as it was owed."""
        for flat, times in self.owed.items():
            _add(self.sheet, flat.adds or (), times)
        self.owed.clear()


def _seats_of(self: Scorer, dealer: str, raspasy: bool) -> tuple[Seats, str]:
    """The seats when ``dealer`` deals, made once, and who deals next."""
    seated = self._seats.get(dealer)
    if seated is None:
        seated = self._seats[dealer] = _SEATED(
            (self.players, dealer, self.conv.five_second_out, self.dummy_hand)
        )
    if raspasy and self.conv.raspasy_dealer_after == "stays":
        return seated[0], dealer  # K3.7.7: the same dealer deals again after a raspasy
    return seated


def _seated(key: tuple[tuple[str, ...], str, SecondOut, DummyHand]) -> tuple[Seats, str]:
    seats = Seats(*key)
    return seats, seats.next_dealer()


#: each seating made once, with the next dealer (a season seats its players alike every evening)
_SEATED = Remembered(_seated, size=1024)


def _paper(self: Scorer, total: Amount | None = None) -> tuple[Amount, bool, Settled | None]:
    """The table's pools summed (``total`` when known), whether that finished the pulya, and
    ``pool.settled_paper`` of the pools: kept as ``Scorer._paper`` until the pools change."""
    if total is None:
        total = sum(map(self.sheet.pool.__getitem__, self.players))
    done = total >= len(self.players) * self.target
    paper = self._paper = total, done, settled_paper(self.sheet.pool, self.target, self.conv, done)
    return paper


def _read(self: Scorer, source: LineSource) -> Iterator[Step]:
    """Steps of the raw lines of ``source`` not read yet: a known line by what it did in its state, any
    other the full way (then known, if it had no problem).  A quiet, owing scorer on a settled paper only
    counts known lines that touch no pool (``Flat.owed``), caught up before anything else (``_caught_up``)."""
    pending, source.pending = source.pending, None
    source.started = True
    numbered: Iterator[tuple[int, str]] = enumerate(source.lines, source.number + 1)
    if pending is not None:
        numbered = chain((pending,), numbered)
    lineno = source.number
    table = _table(self)
    known, owed, quiet, unread, each_known = self._known, self.owed, self.quiet, self.unread, self.each_known
    settled: Settled | None = None  # the paper's class while known lines may be owed
    run, last = 0, None  # known lines owed since the state was brought up to date, the last
    seen: list[tuple[int, Line]] = []  # the first ``told`` of them
    try:
        for lineno, raw in numbered:  # noqa: B007
            # a line is known by its text before a comment: a note changes nothing it writes
            cut = raw.find("#")
            key = raw if cut < 0 else raw[:cut]
            line = None if table is None else table.get(key)
            if settled is not None and line is not None:
                flat = line.flats.get(settled)
                if flat is not None and flat.owed and (quiet or cut < 0 and (each_known or line in unread)):
                    owed[flat] = owed.get(flat, 0) + 1
                    self.read += 1
                    if each_known is not None:
                        each_known(line)
                    elif run < self.told:  # (``check`` sets it once a log is long)
                        seen.append((lineno, line))
                    table, last, run = line.next, line, run + 1
                    continue
            if run:
                run = _caught_up(self, source, last, run, seen)
            if line is None and table is not None:
                line = _derived(self, table, key) or _dealt_alike(self, table, key)
            if line is not None:
                source.count += 1
                table = line.next
                s = known(line, lineno, source, None if cut < 0 else raw)
            else:
                s, table = _full(self, source, lineno, raw, key, table)
            settled = None
            if self.owing and (quiet or each_known or unread and not self.problems):
                # set now, not at the next line: it may be owed even right after a step changed the pools
                paper = self._paper or _paper(self)
                settled = paper[2] if quiet or each_known or paper[1] else None
            if s is not None:
                yield s
    finally:
        if run:
            _caught_up(self, source, last, run, seen)
        source.number = lineno
        self.pay_owed()


def _caught_up(
    self: Scorer, source: LineSource, last: Line | None, run: int, seen: list[tuple[int, Line]]
) -> int:
    """The count and state after ``run`` known lines owed (the last: ``last``; the first
    few: ``seen``, told in ``passed``) on a paper that did not change; 0."""
    assert last is not None and self._paper is not None
    n = self.count
    if seen:
        self.passed.append((n + 1, run, seen[:]))
        seen.clear()
    self.count = n + run
    source.count += run
    self.dealer, self.raspasy_run = last.next_dealer, last.run_after
    if self._paper[1] and self.after_finish_from is None:
        self.after_finish_from = n + 1
    return 0


def _full(
    self: Scorer, source: LineSource, lineno: int, raw: str, key: str, table: dict[str, Line] | None
) -> tuple[Step | None, dict[str, Line] | None]:
    """Score ``raw`` the full way in the state of ``table``; learn it by ``key`` (its text before a
    comment) with its writes as a ``Flat`` under the paper's class, if it reads the same anywhere and
    had no problem.  Its step, and the lines known in the state after it."""
    problems = self.problems
    before = len(problems)
    d = source.one(lineno, raw)
    if d is None:
        return None, table
    # the paper before the deal, for the class its pool writes are placed under
    paper = pools = None
    if table is not None:
        paper, pools = self._paper or _paper(self), dict(self.sheet.pool)
    s = self.step(d)
    after = _table(self)
    if s is None or table is None or after is None or not _plain(source, d, problems, before):
        return s, after
    line = self.last_learnt = _learn(self, table, key, s, after)
    assert paper is not None and pools is not None
    how = paper[2] or settled_deal(line.written.pool, pools, self.target, None, self.conv)
    if how is not None:
        line.flats[how] = Flat(how, s.writes)
    return s, after


def _correct(self: Scorer, c: Correction) -> Step | None:
    """A correction (RULES.md 2.9): written as is into the area it names; no help, no closing of the pool."""
    players = self.players
    if c.player not in players or (c.on is not None and (c.on not in players or c.on == c.player)):
        away = dict.fromkeys(p for p in (c.player, c.on) if p is not None and p not in players)
        self.problems.add(c.loc, M_(_NOT_AT_TABLE, names=", ".join(away) or c.player))
        return None
    if (c.area == "whists") != (c.on is not None):
        self.problems.add(c.loc, M_("a correction of whists says on whom, and only whists do"))
        return None
    w = Write("correction", c.player, c.area, c.amount, c.on, shown(c.reason, 0))  # echoed in every table
    sheet, on = self.sheet, c.on or c.player
    cells = sheet.pool if c.area == POOL else sheet.mountain if c.area == MOUNTAIN else sheet.whists[c.player]
    if past_limit(cells[on] + c.amount):
        _past(self.problems, c.loc, M_("correction"), on, c.area, cells[on] + c.amount)
        return None
    after_finish = self.finished
    _add(self.sheet, (w,))
    return _not_dealt(self, c, "correction", (w,), after_finish)


def _not_dealt(
    self: Scorer, c: Correction | SeatChange, kind: ResultKind, writes: tuple[Write, ...], after_finish: bool
) -> Step:
    """The step of a non-deal item, ``writes`` written; the dealer, deal count and raspasy run stay."""
    self._paper = None
    table = self.players if isinstance(c, SeatChange) else ()
    return Step(
        self.count, c.loc.line, "", kind, DealWrites(None, writes, ()), after_finish, 0, 0, 1, 0, (), False,
        0, table, c, None,
    )  # fmt: skip


def _table(self: Scorer) -> dict[str, Line] | None:
    """Lines known in the next line's state (None: nothing remembered, or Classic state in play)."""
    memo = self.memo
    return None if memo is None or not self.classic_idle else memo.table(self.dealer, self.raspasy_run)


def run_after(before: int, run: int, ends_run: bool) -> int:
    """The raspasy run after a deal (2.7): a raspasy's goes on; another ends it if ``Written.ends_run``."""
    return run if run or ends_run else before


def _derived(self: Scorer, table: dict[str, Line], raw: str) -> Line | None:
    """A contract known outside a raspasy run, read in one: it writes what it writes there
    (``KEY`` holds run 0 for it), only the run after it differs; kept in ``table``."""
    run = self.raspasy_run
    memo = self.memo
    if not run or memo is None:
        return None
    outside = memo.table(self.dealer, 0).get(raw)
    if outside is None or outside.run:  # unknown, or a raspasy
        return None
    after = run_after(run, 0, outside.written.ends_run)
    nxt = memo.table(outside.next_dealer, after)
    line = table[raw] = Line(
        raw, outside.template, outside.written, outside.dealer, 0, outside.next_dealer, after, nxt,
        outside.flats,
    )  # fmt: skip
    memo.learnt += 1
    return line


def _dealt_alike(self: Scorer, table: dict[str, Line], raw: str) -> Line | None:
    """A line known under another dealer in this raspasy run that writes the same under this
    one (``_remember`` found so: with three players, most do); kept in ``table``."""
    memo, run, dealer = self.memo, self.raspasy_run, self.dealer
    assert memo is not None
    for other_dealer in self._clockwise[dealer]:
        other = memo.lines.get((other_dealer, run), {}).get(raw)
        if other is None:
            continue
        if memo.written.get((other.template, dealer, other.run, 1, 0)) is not other.written:
            return None
        nxt = _seats_of(self, dealer, other.run > 0)[1]
        line = table[raw] = Line(
            raw, other.template, other.written, dealer, other.run, nxt, other.run_after,
            memo.table(nxt, other.run_after), other.flats,
        )  # fmt: skip
        memo.learnt += 1
        return line
    return None


def _plain(source: LineSource, d: Item, problems: Problems, before: int) -> bool:
    """``d``, just read and scored, reads the same wherever its line stands."""
    return (
        source.plain and len(problems) == before and isinstance(d, (Play, Raspasy)) and d.template is not None
    )


def _learn(self: Scorer, table: dict[str, Line], raw: str, s: Step, after: dict[str, Line]) -> Line:
    """Keep what the deal line ``raw`` did in the state of ``table`` (``Line``)."""
    memo, deal, written = self.memo, s.item, s.writes.written
    assert memo is not None and written is not None and isinstance(deal, (Play, Raspasy))
    if memo.full():
        memo.forget()
    line = table[raw] = Line(
        raw, deal.template, written, s.dealer, s.raspasy_run, self.dealer, self.raspasy_run, after
    )
    memo.learnt += 1
    return line


def _written_of(self: Scorer, deal: Deal, seats: Seats, run: int, bomb: int, dark: int) -> Written | None:
    """What ``deal`` writes before placing (2.1–2.7), remembered per ``KEY``; None if refused (reported)."""
    memo = self.memo
    key = None if deal.template is None or memo is None else (deal.template, seats.dealer, run, bomb, dark)
    if key is not None and memo is not None:
        known = memo.written.get(key)
        if known is not None:
            return known
    res = _resolved(self, deal, seats)
    return None if res is None else _remember(self, key, res, run, bomb, dark)


def _resolved(self: Scorer, deal: Deal, seats: Seats) -> Resolved | None:
    """``resolve``, its clean answer shared by a text's deals on seats read alike (``resolve.seating``)."""
    memo = self.memo
    key = None if deal.template is None or memo is None else (deal.template, resolve_seating(deal, seats))
    known = None if key is None or memo is None else memo.resolved.get(key)
    if known is not None:
        return replace(known, deal=deal, seats=seats)
    res = resolve(deal, seats, self.conv, self.problems)
    if res is not None and key is not None and memo is not None:  # nothing wrong (else None)
        memo.resolved[key] = res
    return res


def _remember(
    self: Scorer,
    key: tuple[Hashable, str, int, int, int] | None,
    res: Resolved,
    run: int,
    bomb: int,
    dark: int,
) -> Written | None:
    """What a resolved deal writes (2.1–2.7), remembered under ``key`` (if it has one)
    and under its ``written_key``; equal writes are shared, which keeps the cache small."""
    memo = self.memo
    if memo is None:
        return _bounded(self, res, written(res, self.conv, run, bomb, dark))
    parts = written_key(res, run, bomb, dark)
    known = None if parts is None else memo.by_parts.get(parts)
    if known is None:
        if _bounded(self, res, fresh := written(res, self.conv, run, bomb, dark)) is None:
            return None
        kind, others, pool, ends_run, won = fresh
        same = memo.same_writes.setdefault
        known = Written(
            kind, tuple(same(w, w) for w in others), tuple(same(w, w) for w in pool), ends_run, won
        )
        known = memo.same_written.setdefault(known, known)
    if memo.full():
        memo.forget()
    if parts is not None:
        memo.by_parts[parts] = known
    if key is not None:
        memo.written[key] = known
        if res.deal.dealer is None:  # (a deal that names its dealer is his wherever it stands)
            _alike(self, key, res, known)
    return known


def _alike(self: Scorer, key: tuple[Hashable, str, int, int, int], res: Resolved, known: Written) -> None:
    """``known`` remembered for the other dealers too whose seats ``res`` reads the same
    (``resolve.seating``, ``rules.seating``): with three players, most deals (``_dealt_alike``)."""
    memo, (template, dealer, run, bomb, dark), deal = self.memo, key, res.deal
    assert memo is not None
    alike = resolve_seating(deal, res.seats), seating(res)
    for other in self._clockwise[dealer]:
        seats = _seats_of(self, other, False)[0]
        if (resolve_seating(deal, seats), seating(res, seats)) == alike:
            memo.written[template, other, run, bomb, dark] = known


def _bounded(self: Scorer, res: Resolved, known: Written) -> Written | None:
    """``known``, or None when one of its writes is past the limit (reported)."""
    for w in chain(known.others, known.pool):
        if past_limit(w.amount):
            _past(self.problems, res.deal.loc, M_("deal"), w.on or w.player, w.area, w.amount)
            return None
    return known


def _add(sheet: Sheet, writes: Iterable[Write], times: int = 1) -> None:
    """``writes`` written onto ``sheet`` (each ``times`` times)."""
    pool, mountain, whists = sheet.pool, sheet.mountain, sheet.whists
    for _, player, area, amount, on, _ in writes:
        if area == POOL:
            cells = pool
        elif area == MOUNTAIN:
            cells = mountain
        else:
            assert on is not None
            cells, player = whists[player], on
        v = cells[player] + amount * times
        cells[player] = v if type(v) is int else exact(v)


def _write(self: Scorer, known: Written, after_finish: bool, last: DealWrites | None = None) -> DealWrites:
    """``known``'s writes written onto the sheet, its pool points last where ``pool.place``
    puts them (2.8); what was written (``last``: what such a deal wrote before)."""
    _add(self.sheet, known.others)
    placed: tuple[Write, ...] = ()
    if known.pool:
        self._paper = None
        placed = _place(self, known.pool, after_finish)
    if last is not None and last.placed is placed and last.written is known:
        return last
    memo = self.memo
    if memo is None:
        return DealWrites(known, known.others, placed)
    key = (id(known), id(placed))
    dw = memo.deal_writes.get(key)
    if dw is None or dw.written is not known or dw.placed is not placed:
        dw = memo.deal_writes[key] = DealWrites(known, known.others, placed)
    return dw


def _place(self: Scorer, pool: tuple[Write, ...], after_finish: bool) -> tuple[Write, ...]:
    """Each pool write placed (``pool.place``) and written, in order; its answer remembered
    per write once ``pool.settled`` says it reads no pool."""
    sheet, memo = self.sheet, self.memo
    pools, target, conv, clockwise = sheet.pool, self.target, self.conv, self._clockwise
    out: tuple[Write, ...] = ()
    fixed = True  # every answer is one remembered
    for w in pool:
        how = None if memo is None else settled(w, pools, target, conv, after_finish)
        if how is None:
            got = tuple(place(w, pools, target, conv, after_finish, clockwise))
            fixed = False
        else:
            assert memo is not None
            kept = memo.placed.get((id(w), how))
            if kept is None or kept[0] is not w:
                got = tuple(place(w, pools, target, conv, after_finish, clockwise))
                kept = memo.placed[id(w), how] = (w, got)
            got = kept[1]
        _add(sheet, got)
        out = got if not out else out + got
    if memo is not None and (len(pool) > 1 or not fixed):
        out = memo.same_placed.setdefault(out, out)
    return out


def seat_change(self: Scorer, c: SeatChange) -> Step | None:
    """``Scorer.step`` of a seat change (RULES.md 6.3); what deals write depends on the table: a new Memo."""
    from pulyacalc.scoring.table import joins  # only when a log has one

    self.pay_owed()  # ``joins`` reads the mountain
    seated, who = self.players, c.player
    size = len(seated) + (1 if c.change == "join" else -1)
    problem = ""
    if c.change == "join" and who in self.sheet.players:
        problem = f"{who} is already on the sheet: a player joins once"
    elif c.change == "leave" and who not in seated:
        problem = f"{who} is not at the table, so he cannot leave it"
    elif not 2 <= size <= 5:
        problem = f"after this the table would have {size} players: pulyacalc scores 2 to 5"
    if problem:
        self.problems.add(c.loc, problem, f"at the table: {', '.join(seated)}", kind="rule")
        return None
    after_finish = self.finished
    writes: tuple[Write, ...] = ()
    if c.change == "join":
        writes = tuple(joins(who, seated, self.sheet.pool, self.sheet.mountain))
        self.sheet.add(who)
        self.bombs.setdefault(who, [])
        _add(self.sheet, writes)
    self.changes.append((c.change, who, self.count))
    table, self.dealer, self._vacated = change_table(seated, self.dealer, self._vacated, c.change, who)
    self.players, self._clockwise = table, clockwise_of(table)
    self._seats.clear()
    if self.memo is not None:
        self.memo = Memo()  # its own from here on: what was remembered may be shared
    return _not_dealt(self, c, c.change, writes, after_finish)


def clockwise_of(players: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """For each player, the others clockwise from him."""
    return {p: players[i + 1 :] + players[:i] for i, p in enumerate(players)}


def earn_bombs(
    conv: Convention, bombs: dict[str, list[int]], deal: Raspasy, seats: Seats, dark: int, opening: bool
) -> tuple[tuple[str, int], ...]:
    """A raspasy after a dark pass earns each dark passer a bomb of its level, and those who sit out too
    (the dealer with ``bombs.dealer``, at five the second out with ``bombs.second_out``); a compulsory one
    earns everyone one (K3.3.19 а, K3.7.9).  ``bombs`` keeps them in the order earned (K note 30)."""
    coef = conv.bomb(dark) if dark else 1
    if coef == 1:  # no dark pass, or dark.factor 1: play «втёмную» changes nothing
        return ()
    out = seats.sitters
    sitters = (out[:1] if conv.bombs_dealer else ()) + (out[1:] if conv.bombs_second_out else ())
    earners = [p for p in bombs if opening or p in deal.dark or p in sitters]
    for p in earners:
        bombs[p].append(coef)
    return tuple((p, coef) for p in earners)
