"""A long table of deals with values (``ledger --running``, a whist price) fitted to a width
in flat memory, a block of deals at a time, in the bytes render/longtable_fit.py gives row
by row (and so grid gives the whole table).

The spool keeps a deal as its template (the cells that come again and again) and its values
(``longtable.LongTable.block``).  The rows that stand for the table (each column's widest
cell, and the wrapped ones) are found from each template once and each distinct value of a
column once; each part of the table is then drawn per template once (its lines, values as
``%s``) and per distinct value of a column once, and a block's rows are put together column
by column.  Where this cannot be done so (a wrapped column of values, a blank at a line's
end that cutting the line would pass), None is given and the caller fits row by row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from operator import mod
from typing import IO, Any, Protocol

from pulyacalc.render.formats import PAD
from pulyacalc.render.halves import in_halves, second_half
from pulyacalc.render.longtable_fit import (
    _BREAKS,
    KNOWN,
    Wrapped,
    _Row,
    _unique,
    _Wrap,
    fitted_plan,
    part_drawers,
)
from pulyacalc.render.remembered import looked_up


class Table(Protocol):
    """What is read of a ``LongTable``."""

    templates: list[list[str]]
    slots: tuple[int, ...]
    #: drawn in two processes (render/halves.py): the spool, where each block starts in it
    apart: bool
    spool: IO[str]
    marks: list[int]

    def items(
        self, start: int = 0, blocks: int | None = None, spool: IO[str] | None = None
    ) -> Iterator[tuple[str, Any]]: ...

    def expanded(self, line: str) -> str: ...


def fitted_block_lines(
    table: Table, head: list[str], align: list[str], width: int, aligners: dict[int, Callable[[str], str]]
) -> Iterator[str] | None:
    """The table fitted to ``width``, a line at a time; None where it is not drawn so."""
    scan = _Scan(table, len(head), aligners)
    if not scan.read():
        return None
    few = _unique(scan.rows) if scan.sizes[0] >= 0 else []

    def wrapped(wraps: dict[int, _Wrap]) -> list[list[str]] | None:
        return None if set(wraps) & set(table.slots) else scan.wrapped(wraps)

    got = fitted_plan(few, head, align, width, wrapped)
    if got is None:
        return None
    few, plan, wraps = got
    drawers = part_drawers(head, align, few, plan, wraps, aligners)
    if drawers is None:
        return None
    return _lines(table, drawers)


#: what aligning adds to a cell at most besides its column's tail (``longtable._split``'s space)
_ALIGN = 1


class _Scan:
    """Each column's widest cell, as grid's body holds it and stripped, and a row that
    holds it (its cells as grid's body holds them): from each template's first row and
    each distinct value of a column."""

    def __init__(self, table: Table, ncols: int, aligners: dict[int, Callable[[str], str]]) -> None:
        self.table, self.ncols, self.aligners = table, ncols, aligners
        self.sizes = [-1] * (2 * ncols)
        self.rows: list[list[str]] = [[""] * ncols] * (2 * ncols)
        #: each template's first row: its cells as in the spool and as grid's body holds them
        self.first: dict[str, tuple[list[str], list[str]]] = {}
        #: the rows kept whole (the settlement's): their cells, both ways
        self.whole: list[tuple[list[str], list[str]]] = []
        #: each template's first row: its number and values (``first`` made from them)
        self.came: dict[str, tuple[str, list[str]]] = {}
        #: of each value column, the values looked at
        self.seen: list[set[str]] = [set() for _ in table.slots]

    def _aligned(self, cells: list[str]) -> list[str]:
        out = list(cells)
        for i, a in self.aligners.items():
            out[i] = a(out[i])
        return out

    def _look(self, cells: list[str], columns: Any) -> None:
        ncols, sizes = self.ncols, self.sizes
        for i in columns:
            cell = cells[i]
            for k, size in ((i, len(cell)), (ncols + i, len(cell.strip()))):
                if size > sizes[k]:
                    sizes[k], self.rows[k] = size, cells

    def _row(self, number: str, key: str, values: list[str]) -> tuple[list[str], list[str]]:
        cells = [number, *self.table.templates[int(key)]]
        for i, v in zip(self.table.slots, values, strict=True):
            cells[i] = v
        return cells, self._aligned(cells)

    def read(self) -> bool:
        """The table read; False where a cell holds a break tabulate splits at.  A table
        drawn in two processes is read so too (render/halves.py): its second half by a
        child, whose widest cells and templates' first rows are taken in after the first
        half's (as reading on would have found them)."""
        table = self.table
        half = second_half(table, self._other) if table.apart else None
        if half is None:
            return self._read(table.items())
        try:
            if not self._read(table.items(0, half.blocks)):
                return False
            got = half.result()
        finally:
            half.stop()
        if got is None:  # (the child failed: read here)
            return self._read(table.items(table.marks[half.blocks]))
        ok, sizes, rows, came, whole = got
        if not ok:
            return False
        for k, size in enumerate(sizes):
            if size > self.sizes[k]:
                self.sizes[k], self.rows[k] = size, rows[k]
        for key, (number, values) in came.items():
            if key not in self.first:
                self.first[key] = self._row(number, key, values)
        self.whole += whole
        return True

    def _other(self, items: Iterator[tuple[str, Any]]) -> tuple[Any, ...]:
        """(In the child) the items read by a scan of their own: what it found."""
        other = _Scan(self.table, self.ncols, self.aligners)
        ok = other._read(items)
        return ok, other.sizes, other.rows, other.came, other.whole

    def _read(self, items: Iterator[tuple[str, Any]]) -> bool:
        table, ncols = self.table, self.ncols
        slots = table.slots
        fixed = [i for i in range(1, ncols) if i not in slots]
        seen = self.seen
        for kind, item in items:
            if kind == "row":
                line = table.expanded(item)
                cells = line.rstrip("\n").split("\x1f")
                if _BREAKS.search(line) or len(cells) != ncols:
                    return False
                self.whole.append((cells, self._aligned(cells)))
                self._look(self.whole[-1][1], range(ncols))
                continue
            numbers, keys, *values = item
            for r, key in enumerate(keys):
                if key not in self.first:
                    came = self.came[key] = (numbers[r], [v[r] for v in values])
                    raw, cells = self.first[key] = self._row(came[0], key, came[1])
                    if _BREAKS.search("\x1f".join(raw)):
                        return False
                    self._look(cells, fixed)
            # the deals' numbers only grow: the last is the widest
            self._look(self._row(numbers[-1], keys[-1], [v[-1] for v in values])[1], (0,))
            for j, (i, column) in enumerate(zip(slots, values, strict=True)):
                new = set(column).difference(seen[j])
                if len(seen[j]) > VALUES:
                    seen[j].clear()
                seen[j].update(new)
                a = self.aligners.get(i)
                # an aligned cell is at most its text and the column's tail (and a space) long
                # (longtable._Aligned): a value that short cannot be the widest
                tail = 0 if a is None else getattr(a, "width", None)
                short = -1 if tail is None else min(self.sizes[i], self.sizes[ncols + i]) - tail - _ALIGN
                for v in new:
                    if len(v) <= short:
                        continue
                    cell = v if a is None else a(v)
                    if len(cell) > self.sizes[i] or len(cell.strip()) > self.sizes[ncols + i]:
                        r = column.index(v)
                        self._look(self._row(numbers[r], keys[r], [c[r] for c in values])[1], (i,))
        return True

    def wrapped(self, wraps: dict[int, _Wrap]) -> list[list[str]] | None:
        """Of each wrapped column the row with the widest line wrapped, and one that wraps
        (``longtable_fit.Wrapped``): from each template's first row and each row kept
        whole; None where such a cell reads ``True`` or ``False``."""
        more = Wrapped(wraps)
        for texts, cells in [*self.first.values(), *self.whole]:
            if not more.look(texts, _given(cells)):
                return None
        return more.rows()


def _given(cells: list[str]) -> Callable[[], list[str]]:
    return lambda: cells


def _lines(table: Table, drawers: list[tuple[list[str], _Row]]) -> Iterator[str]:
    """Each part: its headers, then its rows (a row kept whole as render/longtable_fit.py
    draws it, a block column by column)."""
    for k, (head, draw) in enumerate(drawers):
        yield ("\n" if k else "") + "\n".join(head) + "\n"
        drawn = partial(_part_lines, table, draw)
        if table.apart:
            yield from in_halves(table, drawn)
        else:
            yield from drawn(table.items())


def _part_lines(table: Table, draw: _Row, items: Iterator[tuple[str, Any]]) -> Iterator[str]:
    """A part's lines of the rows of ``items`` (``_Part``: its caches its own)."""
    part = _Part(table, draw)
    for kind, item in items:
        yield part.row(item) if kind == "row" else part.block(item)


class _Part:
    """A part's rows: each template's lines drawn once (its values as ``%s``), each value
    once per distinct text of its column (bounded)."""

    def __init__(self, table: Table, draw: _Row) -> None:
        self.table, self.draw = table, draw
        self.first = draw.widths[0]
        #: the part's value columns: (where in the table, where in the part)
        self.slots = [(i, j) for j, (i, *_) in enumerate(draw.columns) if i in table.slots and j]
        self.last = len(draw.columns) - 1
        self.formats: dict[str, str | None] = {}
        self.values: dict[int, dict[str, str | None]] = {i: {} for i, _ in self.slots}
        self.known: dict[str, list[str]] = {}

    def row(self, line: str) -> str:
        """A row kept whole, as render/longtable_fit.py draws it."""
        return self._drawn(self.table.expanded(line).rstrip("\n").split("\x1f"))

    def _drawn(self, cells: list[str]) -> str:
        rest = "\x1f".join(cells[1:])
        tails = self.known.get(rest)
        if tails is None:
            if len(self.known) > KNOWN:
                self.known.clear()
            tails = self.known[rest] = self.draw.tails(cells)
        lead, blank, out = cells[0].rjust(self.first), " " * self.first, []
        for tail in tails:
            out.append(lead + tail if tail else lead.rstrip())
            lead = blank
        return "".join(t + "\n" for t in out)

    def block(self, columns: list[list[str]]) -> str:
        """A block's rows, column by column; row by row where a piece cannot be drawn apart."""
        numbers, keys, *values = columns
        slots = self.table.slots
        formats = list(map(self.formats.get, keys))
        if None in formats:
            for k in set(keys).difference(self.formats):
                self.formats[k] = self._format(k)
            formats = list(map(self.formats.get, keys))
        texts = []
        for i, j in self.slots:
            column = values[slots.index(i)]
            texts.append(looked_up(self.values[i], column, partial(self._values, j), VALUES))
        if None in formats or any(None in t for t in texts):
            return "".join(
                self._drawn(self._cells(n, k, [v[r] for v in values]))
                for r, (n, k) in enumerate(zip(numbers, keys, strict=True))
            )
        return "\n".join(map(mod, formats, zip(numbers, *texts, strict=True))) + "\n"

    def _cells(self, number: str, key: str, values: list[str]) -> list[str]:
        cells = [number, *self.table.templates[int(key)]]
        for i, v in zip(self.table.slots, values, strict=True):
            cells[i] = v
        return cells

    def _format(self, key: str) -> str | None:
        """Template ``key``'s lines in this part: the row's number and its values as
        ``%s``; None where cutting a line's end could pass into a value."""
        cells = self._cells("", key, [""] * len(self.table.slots))
        slots = {i for i, _ in self.slots}
        draw = self.draw
        first: list[str | None] = []  # the first line's cells after the number (None: a value)
        more: list[tuple[int, list[str]]] = []
        for j, (i, w, right, wrap, aligner, _) in enumerate(draw.columns[1:], 1):
            if i in slots:
                first.append(None)
                continue
            line, lines = draw._drawn(cells[i] if aligner is None else aligner(cells[i]), w, right, wrap)
            if lines:
                more.append((j, lines))
            first.append(line)
        after = [p for p in first[max((k for k, p in enumerate(first) if p is None), default=-1) + 1 :]]
        if None in first and after and not "".join("  " + str(p) for p in after).rstrip():
            return None
        text = "".join("  " + ("%s" if p is None else p.replace("%", "%%")) for p in first).rstrip()
        out = [f"%{self.first}s" + text.replace(PAD, " ")]
        for k in range(max((len(lines) for _, lines in more), default=0)):
            row = list(draw.blank)
            for j, lines in more:
                if k < len(lines):
                    row[j] = lines[k]
            tail = ("  " + "  ".join(row[1:])).rstrip()
            out.append((" " * self.first + tail).replace(PAD, " ").replace("%", "%%") if tail else "")
        return "\n".join(out)

    def _values(self, j: int, new: list[str]) -> list[str | None]:
        """Values of the part's ``j``-th column drawn; None where one cannot be drawn apart
        (a blank at the line's end, many lines).  A cell of one line (each of a long log's
        running totals) is padded here, not by ``_Row._drawn``."""
        _, w, right, _, aligner, _ = self.draw.columns[j]
        last = j == self.last
        out: list[str | None] = []
        for v in new:
            cell = (v if aligner is None else aligner(v)).strip()
            if "\n" in cell:
                line, lines = self.draw._drawn(cell, w, right, None)
                if lines:
                    out.append(None)
                    continue
            else:
                line = cell.rjust(w) if right else cell.ljust(w)
            if last:
                line = line.rstrip()
                out.append(line.replace(PAD, " ") if line else None)
            else:
                out.append(line.replace(PAD, " "))
        return out


#: distinct values of a column remembered drawn (about 150 bytes each: a long log's running
#: totals take some 100,000 values in each column, each drawn once)
VALUES = 250_000
