"""`pulyacalc season LOG...`: many evenings at once → standings per player."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.aliases import AliasesOpt, load_aliases
from pulyacalc.cli.plot import PlotOpt, require_matplotlib, save_plot
from pulyacalc.cli.runtime import emit, fail, walking_logs
from pulyacalc.core.errors import shown
from pulyacalc.core.i18n import N_, _, ngettext
from pulyacalc.render.formats import render

KEEP_GOING_HELP = N_(
    "Leave out the evenings that have problems (reported on stderr with a summary), show the standings "
    "of the others, and exit 1 at the end."
)
KeepGoingOpt = Annotated[bool, typer.Option("--keep-going", help=KEEP_GOING_HELP)]


@opts.command(*opts.SHARED)
def season(
    logs: opts.LogsArg,
    run: opts.Run,
    progress: opts.ProgressOpt = True,
    plot: PlotOpt = None,
    aliases: AliasesOpt = None,
    keep_going: KeepGoingOpt = False,
) -> None:
    """Standings over many evenings: evenings played, total, average, best and worst per player."""
    from pulyacalc.render.season import SeasonView
    from pulyacalc.reports.season import score_season

    if plot is not None:
        require_matplotlib()
    price = run.price
    persons = load_aliases(aliases)
    with walking_logs(progress) as (update, skipped):
        result = score_season(
            logs,
            **run.reading,
            price=price,
            progress=update,
            skipped=skipped,
            aliases=persons,
            keep_going=keep_going,
        )
    # problems of the evenings left out (--keep-going), and repeated evenings, before the standings
    for _file, problems in result.failed:
        for problem in problems:
            print(problem.format(), file=sys.stderr)
    for path, earlier in result.duplicates:
        message = _(
            "pulyacalc: warning: {path} holds the same evening as {earlier} "
            "(same players, same deals): it is counted twice"
        )
        print(shown(message.format(path=path, earlier=earlier), 0), file=sys.stderr)
    if plot is not None:
        from pulyacalc.render.plot import season_picture

        # the picture first: when it cannot be written, nothing goes to standard output
        save_plot(plot, season_picture(result))
    emit(render(SeasonView(result), run.format))
    if result.failed:
        total = len(result.failed) + len(result.evenings)
        message = ngettext(
            "left out {n} of {total} evening with problems: {files}",
            "left out {n} of {total} evenings with problems: {files}",
            total,
        )
        files = ", ".join(f for f, _p in result.failed)
        raise fail(message.format(n=len(result.failed), total=total, files=files))


EXAMPLES = N_(
    "pulyacalc season docs/examples/club\npulyacalc season club/ --whist-price 0.5 --plot season.svg"
)
