"""The options and arguments the commands share."""

from __future__ import annotations

import enum
import functools
import inspect
import os
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Annotated, Any, TypeVar, get_args

import typer

from pulyacalc.cli import output as out
from pulyacalc.cli.lang import ADVANCED
from pulyacalc.cli.runtime import problems_reported
from pulyacalc.core import kinds
from pulyacalc.core.errors import WRITTEN, Loc, PulyaError, ReadsOutput, shown
from pulyacalc.core.i18n import N_, _, tr
from pulyacalc.render.formats import FORMATS

#: ``-f`` choices: the names of the format table, so a new format is no edit here.
#: mypy cannot see the members of an Enum made from a table: commands default to TABLE.
Format = enum.Enum("Format", [(name, name) for name in FORMATS], type=str)  # type: ignore[misc]
TABLE: Format = Format("table")


InputFormat = enum.Enum("InputFormat", [("yaml", "yaml"), ("lines", "lines")], type=str)
#: ``--rounding``: the choices of core/kinds.Rounding
Rounding = enum.Enum("Rounding", [(r, r) for r in get_args(kinds.Rounding)], type=str)  # type: ignore[misc]
#: the language of a log's words (convert, new)
Language = enum.Enum("Language", [("en", "en"), ("ru", "ru")], type=str)


def usage(message: str, option: str) -> typer.BadParameter:
    """A mistake in an option: the caller raises it; click prints the usage, names the option
    and exits 2 (a wrong option is the command line's fault, not the log's)."""
    # Typer vendors click; its context gives the "Usage: … Try -h" lines, as for dispute --deal
    from typer._click.globals import get_current_context

    return typer.BadParameter(tr(message), ctx=get_current_context(silent=True), param_hint=f"'{option}'")


#: the options' help, as ``--help`` shows it (translated where it is looked up)
_HELP = {
    "logs": N_("Log files, or directories searched for logs (*.yaml *.yml *.txt *.log *.pulya *.lines)."),
    "convention": N_(
        "Built-in convention name (sochi, leningrad, rostov, classic, gusarik) "
        "or a path to a convention YAML file; overrides the one the input names."
    ),
    "progress": N_("Show a progress bar on standard error (only on a terminal, only after a moment)."),
    "allow_outside": N_(
        "Let a log name a convention file outside its own directory tree "
        "(refused by default: a log from someone else could make pulyacalc read any file)."
    ),
    "format": N_("Output: table for people; json, jsonl, csv, tsv for programs (see docs/output.md)."),
    "whist_price": N_(
        "Price of one whist in money, e.g. 0.5: adds money to the cent (summing to 0) and who pays whom."
    ),
    "rounding": N_(
        "Override the rounding: exact, kodeks (K4.2.12, 3 players), nearest or kodeks_separate "
        "(the pools and the mountains each moved to a multiple of 3, 3 players)."
    ),
    "input_format": N_("Force the log format instead of guessing it from the file name or content."),
    "max_yaml_bytes": N_(
        "Refuse YAML logs and sheets larger than N bytes (default 2M: YAML is read whole; K, M, G suffixes). "
        "Line logs stream and have no limit: keep an archive in them (pulyacalc convert)."
    ),
    "encoding": N_(
        "Read logs and sheets in this encoding instead of UTF-8: cp1251 (Windows-1251) or utf-16, "
        "as an older editor saves them."
    ),
    "output": N_(
        "Write the output to FILE instead of standard output (all or nothing; - is standard output)."
    ),
    "quiet": N_("No notes on standard error (skipped files and the like)."),
    "force": N_("Let -o replace a log or a paper sheet (for a new log, any file that is not empty)."),
}


def _option(*decls: str, advanced: bool = False, **kw: Any) -> Any:
    """A shared option, its help in ``_HELP`` under its long name (``--whist-price``: whist_price)."""
    name = decls[-1].split("/")[0].lstrip("-").replace("-", "_")
    return typer.Option(*decls, help=_HELP[name], rich_help_panel=ADVANCED if advanced else None, **kw)


LogArg = Annotated[
    str, typer.Argument(metavar="LOG", help=N_("The log: a YAML or line-format file, or - for stdin."))
]


