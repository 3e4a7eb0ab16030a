"""`pulyacalc ledger LOG`: a row per deal with what it moved each player's result by."""

from __future__ import annotations

import os
from functools import partial
from typing import TYPE_CHECKING, Annotated

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

if TYPE_CHECKING:
    from pulyacalc.render.ledger import Play
    from pulyacalc.reports.ledger import Ledger


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
    from pulyacalc.cli.stdin_copy import Tee
    from pulyacalc.reports.ledger import ledger_file, ledger_run

    price = parse_price(whist_price)
    how = rounding_of(rounding)
    fmt = input_format.value if input_format else None
    # standard input is copied as it is read, to be read again where the rows cannot stream
    tee = Tee.over_stdin() if log == "-" else None
    try:
        if tee is not None or os.path.isfile(log):
            play = partial(
                ledger_run,
                log,
                running=running,
                convention=convention,
                rounding=how,
                input_format=fmt,
                max_yaml_bytes=max_yaml_bytes,
                price=price,
            )
            seated: list[tuple[str, ...]] = []
            if _written(partial(play, seated=seated), running, format.value):
                return
            if seated:  # a newcomer: read again, every row with the table as it ends
                if tee is not None:
                    tee.again()
                if _written(partial(play, players=seated[0]), running, format.value):
                    return
        if tee is not None:
            tee.again()
        kept = ledger_file(
            log,
            convention=convention,
            rounding=how,
            input_format=fmt,
            max_yaml_bytes=max_yaml_bytes,
            price=price,
        )
    finally:
        if tee is not None:
            tee.close()
    _written(kept, running, format.value)


def _written(source: Ledger | Play, running: bool, shape: str) -> bool:
    """The ledger written row by row in flat memory (the view spools its rows and writes
    nothing before the log is read, so that a log with a problem prints its problems and
    nothing else).  False where a play cannot tell every row (a log that seats a newcomer:
    every row reads the final table; it is read again)."""
    from pulyacalc.render.formats import write
    from pulyacalc.render.ledger import LedgerView, Unseated

    try:
        write(LedgerView(source, running), shape, emit)
    except Unseated:
        return False
    return True
