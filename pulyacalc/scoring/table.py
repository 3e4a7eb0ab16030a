"""RULES.md 6.3: what a newcomer writes when he joins (K3.1.2): the average of the pools at
the table, rounded down, into his pool; of their mountains, rounded up, into his mountain."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from fractions import Fraction

from pulyacalc.core.amounts import Amount, num
from pulyacalc.core.i18n import M_, MN_
from pulyacalc.core.kinds import Area
from pulyacalc.core.sheet import MOUNTAIN, POOL, Write


def joins(
    newcomer: str, seated: tuple[str, ...], pools: Mapping[str, Amount], mountains: Mapping[str, Amount]
) -> Iterator[Write]:
    """The newcomer's pool and mountain, from those of ``seated`` (the players at the table)."""
    n = len(seated)
    areas: tuple[tuple[Area, Mapping[str, Amount]], ...] = ((POOL, pools), (MOUNTAIN, mountains))
    for area, cells in areas:
        average = Fraction(sum(Fraction(cells[p]) for p in seated)) / n
        value = math.floor(average) if area == POOL else math.ceil(average)
        if not value:
            continue
        fields = {"n": n, "parts": " + ".join(num(cells[p]) for p in seated), "average": num(average)}
        exact = value == average
        if area == POOL:
            how = "" if exact else M_(", rounded down (not in the newcomer's favour)")
            why = MN_(
                "the average pool of the {n} at the table: ({parts}) / {n} = {average}{how}",
                "the average pool of the {n} at the table: ({parts}) / {n} = {average}{how}",
                n,
                how=how,
                **fields,
            )
        else:
            how = "" if exact else M_(", rounded up (not in the newcomer's favour)")
            why = MN_(
                "the average mountain of the {n} at the table: ({parts}) / {n} = {average}{how}",
                "the average mountain of the {n} at the table: ({parts}) / {n} = {average}{how}",
                n,
                how=how,
                **fields,
            )
        yield Write("join", newcomer, area, value, why=why)
