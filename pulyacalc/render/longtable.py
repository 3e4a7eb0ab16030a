"""A ``simple`` table too long to hold (``ledger`` of a long log): its rows go to a spool as
they come, each column measured on the way, and the table is drawn at the end in the very
bytes :func:`pulyacalc.render.formats.grid` gives — the units of a right-aligned column's
numbers under each other, the layout of :func:`pulyacalc.render.formats.direct`.  Where
grid does more (a width to fit, escape sequences or line breaks, characters tabulate
measures by their width on a terminal) the rows are read back and given to grid itself.
tests/test_ledger_stream.py holds both to the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from operator import mod
from typing import IO, Any

from pulyacalc.core.amounts import VULGAR
from pulyacalc.render.formats import _MIXED, _NUMBER, _SPECIAL, PAD, _wide_chars, grid
from pulyacalc.render.remembered import looked_up

#: between the cells of a row in the spool
SEP = "\x1f"
#: rows written to the spool, and lines given, at a time
BATCH = 2048
#: the line before a block of rows written column by column (``LongTable.block``)
BLOCK = "\x1e"


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
        #: the rows' cells after their first, each distinct one once: a row in the spool is
        #: its first cell, the index of its cells here and (a deal's) its values
        self.templates: list[list[str]] = []
        #: whether a template's cells take the row's values
        self.valued: list[bool] = []
        #: the columns a row's values go to (the rest of its cells are its template's)
        self.slots: tuple[int, ...] = ()
        #: draw the rows in two processes (render/halves.py), and where each block of rows
        #: starts in the spool (kept for it)
        self.apart = False
        self.marks: list[int] = []
        #: value columns whose every value is a number with this many characters after its
        #: units (money: ``.xx``), never blank: where that is the column's widest, a value
        #: is drawn as it is, right-aligned (``_Aligned`` adds nothing)
        self.tails: dict[int, int] = {}

    def template(self, cells: list[str], valued: bool) -> str:
        """Keep a row's cells after its first (measured; a value's cell is a blank the
        row fills), and give the index a row in the spool names them by."""
        self.templates.append(cells)
        self.valued.append(valued)
        return str(len(self.templates) - 1)

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

    def row(self, first: str, cells: list[str]) -> None:
        """A row without values: its first cell (a plain number: nothing to line up,
        nothing special) and the others, measured."""
        if len(first) > self.first:
            self.first = len(first)
        buffer = self.buffer
        buffer.append(f"{first}{SEP}{self.template(cells, False)}\n")
        if len(buffer) >= BATCH:
            self.flush()

    def block(self, numbers: list[int], keys: list[str], values: list[list[str]]) -> None:
        """Rows of deals with values, written column by column: a line ``BLOCK``, then
        a line of their numbers, one of their templates, and one per value column."""
        self.flush()  # (rows before them first)
        if self.apart:
            self.marks.append(self.spool.tell())
        columns = [SEP.join(map(str, numbers)), SEP.join(keys), *map(SEP.join, values)]
        self.spool.write(f"{BLOCK}\n" + "\n".join(columns) + "\n")

    def items(
        self, start: int = 0, blocks: int | None = None, spool: IO[str] | None = None
    ) -> Iterator[tuple[str, Any]]:
        """The spool read from ``start`` (its start, or where a block starts: ``marks``):
        ``("row", line)`` for a row kept whole, and ``("block", columns)`` for a block (its
        numbers, templates, and value columns); ``blocks``: up to the block after that many.
        ``spool``: the spool's file opened anew (render/halves.py)."""
        spool = spool or self.spool
        spool.seek(start)
        n = 2 + len(self.slots)
        for line in spool:
            if line[0] == BLOCK:
                if blocks is not None:
                    if not blocks:
                        return
                    blocks -= 1
                yield "block", [next(spool)[:-1].split(SEP) for _ in range(n)]
            else:
                yield "row", line

    def expanded(self, line: str) -> str:
        """A row of the spool with all its cells (joined by ``SEP``, the line break kept)."""
        number, _, rest = line.partition(SEP)
        k, _, values = rest.partition(SEP)
        cells = self.templates[int(k)]
        if self.valued[int(k)]:
            cells = list(cells)
            for i, v in zip(self.slots, values[:-1].split(SEP), strict=True):
                cells[i - 1] = v
        return f"{number}{SEP}{SEP.join(cells)}\n"

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
            from pulyacalc.render.longtable_blocks import fitted_block_lines
            from pulyacalc.render.longtable_fit import fitted_lines

            # fitted to the width as grid fits it, row by row (render/longtable_fit.py), a
            # block of deals at a time (render/longtable_blocks.py)
            fitted = None
            if self.slots:
                fitted = fitted_block_lines(self, self.head, self.align, WIDTH[0], self._aligners())
            if fitted is not None:
                yield from fitted
                return
            # the rows with all their cells written out once (the fitting reads them again
            # and again)
            with _written(_Full(self)) as full:
                fitted = fitted_lines(full, self.head, self.align, WIDTH[0], self._aligners(), SEP)
                if fitted is not None:
                    yield from fitted
                    return
        # tabulate measuring characters by their width on a terminal (wcwidth installed)
        # draws a character not one column wide its own way
        if not fits or self.special or self.wide:
            rows = [line.rstrip("\n").split(SEP) for line in _Full(self)]
            yield grid(rows, self.head, self.align, "simple") + "\n"
            return
        fmt = "  ".join(f"%{'-' if left else ''}{w}s" for w, left in zip(widths, self.lefts, strict=True))
        yield (fmt % tuple(self.head)).rstrip() + "\n"
        yield "  ".join("-" * w for w in widths).rstrip() + "\n"
        # the first column right-aligned as a number, the rest drawn once per template,
        # a value once per distinct text of its column
        assert not self.lefts[0] and 0 not in [i for i, r in self.rights.items() if r.mixed]
        draw = partial(_drawn_rows, self, widths)
        if self.apart:
            from pulyacalc.render.halves import in_halves

            yield from in_halves(self, draw)
        else:
            yield from draw(self.items())

    def _aligners(self) -> dict[int, Callable[[str], str]]:
        """How grid's body holds each right-aligned column's cells: the units of its numbers
        aligned (:func:`formats._units_aligned`, not stripped)."""
        return {i: _Aligned(r.tail, raw=True) for i, r in self.rights.items() if r.mixed}


