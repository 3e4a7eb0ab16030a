"""The pulya as players draw it: each player's pool, mountain and whists as the running entries the paper
shows («нарастающим итогом», 2.4.10.14), with the deal that wrote each.

Entries are the fold's own, shown step by step to ``Marks`` (nothing kept per deal), or a typed paper's
``running:`` totals; a cell keeps its latest ``keep`` totals; render/sheet_svg.py only places them."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.remembered import Remembered
from pulyacalc.core.sheet import MOUNTAIN, POOL, WHISTS, Sheet, SheetView

if TYPE_CHECKING:
    from pulyacalc.convention.schema import Convention
    from pulyacalc.core.model import Header
    from pulyacalc.core.sheet import Entry, Write
    from pulyacalc.logs.sheet_file import PaperSheet
    from pulyacalc.play import Evening
    from pulyacalc.scoring.fold import Step
    from pulyacalc.scoring.settlement import Settlement

#: a cell of the paper: (area, player, on) — ``on`` is the opponent of a whist cell, else ""
CellKey = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Mark:
    """A running total as written: the cell after ``deal`` (0: before the log, or a typed final cell)."""

    value: Amount
    deal: int


#: each written cell's running totals, in the order written
CellMarks = dict[CellKey, tuple[Mark, ...]]


@dataclass(frozen=True)
class Pulya:
    """Everything the drawn sheet shows."""

    header: Header
    convention: Convention
    target: int
    #: the paper at the end: the last mark of each cell
    sheet: SheetView
    settlement: Settlement
    #: a cell never written has none
    marks: CellMarks
    #: deals scored and whether the pulya is finished (None for a typed sheet)
    deals: int | None = None
    finished: bool | None = None
    #: Classic (RULES.md 2.10): each player's bombs not yet used («ёлочка»); None elsewhere
    bombs: dict[str, tuple[int, ...]] | None = None
    #: per cell, the totals written before the first of ``marks`` (not kept: a long log)
    earlier: dict[CellKey, int] = field(default_factory=dict)
    #: who joined or left the table and after which deal (``play.Evening.changes``)
    changes: tuple[tuple[str, str, int], ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return self.sheet.players

    def cell(self, area: str, player: str, on: str = "") -> tuple[Mark, ...]:
        return self.marks.get((area, player, on), ())

    def before(self, area: str, player: str, on: str = "") -> int:
        """How many totals the cell had before its first in ``marks``."""
        return self.earlier.get((area, player, on), 0)


class _Written:
    """One cell as ``Marks`` follows it: its total, how many totals it had, the latest."""

    __slots__ = ("total", "count", "last")

    def __init__(self, keep: int | None) -> None:
        self.total: Amount = 0
        self.count = 0
        #: (value, deal) of the latest totals
        self.last: deque[tuple[Amount, int]] = deque(maxlen=keep)


#: the cell changes ``Marks`` remembers per distinct set of writes before forgetting them
NETS_SIZE = 10_000


class Marks:
    """The running totals of every cell, shown one step at a time (``each``), the latest
    ``keep`` kept; what a step changes is worked out once per distinct ``fold.DealWrites``."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        #: the cells written so far (another is made when first written)
        self.cells: dict[CellKey, _Written] = {}
        #: the deals (and corrections, seat changes) shown so far
        self.seen = 0
        self.nets = Remembered(lambda writes: changes(writes.writes()), size=NETS_SIZE)

    def __call__(self, step: Step) -> None:
        self.seen += 1
        cells, number = self.cells, step.number
        for key, a in self.nets(step.writes):
            c = cells.get(key)
            if c is None:
                c = cells[key] = _Written(self.keep)
            c.total = v = exact(c.total + a)
            c.count += 1
            c.last.append((v, number))

    def marks(self) -> tuple[CellMarks, dict[CellKey, int]]:
        return _marks(self.cells)


def changes(writes: Iterable[Write | Entry]) -> tuple[tuple[CellKey, Amount], ...]:
    """What ``writes`` add to each cell they change, once per cell, as a pencil writes it."""
    net: dict[CellKey, Amount] = {}
    for w in writes:
        at: CellKey = (w.area, w.player, w.on or "")
        net[at] = net.get(at, 0) + w.amount
    return tuple((k, a) for k, a in net.items() if a)


def cells(players: tuple[str, ...]) -> list[CellKey]:
    """Every cell of the paper, player by player: pool, mountain, then whists on each other."""
    out: list[CellKey] = []
    for p in players:
        out += [(POOL, p, ""), (MOUNTAIN, p, "")]
        out += [(WHISTS, p, q) for q in players if q != p]
    return out


def value(sheet: SheetView | Sheet, key: tuple[str, ...]) -> Amount:
    """A cell's total; ``key`` a ``CellKey`` or a cell as a sheet file names it: (pool, A), (whists, A, B)."""
    area, p = key[0], key[1]
    if area == POOL:
        return sheet.pool[p]
    if area == MOUNTAIN:
        return sheet.mountain[p]
    return sheet.whists[p][key[2]]


def traced(ev: Evening, marks: CellMarks, earlier: dict[CellKey, int], price: Decimal | None = None) -> Pulya:
    """An evening with its cells' totals (``Marks.marks`` of what it wrote, say)."""
    from pulyacalc.play import settle_evening

    bombs = dict(ev.bombs) if ev.convention.dark_factor != 1 else None  # as score shows them
    played = (ev.deals, ev.finished, bombs, earlier, ev.changes)
    return Pulya(ev.header, ev.convention, ev.target, ev.sheet, settle_evening(ev, price), marks, *played)


def from_paper(
    paper: PaperSheet, conv: Convention, target: int, settlement: Settlement, keep: int | None = None
) -> Pulya:
    """A typed sheet: ``running:`` totals, then final cells, each where it changes; ``keep``: as ``Marks``."""
    sheet = paper.sheet
    written = {key: _Written(keep) for key in cells(sheet.players)}
    for n, (rows, rcells, _) in sorted(paper.running.items()):
        for at in rcells:
            key: CellKey = (at[0], at[1], at[2] if len(at) > 2 else "")
            c = written.get(key)
            if c is not None and value(rows, key) != c.total:
                c.total = value(rows, key)
                c.count += 1
                c.last.append((c.total, n))
    for key, c in written.items():
        last = value(sheet, key)
        if last != c.total:
            c.count += 1
            c.last.append((last, 0))
    marks, earlier = _marks(written)
    return Pulya(paper.header, conv, target, sheet, settlement, marks, earlier=earlier)


def _marks(written: dict[CellKey, _Written]) -> tuple[CellMarks, dict[CellKey, int]]:
    """Each written cell's latest totals, and how many it had before them."""
    marks = {k: tuple(Mark(v, n) for v, n in c.last) for k, c in written.items() if c.count}
    earlier = {k: c.count - len(c.last) for k, c in written.items() if c.count > len(c.last)}
    return marks, earlier
