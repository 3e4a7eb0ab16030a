"""`pulyacalc check LOG [--against SHEET]`: everything wrong or suspicious about a log,
each with FILE:LINE; with --against, every cell where a paper sheet and the log differ."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.progress import log_progress
from pulyacalc.cli.runtime import emit
from pulyacalc.core.i18n import N_
from pulyacalc.render.formats import write

#: ``--against``'s help
AGAINST_HELP = N_(
    "A paper sheet (YAML, as for settle; optional running: totals per deal, or a cell as its entries, "
    "2.4.10) to reconcile with the log: every differing cell, and the first deal where they part."
)


@opts.command(*opts.but("whist_price", "rounding"))
def check(
    log: opts.LogArg,
    against: Annotated[str | None, typer.Option("--against", metavar="SHEET", help=AGAINST_HELP)] = None,
    *,
    run: opts.Run,
) -> None:
    """Check a log beyond its syntax: refused deals, deals after the finish, contracts below
    the raspasy exit, forbidden shortfalls, a 4-player dealer in play, an unreachable pool
    target, strange convention overrides; and lists every correction written by hand.  Exit
    status 0 when clean (corrections alone leave it clean), 1 otherwise."""
    from pulyacalc.render.check import CheckView
    from pulyacalc.reports.check import Checking, Finding

    # the findings written as found (formats.write spools them)
    with log_progress(log) as progress:  # a bar on a terminal's stderr while a big log is read
        reading = {k: v for k, v in run.reading.items() if k != "rounding"}  # (check takes no --rounding)
        checking = Checking(log, **reading, progress=progress)
        running = None
        if against is not None:
            from pulyacalc.logs.sheet_file import read_sheet
            from pulyacalc.reports.reconcile import Running

            # the paper's running totals are compared as the deals stream by
            paper = read_sheet(against, run.max_yaml_bytes)
            running = checking.follow = Running(paper, checking.scorer.sheet)
        view = CheckView(0, (), None, against)

        def found() -> Iterator[Finding]:
            yield from checking
            view.deals = checking.deals
            if running is not None and against is not None:
                from pulyacalc.reports.reconcile import reconcile

                rec = reconcile(checking, running, "<stdin>" if against == "-" else against)
                view.parting = rec.parting_deal
                yield from rec.findings

        view.findings = found()
        write(view, run.format, emit)
    if view.bad:
        raise typer.Exit(1)


EXAMPLES = N_(
    "pulyacalc check examples/sochi-3p.txt\n"
    "pulyacalc check evening.txt --against paper.yaml  # where the paper and the log differ"
)
