"""A long table fitted to a width (``COLUMNS``, a terminal) in flat memory, in the very
bytes :func:`pulyacalc.render.formats.grid` gives the whole table.

grid fits a wide table in steps (:func:`formats.fit_plan`): headers broken at their
spaces, long text wrapped, columns stacked in parts; each step draws the table with
tabulate and looks at its widest line.  Every width it looks at is the widest of some
cells of a column, so the few rows that hold those widest cells (as they are, stripped,
and wrapped to the width step 2 gives) stand for the whole table: grid fitting them
decides as for all, and draws the headers and the widths.  Every row is then drawn as
tabulate draws a row of a ``simple`` table (each cell stripped, wrapped, its lines padded
to the column's width, the lines of a row topped up with blanks, cells two spaces apart,
each line's end cut) — checked first on the rows grid drew: where they differ, or a cell
holds what tabulate reads otherwise, None is given and the caller draws the whole table.
tests/test_ledger_stream.py holds both ways to the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial
from operator import gt
from typing import Any, Protocol

from pulyacalc.render.formats import PAD, FitPlan, _part, _tabulate, _widest, cell_wrapper, direct, fit_plan


class Rows(Protocol):
    """The table's rows, read again from the start after each ``seek(0)``."""

    def seek(self, at: int) -> object: ...

    def __iter__(self) -> Iterator[str]: ...


#: what ``str.splitlines`` breaks at besides a line break (tabulate splits cells so)
_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
#: distinct cells remembered (wrapped, drawn), bounded; and of each column drawn
KNOWN = 50_000
CELLS = 8192


class _Wrap:
    """A cell wrapped to ``width`` as tabulate wraps it (its own wrapper), remembered."""

    def __init__(self, width: int) -> None:
        self.wrap = cell_wrapper(width)
        self.known: dict[str, str] = {}

    def __call__(self, cell: str) -> str:
        done = self.known.get(cell)
        if done is None:
            done = "\n".join(self.wrap(cell))
            if len(self.known) > KNOWN:
                self.known.clear()
            self.known[cell] = done
        return done


def fitted_lines(
    spool: Rows,
    head: list[str],
    align: list[str],
    width: int,
    aligners: dict[int, Callable[[str], str]],
    sep: str,
) -> Iterator[str] | None:
    """The table of the rows in ``spool`` (each its cells joined by ``sep``; ``aligners``
    make a column's cells as grid's body holds them, the units aligned) fitted to
    ``width``, a line at a time; None where it cannot be drawn so (the caller draws it
    whole)."""
    ncols = len(head)

    def cells_of(line: str) -> list[str]:
        cells = line.rstrip("\n").split(sep)
        for i, a in aligners.items():
            cells[i] = a(cells[i])
        return cells

    # each column's widest cell as it is and stripped, and a row that holds it
    sizes, rows = [-1] * (2 * ncols), [[""] * ncols] * (2 * ncols)
    seen: set[str] = set()  # the rows' texts after the first cell (a number) looked at
    spool.seek(0)
    for line in spool:
        number, _, rest = line.partition(sep)
        if rest in seen:  # the same cells but the number's: only it may be wider
            if len(number) <= sizes[0] and len(number.strip()) <= sizes[ncols]:
                continue
        elif _BREAKS.search(line):
            return None
        cells = cells_of(line)
        if len(cells) != ncols:
            return None
        if len(seen) > KNOWN:
            seen.clear()
        seen.add(rest)
        now = [*map(len, cells), *(len(c.strip()) for c in cells)]
        if any(map(gt, now, sizes)):  # (seldom, once the first rows are read)
            for k, size in enumerate(now):
                if size > sizes[k]:
                    sizes[k], rows[k] = size, cells
    few = _unique(rows) if sizes[0] >= 0 else []

    def wrapped(wraps: dict[int, _Wrap]) -> list[list[str]] | None:
        more = Wrapped(wraps)
        seen.clear()
        spool.seek(0)
        for line in spool:
            rest = line.partition(sep)[2]
            if rest in seen:  # the wrapped columns are not the first
                continue
            if len(seen) > KNOWN:
                seen.clear()
            seen.add(rest)
            # (the wrapped columns are not aligned)
            if not more.look(line.rstrip("\n").split(sep), partial(cells_of, line)):
                return None
        return more.rows()

    got = fitted_plan(few, head, align, width, wrapped)
    if got is None:
        return None
    few, plan, wraps = got
    # each part's headers as grid drew them for ``few``, then every row drawn
    drawers = part_drawers(head, align, few, plan, wraps, aligners)
    return None if drawers is None else _lines(spool, drawers, sep)


