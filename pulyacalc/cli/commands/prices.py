"""`pulyacalc prices -c CONVENTION --players 2|3|4|5`: the price table («таблица расчёта»)."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.runtime import emit
from pulyacalc.core.i18n import N_
from pulyacalc.render.formats import render

PLAYERS_HELP = N_("2 (with a dummy), 3, 4 or 5 players at the table.")


@opts.command("format", "output", "quiet")
def prices(
    convention: opts.ConventionOpt = None,
    players: Annotated[int, typer.Option("--players", "-n", min=2, max=5, help=PLAYERS_HELP)] = 3,
    *,
    run: opts.Run,
) -> None:
    """What each outcome is worth in whists to the declarer and to each other player: contracts
    made, not whisted, half-whisted and failed by one, two, three; misère; a raspasy.  Every price is
    computed by scoring the deal on a finished sheet and settling with and without it."""
    from pulyacalc.convention.load import load
    from pulyacalc.render.prices import PricesView
    from pulyacalc.reports.prices import price_table

    conv = load(convention or "sochi")
    emit(render(PricesView(price_table(conv, players)), run.format))


EXAMPLES = N_("pulyacalc prices -c sochi --players 3\npulyacalc prices -c leningrad --players 4 -f csv")
