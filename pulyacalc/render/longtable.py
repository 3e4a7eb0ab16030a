"""A ``simple`` table too long to hold (``ledger`` of a long log): its rows go to a spool as
they come, each column measured on the way, and the table is drawn at the end in the very
bytes :func:`pulyacalc.render.formats.grid` gives — the units of a right-aligned column's
numbers under each other, the layout of :func:`pulyacalc.render.formats.direct`.  Where
grid does more (a width to fit, escape sequences or line breaks, characters tabulate
measures by their width on a terminal) the rows are read back and given to grid itself.
tests/test_ledger_stream.py holds both to the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import IO

from pulyacalc.core.amounts import VULGAR
from pulyacalc.render.formats import _MIXED, _NUMBER, _SPECIAL, PAD, _wide_chars, grid

#: between the cells of a row in the spool
SEP = "\x1f"
#: rows written to the spool, and lines given, at a time
BATCH = 2048


class _Right:
    """What a right-aligned column's cells need to be drawn: the widest cell as it is, the
    widest one that is no number, and of the numbers the widest whole part and the widest
    part after the units (:func:`formats._units_aligned`)."""

    __slots__ = ("plain", "other", "whole", "tail", "mixed", "numbers")

    def __init__(self) -> None:
        self.plain = self.other = self.whole = self.tail = 0
        self.mixed = self.numbers = False

    def measure(self, cell: str) -> None:
        self.plain = max(self.plain, len(cell.strip()))
        m = _NUMBER.fullmatch(cell)
        if m is None or not m.group(0) or m.group(0) in "+-−":
            self.other = max(self.other, len(cell.strip()))
            return
        whole, tail = _split(m.group(1), m.group(2) or "")
        self.numbers = True
        self.mixed = self.mixed or tail[:1] in _MIXED
        # a fraction without a whole part begins with the space strip() takes off
        self.whole = max(self.whole, len(whole) - (not whole and tail[:1] == " "))
        self.tail = max(self.tail, len(tail))

    @property
    def width(self) -> int:
        if not self.mixed:
            return self.plain
        return max(self.other, self.whole + self.tail if self.numbers else 0)


def _split(whole: str, tail: str) -> tuple[str, str]:
    if tail[:1].isdigit():  # a fraction without a whole part: 2/7 under the 2/7 of 5 2/7
        tail = " " + tail
    return whole, tail


class LongTable:
    """Rows written to ``spool`` as they come (:meth:`row`, each distinct part measured once
    with :meth:`measure`), drawn by :meth:`lines`.  ``broken``: a cell the spool cannot
    hold (a separator or a line break): the caller draws the table another way."""

    def __init__(self, head: list[str], colalign: Sequence[str], spool: IO[str]) -> None:
        self.head, self.align, self.spool = head, list(colalign), spool
        self.lefts = tuple(a == "left" for a in self.align)
        self.rights = {i: _Right() for i, a in enumerate(self.align) if a == "right"}
        self.widths = [0] * len(self.align)
        #: the widest first cell (a writer of rows may set it: ``row`` written out)
        self.first = 0
        #: a cell tabulate reads more of than its characters (grid then goes its way)
        self.special = bool(_SPECIAL.search("\t".join(head)))
        self.broken = False
        #: a cell with spaces around it (grid strips them)
        self.spaced = False
        #: a character not one column wide for wcwidth (tabulate, measuring by it when it
        #: is installed, then draws the table its own way): the glyphs of numbers, the
        #: padding and the headers looked at from the start
        self.wide = _wide_chars() and not _narrow("".join([*head, *VULGAR.values(), PAD]))
        self.buffer: list[str] = []

    def measure(self, cells: Sequence[str], start: int = 0) -> None:
        """Measure cells of a row, the first in column ``start``."""
        for i, cell in enumerate(cells, start):
            if SEP in cell or "\n" in cell or "\r" in cell:
                self.broken = True
            if _SPECIAL.search(cell):
                self.special = True
            if cell != cell.strip():
                self.spaced = True
            if not cell.isascii() and not self.wide and _wide_chars() and not _narrow(cell):
                self.wide = True
            right = self.rights.get(i)
            if right is not None:
                right.measure(cell)
            else:
                self.widths[i] = max(self.widths[i], len(cell.strip()))

    def number(self, i: int, plain: int, whole: int, tail: int) -> None:
        """Measure a number written as ``view.show`` writes one in right-aligned column
        ``i``: ``plain`` characters, its whole part ``whole`` wide and what follows the
        units ``tail`` (``_Right.measure`` of its text, without reading it again)."""
        right = self.rights[i]
        right.numbers = True
        if plain > right.plain:
            right.plain = plain
        if whole > right.whole:
            right.whole = whole
        if tail:
            right.mixed = True
            if tail > right.tail:
                right.tail = tail

    def row(self, first: str, rest: str) -> None:
        """A row: its first cell (a plain number: nothing to line up, nothing special)
        and the others as one text, joined by ``SEP`` and measured."""
        if len(first) > self.first:
            self.first = len(first)
        buffer = self.buffer
        buffer.append(f"{first}{SEP}{rest}\n")
        if len(buffer) >= BATCH:
            self.flush()

    def flush(self) -> None:
        """The rows buffered written to the spool."""
        self.spool.write("".join(self.buffer))
        self.buffer.clear()

    def _widths(self) -> list[int]:
        widths = list(self.widths)
        for i, right in self.rights.items():
            widths[i] = right.width
        widths[0] = max(widths[0], self.first)
        return [max(w, len(h) + 2) for w, h in zip(widths, self.head, strict=True)]

    def lines(self) -> Iterator[str]:
        """The table's text, a line at a time (each with its newline)."""
        from pulyacalc.render.view import WIDTH

        self.flush()
        self.spool.seek(0)
        widths = self._widths()
        fits = WIDTH[0] is None or sum(widths) + 2 * (len(widths) - 1) <= WIDTH[0]
        if not fits and not self.special and not self.wide and WIDTH[0] is not None:
            from pulyacalc.render.longtable_fit import fitted_lines

            # fitted to the width as grid fits it, row by row (render/longtable_fit.py)
            fitted = fitted_lines(self.spool, self.head, self.align, WIDTH[0], self._aligners(), SEP)
            if fitted is not None:
                yield from fitted
                return
            self.spool.seek(0)
        # tabulate measuring characters by their width on a terminal (wcwidth installed)
        # draws a character not one column wide its own way
        if not fits or self.special or self.wide:
            rows = [line.rstrip("\n").split(SEP) for line in self.spool]
            yield grid(rows, self.head, self.align, "simple") + "\n"
            return
        fmt = "  ".join(f"%{'-' if left else ''}{w}s" for w, left in zip(widths, self.lefts, strict=True))
        yield (fmt % tuple(self.head)).rstrip() + "\n"
        yield "  ".join("-" * w for w in widths).rstrip() + "\n"
        # the first column right-aligned as a number, the rest drawn once per distinct text
        assert not self.lefts[0] and 0 not in [i for i, r in self.rights.items() if r.mixed]
        rest = _Rest(self, widths)
        first = widths[0]
        out: list[str] = []
        for line in self.spool:
            number, _, cells = line.partition(SEP)
            drawn = rest.get(cells)
            if drawn is None:
                drawn = rest.draw(cells)
            out.append(number.rjust(first) + drawn if drawn else number.rjust(first).rstrip())
            if len(out) >= BATCH:
                yield "\n".join(out) + "\n"
                out.clear()
        if out:
            yield "\n".join(out) + "\n"

    def _aligners(self) -> dict[int, Callable[[str], str]]:
        """How grid's body holds each right-aligned column's cells: the units of its numbers
        aligned (:func:`formats._units_aligned`, not stripped)."""
        return {i: _Aligned(r.tail, raw=True) for i, r in self.rights.items() if r.mixed}


