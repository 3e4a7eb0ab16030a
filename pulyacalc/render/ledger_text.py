"""The ledger's rows as text, fast (issue 11: a long log in every shape and option).

A row is written from a template made once per distinct row (``ledger.Moved``: its dealer,
its text and its result are the same every time it comes): the row as its shape writes it
with a mark where each value of the deal goes (its number, the running totals, the money),
the marks then made ``%s``.  The running totals and the money come as whole numbers
(:class:`pulyacalc.ledger_totals.Totals`) and are written here in the very text
``view.show`` / ``jnum`` / ``fraction_text`` / ``decimal`` give for the exact amounts and
the Decimals they stand for.  tests/test_ledger_stream.py holds both ways to the same bytes.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

from pulyacalc.core.amounts import VULGAR
from pulyacalc.render.view import GLYPHS, decimal

#: what stands for a value in a template (a private-use character around the value's index)
MARK = "\ue0ff"


def slot(i: int) -> str:
    return f"{MARK}{i}{MARK}"


def template(text: str, slots: int, quoted: bool, number: str = "%s") -> str | None:
    """``text`` with slot 0 … ``slots``-1 made ``%s`` (``quoted``: with the quotes JSON put
    around them; slot 0, the deal's number, made ``number``), in order; None when the text
    is not so (a mark of its own in the text)."""
    if text.count(MARK) != 2 * slots:
        return None
    text = text.replace("%", "%%")
    at = -1
    for i in range(slots):
        s = f'"{slot(i)}"' if quoted else slot(i)
        here = text.find(s)
        if here <= at:
            return None
        at = here
        text = text.replace(s, number if i == 0 else "%s", 1)
    return text


def cents(c: int, signed: bool = False) -> str:
    """Whole cents as ``show`` writes the Decimal ``c / 100`` (``signed``: +1.50)."""
    sign = "-" if c < 0 else "+" if signed and c > 0 else ""
    whole, rest = divmod(abs(c), 100)
    return f"{sign}{whole}.{rest:02d}"


class Numbers:
    """``n / den`` written each way (``den`` > 0), the part after the units of each
    remainder remembered (for one denominator at a time)."""

    def __init__(self) -> None:
        self.den = 0
        self.parts: dict[int, tuple[int, str, str | None]] = {}

    def _part(self, rest: int, den: int) -> tuple[int, str, str | None]:
        """The remainder ``rest`` of ``den``: its reduced denominator, ``a/b``, its glyph."""
        if den != self.den:
            self.den = den
            self.parts.clear()
        got = self.parts.get(rest)
        if got is None:
            g = gcd(rest, den)
            got = self.parts[rest] = (den // g, f"{rest // g}/{den // g}", VULGAR.get((rest // g, den // g)))
        return got

    def show(self, n: int, den: int) -> tuple[str, int, int]:
        """``view.show`` of n/den, with what a right-aligned column measures of it
        (``longtable._Right``): its whole part's width and its tail's."""
        whole, rest = divmod(abs(n), den)
        if not rest:
            text = str(n // den)
            return text, len(text), 0
        sign = "-" if n < 0 else ""
        _, part, glyph = self._part(rest, den)
        if glyph is not None and GLYPHS[0]:
            units = f"{sign}{whole or ''}"
            return units + glyph, len(units), 1
        if whole:
            units = f"{sign}{whole}"
            return f"{units} {part}", len(units), len(part) + 1
        # a fraction without a whole part: measured as the `` 2/7`` of 5 2/7
        return sign + part, 1 if sign else -1, len(part) + 1

    def json(self, n: int, den: int) -> str:
        """``jnum`` of n/den as JSON writes it."""
        if n % den == 0:
            return str(n // den)
        return repr(round(n / den, 2))

    def exact(self, n: int, den: int) -> str:
        """``fraction_text`` of n/den, in JSON's quotes."""
        rest = abs(n) % den
        if not rest:
            return f'"{n // den}"'
        g = den // self._part(rest, den)[0]
        return f'"{n // g}/{den // g}"'

    def decimal(self, n: int, den: int) -> str:
        """``view.decimal`` of n/den: Decimal's quotient (28 digits) quantized to the cent,
        half to even.  Worked out in whole numbers where that quotient cannot differ from
        the exact one at the cent (a value under 10^15 of a denominator under 10^6: the
        exact value is 0 or at least 1/(200 den) away from a half cent), else by Decimal."""
        if n % den == 0:
            return str(n // den)
        if den >= 10**6 or abs(n) >= den * 10**15:
            return decimal(Fraction(n, den))
        q, r = divmod(abs(n) * 100, den)
        if 2 * r > den or (2 * r == den and q % 2):
            q += 1
        whole, c = divmod(q, 100)
        return f"{'-' if n < 0 else ''}{whole}.{c:02d}"


def money_json(c: int) -> str:
    """``jnum`` of the Decimal ``c / 100`` as JSON writes it: a float, correctly rounded
    either way (Python's int division is)."""
    return repr(c / 100)
