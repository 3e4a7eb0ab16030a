"""The command line: one explicit Typer app, a thin layer over the library.

Every command reads with the library, prints with :mod:`pulyacalc.render`, reports
problems as ``FILE:LINE[:COLUMN]: message`` on standard error with exit status 1, and
keeps standard output for data.  Commands live in :mod:`pulyacalc.cli.commands`, one
module each, as plain functions; this root imports them and registers them in a fixed
order (the order of ``--help``), never the reverse, so no command imports the app.
Heavy modules are imported inside the commands that need them.
"""

from __future__ import annotations

import typer

from pulyacalc.cli.commands import check, compare, convert, explain, prices, score, season, settle

app = typer.Typer(
    name="pulyacalc",
    help="Score sheet calculator for Russian Preferans (преферанс): pool, mountain, whists "
    "and settlement under a named convention (sochi, leningrad, rostov or your own).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


#: the commands in the order ``--help`` lists them: an evening, then checking it, then more
COMMANDS = (
    ("score", score.score),
    ("settle", settle.settle),
    ("explain", explain.explain),
    ("check", check.check),
    ("compare", compare.compare),
    ("convert", convert.convert),
    ("prices", prices.prices),
    ("season", season.season),
)
for _name, _command in COMMANDS:
    app.command(_name)(_command)


def main() -> None:
    app(prog_name="pulyacalc")
