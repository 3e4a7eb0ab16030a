"""A bounded cache: a long log's ever new values are forgotten all at once (flat memory)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

V = TypeVar("V")

#: how many values a ``Remembered`` keeps unless told
REMEMBERED = 100_000
_MISSING: Any = object()


class Remembered(dict[Hashable, V]):
    """What ``make`` made of each value, at most ``size``: ``r(x)`` is ``make(x)`` made once, and a value
    met again is a dict look-up in C (no Python call: most look-ups of a long log find what they seek)."""

    __slots__ = ("make", "size")

    def __init__(self, make: Callable[..., V], size: int | None = None) -> None:
        super().__init__()
        self.make, self.size = make, size or REMEMBERED

    __call__: Callable[[Remembered[V], Hashable], V] = dict.__getitem__  # (a hit never leaves C)

    def __missing__(self, x: Hashable) -> V:
        if len(self) >= self.size:
            self.clear()
        got = self[x] = self.make(x)
        return got

    def made(self, key: Hashable, *more: Any) -> V:
        """``make(key, *more)`` made once per ``key``: a value made from more than what it is kept by."""
        got = self.get(key, _MISSING)
        if got is _MISSING:
            if len(self) >= self.size:
                self.clear()
            got = self[key] = self.make(key, *more)
        return got  # type: ignore[no-any-return]
