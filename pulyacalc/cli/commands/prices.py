"""`pulyacalc prices -c CONVENTION --players 2|3|4|5`: the price table («таблица расчёта»)."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli.options import TABLE, ConventionOpt, FormatOpt
from pulyacalc.cli.output import OutputOpt, QuietOpt
from pulyacalc.cli.runtime import emit, reports_problems
from pulyacalc.core.i18n import N_


@reports_problems
def prices(
    convention: ConventionOpt = None,
    players: Annotated[
        int,
        typer.Option(
            "--players", "-n", min=2, max=5, help=N_("2 (with a dummy), 3, 4 or 5 players at the table.")
        ),
    ] = 3,
    format: FormatOpt = TABLE,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """What each outcome is worth in whists to the declarer and to each other player: contracts
    made, not whisted, half-whisted and failed by one, two, three; misère; a raspasy.  Every price is
    computed by scoring the deal on a finished sheet and settling with and without it."""
    from pulyacalc.convention.load import load
    from pulyacalc.render.formats import render
    from pulyacalc.render.prices import PricesView
    from pulyacalc.reports.prices import price_table

    conv = load(convention or "sochi")
    emit(render(PricesView(price_table(conv, players)), format.value))
