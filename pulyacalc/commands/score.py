"""`pulyacalc score LOG`: the sheet and the settlement of an evening."""

from __future__ import annotations

from typing import Annotated

import typer

from ..cli import (
    ConventionOpt,
    Format,
    FormatOpt,
    InputFormatOpt,
    PriceOpt,
    RoundingOpt,
    app,
    emit,
    parse_price,
    reports_problems,
)


@app.command()
@reports_problems
def score(
    log: Annotated[str, typer.Argument(help="The log: a YAML or line-format file, or - for stdin.")],
    convention: ConventionOpt = None,
    format: FormatOpt = Format.table,
    whist_price: PriceOpt = None,
    rounding: RoundingOpt = None,
    input_format: InputFormatOpt = None,
) -> None:
    """Score an evening from a log: the sheet (pool, mountain, whists) and the settlement."""
    from ..errors import Problems
    from ..logread import convention_for, read_log
    from ..scoring import Scorer
    from ..settlement import settle

    price = parse_price(whist_price)
    problems = Problems()
    log_ = read_log(log, input_format.value if input_format else None, problems)
    conv = convention_for(log_.header, convention)
    if rounding is not None:
        from dataclasses import replace

        conv = replace(conv, rounding=rounding.value)
    scorer = Scorer(log_.header, conv, problems)
    deals = 0
    for _ in scorer.feed_all(log_.deals):
        deals += 1
    problems.raise_if_any()
    sheet = scorer.sheet.view()
    result = settle(sheet, conv, scorer.target, conv.rounding, price)
    emit(render_report(format, conv, scorer.target, sheet, result, deals, scorer.finished))


def render_report(format: Format, conv, target, sheet, result, deals=None, finished=None) -> str:  # type: ignore[no-untyped-def]
    from .. import render

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
