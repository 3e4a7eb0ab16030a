"""Texts remembered per distinct value of a column (issue 11: a long log's tables and JSON
put a text in for each of millions of values, of some hundred thousand distinct ones).

A column's texts are looked up in one pass over the column; only the values not met yet are
gathered (by position, without looking them up again) and made, each once, and put in from
a dictionary as small as they are few.  A dictionary of a hundred thousand values is looked
up a value at a time out of the processor's caches: a pass over it is what costs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import compress, repeat
from operator import is_
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def looked_up(
    known: dict[K, V], keys: Sequence[K], make: Callable[[list[K]], Sequence[V]], bound: int
) -> list[V]:
    """The value in ``known`` of each of ``keys``; those not in it (or kept as None) made by
    ``make`` from the list of them (each once) and kept, ``known`` emptied first when they
    would take it past ``bound`` entries."""
    got: list[V | None] = list(map(known.get, keys))  # (None: not known)
    new = list(set(compress(keys, map(is_, got, repeat(None)))))
    if not new:
        return got  # type: ignore[return-value]  # (no None: each was known)
    fresh = dict(zip(new, make(new), strict=True))
    if len(known) + len(fresh) > bound:
        known.clear()
    known.update(fresh)
    return list(map(fresh.get, keys, got))  # type: ignore[arg-type]  # (every key is in one)
