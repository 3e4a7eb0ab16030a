"""An evening: a log played under a convention.

``play`` is the one fold driver (``Playing``: steps pulled one by one) of every command that scores a log.
A deal's problems never raise: they go into ``problems`` (``check`` makes findings, ``score`` raises)."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, Any, TypedDict

from pulyacalc.convention.schema import Convention
from pulyacalc.core.errors import Loc, Problem, Problems, PulyaError, RuleError
from pulyacalc.core.i18n import M_
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Header, Log
from pulyacalc.core.sheet import SheetView
from pulyacalc.scoring.fold import DealResult, Item, Line, LineSource, Memo, Scorer, Step

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pulyacalc.logs.lines import LineDeals
    from pulyacalc.scoring.settlement import Settlement


@dataclass(frozen=True)
class Evening:
    header: Header
    convention: Convention
    target: int
    sheet: SheetView
    #: deals fed to the scorer, refused ones included
    deals: int
    finished: bool
    #: each scored deal's result, when asked for with ``keep=True`` (or ``running=True``)
    results: tuple[DealResult, ...] = ()
    #: the paper after each deal of ``results``, when asked for with ``running=True``
    running: tuple[SheetView, ...] = ()
    #: Classic (RULES.md 2.10): each player's bombs not yet used, in the order earned
    bombs: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    #: the number of the first deal played after the pulya was finished, None if none was
    after_finish_from: int | None = None
    #: who joined or left the table and after which deal: ("join" or "leave", name, deal)
    changes: tuple[tuple[str, str, int], ...] = ()


#: a callback told the line the play has reached: the command line's progress bar
Progress = Callable[[int], None]


class How(TypedDict, total=False):
    """What a play keeps and shows (keywords): ``keep`` each deal's result, ``running`` also the paper after
    each, ``first`` both up to that deal; ``each`` sees every ``Step`` scored, ``progress`` the line reached;
    ``each_known`` (with ``each``, no sheet read) a known line's stepless ``Line`` (``Scorer.each_known``)."""

    keep: bool
    running: bool
    each: Callable[[Step], object] | None
    each_known: Callable[[Line], object] | None
    progress: Progress | None
    first: int


class Playing:
    """A log being played: the one place a ``Scorer`` is built.  ``memo``: the fold's cache."""

    def __init__(
        self,
        log: Log,
        conv: Convention,
        problems: Problems,
        *,
        start: SheetView | None = None,
        memo: Memo | bool = True,
    ) -> None:
        self.log, self.conv = log, conv
        self.scorer = Scorer(log.header, conv, problems, start, memo)

    def steps(
        self,
        items: Iterable[Item] | None = None,
        lines: LineSource | None = None,
        progress: Progress | None = None,
    ) -> Iterator[Step]:
        """The steps of ``items``, then of ``lines``' unread raw lines; by default the log's deals."""
        if items is None and lines is None:
            lines = _line_source(self.log)
            items = () if lines is not None else self.log.deals
        if progress is not None:
            if items:
                items = _watched(items, progress)
            if lines is not None:
                lines.lines = _watched_lines(lines.lines, lines.number, progress)
        return self.scorer.run(() if items is None else items, lines)

    def evening(self, kept: tuple[DealResult, ...] = (), papers: tuple[SheetView, ...] = ()) -> Evening:
        s = self.scorer
        bombs = {p: tuple(b) for p, b in s.bombs.items()}
        played = (s.count, s.finished, kept, papers, bombs, s.after_finish_from, tuple(s.changes))
        return Evening(self.log.header, self.conv, s.target, s.sheet.view(), *played)


def play(
    log: Log,
    conv: Convention,
    problems: Problems,
    *,
    start: SheetView | None = None,
    memo: Memo | bool = True,
    **how: Unpack[How],
) -> Evening:
    """Score ``log`` under ``conv`` from ``start``; refused deals go into ``problems``; nothing raises."""
    p = Playing(log, conv, problems, start=start, memo=memo)
    return _drain(p, p.steps(progress=how.get("progress")), how)


def _drain(p: Playing, steps: Iterable[Step], how: How) -> Evening:
    """``steps`` read to the end, each shown and kept as ``how`` asks."""
    keep, running, each, first = how.get("keep"), how.get("running"), how.get("each"), how.get("first", 0)
    if not keep and not running and each is None and not first:
        p.scorer.quiet = p.scorer.owing = True
        deque(steps, maxlen=0)  # the fold only: nothing kept per deal
        return p.evening()
    if how.get("each_known") is not None and not keep and not running and not first:
        p.scorer.owing, p.scorer.each_known = True, how.get("each_known")  # no sheet read till the end
    kept: list[DealResult] = []
    papers: list[SheetView] = []
    sheet = p.scorer.sheet
    for step in steps:
        if each is not None:
            each(step)
        if keep or running or step.number <= first:
            kept.append(step.result())
            if running or first:
                papers.append(sheet.view())
    return p.evening(tuple(kept), tuple(papers))


