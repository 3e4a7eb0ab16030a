"""The ledger's running totals in whole numbers (issue 11: ``ledger --running`` and a whist
price on a long log).

Each row is exact (an int or a Fraction); adding Fractions deal after deal, and rounding
each running total to the cent through Fractions and Decimals (``settlement.to_money``),
took most of a long log's time.  Here the running totals are integer numerators over one
common denominator (the least common multiple of the rows' denominators so far, grown when
a row needs it), and the money is in whole cents by the very rule of ``to_money``: each
running total × price × 100 rounded down, then +1 to the largest remainders (ties by
seat) until the cents add up to the exact total.  The same numbers, exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from itertools import accumulate, repeat
from math import gcd
from operator import add, floordiv, mod, mul, sub
from typing import TYPE_CHECKING, Protocol

from pulyacalc.scoring.settlement import largest_remainder

if TYPE_CHECKING:
    from pulyacalc.core.amounts import Amount


class Row(Protocol):
    """A row as :meth:`Totals.add` reads it (``ledger.Moved``)."""

    result: dict[str, Amount]
    ints: tuple[int, tuple[int, ...]] | None


class Block:
    """Rows added at once (``Totals.add_block``): over ``den``, each player's running
    numerators after each row (``nums[seat][row]``); with a price, each one's cents after
    each row and their change (``cents``, ``moved``)."""

    __slots__ = ("den", "nums", "cents", "moved")

    def __init__(self, den: int, nums: list[list[int]]) -> None:
        self.den, self.nums = den, nums
        self.cents: list[list[int]] = []
        self.moved: list[list[int]] = []


class Totals:
    """The rows added up so far: ``nums[i] / den`` for the i-th player; with a price,
    ``cents`` (each running total to the cent, as ``to_money``) and ``moved`` (this deal's
    change of them)."""

    __slots__ = ("players", "den", "nums", "price", "cents", "moved")

    def __init__(self, players: tuple[str, ...], price: Decimal | None) -> None:
        self.players = players
        self.den = 1
        self.nums = [0] * len(players)
        self.price = None if price is None else Fraction(price)
        self.cents = [0] * len(players)
        self.moved = [0] * len(players)

    def numerators(self, result: dict[str, Amount]) -> tuple[int, ...]:
        """``result`` over the common denominator (grown first where it must be)."""
        for p in self.players:
            d = result[p].denominator
            if self.den % d:
                grow = d // gcd(self.den, d)
                self.den *= grow
                self.nums = [n * grow for n in self.nums]
        den = self.den
        return tuple(result[p].numerator * (den // result[p].denominator) for p in self.players)

    def add(self, m: Row) -> None:
        """The row ``m`` added (its numerators kept with it for this denominator)."""
        known = m.ints
        if known is None or known[0] != self.den:
            ints = self.numerators(m.result)
            known = m.ints = (self.den, ints)
        self.nums = list(map(add, self.nums, known[1]))
        if self.price is not None:
            self._money()

    def _money(self) -> None:
        """``to_money`` of the running totals, in cents: floors, then the largest remainders."""
        price = self.price
        assert price is not None
        times = price.numerator * 100
        floors = largest_remainder([n * times for n in self.nums], self.den * price.denominator)
        self.moved = list(map(sub, floors, self.cents))
        self.cents = floors

    def add_block(self, rows: Sequence[Row]) -> Block:
        """The rows added one after another (as ``add`` each), worked out column by column:
        each player's running numerators after each row, and with a price each one's
        cents after each row and their change.  The denominator is grown first for the
        whole block (the same numbers over a bigger one)."""
        for m in rows:
            known = m.ints
            if known is None or known[0] != self.den:
                m.ints = (self.den, self.numerators(m.result))
        den = self.den
        for m in rows:  # (grown by a later row: over the new one)
            if m.ints[0] != den:  # type: ignore[index]  # (set above)
                m.ints = (den, self.numerators(m.result))
        deltas = zip(*[m.ints[1] for m in rows], strict=True)  # type: ignore[index]
        nums = [list(accumulate(d, initial=n))[1:] for n, d in zip(self.nums, deltas, strict=True)]
        self.nums = [col[-1] for col in nums]
        block = Block(den, nums)
        if self.price is not None:
            cents = self._cents(nums)
            block.cents = cents
            block.moved = [
                [c[0] - before, *map(sub, c[1:], c[:-1])] for c, before in zip(cents, self.cents, strict=True)
            ]
            self.cents = [col[-1] for col in cents]
            self.moved = [col[-1] for col in block.moved]
        return block

    def now(self) -> Block:
        """The totals after the last row added, as a block of that one row."""
        block = Block(self.den, [[n] for n in self.nums])
        if self.price is not None:
            block.cents, block.moved = [[c] for c in self.cents], [[c] for c in self.moved]
        return block

    def _cents(self, nums: list[list[int]]) -> list[list[int]]:
        """``_money`` of each row's running totals (columns of numerators), column by column:
        the floors, then +1 to the first of the largest remainders of a row one short;
        a row more short by ``largest_remainder`` itself."""
        price = self.price
        assert price is not None
        times, k = price.numerator * 100, self.den * price.denominator
        # (column by column in C: map over a column, not a Python loop over its rows)
        values = [list(map(mul, col, repeat(times))) for col in nums]
        floors = [list(map(floordiv, col, repeat(k))) for col in values]
        rests = [list(map(mod, col, repeat(k))) for col in values]
        rows = len(nums[0])
        shorts = list(
            map(
                sub,
                map(floordiv, map(sum, zip(*values, strict=True)), repeat(k)),
                map(sum, zip(*floors, strict=True)),
            )
        )
        best, first = rests[0], [0] * rows
        for p in range(1, len(rests)):
            first = [p if r > b else i for i, r, b in zip(first, rests[p], best, strict=True)]
            best = list(map(max, best, rests[p]))
        for i, short in enumerate(shorts):
            if short == 1:
                floors[first[i]][i] += 1
            elif short:
                got = largest_remainder([col[i] for col in values], k)
                for col, g in zip(floors, got, strict=True):
                    col[i] = g
        return floors

    def amounts(self) -> dict[str, Amount]:
        """The running totals as exact amounts (int where whole)."""
        out: dict[str, Amount] = {}
        for p, n in zip(self.players, self.nums, strict=True):
            q = Fraction(n, self.den)
            out[p] = q.numerator if q.denominator == 1 else q
        return out

    def paid(self) -> dict[str, Decimal]:
        """The money running totals as ``to_money`` gives them."""
        return {p: Decimal(c) / 100 for p, c in zip(self.players, self.cents, strict=True)}
