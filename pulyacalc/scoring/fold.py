"""Scoring as a fold over deals: ``Scorer.feed`` takes one deal at a time and writes its
entries — who writes how much, where, under which rule (``rulebook``) and with what
arithmetic — onto the sheet.  Rendering and settlement only read the result.

The fold holds no rule of the game.  For each deal it asks ``resolve`` what the deal may be,
``rules.written`` what it writes (RULES.md 2.1–2.7), and ``pool.place`` where its pool points
go (2.8), and remembers the first two per ``KEY``: they are pure functions of what the key
is made of (and of the convention, fixed per scorer), which tests/test_scoring_pure.py
checks against their signatures.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import fields, replace
from operator import attrgetter
from typing import NamedTuple

from pulyacalc.convention.schema import Convention
from pulyacalc.core.errors import Problems
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.kinds import ResultKind
from pulyacalc.core.model import Correction, Deal, Header, Play, Raspasy, SeatChange, Unreadable
from pulyacalc.core.seating import Seats, Vacated, change_table
from pulyacalc.core.sheet import Entry, Sheet, SheetView, Write
from pulyacalc.scoring.pool import place
from pulyacalc.scoring.resolve import Resolved, resolve
from pulyacalc.scoring.resolve import seating as resolve_seating
from pulyacalc.scoring.rules import Written, seating, written


class DealResult(NamedTuple):
    """What one deal (or a correction, or a seat change) did to the sheet (a NamedTuple:
    one a deal, and a tuple is the quickest to make)."""

    #: the deal's number; a correction has the number of the deal before it (0: none)
    number: int
    deal: Deal | Correction | SeatChange
    #: this deal's dealer ("" for a correction, which is not dealt)
    dealer: str
    kind: ResultKind
    entries: tuple[Entry, ...]
    #: the pool was finished before this deal (RULES.md 2.8)
    after_finish: bool
    #: consecutive raspasy count at this deal (1 = first of a run; 0 for other deals)
    raspasy_run: int
    #: the raspasy run before this deal: for a contract, the run it is the exit from (2.7;
    #: with ``raspasy.run_ends_on`` a contract may leave the run going, and the next one is
    #: an exit from it too)
    after_raspasy: int
    #: Classic (RULES.md 2.10): the coefficient of the declarer's bomb in play (1: none)
    bomb: int = 1
    #: a raspasy's level of dark passes in a row (0: none, 1: single, 2: double …)
    dark: int = 0
    #: the bombs this deal earned, (player, coefficient) in seating order
    bombs_earned: tuple[tuple[str, int], ...] = ()
    #: the declarer's bomb in play was used up by his won game (K note 29)
    bomb_spent: bool = False
    #: the level of the dark raspasy just before this deal (0: none), for the exit from it
    after_dark: int = 0
    #: a seat change (RULES.md 6.3): the players at the table after it, clockwise
    table: tuple[str, ...] = ()


#: The cache key, part by part: the parameter of ``resolve`` / ``rules.written`` each part
#: stands for, and what the key holds for it.  The deal as written is its ``template`` (the
#: line reader's one parse of a text: the same text is the same deal but for its place in
#: the log, which only the problems use), the seats are made from the dealer, ``run`` is
#: the raspasy run, ``bomb`` the declarer's bomb in play and ``dark`` a raspasy's level of
#: dark passes (Classic, RULES.md 2.10).  ``Scorer.feed`` builds the key in this order.
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

#: how many (deal text, dealer, raspasy run, bomb, dark level) results ``Scorer`` remembers; it forgets them
#: all when full, so that memory stays flat however long the log is
WRITTEN_CACHE_SIZE = 50_000


#: the parts of a resolved deal ``written`` reads as they are (its deal is read by its
#: ``template``, its seats by ``rules.seating``): a part added to ``Resolved`` is read too
_RESOLVED_PARTS = attrgetter(*(f.name for f in fields(Resolved) if f.name not in ("deal", "seats")))


def written_key(res: Resolved, run: int, bomb: int, dark: int) -> Hashable | None:
    """Everything ``rules.written`` reads of its arguments but the convention (fixed per
    scorer), or None for a deal without a ``template``.  Deals with the same key write the
    same: with three players, the same line whoever dealt."""
    template = res.deal.template
    if template is None:
        return None
    return (template, _RESOLVED_PARTS(res), seating(res), run, bomb, dark)


#: a correction that names someone not at the table (marked here: the fold is long)
_NOT_AT_TABLE = N_("a correction names someone not at the table: {player}, {on}")


class Scorer:
    """The fold: ``feed`` one deal at a time; ``sheet`` holds the running totals.

    Deals that break a rule are reported into ``problems`` and not scored.

    What a deal writes before its pool points are placed (2.1–2.7) is ``rules.written`` of
    ``resolve``'s answer, pure functions of the parts of ``KEY``; only the placing (2.8)
    reads the sheet.  Deals read from the same text share a ``template``, so ``feed``
    remembers the first such deal's kind and writes per key and dates them with each
    deal's own number.  A deal that breaks a rule is never remembered: each one is
    checked, and reported at its own line.
    """

    def __init__(
        self,
        header: Header,
        conv: Convention,
        problems: Problems | None = None,
        start: SheetView | None = None,
    ) -> None:
        """``start``: the paper the first deal is written on (empty by default)."""
        self.players = header.players
        self.conv = conv
        self.target = header.pool if header.pool is not None else conv.pool_target
        self.sheet = Sheet(header.players, start)
        self.problems = problems if problems is not None else Problems()
        self.dealer = header.dealer if header.dealer is not None else header.players[-1]
        self.run = 0
        self.count = 0
        #: the number of the first deal played after the pulya was finished (RULES.md 2.8),
        #: None while there is none: ``score`` points to ``check`` for them
        self.after_finish_from: int | None = None
        #: Classic (RULES.md 2.10): each player's bombs, in the order earned (K note 30),
        #: the level of the dark raspasy just before (0: the last deal was none; ``said``:
        #: one with a dark pass said, not a compulsory one), and the compulsory raspasy to come
        self.bombs: dict[str, list[int]] = {p: [] for p in header.players}
        self.dark_run = self.dark_said = 0
        self.opening = conv.bombs_opening if start is None else 0  # a pulya taken up mid-way
        self._clockwise = clockwise_of(self.players)  # the others, clockwise from each
        self._vacated: Vacated = None  # an empty seat (RULES.md 6.3, K3.1.2)
        #: one Seats per dealer, made once, with the next deal's dealer
        self._seats: dict[str, tuple[Seats, str]] = {}
        #: KEY → what the deal writes (kind, writes); see the class docstring
        self._written: dict[tuple[Hashable, str, int, int, int], Written] = {}
        #: what the last deal scored wrote before placing (the fast path learns it)
        self.last: Written | None = None
        #: ``written_key`` → what such a deal writes: the deals of one line under
        #: different dealers share it when the rules read nothing of who dealt
        self._by_parts: dict[Hashable, Written] = {}
        #: (template, ``resolve.seating``) → ``resolve``'s answer (``_resolved``)
        self._resolved: dict[tuple[Hashable, tuple[object, ...]], Resolved] = {}
        #: one copy of each distinct value in ``_written``, and of each write in them
        self._same_written: dict[Written, Written] = {}
        self._same_writes: dict[Write, Write] = {}

    @property
    def finished(self) -> bool:
        """The pools of the players at the table add up to players × target (RULES.md 2.8)."""
        return sum(self.sheet.pool[p] for p in self.players) >= len(self.players) * self.target

    @property
    def classic_idle(self) -> bool:
        """No Classic state in play (RULES.md 2.10): no bomb held, no dark raspasy just
        before, no compulsory raspasy to come; the next deal then depends on the dealer
        and the raspasy run alone (the fast path's state, scoring/fast.py)."""
        return not self.opening and not self.dark_run and not any(self.bombs.values())

    def feed(self, deal: Deal | Correction | SeatChange | Unreadable) -> DealResult | None:
        if isinstance(deal, Correction):
            return self._correct(deal)
        if isinstance(deal, SeatChange):
            return seat_change(self, deal)
        self._vacated = None
        self.count += 1
        if self.after_finish_from is None and self.finished:
            self.after_finish_from = self.count
        if isinstance(deal, Unreadable):
            # its problems are reported by the reader; it still takes its turn to deal
            self.dealer = self._clockwise[self.dealer][0]
            return None
        if deal.dealer is not None:
            self.dealer = deal.dealer
        dealer = self.dealer
        seated = self._seats.get(dealer)
        if seated is None:
            seats = Seats(self.players, dealer, self.conv.five_second_out)
            seated = self._seats[dealer] = (seats, seats.next_dealer())
        seats, self.dealer = seated
        raspasy = isinstance(deal, Raspasy)
        if raspasy and self.conv.raspasy_dealer_after == "stays":
            self.dealer = dealer  # K3.7.7: the same dealer deals again after a raspasy
        opening = self.opening > 0  # the first deals: a raspasy counts all dark (K3.7.9)
        if opening:
            self.opening -= 1
        # 2.7: the raspasy run this deal is in, if it is raspasy (0 for any other deal, so
        # that a contract's key does not depend on the run it may leave going)
        run = self.run + 1 if raspasy else 0
        # 2.10: the declarer's bomb in play, a raspasy's level of dark passes in a row
        bomb, dark = 1, 0
        if isinstance(deal, Raspasy):
            if opening or deal.dark:
                dark = self.conv.dark_level(self.dark_run)
        else:
            held = self.bombs.get(deal.declarer)
            bomb = held[0] if held else 1
        key = None if deal.template is None else (deal.template, dealer, run, bomb, dark)  # KEY, in order
        known = None if key is None else self._written.get(key)
        res = None
        if known is None:
            res = _resolved(self, deal, seats)
            if res is None:
                return None
        after_finish = self.finished
        after_raspasy, after_dark = self.run, self.dark_said
        if res is not None:
            known = _remember(self, key, res, run, bomb, dark)
        assert known is not None
        self.last = known
        kind, others, pool, ends_run, won = known
        earned: tuple[tuple[str, int], ...] = ()
        if isinstance(deal, Raspasy):
            self.dark_run, self.dark_said = dark, dark if deal.dark else 0
            earned = earn_bombs(self.conv, self.bombs, deal, seats.sits_out, dark, opening)
        spent = won and bomb != 1
        if spent and isinstance(deal, Play):
            self.bombs[deal.declarer].pop(0)
        # a raspasy goes on with its run; another deal ends it or not (raspasy.run_ends_on)
        if run or ends_run:
            self.run = run
        if not raspasy:
            self.dark_run = self.dark_said = 0  # dark raspasy «подряд»: any other deal ends them
        n = self.count
        apply = self.sheet.apply
        placed = [Entry(n, *w) for w in others]
        for e in placed:
            apply(e)
        # pool points go in last, in seating order from first hand (2.8)
        conv, pools, target, clockwise = self.conv, self.sheet.pool, self.target, self._clockwise
        for w in pool:
            for p in place(w, pools, target, conv, after_finish, clockwise):
                e = Entry(n, *p)
                apply(e)
                placed.append(e)
        return DealResult(
            n,
            deal,
            seats.dealer,
            kind,
            tuple(placed),
            after_finish,
            run,
            after_raspasy,
            bomb,
            dark,
            earned,
            spent,
            after_dark,
        )

    def _correct(self, c: Correction) -> DealResult | None:
        """A correction (RULES.md 2.9): written as it is, into the area it names, with no
        help and no closing of the pool.  It is not a deal: the dealer, the deal count
        and the raspasy run stay as they are."""
        players = self.players
        if c.player not in players or (c.on is not None and (c.on not in players or c.on == c.player)):
            self.problems.add(c.loc, M_(_NOT_AT_TABLE, player=c.player, on=c.on))
            return None
        if (c.area == "whists") != (c.on is not None):
            self.problems.add(c.loc, M_("a correction of whists says on whom, and only whists do"))
            return None
        e = Entry(self.count, "correction", c.player, c.area, c.amount, c.on, c.reason)
        after_finish = self.finished
        self.sheet.apply(e)
        return DealResult(self.count, c, "", "correction", (e,), after_finish, 0, 0)

    def feed_all(self, deals: Iterable[Deal | Correction | SeatChange | Unreadable]) -> Iterator[DealResult]:
        feed = self.feed
        for d in deals:
            r = feed(d)
            if r is not None:
                yield r


def _resolved(self: Scorer, deal: Deal, seats: Seats) -> Resolved | None:
    """``resolve``, its answer shared by the deals of one text under seats it reads the
    same (``resolve.seating``) when it found nothing wrong: with three players, one line
    whoever dealt."""
    key = None if deal.template is None else (deal.template, resolve_seating(deal, seats))
    if key is not None:
        res = self._resolved.get(key)
        if res is not None:
            return replace(res, deal=deal, seats=seats)
    res = resolve(deal, seats, self.conv, self.problems)
    if res is not None and key is not None:  # nothing wrong (resolve gives None then)
        self._resolved[key] = res
    return res


def _remember(
    self: Scorer,
    key: tuple[Hashable, str, int, int, int] | None,
    res: Resolved,
    run: int,
    bomb: int,
    dark: int,
) -> Written:
    """What a resolved deal writes (2.1–2.7), remembered under ``key`` (if it has one)
    and under its ``written_key``.  Equal writes are shared (many deals write the same
    thing), which keeps the cache small; a full cache is forgotten at once, so that
    memory stays flat."""
    parts = written_key(res, run, bomb, dark)
    known = None if parts is None else self._by_parts.get(parts)
    if known is None:
        kind, others, pool, ends_run, won = written(res, self.conv, run, bomb, dark)
        same = self._same_writes
        known = Written(
            kind,
            tuple(same.setdefault(w, w) for w in others),
            tuple(same.setdefault(w, w) for w in pool),
            ends_run,
            won,
        )
        known = self._same_written.setdefault(known, known)
    if max(len(self._written), len(self._by_parts), len(self._resolved)) >= WRITTEN_CACHE_SIZE:
        _forget(self)
    if parts is not None:
        self._by_parts[parts] = known
    if key is not None:
        self._written[key] = known
    return known


def _forget(self: Scorer) -> None:
    """Everything remembered forgotten (the cache is full)."""
    self._written.clear()
    self._by_parts.clear()
    self._resolved.clear()
    self._same_written.clear()
    self._same_writes.clear()


#: what a scorer remembers of what deals write (``_remember``): a pure function of the
#: convention, the players and the parses, so scorers of the same share it (``season``)
Memo = tuple[
    dict[tuple[Hashable, str, int, int, int], Written],
    dict[Hashable, Written],
    dict[tuple[Hashable, tuple[object, ...]], Resolved],
    dict[Written, Written],
    dict[Write, Write],
]


def memo(self: Scorer, shared: Memo | None = None) -> Memo:
    """What ``self`` remembers; ``shared``, when given, becomes it (a scorer of the same
    players and convention, before its first deal: the fast path's ``FastCache``)."""
    if shared is not None:
        self._written, self._by_parts, self._resolved, self._same_written, self._same_writes = shared
    return self._written, self._by_parts, self._resolved, self._same_written, self._same_writes


def seat_change(self: Scorer, c: SeatChange) -> DealResult | None:
    """``Scorer.feed`` of a seat change: a player joins or leaves between deals (RULES.md
    6.3).  It is not a deal.  What a deal writes depends on the table, so the remembered
    answers are forgotten."""
    from pulyacalc.scoring.table import joins  # only when a log has one

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
    entries: tuple[Entry, ...] = ()
    if c.change == "join":
        pools, mountains = self.sheet.pool, self.sheet.mountain
        entries = tuple(Entry(self.count, *w) for w in joins(who, seated, pools, mountains))
        self.sheet.add(who)
        self.bombs.setdefault(who, [])
        for e in entries:
            self.sheet.apply(e)
    table, self.dealer, self._vacated = change_table(seated, self.dealer, self._vacated, c.change, who)
    self.players, self._clockwise = table, clockwise_of(table)
    self._seats.clear()
    memo(self, ({}, {}, {}, {}, {}))  # its own from here on: what was remembered may be shared
    return DealResult(self.count, c, "", c.change, entries, after_finish, 0, 0, table=table)


def clockwise_of(players: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """For each player, the others clockwise from him."""
    n = len(players)
    return {p: tuple(players[(i + k) % n] for k in range(1, n)) for i, p in enumerate(players)}


def earn_bombs(
    conv: Convention, bombs: dict[str, list[int]], deal: Raspasy, out: str | None, dark: int, opening: bool
) -> tuple[tuple[str, int], ...]:
    """A raspasy after a dark pass earns each dark passer a bomb of its level, and the
    4-player dealer ``out`` too (``bombs.dealer``); a compulsory one earns everyone one
    (K3.3.19 а, K3.7.9).  ``bombs`` keeps each player's in the order earned (K note 30)."""
    coef = conv.bomb(dark) if dark else 1
    if coef == 1:  # no dark pass, or dark.factor 1: play «втёмную» changes nothing
        return ()
    earners = [p for p in bombs if opening or p in deal.dark or (p == out and conv.bombs_dealer)]
    for p in earners:
        bombs[p].append(coef)
    return tuple((p, coef) for p in earners)


def score(
    header: Header,
    conv: Convention,
    deals: Iterable[Deal | Correction | SeatChange | Unreadable],
    problems: Problems | None = None,
) -> tuple[SheetView, list[DealResult]]:
    """Score a whole log; returns the final sheet and each deal's result."""
    scorer = Scorer(header, conv, problems)
    results = list(scorer.feed_all(deals))
    return scorer.sheet.view(), results