def fitted_plan(
    few: list[list[str]],
    head: list[str],
    align: list[str],
    width: int,
    wrapped: Callable[[dict[int, _Wrap]], list[list[str]] | None],
) -> tuple[list[list[str]], FitPlan, dict[int, _Wrap]] | None:
    """How grid fits the table ``few`` (the rows that hold each column's widest cells)
    stand for: the rows, with those ``wrapped`` gives for the columns it wraps (None: it
    cannot be fitted so), the plan and the wrapping; None where it fits as it is."""
    if (
        not few
        or _widest(direct(few, head, align, "simple") or _tabulate(few, head, align, "simple", None, None))
        <= width
    ):
        return None  # (grid draws what fits as it is: the caller knows it does not)
    plan = fit_plan(few, head, align, "simple", None, width, "")
    wraps = {i: _Wrap(w) for i, w in enumerate(plan.limits or []) if w is not None}
    if wraps:  # the rows with the widest cell wrapped, and one that wraps, of each such column
        more = wrapped(wraps)
        if more is None:
            return None
        few = _unique(few + more)
        again = fit_plan(few, head, align, "simple", None, width, "")
        if (again.limits, again.heads) != (plan.limits, plan.heads):
            return None
        plan = again
    return few, plan, wraps


class Wrapped:
    """Of each wrapped column the row with the widest line wrapped, and one that wraps."""

    def __init__(self, wraps: dict[int, _Wrap]) -> None:
        self.wraps = wraps
        self.more: dict[int, tuple[int, list[str]]] = {}

    def look(self, texts: list[str], cells: Callable[[], list[str]]) -> bool:
        """A row (its cells as written; ``cells``: as grid's body holds them) looked at;
        False where a wrapped cell reads ``True`` or ``False``."""
        more = self.more
        if any(texts[i] in ("True", "False") for i in self.wraps):
            return False  # tabulate reads such a cell as a boolean (and cannot wrap it)
        for i, wrap in self.wraps.items():
            lines = wrap(texts[i]).split("\n")
            size = max(map(len, lines))
            if i not in more or size > more[i][0]:
                more[i] = (size, cells())
            if len(lines) > 1 and -i - 1 not in more:
                more[-i - 1] = (0, cells())
        return True

    def rows(self) -> list[list[str]]:
        return [m[1] for m in self.more.values()]


def _unique(rows: list[list[str]]) -> list[list[str]]:
    """The rows, each once (in the order first given)."""
    out: dict[int, list[str]] = {}
    for r in rows:
        out.setdefault(id(r), r)
    return list(out.values())


def part_drawers(
    head: list[str],
    align: list[str],
    few: list[list[str]],
    plan: FitPlan,
    wraps: dict[int, _Wrap],
    aligners: dict[int, Callable[[str], str]],
) -> list[tuple[list[str], _Row]] | None:
    """Each part's headers as grid drew them for ``few``, and how it draws a row (checked
    on ``few`` against grid's lines); None where they differ."""
    parts = plan.parts or [list(range(len(head)))]
    drawers = []
    for part in parts:
        if plan.parts is None:
            text = plan.text
        else:
            text = _part(few, head, align, "simple", plan.limits or [None] * len(head), plan.heads, part)
        lines = text.split("\n")
        rule = next((k for k, t in enumerate(lines) if t and set(t) <= {"-", " "}), None)
        if rule is None:
            return None
        widths = [len(d) for d in lines[rule].split("  ")]
        if len(widths) != len(part):
            return None
        mine = {i: w for i, w in wraps.items() if i in part}
        # tabulate draws every row line by line when a header or a cell has many lines
        multiline = rule > 1 or any("\n" in w(cells[i]) for cells in few for i, w in mine.items())
        draw = _Row(part, widths, [align[i] for i in part], mine, multiline, aligners)
        body = [t for cells in few for t in draw(cells, aligned=True)]
        if body != lines[rule + 1 :]:
            return None
        drawers.append((lines[: rule + 1], draw))
    return drawers


