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
    import os
    import tempfile

    from pulyacalc.ledger import ledger_file, ledger_run
    from pulyacalc.render.formats import render, write_to
    from pulyacalc.render.ledger import LedgerView
    from pulyacalc.render.ledger_stream import LedgerStream

    price = parse_price(whist_price)
    how = rounding_of(rounding)
    fmt = input_format.value if input_format else None
    if os.path.isfile(log):
        # row by row in flat memory, into a spool first (memory, then a temporary file), so
        # that a log with a problem prints its problems and nothing else; a log that seats
        # a newcomer is read again whole below (every row reads the final table)
        with tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8") as spool:
            view = LedgerStream(
                lambda sink: ledger_run(
                    log,
                    sink,
                    running=running,
                    convention=convention,
                    rounding=how,
                    input_format=fmt,
                    max_yaml_bytes=max_yaml_bytes,
                    price=price,
                ),
                running,
            )
            write_to(view, format.value, spool)  # type: ignore[arg-type]  # a TextIO in all but name
            if view.ledger is not None:
                spool.seek(0)
                while chunk := spool.read(1 << 16):
                    emit(chunk)
                return
    result = ledger_file(
        log,
        convention=convention,
        rounding=how,
        input_format=fmt,
        max_yaml_bytes=max_yaml_bytes,
        price=price,
    )
    emit(render(LedgerView(result, running), format.value))
