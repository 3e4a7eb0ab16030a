"""`pulyacalc season LOG...`: many evenings at once → standings per player."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli.aliases import AliasesOpt, load_aliases
from pulyacalc.cli.options import (
    TABLE,
    ConventionOpt,
    FormatOpt,
    InputFormatOpt,
    MaxYamlBytesOpt,
    PriceOpt,
    RoundingOpt,
    parse_price,
    rounding_blamed,
    rounding_of,
    usage,
)
from pulyacalc.cli.output import OutputOpt, QuietOpt
from pulyacalc.cli.plot import PlotOpt, require_matplotlib, save_plot
from pulyacalc.cli.runtime import emit, reports_problems, walking_logs


@reports_problems
@rounding_blamed
def season(
    logs: Annotated[
        list[str],
        typer.Argument(
            metavar="LOG|DIR...",
            help="Log files, or directories searched for logs (*.yaml *.yml *.txt *.log *.pulya).",
        ),
    ],
    convention: ConventionOpt = None,
    format: FormatOpt = TABLE,
    whist_price: PriceOpt = None,
    rounding: RoundingOpt = None,
    input_format: InputFormatOpt = None,
    max_yaml_bytes: MaxYamlBytesOpt = None,
    progress: Annotated[
        bool,
        typer.Option(
            "--progress/--no-progress",
            help="Show a progress bar on standard error (only on a terminal, only after a moment).",
        ),
    ] = True,
    plot: PlotOpt = None,
    aliases: AliasesOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Standings over many evenings: evenings played, total, average, best and worst per player."""
    from pulyacalc.render.formats import render
    from pulyacalc.render.season import SeasonView
    from pulyacalc.season import score_season

    if plot is not None:
        require_matplotlib()
    price = parse_price(whist_price)
    if "-" in logs:
        raise usage("a season reads files, not standard input: give log files or directories", "LOG|DIR...")
    persons = load_aliases(aliases)
    with walking_logs(progress) as (update, skipped):
        result = score_season(
            logs,
            convention=convention,
            rounding=rounding_of(rounding),
            input_format=input_format.value if input_format else None,
            max_yaml_bytes=max_yaml_bytes,
            price=price,
            progress=update,
            skipped=skipped,
            aliases=persons,
        )
    if plot is not None:
        from pulyacalc.render.plot import season_picture

        # the picture first: when it cannot be written, nothing goes to standard output
        save_plot(plot, season_picture(result))
    emit(render(SeasonView(result), format.value))
