"""``explain``'s deals drawn from their shapes (pulyacalc/explain_fast.py): each shape —
and each entry of it, per write — is drawn once per format by the plain functions of
render/explain.py, with stand-in numbers where what varies goes (the deal number, its line
in the log, the paper's cells, an entry's or the paper's own text), and each deal is that
text with its own values put in.  So there is one way each format is written, and a long
log costs a few look-ups and ``%`` per deal.

The stand-ins are numbers no log writes; a drawing in which they are not found exactly as
often as they were put in (a value written like one) is not used: that deal is drawn the
plain way.  What is kept is bounded: the drawings are forgotten all at once when too many.
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

#: the stand-ins (18 digits each): the deal number, the line in the log, the paper's text,
#: the paper's cell k (CELL + k) and entry i's text (ENTRY + i)
NUMBER = 618033988749894848
LINE = 314159265358979323
RUNNING = 141421356237309504
CELL = 271828182845900000
ENTRY = 223606797749978000
#: what varies, by the index of its value (``values``): the number, the line, the paper's
#: text, then entry i at 3 + i; the paper's drawing: cell k at 3 + k
FIXED = ((str(NUMBER), 0), (str(LINE), 1), (str(RUNNING), 2))
SPANS = ((str(CELL)[:13], CELL), (str(ENTRY)[:15], ENTRY))
#: distinct writes and shapes whose drawings are kept (forgotten all at once when full)
WRITES_SIZE = 20_000
DRAWN_SIZE = 20_000

#: a drawing: its text as a ``%`` format and what goes into each ``%s``
Drawing = tuple[str, Callable[[list[str]], Any]]


def drawing(text: str, expected: Counter[int]) -> Drawing | None:
    """``text`` with its stand-ins made ``%s``, or None when they are not as expected (or
    stand among other digits)."""
    found: list[tuple[int, int]] = []
    for mark, slot in FIXED:
        i = text.find(mark)
        while i >= 0:
            found.append((i, slot))
            i = text.find(mark, i + 18)
    for prefix, base in SPANS:
        i = text.find(prefix)
        while i >= 0:
            digits = text[i : i + 18]
            if len(digits) < 18 or not (digits.isascii() and digits.isdigit()):
                return None
            found.append((i, 3 + int(digits) - base))
            i = text.find(prefix, i + 18)
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
    """The drawings, and the paper's cells as text (``json``: as JSON writes them;
    ``table``: as people read them, ``·`` on a player's whists on himself)."""

    def __init__(self, fast: FastDeals, paper: Callable[[list[list[str]], list[str]], str]) -> None:
        """``paper``: how the paper after a deal is drawn (render/explain.paper)."""
        from pulyacalc.core.i18n import _
        from pulyacalc.render.view import sheet_head

        self.fast = fast
        self.draw_paper = paper
        #: per distinct write: its entry explained, what it moves each result by, and its
        #: text per format split where its deal number goes
        self.entries: dict[Write, Explained] = {}
        self.rows: dict[Write, dict[str, Amount]] = {}
        self.pieces: dict[tuple[str, Write], list[str] | None] = {}
        #: the shapes drawn (to forget their drawings)
        self.drawn_shapes: list[Shape] = []
        n = fast.n
        self.ncells = len(fast.vals)
        self.json = [""] * self.ncells
        self.table = [""] * self.ncells
        self.own = {i * (n + 2) + 2 + i for i in range(n)}
        #: the cells are those of ``fast.vals`` (False: redraw them all first)
        self.fresh = False
        self.head = sheet_head(fast.players)
        self.after = _("after deal {n}")
        self.names = ["  " + p for p in fast.players]
        self.running = self._running()
        self.running_drawing: Drawing | None | bool = False

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
            self.refresh(range(self.ncells))
            for i in self.own:
                self.table[i] = "·"
            self.fresh = True

    def running_text(self, draw: Callable[[SheetView], str]) -> str | None:
        """``draw`` of the paper now (its JSON), from its drawing; None without one."""
        known = self.running_drawing
        if known is False:
            expected = Counter(3 + k for k in range(self.ncells) if k not in self.own)
            known = self.running_drawing = drawing(draw(self.running), expected)
        if not isinstance(known, tuple):
            return None
        text, get = known
        return str(text % get(["", "", "", *self.json]))

    def entry(self, w: Write, number: int = NUMBER) -> Explained:
        """The write as an entry of deal ``number``, explained (``explain.explain_entries``)."""
        from pulyacalc.core.rulebook import RULEBOOK
        from pulyacalc.explain import Explained, sentence

        if number != NUMBER:
            e = Entry(number, *w)
            return Explained(e, RULEBOOK[e.rule], sentence(e))
        x = self.entries.get(w)
        if x is None:
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

    def entry_texts(self, hit: Hit, fmt: str, draw: Callable[[Explained], str]) -> list[str]:
        """``draw`` of each entry of the hit's deal, from each write's drawing in ``fmt``."""
        sn = str(hit[1])
        out = []
        for w in hit[0].writes:
            pieces = self.pieces.get((fmt, w), False)
            if pieces is False:
                if len(self.pieces) >= WRITES_SIZE:
                    self.pieces.clear()
                pieces = self.pieces[fmt, w] = draw(self.entry(w)).split(str(NUMBER))
                if len(pieces) != 2:
                    pieces = self.pieces[fmt, w] = None  # its number is not written once
            out.append(sn.join(pieces) if isinstance(pieces, list) else draw(self.entry(w, hit[1])))
        return out

    def explained(self, shape: Shape, after_finish: bool) -> DealExplained:
        """The shape as a deal explained, with the stand-ins for what varies (made once
        per shape; its entries and ledger from those of each write)."""
        from dataclasses import replace

        from pulyacalc.core.amounts import exact
        from pulyacalc.explain import DealExplained

        xs = tuple(self.entry(w) for w in shape.writes)
        r = replace(
            shape.result, number=NUMBER, entries=tuple(x.entry for x in xs), after_finish=after_finish
        )
        rows = [self.row(w) for w in shape.writes]
        ledger = {p: exact(sum((row[p] for row in rows), Fraction(0))) for p in self.fast.players}
        return DealExplained(r, shape.line, f"{shape.file}:{LINE}:{shape.column}", xs, self.running, ledger)

    def drawn(
        self,
        hit: Hit,
        fmt: str,
        draw: Callable[[DealExplained], str],
        template: Callable[[DealExplained], str],
        expected: Counter[int],
        values: list[str],
    ) -> str:
        """``draw`` of the hit's deal, from the shape's drawing in ``fmt`` (``template`` of
        the shape explained with its stand-ins, holding them as ``expected``) with
        ``values`` put in; the plain way when the shape has none."""
        shape, _, _, after_finish = hit
        key = (fmt, after_finish)
        known: Drawing | None | bool = shape.drawn.get(key, False)
        if known is False:
            if not shape.drawn:
                if len(self.drawn_shapes) >= DRAWN_SIZE:
                    for s in self.drawn_shapes:
                        s.drawn.clear()
                    self.drawn_shapes.clear()
                self.drawn_shapes.append(shape)
            known = shape.drawn[key] = drawing(template(self.explained(shape, after_finish)), +expected)
        if not isinstance(known, tuple):
            return draw(self.whole(hit))
        text, get = known
        return str(text % get(values))

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

    def _running(self) -> SheetView:
        """The paper with its stand-ins."""
        fast = self.fast
        sheet = fast.scorer.sheet
        n, index = fast.n, fast.index
        return SheetView(
            sheet.players,
            {p: CELL + index[p] * (n + 2) for p in sheet.players},
            {p: CELL + index[p] * (n + 2) + 1 for p in sheet.players},
            {
                p: {q: CELL + index[p] * (n + 2) + 2 + index[q] for q in row}
                for p, row in sheet.whists.items()
            },
        )
