"""The command line: one explicit Typer app, a thin layer over the library.

Every command reads with the library, prints with :mod:`pulyacalc.render`, reports
problems as ``FILE:LINE[:COLUMN]: message`` on standard error with exit status 1, and
keeps standard output for data.  Commands live in :mod:`pulyacalc.commands`, one module
each; heavy modules are imported inside the commands that need them.
"""

from __future__ import annotations

import enum
import functools
import os
import sys
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, TypeVar

import typer

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


class Format(str, enum.Enum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    tsv = "tsv"


class InputFormat(str, enum.Enum):
    yaml = "yaml"
    lines = "lines"


class Rounding(str, enum.Enum):
    exact = "exact"
    kodeks = "kodeks"
    nearest = "nearest"


LogArg = Annotated[
    str,
    typer.Argument(
        metavar="LOG", help="The log: a YAML or line-format file, or - for stdin.", show_default=False
    ),
]
ConventionOpt = Annotated[
    str | None,
    typer.Option(
        "-c",
        "--convention",
        metavar="NAME|PATH",
        help="Built-in convention name (sochi, leningrad, rostov) "
        "or a path to a convention YAML file; overrides the one the input names.",
    ),
]
FormatOpt = Annotated[
    Format,
    typer.Option(
        "-f",
        "--format",
        help="Output: table for people; json, jsonl, csv, tsv for programs (see docs/output.md).",
    ),
]
PriceOpt = Annotated[
    str | None,
    typer.Option(
        "--whist-price",
        metavar="X",
        help="Price of one whist in money, e.g. 0.5: "
        "adds money to the cent (summing to 0) and who pays whom.",
    ),
]
RoundingOpt = Annotated[
    Rounding | None,
    typer.Option("--rounding", help="Override the rounding: exact, kodeks (K4.2.12, 3 players) or nearest."),
]
InputFormatOpt = Annotated[
    InputFormat | None,
    typer.Option(
        "--input-format", help="Force the log format instead of guessing it from the file name or content."
    ),
]


def _parse_size(text: str | None) -> int | None:
    """``--max-yaml-bytes``: a number of bytes, optionally with K, M or G (powers of 1024)."""
    if text is None:
        return None
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = {"K": 1024, "M": 1024**2, "G": 1024**3}.get(t[-1:], 1)
    digits = t[:-1] if scale != 1 else t
    if not digits.isdigit() or int(digits) == 0:
        raise typer.BadParameter(f"{text!r}: expected a positive size like 20000000, 500K or 20M")
    return int(digits) * scale


MaxYamlBytesOpt = Annotated[
    int | None,
    typer.Option(
        "--max-yaml-bytes",
        metavar="N",
        parser=_parse_size,
        help="Refuse YAML logs and sheets larger than N bytes (default 20M; K, M, G suffixes). "
        "Line logs stream and have no limit.",
    ),
]

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> typer.Exit:
    """Print a message to standard error; the caller raises the returned Exit(1)."""
    print(f"pulyacalc: {message}", file=sys.stderr)
    return typer.Exit(1)


def reports_problems(func: F) -> F:
    """Turn library errors into located messages on stderr and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from .errors import PulyaError
        from .settlement import SettlementError

        try:
            return func(*args, **kwargs)
        except PulyaError as e:
            for problem in e.problems:
                print(problem.format(), file=sys.stderr)
            n = len(e.problems)
            if n > 1:
                print(f"pulyacalc: {n} problems", file=sys.stderr)
            raise typer.Exit(1) from None
        except SettlementError as e:
            raise fail(str(e)) from None
        except BrokenPipeError:
            _quiet_broken_pipe()
        except KeyboardInterrupt:
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]


def _quiet_broken_pipe() -> None:
    # `pulyacalc … | head`: the reader left; exit quietly without a traceback.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    raise typer.Exit(0)


def parse_price(text: str | None) -> Decimal | None:
    if text is None:
        return None
    try:
        price = Decimal(text.replace(",", "."))
    except InvalidOperation:
        raise fail(f"--whist-price: {text!r} is not a number (like 0.5 or 10)") from None
    if not price.is_finite() or price < 0:
        raise fail(f"--whist-price: {text!r} must be a non-negative number")
    return price


def emit(text: str) -> None:
    """Write to standard output, exiting quietly when the reader has gone."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_broken_pipe()


def _register() -> None:
    from .commands import check, compare, convert, explain, prices, score, season, settle  # noqa: F401


_register()


def main() -> None:
    app(prog_name="pulyacalc")
