"""pulyacalc for people who script in Python: read a log, score it under a convention,
settle it, go through what was written (docs/api.md).

A thin facade over the same code ``pulyacalc score`` runs, so a script gets the numbers
the command prints.  Not imported by ``import pulyacalc`` (the command line starts without it)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from decimal import Decimal

from pulyacalc.convention.schema import Convention
from pulyacalc.core.errors import Loc, Problem, Problems, PulyaError, ReadError, RuleError
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Log
from pulyacalc.core.sheet import Entry, SheetView
from pulyacalc.play import Evening
from pulyacalc.reports.compare import Column, Comparison, Excluded
from pulyacalc.scoring.settlement import Settlement

__all__ = ["Column", "Comparison", "Convention", "Entry", "Evening", "Excluded", "Loc", "Log", "Problem"]
__all__ += ["PulyaError", "ReadError", "RuleError", "Settlement", "SheetView"]
__all__ += ["compare", "convention", "conventions", "entries", "read_file", "read_text", "score", "settle"]


def read_text(text: str, name: str = "<text>", *, input_format: str | None = None) -> Log:
    """A log from text, in the YAML or the line format (by ``name``'s suffix or the text, or
    ``input_format``), every deal read now so that it can be scored again and again.
    ``name`` locates problems; raises ReadError with every problem of reading."""
    from pulyacalc.logs.read import read_text as read

    problems = Problems()
    return _whole(read(text, name, input_format, problems), problems)


def read_file(path: str, *, input_format: str | None = None, max_yaml_bytes: int | None = None) -> Log:
    """A log from a file (``"-"``: standard input); otherwise as ``read_text``."""
    from pulyacalc.logs.read import read_log

    problems = Problems()
    return _whole(read_log(path, input_format, problems, max_yaml_bytes=max_yaml_bytes), problems)


def _whole(log: Log, problems: Problems) -> Log:
    deals = tuple(log.deals)  # a line log is read lazily: read it to the end now
    problems.raise_if_any()
    return Log(log.header, deals, log.header_ok)


def conventions() -> list[str]:
    """The names of the built-in conventions."""
    from pulyacalc.convention.load import builtin_names

    return builtin_names()


def convention(name: str) -> Convention:
    """A convention by built-in name or by the path of a convention file."""
    from pulyacalc.convention.load import load

    return load(name)


def score(
    log: Log, convention: str | Convention | None = None, *, rounding: Rounding | None = None
) -> Evening:
    """Score every deal of ``log`` under the convention it names, or ``convention``: a name or
    a path (with the log's overrides, as on the command line), or a ``Convention`` used as
    it is.  ``rounding`` replaces the convention's.  Raises PulyaError with every problem."""
    from dataclasses import replace

    from pulyacalc.play import play, score_log

    if not isinstance(convention, Convention):
        return score_log(log, convention=convention, rounding=rounding, keep=True)
    conv = replace(convention, rounding=rounding) if rounding is not None else convention
    problems = Problems()
    evening = play(log, conv, problems, keep=True)
    problems.raise_if_any()
    return evening


def settle(evening: Evening, *, whist_price: Decimal | str | int | None = None) -> Settlement:
    """Settle an evening (RULES.md §3) under its convention's rounding; ``whist_price`` adds
    the money.  Raises PulyaError when the rounding cannot do it."""
    from pulyacalc.play import settle_evening

    return settle_evening(evening, None if whist_price is None else Decimal(str(whist_price)))


def entries(evening: Evening) -> Iterator[Entry]:
    """Everything written on the paper, deal by deal (``Entry``: deal, rule, player, area,
    amount, on, why)."""
    if evening.deals and not evening.results:
        raise ValueError("the evening was scored without keeping its deals: score it with api.score")
    for result in evening.results:
        yield from result.entries


def compare(
    log: Log, conventions: Sequence[str] | None = None, *, whist_price: Decimal | str | int | None = None
) -> Comparison:
    """The evening under several conventions (every built-in one by default)."""
    from pulyacalc.reports.compare import compare as compare_kept

    price = None if whist_price is None else Decimal(str(whist_price))
    return compare_kept(log, Problems(), conventions, price=price)
