"""The old long table's interface (templates of cells, blocks of values) over the one long
table, :class:`pulyacalc.render.table.LongTable`, for render/ledger_stream.py alone: both go
when the ledger is streamed through render/formats.write (issue #26, engineer ``ledger``).
Each row is written out whole and given to the one table, which measures, spools, fits and
draws it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import IO

from pulyacalc.render import table

#: between a row's number and its template's index in a line of ``buffer``
SEP = "\x1f"
#: lines the writer of rows buffers before it flushes them
BATCH = 2048


class LongTable:
    """Rows as render/ledger_stream.py gives them: a line ``number SEP template`` into
    ``buffer``, a row whole (:meth:`row`), or a block of deals with values (:meth:`block`)."""

    def __init__(self, head: list[str], colalign: Sequence[str], spool: IO[str]) -> None:
        self.table = table.LongTable(head, colalign)  # (which spools its rows itself)
        self.buffer: list[str] = []
        self.templates: list[list[str]] = []
        self.valued: list[bool] = []
        #: the columns a deal's values go to; what the old table was told besides (unused)
        self.slots: tuple[int, ...] = ()
        self.tails: dict[int, int] = {}
        self.apart = False
        self.first = 0
        #: the one table spools any cell: never broken
        self.broken = False

    def template(self, cells: list[str], valued: bool) -> str:
        self.templates.append(cells)
        self.valued.append(valued)
        return str(len(self.templates) - 1)

    def measure(self, cells: Sequence[str], start: int = 0) -> None:
        """(The one table measures each row as it is added.)"""

    def number(self, i: int, plain: int, whole: int, tail: int) -> None:
        """(The one table measures each row as it is added.)"""

    def flush(self) -> None:
        """The rows of ``buffer`` added to the table."""
        for line in self.buffer:
            number, _, k = line[:-1].partition(SEP)
            self.table.add([number, *self.templates[int(k)]])
        self.buffer.clear()

    def row(self, first: str, cells: list[str]) -> None:
        self.flush()
        self.table.add([first, *cells])

    def block(self, numbers: list[int], keys: list[str], values: list[list[str]]) -> None:
        self.flush()
        for r, (number, k) in enumerate(zip(numbers, keys, strict=True)):
            cells = [str(number), *self.templates[int(k)]]
            if self.valued[int(k)]:
                for i, column in zip(self.slots, values, strict=True):
                    cells[i] = column[r]
            self.table.add(cells)

    def lines(self) -> Iterator[str]:
        self.flush()
        try:
            yield from self.table.lines()
        finally:
            self.table.close()
