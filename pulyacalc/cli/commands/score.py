"""`pulyacalc score LOG`: the sheet and the settlement of an evening."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pulyacalc.cli.options import (
    ConventionOpt,
    Format,
    FormatOpt,
    InputFormatOpt,
    LogArg,
    MaxYamlBytesOpt,
    PriceOpt,
    RoundingOpt,
    parse_price,
)
from pulyacalc.cli.runtime import emit, reports_problems

if TYPE_CHECKING:
    from decimal import Decimal

    from pulyacalc.evening import Evening
    from pulyacalc.scoring.settlement import Settlement


@reports_problems
def score(
    log: LogArg,
    convention: ConventionOpt = None,
    format: FormatOpt = Format.table,
    whist_price: PriceOpt = None,
    rounding: RoundingOpt = None,
    input_format: InputFormatOpt = None,
    max_yaml_bytes: MaxYamlBytesOpt = None,
) -> None:
    """Score an evening from a log: the sheet (pool, mountain, whists) and the settlement."""
    from pulyacalc.evening import score_file
    from pulyacalc.render.formats import render
    from pulyacalc.render.report import Report

    price = parse_price(whist_price)
    ev = score_file(
        log,
        convention=convention,
        rounding=rounding.value if rounding else None,
        input_format=input_format.value if input_format else None,
        max_yaml_bytes=max_yaml_bytes,
    )
    result = settle_located(ev, price)
    emit(render(Report(ev.convention, ev.target, ev.sheet, result, ev.deals, ev.finished), format.value))


def settle_located(ev: Evening, price: Decimal | None) -> Settlement:
    """Settle an evening; a settlement the rounding cannot do is reported at the log's
    ``rounding:`` line (or its players: line), like any other problem of the input."""
    from pulyacalc.core.errors import Loc, Problem, RuleError
    from pulyacalc.scoring.settlement import SettlementError, settle

    try:
        return settle(ev.sheet, ev.convention, ev.target, ev.convention.rounding, price)
    except SettlementError as e:
        locs = ev.header.locs
        loc = locs.get("rounding") or locs.get("players") or Loc(ev.header.source, 1)
        raise RuleError([Problem(loc, str(e), kind="rule")]) from None
