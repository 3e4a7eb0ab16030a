"""A bounded cache: a long log's ever new values are forgotten all at once (flat memory)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")

#: how many values a ``Remembered`` keeps unless told
REMEMBERED = 100_000


class Remembered(Generic[V]):
    """What ``make`` made of each value, kept by ``key`` of it (the value by default), at most ``size``."""

    def __init__(
        self, make: Callable[..., V], key: Callable[[Any], Hashable] | None = None, size: int | None = None
    ) -> None:
        self.make, self.key, self.size = make, key, size
        self.known: dict[Hashable, V] = {}

    def __call__(self, x: Any, *more: Any) -> V:
        k = x if self.key is None else self.key(x)
        try:
            return self.known[k]
        except KeyError:
            if len(self.known) >= (self.size or REMEMBERED):
                self.known.clear()
            got = self.known[k] = self.make(x, *more)
            return got
