"""`pulyacalc check LOG [--against SHEET]`: everything wrong or suspicious about a log,
each with FILE:LINE; with --against, every cell where a paper sheet and the log differ."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli.options import TABLE, AllowOutsideOpt, ConventionOpt, FormatOpt, InputFormatOpt, LogArg
from pulyacalc.cli.output import OutputOpt, QuietOpt
from pulyacalc.cli.runtime import emit, reports_problems
from pulyacalc.core.i18n import N_


@reports_problems
def check(
    log: LogArg,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            metavar="SHEET",
            help=N_(
                "A paper sheet (YAML, as for settle; optional running: totals per deal) "
                "to reconcile with the log: every differing cell, and the first deal where they part."
            ),
        ),
    ] = None,
    convention: ConventionOpt = None,
    allow_outside: AllowOutsideOpt = False,
    format: FormatOpt = TABLE,
    input_format: InputFormatOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Check a log beyond its syntax: refused deals, deals after the finish, contracts below
    the raspasy exit, forbidden shortfalls, a 4-player dealer in play, an unreachable pool
    target, strange convention overrides; and lists every correction written by hand.  Exit
    status 0 when clean (corrections alone leave it clean), 1 otherwise."""
    from pulyacalc.checks import check_log, faults, run_log
    from pulyacalc.cli.progress import watching
    from pulyacalc.render.check import CheckView
    from pulyacalc.render.formats import render

    with watching(log):  # a bar on a terminal's stderr while a big log is read
        run = run_log(
            log,
            convention=convention,
            input_format=input_format.value if input_format else None,
            keep=against is not None,  # only a paper sheet is compared deal by deal
        )
    findings = check_log(run)
    parting: int | None = None
    if against is not None:
        from pulyacalc.logs.sheet_file import read_sheet
        from pulyacalc.reconcile import reconcile

        paper = read_sheet(against)
        rec = reconcile(run, paper, "<stdin>" if against == "-" else against)
        findings.extend(rec.findings)
        parting = rec.parting_deal
    emit(render(CheckView(run.deals, findings, parting, against), format.value))
    if faults(findings):
        raise typer.Exit(1)
