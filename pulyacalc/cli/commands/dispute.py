"""`pulyacalc dispute LOG --deal N`: each reading of every contested key that matters for a
deal, side by side, with what it does to every player's final result."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli.options import (
    TABLE,
    AllowOutsideOpt,
    ConventionOpt,
    FormatOpt,
    InputFormatOpt,
    LogArg,
    MaxYamlBytesOpt,
    PriceOpt,
    RoundingOpt,
    parse_price,
    rounding_blamed,
    rounding_of,
)
from pulyacalc.cli.output import OutputOpt, QuietOpt
from pulyacalc.cli.runtime import emit, reports_problems
from pulyacalc.core.i18n import N_, tr


@reports_problems
@rounding_blamed
def dispute(
    ctx: typer.Context,
    log: LogArg,
    deal: Annotated[
        int,
        typer.Option(
            "--deal",
            "-d",
            min=1,
            metavar="N",
            show_default=False,
            help=N_("The deal in dispute: its number (1 = the first)."),
        ),
    ],
    convention: ConventionOpt = None,
    allow_outside: AllowOutsideOpt = False,
    format: FormatOpt = TABLE,
    whist_price: PriceOpt = None,
    rounding: RoundingOpt = None,
    input_format: InputFormatOpt = None,
    max_yaml_bytes: MaxYamlBytesOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Settle a dispute over one deal: for every key tables read differently that matters for
    it (greedy or gentleman whist, who answers for the whisters' shortfall, the zero-trick
    bonus …), each reading with the deal's entries, every player's final result and its
    change against the log's own convention, and the Code's clause it rests on."""
    from pulyacalc.render.dispute import DisputeView
    from pulyacalc.render.formats import render
    from pulyacalc.reports.dispute import NoSuchDeal, dispute_file

    try:
        found = dispute_file(
            log,
            deal,
            convention=convention,
            rounding=rounding_of(rounding),
            input_format=input_format.value if input_format else None,
            price=parse_price(whist_price),
            max_yaml_bytes=max_yaml_bytes,
        )
    except NoSuchDeal as e:
        raise typer.BadParameter(tr(e.args[0]), ctx=ctx, param_hint="'--deal'") from None
    emit(render(DisputeView(found), format.value))
