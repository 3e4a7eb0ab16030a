"""An evening from a file: read the log, load its convention, score every deal, and
report every problem of the file together.  The commands that read logs (score,
explain, check, compare, season) all start here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from pulyacalc.convention.schema import Convention
from pulyacalc.core.errors import Problems, PulyaError
from pulyacalc.core.model import Header
from pulyacalc.core.sheet import SheetView
from pulyacalc.scoring.fold import DealResult, Scorer


@dataclass(frozen=True)
class Evening:
    header: Header
    convention: Convention
    target: int
    sheet: SheetView
    deals: int
    finished: bool
    #: each deal's result, when asked for with ``keep=True``
    results: tuple[DealResult, ...] = ()


def score_file(
    path: str,
    *,
    convention: str | None = None,
    rounding: str | None = None,
    input_format: str | None = None,
    keep: bool = False,
    on_deal: Callable[[DealResult, Scorer], None] | None = None,
    max_yaml_bytes: int | None = None,
) -> Evening:
    """Score a log file (or '-').  Raises PulyaError with every problem found."""
    from pulyacalc.logs.header import convention_for
    from pulyacalc.logs.read import read_log

    problems = Problems()
    log = read_log(path, input_format, problems, max_yaml_bytes=max_yaml_bytes)
    header_ok = log.header_ok
    try:
        conv = convention_for(log.header, convention)
    except PulyaError as e:
        problems.extend(e.problems)
        header_ok = False
    if not header_ok:
        # the header is wrong: read every deal for its own problems, but check no rules
        # against a header we cannot trust, and report everything at once
        for _ in log.deals:
            pass
        problems.raise_if_any()
    if rounding is not None:
        conv = replace(conv, rounding=rounding)
    scorer = Scorer(log.header, conv, problems)
    kept: list[DealResult] = []
    count = 0
    for result in scorer.feed_all(log.deals):
        count += 1
        if keep:
            kept.append(result)
        if on_deal is not None:
            on_deal(result, scorer)
    problems.raise_if_any()
    return Evening(log.header, conv, scorer.target, scorer.sheet.view(), count, scorer.finished, tuple(kept))
