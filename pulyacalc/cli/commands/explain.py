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
    MaxYamlBytesOpt,
    RoundingOpt,
    rounding_of,
    usage,
)
from pulyacalc.cli.output import OutputOpt, QuietOpt
from pulyacalc.cli.runtime import emit, emit_bytes, reports_problems
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
    max_yaml_bytes: MaxYamlBytesOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Every entry of every deal: who writes how much, where, why (rule and arithmetic), and the
    running totals after each deal (нарастающим итогом)."""
    import tempfile

    from pulyacalc.cli.progress import log_progress
    from pulyacalc.explain import explain_stream
    from pulyacalc.render.explain import ExplainStream, fast_format
    from pulyacalc.render.formats import write_to

    # deal by deal in flat memory; into a spool first (memory, then a temporary file), so
    # that a log with a problem prints its problems and nothing else, as before; a line
    # log read the fast way is drawn as UTF-8 bytes (render/explain_fast.py), in one process
    after = None
    while True:
        with log_progress(log) as progress:
            stream = explain_stream(
                log,
                convention=convention,
                rounding=rounding_of(rounding),
                input_format=input_format.value if input_format else None,
                upto=deal,
                progress=progress,
                fast=fast_format(format.value),
                max_yaml_bytes=max_yaml_bytes,
            )
            view = ExplainStream(stream)
            if stream.fast is None:
                with tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8") as spool:
                    write_to(view, format.value, spool)  # type: ignore[arg-type]  # a TextIO in all but name
                    _no_such_deal(deal, view.shown, stream.count)
                    spool.seek(0)
                    while chunk := spool.read(1 << 16):
                        emit(chunk)
                return
            from pulyacalc.logs.lines import LineDeals
            from pulyacalc.render.explain_apart import Failed
            from pulyacalc.render.explain_fast import write

            if type(stream.fast.source) is not LineDeals:  # (a YAML log: short, read whole)
                after = None

            with (
                tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+b") as first,
                tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+b") as second,
            ):
                try:
                    parts = write(view, format.value, (first, second), after)
                except Failed:  # (no child drew its half: all of it here, read again)
                    after = None
                    continue
                _no_such_deal(deal, view.shown, stream.count)
                for part in parts:
                    part.seek(0)
                    emit_bytes(part)
                    part.close()
                return


def _no_such_deal(deal: int | None, shown: int, count: int) -> None:
    """``--deal N`` past the log's end: a usage error naming the log's deals."""
    if deal is not None and not shown:
        from pulyacalc.render.view import counted

        raise usage(
            _("no deal {number}: the log has {deals}").format(number=deal, deals=counted(count, "deal")),
            "--deal",
        )