def _files(logs: list[str]) -> list[str]:
    """``LOG|DIR...`` of ``season`` and ``stats``: files and directories, never standard input."""
    if "-" in logs:
        message = _("a season reads files, not standard input: give log files or directories")
        raise usage(message, "LOG|DIR...")
    return logs


LogsArg = Annotated[list[str], typer.Argument(metavar="LOG|DIR...", help=_HELP["logs"], callback=_files)]


def parse_convention(text: str | None) -> str | None:
    """``-c``: a built-in name (any case: ``Sochi``, ``LENINGRAD``) or a file here; anything else
    is refused at the option, with the built-in names or the nearest one."""
    if text is None:
        return None
    from pulyacalc.convention.load import _not_found, builtin_name, given_path, is_name

    if given_path(text) is not None:
        # a name is given as the built-in's own (``сочинка`` → ``sochi``): one spelling in output
        return (builtin_name(text) or text) if is_name(text) else text
    if is_name(text):
        hint = tr(_not_found(text, None, Loc(text)).hint)
        raise typer.BadParameter(_("unknown convention {name!r}; {hint}").format(name=text, hint=hint))
    # the path as given, never made absolute (item 7 of issue 11)
    if Path(text).is_absolute():
        raise typer.BadParameter(_("no such file {name!r}").format(name=shown(text, 0)))
    raise typer.BadParameter(_("no such file {name!r} in the current directory").format(name=shown(text, 0)))


ConventionOpt = Annotated[
    str | None, _option("-c", "--convention", metavar="NAME|PATH", parser=parse_convention)
]


def _allow_outside(value: bool) -> bool:
    """``--allow-outside``: set for the whole command (click calls this for every run of a
    command that has the option, given or not)."""
    from pulyacalc.convention.load import outside_allowed

    outside_allowed.set(bool(value))
    return value


def _encoding(value: str | None) -> str | None:
    """``--encoding``: the codec logs and sheets are read in, for the whole command (click
    calls this for every run of a command that has the option, given or not)."""
    import codecs

    from pulyacalc.logs.read import encoding

    if value is not None:
        try:
            codecs.lookup(value)
        except LookupError:
            message = _("unknown encoding {value!r}; e.g. cp1251 or utf-16").format(value=value)
            raise usage(message, "--encoding") from None
    encoding.set(value or "utf-8-sig")  # (an empty name is no codec: refused above)
    return value


#: a progress bar for the commands that read many evenings (season, stats)
ProgressOpt = Annotated[bool, _option("--progress/--no-progress", advanced=True)]


#: ``--max-yaml-bytes`` at most this (a YAML document is held whole in memory, many times over)
MAX_YAML_LIMIT = 1024**3


def _parse_size(text: str | None) -> int | None:
    """``--max-yaml-bytes``: a number of bytes, optionally with K, M or G (powers of 1024), at most 1G."""
    if text is None:
        return None
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = {"K": 1024, "M": 1024**2, "G": 1024**3}.get(t[-1:], 1)
    digits = t[:-1] if scale != 1 else t
    if not digits.isascii() or not digits.isdigit() or digits.strip("0") == "":
        why = _("{text!r}: expected a positive size like 20000000, 500K or 20M")
    # 20 digits are over any limit: the rest need not be read (int() refuses 4,300 digits)
    elif len(digits) > 20 or int(digits) * scale > MAX_YAML_LIMIT:
        why = _("{text!r} is over the largest limit, 1G ({limit} bytes)")
    else:
        return int(digits) * scale
    raise usage(why.format(text=shown(text), limit=f"{MAX_YAML_LIMIT:,}"), "--max-yaml-bytes")


#: ``--whist-price`` at most this: money stays exact to the cent (``settlement.MONEY``)
#: however long the evening (docs/commands.md)
MAX_WHIST_PRICE = 1_000_000
#: and at most this many decimal places
PRICE_PLACES = 6


def parse_price(text: str | None) -> Decimal | None:
    """``--whist-price``: 0..1,000,000, at most six decimal places; checked before any
    arithmetic (``1e99999999`` is a valid Decimal that would take hours to print)."""
    if text is None:
        return None
    try:
        price = Decimal(text.replace(",", ".")) if len(text) <= 40 else None
    except InvalidOperation:
        price = None
    if price is None or not price.is_finite():
        why = _("{text!r} is not a number; give the price of one whist, like 0.5 or 10")
    elif price < 0 or price > MAX_WHIST_PRICE:
        why = _("{text!r}: the price of one whist is a number from 0 to {most}, like 0.5 or 10")
    elif isinstance(e := price.normalize().as_tuple().exponent, int) and e < -PRICE_PLACES:
        why = _("{text!r}: the price of one whist has at most {places} decimal places")
    else:
        return price
    message = why.format(text=shown(text), most=f"{MAX_WHIST_PRICE:,}", places=PRICE_PLACES)
    raise usage(message, "--whist-price") from None


