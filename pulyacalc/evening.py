"""An evening: a log played under a convention.

``play`` is the one fold driver: every command that scores a log (score, explain, check,
compare, season, prices) hands it a log and a convention and gets an ``Evening`` back.
It never raises for a deal's problems; they go into ``problems`` and the caller decides
(``check`` reports them as findings, ``score`` raises them all at once).

``score_file`` and ``score_text`` are the one loader, two sources (beancount's
``load_file`` / ``load_string`` -> ``_load``): read, load the convention, play, and
raise every problem of the log together.  ``score_log`` is that common tail, public so
that a log already read (the Python API, ``compare``) is scored the same way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import field, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pulyacalc.convention.schema import Convention
from pulyacalc.core.errors import Loc, Problem, Problems, PulyaError, RuleError
from pulyacalc.core.i18n import M_
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Correction, Deal, Header, Log, Play, Raspasy, SeatChange, Unreadable
from pulyacalc.core.record import record
from pulyacalc.core.sheet import SheetView
from pulyacalc.scoring.fold import DealResult, Scorer

if TYPE_CHECKING:
    from pulyacalc.logs.lines import LineDeals
    from pulyacalc.scoring.fast import FastCache, Tracer
    from pulyacalc.scoring.settlement import Settlement


@record(frozen=True)
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


#: told the line each deal ``play`` reads ends on: the command line's progress bar
#: (cli/progress.watching) sets it around a command's work, so no signature carries it
WATCH: ContextVar[Callable[[int], None] | None] = ContextVar("pulyacalc_watch", default=None)


def _watched(
    deals: Iterable[Deal | Correction | SeatChange | Unreadable], watch: Callable[[int], None]
) -> Iterator[Deal | Correction | SeatChange | Unreadable]:
    for d in deals:
        yield d
        watch(d.loc.line)


def play(
    log: Log,
    conv: Convention,
    problems: Problems,
    *,
    start: SheetView | None = None,
    keep: bool = False,
    running: bool = False,
    shared: Shared | None = None,
    each: Callable[[DealResult], object] | None = None,
) -> Evening:
    """Score every deal of ``log`` under ``conv``, starting on ``start`` (an empty paper by
    default).  Refused deals are reported into ``problems`` and skipped; nothing raises.
    ``keep`` keeps each deal's result; ``running`` also keeps the paper after each; ``each``
    is shown each deal's result as it is scored, and nothing is kept (``check``).

    A line log with nothing kept and nothing shown goes the fold's fast path
    (``scoring.fast``), with what it learns kept in ``shared`` (``season``: for the
    evenings of the same players and convention); the result is the same."""
    scorer = Scorer(log.header, conv, problems, start=start)
    if not keep and not running and each is None:
        source = _line_source(log)
        if source is not None:
            _play_fast(scorer, source, conv, shared)
            return _evening(log, conv, scorer)
    kept: list[DealResult] = []
    papers: list[SheetView] = []
    deals = log.deals
    watch = WATCH.get()
    if watch is not None:
        deals = _watched(deals, watch)
    results = scorer.feed_all(deals)
    if running:
        for result in results:
            kept.append(result)
            papers.append(scorer.sheet.view())
    elif keep:
        kept.extend(results)
    elif each is not None:
        for result in results:
            each(result)
    else:
        deque(results, maxlen=0)  # the fold only: nothing kept per deal
    return _evening(log, conv, scorer, tuple(kept), tuple(papers))


def _evening(
    log: Log,
    conv: Convention,
    scorer: Scorer,
    kept: tuple[DealResult, ...] = (),
    papers: tuple[SheetView, ...] = (),
) -> Evening:
    return Evening(
        log.header,
        conv,
        scorer.target,
        scorer.sheet.view(),
        scorer.count,
        scorer.finished,
        kept,
        papers,
        {p: tuple(b) for p, b in scorer.bombs.items()},
        scorer.after_finish_from,
    )


def _line_source(log: Log) -> LineDeals | None:
    """The line reader of ``log``, when its deals are one not yet read (the fast path's
    input); None for a YAML log, a list of deals, or any other iterable."""
    from pulyacalc.logs.lines import LineDeals

    deals = log.deals
    return deals if type(deals) is LineDeals and not deals.started and deals.pending is not None else None


class Shared:
    """What the evenings of a season share: the line reader's parse of each distinct text
    per table of players, and what the fast path learnt per players and convention (a
    club's logs repeat the same lines evening after evening).  ``digest``, when set, is
    given the bytes of each deal's ``keyer`` in order (``season``'s duplicate check)."""

    def __init__(self, keyer: Callable[[Deal | Correction | SeatChange], bytes] | None = None) -> None:
        self.parses: dict[tuple[str, ...], dict[str, Any]] = {}
        self.fast: list[FastCache] = []
        self.keyer = None if keyer is None else _per_text(keyer)
        self.digest: Callable[[bytes], None] | None = None

    def share_parses(self, log: Log) -> None:
        """Let ``log``'s line reader use (and add to) the parses of earlier logs of its players."""
        source = _line_source(log)
        if source is not None:
            source.cache = self.parses.setdefault(log.header.players, source.cache)

    def cache(self, players: tuple[str, ...], conv: Convention) -> FastCache:
        from pulyacalc.scoring.fast import FastCache

        for fc in self.fast:
            if fc.players == players and fc.conv == conv:
                break
        else:
            fc = FastCache(players, conv)
            self.fast.append(fc)
        fc.keyer, fc.digest = self.keyer, self.digest
        return fc


