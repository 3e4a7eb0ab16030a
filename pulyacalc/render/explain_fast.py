"""``explain``'s deals read the fast way (pulyacalc/explain_fast.py), drawn as UTF-8 bytes:
each block of writes is drawn once per run by the plain functions of render/explain.py,
with a stand-in number where the deal's number goes; each head (the deal's first line, or
its JSON up to its entries) is drawn once per run and state with stand-ins for the number,
the place, the dealer and the line; the paper after each deal is drawn from its cells'
text, kept up to date cell by cell, in a layout that changes only with the widths.  So a
deal costs a few ``%`` and no object of the plain path, in the same bytes.

A stand-in is an 18-digit number or a private-use mark no log writes; a drawing in which
they are not found exactly as often as they were put in is not used (the deal, or its
paper, is drawn the plain way).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pulyacalc.core.sheet import Entry, SheetView

if TYPE_CHECKING:
    from pulyacalc.explain import Explained
    from pulyacalc.explain_fast import Block, FastDeals, Head
    from pulyacalc.render.explain import ExplainStream

#: the stand-ins: the deal number, its line in the log, its column, each paper cell k
#: (CELL + k), and the dealer's, the line's and the kind's marks
NUMBER = 618033988749894848
LINE = 314159265358979323
COLUMN = 141421356237309504
CELL = 271828182845900000
DEALER = "\ue0f0dealer\ue0f0"
TEXT = "\ue0f0line\ue0f0"
KIND = "\ue0f0kind\ue0f0"
RUNNING = "\ue0f0running\ue0f0"

#: a drawing: its bytes as a ``%`` format, and what picks its values from the deal's
Drawing = tuple[bytes, Callable[[Any], tuple[Any, ...]]]


def holed(
    text: str, marks: dict[str, int], expected: Iterable[int] = (), digits: str = "%d"
) -> Drawing | None:
    """``text`` made a ``%`` format: each mark (a key of ``marks``, stand-in numbers as
    ``%d``, others as ``%s``) becomes a hole for the value at its index (``marks[mark]``)
    in the tuple it is given.  None when the marks are not found as ``expected`` (each
    index as often as it is listed) or a number stands among other digits.  ``digits``:
    the hole of a stand-in number (``%s``: filled with its text)."""
    found: list[tuple[int, str]] = []
    for mark in marks:
        i = text.find(mark)
        while i >= 0:
            if mark.isdigit() and (
                text[i - 1 : i].isdigit() or text[i + len(mark) : i + len(mark) + 1].isdigit()
            ):
                return None
            found.append((i, mark))
            i = text.find(mark, i + len(mark))
    found.sort()
    if sorted(marks[m] for _, m in found) != sorted(expected):
        return None
    pieces, last, order = [], 0, []
    for i, mark in found:
        pieces.append(text[last:i].replace("%", "%%"))
        pieces.append(digits if mark.isdigit() else "%s")
        order.append(marks[mark])
        last = i + len(mark)
    pieces.append(text[last:].replace("%", "%%"))
    data = "".join(pieces).encode()
    if not order:
        return data, lambda values: ()
    if len(order) == 1:
        one = order[0]
        return data, lambda values: (values[one],)
    return data, itemgetter(*order)


def explained(fast: FastDeals, block: Block) -> tuple[tuple[Explained, ...], dict[str, Any]]:
    """The block's entries with the stand-in number, explained, and their ledger row."""
    from pulyacalc.core.rulebook import RULEBOOK
    from pulyacalc.explain import Explained, sentence
    from pulyacalc.ledger import deal_row

    entries = tuple(Entry(NUMBER, *w) for w in block.writes)
    xs = tuple(Explained(e, RULEBOOK[e.rule], sentence(e)) for e in entries)
    return xs, deal_row(entries, fast.players, fast.scorer.conv)


