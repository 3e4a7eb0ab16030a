"""The options and arguments the commands share."""

from __future__ import annotations

import enum
from decimal import Decimal, InvalidOperation
from typing import Annotated

import typer

from pulyacalc.cli.runtime import fail
from pulyacalc.core import kinds
from pulyacalc.render.formats import FORMATS

#: ``-f`` choices: the names of the format table, so a new format is no edit here.
#: mypy cannot see the members of an Enum made from a table: commands default to TABLE.
Format = enum.Enum("Format", [(name, name) for name in FORMATS], type=str)  # type: ignore[misc]
TABLE: Format = Format("table")


class InputFormat(str, enum.Enum):
    yaml = "yaml"
    lines = "lines"


class Rounding(str, enum.Enum):
    """``--rounding``: the choices of core/kinds.Rounding (a test keeps the two equal)."""

    exact = "exact"
    kodeks = "kodeks"
    nearest = "nearest"
    kodeks_separate = "kodeks_separate"


def rounding_of(option: Rounding | None) -> kinds.Rounding | None:
    """The option as the library's closed set (None when not given)."""
    return None if option is None else option.value


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
    typer.Option(
        "--rounding",
        help="Override the rounding: exact, kodeks (K4.2.12, 3 players), nearest or kodeks_separate "
        "(the pools and the mountains each moved to a multiple of 3, 3 players).",
    ),
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
