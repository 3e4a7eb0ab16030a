"""A dispute over one deal, settled by showing each reading (``pulyacalc dispute LOG --deal N``).

Which keys tables read differently, in which situations, and each reading's source are schema data
(``Key.contested``); this module holds only each situation's predicate (:data:`SITUATIONS`).  A reading
is the whole log played again with that one key in its header: its figures are what ``score`` prints."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pulyacalc.convention.schema import SCHEMA, Convention, Key, Situation
from pulyacalc.core.amounts import Amount
from pulyacalc.core.errors import Loc, Problem, Problems, PulyaError
from pulyacalc.core.i18n import M_, MN_
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Log, Play, Raspasy
from pulyacalc.core.seating import Seats
from pulyacalc.play import Evening, load_convention, play, settle_evening
from pulyacalc.reports.explain import DealLine, Explained, explain_entries, talon_taker
from pulyacalc.reports.ledger import deal_row
from pulyacalc.reports.replay import Replay
from pulyacalc.scoring.fold import DealResult, Step
from pulyacalc.scoring.resolve import Resolved, resolve
from pulyacalc.scoring.rules import talon_tricks
from pulyacalc.scoring.settlement import Settlement
from pulyacalc.yamlsource import Node

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pulyacalc.reports.season import ScoreOptions


class NoSuchDeal(LookupError):
    """``--deal N`` names no deal of the log (``count``: how many it has)."""

    def __init__(self, number: int, count: int) -> None:
        deals = MN_("{n} deal", "{n} deals", count, n=count)
        super().__init__(M_("no deal {number}: the log has {deals}", number=number, deals=deals))
        self.number, self.count = number, count


# -- the situations: when a contested key matters for a deal --------------------------------
@dataclass(frozen=True)
class Case:
    """What the situations read about the deal: its result and its resolved numbers."""

    result: DealResult
    resolved: Resolved
    conv: Convention
    #: the deals before it, last first (corrections left out: they are not deals)
    before: tuple[DealResult, ...]

    @property
    def made(self) -> bool:
        return self.resolved.taken >= self.resolved.level

    @property
    def sits_out(self) -> str | None:
        return self.resolved.seats.sits_out


def _played(c: Case, whisters: int) -> bool:
    return c.result.kind == "played" and len(c.resolved.whisters) == whisters


def _premium(c: Case, kinds: tuple[str, ...]) -> bool:
    """A deal of one of ``kinds`` whose talon gave the declarer tricks, the premium on."""
    deal = c.resolved.deal
    talon = isinstance(deal, Play) and bool(deal.talon) and talon_tricks(deal.talon)[0] > 0
    return c.conv.premium_enabled and c.result.kind in kinds and talon


def _two_whisters_short(c: Case) -> bool:
    if not (_played(c, 2) and c.made):
        return False
    r, need = c.resolved, c.conv.obligation[c.resolved.level]
    own = dict(r.tricks)
    return sum(own.values()) < need or own.get(r.defenders[1], 0) < need


def _zero_counts(c: Case) -> dict[str, int]:
    counts = dict(c.resolved.tricks)
    if c.sits_out is not None:
        counts.setdefault(c.sits_out, 0)  # the talon gave the dealer nothing
    return counts


def _leaves_run_going(r: DealResult) -> bool:
    """Some reading of ``raspasy.run_ends_on`` lets a raspasy run go on after ``r``."""
    failed = any(e.rule == "remise" for e in r.entries)
    return r.kind in ("unplayed", "half", "misere") or (r.kind == "played" and failed)


def _run_goes_on(c: Case) -> bool:
    """A raspasy whose run depends on the reading, or a deal such a run goes on through."""
    through = 0 if c.result.kind == "raspasy" else 1
    if through and not _leaves_run_going(c.result):
        return False
    for r in c.before:
        if r.kind == "raspasy":
            return through > 0
        if not _leaves_run_going(r):
            return False
        through += 1
    return False


#: the predicate of each situation of ``schema.Situation``
SITUATIONS: dict[Situation, Callable[[Case], bool]] = {
    "one-whister-failed": lambda c: _played(c, 1) and not c.made,
    "one-whister-made": lambda c: _played(c, 1) and c.made and c.resolved.taken < 10,
    "two-whisters-short": _two_whisters_short,
    "dealer-consoles": lambda c: c.result.kind == "played" and not c.made and c.sits_out is not None,
    "zero-trick": lambda c: c.result.kind == "raspasy" and 0 in _zero_counts(c).values(),
    "dealer-zero-trick": lambda c: (
        c.result.kind == "raspasy" and c.sits_out is not None and _zero_counts(c)[c.sits_out] == 0
    ),
    "run-goes-on": _run_goes_on,
    "talon-premium": lambda c: c.sits_out is None and _premium(c, ("unplayed", "half", "played")),
    "conceded-premium": lambda c: _premium(c, ("conceded",)),
    "five-dark-raspasy": lambda c: (
        c.result.kind == "raspasy" and len(c.resolved.seats.sitters) == 2 and bool(c.resolved.deal.dark)
    ),
    "two-half-whist": lambda c: c.result.kind == "half" and c.resolved.seats.dummy,
}


# -- the dispute -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Reading:
    """One value of a contested key, and the evening under it."""

    #: the value as the convention holds it, and as a header writes it
    value: Any
    text: str
    #: the Code's clause, or the tables that read it so
    source: str
    #: the log's own reading (its convention with its overrides)
    own: bool
    #: the header line that scores the log under this reading (``whist.on_failure: gentleman``)
    override: str
    #: the deal's entries under this reading; nothing when the reading refuses the log
    entries: tuple[Explained, ...] = ()
    settlement: Settlement | None = None
    #: final result (rounded) and exact, minus the log's own: the whole evening's change, not just this deal's
    change: Mapping[str, Amount] = field(default_factory=dict)
    change_exact: Mapping[str, Amount] = field(default_factory=dict)
    #: what this deal's entries move each exact result by under this reading (its ledger row)
    moves: Mapping[str, Amount] = field(default_factory=dict)
    #: why the log cannot be scored under this reading (each problem located)
    refused: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class Disputed:
    """A contested key that matters for the deal, with each reading."""

    key: Key
    #: the deal's level, when the key is a table by level
    level: int | None
    readings: tuple[Reading, ...]


@dataclass(frozen=True)
class Dispute:
    evening: Evening
    settlement: Settlement
    result: DealResult
    #: the deal as one line of the line format, and where the log writes it
    line: str
    where: str
    keys: tuple[Disputed, ...]


def dispute_file(
    path: str, number: int, *, price: Decimal | None = None, **options: Unpack[ScoreOptions]
) -> Dispute:
    """The dispute over deal ``number`` of a log file (or '-'); raises PulyaError (as score), NoSuchDeal."""
    from pulyacalc.logs.read import read_log

    problems = Problems()
    log = read_log(path, options.get("input_format"), problems, max_yaml_bytes=options.get("max_yaml_bytes"))
    convention, rounding = options.get("convention"), options.get("rounding")
    replay = Replay(log)  # each reading plays it again
    told = list(problems.items)
    conv = load_convention(log, problems, convention, rounding) if log.header_ok else None
    window = WINDOW
    while conv is not None:
        base, result, before, table = _play_at(replay.fresh(problems), conv, problems, number, window)
        # (``_run_goes_on`` reads its answer from ``before`` without running out of deals)
        run_told = any(r.kind == "raspasy" or not _leaves_run_going(r) for r in before)
        if problems or result is None or number - 1 <= window or run_told:
            break
        window *= 8  # a raspasy run may go on through more deals than were kept: again
    if conv is None or problems:
        again = Problems()
        again.extend(told)
        replay.as_score(again, convention, rounding)
    if result is None:
        raise NoSuchDeal(number, base.deals)
    ctx = _Context(replay, base, settle_evening(base, price), result, convention, rounding, price)
    keys = _contested(ctx, before, table)  # (``_play_at`` finds only a Play or a Raspasy)
    talon_by = talon_taker(result.deal, result.dealer, len(ctx.settlement.players))
    line, where = DealLine.of(result.deal, talon_by), str(result.deal.loc)
    return Dispute(base, ctx.settlement, result, line, where, keys)


#: deals played fully before the disputed one, to read a raspasy run back (``_run_goes_on``); more if needed
WINDOW = 64


def _play_at(
    log: Log, conv: Convention, problems: Problems, number: int, window: int
) -> tuple[Evening, DealResult | None, tuple[DealResult, ...], tuple[str, ...]]:
    """``play``, with deal ``number``'s result (or None), those of the ``window`` deals before it,
    last first, and the table it was dealt at (RULES.md 6.3): no other step made a result."""
    start = max(0, number - 1 - window)  # the deals before the window
    kept: list[DealResult] = []
    found: list[DealResult] = []
    table = [log.header.players]

    def each(step: Step) -> None:
        if found:
            return
        if step.table:  # a seat change: the table after it
            table[0] = step.table
        if start < step.number <= number:
            r = step.result()
            kept.append(r)
            if r.number == number and isinstance(r.deal, Play | Raspasy):
                found.append(r)

    ev = play(log, conv, problems, each=each)
    before = tuple(r for r in reversed(kept) if r.number < number and isinstance(r.deal, Play | Raspasy))
    return ev, found[0] if found else None, before, table[0]


def _contested(ctx: _Context, before: tuple[DealResult, ...], table: tuple[str, ...]) -> tuple[Disputed, ...]:
    """Every contested key that matters for the deal (dealt at ``table``), each reading played."""
    result, conv = ctx.result, ctx.base.convention
    assert isinstance(result.deal, Play | Raspasy)
    seats = Seats(table, result.dealer, conv.five_second_out, ctx.replay.header.dummy or "first")
    resolved = resolve(result.deal, seats, conv, Problems())
    assert resolved is not None  # it was scored under this very convention
    case = Case(result, resolved, conv, before)
    keys = []
    for key in SCHEMA.values():
        contested = key.contested
        if contested is None or not any(SITUATIONS[s](case) for s in contested.when):
            continue
        level = resolved.level if key.parse.per_level else None
        readings = tuple(ctx.reading(key, level, v, source) for v, source in _values(key, conv, level))
        keys.append(Disputed(key, level, readings))
    return tuple(keys)


def _values(key: Key, conv: Convention, level: int | None) -> list[tuple[Any, str]]:
    """Each reading of ``key`` with its source; the log's own value first when no table reads it so."""
    assert key.contested is not None
    readings = list(key.contested.readings(key))
    mine = _current(key, conv, level)
    if not any(_same(v, mine) for v, _ in readings):
        readings.insert(0, (mine, M_("the log's convention ({name})", name=conv.name)))
    return readings


