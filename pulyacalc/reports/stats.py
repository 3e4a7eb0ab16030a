"""A season's statistics: how each player bids, defends and scores, who beats whom, an opponent-aware rating.

Every evening is scored and settled as ``season`` does; the counts are read off each deal's result.
Head-to-head is the settlement pair by pair (the whists between them netted, plus the difference of what
each pays every other for his mountain, K4.2.14): antisymmetric, it adds up to each exact result.  A line
read again in the same state only adds to its count (``Counting``): memory grows with distinct lines."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pulyacalc.convention.schema import LEVELS
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.errors import Problem, Problems, PulyaError
from pulyacalc.core.kinds import SecondOut
from pulyacalc.core.model import Call, Log, Play, Raspasy
from pulyacalc.core.seating import Seats
from pulyacalc.reports.rating import Rating, Ratings
from pulyacalc.reports.season import EveningResult, Source, Standing, collect, played, raise_all, standings
from pulyacalc.scoring.fold import Line

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pulyacalc.play import Evening, How
    from pulyacalc.scoring.fold import DealResult, DealWrites, Step
    from pulyacalc.scoring.settlement import Settlement


@dataclass(frozen=True, slots=True)
class Tries:
    """How many times something was tried, and how many of those succeeded."""

    declared: int = 0
    made: int = 0


@dataclass(frozen=True, slots=True)
class Point:
    """One evening of one player: its place in the season, his result, total so far and rating after it."""

    #: the evening's place in the season, 1 = the first
    number: int
    file: str
    result: Amount
    total: Amount
    rating: Rating


@dataclass(frozen=True)
class PlayerStats:
    player: str
    #: totals, average per evening, best and worst evening (as ``season`` gives them)
    standing: Standing
    #: deals he played (the 4-player dealer sits his deals out)
    deals: int
    #: per level 6..10: contracts he declared, and made (not played counts as made)
    contracts: dict[int, Tries]
    misere: Tries
    raspasy: int
    raspasy_tricks: int
    #: whists he declared on played contracts; ``made`` = those where he ended short
    whists: Tries
    half_whists: int
    #: the longest run of consecutive evenings (his own) with a result above 0
    streak: int
    rating: Rating
    series: tuple[Point, ...]

    @property
    def per_deal(self) -> Amount:
        return exact(Fraction(self.standing.total) / self.deals) if self.deals else 0

    @property
    def tricks_per_raspasy(self) -> Amount:
        return exact(Fraction(self.raspasy_tricks, self.raspasy)) if self.raspasy else 0


@dataclass(frozen=True)
class Stats:
    evenings: tuple[EveningResult, ...]
    #: best rating first (then the higher total, then the name)
    players: tuple[PlayerStats, ...]
    #: {a: {b: what a won from b over the evenings they sat together}}, exact
    head_to_head: dict[str, dict[str, Amount]]
    #: {a: {b: evenings they sat together}}
    together: dict[str, dict[str, int]]

    @property
    def deals(self) -> int:
        return sum(e.deals for e in self.evenings)

    def player(self, name: str) -> PlayerStats | None:
        """The player written ``name``: exactly, else without regard to case (as logs match)."""
        same = [p for p in self.players if p.player.casefold() == name.casefold()]
        exactly = next((p for p in same if p.player == name), None)
        return exactly or (same[0] if len(same) == 1 else None)


@dataclass
class Tally:
    """One player's counts while the evenings are read."""

    deals: int = 0
    contracts: dict[int, list[int]] = field(default_factory=lambda: {lv: [0, 0] for lv in LEVELS})
    misere: list[int] = field(default_factory=lambda: [0, 0])
    raspasy: int = 0
    raspasy_tricks: int = 0
    whists: list[int] = field(default_factory=lambda: [0, 0])
    half_whists: int = 0
    series: list[Point] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        """Add ``other``'s counts (not its series)."""
        self.deals += other.deals
        for lv in LEVELS:
            for i in (0, 1):
                self.contracts[lv][i] += other.contracts[lv][i]
        for i in (0, 1):
            self.misere[i] += other.misere[i]
            self.whists[i] += other.whists[i]
        self.raspasy += other.raspasy
        self.raspasy_tricks += other.raspasy_tricks
        self.half_whists += other.half_whists


def count_deal(
    tally: Mapping[str, Tally],
    r: DealResult,
    players: tuple[str, ...],
    second_out: SecondOut = "next",
    times: int = 1,
) -> None:
    """Add a scored deal (``times`` over) to the counts; ``second_out``: ``table.five_second_out``."""
    if r.kind in ("correction", "join", "leave"):  # not deals (RULES.md 2.9, 6.3)
        return
    out, deal = _sitters(players, r.dealer, second_out), r.deal
    for p in players:
        if p not in out:
            tally[p].deals += times
            if isinstance(deal, Raspasy):
                tally[p].raspasy += times
                tally[p].raspasy_tricks += deal.tricks[p] * times
    if isinstance(deal, Raspasy):
        return
    assert isinstance(deal, Play)
    decl, misere = deal.declarer, r.kind == "misere"
    # made: no remise entry (a success's pool points may be help or written off: other rules, RULES.md 2.8)
    tries = tally[decl].misere if misere else tally[decl].contracts[deal.contract.level]
    failure = "misere-remise" if misere else "remise"
    tries[0] += times
    tries[1] += times * (not any(e.rule == failure and e.player == decl for e in r.entries))
    for p, call in deal.calls.items():
        if call is Call.WHIST and r.kind == "played":
            tally[p].whists[0] += times
            tally[p].whists[1] += times * any(e.rule == "shortfall" and e.player == p for e in r.entries)
        elif call is Call.HALF and r.kind == "half":
            tally[p].half_whists += times