F = TypeVar("F", bound=Callable[..., Any])


#: the options the commands share, in the order ``--help`` lists them (-o, -q last)
SHARED: dict[str, Any] = {
    "convention": ConventionOpt,
    "allow_outside": Annotated[bool, _option("--allow-outside", callback=_allow_outside, advanced=True)],
    "format": Annotated[Format, _option("-f", "--format")],
    "whist_price": Annotated[str | None, _option("--whist-price", metavar="X")],
    "rounding": Annotated[Rounding | None, _option("--rounding")],
    "input_format": Annotated[InputFormat | None, _option("--input-format", advanced=True)],
    "max_yaml_bytes": Annotated[
        int | None, _option("--max-yaml-bytes", metavar="N", parser=_parse_size, advanced=True)
    ],
    "encoding": Annotated[str | None, _option("--encoding", metavar="CODEC", callback=_encoding)],
    "output": Annotated[str | None, _option("-o", "--output", metavar="FILE", callback=out.set_output)],
    "quiet": Annotated[bool, _option("-q", "--quiet", callback=out.keeps("quiet"), advanced=True)],
    "force": Annotated[bool, _option("--force", callback=out.keeps("force"))],
}
#: the shared options' defaults where they are not None
DEFAULTS: dict[str, Any] = {"allow_outside": False, "format": TABLE, "quiet": False, "force": False}
#: kept by their callbacks, not passed in :class:`Run`
KEPT = ("allow_outside", "encoding", "quiet", "force")


def but(*left_out: str) -> tuple[str, ...]:
    """Every shared option but those named."""
    return tuple(n for n in SHARED if n not in left_out)


@dataclass(frozen=True)
class Run:
    """The shared options of one run, as a command gets them (:func:`command`)."""

    convention: str | None
    format: str
    whist_price: str | None
    rounding: kinds.Rounding | None
    input_format: str | None
    max_yaml_bytes: int | None
    output: str | None

    @property
    def price(self) -> Decimal | None:
        # parsed where the command asks, so that its own checks keep their order
        return parse_price(self.whist_price)

    @property
    def reading(self) -> dict[str, Any]:
        """The keywords the library's readers of a log take."""
        return {k: getattr(self, k) for k in ("convention", "rounding", "input_format", "max_yaml_bytes")}


def command(*names: str, blame_rounding: bool = True, fresh: bool = False) -> Callable[[F], F]:
    """A command over the shared options ``names``, which it gets as one :class:`Run` (Typer sees
    them where its ``run`` parameter is); its problems reported, ``--rounding``'s as usage;
    its ``-o`` checked (:func:`guard`; ``fresh``: any file with text is kept)."""
    # in the order --help lists them, and --force with -o
    names = tuple(n for n in SHARED if n in names or (n == "force" and "output" in names))

    def decorate(func: F) -> F:
        own = list(inspect.signature(func, eval_str=True).parameters.values())
        at = [p.name for p in own].index("run")
        keyword = inspect.Parameter.KEYWORD_ONLY
        ours = [inspect.Parameter(n, keyword, default=DEFAULTS.get(n), annotation=SHARED[n]) for n in names]
        last = [p for p in ours if p.name in ("output", "quiet", "force")]
        params = own[:at] + [p for p in ours if p not in last] + own[at + 1 :] + last
        params = [p.replace(kind=keyword) for p in params]

        @functools.wraps(func)
        def wrapper(**kwargs: Any) -> Any:
            with problems_reported():
                given: dict[str, Any] = {n: kwargs.pop(n) if n in names else DEFAULTS.get(n) for n in SHARED}
                # the enums' values; allow_outside, quiet and force are kept by their callbacks
                fields = {n: getattr(v, "value", v) for n, v in given.items() if n not in KEPT}
                if "format" in names and "output" in names:
                    fields["format"] = report_format(fields["output"], fields["format"])
                option = fields["rounding"] if blame_rounding else None
                from pulyacalc.scoring.settlement import SettlementError

                try:
                    with out.session():
                        guard(kwargs, fields, fresh)
                        return func(**kwargs, run=Run(**fields))
                except ReadsOutput as e:  # a file a log names, or a folder's log
                    raise usage(
                        _reads(_outputs(kwargs, fields)[e.args[0]] or "", e.args[1]), e.args[0]
                    ) from None
                except SettlementError as e:
                    # a settlement --rounding asked for and cannot be done (kodeks with 4
                    # players) is the option's mistake: usage, exit 2, not a problem of the log
                    if option is not None:
                        raise usage(tr(e.args[0]) if e.args else str(e), "--rounding") from None
                    raise
                except PulyaError as e:
                    for problem in e.problems if option is not None else ():
                        # the settlement's refusals all begin with the rounding's name
                        if problem.kind == "rule" and problem.message.startswith(f"{option} rounding"):
                            raise usage(tr(problem.message), "--rounding") from None
                    raise
                finally:
                    WRITTEN.clear()

        wrapper.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in params}
        return wrapper  # type: ignore[return-value]

    return decorate


