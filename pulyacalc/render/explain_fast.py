"""``explain``'s deals drawn from their shapes (pulyacalc/explain_fast.py): each shape is
drawn once per format by the plain functions of render/explain.py — with stand-in numbers
where its deal number, its line in the log and the paper's cells go — and each deal is
that text with its own values put in.  So there is one way each format is written, and a
long log costs a look-up and a ``%`` per deal.

The stand-ins are numbers no log writes (:data:`MARKS`); a drawing in which they are not
found exactly as often as they were put in (a player named like one) is not used: that
shape is drawn the plain way each time.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pulyacalc.core.sheet import Entry, SheetView

if TYPE_CHECKING:
    from pulyacalc.explain import DealExplained
    from pulyacalc.explain_fast import FastDeals, Hit, Shape

#: the stand-ins: the deal number, the line in the log, and the paper's cell k (CELL + k)
NUMBER = 618033988749894848
LINE = 314159265358979323
CELL = 271828182845900000
MARKS = re.compile(r"(?<!\d)(618033988749894848|314159265358979323|2718281828459\d{5})(?!\d)")

#: a drawing: its text as a ``%`` format and what goes into each ``%s`` (an index of the
#: values: 0 the number, 1 the line, 2 + k cell k)
Drawing = tuple[str, Callable[[list[str]], Any]]


def drawing(text: str, expected: Counter[int]) -> Drawing | None:
    """``text`` with its stand-ins made ``%s``, or None when they are not as expected."""
    pieces: list[str] = []
    order: list[int] = []
    last = 0
    for m in MARKS.finditer(text):
        pieces.append(text[last : m.start()].replace("%", "%%"))
        v = int(m.group(1))
        order.append(0 if v == NUMBER else 1 if v == LINE else 2 + v - CELL)
        last = m.end()
    pieces.append(text[last:].replace("%", "%%"))
    if Counter(order) != expected:
        return None
    if not order:
        return "%s".join(pieces), lambda vals: ()
    if len(order) == 1:
        one = order[0]
        return "%s".join(pieces), lambda vals: (vals[one],)
    return "%s".join(pieces), itemgetter(*order)


class Drawer:
    """Each shape's drawings, and the paper's cells as text (``json``: as JSON writes them;
    ``table``: as people read them, ``·`` on a player's whists on himself)."""

    def __init__(self, fast: FastDeals) -> None:
        from pulyacalc.core.i18n import _
        from pulyacalc.render.view import sheet_head

        self.fast = fast
        n = fast.n
        self.json = [""] * len(fast.vals)
        self.table = [""] * len(fast.vals)
        self.own = {i * (n + 2) + 2 + i for i in range(n)}
        #: the cells are those of ``fast.vals`` (False: redraw them all first)
        self.fresh = False
        self.head = sheet_head(fast.players)
        self.after = _("after deal {n}")
        self.names = ["  " + p for p in fast.players]

    def refresh(self, cells: tuple[int, ...] | range) -> None:
        from pulyacalc.render.formats import dumps
        from pulyacalc.render.view import jnum, show

        vals = self.fast.vals
        for i in cells:
            v = vals[i]
            if type(v) is int:
                self.json[i] = self.table[i] = str(v)
            else:
                self.json[i] = dumps(jnum(v))
                self.table[i] = show(v)

    def step(self, item: Hit | DealExplained) -> None:
        """Follow the paper to after ``item``: every item of the log, in order, shown or not."""
        if type(item) is not tuple:
            self.fresh = False  # the full path's: the cells are redrawn at the next hit
        elif self.fresh:
            self.refresh(item[0].cells)
        else:
            self.refresh(range(len(self.fast.vals)))
            for i in self.own:
                self.table[i] = "·"
            self.fresh = True

    def values(self, hit: Hit, json: bool) -> list[str]:
        """The values of a hit's drawings: its number, its line, the paper's cells."""
        return [str(hit[1]), str(hit[2]), *(self.json if json else self.table)]

    def explained(self, shape: Shape, after_finish: bool) -> DealExplained:
        """The shape as a deal explained, with the stand-ins for what varies."""
        from dataclasses import replace

        from pulyacalc.explain import DealExplained, explain_entries
        from pulyacalc.ledger import deal_row

        fast = self.fast
        r = replace(
            shape.result,
            number=NUMBER,
            entries=tuple(Entry(NUMBER, *w) for w in shape.writes),
            after_finish=after_finish,
        )
        sheet = fast.scorer.sheet
        n, index = fast.n, fast.index
        running = SheetView(
            sheet.players,
            {p: CELL + index[p] * (n + 2) for p in sheet.players},
            {p: CELL + index[p] * (n + 2) + 1 for p in sheet.players},
            {
                p: {q: CELL + index[p] * (n + 2) + 2 + index[q] for q in row}
                for p, row in sheet.whists.items()
            },
        )
        where = f"{shape.file}:{LINE}:{shape.column}"
        return DealExplained(
            r,
            shape.line,
            where,
            explain_entries(r),
            running,
            deal_row(r.entries, sheet.players, fast.scorer.conv),
        )

    def drawn(
        self, hit: Hit, fmt: str, draw: Callable[[DealExplained], str], numbers: int, line: bool, paper: bool
    ) -> str:
        """``draw`` of the hit's deal, from the shape's drawing in ``fmt`` when it has one:
        which writes the deal number ``numbers`` times, its line (``line``) once, and each
        of the paper's cells (``paper``) once."""
        shape, _, _, after_finish = hit
        key = (fmt, after_finish)
        known: Drawing | None | bool = shape.drawn.get(key, False)
        if known is False:
            d = self.explained(shape, after_finish)
            expected: Counter[int] = Counter({0: numbers, 1: int(line)})
            if paper:
                expected.update(2 + k for k in range(len(self.fast.vals)) if k not in self.own)
            known = shape.drawn[key] = drawing(draw(d), +expected)
        if not isinstance(known, tuple):
            return self.plain(hit, draw)
        text, get = known
        return str(text % get(self.values(hit, fmt == "json")))

    def plain(self, hit: Hit, draw: Callable[[DealExplained], str]) -> str:
        """``draw`` of the hit's deal, made whole (a shape without a drawing)."""
        return draw(self.whole(hit))

    def whole(self, hit: Hit) -> DealExplained:
        """The hit's deal explained (while it is the last one read: the paper is now's)."""
        from dataclasses import replace

        from pulyacalc.explain import DealExplained, explain_entries
        from pulyacalc.ledger import deal_row

        shape, number, lineno, after_finish = hit
        fast = self.fast
        r = replace(
            shape.result,
            number=number,
            entries=tuple(Entry(number, *w) for w in shape.writes),
            after_finish=after_finish,
        )
        view = fast.view()
        return DealExplained(
            r,
            shape.line,
            f"{shape.file}:{lineno}:{shape.column}",
            explain_entries(r),
            view,
            deal_row(r.entries, view.players, fast.scorer.conv),
        )

    def paper(self, hit: Hit) -> str:
        """The paper after the hit's deal, as :func:`pulyacalc.render.explain.deal_block` draws it."""
        from pulyacalc.render.explain import paper

        n = self.fast.n
        t = self.table
        rows = [[name, *t[i * (n + 2) : (i + 1) * (n + 2)]] for i, name in enumerate(self.names)]
        return paper(rows, ["  " + self.after.format(n=hit[1]), *self.head])