#: (parse, note) → ``keyer``'s bytes that ``_per_text`` keeps: emptied when full
KEYED_SIZE = 100_000


def _per_text(
    keyer: Callable[[Deal | Correction | SeatChange], bytes],
) -> Callable[[Deal | Correction | SeatChange], bytes]:
    """``keyer`` worked out once per parse and note: a deal is what its line's text says
    (its ``template``, the reader's parse, shared by the evenings of the same players)
    and its note; the rest of it (where it stands) is no part of a key."""
    seen: dict[tuple[object, str | None], bytes] = {}

    def keyed(d: Deal | Correction | SeatChange) -> bytes:
        template = d.template if isinstance(d, (Play, Raspasy)) else None
        if template is None:
            return keyer(d)
        key = seen.get((template, d.note))
        if key is None:
            if len(seen) >= KEYED_SIZE:
                seen.clear()
            key = seen[template, d.note] = keyer(d)
        return key

    return keyed


def _play_fast(
    scorer: Scorer,
    source: LineDeals,
    conv: Convention,
    shared: Shared | None,
    record: list[str] | None = None,
    record_limit: int = 0,
) -> int:
    """``fast.run`` with the command line's progress bar (``WATCH``) told the line now and
    then; returns the items read."""
    from pulyacalc.scoring import fast as fastpath

    fast = fastpath.FastCache(scorer.players, conv) if shared is None else shared.cache(scorer.players, conv)
    watch = WATCH.get()
    if watch is not None:
        source.lines = _watched_lines(source.lines, source.number, watch)
    return fastpath.run(scorer, source, fast, record, record_limit)


#: the fast path tells the progress bar its line once per this many lines (and at the end)
WATCH_EVERY = 1024