def _lines(spool: Rows, drawers: list[tuple[list[str], _Row]], sep: str) -> Iterator[str]:
    """Each part: its headers, then its rows; a row's lines after its first cell (a plain
    number, on the row's first line) drawn once per distinct text (bounded)."""
    for k, (head, draw) in enumerate(drawers):
        yield ("\n" if k else "") + "\n".join(head) + "\n"
        spool.seek(0)
        out: list[str] = []
        known: dict[str, list[str]] = {}
        first = draw.widths[0]
        blank = " " * first
        for line in spool:
            number, _, rest = line.partition(sep)
            tails = known.get(rest)
            if tails is None:
                tails = draw.tails(line.rstrip("\n").split(sep))
                if len(known) > KNOWN:
                    known.clear()
                known[rest] = tails
            lead = number.rjust(first)
            for tail in tails:
                out.append(lead + tail if tail else lead.rstrip())
                lead = blank
            if len(out) >= 2048:
                yield "\n".join(out) + "\n"
                out.clear()
        if out:
            yield "\n".join(out) + "\n"


class _Row:
    """A row's lines as tabulate draws them in a ``simple`` table of these columns: each
    cell's lines drawn once per distinct text of its column (bounded)."""

    def __init__(
        self,
        part: list[int],
        widths: list[int],
        align: list[str],
        wraps: dict[int, _Wrap],
        multiline: bool,
        aligners: dict[int, Callable[[str], str]],
    ) -> None:
        self.widths, self.multiline = widths, multiline
        #: each column: where in the row, its width, right-aligned, its wrapping, its
        #: aligner, and its cells drawn (by their text in the spool)
        self.columns: list[tuple[int, int, bool, _Wrap | None, Callable[[str], str] | None, dict[str, Any]]]
        self.columns = [
            (i, w, a == "right", wraps.get(i), aligners.get(i), {})
            for i, w, a in zip(part, widths, align, strict=True)
        ]
        self.blank = [" " * w for w in widths]

    def __call__(self, cells: list[str], aligned: bool = False) -> list[str]:
        """The row's lines (``aligned``: its cells as grid's body holds them already)."""
        return ["  ".join(r).rstrip().replace(PAD, " ") for r in self._cells(cells, aligned)]

    def tails(self, cells: list[str]) -> list[str]:
        """The row's lines after the first column (a plain number, one line): each with
        the two spaces before it, its end cut ("" where nothing is left)."""
        out = []
        for r in self._cells(cells, False):
            tail = ("  " + "  ".join(r[1:])).rstrip()
            out.append(tail.replace(PAD, " ") if tail else "")
        return out

    def _cells(self, cells: list[str], aligned: bool) -> list[list[str]]:
        """The row's lines, each a list of its cells padded: the first, then (a row of
        many lines) blanks but where a cell has more lines."""
        first: list[str] = []
        more: list[tuple[int, list[str]]] = []
        empty = True
        for j, (i, w, right, wrap, aligner, known) in enumerate(self.columns):
            cell = cells[i]
            drawn = None if aligned else known.get(cell)
            if drawn is None:
                text = cell if aligned or aligner is None else aligner(cell)
                drawn = self._drawn(text, w, right, wrap)
                if not aligned:
                    if len(known) > CELLS:
                        known.clear()
                    known[cell] = drawn
            line, lines = drawn
            if lines:
                more.append((j, lines))
            empty = empty and not line.strip()
            first.append(line)
        if empty and self.multiline:  # no cell has a line: nor has the row
            return []
        rows = [first]
        for k in range(max((len(lines) for _, lines in more), default=0)):
            row = list(self.blank)
            for j, lines in more:
                if k < len(lines):
                    row[j] = lines[k]
            rows.append(row)
        return rows

    def _drawn(self, cell: str, w: int, right: bool, wrap: _Wrap | None) -> tuple[str, list[str]]:
        """A cell's first line padded, and its other lines padded."""
        cell = (cell if wrap is None else wrap(cell)).strip()
        lines = cell.splitlines() if "\n" in cell and self.multiline else [cell]
        padded = [p.rjust(w) if right else p.ljust(w) for p in lines]
        return padded[0], padded[1:]
