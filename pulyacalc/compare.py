"""One evening under several conventions, side by side (``pulyacalc compare``).

The log is read once (a path, or '-': standard input is read once) and its deals are
kept, then played under each convention asked for.  A convention under which the log is
not legal — its deals break a rule, the convention does not load, or the settlement
cannot be rounded as it says (kodeks rounding with 4 players) — is ``Excluded`` with its
problems instead of failing the whole comparison.  Problems of reading (syntax) are no
convention's fault: they fail the comparison, as ``score`` would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from pulyacalc.core.errors import Problem, Problems, PulyaError
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Correction, Log
from pulyacalc.evening import Evening, load_convention, play, score_log, settle_evening
from pulyacalc.scoring.settlement import Settlement


@dataclass(frozen=True)
class Column:
    """A convention under which the log is legal: the evening and its settlement."""

    #: the convention as asked for (a built-in name or a file)
    asked: str
    evening: Evening
    settlement: Settlement


@dataclass(frozen=True)
class Excluded:
    """A convention under which the log is not legal, and why (each problem located)."""

    asked: str
    problems: list[Problem]


@dataclass(frozen=True)
class Comparison:
    players: tuple[str, ...]
    deals: int
    #: in the order asked for
    columns: list[Column]
    excluded: list[Excluded]


def compare_log(
    path: str,
    conventions: Sequence[str] | None = None,
    *,
    rounding: Rounding | None = None,
    input_format: str | None = None,
    price: Decimal | None = None,
    max_yaml_bytes: int | None = None,
) -> Comparison:
    """Compare a log file (or '-') under ``conventions`` (every built-in by default).
    Raises PulyaError when the log cannot be read, or is legal under none of them."""
    from pulyacalc.logs.read import read_log

    problems = Problems()
    log = read_log(path, input_format, problems, max_yaml_bytes=max_yaml_bytes)
    return compare(log, problems, conventions, rounding=rounding, price=price)


def compare_text(
    text: str,
    name: str = "<text>",
    conventions: Sequence[str] | None = None,
    *,
    rounding: Rounding | None = None,
    input_format: str | None = None,
    price: Decimal | None = None,
) -> Comparison:
    """``compare_log`` for a log given as text."""
    from pulyacalc.logs.read import read_text

    problems = Problems()
    log = read_text(text, name, input_format, problems)
    return compare(log, problems, conventions, rounding=rounding, price=price)


def compare(
    log: Log,
    problems: Problems,
    conventions: Sequence[str] | None = None,
    *,
    rounding: Rounding | None = None,
    price: Decimal | None = None,
) -> Comparison:
    """Play ``log`` under each convention; ``problems`` holds what reading it found so far."""
    from pulyacalc.convention.load import builtin_names

    names = list(conventions) if conventions else builtin_names()
    # every convention plays the same deals: read them once
    deals = tuple(log.deals)
    kept = Log(log.header, deals, log.header_ok)
    if problems or not log.header_ok:
        # the log cannot be read: report it as score does under the first convention
        # (reading problems and that convention's together), and stop
        score_log(kept, problems, convention=names[0], rounding=rounding)
    columns: list[Column] = []
    excluded: list[Excluded] = []
    for name in names:
        found = Problems()
        column = _column(kept, name, found, rounding, price)
        if column is not None:
            columns.append(column)
        else:
            excluded.append(Excluded(name, _ordered(found.items)))
    if not columns:
        # legal under none: every reason, each said once
        every = Problems()
        every.extend(dict.fromkeys(p for x in excluded for p in x.problems))
        every.raise_if_any()
    count = sum(not isinstance(d, Correction) for d in deals)  # a correction is no deal (RULES.md 2.9)
    return Comparison(log.header.players, count, columns, excluded)


def _column(
    log: Log, name: str, found: Problems, rounding: Rounding | None, price: Decimal | None
) -> Column | None:
    """The column for one convention, or None with the reasons in ``found``."""
    conv = load_convention(log, found, name, rounding)
    if conv is None:
        return None
    ev = play(log, conv, found)
    if found:
        return None
    try:
        return Column(name, ev, settle_evening(ev, price))
    except PulyaError as e:
        found.extend(e.problems)
        return None


def _ordered(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.loc.file, p.loc.line, p.loc.column))
