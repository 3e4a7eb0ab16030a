"""The pulya as players draw it: each player's pool, mountain and whists on each other as the
running entries the paper shows («нарастающим итогом»: 2.4.10.14 — each new total written
after the last), with the deal that wrote each one.

Nothing here scores: the entries of an evening are the fold's own (``evening.play`` with
``keep=True``); a paper sheet typed in (``settle``) gives its ``running:`` totals, if any, and
its final cells.  The drawing (render/sheet_svg.py) only places what this module lists.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.sheet import MOUNTAIN, POOL, WHISTS, SheetView

if TYPE_CHECKING:
    from pulyacalc.convention.schema import Convention
    from pulyacalc.core.model import Header
    from pulyacalc.evening import Evening
    from pulyacalc.logs.sheet_file import PaperSheet
    from pulyacalc.scoring.fold import DealResult
    from pulyacalc.scoring.settlement import Settlement

#: a cell of the paper: (area, player, on) — ``on`` is the opponent of a whist cell, else ""
CellKey = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Mark:
    """One running total as the paper writes it: the cell's new value after ``deal``
    (0: a value the paper had before the log's first deal, or a typed sheet's final cell)."""

    value: Amount
    deal: int


@dataclass(frozen=True)
class Pulya:
    """Everything the drawn sheet shows."""

    header: Header
    convention: Convention
    target: int
    #: the paper at the end: the last mark of each cell
    sheet: SheetView
    settlement: Settlement
    #: each cell's running totals, in the order written (a cell never written has none)
    marks: dict[CellKey, tuple[Mark, ...]]
    #: deals scored and whether the pulya is finished (None for a typed sheet)
    deals: int | None = None
    finished: bool | None = None
    #: Classic (RULES.md 2.10): each player's bombs not yet used («ёлочка»); None elsewhere
    bombs: dict[str, tuple[int, ...]] | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return self.sheet.players

    def cell(self, area: str, player: str, on: str = "") -> tuple[Mark, ...]:
        return self.marks.get((area, player, on), ())


def cells(players: tuple[str, ...]) -> list[CellKey]:
    """Every cell of the paper, player by player: pool, mountain, then whists on each other."""
    out: list[CellKey] = []
    for p in players:
        out += [(POOL, p, ""), (MOUNTAIN, p, "")]
        out += [(WHISTS, p, q) for q in players if q != p]
    return out


def running_marks(players: tuple[str, ...], results: Iterable[DealResult]) -> dict[CellKey, tuple[Mark, ...]]:
    """The running totals each deal leaves in each cell it writes in.  A deal that writes
    twice in one cell (a pool entry and help, say) leaves one new total, as a pencil does;
    a deal whose entries in a cell add up to nothing leaves none."""
    total: dict[CellKey, Amount] = dict.fromkeys(cells(players), 0)
    marks: dict[CellKey, list[Mark]] = {}
    for result in results:
        touched: dict[CellKey, None] = {}
        for e in result.entries:
            key: CellKey = (e.area, e.player, e.on or "")
            total[key] = exact(total[key] + e.amount)
            touched[key] = None
        for key in touched:
            written = marks.setdefault(key, [])
            before = written[-1].value if written else 0
            if total[key] != before:
                written.append(Mark(total[key], result.number))
    return {k: tuple(v) for k, v in marks.items() if v}


def value(sheet: SheetView, key: CellKey) -> Amount:
    area, p, on = key
    if area == POOL:
        return sheet.pool[p]
    if area == MOUNTAIN:
        return sheet.mountain[p]
    return sheet.whists[p][on]


def from_evening(ev: Evening, price: Decimal | None = None) -> Pulya:
    """An evening scored with ``keep=True``: its entries as the paper writes them."""
    from pulyacalc.evening import settle_evening

    marks = running_marks(ev.header.players, ev.results)
    bombs = dict(ev.bombs) if ev.convention.dark_factor != 1 else None  # as score shows them
    settlement = settle_evening(ev, price)
    return Pulya(
        ev.header, ev.convention, ev.target, ev.sheet, settlement, marks, ev.deals, ev.finished, bombs
    )


def from_paper(paper: PaperSheet, conv: Convention, target: int, settlement: Settlement) -> Pulya:
    """A sheet typed from paper: the running totals it gives (``running:``, deal by deal),
    then its final cells, each written where it differs from the total before it."""
    sheet = paper.sheet
    marks: dict[CellKey, list[Mark]] = {}
    given = sorted(paper.running.items())
    for key in cells(sheet.players):
        area, p, on = key
        written: list[Mark] = []
        for n, (rows, rcells, _) in given:
            at = (area, p, on) if area == WHISTS else (area, p)
            if at in rcells and value(rows, key) != (written[-1].value if written else 0):
                written.append(Mark(value(rows, key), n))
        last = value(sheet, key)
        if last != (written[-1].value if written else 0):
            written.append(Mark(last, 0))
        if written:
            marks[key] = written
    return Pulya(paper.header, conv, target, sheet, settlement, {k: tuple(v) for k, v in marks.items()})