def _watched(items: Iterable[Item], watch: Progress) -> Iterator[Item]:
    for d in items:
        yield d
        watch(d.loc.line)


def _line_source(log: Log) -> LineDeals | None:
    """``log``'s line reader when not yet started (the fold reads its raw lines); else None (YAML, lists)."""
    from pulyacalc.logs.lines import LineDeals

    deals = log.deals
    return deals if type(deals) is LineDeals and not deals.started and deals.pending is not None else None


class Memos:
    """A season's fold caches: a ``fold.Memo`` per players and convention (a club's logs repeat lines)."""

    def __init__(self) -> None:
        self.kept: list[tuple[tuple[str, ...], Convention, Memo]] = []
        self.conventions: dict[tuple[object, ...], Convention] = {}  # per header naming it alike
        self.first: frozenset[str] | None = None  # the first evening's players: their own names

    def stand_ins(self, log: Log) -> tuple[Log, dict[str, str]]:
        """``log`` under stand-in names, and each stand-in's player.  The fold knows a line by its text,
        names and all: a league (new players nightly) would teach it every line anew; under stand-ins,
        players seated alike read the same texts.  Kept as named: the first set (a club never pays), a YAML
        log, names a line could misread (``names_read_alike``).  A stand-in is a character no one types
        plus the player's place in the sorted names: sorting by name holds (``reports.season``'s digests).
        A line naming a player inexactly has a problem (``_stood_in``): the caller replays by real names."""
        from pulyacalc.logs.lines import names_read_alike

        h, deals = log.header, _line_source(log)
        names = frozenset(h.players)
        self.first = names if self.first is None else self.first
        if names == self.first or deals is None or not log.header_ok or not names_read_alike(names):
            return log, {}
        assert deals.pending is not None
        stand = {p: STAND_IN.format(i) for i, p in enumerate(sorted(names))}
        swap = partial(_stood_in, tuple(sorted(stand.items(), key=lambda kv: -len(kv[0]))))
        deals.lines = map(swap, deals.lines)
        deals.pending = (deals.pending[0], swap(deals.pending[1]))
        dealer = None if h.dealer is None else stand.get(h.dealer, h.dealer)
        deals.header = replace(h, players=tuple(stand[p] for p in h.players), dealer=dealer)
        return Log(deals.header, deals, log.header_ok), {s: p for p, s in stand.items()}

    def convention(
        self, log: Log, problems: Problems, name: str | None, rounding: Rounding | None
    ) -> Convention | None:
        """``load_convention``, once per header that names it alike from one directory, no overrides."""
        from pulyacalc.convention.load import outside_allowed

        h = log.header
        given = (name, rounding, outside_allowed.get())
        key = (h.convention, os.path.dirname(h.source), h.pool, h.rounding, given)
        conv = None if h.overrides else self.conventions.get(key)
        if conv is None:
            conv = load_convention(log, problems, name, rounding)
            if conv is not None and not h.overrides and len(self.conventions) < MEMOS_KEPT:
                self.conventions[key] = conv
        return conv

    def get(self, players: tuple[str, ...], conv: Convention) -> Memo:
        kept = self.kept
        for i, (who, c, memo) in enumerate(kept):
            if who == players and c == conv:
                kept.append(kept.pop(i))  # the most recently used last
                return memo
        memo = Memo()
        kept.append((players, conv, memo))
        if len(kept) > MEMOS_KEPT:  # a league: new players every evening
            # emptied: its lines point to each other, and the collector runs seldom (GC_YOUNG)
            kept.pop(0)[2].forget()
        return memo


def _stood_in(stand: tuple[tuple[str, str], ...], raw: str) -> str:
    """``raw`` with each name as its stand-in, longest first.  A word merely holding a name changes too: it
    then reads as no word (no word has a stand-in's first character), a problem: read again by names."""
    for name, stand_in in stand:
        raw = raw.replace(name, stand_in)
    return raw


#: a stand-in's name (``Memos.stand_ins``): a word joiner, which no one types, and a place
STAND_IN = "\u2060{}"

#: the fold caches a season keeps, the least recently used forgotten (docs/performance.md)
MEMOS_KEPT = 8


#: the progress bar is told the line once per this many lines (and at the end)
WATCH_EVERY = 1024