def _current(key: Key, conv: Convention, level: int | None) -> Any:
    value = getattr(conv, key.field)
    return value[level] if level is not None else value


def _same(a: Any, b: Any) -> bool:
    """The same value: True == 1 in Python, but a flag and a number are never one reading."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _text(value: Any) -> str:
    """A value as a header writes it (a Fraction's str is ``7/2``, or ``3`` when whole)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class _Context:
    """The log and its own evening, which every reading is played and measured against."""

    replay: Replay
    base: Evening
    settlement: Settlement
    result: DealResult
    convention: str | None
    rounding: Rounding | None
    price: Decimal | None

    def reading(self, key: Key, level: int | None, value: Any, source: str) -> Reading:
        text = _text(value)
        override = f"{key.name}: {{{level}: {text}}}" if level is not None else f"{key.name}: {text}"
        base, mine = self.base, self.settlement
        if _same(value, _current(key, base.convention, level)):
            zero = {p: Fraction(0) for p in mine.players}
            entries = explain_entries(self.result)
            moves = deal_row(self.result.entries, mine.players, base.convention)
            return Reading(value, text, source, True, override, entries, mine, zero, zero, moves)
        reading = Reading(value, text, source, False, override)
        found = Problems()
        header = self.replay.header
        node = _override_node(key, base.convention, level, value, self.result.deal.loc)
        kept = tuple(o for o in header.overrides if o[0] != key.name)
        header = replace(header, overrides=(*kept, (key.name, node)))
        conv = load_convention(Log(header, ()), found, self.convention, self.rounding)
        if conv is None:
            return replace(reading, refused=tuple(found.items))
        ev, result, _, _ = _play_at(self.replay.fresh(found, header), conv, found, self.result.number, 0)
        if found:
            return replace(reading, refused=tuple(found.items))
        try:
            s = settle_evening(ev, self.price)
        except PulyaError as e:
            return replace(reading, refused=tuple(e.problems))
        assert result is not None  # a reading that refuses the deal has a problem
        change = {p: s.result[p] - mine.result[p] for p in s.players}
        change_exact = {p: s.exact[p] - mine.exact[p] for p in s.players}
        entries, moves = explain_entries(result), deal_row(result.entries, s.players, ev.convention)
        return Reading(value, text, source, False, override, entries, s, change, change_exact, moves)


def _override_node(key: Key, conv: Convention, level: int | None, value: Any, loc: Loc) -> Node:
    """``value`` as an override node; a level table is written whole, so it replaces the log's, not merges."""

    def scalar(text: str) -> Node:
        return Node("scalar", loc, text=text)

    if level is None:
        return scalar(_text(value))
    table = {**getattr(conv, key.field), level: value}
    return Node("map", loc, pairs=tuple((scalar(str(k)), scalar(_text(v))) for k, v in sorted(table.items())))
