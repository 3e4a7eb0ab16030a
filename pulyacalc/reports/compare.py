"""One evening under several conventions, side by side (``pulyacalc compare``): one the log is illegal
under is ``Excluded`` with its problems; reading problems, no convention's fault, fail it as in ``score``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from pulyacalc.core.errors import Problem, Problems, PulyaError
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Log
from pulyacalc.play import Evening, load_convention, play, settle_evening
from pulyacalc.reports.replay import Replay
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
    """Compare a log file (or '-') under ``conventions`` (every built-in by default); raises PulyaError."""
    from pulyacalc.logs.read import read_log

    problems = Problems()
    log = read_log(path, input_format, problems, max_yaml_bytes=max_yaml_bytes)
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
    replay = Replay(log)  # every convention plays the same deals: read once, kept as lines
    if problems or not log.header_ok:
        replay.as_score(problems, names[0], rounding)
    columns: list[Column] = []
    excluded: list[Excluded] = []
    read = Problems()  # the reader's problems, apart from each convention's own
    for name in names:
        found = Problems()  # why the log is not legal under this convention
        conv = load_convention(Log(replay.header, ()), found, name, rounding)
        ev = None if conv is None else play(replay.fresh(read), conv, found)
        if read:
            replay.as_score(problems, names[0], rounding)
        if ev is not None and not found:
            try:
                columns.append(Column(name, ev, settle_evening(ev, price)))
                continue
            except PulyaError as e:
                found.extend(e.problems)
        excluded.append(Excluded(name, sorted(found.items, key=lambda p: p.loc)))  # file, line, column
    if not columns:
        # legal under none: every reason, each said once
        every = Problems()
        every.extend(dict.fromkeys(p for x in excluded for p in x.problems))
        every.raise_if_any()
    # the final table: a joiner has a column (RULES.md 6.3); every column plays the same seat changes, deals
    ev = columns[0].evening
    return Comparison(ev.sheet.players, ev.deals, columns, excluded)