class Cells:
    """The paper's cells as text, kept up to date from ``FastDeals.vals`` cell by cell:
    ``text`` as ``spell`` writes each (None where it cannot: ``odd`` counts them), and
    ``long`` the cells longer than their ``limits``."""

    def __init__(
        self, fast: FastDeals, spell: Callable[[Any], bytes | None], limits: list[int] | None = None
    ) -> None:
        self.fast, self.spell = fast, spell
        n = fast.n
        self.own = frozenset(i * (n + 2) + 2 + i for i in range(n))
        self.limits = limits or [1 << 30] * len(fast.vals)
        self.text: list[bytes | None] = []
        self.odd = self.long = 0
        self.refresh()

    def refresh(self) -> None:
        """Every cell again (after a deal read the full way)."""
        vals, spell, limits = self.fast.vals, self.spell, self.limits
        self.text = [b"" if i in self.own else spell(v) for i, v in enumerate(vals)]
        self.odd = sum(t is None for t in self.text)
        self.long = sum(t is not None and len(t) > limits[i] for i, t in enumerate(self.text))

    def step(self, cells: tuple[int, ...]) -> None:
        vals, text, spell, limits = self.fast.vals, self.text, self.spell, self.limits
        for i in cells:
            v = vals[i]
            t = b"%d" % v if type(v) is int else spell(v)
            old = text[i]
            if old is None:
                self.odd -= 1
            elif len(old) > limits[i]:
                self.long -= 1
            if t is None:
                self.odd += 1
            elif len(t) > limits[i]:
                self.long += 1
            text[i] = t


def int_only(v: Any) -> bytes | None:
    return b"%d" % v if type(v) is int else None


def json_cell(v: Any) -> bytes:
    from pulyacalc.render.formats import dumps
    from pulyacalc.render.view import jnum

    return b"%d" % v if type(v) is int else dumps(jnum(v)).encode()


class Paper:
    """The paper after each deal in the table, as :func:`pulyacalc.render.explain.paper`
    draws it: while every cell is a whole number no wider than its column's header (so
    each column is as wide as its header), from a layout per length of the deal number,
    checked against the plain drawing when it is made; else the plain way."""

    def __init__(self, fast: FastDeals) -> None:
        from pulyacalc.core.i18n import _
        from pulyacalc.render.formats import plain_cells
        from pulyacalc.render.view import sheet_head

        self.fast = fast
        n = fast.n
        self.heads = sheet_head(fast.players)
        self.names = ["  " + p for p in fast.players]
        self.after = _("after deal {n}")
        #: the widest a cell of each column may be for the column to be as wide as its header
        self.widths = [len(h) + 2 for h in self.heads]
        self.cells = Cells(fast, int_only, [self.widths[i % (n + 2)] for i in range(n * (n + 2))])
        self.pick = itemgetter(*(i for i in range(n * (n + 2)) if i not in self.cells.own))
        self.layouts: dict[int, bytes | None] = {}
        self.ok = plain_cells([*self.heads, *self.names])

    def draw(self, number: int) -> bytes:
        c = self.cells
        if self.ok and not c.odd and not c.long:
            d = len(str(number))
            layout = self.layouts.get(d, b"")
            if layout == b"":
                layout = self.layouts[d] = self.layout(number)
            if layout is not None:
                return layout % (number, *self.pick(c.text))
        return self.plain(number)

    def plain(self, number: int) -> bytes:
        """The paper now, drawn by render/explain.paper."""
        from pulyacalc.render.explain import paper
        from pulyacalc.render.view import show

        vals, w = self.fast.vals, self.fast.n + 2
        rows = [
            [
                name,
                show(vals[i * w]),
                show(vals[i * w + 1]),
                *("·" if i == j else show(vals[i * w + 2 + j]) for j in range(w - 2)),
            ]
            for i, name in enumerate(self.names)
        ]
        return paper(rows, ["  " + self.after.format(n=number), *self.heads]).encode()

    def layout(self, number: int) -> bytes | None:
        """The paper's format for deal numbers as long as ``number`` (``%d`` the number,
        ``%s`` each cell but the whists on oneself), made as formats.direct draws it and
        checked against the plain drawing of the paper now; None when they differ."""
        from pulyacalc.render.formats import PAD

        d, widths = len(str(number)), self.widths
        marked = "  " + self.after.format(n="\x00" * d)
        first = max([len(p.strip()) for p in self.names] + [len(marked) + 2])

        def esc(s: str) -> str:
            return s.replace(PAD, " ").replace("%", "%%")

        head = f"%-{first}s" % marked + "".join(
            f"  %{w}s" % h for w, h in zip(widths, self.heads, strict=True)
        )
        lines = [
            esc(head.rstrip()).replace("\x00" * d, "%d"),
            "  ".join("-" * w for w in [first, *widths]).rstrip(),
        ]
        for i, name in enumerate(self.names):
            cells = [f"%{w}s" % "·" if c - 2 == i else f"%{w}s" for c, w in enumerate(widths)]
            lines.append(
                esc(f"%-{first}s" % name.strip())
                + "".join("  " + esc(c) if c.endswith("·") else "  " + c for c in cells)
            )
        fmt = ("  " + "\n  ".join(lines)).encode()
        try:
            drawn = fmt % (number, *self.pick(self.cells.text))
        except (TypeError, ValueError):
            return None
        return fmt if drawn == self.plain(number) else None