def _drawn_rows(table: LongTable, widths: list[int], items: Iterator[tuple[str, Any]]) -> Iterator[str]:
    """The rows of ``items`` drawn (``_Drawn``: its caches its own)."""
    drawn = _Drawn(table, widths)
    rows: list[list[str]] = []
    for kind, item in items:
        if kind == "block":
            if rows:
                yield drawn.rows(rows)
                rows = []
            yield drawn.block(item)
            continue
        rows.append(item[:-1].split(SEP))
        if len(rows) >= BATCH:
            yield drawn.rows(rows)
            rows = []
    if rows:
        yield drawn.rows(rows)


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


def _written(lines: Iterable[str]) -> IO[str]:
    """The lines in a spool (memory, then a temporary file), read from the start."""
    import tempfile

    # (closed by the caller's ``with``)
    spool = tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8")  # noqa: SIM115
    buffer: list[str] = []
    for line in lines:
        buffer.append(line)
        if len(buffer) >= BATCH:
            spool.write("".join(buffer))
            buffer.clear()
    spool.write("".join(buffer))
    spool.seek(0)
    return spool


class _Full:
    """The spool's rows with all their cells (``LongTable.expanded``), read again from the
    start after each ``seek(0)`` (for grid and the fitting, which read cells)."""

    def __init__(self, table: LongTable) -> None:
        self.table = table

    def seek(self, at: int) -> None:
        self.table.spool.seek(at)

    def __iter__(self) -> Iterator[str]:
        table = self.table
        spool = table.spool
        spool.seek(0)
        # a row without values: its number, and its template's cells joined (once each)
        joined: dict[str, str] = {}
        for line in spool:
            if line[0] == BLOCK:
                columns = [next(spool)[:-1].split(SEP) for _ in range(2 + len(table.slots))]
                for row in zip(*columns, strict=True):
                    yield table.expanded(SEP.join(row) + "\n")
                continue
            number, _, k = line.partition(SEP)
            rest = joined.get(k)
            if rest is None:
                if SEP in k or table.valued[int(k)]:
                    yield table.expanded(line)
                    continue
                rest = joined[k] = SEP + SEP.join(table.templates[int(k)]) + "\n"
            yield number + rest


