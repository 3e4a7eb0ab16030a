"""`pulyacalc explain LOG [--deal N]`: every entry of every deal, with its rule and arithmetic."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.progress import log_progress
from pulyacalc.cli.runtime import emit
from pulyacalc.core.i18n import N_, _
from pulyacalc.render.formats import spool, spooled, write
from pulyacalc.render.view import counted

DEAL_HELP = N_("Explain only deal number N (1 = the first).")


@opts.command(*opts.but("whist_price"), blame_rounding=False)
def explain(
    log: opts.LogArg,
    deal: Annotated[int | None, typer.Option("--deal", "-d", min=1, metavar="N", help=DEAL_HELP)] = None,
    *,
    run: opts.Run,
) -> None:
    """Every entry of every deal: who writes how much, where, why (rule and arithmetic), and the
    running totals after each deal (нарастающим итогом)."""
    from pulyacalc.render.explain import ExplainStream
    from pulyacalc.reports.explain import explain_stream

    # deal by deal in flat memory; ``--deal N`` spooled first, to say that deal N is past
    # the log's end instead of printing the head
    with log_progress(log) as progress:  # a bar on a terminal's stderr while a big log is read
        stream = explain_stream(log, **run.reading, upto=deal)
        view = ExplainStream(stream, progress=progress)
        if deal is None:
            write(view, run.format, emit)
            return
        with spool() as kept:
            write(view, run.format, kept.write)
            if not view.shown:  # deal N is past the log's end
                deals = counted(stream.count, "deal")
                message = _("no deal {number}: the log has {deals}").format(number=deal, deals=deals)
                raise opts.usage(message, "--deal")
            for chunk in spooled(kept):
                emit(chunk)


EXAMPLES = N_("pulyacalc explain examples/sochi-3p.txt --deal 9\npulyacalc explain evening.txt -f json")