class Drawer:
    """A run's drawings in one format (``fmt``): each block's (``Block.drawn``) and each
    head's, and the paper's cells (``cells``)."""

    def __init__(self, fast: FastDeals, fmt: str, file: str) -> None:
        self.fast, self.fmt, self.file = fast, fmt, file
        self.paper = Paper(fast) if fmt == "table" else None
        self.cells = self.paper.cells if self.paper is not None else Cells(fast, json_cell)
        self.heads: dict[tuple[int, bool], Drawing | None] = {}
        self.running: Drawing | None = None
        if fmt == "json":
            self.running = self._running()

    def step(self, item: Any) -> None:
        """Follow the paper to after ``item``: every item of the log, in order, shown or not."""
        if type(item) is tuple:
            self.cells.step(item[1].cells)
        else:
            self.cells.refresh()

    def where(self) -> str:
        return f"{self.file}:{LINE}:{COLUMN}"

    def head(self, run: int, after_finish: bool) -> Drawing | None:
        """The deal's first line (table) or its JSON up to its entries, with stand-ins."""
        key = (run, after_finish)
        if key not in self.heads:
            from pulyacalc.render.explain import deal_head, deal_head_json
            from pulyacalc.render.formats import dumps, nested

            marks = {str(NUMBER): 0, str(LINE): 1, str(COLUMN): 2}
            if self.fmt == "table":
                text = "\n" + deal_head("", NUMBER, self.where(), DEALER, TEXT, run, after_finish)
                marks |= {DEALER: 3, TEXT: 4}
            else:
                doc = deal_head_json(NUMBER, self.where(), DEALER, KIND, TEXT, after_finish)
                text = nested(doc, 2)
                if not text.endswith("\n    }"):
                    self.heads[key] = None
                    return None
                text = text[: -len("\n    }")]
                marks |= {dumps(DEALER): 3, dumps(TEXT): 4, dumps(KIND): 5}
            self.heads[key] = holed(text, marks, sorted(set(marks.values())))
        return self.heads[key]

    def values(self, head: Head, number: int, lineno: int) -> tuple[Any, ...]:
        """What a head's drawing is filled with (``Head.drawn``: the head's own, encoded once)."""
        own = head.drawn
        if own is None:
            from pulyacalc.render.formats import dumps

            if self.fmt == "table":
                own = head.drawn = (head.dealer.encode(), head.line.encode())
            else:
                own = head.drawn = (
                    dumps(head.dealer).encode(),
                    dumps(head.line).encode(),
                    dumps(head.kind).encode(),
                )
        return (number, lineno, head.column, *own)

    def _running(self) -> Drawing | None:
        """The paper after a deal as the deal's JSON has it, a hole for each cell."""
        from pulyacalc.render.formats import nested
        from pulyacalc.render.view import sheet_json

        fast = self.fast
        sheet, w = fast.scorer.sheet, fast.n + 2
        at = {p: i * w for i, p in enumerate(fast.players)}
        view = SheetView(
            sheet.players,
            {p: CELL + at[p] for p in sheet.players},
            {p: CELL + at[p] + 1 for p in sheet.players},
            {p: {q: CELL + at[p] + 2 + fast.index[q] for q in row} for p, row in sheet.whists.items()},
        )
        cells = [i for i in range(len(fast.vals)) if i not in self.cells.own]
        return holed(nested(sheet_json(view), 3), {str(CELL + i): i for i in cells}, cells, "%s")

    def drawn(self, block: Block) -> Any:
        """The block's drawing in this format (made the first time; False: none)."""
        if block.drawn is None:
            block.drawn = self._drawn(block)
        return block.drawn

    def _drawn(self, block: Block) -> Any:
        import io
        import json

        from pulyacalc.render.explain import (
            ROW_HEAD,
            deal_body,
            deal_head_json,
            deal_tail_json,
            entry_json,
            entry_row,
        )
        from pulyacalc.render.formats import dumps, nested, write_delimited
        from pulyacalc.render.view import SCHEMA_VERSION

        xs, ledger = explained(self.fast, block)
        k = len(xs)
        number = {str(NUMBER): 0}
        if self.fmt == "table":
            return ("\n" + "\n".join(deal_body(xs, ledger, None)) + "\n").encode()
        if self.fmt == "jsonl":
            text = "".join(
                json.dumps({"schema_version": SCHEMA_VERSION, **entry_json(x)}, ensure_ascii=False) + "\n"
                for x in xs
            )
            return holed(text, number, [0] * k) or False
        if self.fmt in ("csv", "tsv"):
            bufs = io.StringIO(), io.StringIO()
            delimiter = "," if self.fmt == "csv" else "\t"
            write_delimited(ROW_HEAD, [], bufs[0], delimiter)
            write_delimited(ROW_HEAD, [entry_row(x) for x in xs], bufs[1], delimiter)
            head, text = bufs[0].getvalue(), bufs[1].getvalue()
            return (text.startswith(head) and holed(text[len(head) :], number, [0] * k)) or False
        flat = holed("".join(",\n    " + nested(entry_json(x), 2) for x in xs), number, [0] * k)
        top = nested(deal_head_json(NUMBER, self.where(), DEALER, KIND, TEXT, False), 2)[: -len("\n    }")]
        text = nested(
            {
                **deal_head_json(NUMBER, self.where(), DEALER, KIND, TEXT, False),
                **deal_tail_json(xs, RUNNING, ledger),
            },
            2,
        )
        parts = text[len(top) :].split(dumps(RUNNING))
        if flat is None or not text.startswith(top + ",") or len(parts) != 2:
            return False
        pre, post = holed(parts[0], number, [0] * k), holed(parts[1], number)
        if pre is None or post is None:
            return False
        return flat[0], pre[0], post[0], k

    def table(self, item: Any) -> bytes:
        """An item as the table shows it (render/explain.deal_block)."""
        if type(item) is not tuple:
            from pulyacalc.render.explain import deal_block

            return deal_block(item, self.fast.players).encode()
        head, block, number, lineno, after_finish = item
        drawing, body = self.head(head.run, after_finish), self.drawn(block)
        assert self.paper is not None
        if drawing is None or body is False:
            from pulyacalc.render.explain import deal_body, deal_head

            xs, ledger = self.real(item)
            where = f"{self.file}:{lineno}:{head.column}"
            top = deal_head(head.kind, number, where, head.dealer, head.line, head.run, after_finish)
            text = "\n".join(["", top, *deal_body(xs, ledger, None)]) + "\n"
            return text.encode() + self.paper.plain(number) + b"\n"
        fmt, get = drawing
        out: bytes = fmt % get(self.values(head, number, lineno)) + body + self.paper.draw(number) + b"\n"
        return out

    def real(self, item: Any) -> tuple[tuple[Explained, ...], dict[str, Any]]:
        """A hit's entries explained with its number, and their ledger row."""
        from pulyacalc.core.rulebook import RULEBOOK
        from pulyacalc.explain import Explained, sentence
        from pulyacalc.ledger import deal_row

        entries = tuple(Entry(item[2], *w) for w in item[1].writes)
        xs = tuple(Explained(e, RULEBOOK[e.rule], sentence(e)) for e in entries)
        return xs, deal_row(entries, self.fast.players, self.fast.scorer.conv)

    def json(self, item: Any) -> tuple[bytes, bytes]:
        """An item's entries (each after ``,\\n    ``) and the deal (after ``\\n    ``), as
        the document has them (render/explain.ExplainStream.json_chunks)."""
        from pulyacalc.render.explain import deal_json, entry_json
        from pulyacalc.render.formats import nested

        if type(item) is not tuple:
            flat = "".join(",\n    " + nested(entry_json(x), 2) for x in item.entries)
            return flat.encode(), ("\n    " + nested(deal_json(item), 2)).encode()
        head, block, number, lineno, after_finish = item
        drawing, body = self.head(head.run, after_finish), self.drawn(block)
        running = self.running
        if drawing is None or body is False or running is None:
            from pulyacalc.render.explain import deal_head_json, deal_tail_json
            from pulyacalc.render.view import sheet_json

            xs, ledger = self.real(item)
            where = f"{self.file}:{lineno}:{head.column}"
            doc = deal_head_json(number, where, head.dealer, head.kind, head.line, after_finish)
            doc |= deal_tail_json(xs, sheet_json(self.fast.view()), ledger)
            flat = "".join(",\n    " + nested(entry_json(x), 2) for x in xs)
            return flat.encode(), ("\n    " + nested(doc, 2)).encode()
        flat, pre, post, k = body
        numbers = (number,) * k
        fmt, get = drawing
        deal = fmt % get(self.values(head, number, lineno)) + pre % numbers
        return flat % numbers, b"\n    " + deal + running[0] % running[1](self.cells.text) + post

    def lines(self, item: Any) -> bytes:
        """An item's entries as JSON Lines, CSV or TSV rows."""
        if type(item) is not tuple:
            return self.whole_lines(item.entries)
        body = self.drawn(item[1])
        if body is False:
            return self.whole_lines(self.real(item)[0])
        out: bytes = body[0] % ((item[2],) * len(item[1].writes))
        return out

    def whole_lines(self, entries: tuple[Explained, ...]) -> bytes:
        import io
        import json

        from pulyacalc.render.explain import ROW_HEAD, entry_json, entry_row
        from pulyacalc.render.formats import write_delimited
        from pulyacalc.render.view import SCHEMA_VERSION

        if self.fmt == "jsonl":
            return "".join(
                json.dumps({"schema_version": SCHEMA_VERSION, **entry_json(x)}, ensure_ascii=False) + "\n"
                for x in entries
            ).encode()
        bufs = io.StringIO(), io.StringIO()
        delimiter = "," if self.fmt == "csv" else "\t"
        write_delimited(ROW_HEAD, [], bufs[0], delimiter)
        write_delimited(ROW_HEAD, [entry_row(x) for x in entries], bufs[1], delimiter)
        return bufs[1].getvalue()[len(bufs[0].getvalue()) :].encode()