class _Drawn:
    """A plain table's rows, in the bytes ``_Rest.draw`` gives the cells after the first:
    each template drawn once, with ``%s`` where its values go, and each value once per
    distinct text of its column (bounded); a batch of a valued table's deals is drawn
    column by column.  Pieces are drawn apart only where cutting the line's end cannot
    reach past the last one (a blank last cell): such a template's rows, and a row with
    a blank value at the line's end, are drawn whole, the old way."""

    def __init__(self, table: LongTable, widths: list[int]) -> None:
        self.table, self.rest, self.first = table, _Rest(table, widths), widths[0]
        self.cell = [f"  %{'-' if left else ''}{w}s" for w, left in zip(widths, table.lefts, strict=True)]
        self.aligned = {i: _Aligned(r.tail) for i, r in table.rights.items() if r.mixed}
        self.last = len(widths) - 1
        #: each template drawn (by its index in the spool): its text, values as ``%s``
        #: (None: its rows drawn whole)
        self.known: dict[str, str | None] = {}
        #: of each template with values: its text after the row's number, as ``%s``
        self.formats: dict[str, str] = {}
        #: each value column's texts drawn (None: the row drawn whole)
        self.values: dict[int, dict[str, str | None]] = {i: {} for i in table.slots}
        self.bound = VALUES // max(1, len(table.slots))
        #: value columns drawn as they are (``LongTable.tails``): by the cell's format
        self.direct = {
            i
            for i, tail in table.tails.items()
            if i in table.rights  # (right-aligned: nothing after it for a line's cut)
            and (i not in self.aligned or (table.rights[i].tail == tail and not table.spaced))
        }

    def _piece(self, i: int, cell: str) -> str:
        """Cell ``i`` as ``_Rest.draw`` draws it (the padding not yet made spaces)."""
        a = self.aligned.get(i)
        cell = cell if a is None else a(cell)
        return self.cell[i] % (cell.strip() if self.table.spaced else cell)

    def template(self, k: str) -> str | None:
        """Template ``k`` drawn: its text with ``%s`` where its values go; None where a
        line's cut could pass its blank end."""
        t = self.table
        cells, valued = t.templates[int(k)], t.valued[int(k)]
        slots = t.slots if valued else ()
        pieces = [
            (self.cell[i] if i in self.direct else "%s")
            if i in slots
            else self._piece(i, c).replace("%", "%%")
            for i, c in enumerate(cells, 1)
        ]
        tail = len(pieces) - (max(slots) if slots else 0)  # the pieces after the last value
        end = "".join(pieces[len(pieces) - tail :])
        got = None
        if not (slots and tail and not end.rstrip()):
            got = ("".join(pieces[: len(pieces) - tail]) + end.rstrip()).replace(PAD, " ")
            if valued:
                self.formats[k] = f"%{self.first}s" + got
        self.known[k] = got
        return got

    def value(self, i: int, v: str) -> str | None:
        """Value ``v`` of column ``i`` drawn (remembered; a column drawn as it is: ``v``);
        None where a line's cut could pass it (blank at the line's end)."""
        if i in self.direct:
            return v
        piece = self._piece(i, v)
        got = None
        if i != self.last or piece.rstrip():
            got = (piece.rstrip() if i == self.last else piece).replace(PAD, " ")
        return got

    def _values(self, i: int, new: list[str]) -> list[str | None]:
        return [self.value(i, v) for v in new]

    def block(self, columns: list[list[str]]) -> str:
        """A block of deals with values drawn column by column (their templates and
        values drawn apart), else row by row."""
        numbers, keys, *values = columns
        formats = list(map(self.formats.get, keys))
        if None in formats:
            for k in set(keys) - self.formats.keys():
                if k not in self.known:
                    self.template(k)
            formats = list(map(self.formats.get, keys))
            if None in formats:
                return self.rows(list(map(list, zip(*columns, strict=True))))
        texts: list[list[str] | list[str | None]] = []
        for i, column in zip(self.table.slots, values, strict=True):
            if i in self.direct:
                texts.append(column)
                continue
            got = looked_up(self.values[i], column, partial(self._values, i), self.bound)
            if None in got:
                return self.rows(list(map(list, zip(*columns, strict=True))))
            texts.append(got)
        return "\n".join(map(mod, formats, zip(numbers, *texts, strict=True))) + "\n"

    def rows(self, rows: list[list[str]]) -> str:
        """Rows of the spool (split at ``SEP``) drawn one by one."""
        out = []
        first, slots = self.first, self.table.slots
        for known in self.values.values():
            if len(known) > self.bound:
                known.clear()
        for cells in rows:
            k = cells[1]
            text = self.known[k] if k in self.known else self.template(k)
            if text is not None and len(cells) > 2:
                values = [
                    self.values[i].get(v) or self.values[i].setdefault(v, self.value(i, v))
                    for i, v in zip(slots, cells[2:], strict=True)
                ]
                text = None if None in values else text % tuple(values)
            if text is None:  # drawn whole, the old way
                rest = self.table.expanded(SEP.join(cells) + "\n").partition(SEP)[2]
                text = self.rest.get(rest) or self.rest.draw(rest)
            number = cells[0]
            out.append(number.rjust(first) + text if text else number.rjust(first).rstrip())
        return "\n".join(out) + "\n"


#: distinct values remembered drawn, of all the value columns together (about 150 bytes
#: each: a long log's running totals take some 85,000 values in each column)
VALUES = 1_000_000


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
            if len(self.known) > ALIGNED:
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


#: cells an ``_Aligned`` remembers (a column's: a long log's running totals take some 100,000
#: values in each, met again when the table is fitted and drawn)
ALIGNED = 250_000

#: the fractions :func:`pulyacalc.core.amounts.mixed` writes as one character
_GLYPHS = frozenset(VULGAR.values())
