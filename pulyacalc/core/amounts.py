"""Exact amounts: whole numbers, or fractions where a rule halves, and how people write them."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Union

from pulyacalc.core.i18n import M_, MN_, N_

Amount = Union[int, Fraction]


def num(x: Amount) -> str:
    """An exact amount as people write it: 12, -6, 7/2 (a Fraction's str, whole ones as ints)."""
    return str(x)


_GLYPHS = "½1/2 ⅓1/3 ⅔2/3 ¼1/4 ¾3/4 ⅕1/5 ⅖2/5 ⅗3/5 ⅘4/5 ⅙1/6 ⅚5/6 ⅐1/7 ⅛1/8 ⅜3/8 ⅝5/8 ⅞7/8 ⅑1/9 ⅒1/10"
#: the fractions Unicode writes as one character (vulgar fractions), by (numerator, denominator)
VULGAR: dict[tuple[int, int], str] = {
    (int(n), int(d)): word[0] for word in _GLYPHS.split() for n, _, d in (word[1:].partition("/"),)
}


def mixed(x: Amount, glyphs: bool = True) -> str:
    """An exact amount as a mixed number: 12, -46⅔, 3½, 5 2/7 (``glyphs``: ⅔ rather than 2/3)."""
    if type(x) is int:
        return str(x)
    q = Fraction(x)
    if q.denominator == 1:
        return str(q.numerator)
    sign = "-" if q < 0 else ""
    whole, rest = divmod(abs(q.numerator), q.denominator)
    glyph = VULGAR.get((rest, q.denominator)) if glyphs else None
    if glyph is not None:
        return f"{sign}{whole or ''}{glyph}"
    part = f"{rest}/{q.denominator}"
    return f"{sign}{whole} {part}" if whole else f"{sign}{part}"


@lru_cache(maxsize=64)  # (a count of tricks: a handful of values, said in every deal)
def tricks(n: int) -> str:
    """``1 trick``, ``3 tricks`` (shown in the chosen language: ``3 взятки``)."""
    return MN_("{n} trick", "{n} tricks", n, n=n)


@lru_cache(maxsize=64)
def undertricks(n: int) -> str:
    """``1 undertrick``, ``2 undertricks`` (in Russian «без одной», «без двух»)."""
    return M_(_DOWN[n][0]) if n in _DOWN else MN_("{n} undertrick", "{n} undertricks", n, n=n)


#: the words players say for a contract failed by n: «без одной», «без двух» …
_DOWN = {
    1: (N_("1 undertrick"), N_("without 1")),
    2: (N_("2 undertricks"), N_("without 2")),
    3: (N_("3 undertricks"), N_("without 3")),
    4: (N_("4 undertricks"), N_("without 4")),
    5: (N_("5 undertricks"), N_("without 5")),
    6: (N_("6 undertricks"), N_("without 6")),
}


def down(n: int) -> str:
    """``without 2`` (a contract failed by two; «без двух»)."""
    return M_(_DOWN[n][1]) if n in _DOWN else M_("without {n}", n=n)


def exact(x: Amount) -> Amount:
    """Keep whole numbers as int (fast, readable), other values as Fraction."""
    if type(x) is int:  # the common case, without the slow ABC isinstance
        return x
    return int(x) if isinstance(x, Fraction) and x.denominator == 1 else x


#: the most one deal may write and a correction make of a sum on the sheet (docs/format.md "Limits")
MAX_WRITTEN: int = 10**30
MAX_SUM_DENOMINATOR = 10**12


def past_limit(x: Amount) -> bool:
    if type(x) is int:
        return not -MAX_WRITTEN <= x <= MAX_WRITTEN
    q = Fraction(x)
    return q.denominator > MAX_SUM_DENOMINATOR or abs(q) > MAX_WRITTEN


def half(x: Amount) -> Amount:
    return x // 2 if isinstance(x, int) and x % 2 == 0 else exact(Fraction(x) / 2)
