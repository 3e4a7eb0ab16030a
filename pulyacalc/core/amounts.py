"""Exact amounts: whole numbers, or fractions where a rule halves, and how people write them."""

from __future__ import annotations

from fractions import Fraction
from typing import Union

#: Amounts on the sheet are exact: whole numbers, or fractions where a rule halves.
Amount = Union[int, Fraction]


def num(x: Amount) -> str:
    """An exact amount as people write it: 12, -6, 7/2."""
    if type(x) is int:
        return str(x)
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    return str(x)


def tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def undertricks(n: int) -> str:
    return f"{n} undertrick" if n == 1 else f"{n} undertricks"


def exact(x: Amount) -> Amount:
    """Keep whole numbers as int (fast, readable), other values as Fraction."""
    if type(x) is int:  # the common case, without the slow ABC isinstance
        return x
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


def half(x: Amount) -> Amount:
    return x // 2 if isinstance(x, int) and x % 2 == 0 else exact(Fraction(x) / 2)
