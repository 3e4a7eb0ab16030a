"""`pulyacalc compare LOG -c sochi -c leningrad -c rostov`: one evening, several conventions."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.output import OutputOpt, QuietOpt
from pulyacalc.cli.runtime import emit, reports_problems
from pulyacalc.core.i18n import N_


@reports_problems
@opts.rounding_blamed
def compare(
    log: opts.LogArg,
    conventions: Annotated[
        list[str] | None,
        typer.Option(
            "-c",
            "--convention",
            metavar="NAME|PATH",
            # each one checked at the option, as -c elsewhere: a mistyped name is usage
            parser=opts.parse_convention,
            help=N_("A convention (built-in name or file); repeat it. Default: every built-in one."),
        ),
    ] = None,
    format: opts.FormatOpt = opts.TABLE,
    whist_price: opts.PriceOpt = None,
    rounding: opts.RoundingOpt = None,
    input_format: opts.InputFormatOpt = None,
    max_yaml_bytes: opts.MaxYamlBytesOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """The same evening settled under several conventions side by side (the log's own
    overrides and pool target apply under each)."""
    from pulyacalc.render.compare import CompareView
    from pulyacalc.render.formats import render
    from pulyacalc.reports.compare import compare_log

    comparison = compare_log(
        log,
        conventions,
        rounding=opts.rounding_of(rounding),
        input_format=input_format.value if input_format else None,
        price=opts.parse_price(whist_price),
        max_yaml_bytes=max_yaml_bytes,
    )
    emit(render(CompareView(comparison), format.value))
