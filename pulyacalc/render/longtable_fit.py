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
from typing import IO

from pulyacalc.render.formats import PAD, FitPlan, _part, _tabulate, _widest, cell_wrapper, direct, fit_plan

#: what ``str.splitlines`` breaks at besides a line break (tabulate splits cells so)
_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
#: distinct cells remembered (wrapped, drawn), bounded
KNOWN = 50_000


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
    spool: IO[str],
    head: list[str],
    align: list[str],
    width: int,
    cells_of: Callable[[str], list[str]],
    sep: str,
) -> Iterator[str] | None:
    """The table of the rows in ``spool`` (``cells_of`` gives a row's cells as grid's
    body holds them, the units aligned; ``sep`` ends its first) fitted to ``width``, a
    line at a time; None where it cannot be drawn so (the caller draws it whole)."""
    ncols = len(head)
    widest: list[tuple[int, list[str]] | None] = [None] * (2 * ncols)
    seen: set[str] = set()  # the rows' texts after the first cell (a number) looked at
    spool.seek(0)
    for line in spool:
        number, _, rest = line.partition(sep)
        if rest in seen:  # the same cells but the number's: only it may be wider
            first, stripped = widest[0], widest[ncols]
            if (
                first is not None
                and stripped is not None
                and len(number) <= first[0]
                and len(number.strip()) <= stripped[0]
            ):
                continue
        elif _BREAKS.search(line):
            return None
        cells = cells_of(line)
        if len(cells) != ncols:
            return None
        if len(seen) > KNOWN:
            seen.clear()
        seen.add(rest)
        for i, cell in enumerate(cells):
            for k, size in ((i, len(cell)), (ncols + i, len(cell.strip()))):
                known = widest[k]
                if known is None or size > known[0]:
                    widest[k] = (size, cells)
    few = _unique([w[1] for w in widest if w is not None])
    if (
        not few
        or _widest(direct(few, head, align, "simple") or _tabulate(few, head, align, "simple", None, None))
        <= width
    ):
        return None  # (grid draws what fits as it is: the caller knows it does not)
    plan = fit_plan(few, head, align, "simple", None, width, "")
    wraps = {i: _Wrap(w) for i, w in enumerate(plan.limits or []) if w is not None}
    if wraps:  # the rows with the widest cell wrapped, and one that wraps, of each such column
        more: dict[int, tuple[int, list[str]]] = {}
        seen.clear()
        spool.seek(0)
        for line in spool:
            rest = line.partition(sep)[2]
            if rest in seen:  # the wrapped columns are not the first
                continue
            if len(seen) > KNOWN:
                seen.clear()
            seen.add(rest)
            cells = cells_of(line)
            for i, wrap in wraps.items():
                lines = wrap(cells[i]).split("\n")
                size = max(map(len, lines))
                if i not in more or size > more[i][0]:
                    more[i] = (size, cells)
                if len(lines) > 1 and -i - 1 not in more:
                    more[-i - 1] = (0, cells)
        few = _unique(few + [m[1] for m in more.values()])
        again = fit_plan(few, head, align, "simple", None, width, "")
        if (again.limits, again.heads) != (plan.limits, plan.heads):
            return None
        plan = again
    return _drawn(spool, head, align, few, plan, wraps, cells_of, sep)


def _unique(rows: list[list[str]]) -> list[list[str]]:
    """The rows, each once (in the order first given)."""
    out: dict[int, list[str]] = {}
    for r in rows:
        out.setdefault(id(r), r)
    return list(out.values())


def _drawn(
    spool: IO[str],
    head: list[str],
    align: list[str],
    few: list[list[str]],
    plan: FitPlan,
    wraps: dict[int, _Wrap],
    cells_of: Callable[[str], list[str]],
    sep: str,
) -> Iterator[str] | None:
    """Each part's headers as grid drew them for ``few``, then every row drawn."""
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
        draw = _Row(part, widths, [align[i] for i in part], mine, multiline)
        body = [t for cells in few for t in draw(cells)]
        if body != lines[rule + 1 :]:
            return None
        drawers.append((lines[: rule + 1], draw))
    return _lines(spool, drawers, cells_of, sep)


def _lines(
    spool: IO[str], drawers: list[tuple[list[str], _Row]], cells_of: Callable[[str], list[str]], sep: str
) -> Iterator[str]:
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
                tails = draw.tails(cells_of(line))
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
    """A row's lines as tabulate draws them in a ``simple`` table of these columns."""

    def __init__(
        self, part: list[int], widths: list[int], align: list[str], wraps: dict[int, _Wrap], multiline: bool
    ) -> None:
        self.widths, self.multiline = widths, multiline
        rights = [a == "right" for a in align]
        self.columns = list(zip(part, widths, rights, [wraps.get(i) for i in part], strict=True))
        self.blank = [" " * w for w in widths]

    def __call__(self, cells: list[str]) -> list[str]:
        """The row's lines."""
        return ["  ".join(r).rstrip().replace(PAD, " ") for r in self._cells(cells)]

    def tails(self, cells: list[str]) -> list[str]:
        """The row's lines after the first column (a plain number, one line): each with
        the two spaces before it, its end cut ("" where nothing is left)."""
        out = []
        for r in self._cells(cells):
            tail = ("  " + "  ".join(r[1:])).rstrip()
            out.append(tail.replace(PAD, " ") if tail else "")
        return out

    def _cells(self, cells: list[str]) -> list[list[str]]:
        """The row's lines, each a list of its cells padded: the first, then (a row of
        many lines) blanks but where a cell has more lines."""
        first: list[str] = []
        more: list[tuple[int, list[str]]] = []
        empty = True
        for j, (i, w, right, wrap) in enumerate(self.columns):
            cell = cells[i] if wrap is None else wrap(cells[i])
            cell = cell.strip()
            if "\n" in cell and self.multiline:
                lines = cell.splitlines()
                more.append((j, [p.rjust(w) if right else p.ljust(w) for p in lines[1:]]))
                cell = lines[0]
            empty = empty and not cell
            first.append(cell.rjust(w) if right else cell.ljust(w))
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
