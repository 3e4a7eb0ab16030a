"""`pulyacalc score LOG`: the sheet and the settlement of an evening."""

# No ``from __future__ import annotations`` here: Typer reads this signature on every run,
# and annotations that are already objects are not compiled and evaluated again (0.4 ms).

from pulyacalc.cli import options as opts
from pulyacalc.cli.output import note
from pulyacalc.cli.progress import log_progress
from pulyacalc.cli.runtime import emit
from pulyacalc.core.i18n import N_, ngettext
from pulyacalc.render.formats import render


@opts.command(*opts.SHARED)
def score(log: opts.LogArg, run: opts.Run) -> None:
    """Score an evening from a log: the sheet (pool, mountain, whists) and the settlement."""
    from pulyacalc.play import score_file, settle_evening
    from pulyacalc.render.report import Report

    price = run.price
    with log_progress(log) as progress:  # a bar on a terminal's stderr while a big log is read
        ev = score_file(log, **run.reading, progress=progress)
    result = settle_evening(ev, price)
    bombs = ev.bombs if ev.convention.dark_factor != 1 else None  # RULES.md 2.10: Classic only
    report = Report(ev.convention, ev.target, ev.sheet, result, ev.deals, ev.finished, bombs, ev.changes)
    emit(render(report, run.format))
    if ev.after_finish_from is not None:
        # one line, on standard error (-q: none): check lists each such deal
        n = ev.deals - ev.after_finish_from + 1
        message = ngettext(
            "{n} deal was played after the pulya was finished (deal {first}); pulyacalc check {log} lists it",
            "{n} deals were played after the pulya was finished (from deal {first}); "
            "pulyacalc check {log} lists them",
            n,
        )
        note(message.format(n=n, first=ev.after_finish_from, log=log))


EXAMPLES = N_(
    "pulyacalc score examples/sochi-3p.txt\n"
    "pulyacalc score evening.txt --whist-price 0.5 -o result.csv  # money; CSV by the name"
)
