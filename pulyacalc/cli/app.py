"""The command line: one Typer app over the library, each command a plain function in
:mod:`pulyacalc.cli.commands`, registered here in the order of ``--help``.

Typer turns every registered signature into options on each start, so ``main`` registers
only the command being run (start-up time); ``app``, the whole app, is made on first use.
"""

from __future__ import annotations

import importlib
import sys
from functools import cache
from typing import TYPE_CHECKING, Any

from pulyacalc.core.i18n import N_

if TYPE_CHECKING:
    import typer

#: the commands in the order ``--help`` lists them (an evening, then checking it, then more),
#: each with its line in the top-level ``--help`` (whole, never cut with "..."); each is the
#: function of the same name in ``pulyacalc.cli.commands.<name>``, whose ``EXAMPLES`` are what
#: its ``--help`` shows under Examples (cli/lang.format_examples)
SHORT = {
    "new": N_("Start an evening: a log to fill in, with one example per kind of deal."),
    "play": N_("The evening at the table: each deal checked as it is typed, never lost."),
    "score": N_("The sheet and the settlement of an evening."),
    "settle": N_("Settle a paper sheet stage by stage, as players do on paper."),
    "explain": N_("Every entry of every deal: who writes what, where and why."),
    "ledger": N_("What each deal moved each player's result by."),
    "sheet": N_("Draw the sheet as players draw it (SVG or an HTML page)."),
    "check": N_("What is wrong or suspicious in a log; or the log against the paper."),
    "compare": N_("One evening settled under several conventions side by side."),
    "dispute": N_("One deal under every reading tables dispute."),
    "convert": N_("Rewrite a log in the canonical line or YAML form."),
    "prices": N_("What each outcome of a deal is worth in whists."),
    "season": N_("Standings over many evenings."),
    "stats": N_("Statistics and ratings per player over many evenings."),
}
COMMANDS = tuple(SHORT)

#: the examples under the top-level ``--help``
EXAMPLES = N_(
    'pulyacalc new --players "Anna Boris Vera" -o evening.txt\n'
    "pulyacalc score examples/sochi-3p.txt\n"
    "pulyacalc --lang ru score examples/sochi-3p.txt\n"
    "pulyacalc COMMAND --help"
)

#: sub-apps (a command with subcommands), listed in ``--help`` after the commands: each is
#: the Typer of the same name in ``pulyacalc.cli.commands.<name>``, with its one-line help
#: here, so that ``--help`` lists it without importing it
GROUPS = {"conventions": N_("The conventions: list the built-ins, show one merged, diff two.")}

HELP = N_(
    "Score sheet calculator for Russian Preferans (преферанс): pool, mountain, whists "
    "and settlement under a named convention (sochi, leningrad, rostov, classic, gusarik or your own)."
)


@cache
def _root_group() -> type:
    """The program's group: it chooses the language before anything is shown and hands out
    its commands in it, each taking ``--lang`` too (cli/lang.py)."""
    from typer.core import TyperGroup

    from pulyacalc.cli.lang import choose, prepare

    class Root(TyperGroup):
        def main(self, args: Any = None, *rest: Any, **kw: Any) -> Any:
            choose(sys.argv[1:] if args is None else list(args))
            prepare(self)
            return super().main(args, *rest, **kw)

        def get_command(self, ctx: Any, cmd_name: str) -> Any:
            return prepare(super().get_command(ctx, cmd_name))

    return Root


@cache
def _lazy_group() -> type:
    """A sub-app whose module is imported only when its subcommands are asked for (made on
    first use: typer is not imported before :func:`main` guards against Ctrl-C)."""
    from functools import cached_property

    import typer.main
    from typer.core import TyperGroup

    from pulyacalc.cli.lang import prepare

    class LazyGroup(TyperGroup):
        @cached_property
        def _loaded(self) -> Any:
            module = importlib.import_module(f"pulyacalc.cli.commands.{self.name}")
            return typer.main.get_group(getattr(module, str(self.name)))

        def list_commands(self, ctx: Any) -> list[str]:
            return list(self._loaded.list_commands(ctx))

        def get_command(self, ctx: Any, cmd_name: str) -> Any:
            return prepare(self._loaded.get_command(ctx, cmd_name))

    return LazyGroup


def _show_version(value: bool) -> None:
    """``--version``: importlib.metadata is imported only when asked (start-up time)."""
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("pulyacalc")
    except PackageNotFoundError:
        # the package is loaded (this module is in it); read, not imported, for the layer check
        number = str(sys.modules["pulyacalc"].__dict__["__version__"])
    print(f"pulyacalc {number}")
    import typer

    raise typer.Exit()


def build(only: str | None = None) -> typer.Typer:
    """The app with every command, or with the one named ``only``."""
    import typer

    from pulyacalc.cli.lang import TYPER

    root = _root_group()
    app = typer.Typer(name="pulyacalc", help=HELP, epilog=EXAMPLES, cls=root, no_args_is_help=True, **TYPER)

    # a group even with one command registered (Typer runs a lone command as the program);
    # options as default values: annotations are strings read where typer is not imported;
    # --lang is added by cli/lang.prepare, as to every command
    @app.callback()
    def _group(
        version: bool = typer.Option(
            False, "--version", is_eager=True, callback=_show_version, help=N_("Print the version, exit.")
        ),
    ) -> None:
        pass

    for name in COMMANDS:
        if only is None or name == only:
            module = importlib.import_module(f"pulyacalc.cli.commands.{name}")
            app.command(name, short_help=SHORT[name], epilog=module.EXAMPLES)(getattr(module, name))
    for name, help in GROUPS.items():
        if only is None or name == only:
            app.add_typer(typer.Typer(), name=name, help=help, cls=_lazy_group(), no_args_is_help=True)
    return app


@cache
def __getattr__(name: str) -> Any:
    # `from pulyacalc.cli.app import app`: the whole app, made when first asked for
    if name == "app":
        return build()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(*, gc_paused: bool = False) -> None:
    """Run the command and exit with its status.  Nothing heavy is imported at this module's
    top, so that a Ctrl-C however early is exit 130, never a traceback from an import."""
    status = 130
    try:
        from pulyacalc.cli.runtime import run

        status = run(_start, gc_paused=gc_paused)
    except KeyboardInterrupt:
        pass
    sys.exit(status)


def script() -> None:
    """The installed program: :func:`main`, then ``os._exit`` (teardown is milliseconds of
    nothing); the cyclic collector paused for the start-up (runtime.resume_gc)."""
    import gc

    gc.disable()
    try:
        main(gc_paused=True)
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    runtime = sys.modules.get("pulyacalc.cli.runtime")
    if runtime is None:  # interrupted before the command ran: nothing of ours to skip
        sys.exit(status)
    # the one flush-and-report path again, for anything written since
    status = runtime.finish(status)
    import os

    os._exit(status)


def _start() -> None:
    # UTF-8 into files and pipes, degraded symbols on a console that lacks them (console.py)
    from pulyacalc.cli.console import setup

    setup()
    args = sys.argv[1:]
    # the command is the first argument that is no global option (--lang ru score LOG)
    while args and (args[0] == "--lang" or args[0].startswith("--lang=")):
        args = args[2:] if args[0] == "--lang" else args[1:]
    first = args[0] if args else None
    # `--version` needs no command: an app with none of them registered answers it
    only = first if first in COMMANDS or first in GROUPS or first == "--version" else None
    build(only)(prog_name="pulyacalc")
