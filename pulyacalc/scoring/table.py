"""RULES.md 6.3: what a newcomer writes when he joins (K3.1.2): the average of the pools at
the table, rounded down, into his pool; of their mountains, rounded up, into his mountain."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction

from pulyacalc.core.amounts import Amount, num
from pulyacalc.core.kinds import Area
from pulyacalc.core.sheet import MOUNTAIN, POOL, Write


def joins(
    newcomer: str, seated: tuple[str, ...], pools: Mapping[str, Amount], mountains: Mapping[str, Amount]
) -> Iterator[Write]:
    """The newcomer's pool and mountain, from those of ``seated`` (the players at the table)."""
    n = len(seated)
    ways: tuple[tuple[Area, Mapping[str, Amount], Callable[[Fraction], int], str], ...] = (
        (POOL, pools, math.floor, "down"),
        (MOUNTAIN, mountains, math.ceil, "up"),
    )
    for area, cells, rounded, way in ways:
        total = Fraction(sum(Fraction(cells[p]) for p in seated))
        value = rounded(total / n)
        if not value:
            continue
        parts = " + ".join(num(cells[p]) for p in seated)
        why = f"the average {area} of the {n} at the table: ({parts}) / {n} = {num(total / n)}"
        if value != total / n:
            why += f", rounded {way} (not in the newcomer's favour)"
        yield Write("join", newcomer, area, value, why=why)
