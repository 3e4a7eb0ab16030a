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

    from pulyacalc.convention.schema import Convention
    from pulyacalc.core.sheet import SheetView
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

    price = parse_price(whist_price)
    ev = score_file(
        log,
        convention=convention,
        rounding=rounding.value if rounding else None,
        input_format=input_format.value if input_format else None,
        max_yaml_bytes=max_yaml_bytes,
    )
    result = settle_located(ev, price)
    emit(render_report(format, ev.convention, ev.target, ev.sheet, result, ev.deals, ev.finished))


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


def render_report(
    format: Format,
    conv: Convention,
    target: int,
    sheet: SheetView,
    result: Settlement,
    deals: int | None = None,
    finished: bool | None = None,
) -> str:
    """The score/settle report in the chosen format (shared by score, settle)."""
    from pulyacalc.render import report as render

    report = render.Report(conv, target, sheet, result, deals, finished)
    if format is Format.json:
        return render.dumps(render.report_json(report)) + "\n"
    if format is Format.jsonl:
        return render.report_jsonl(report)
    if format is Format.csv:
        return render.report_csv(report)
    if format is Format.tsv:
        return render.report_csv(report, "\t")
    return render.report_table(report)