@lru_cache(maxsize=1024)
def _sitters(players: tuple[str, ...], dealer: str, second_out: SecondOut) -> tuple[str, ...]:
    return Seats(players, dealer, second_out).sitters


#: distinct lines with deals not yet counted that ``Counting`` holds before it counts them
COUNT_EVERY = 100_000


class Counting:
    """One evening's counts per name, shown each step: a line the fold knew (``fold.Line``) is
    counted ``times`` at a time (a deal's counts depend only on its line and its writes)."""

    def __init__(self, players: tuple[str, ...], second_out: SecondOut) -> None:
        self.tally = defaultdict[str, Tally](Tally)  # each name's, made when first counted
        self.table = players  # the players at the table, as it changes (RULES.md 6.3)
        self.second_out = second_out
        #: (line, writes) → [a step of it, the table, how many not counted yet]
        self.pending: dict[tuple[Line, DealWrites], list[Any]] = {}

    def __call__(self, step: Step) -> None:
        self.table = step.table or self.table
        item = step.item
        if not isinstance(item, Line):
            count_deal(self.tally, step.result(), self.table, self.second_out)
            return
        key = (item, step.writes)
        held = self.pending.get(key)
        if held is None:
            if len(self.pending) >= COUNT_EVERY:
                self.done()
            self.pending[key] = [step, self.table, 1]
        else:
            held[2] += 1

    def done(self) -> dict[str, Tally]:
        """The counts, every deal counted."""
        for step, table, times in self.pending.values():
            count_deal(self.tally, step.result(), table, self.second_out, times)
        self.pending.clear()
        return self.tally


def pairs(s: Settlement) -> dict[str, dict[str, Amount]]:
    """Each pair's net in one settlement (see the module docstring)."""
    return {
        a: {b: exact(s.whist_pairs[a][b] + s.pays_each[b] - s.pays_each[a]) for b in s.players if b != a}
        for a in s.players
    }


class Gathering:
    """The statistics being gathered, one evening at a time, in the season's order."""

    def __init__(self) -> None:
        self.evenings: list[EveningResult] = []
        self.tally: dict[str, Tally] = {}
        self.h2h: dict[str, dict[str, Amount]] = {}
        self.together: dict[str, dict[str, int]] = {}
        self.ratings = Ratings()

    def add(self, ev: Evening, s: Settlement, who: Mapping[str, str], counted: Mapping[str, Tally]) -> None:
        """Count one evening; ``who`` maps each name in its log to the person."""
        from pulyacalc.reports.season import evening_result

        e = evening_result(ev, s, who)
        self.evenings.append(e)
        players, result = e.players, e.result
        # the deals name players as the log writes them: each name counts for its person
        for p in ev.sheet.players:
            person = self.tally.setdefault(who[p], Tally())
            if p in counted:
                person.add(counted[p])
        for a, row in pairs(s).items():
            mine, seen = self.h2h.setdefault(who[a], {}), self.together.setdefault(who[a], {})
            for b, amount in row.items():
                mine[who[b]] = exact(mine.get(who[b], 0) + amount)
                seen[who[b]] = seen.get(who[b], 0) + 1
        after = self.ratings.rate(players, result)
        number = len(self.evenings)
        for p in players:
            series = self.tally[p].series
            total = exact((series[-1].total if series else 0) + result[p])
            series.append(Point(number, e.source, result[p], total, after[p]))

    def stats(self) -> Stats:
        out = []
        for st in standings(self.evenings):
            t = self.tally[st.player]
            contracts = {lv: Tries(*t.contracts[lv]) for lv in LEVELS}
            bids = (t.deals, contracts, Tries(*t.misere), t.raspasy, t.raspasy_tricks)
            defence = (Tries(*t.whists), t.half_whists, streak(pt.result for pt in t.series))
            rating = self.ratings.get(st.player)
            out.append(PlayerStats(st.player, st, *bids, *defence, rating, tuple(t.series)))
        out.sort(key=lambda p: (-p.standing.total, p.player))  # as season ranks them
        names = [p.player for p in out]
        h2h = {a: {b: self.h2h[a][b] for b in names if b in self.h2h[a]} for a in names}
        together = {a: {b: self.together[a][b] for b in names if b in self.together[a]} for a in names}
        return Stats(tuple(self.evenings), tuple(out), h2h, together)


def streak(results: Iterable[Amount]) -> int:
    """The longest run of results above 0."""
    best = run = 0
    for r in results:
        run = run + 1 if r > 0 else 0
        best = max(best, run)
    return best


def score_stats(
    paths: Iterable[str],
    *,
    progress: Callable[[int, int, str], None] | None = None,
    skipped: list[tuple[str, str]] | None = None,
    **source: Unpack[Source],
) -> Stats:
    """Score and settle every log (as ``season`` finds them) and gather the statistics; raises PulyaError."""
    from pulyacalc.play import load_convention

    files = collect(paths, skipped)
    season = Gathering()
    problems: list[Problem] = []
    counting = Counting((), "next")

    def shown(log: Log, _: Mapping[str, str]) -> How:
        nonlocal counting  # the deals counted as they are scored: none is kept
        conv = load_convention(log, Problems(), source.get("convention"), source.get("rounding"))
        counting = Counting(log.header.players, conv.five_second_out if conv else "next")
        return {"each": counting}

    for i, f in enumerate(files, 1):
        try:
            ev, s, who = played(f, source, shown)
        except PulyaError as e:
            problems.extend(e.problems)
        else:
            if not problems:  # once the season fails, only its problems are gathered
                season.add(ev, s, who, counting.done())
        if progress is not None:
            progress(i, len(files), f)
    if problems:
        raise_all(problems)
    return season.stats()
