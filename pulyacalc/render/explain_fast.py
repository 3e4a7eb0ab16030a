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

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pulyacalc.core.sheet import Entry, SheetView, Write

if TYPE_CHECKING:
    from pulyacalc.core.amounts import Amount
    from pulyacalc.explain import DealExplained, Explained
    from pulyacalc.explain_fast import FastDeals, Hit, Shape

#: the stand-ins: the deal number, the line in the log, and the paper's cell k (CELL + k)
NUMBER = 618033988749894848
LINE = 314159265358979323
CELL = 271828182845900000
#: distinct writes whose entries, JSON and ledger rows are kept (forgotten all at once)
WRITES_SIZE = 20_000
#: each stand-in is 18 digits; the cells' begin with these 13
_CELLS = str(CELL)[:13]

#: a drawing: its text as a ``%`` format and what goes into each ``%s`` (an index of the
#: values: 0 the number, 1 the line, 2 + k cell k)
Drawing = tuple[str, Callable[[list[str]], Any]]


def drawing(text: str, expected: Counter[int]) -> Drawing | None:
    """``text`` with its stand-ins made ``%s``, or None when they are not as expected (or
    stand among other digits)."""
    found: list[tuple[int, int]] = []
    for mark, slot in ((str(NUMBER), 0), (str(LINE), 1), (_CELLS, -1)):
        i = text.find(mark)
        while i >= 0:
            digits = text[i : i + 18]
            if slot >= 0:
                found.append((i, slot))
            elif len(digits) == 18 and digits.isascii() and digits.isdigit():
                found.append((i, 2 + int(digits) - CELL))
            else:
                return None
            i = text.find(mark, i + 18)
    found.sort()
    pieces: list[str] = []
    order: list[int] = []
    last = 0
    for i, slot in found:
        if i < last or (i and text[i - 1].isdigit()) or text[i + 18 : i + 19].isdigit():
            return None  # among other digits: not a stand-in alone
        pieces.append(text[last:i].replace("%", "%%"))
        order.append(slot)
        last = i + 18
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

    def __init__(self, fast: FastDeals, paper: Callable[[list[list[str]], list[str]], str]) -> None:
        """``paper``: how the paper after a deal is drawn (render/explain.paper)."""
        from pulyacalc.core.i18n import _
        from pulyacalc.render.view import sheet_head

        self.fast = fast
        self.draw_paper = paper
        #: per distinct write: its entry explained, its JSON, what it moves each result by
        self.entries: dict[Write, Explained] = {}
        self.texts: dict[Write, str] = {}
        self.rows: dict[Write, dict[str, Amount]] = {}
        n = fast.n
        self.json = [""] * len(fast.vals)
        self.table = [""] * len(fast.vals)
        self.own = {i * (n + 2) + 2 + i for i in range(n)}
        #: the cells are those of ``fast.vals`` (False: redraw them all first)
        self.fresh = False
        self.head = sheet_head(fast.players)
        self.after = _("after deal {n}")
        self.names = ["  " + p for p in fast.players]
        self.running = self._running()
        from pulyacalc.render.formats import dumps
        from pulyacalc.render.view import sheet_json

        #: the paper with its stand-ins, as JSON writes it
        self.running_json = dumps(sheet_json(self.running))

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
        """The shape as a deal explained, with the stand-ins for what varies (made once
        per shape; its entries and ledger from those of each write)."""
        from dataclasses import replace

        from pulyacalc.core.amounts import exact
        from pulyacalc.explain import DealExplained

        base = shape.drawn.get(("explained", False))
        if base is None:
            xs = tuple(self.entry(w) for w in shape.writes)
            r = replace(shape.result, number=NUMBER, entries=tuple(x.entry for x in xs), after_finish=False)
            rows = [self.row(w) for w in shape.writes]
            ledger = {p: exact(sum((row[p] for row in rows), Fraction(0))) for p in self.fast.players}
            base = shape.drawn["explained", False] = DealExplained(
                r, shape.line, f"{shape.file}:{LINE}:{shape.column}", xs, self.running, ledger
            )
        if not after_finish:
            return base
        return replace(base, result=replace(base.result, after_finish=True))

    def entry(self, w: Write) -> Explained:
        """The write as an entry of deal NUMBER, explained (``explain.explain_entries``)."""
        x = self.entries.get(w)
        if x is None:
            from pulyacalc.core.rulebook import RULEBOOK
            from pulyacalc.explain import Explained, sentence

            if len(self.entries) >= WRITES_SIZE:
                self.entries.clear()
            e = Entry(NUMBER, *w)
            x = self.entries[w] = Explained(e, RULEBOOK[e.rule], sentence(e))
        return x

    def row(self, w: Write) -> dict[str, Amount]:
        """What the write moves each result by (its ledger row: a deal's is the sum of its
        writes', ``ledger.deal_row`` being linear)."""
        row = self.rows.get(w)
        if row is None:
            from pulyacalc.ledger import deal_row

            if len(self.rows) >= WRITES_SIZE:
                self.rows.clear()
            row = self.rows[w] = deal_row([Entry(0, *w)], self.fast.players, self.fast.scorer.conv)
        return row

    def text(self, x: Explained, draw: Callable[[Explained], str]) -> str:
        """``draw(x)`` (an entry's JSON), once per write."""
        w = Write(x.entry.rule, x.entry.player, x.entry.area, x.entry.amount, x.entry.on, x.entry.why)
        t = self.texts.get(w)
        if t is None:
            if len(self.texts) >= WRITES_SIZE:
                self.texts.clear()
            t = self.texts[w] = draw(x)
        return t

    def _running(self) -> SheetView:
        """The paper with its stand-ins."""
        fast = self.fast
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
        return running

    def drawn(
        self,
        hit: Hit,
        fmt: str,
        draw: Callable[[DealExplained], str],
        numbers: int,
        line: bool,
        paper: bool,
        template: Callable[[DealExplained], str] | None = None,
    ) -> str:
        """``draw`` of the hit's deal, from the shape's drawing in ``fmt`` when it has one:
        which writes the deal number ``numbers`` times, its line (``line``) once, and each
        of the paper's cells (``paper``) once.  ``template``: draws the shape (with the
        stand-ins) as ``draw`` would, from what is kept per write (``text``)."""
        shape, _, _, after_finish = hit
        key = (fmt, after_finish)
        known: Drawing | None | bool = shape.drawn.get(key, False)
        if known is False:
            d = self.explained(shape, after_finish)
            expected: Counter[int] = Counter({0: numbers, 1: int(line)})
            if paper:
                expected.update(2 + k for k in range(len(self.fast.vals)) if k not in self.own)
            known = shape.drawn[key] = drawing((template or draw)(d), +expected)
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
        n = self.fast.n
        t = self.table
        rows = [[name, *t[i * (n + 2) : (i + 1) * (n + 2)]] for i, name in enumerate(self.names)]
        return self.draw_paper(rows, ["  " + self.after.format(n=hit[1]), *self.head])
