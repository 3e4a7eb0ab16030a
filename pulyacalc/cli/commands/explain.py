"""`pulyacalc explain LOG [--deal N]`: every entry of every deal, with its rule and arithmetic."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli.options import (
    TABLE,
    ConventionOpt,
    FormatOpt,
    InputFormatOpt,
    LogArg,
    RoundingOpt,
    rounding_of,
    usage,
)
from pulyacalc.cli.output import OutputOpt, QuietOpt
from pulyacalc.cli.runtime import emit, reports_problems


@reports_problems
def explain(
    log: LogArg,
    deal: Annotated[
        int | None, typer.Option("--deal", "-d", min=1, help="Explain only deal number N (1 = the first).")
    ] = None,
    convention: ConventionOpt = None,
    format: FormatOpt = TABLE,
    rounding: RoundingOpt = None,
    input_format: InputFormatOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Every entry of every deal: who writes how much, where, why (rule and arithmetic), and the
    running totals after each deal (нарастающим итогом)."""
    from pulyacalc.explain import explain_file
    from pulyacalc.render.explain import ExplainView
    from pulyacalc.render.formats import render

    ex = explain_file(
        log,
        convention=convention,
        rounding=rounding_of(rounding),
        input_format=input_format.value if input_format else None,
    )
    deals = ex.deals
    if deal is not None:
        deals = tuple(d for d in ex.deals if d.result.number == deal)
        if not deals:
            raise usage(f"no deal {deal}: the log has {ex.evening.deals} deals", "--deal")
    emit(render(ExplainView(ex, deals), format.value))