#: deals drawn before their bytes are written out together
BATCH = 256


def chunks(view: ExplainStream, fmt: str) -> Iterator[bytes]:
    """``view``'s stream (read the fast way) in ``fmt``, in the bytes of the plain way."""
    fast = view.stream.fast
    assert fast is not None
    drawer = Drawer(fast, fmt, view.stream.header.source)
    if fmt == "table":
        return _table(view, drawer)
    if fmt == "json":
        return _json(view, drawer)
    return _lines(view, drawer)


def _shown(view: ExplainStream, drawer: Drawer) -> Iterator[Any]:
    """The items shown (all, or those of deal ``--deal N``), the paper followed through all."""
    s = view.stream
    upto, step = s.upto, drawer.step
    items: Iterator[Any] = s.items
    for item in items:
        step(item)
        if upto is None or (item[2] if type(item) is tuple else item.result.number) == upto:
            view.shown += 1
            yield item


def _batched(pieces: Iterator[bytes]) -> Iterator[bytes]:
    out: list[bytes] = []
    for piece in pieces:
        out.append(piece)
        if len(out) >= BATCH:
            yield b"".join(out)
            out.clear()
    yield b"".join(out)


def _table(view: ExplainStream, drawer: Drawer) -> Iterator[bytes]:
    import tempfile

    from pulyacalc.core.i18n import _
    from pulyacalc.render.explain import table_head
    from pulyacalc.render.view import counted

    s = view.stream
    with tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+b") as spool:
        for chunk in _batched(map(drawer.table, _shown(view, drawer))):
            spool.write(chunk)
        deals = _("deal {n} of the log").format(n=s.upto) if s.upto is not None else counted(s.count, "deal")
        yield table_head(s.convention, s.header.players, s.target, deals).encode()
        spool.seek(0)
        while chunk := spool.read(1 << 20):
            yield chunk