def _watched_lines(lines: Iterator[str], number: int, watch: Progress) -> Iterator[str]:
    for number, raw in enumerate(lines, number + 1):  # noqa: B020
        yield raw
        if not number % WATCH_EVERY:
            watch(number)
    watch(number)


def load_convention(
    log: Log, problems: Problems, convention: str | None = None, rounding: Rounding | None = None
) -> Convention | None:
    """The convention the log names (or ``convention``) with the log's overrides, and
    ``rounding`` when given; None, with the reasons in ``problems``, when it cannot load."""
    from pulyacalc.logs.header import convention_for

    try:
        conv = convention_for(log.header, convention)
    except PulyaError as e:
        problems.extend(e.problems)
        return None
    return replace(conv, rounding=rounding) if rounding is not None else conv


#: keys every report states on its own (pool to, rounding, mountain divisor): not overrides
_STATED = frozenset({"pool.target", "settlement.rounding", "settlement.mountain_divisor"})


def overrides(conv: Convention) -> dict[str, Any]:
    """The keys whose value differs from the convention file the evening names (a log's own
    keys), ``{dotted key: plain value}`` in the schema's order, but those in ``_STATED``."""
    from pulyacalc.convention.load import load
    from pulyacalc.convention.schema import SCHEMA

    try:
        base = load(conv.source)  # the file alone (cached): what the title names
    except PulyaError:
        return {}
    out: dict[str, Any] = {}
    for key, row in SCHEMA.items():
        mine, theirs = row.show(getattr(conv, row.field)), row.show(getattr(base, row.field))
        if mine != theirs and key not in _STATED:
            out[key] = mine
    return out


def score_log(
    log: Log,
    problems: Problems | None = None,
    *,
    convention: str | None = None,
    rounding: Rounding | None = None,
    memos: Memos | None = None,
    **how: Unpack[How],
) -> Evening:
    """Load the log's convention and play it; raises PulyaError with every problem, ``problems``' too."""
    problems = problems if problems is not None else Problems()
    conv = (memos.convention if memos is not None else load_convention)(log, problems, convention, rounding)
    if conv is None or not log.header_ok:
        # a wrong header: every deal read for its own problems, no rule checked against it
        deque(log.deals, maxlen=0)
        problems.raise_if_any()
    assert conv is not None
    memo: Memo | bool = True if memos is None else memos.get(log.header.players, conv)
    ev = play_one_cause(log, conv, problems, memo=memo, **how)
    problems.raise_if_any()
    return ev


#: deals kept to replay for a wrong ``dealer:``; longer is no evening (check.MAX_EVENING_DEALS): not retried
ONE_CAUSE_DEALS = 5_000
#: how many deals with the dealer in play it takes to look for a wrong ``dealer:``
ONE_CAUSE_MIN = 3


def play_one_cause(
    log: Log, conv: Convention, problems: Problems, *, memo: Memo | bool = True, **how: Unpack[How]
) -> Evening:
    """``play``, then, in a short log with deals refused because the 4-player dealer takes part,
    look for one cause: another first dealer under which every such deal fits (docs/format.md)."""
    p = Playing(log, conv, problems, memo=memo)
    steps, look = one_cause_steps(p, how.get("progress"))
    ev = _drain(p, steps, how)
    look()
    return ev


def one_cause_steps(p: Playing, progress: Progress | None) -> tuple[Iterator[Step], Callable[[], None]]:
    """``p``'s steps, a short log's deals kept (a line log's raw lines), and what looks for one cause
    of its refused deals (``_one_cause``) once every step is read, if the log is short."""
    from itertools import chain, islice

    log, problems = p.log, p.scorer.problems
    source, before, record = _line_source(log), len(problems), None
    firsts: list[Item] = []
    if source is not None:
        record = record_lines(source, p.scorer)
        steps = p.steps((), source, progress)
    else:
        it = iter(log.deals)
        firsts = list(islice(it, ONE_CAUSE_DEALS))
        before = len(problems)  # (problems reading them are the reader's, not refused deals)
        steps = p.steps(chain(firsts, it), None, progress)

    def look() -> None:
        nonlocal firsts, before
        if p.scorer.read >= ONE_CAUSE_DEALS or p.scorer.count < 2:
            return
        if record is not None:
            firsts, before = read_again(log, p.conv, problems, record, before)
        _one_cause(log.header, firsts, p.conv, problems, before)

    return steps, look


#: where a line log's raw lines start (line number, the line before's), the lines kept while it may be short
Record = tuple[tuple[int, int], list[str]]


