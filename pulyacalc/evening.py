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
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING

from pulyacalc.convention.schema import Convention
from pulyacalc.core.errors import Loc, Problem, Problems, PulyaError, RuleError
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Header, Log
from pulyacalc.core.sheet import SheetView
from pulyacalc.scoring.fold import DealResult, Scorer

if TYPE_CHECKING:
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


def play(
    log: Log,
    conv: Convention,
    problems: Problems,
    *,
    start: SheetView | None = None,
    keep: bool = False,
    running: bool = False,
) -> Evening:
    """Score every deal of ``log`` under ``conv``, starting on ``start`` (an empty paper by
    default).  Refused deals are reported into ``problems`` and skipped; nothing raises.
    ``keep`` keeps each deal's result; ``running`` also keeps the paper after each."""
    scorer = Scorer(log.header, conv, problems, start=start)
    kept: list[DealResult] = []
    papers: list[SheetView] = []
    if running:
        for result in scorer.feed_all(log.deals):
            kept.append(result)
            papers.append(scorer.sheet.view())
    elif keep:
        kept.extend(scorer.feed_all(log.deals))
    else:
        deque(scorer.feed_all(log.deals), maxlen=0)  # the fold only: nothing kept per deal
    return Evening(
        log.header,
        conv,
        scorer.target,
        scorer.sheet.view(),
        scorer.count,
        scorer.finished,
        tuple(kept),
        tuple(papers),
    )


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


def score_log(
    log: Log,
    problems: Problems | None = None,
    *,
    convention: str | None = None,
    rounding: Rounding | None = None,
    keep: bool = False,
    running: bool = False,
) -> Evening:
    """Load the log's convention and play it; raises PulyaError with every problem
    (those already in ``problems``, say from reading, included)."""
    problems = problems if problems is not None else Problems()
    conv = load_convention(log, problems, convention, rounding)
    if conv is None or not log.header_ok:
        # the header is wrong: read every deal for its own problems, but check no rules
        # against a header we cannot trust, and report everything at once
        for _ in log.deals:
            pass
        problems.raise_if_any()
    assert conv is not None
    ev = play(log, conv, problems, keep=keep, running=running)
    problems.raise_if_any()
    return ev


def score_file(
    path: str,
    *,
    convention: str | None = None,
    rounding: Rounding | None = None,
    input_format: str | None = None,
    keep: bool = False,
    running: bool = False,
    max_yaml_bytes: int | None = None,
) -> Evening:
    """Score a log file (or '-').  Raises PulyaError with every problem found."""
    from pulyacalc.logs.read import read_log

    problems = Problems()
    log = read_log(path, input_format, problems, max_yaml_bytes=max_yaml_bytes)
    return score_log(log, problems, convention=convention, rounding=rounding, keep=keep, running=running)


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