def _json(view: ExplainStream, drawer: Drawer) -> Iterator[bytes]:
    import tempfile

    from pulyacalc.render.formats import dumps, nested
    from pulyacalc.render.view import SCHEMA_VERSION, sheet_json

    s = view.stream
    head = {
        "schema_version": SCHEMA_VERSION,
        "players": list(s.header.players),
        "convention": s.convention.name,
        "pool_target": s.target,
    }
    yield (dumps(head).removesuffix("\n}") + ',\n  "entries": ').encode()
    opened = dealt = False
    last: Any = None
    out: list[bytes] = []
    with tempfile.TemporaryFile(mode="w+b") as spool:
        for item in _shown(view, drawer):
            entries, deal = drawer.json(item)
            if entries:
                out.append(entries if opened else b"[" + entries[1:])
                opened = True
            spool.write((b"," if dealt else b"[") + deal)
            dealt = True
            last = list(drawer.fast.vals) if type(item) is tuple else item.running
            if len(out) >= BATCH:
                yield b"".join(out)
                out.clear()
        yield b"".join(out) + ((b"\n  ]" if opened else b"[]") + b',\n  "deals": ')
        spool.seek(0)
        while chunk := spool.read(1 << 20):
            yield chunk
    if isinstance(last, list):
        drawer.fast.vals[:], last = last, list(drawer.fast.vals)
        sheet = drawer.fast.view()
        drawer.fast.vals[:] = last
    else:
        sheet = last if last is not None else s.sheet or _empty(s)
    yield (
        (b"\n  ]" if dealt else b"[]") + b',\n  "sheet": ' + nested(sheet_json(sheet), 1).encode() + b"\n}\n"
    )


def _lines(view: ExplainStream, drawer: Drawer) -> Iterator[bytes]:
    if drawer.fmt in ("csv", "tsv"):
        import io

        from pulyacalc.render.explain import ROW_HEAD
        from pulyacalc.render.formats import write_delimited

        buf = io.StringIO()
        write_delimited(ROW_HEAD, [], buf, "," if drawer.fmt == "csv" else "\t")
        yield buf.getvalue().encode()
    yield from _batched(map(drawer.lines, _shown(view, drawer)))


def _empty(s: Any) -> SheetView:
    from pulyacalc.core.sheet import Sheet

    return Sheet(s.header.players).view()
