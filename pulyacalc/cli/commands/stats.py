"""`pulyacalc stats LOG|DIR...`: a club's statistics over many evenings, or one player's page."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.aliases import AliasesOpt, load_aliases
from pulyacalc.cli.plot import PlotOpt, require_matplotlib, save_plot
from pulyacalc.cli.runtime import emit, walking_logs
from pulyacalc.core.i18n import N_, _
from pulyacalc.render.formats import render

PLAYER_HELP = N_("One player's page instead of the whole club.")


@opts.command(*opts.but("whist_price"))
def stats(
    logs: opts.LogsArg,
    player: Annotated[str | None, typer.Option("--player", "-p", metavar="NAME", help=PLAYER_HELP)] = None,
    *,
    run: opts.Run,
    aliases: AliasesOpt = None,
    progress: opts.ProgressOpt = True,
    plot: PlotOpt = None,
) -> None:
    """Statistics per player over many evenings: contracts made per level, misère, raspasy,
    whists, results, head-to-head, and a rating (openskill Plackett-Luce)."""
    from pulyacalc.render.stats import PlayerView, StatsView
    from pulyacalc.reports.stats import score_stats

    if plot is not None:
        require_matplotlib()
    people = load_aliases(aliases)
    with walking_logs(progress) as (update, skipped):
        result = score_stats(logs, **run.reading, progress=update, skipped=skipped, aliases=people)
    if plot is not None and (player is None or result.player(player) is not None):
        from pulyacalc.render.plot import stats_picture

        # the club's picture, with or without --player (an unknown one is refused below)
        save_plot(plot, stats_picture(result))
    if player is None:
        emit(render(StatsView(result), run.format))
        return
    page = result.player(player)
    if page is None:
        raise unknown_player(player, [p.player for p in result.players])
    emit(render(PlayerView(result, page), run.format))


def unknown_player(name: str, names: list[str]) -> typer.BadParameter:
    """A usage error (exit 2) naming the option, with the nearest name as a suggestion."""
    import difflib

    close = [n for n in names if n.casefold() == name.casefold()]
    close += difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    hint = _("did you mean {name!r}? ").format(name=close[0]) if close else ""
    message = _("no player {name!r} in these logs; {hint}the players are {names}")
    return opts.usage(message.format(name=name, hint=hint, names=", ".join(sorted(names))), "--player")


EXAMPLES = N_("pulyacalc stats docs/examples/club\npulyacalc stats club/ --player Anna")
