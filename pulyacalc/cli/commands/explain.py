"""`pulyacalc explain LOG [--deal N]`: every entry of every deal, with its rule and arithmetic."""

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
    RoundingOpt,
    rounding_of,
    usage,
)
from pulyacalc.cli.output import OutputOpt, QuietOpt
from pulyacalc.cli.runtime import emit, reports_problems
from pulyacalc.core.i18n import N_, _


@reports_problems
def explain(
    log: LogArg,
    deal: Annotated[
        int | None,
        typer.Option(
            "--deal", "-d", min=1, metavar="N", help=N_("Explain only deal number N (1 = the first).")
        ),
    ] = None,
    convention: ConventionOpt = None,
    allow_outside: AllowOutsideOpt = False,
    format: FormatOpt = TABLE,
    rounding: RoundingOpt = None,
    input_format: InputFormatOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Every entry of every deal: who writes how much, where, why (rule and arithmetic), and the
    running totals after each deal (нарастающим итогом)."""
    import tempfile

    from pulyacalc.cli.progress import log_progress
    from pulyacalc.explain import explain_stream
    from pulyacalc.render.explain import ExplainStream
    from pulyacalc.render.formats import write_to

    # deal by deal in flat memory; into a spool first (memory, then a temporary file), so
    # that a log with a problem prints its problems and nothing else, as before
    with (
        log_progress(log) as progress,
        tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8") as spool,
    ):
        stream = explain_stream(
            log,
            convention=convention,
            rounding=rounding_of(rounding),
            input_format=input_format.value if input_format else None,
            upto=deal,
            progress=progress,
        )
        view = ExplainStream(stream)
        write_to(view, format.value, spool)  # type: ignore[arg-type]  # a TextIO in all but name
        if deal is not None and not view.shown:
            from pulyacalc.render.view import counted

            raise usage(
                _("no deal {number}: the log has {deals}").format(
                    number=deal, deals=counted(stream.count, "deal")
                ),
                "--deal",
            )
        spool.seek(0)
        while chunk := spool.read(1 << 16):
            emit(chunk)
