"""`pulyacalc conventions list | show NAME_OR_PATH | diff A B`: the conventions themselves.

A sub-app, not a plain function: cli/app.py lists it in --help by name and imports this
module only when one of its subcommands is run.
"""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.lang import TYPER
from pulyacalc.cli.runtime import emit
from pulyacalc.core.i18n import N_
from pulyacalc.render.formats import render

conventions = typer.Typer(add_completion=False, no_args_is_help=True, **TYPER)

CONVENTION_HELP = N_(
    "A built-in convention (sochi, leningrad, rostov, classic, gusarik) or a convention YAML file."
)
ConventionArg = Annotated[
    str, typer.Argument(metavar="NAME_OR_PATH", parser=opts.parse_convention, help=CONVENTION_HELP)
]


@conventions.command("list", epilog=N_("pulyacalc conventions list"))
@opts.command("format", "output")
def list_(*, run: opts.Run) -> None:
    """The built-in conventions: name, title and the file each is read from."""
    from pulyacalc.render.conventions import ListView
    from pulyacalc.reports.conventions import builtins

    emit(render(ListView(builtins()), run.format))


@conventions.command(
    "show", epilog=N_("pulyacalc conventions show sochi\npulyacalc conventions show house.yaml -o full.yaml")
)
@opts.command("format", "output")
def show(convention: ConventionArg, *, run: opts.Run) -> None:
    """Every key of a convention, merged (a house file's extends: included), as a YAML
    convention file: saved and used with -c FILE, it scores the same."""
    from pulyacalc.render.conventions import ShowView
    from pulyacalc.reports.conventions import show as shown

    emit(render(ShowView(shown(convention)), run.format))


@conventions.command("diff", epilog=N_("pulyacalc conventions diff sochi leningrad"))
@opts.command("format", "output")
def diff(a: ConventionArg, b: ConventionArg, *, run: opts.Run) -> None:
    """The keys where two conventions differ: each one's value and the key's meaning.
    A report, not a check: the exit status is 0 whether they differ or not."""
    from pulyacalc.render.conventions import DiffView
    from pulyacalc.reports.conventions import diff as differences

    emit(render(DiffView(differences(a, b)), run.format))