def _reads(output: str, given: str) -> str:
    message = _("{output}: this command reads it ({input}); write the output to another file")
    return message.format(output=shown(output, 0), input=shown(given, 0))


def _outputs(kwargs: dict[str, Any], fields: dict[str, Any]) -> dict[str, str | None]:
    return {"--plot": kwargs.get("plot"), "-o": kwargs.get("output", fields["output"])}


def guard(kwargs: dict[str, Any], fields: dict[str, Any], fresh: bool) -> None:
    """A command's ``-o`` and ``--plot`` checked before any work (usage, exit 2): not one file
    twice, not an input, not a log or a paper sheet without ``--force``; then put in ``WRITTEN``."""
    outputs = _outputs(kwargs, fields)
    values = [fields["convention"], *(v for k, v in kwargs.items() if k not in ("output", "plot"))]
    inputs = [
        i for v in values for i in (v if isinstance(v, list) else [v]) if isinstance(i, str) and i != "-"
    ]
    seen: dict[object, str] = {}
    for option, path in outputs.items():
        if path is None or out.descriptor(path) is not None:
            continue
        key = out.identity(path)
        real = os.path.realpath(path)
        other = seen.setdefault(key or real, option)
        if other != option:
            message = _("{file} is named by {other} too: give each its own file")
            raise usage(message.format(file=shown(path, 0), other=other), option)
        if key is None:
            continue
        for given in inputs:
            # a folder's logs (season, stats) are read: the walk would meet it again
            inside = os.path.isdir(given) and real.startswith(os.path.realpath(given) + os.sep)
            if out.identity(given) == key or (inside and out.typed(path, False)):
                raise usage(_reads(path, given), option)
        if not out.force and out.typed(path, fresh):
            why = _("{file} holds a log or a paper sheet; give --force to replace it")
            if fresh:
                why = _("{file} is not empty; give --force to replace it")
            raise usage(why.format(file=shown(path, 0)), option)
        WRITTEN[key] = option


def agreed(given: str | None, named: str | None, refusal: str) -> str | None:
    """The format to write: the one an option gives (``-f``, convert's ``--to``), else the
    one the ``-o`` file's name says (``named``); a name that says another format than the
    option's is usage on ``-o`` (the message ``refusal``)."""
    if given is not None and named is not None and named != given:
        raise usage(refusal, "-o")
    return given or named


def report_format(output: str | None, fmt: str) -> str:
    """A report's format: ``-f``, else the one ``-o``'s extension says (``x.csv``), else a table."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    source = ctx.get_parameter_source("format") if ctx is not None else None
    given = fmt if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP") else None
    named = None
    if output is not None and out.descriptor(output) is None:
        named = out.REPORT_SUFFIXES.get(Path(output).suffix.lower())
    other = " or ".join(s for s, f in out.REPORT_SUFFIXES.items() if f == fmt)
    message = _(
        "{output} is named as {named} output, but -f says {value}: end its name in {other}, or leave out -f"
    )
    refusal = message.format(output=shown(output or "", 0), named=named, value=fmt, other=other)
    return agreed(given, named, refusal) or fmt
