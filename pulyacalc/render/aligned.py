"""The tables reports draw for people, names left, numbers right (apart from view.py: no import cycle)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pulyacalc.render.view import sheet_head, sheet_row

if TYPE_CHECKING:
    from pulyacalc.core.sheet import SheetView


def tabulated(rows: Iterable[Iterable[Any]], head: list[str], left: Iterable[int] = (0,)) -> str:
    """A table for people: the ``left`` columns (names, files) to the left, numbers right."""
    from pulyacalc.render.table import grid  # only for tables (start-up time)

    left = set(left)
    return grid(rows, head, ["left" if i in left else "right" for i in range(len(head))])


def sheet_table(sheet: SheetView, corner: str = "") -> str:
    """The sheet for people, a row per player (``corner``: the players' column's header)."""
    return tabulated([[p, *sheet_row(sheet, p)] for p in sheet.players], [corner, *sheet_head(sheet.players)])
