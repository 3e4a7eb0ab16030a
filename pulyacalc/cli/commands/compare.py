"""`pulyacalc compare LOG -c sochi -c leningrad -c rostov`: one evening, several conventions."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.runtime import emit
from pulyacalc.core.i18n import N_
from pulyacalc.render.formats import render

#: ``-c``'s help (given again and again)
CONVENTIONS_HELP = N_(
    "A convention: a built-in (sochi, leningrad, rostov, classic, gusarik) or a file; repeat it. "
    "Default: every built-in one."
)


@opts.command(*opts.but("convention", "allow_outside"))
def compare(
    log: opts.LogArg,
    # each one checked at the option, as -c elsewhere: a mistyped name is usage
    conventions: Annotated[
        list[str] | None,
        typer.Option(
            "-c", "--convention", metavar="NAME|PATH", parser=opts.parse_convention, help=CONVENTIONS_HELP
        ),
    ] = None,
    *,
    run: opts.Run,
) -> None:
    """The same evening settled under several conventions side by side (the log's own
    overrides and pool target apply under each)."""
    from pulyacalc.render.compare import CompareView
    from pulyacalc.reports.compare import compare_log

    reading = {k: v for k, v in run.reading.items() if k != "convention"}  # its -c is the list above
    emit(render(CompareView(compare_log(log, conventions, **reading, price=run.price)), run.format))


EXAMPLES = N_(
    "pulyacalc compare examples/sochi-3p.txt\n"
    "pulyacalc compare evening.txt -c sochi -c leningrad -c house.yaml"
)
