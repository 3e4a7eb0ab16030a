"""`pulyacalc settle SHEET`: settle a finished paper sheet."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli.options import (
    TABLE,
    ConventionOpt,
    FormatOpt,
    MaxYamlBytesOpt,
    PriceOpt,
    RoundingOpt,
    parse_price,
    rounding_blamed,
    rounding_of,
)
from pulyacalc.cli.output import OutputOpt, QuietOpt
from pulyacalc.cli.runtime import emit, reports_problems


@reports_problems
@rounding_blamed
def settle(
    sheet: Annotated[
        str,
        typer.Argument(metavar="SHEET", help="The paper sheet as YAML (see INTERFACE.md), or - for stdin."),
    ],
    convention: ConventionOpt = None,
    format: FormatOpt = TABLE,
    whist_price: PriceOpt = None,
    rounding: RoundingOpt = None,
    max_yaml_bytes: MaxYamlBytesOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Settle a paper sheet: pools to the mountain, amnesty, average mountain, whists, total."""
    from pulyacalc.logs.header import convention_for
    from pulyacalc.logs.sheet_file import read_sheet
    from pulyacalc.render.formats import render
    from pulyacalc.render.settle import SettleReport
    from pulyacalc.scoring.settlement import settle as do_settle

    price = parse_price(whist_price)
    paper = read_sheet(sheet, max_yaml_bytes)
    conv = convention_for(paper.header, convention)
    rnd = rounding_of(rounding) or conv.rounding
    target = paper.header.pool if paper.header.pool is not None else conv.pool_target
    result = do_settle(paper.sheet, conv, target, rnd, price)
    emit(render(SettleReport(conv, target, paper.sheet, result), format.value))
