"""`pulyacalc ledger LOG`: a row per deal with what it moved each player's result by."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli.options import (
    TABLE,
    AllowOutsideOpt,
    ConventionOpt,
    FormatOpt,
    InputFormatOpt,
    LogArg,
    MaxYamlBytesOpt,
    PriceOpt,
    RoundingOpt,
    parse_price,
    rounding_blamed,
    rounding_of,
)
from pulyacalc.cli.output import OutputOpt, QuietOpt
from pulyacalc.cli.runtime import emit, reports_problems
from pulyacalc.core.i18n import N_


@reports_problems
@rounding_blamed
def ledger(
    log: LogArg,
    running: Annotated[
        bool, typer.Option("--running", help=N_("Add each player's running total after each deal."))
    ] = False,
    convention: ConventionOpt = None,
    allow_outside: AllowOutsideOpt = False,
    format: FormatOpt = TABLE,
    whist_price: PriceOpt = None,
    rounding: RoundingOpt = None,
    input_format: InputFormatOpt = None,
    max_yaml_bytes: MaxYamlBytesOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """What each deal cost: per deal, what it moved each player's final result by, in whists
    (the rows add up to the settlement; the rounding is its own last row)."""
    from pulyacalc.ledger import ledger_file
    from pulyacalc.render.formats import render
    from pulyacalc.render.ledger import LedgerView

    result = ledger_file(
        log,
        convention=convention,
        rounding=rounding_of(rounding),
        input_format=input_format.value if input_format else None,
        max_yaml_bytes=max_yaml_bytes,
        price=parse_price(whist_price),
    )
    emit(render(LedgerView(result, running), format.value))