def _narrow(text: str) -> bool:
    """Whether wcwidth (installed) takes each character of ``text`` for one column, as
    ``len`` does: tabulate measuring by it draws such cells as by ``len``."""
    from wcwidth import wcwidth  # type: ignore[import-not-found]  # (only when installed)

    for c in set(text):
        known = _NARROW.get(c)
        if known is None:
            known = _NARROW[c] = wcwidth(c) == 1
        if not known:
            return False
    return True


#: :func:`_narrow` of each character asked of (as few as a log has)
_NARROW: dict[str, bool] = {}


class _Rest:
    """The cells of a row after its first, drawn (with the two spaces before them, the
    line's end stripped, the padding made spaces), remembered per text (bounded)."""

    def __init__(self, table: LongTable, widths: list[int]) -> None:
        lefts = table.lefts[1:]
        self.fmt = "".join(f"  %{'-' if left else ''}{w}s" for w, left in zip(widths[1:], lefts, strict=True))
        self.aligned = [(i - 1, _Aligned(r.tail)) for i, r in table.rights.items() if r.mixed]
        self.spaced = table.spaced
        self.known: dict[str, str] = {}
        self.get = self.known.get

    def draw(self, text: str) -> str:
        cells = text[:-1].split(SEP)
        for i, a in self.aligned:
            cells[i] = a(cells[i])
        drawn = (self.fmt % tuple([c.strip() for c in cells] if self.spaced else cells)).rstrip()
        drawn = drawn.replace(PAD, " ")
        if len(self.known) > 20_000:
            self.known.clear()
        self.known[text] = drawn
        return drawn


class _Aligned:
    """A right-aligned cell with what follows its units padded to ``width`` (as
    :func:`formats._units_aligned` writes it), remembered per cell (bounded)."""

    def __init__(self, width: int, raw: bool = False) -> None:
        self.width, self.raw = width, raw
        self.known: dict[str, str] = {}

    def __call__(self, cell: str) -> str:
        done = self.known.get(cell)
        if done is None:
            done = self._plain(cell)
            if done is None:
                m = _NUMBER.fullmatch(cell)
                if m is None or not m.group(0) or m.group(0) in "+-−":
                    done = cell
                else:
                    whole, tail = _split(m.group(1), m.group(2) or "")
                    done = whole + tail.ljust(self.width, PAD)
                    # (grid's body keeps the space before a fraction without a whole part)
                    done = done if self.raw else done.strip()
            if len(self.known) > 20_000:
                self.known.clear()
            self.known[cell] = done
        return done

    def _plain(self, cell: str) -> str | None:
        """The cell aligned without the pattern where it is a number ``show`` writes in
        plain digits (12, -46⅔, +1.50: what follows the units is nothing, the glyph, or
        the cents), else None (the pattern decides)."""
        body = cell[1:] if cell[:1] in ("+", "-", "−") else cell
        if not body.isascii():
            if body[-1:] in _GLYPHS and (body[:-1].isdigit() and body[:-1].isascii() or not body[:-1]):
                return cell + PAD * (self.width - 1)
            return None
        if body.isdigit():
            return cell + PAD * self.width
        whole, dot, cents = body.partition(".")
        if dot and cents.isdigit() and (whole.isdigit() or not whole):
            return cell + PAD * (self.width - 1 - len(cents))
        return None


#: the fractions :func:`pulyacalc.core.amounts.mixed` writes as one character
_GLYPHS = frozenset(VULGAR.values())