def _watched_lines(lines: Iterator[str], number: int, watch: Callable[[int], None]) -> Iterator[str]:
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
    """The keys whose effective value differs from the convention file the evening names
    (a log's own keys), as ``{dotted key: value as plain data}`` in the schema's order; {}
    when none.  The pool target and the rounding are left out: every report states them
    on their own (``pool to 20``, ``rounding``; JSON ``pool_target``, ``rounding``)."""
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
    keep: bool = False,
    running: bool = False,
    shared: Shared | None = None,
    trace: Tracer | None = None,
    first: int = 0,
    each: Callable[[DealResult], object] | None = None,
) -> Evening:
    """Load the log's convention and play it; raises PulyaError with every problem
    (those already in ``problems``, say from reading, included).  ``shared``: what the
    fast path learnt from other evenings (``season``); ``trace`` and ``first``: see
    ``play_traced``; ``each``: see ``play``."""
    problems = problems if problems is not None else Problems()
    conv = load_convention(log, problems, convention, rounding)
    if conv is None or not log.header_ok:
        # the header is wrong: read every deal for its own problems, but check no rules
        # against a header we cannot trust, and report everything at once
        for _ in log.deals:
            pass
        problems.raise_if_any()
    assert conv is not None
    if trace is not None:
        ev = play_traced(log, conv, problems, trace, first)
    else:
        ev = play_one_cause(log, conv, problems, keep=keep, running=running, shared=shared, each=each)
    problems.raise_if_any()
    return ev


#: deals kept aside so that a wrong ``dealer:`` can be found by playing them again; a log
#: longer than this (never an evening, see checks.MAX_EVENING_DEALS) is not re-tried
ONE_CAUSE_DEALS = 5_000
#: how many deals with the dealer in play it takes to look for a wrong ``dealer:``
ONE_CAUSE_MIN = 3


def play_one_cause(
    log: Log,
    conv: Convention,
    problems: Problems,
    *,
    keep: bool = False,
    running: bool = False,
    shared: Shared | None = None,
    each: Callable[[DealResult], object] | None = None,
) -> Evening:
    """``play``, then, when deals were refused because the 4-player dealer takes part,
    look for one cause: another first dealer under which every such deal fits.  Found,
    the refused deals it explains become one problem at the ``dealer:`` line (or the
    players: line); see docs/format.md.  The first deals are taken up front (no cost per
    deal), and played again only when there is a dealer-in-play problem.

    A line log goes the fast path (``play``) keeping the raw lines of its first deals; a
    short log with dealer-in-play problems is then read again from them, the full way,
    which reports exactly what the full path would have."""
    from itertools import chain, islice

    source = None if keep or running or each is not None else _line_source(log)
    if source is not None:
        assert source.pending is not None
        lineno, number, before = source.pending[0], source.number, len(problems)
        scorer = Scorer(log.header, conv, problems)
        record: list[str] = []
        items = _play_fast(scorer, source, conv, shared, record, ONE_CAUSE_DEALS)
        wrong_dealer = sum(p.code == "dealer-in-play" for p in problems.items[before:])
        if items >= ONE_CAUSE_DEALS or scorer.count <= 1 or wrong_dealer < ONE_CAUSE_MIN:
            return _evening(log, conv, scorer)
        del problems.items[before:]
        # the header as the log gave it: the reader's is the table after any join it read
        again = type(source)(iter(record[1:]), (lineno, record[0]), number, log.header, problems)
        log = replace(log, deals=again)
    it = iter(log.deals)
    first = list(islice(it, ONE_CAUSE_DEALS))
    before = len(problems)
    ev = play(replace(log, deals=chain(first, it)), conv, problems, keep=keep, running=running, each=each)
    if len(first) < ONE_CAUSE_DEALS and ev.deals > 1:
        _one_cause(log.header, first, conv, problems, before)
    return ev


