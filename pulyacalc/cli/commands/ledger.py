"""`pulyacalc ledger LOG`: a row per deal with what it moved each player's result by."""

from __future__ import annotations

import os
from functools import partial
from typing import TYPE_CHECKING, Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.runtime import emit
from pulyacalc.core.i18n import N_
from pulyacalc.render.formats import write

if TYPE_CHECKING:
    from pulyacalc.render.ledger import Play
    from pulyacalc.reports.ledger import Ledger

RUNNING_HELP = N_("Add each player's running total after each deal.")


@opts.command(*opts.SHARED)
def ledger(
    log: opts.LogArg,
    running: Annotated[bool, typer.Option("--running", help=RUNNING_HELP)] = False,
    *,
    run: opts.Run,
) -> None:
    """What each deal cost: per deal, what it moved each player's final result by, in whists
    (the rows add up to the settlement; the rounding is its own last row)."""
    from pulyacalc.cli.stdin_copy import Tee
    from pulyacalc.logs.words import ENGLISH, spoken
    from pulyacalc.reports.ledger import ledger_file, ledger_run

    price = run.price
    words = spoken() if run.format == "table" else ENGLISH  # json, csv: the same in both languages
    # standard input is copied as it is read, to be read again where the rows cannot stream
    tee = Tee() if log == "-" else None
    try:
        if tee is not None or os.path.isfile(log):
            play = partial(ledger_run, log, running=running, **run.reading, price=price, words=words)
            seated: list[tuple[str, ...]] = []
            if _written(partial(play, seated=seated), running, run.format):
                return
            if seated:  # a newcomer: read again, every row with the table as it ends
                if tee is not None:
                    tee.again()
                if _written(partial(play, players=seated[0]), running, run.format):
                    return
        if tee is not None:
            tee.again()
        kept = ledger_file(log, **run.reading, price=price, words=words)
    finally:
        if tee is not None:
            tee.close()
    _written(kept, running, run.format)


def _written(source: Ledger | Play, running: bool, shape: str) -> bool:
    """The ledger written row by row in flat memory; False where a play cannot tell every row
    (a log that seats a newcomer: every row reads the final table; it is read again)."""
    from pulyacalc.render.ledger import LedgerView, Unseated

    try:
        write(LedgerView(source, running), shape, emit)
    except Unseated:
        return False
    return True


EXAMPLES = N_(
    "pulyacalc ledger examples/sochi-3p.txt --running\npulyacalc ledger evening.txt --whist-price 0.5"
)