def record_lines(source: LineDeals, scorer: Scorer) -> Record:
    """``source``'s raw lines kept while the log may be short: the first at once (an evening), then singly."""
    from itertools import chain, islice

    assert source.pending is not None
    lines = [source.pending[1], *islice(source.lines, ONE_CAUSE_DEALS)]
    source.lines = chain(lines[1:], _recorded(source.lines, lines, scorer), source.lines)
    return (source.pending[0], source.number), lines


def read_again(
    log: Log, conv: Convention, problems: Problems, record: Record, start: int
) -> tuple[list[Item], int]:
    """A short line log's deals read again from ``record``, its problems since ``start`` found again (the
    rules' after the reader's), for ``_one_cause``; nothing when too few have the 4-player dealer in play."""
    if len({q.loc.line for q in problems.items[start:] if q.code == "dealer-in-play"}) < ONE_CAUSE_MIN:
        return [], len(problems)
    del problems.items[start:]
    (lineno, number), lines = record
    # the header as the log gave it: the reader's is the table after any join it read
    from pulyacalc.logs.lines import LineDeals

    again = LineDeals(iter(lines[1:]), (lineno, lines[0]), number, log.header, problems)
    firsts = list(again)
    before = len(problems)
    deque(Playing(log, conv, problems, memo=False).steps(firsts), maxlen=0)  # its problems again
    return firsts, before


def _recorded(lines: Iterator[str], record: list[str], scorer: Scorer) -> Iterator[str]:
    """``lines``, each kept in ``record`` while the log is short (``ONE_CAUSE_DEALS``), then as they come."""
    for raw in lines:
        record.append(raw)
        yield raw
        if scorer.read >= ONE_CAUSE_DEALS:
            return


def _one_cause(
    header: Header,
    deals: Iterable[Item],
    conv: Convention,
    problems: Problems,
    before: int,
) -> None:
    """Replace the problems a wrong first dealer explains by one (see ``play_one_cause``)."""
    played = problems.items[before:]
    in_play = {p.loc.line for p in played if p.code == "dealer-in-play"}
    if len(in_play) < ONE_CAUSE_MIN:  # a few refused deals are no screenful: each says why
        return
    refused = {p.loc.line for p in played}
    written = header.dealer if header.dealer is not None else header.players[-1]
    fits: list[tuple[str, Problems]] = []
    for other in header.players:
        if other == written:
            continue
        again = Problems()
        play(Log(replace(header, dealer=other), deals), conv, again)
        # the dealer never takes part, and no deal is refused that was not refused already
        refused_now = {p.loc.line for p in again.items}
        if refused_now <= refused and not any(p.code == "dealer-in-play" for p in again.items):
            fits.append((other, again))
    if len(fits) != 1:  # none, or more than one dealer would do: no single cause to name
        return
    other, again = fits[0]
    # what the dealer explains: deals that now fit, and those he took part in (other faults reported below)
    explained = (refused - {p.loc.line for p in again.items}) | in_play
    at = header.locs.get("dealer")
    check = "check `dealer:`" if at is not None else f"add `dealer: {other}`"
    lines = sorted(explained)
    shown = ", ".join(str(n) for n in lines[:3]) + (", …" if len(lines) > 3 else "")
    # the deals still refused are reported as they will be once the dealer is right
    problems.items[before:] = again.items
    problems.add(
        at or header.locs.get("players") or Loc(header.source, 1),
        M_("every deal fits if the first dealer is {other}: {check}", other=other, check=check),
        M_(
            "as written, {len} deals (lines {shown}) have the 4-player dealer, who sits out, take part",
            len=len(lines),
            shown=shown,
        ),
        kind="rule",
        code="dealer-in-play",
    )


def score_file(
    path: str,
    *,
    convention: str | None = None,
    rounding: Rounding | None = None,
    input_format: str | None = None,
    max_yaml_bytes: int | None = None,
    **how: Unpack[How],
) -> Evening:
    """Score a log file (or '-').  Raises PulyaError with every problem found."""
    from pulyacalc.logs.read import read_log

    problems = Problems()
    log = read_log(path, input_format, problems, max_yaml_bytes=max_yaml_bytes)
    return score_log(log, problems, convention=convention, rounding=rounding, **how)


def settle_evening(ev: Evening, price: Decimal | None = None) -> Settlement:
    """Settle an evening; a rounding that cannot settle is raised at ``rounding:`` (or ``players:``)."""
    from pulyacalc.scoring.settlement import SettlementError, settle

    try:
        return settle(ev.sheet, ev.convention, ev.target, ev.convention.rounding, price)
    except SettlementError as e:
        locs = ev.header.locs
        loc = locs.get("rounding") or locs.get("players") or Loc(ev.header.source, 1)
        raise RuleError([Problem(loc, str(e), kind="rule")]) from None