def play_traced(log: Log, conv: Convention, problems: Problems, trace: Tracer, first: int = 0) -> Evening:
    """``play_one_cause`` showing ``trace`` what every deal writes, with nothing kept per deal
    (``sheet``: each cell's running totals of a log of any length).  The first
    ``ONE_CAUSE_DEALS`` items go the full way (a short log is looked at for one cause, as
    ``play_one_cause`` does); the rest of a line log goes the fast path, which shows
    ``trace`` each hit's writes.  The results of the deals up to deal ``first`` (and of the
    corrections after it) among those are kept in ``results``, with the paper after each in
    ``running`` (the drawn page's explain table)."""
    from itertools import chain, islice

    from pulyacalc.logs.lines import LineDeals
    from pulyacalc.scoring import fast

    scorer = Scorer(log.header, conv, problems)
    it = iter(log.deals)
    firsts = list(islice(it, ONE_CAUSE_DEALS))
    before, short = len(problems), len(firsts) < ONE_CAUSE_DEALS
    source = log.deals if not short and type(log.deals) is LineDeals else None
    deals: Iterable[Deal | Correction | SeatChange | Unreadable] = (
        firsts if source is not None else chain(firsts, it)
    )
    watch = WATCH.get()
    if watch is not None:
        deals = _watched(deals, watch)
    kept: list[DealResult] = []
    papers: list[SheetView] = []
    for r in scorer.feed_all(deals):
        trace.result(r)
        if first and r.number <= first:
            kept.append(r)
            papers.append(scorer.sheet.view())
    if source is not None:  # as checks.Checking._fast: the lines after the first items
        source.number, source.pending = firsts[-1].loc.line, None
        if watch is not None:
            source.lines = _watched_lines(source.lines, source.number, watch)
        fast.run(scorer, source, fast.FastCache(scorer.players, conv), tracer=trace)
    elif short and scorer.count > 1:
        _one_cause(log.header, firsts, conv, problems, before)
    return _evening(log, conv, scorer, tuple(kept), tuple(papers))


def _one_cause(
    header: Header,
    deals: Iterable[Deal | Correction | SeatChange | Unreadable],
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
        if (
            not any(p.code == "dealer-in-play" for p in again.items)
            and {p.loc.line for p in again.items} <= refused
        ):
            fits.append((other, again))
    if len(fits) != 1:  # none, or more than one dealer would do: no single cause to name
        return
    other, again = fits[0]
    # the deals refused as written that the dealer accounts for: those that now fit, and
    # those where the dealer took part (wrong for another reason too: reported again below)
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
    keep: bool = False,
    running: bool = False,
    max_yaml_bytes: int | None = None,
    trace: Tracer | None = None,
    first: int = 0,
) -> Evening:
    """Score a log file (or '-').  Raises PulyaError with every problem found.  ``trace``
    and ``first``: see ``play_traced``."""
    from pulyacalc.logs.read import read_log

    problems = Problems()
    log = read_log(path, input_format, problems, max_yaml_bytes=max_yaml_bytes)
    return score_log(
        log,
        problems,
        convention=convention,
        rounding=rounding,
        keep=keep,
        running=running,
        trace=trace,
        first=first,
    )


def score_text(
    text: str,
    name: str = "<text>",
    *,
    convention: str | None = None,
    rounding: Rounding | None = None,
    input_format: str | None = None,
    keep: bool = False,
    running: bool = False,
    max_yaml_bytes: int | None = None,
) -> Evening:
    """Score a log given as text (``name`` locates its problems).  Raises PulyaError."""
    from pulyacalc.logs.read import read_text

    problems = Problems()
    log = read_text(text, name, input_format, problems, max_yaml_bytes=max_yaml_bytes)
    return score_log(log, problems, convention=convention, rounding=rounding, keep=keep, running=running)


def settle_evening(ev: Evening, price: Decimal | None = None) -> Settlement:
    """Settle an evening; a settlement the rounding cannot do is reported at the log's
    ``rounding:`` line (or its players: line), like any other problem of the input."""
    from pulyacalc.scoring.settlement import SettlementError, settle

    try:
        return settle(ev.sheet, ev.convention, ev.target, ev.convention.rounding, price)
    except SettlementError as e:
        locs = ev.header.locs
        loc = locs.get("rounding") or locs.get("players") or Loc(ev.header.source, 1)
        raise RuleError([Problem(loc, str(e), kind="rule")]) from None
