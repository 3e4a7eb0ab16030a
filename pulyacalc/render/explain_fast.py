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

from collections.abc import Iterable, Iterator
from fractions import Fraction
from functools import partial
from typing import IO, TYPE_CHECKING, Any

from pulyacalc.core.sheet import Entry, SheetView, Write

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

#: distinct writes whose drawings are kept (forgotten all at once when full)
WRITES_SIZE = 20_000

#: a text with holes: its pieces between them and what goes into each (a mark's index)
Skeleton = tuple[list[str], list[int]]


def skeleton(text: str, marks: dict[str, int], expected: Iterable[int] = ()) -> Skeleton | None:
    """``text`` cut at each mark (a key of ``marks``), each hole told by the mark's index.
    None when the marks are not found as ``expected`` (each index as often as listed) or a
    stand-in number stands among other digits."""
    found: list[tuple[int, str]] = []
    for mark in marks:
        i = text.find(mark)
        while i >= 0:
            j = i + len(mark)
            if mark.isdigit() and (text[i - 1 : i].isdigit() or text[j : j + 1].isdigit()):
                return None
            found.append((i, mark))
            i = text.find(mark, j)
    found.sort()
    if sorted(marks[m] for _, m in found) != sorted(expected):
        return None
    pieces, order, last = [], [], 0
    for i, mark in found:
        pieces.append(text[last:i])
        order.append(marks[mark])
        last = i + len(mark)
    pieces.append(text[last:])
    return pieces, order


def baked(sk: Skeleton, fixed: dict[int, str], holes: dict[int, str]) -> tuple[bytes, list[int]]:
    """A ``%`` format of the skeleton: the values of ``fixed`` put in, the others holes as
    ``holes`` spells them (``%d``, ``%s``); with the indices of its holes in order."""
    pieces, order = sk
    out, left = [pieces[0].replace("%", "%%")], []
    for index, piece in zip(order, pieces[1:], strict=True):
        if index in fixed:
            out.append(fixed[index].replace("%", "%%"))
        else:
            out.append(holes[index])
            left.append(index)
        out.append(piece.replace("%", "%%"))
    return "".join(out).encode(), left


def holed(text: str, number: int, count: int) -> list[bytes] | None:
    """``text`` cut where the stand-in ``number`` stands, which must be ``count`` times:
    the deal's number joins the pieces again (``b"12".join(pieces)``); None when it is not."""
    sk = skeleton(text, {str(number): 0}, [0] * count)
    return None if sk is None else [piece.encode() for piece in sk[0]]


class Paper:
    """The paper after each deal in the table, as :func:`pulyacalc.render.explain.paper`
    draws it.  While every cell is a whole number no wider than its column's header (so
    each column is as wide as its header: ``fit``), from a layout per length of the deal
    number (``parts``: its text, the number's and each cell's in their places, ``slot``),
    checked against the plain drawing when it is made; else the plain way."""

    def __init__(self, fast: FastDeals) -> None:
        from pulyacalc.core.i18n import _
        from pulyacalc.render.table import plain_cells
        from pulyacalc.render.view import sheet_head

        self.fast = fast
        n, w = fast.n, fast.n + 2
        self.heads = sheet_head(fast.players)
        self.names = ["  " + p for p in fast.players]
        self.after = _("after deal {n}")
        #: the widest a cell of each column may be for the column to be as wide as its header
        widths = [len(h) + 2 for h in self.heads]
        self.width = [widths[i % w] for i in range(n * w)]
        self.own = {i * w + 2 + i for i in range(n)}
        #: each cell's bounds for it to fit (the whists on oneself: always 0)
        self.low = [-(10 ** (x - 1)) for x in self.width]
        self.high = [10**x for x in self.width]
        for i in self.own:
            self.low[i], self.high[i] = -1, 1
        self.ok = plain_cells([*self.heads, *self.names])
        #: the layout drawn now (``length``: of the deal numbers it is for, 0: none)
        self.parts: list[bytes] = []
        self.slot: list[int] = [0] * (n * w)
        self.number = 0
        self.length = 0
        #: lengths of deal numbers that have no layout
        self.none: set[int] = set()

    def fit(self) -> bool:
        """Every cell a whole number no wider than its column's header."""
        low, high = self.low, self.high
        return all(type(v) is int and low[i] < v < high[i] for i, v in enumerate(self.fast.vals))

    def lay(self, number: int) -> bool:
        """``parts`` laid out for numbers as long as ``number`` with every cell as it is
        now (the paper fits); False when there is no such layout."""
        d = len(str(number))
        if not self.ok or d in self.none:
            return False
        self.length = 0
        tokens = self._tokens(d)
        parts: list[bytes] = []
        text: list[str] = []
        vals, width = self.fast.vals, self.width
        for t in tokens:
            if isinstance(t, str):
                text.append(t)
                continue
            parts.append("".join(text).encode())
            text.clear()
            if t < 0:
                parts.append(b"%d" % number)
                self.number = len(parts) - 1
            else:
                parts.append(b"%*d" % (width[t], int(vals[t])))
                self.slot[t] = len(parts) - 1
        parts.append("".join(text).encode())
        if b"".join(parts) != self.plain(number):
            self.none.add(d)
            return False
        self.parts, self.length = parts, d
        return True

    def _tokens(self, d: int) -> list[str | int]:
        """The layout as formats.direct draws it: text, -1 where the number goes, each
        cell's index where it goes."""
        from pulyacalc.render.table import PAD

        n, widths = self.fast.n, self.width[: self.fast.n + 2]
        marked = "  " + self.after.format(n="\x00" * d)
        first = max([len(p.strip()) for p in self.names] + [len(marked) + 2])
        head = (
            f"%-{first}s" % marked + "".join(f"  %{w}s" % h for w, h in zip(widths, self.heads, strict=True))
        ).rstrip()
        before, after = head.replace(PAD, " ").split("\x00" * d)
        tokens: list[str | int] = [
            "  " + before,
            -1,
            after,
            "\n  " + "  ".join("-" * w for w in [first, *widths]),
        ]
        for i, name in enumerate(self.names):
            tokens.append("\n  " + (f"%-{first}s" % name.strip()).replace(PAD, " "))
            for c, w in enumerate(widths):
                tokens.append("  " + f"%{w}s" % "·" if c - 2 == i else "  ")
                if c - 2 != i:
                    tokens.append(i * (n + 2) + c)
        tokens.append("\n")
        return tokens

    def draw(self, number: int, fit: bool) -> bytes:
        """The paper now: from the layout when it fits (laid out again if need be)."""
        if fit and (self.length == len(str(number)) or self.lay(number)):
            self.parts[self.number] = b"%d" % number
            return b"".join(self.parts)
        self.length = 0
        return self.plain(number)

    def plain(self, number: int) -> bytes:
        """The paper now, drawn by render/explain.paper, and the line's end after it (its
        lines fitted to the width set, as every line of the table)."""
        from pulyacalc.render.explain import paper
        from pulyacalc.render.formats import fit_lines
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
        return fit_lines(paper(rows, ["  " + self.after.format(n=number), *self.heads]) + "\n").encode()


class Drawer:
    """A run's drawings in one format (``fmt``): each block's (``Block.drawn``), each
    head's (``Head.drawn``: one per finish, from a skeleton per raspasy run and finish),
    and the paper's (``paper``, table; ``running``, JSON)."""

    def __init__(self, fast: FastDeals, fmt: str, file: str) -> None:
        self.fast, self.fmt, self.file = fast, fmt, file
        self.paper = Paper(fast) if fmt == "table" else None
        #: each head fitted to a width by what it says (``fitted_head``)
        self.fitted: dict[tuple[Any, ...], tuple[bytes, bool] | None] = {}
        self.skeletons: dict[tuple[int, bool], Skeleton | None] = {}
        #: each write's own drawings (``write``), and whether a deal's JSON entries are
        #: its flat ones nested deeper (``nested_entries``, seen on the first deal with any)
        self.writes: dict[Write, tuple[Explained, dict[str, Any], list[str]]] = {}
        self.nesting = False
        #: the paper after a deal as the deal's JSON has it (``_running``)
        self.running: tuple[list[bytes], list[int]] | None = None
        if fmt == "json":
            self.running = self._running()
        #: a block's JSON up to its entries with the stand-ins (a mapping and its text), and
        #: the paper's stand-in as JSON writes it (``_drawn``, made once)
        self.json_head: tuple[dict[str, Any], str, str] | None = None

    def where(self) -> str:
        return f"{self.file}:{LINE}:{COLUMN}"

    def skeleton(self, run: int, after_finish: bool) -> Skeleton | None:
        """The deal's first line (table) or its JSON up to its entries, with stand-ins."""
        key = (run, after_finish)
        if key not in self.skeletons:
            from pulyacalc.render.explain import deal_head, deal_head_json
            from pulyacalc.render.formats import dumps, nested

            marks = {str(NUMBER): 0, str(LINE): 1, str(COLUMN): 2}
            if self.fmt == "table":
                text = "\n" + deal_head("", NUMBER, self.where(), DEALER, TEXT, run, after_finish)
                marks |= {DEALER: 3, TEXT: 4}
            else:
                text = nested(deal_head_json(NUMBER, self.where(), DEALER, KIND, TEXT, after_finish), 2)
                text = "\n    " + text.removesuffix("\n    }") if text.endswith("\n    }") else ""
                marks |= {dumps(DEALER): 3, dumps(TEXT): 4, dumps(KIND): 5}
            self.skeletons[key] = skeleton(text, marks, sorted(set(marks.values())))
        return self.skeletons[key]

    def head(self, head: Head, after_finish: bool) -> tuple[bytes, bool] | None:
        """The head's drawing after the finish or before: a format of the deal's number and
        line in the log (the line first when ``True``); None: none."""
        drawn = head.drawn
        if drawn is None:
            drawn = head.drawn = [False, False]
        known = drawn[after_finish]
        if known is False:
            known = drawn[after_finish] = self._head(head, after_finish)
        return known  # type: ignore[no-any-return]

    def length(self, head: Head, after_finish: bool) -> int | None:
        """The deal's first line's length in the table but for its two numbers (its
        skeleton's text and what fills its other holes); None: it has no skeleton."""
        sk = self.skeleton(head.run, after_finish)
        if sk is None:
            return None
        # less the line break before the line
        return sum(map(len, sk[0])) - 1 + len(str(head.column)) + len(head.dealer) + len(head.line)

    def _head(self, head: Head, after_finish: bool, hole: str = "%d") -> tuple[bytes, bool] | None:
        """:meth:`head` made: its two holes ``hole`` (``%s``: for the numbers' digits)."""
        sk = self.skeleton(head.run, after_finish)
        if sk is None:
            return None
        if self.fmt == "table":
            fixed = {2: str(head.column), 3: head.dealer, 4: head.line}
        else:
            # a string's JSON, as formats.dumps writes it (json.dumps(x, ensure_ascii=False))
            from json.encoder import encode_basestring as dumps

            fixed = {2: str(head.column), 3: dumps(head.dealer), 4: dumps(head.line), 5: dumps(head.kind)}
        fmt, order = baked(sk, fixed, {0: hole, 1: hole})
        return fmt, order == [1, 0]

    def _running(self) -> tuple[list[bytes], list[int]] | None:
        """The paper after a deal as the deal's JSON has it: its text, each cell's text in
        its place (``slot``: where each cell's is)."""
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
        cells = [i for i in range(len(fast.vals)) if i % w - 2 != i // w]
        sk = skeleton(nested(sheet_json(view), 3), {str(CELL + i): i for i in cells}, cells)
        if sk is None:
            return None
        pieces, order = sk
        parts: list[bytes] = [pieces[0].encode()]
        slot = [0] * len(fast.vals)
        for i, piece in zip(order, pieces[1:], strict=True):
            slot[i] = len(parts)
            parts += [json_cell(fast.vals[i]), piece.encode()]
        return parts, slot

    def refresh(self) -> None:
        """The JSON paper's cells again, every one (after a deal read the full way)."""
        if self.running is not None:
            parts, slot = self.running
            for i, v in enumerate(self.fast.vals):
                if slot[i]:
                    parts[slot[i]] = json_cell(v)

    def drawn(self, block: Block) -> Any:
        """The block's drawing in this format (made the first time; False: none)."""
        if block.drawn is None:
            block.drawn = self._drawn(block)
        return block.drawn

    def explained(self, block: Block) -> tuple[tuple[Explained, ...], dict[str, Any]]:
        """The block's entries with the stand-in number, explained, and their ledger row
        (the sum of its writes' rows: ``ledger.deal_row`` is linear), from each write's."""
        from pulyacalc.core.amounts import exact

        known = [self.write(w) for w in block.writes]
        rows = [row for _, row, _ in known]
        ledger = {p: exact(exact_sum([row[p] for row in rows])) for p in self.fast.players}
        return tuple(x for x, _, _ in known), ledger

    def write(self, w: Write) -> tuple[Explained, dict[str, Any], list[str]]:
        """A write dated with the stand-in number, explained; its ledger row; its JSON entry
        among the flat ones (after ``,\\n    ``, made when first asked)."""
        known = self.writes.get(w)
        if known is None:
            from pulyacalc.core.rulebook import RULEBOOK
            from pulyacalc.explain import Explained, sentence
            from pulyacalc.ledger import deal_row

            if len(self.writes) >= WRITES_SIZE:
                self.writes.clear()
            e = Entry(NUMBER, *w)
            fast = self.fast
            known = self.writes[w] = (
                Explained(e, RULEBOOK[e.rule], sentence(e)),
                deal_row([e], fast.players, fast.scorer.conv),
                [],
            )
        return known

    def flat(self, w: Write) -> str:
        """The write's JSON entry among the flat ones, with the stand-in number."""
        x, _, text = self.write(w)
        if not text:
            from pulyacalc.render.explain import entry_json
            from pulyacalc.render.formats import nested

            text.append(",\n    " + nested(entry_json(x), 2))
        return text[0]

    def _drawn(self, block: Block) -> Any:
        from pulyacalc.render.explain import deal_body, deal_head_json, deal_tail_json
        from pulyacalc.render.formats import dumps, fit_lines, nested

        xs, ledger = self.explained(block)
        k = len(xs)
        if self.fmt == "table":
            return fit_lines("\n" + "\n".join(deal_body(xs, ledger, None)) + "\n").encode()
        if self.fmt != "json":
            return holed(entry_lines(xs, self.fmt), NUMBER, k) or False
        flat = holed("".join(map(self.flat, block.writes)), NUMBER, k)
        if self.json_head is None:  # the same for every block: drawn once
            head = deal_head_json(NUMBER, self.where(), DEALER, KIND, TEXT, False)
            self.json_head = head, nested(head, 2).removesuffix("\n    }"), dumps(RUNNING)
        head, top, running = self.json_head
        # the deal's entries are the flat ones nested deeper (``nested_entries``): seen
        # once per run on a deal with entries, then its tail is drawn without them
        shown = xs if not self.nesting else ()
        text = nested({**head, **deal_tail_json(shown, RUNNING, ledger)}, 2)
        parts = text[len(top) :].split(running)
        if flat is None or not text.startswith(top + ",") or len(parts) != 2:
            return False
        pre, post = holed(parts[0], NUMBER, len(shown)), holed(parts[1], NUMBER, 0)
        if pre is None or post is None:
            return False
        if k and (self.nesting or nested_entries(b"1".join(flat)) == b"1".join(pre)):
            self.nesting = True
            pre = nested_pieces(flat)  # made so once, not for each deal
        return flat, pre, b"".join(post)


def exact_sum(xs: list[Any]) -> Any:
    """The exact sum of whole numbers and fractions, in whole-number arithmetic over their
    common denominator (a Fraction's own addition is many times slower)."""
    import math

    common = math.lcm(*(x.denominator for x in xs)) if xs else 1
    total = sum(x.numerator * (common // x.denominator) for x in xs)
    return total if common == 1 else Fraction(total, common)


def real(self: Drawer, item: Any) -> tuple[tuple[Explained, ...], dict[str, Any]]:
    """A hit's entries explained with its number, and their ledger row."""
    from pulyacalc.core.rulebook import RULEBOOK
    from pulyacalc.explain import Explained, sentence
    from pulyacalc.ledger import deal_row

    entries = tuple(Entry(item[2], *w) for w in item[1].writes)
    xs = tuple(Explained(e, RULEBOOK[e.rule], sentence(e)) for e in entries)
    return xs, deal_row(entries, self.fast.players, self.fast.scorer.conv)


def plain_table(self: Drawer, item: Any, fit: bool) -> bytes:
    """An item as the table shows it, the plain way (render/explain.deal_block)."""
    from pulyacalc.render.explain import deal_block, deal_body, deal_head
    from pulyacalc.render.formats import fit_lines

    if type(item) is not tuple:
        return fit_lines(deal_block(item, self.fast.players)).encode()
    head, _, number, lineno, after_finish = item
    xs, ledger = real(self, item)
    where = f"{self.file}:{lineno}:{head.column}"
    top = deal_head(head.kind, number, where, head.dealer, head.line, head.run, after_finish)
    assert self.paper is not None
    text = "\n".join(["", top, *deal_body(xs, ledger, None)]) + "\n"
    return fit_lines(text).encode() + self.paper.draw(number, fit)


def plain_json(self: Drawer, item: Any) -> tuple[bytes, bytes]:
    """An item's entries (each after ``,\\n    ``) and the deal (after ``\\n    ``), the
    plain way (render/explain.ExplainStream.json_chunks)."""
    from pulyacalc.render.explain import deal_head_json, deal_json, deal_tail_json, entry_json
    from pulyacalc.render.formats import nested
    from pulyacalc.render.view import sheet_json

    if type(item) is not tuple:
        flat = "".join(",\n    " + nested(entry_json(x), 2) for x in item.entries)
        return flat.encode(), ("\n    " + nested(deal_json(item), 2)).encode()
    head, _, number, lineno, after_finish = item
    xs, ledger = real(self, item)
    where = f"{self.file}:{lineno}:{head.column}"
    doc = deal_head_json(number, where, head.dealer, head.kind, head.line, after_finish)
    doc |= deal_tail_json(xs, sheet_json(self.fast.view()), ledger)
    flat = "".join(",\n    " + nested(entry_json(x), 2) for x in xs)
    return flat.encode(), ("\n    " + nested(doc, 2)).encode()


def plain_lines(self: Drawer, item: Any) -> bytes:
    """An item's entries as JSON Lines, CSV or TSV rows, the plain way."""
    xs = item.entries if type(item) is not tuple else real(self, item)[0]
    return entry_lines(xs, self.fmt).encode()


def entry_lines(entries: tuple[Explained, ...], fmt: str) -> str:
    """Entries as JSON Lines, CSV or TSV rows (as formats.write_to writes them)."""
    import io
    import json

    from pulyacalc.render.explain import ROW_HEAD, entry_json, entry_row
    from pulyacalc.render.formats import write_delimited
    from pulyacalc.render.view import SCHEMA_VERSION

    if fmt == "jsonl":
        return "".join(
            json.dumps({"schema_version": SCHEMA_VERSION, **entry_json(x)}, ensure_ascii=False) + "\n"
            for x in entries
        )
    bufs = io.StringIO(), io.StringIO()
    delimiter = "," if fmt == "csv" else "\t"
    write_delimited(ROW_HEAD, [], bufs[0], delimiter)
    write_delimited(ROW_HEAD, [entry_row(x) for x in entries], bufs[1], delimiter)
    return bufs[1].getvalue()[len(bufs[0].getvalue()) :]


#: deals drawn before their bytes are handed on together
BATCH = 256
#: JSON's deals drawn before their bytes are handed on: each deal is some 3 kB (its entries
#: twice and its paper), and a batch whose pieces and joined bytes stay in the processor's
#: cache while they are joined and written is drawn faster (a long log's JSON is 1.5 GB)
JSON_BATCH = 32


def write(
    view: ExplainStream, fmt: str, parts: tuple[IO[bytes], IO[bytes]], after: int | None = None
) -> list[IO[bytes]]:
    """``view``'s stream (read the fast way) in ``fmt``, in the bytes of the plain way,
    written into two parts that are sent out one after the other: so the table's first
    line (which counts the deals) and JSON's deals (which follow every entry) are written
    into their place, not copied there from yet another spool.  Gives the parts to send,
    in order.  ``after``: the deals up to deal ``after`` are drawn by a child process at
    the same time, into parts of its own (render/explain_apart.py), given in their place.
    Raises ``explain_apart.Failed`` when the child did not draw them."""
    fast = view.stream.fast
    assert fast is not None
    drawer = Drawer(fast, fmt, view.stream.header.source)
    if after is not None:
        from pulyacalc.render.explain_apart import split

        draw = partial(_drawn_part, view, drawer, fmt)
        return split(view, drawer, after, parts, draw, partial(_rest, view, fmt))
    _rest(view, fmt, parts, _drawn_part(view, drawer, fmt, None, parts), None)
    return list(parts)


def _drawn_part(
    view: ExplainStream,
    drawer: Drawer,
    fmt: str,
    items: Iterator[Any] | None,
    parts: tuple[IO[bytes], IO[bytes]],
    head: bool = True,
) -> tuple[Any, ...]:
    """The deals of ``items`` (all: None) drawn into ``parts``, with what comes before the
    first deal (``head``); gives the deals shown and what JSON's end needs (``_json``)."""
    if fmt == "table":
        deals = _table_deals if _width() is None else _table_fitted
        for chunk in deals(view, drawer, items):
            parts[1].write(chunk)
        return (view.shown,)
    if fmt == "json":
        ends = _json(view, drawer, parts, items, head)
        return (view.shown, *ends)
    for chunk in _lines(view, drawer, items, head):
        parts[0].write(chunk)
    return (view.shown,)


def _rest(
    view: ExplainStream,
    fmt: str,
    parts: tuple[IO[bytes], IO[bytes]],
    mine: tuple[Any, ...],
    child: tuple[Any, ...] | None,
) -> None:
    """The end of the parts, once every deal is drawn: ``mine``, what ``_drawn_part`` gave
    here; ``child``, what it gave in a child process that drew the deals before these
    (None: none did).  Here JSON's first entry and deal then follow the child's (after
    ``,``, not ``[``, where it wrote any)."""
    if child is not None:
        view.shown += child[0]
    if fmt == "table":
        _table_head(view, parts[0])
    elif fmt == "json":
        opened, dealt, sheet = mine[1:]
        if child is not None:
            c_opened, c_dealt, c_sheet = child[1:]
            for part, here, there in ((parts[0], opened, c_opened), (parts[1], dealt, c_dealt)):
                if here and there:  # (this process's first is at the part's start)
                    part.seek(0)
                    part.write(b",")
                    part.seek(0, 2)
            opened, dealt, sheet = opened or c_opened, dealt or c_dealt, sheet if dealt else c_sheet
        _json_end(view, parts, opened, dealt, sheet)


def _width() -> int | None:
    from pulyacalc.render.view import WIDTH

    return WIDTH[0]


def _table_head(view: ExplainStream, part: IO[bytes]) -> None:
    """The table's first lines (they count the deals: written once every deal is read)."""
    from pulyacalc.core.i18n import _
    from pulyacalc.render.explain import table_head
    from pulyacalc.render.formats import fit_lines
    from pulyacalc.render.view import counted

    s = view.stream
    deals = _("deal {n} of the log").format(n=s.upto) if s.upto is not None else counted(s.count, "deal")
    part.write(fit_lines(table_head(s.convention, s.header.players, s.target, deals)).encode())


def _table_deals(view: ExplainStream, drawer: Drawer, items: Iterator[Any] | None = None) -> Iterator[bytes]:
    """The deals shown (all, or those of ``--deal N``) as the table has them, in batches;
    the paper followed through every deal: whether it still ``fit``s a layout, and the
    laid-out text of each cell that changed."""
    paper = drawer.paper
    assert paper is not None
    upto, vals, low, high, width = view.stream.upto, drawer.fast.vals, paper.low, paper.high, paper.width
    head_of, drawn = drawer.head, drawer.drawn
    fit = paper.fit()
    parts, slot = paper.parts, paper.slot
    out: list[bytes] = []
    source: Iterator[Any] = view.stream.items if items is None else items
    for item in source:
        if type(item) is not tuple:
            fit = paper.fit()
            paper.length = 0  # laid out again when next drawn from its layout
            if upto is None or item.result.number == upto:
                view.shown += 1
                out.append(plain_table(drawer, item, fit))
            continue
        head, block, number, lineno, after_finish = item
        if fit:
            laid = paper.length
            for i in block.cells:
                v = vals[i]
                if type(v) is not int or not low[i] < v < high[i]:
                    fit = False
                    paper.length = 0
                    break
                if laid:
                    parts[slot[i]] = b"%*d" % (width[i], v)
        else:
            fit = paper.fit()
        if upto is not None and number != upto:
            continue
        view.shown += 1
        top: Any = head.drawn[after_finish] if head.drawn is not None else False
        if top is False:
            top = head_of(head, after_finish)
        body = block.drawn
        if body is None:
            body = drawn(block)
        if top is None or body is False:
            out.append(plain_table(drawer, item, fit))
            continue
        out.append(top[0] % ((lineno, number) if top[1] else (number, lineno)))
        out.append(body)
        out.append(paper.draw(number, fit))
        parts = paper.parts
        if len(out) >= BATCH:
            yield b"".join(out)
            out.clear()
    yield b"".join(out)


#: stand-ins in a head fitted to a width: the deal's number and its line in the log, each
#: repeated to be as long as they are (fit_lines breaks a line at its spaces, by length)
NUMBER_MARK, LINE_MARK = "\ue0f1", "\ue0f2"
#: layouts of the fitted paper kept (forgotten all at once when full)
LAYOUTS_SIZE = 2048


def fitted_head(
    self: Drawer, head: Head, after_finish: bool, n: bytes, line: bytes, width: int
) -> bytes | None:
    """The deal's first line fitted to ``width``, as the plain way draws it (``fit_lines``),
    for the deal numbered ``n`` on line ``line`` (their digits): the unfitted head
    (``Drawer.head``) when it fits, else a head made once per head, finish and lengths of
    the two; None: drawn the plain way.  ``Head.drawn`` holds, under the finish, the
    format last used (the two lengths it is for, the format or None, whether the line
    comes first), which :func:`_table_fitted` uses as it is while the lengths stay; under
    ``(finish,)`` the unfitted format and its length but for the two numbers; under the
    finish and the lengths the format for them."""
    drawn = head.drawn
    if drawn is None:
        drawn = head.drawn = {}
    dn, dl = len(n), len(line)
    key = (after_finish, dn, dl)
    known = drawn.get(key, False)
    if known is False:
        unfitted = drawn.get((after_finish,))
        if unfitted is None:
            # the line's length but for both numbers; False: no such head, or it never fits
            # (then its format is never made: a long line's heads mostly do not fit)
            length = self.length(head, after_finish)
            top = None if length is None or length + 2 > width else self._head(head, after_finish, "%s")
            unfitted = False if top is None or length is None else (*top, length)
            drawn[(after_finish,)] = unfitted
        if unfitted and unfitted[2] + dn + dl <= width:
            known = unfitted[:2]
        else:
            # heads of one text (the same line in another state, read again) share it
            same = (head.kind, head.dealer, head.line, head.column, head.run, *key)
            known = self.fitted.get(same, False)
            if known is False:
                if len(self.fitted) >= WRITES_SIZE:
                    self.fitted.clear()
                known = self.fitted[same] = _fitted_head(self, head, after_finish, dn, dl, width)
        drawn[key] = known
    drawn[after_finish] = (dn, dl, None, False) if known is None else (dn, dl, *known)
    if known is None:
        return None
    fmt, line_first = known
    return fmt % ((line, n) if line_first else (n, line))  # type: ignore[no-any-return]


def _fitted_head(
    self: Drawer, head: Head, after_finish: bool, dn: int, dl: int, width: int
) -> tuple[bytes, bool] | None:
    from pulyacalc.render.explain import deal_head
    from pulyacalc.render.formats import fit_lines

    num, ln = NUMBER_MARK * dn, LINE_MARK * dl
    where = f"{self.file}:{ln}:{head.column}"
    line = deal_head(head.kind, num, where, head.dealer, head.line, head.run, after_finish)
    fitted = simply_fitted(line, width)
    text = "\n" + fitted if fitted is not None else fit_lines("\n" + line)
    if text.count(NUMBER_MARK) != dn or text.count(LINE_MARK) != dl or num not in text or ln not in text:
        return None
    (i, a), (j, b) = sorted([(text.find(num), num), (text.find(ln), ln)])
    pieces = (text[:i], text[i + len(a) : j], text[j + len(b) :])
    return "%s".join(p.replace("%", "%%") for p in pieces).encode(), a == ln


def simply_fitted(line: str, width: int) -> str | None:
    """``fit_lines(line)`` for ``width`` set, found without cutting the line into chunks
    (a fitted head is made for every few deals of a long log): for a line of words one
    space apart (none at its ends), with no other whitespace, cut at the last space that
    leaves the line no wider than the width (a longer word on a line of its own), the
    lines after indented by two, as ``wrap_line`` cuts it.  None for any other line.
    tests/test_explain_fast.py holds both to the same text."""
    bare = line.replace(NUMBER_MARK, "").replace(LINE_MARK, "")  # private-use: not printable
    if width < 4 or not bare.isprintable() or "  " in line or line[:1] == " " or line[-1:] == " ":
        return None
    if len(line) <= width:
        return line
    out, lead, room, at, end = [], "", width, 0, len(line)
    while end - at > room:
        cut = line.rfind(" ", at, at + room + 1)
        if cut < 0:  # the word is longer than a line
            cut = line.find(" ", at)
            if cut < 0:
                break
        out.append(lead + line[at:cut])
        lead, room, at = "  ", width - 2, cut + 1
    out.append(lead + line[at:])
    return "\n".join(out)


class FitPaper:
    """The paper after each deal fitted to the width set, as the plain way draws it
    (``grid`` fits it, ``fit_lines`` its lines): while every cell is a whole number, from
    a layout per length of the deal number and of each cell's text (``parts``: its pieces,
    each cell's text in its place, ``slot``), made by drawing it with a letter standing in
    for each cell (text that ``grid`` and ``fit_lines`` see only the length of, as
    digits) and checked once against the plain drawing; else the plain way."""

    def __init__(self, paper: Paper) -> None:
        import string

        fast = paper.fast
        self.paper, self.vals = paper, fast.vals
        w = fast.n + 2
        self.cells = [i for i in range(len(fast.vals)) if i % w - 2 != i // w]
        used = set("".join([*paper.heads, *paper.names, paper.after]))
        free = [c for c in string.ascii_letters if c not in used]
        #: a letter per cell and one for the number, none found in the paper's own text
        self.letters = free[: len(self.cells) + 1] if len(free) > len(self.cells) else None
        self.layouts: dict[tuple[int, ...], tuple[list[bytes], list[int], list[int]] | None] = {}
        #: each cell's text now and its length; the layout drawn now (None: none yet)
        self.text = [b""] * len(fast.vals)
        self.lens = [0] * len(fast.vals)
        self.parts: list[bytes] | None = None
        self.slot: list[int] = []
        #: the layout's length of deal numbers, and where the number goes in it (once per
        #: part of a paper stacked in parts: the first column is in each)
        self.digits = 0
        self.number: list[int] = []

    def load(self) -> bool:
        """Every cell's text from the paper; whether every cell is a whole number."""
        self.parts = None
        text, lens = self.text, self.lens
        for i in self.cells:
            v = self.vals[i]
            if type(v) is not int:
                return False
            text[i] = s = b"%d" % v
            lens[i] = len(s)
        return True

    def draw(self, number: int, n: bytes, ok: bool) -> bytes:
        """The paper now (``ok``: its cells' text is up to date, every one whole)."""
        parts = self.parts
        if ok and (parts is None or len(n) != self.digits):
            parts = self.lay(number, n)
        if not ok or parts is None:
            self.parts = None
            return self.paper.plain(number)
        for i in self.number:
            parts[i] = n
        return b"".join(parts)

    def lay(self, number: int, n: bytes) -> list[bytes] | None:
        """``parts`` for the cells' lengths now, filled with their text."""
        key = (len(n), *self.lens)
        if key not in self.layouts:
            if len(self.layouts) >= LAYOUTS_SIZE:
                self.layouts.clear()
            self.layouts[key] = self._layout(number, n)
        known = self.layouts[key]
        if known is None:
            return None
        pieces, slot, self.number = known
        parts = list(pieces)
        for i in self.cells:
            parts[slot[i]] = self.text[i]
        self.parts, self.slot, self.digits = parts, slot, len(n)
        return parts

    def _layout(self, number: int, n: bytes) -> tuple[list[bytes], list[int], list[int]] | None:
        import re

        from pulyacalc.render.explain import paper
        from pulyacalc.render.formats import fit_lines

        letters, p, w = self.letters, self.paper, self.paper.fast.n + 2
        if letters is None:
            return None
        mark = {i: letters[k] * self.lens[i] for k, i in enumerate(self.cells)}
        rows = [
            [
                name,
                mark[i * w],
                mark[i * w + 1],
                *("·" if j == i else mark[i * w + 2 + j] for j in range(w - 2)),
            ]
            for i, name in enumerate(p.names)
        ]
        number_mark = letters[-1] * len(n)
        text = fit_lines(paper(rows, ["  " + p.after.format(n=number_mark), *p.heads]) + "\n")
        runs = [(m.start(), m.group()) for m in re.finditer(f"[{''.join(letters)}]+", text)]
        index = {letters[k]: i for k, i in enumerate(self.cells)}
        slot = [0] * len(self.vals)
        pieces: list[bytes] = []
        last, at_number = 0, []
        for start, run in runs:
            i = index.get(run[0], -1)
            if run != (number_mark if i < 0 else mark[i]) or (i >= 0 and slot[i]):
                return None  # not each cell's stand-in once, whole
            pieces += [text[last:start].encode(), b""]
            if i < 0:
                at_number.append(len(pieces) - 1)
            else:
                slot[i] = len(pieces) - 1
            last = start + len(run)
        pieces.append(text[last:].encode())
        if not at_number or not all(slot[i] for i in self.cells):
            return None
        parts = list(pieces)
        for i in self.cells:
            parts[slot[i]] = self.text[i]
        for i in at_number:
            parts[i] = n
        if b"".join(parts) != p.plain(number):
            return None
        return pieces, slot, at_number


def _table_fitted(view: ExplainStream, drawer: Drawer, items: Iterator[Any] | None = None) -> Iterator[bytes]:
    """:func:`_table_deals` with the table fitted to the width set: each block's lines
    fitted once (``Drawer.drawn``), each head's per length of the number and line
    (:func:`fitted_head`), the paper from its layouts (``FitPaper``)."""
    from pulyacalc.render.view import WIDTH

    assert drawer.paper is not None
    fit = FitPaper(drawer.paper)
    upto, vals, text, lens = view.stream.upto, drawer.fast.vals, fit.text, fit.lens
    drawn, width = drawer.drawn, WIDTH[0]
    assert width is not None
    ok = fit.load()
    out: list[bytes] = []
    #: the layout drawn now as ``fit`` has it (None: none): its parts, where each cell's
    #: text and the number go in them, and the number's length it is for
    parts, slot, at_number, digits = fit.parts, fit.slot, fit.number, fit.digits
    batch = BATCH  # deals left before the batch's bytes are handed on
    shown = 0  # the deals drawn from their drawings (``view.shown`` counts them at the end)
    source: Iterator[Any] = view.stream.items if items is None else items
    for item in source:
        if type(item) is not tuple:
            ok = fit.load()
            parts = None
            if upto is None or item.result.number == upto:
                view.shown += 1
                out.append(plain_table(drawer, item, False))
            continue
        head, block, number, lineno, after_finish = item
        if ok:
            for i in block.cells:
                v = vals[i]
                if type(v) is not int:
                    ok = False
                    break
                text[i] = s = b"%d" % v
                if len(s) != lens[i]:
                    lens[i] = len(s)
                    fit.parts = parts = None
                elif parts is not None:
                    parts[slot[i]] = s
        else:
            ok = fit.load()
            parts = None
        if upto is not None and number != upto:
            continue
        shown += 1
        n = b"%d" % number
        line = b"%d" % lineno
        # the head as ``fitted_head`` made it last, while the lengths of the two numbers stay
        known = head.drawn
        top = known.get(after_finish) if known is not None else None
        if top is not None and top[0] == len(n) and top[1] == len(line) and top[2] is not None:
            top = top[2] % ((line, n) if top[3] else (n, line))
        else:
            top = fitted_head(drawer, head, after_finish, n, line, width)
        body = block.drawn
        if body is None:
            body = drawn(block)
        if top is None or body is False:
            out.append(plain_table(drawer, item, False))
            continue
        if ok and parts is not None and len(n) == digits:
            # the paper from the layout drawn now (``FitPaper.draw``), its parts joined
            # with the batch's
            for i in at_number:
                parts[i] = n
            out.append(top)
            out.append(body)
            out += parts
        else:
            out.append(top)
            out.append(body)
            out.append(fit.draw(number, n, ok))
            parts, slot, at_number, digits = fit.parts, fit.slot, fit.number, fit.digits
        batch -= 1
        if not batch:
            yield b"".join(out)
            out.clear()
            batch = BATCH
    view.shown += shown
    yield b"".join(out)


def _json(
    view: ExplainStream,
    drawer: Drawer,
    parts: tuple[IO[bytes], IO[bytes]],
    items: Iterator[Any] | None = None,
    head: bool = True,
) -> tuple[bool, bool, bytes | None]:
    """The document's head (``head``), the entries and the deals of ``items`` (all: None)
    into the two parts; gives whether an entry and a deal were written, and the paper
    after the last deal shown as the document has it (None: no deal)."""
    from pulyacalc.render.explain import json_head
    from pulyacalc.render.formats import nested
    from pulyacalc.render.view import sheet_json

    first, second = parts
    if head:
        first.write(json_head(view.stream).encode())
    last: list[Any] = [None]
    opened = False
    for entries, deals in _json_deals(view, drawer, last, items):
        if entries and not opened:
            entries, opened = b"[" + entries[1:], True
        first.write(entries)
        second.write(deals)
    sheet = last[0]
    if sheet is None:
        return opened, False, None
    if isinstance(sheet, list):  # the flat paper after the last deal shown
        now, drawer.fast.vals[:] = list(drawer.fast.vals), sheet
        sheet = drawer.fast.view()
        drawer.fast.vals[:] = now
    return opened, True, nested(sheet_json(sheet), 1).encode()


def _json_end(
    view: ExplainStream, parts: tuple[IO[bytes], IO[bytes]], opened: bool, dealt: bool, sheet: bytes | None
) -> None:
    """The ends of the entries and the deals, and the paper after the last deal shown (the
    log's when none is)."""
    from pulyacalc.render.formats import nested
    from pulyacalc.render.view import sheet_json

    s = view.stream
    parts[0].write((b"\n  ]" if opened else b"[]") + b',\n  "deals": ')
    if sheet is None:
        sheet = nested(sheet_json(s.sheet or _empty(s)), 1).encode()
    parts[1].write((b"\n  ]" if dealt else b"[]") + b',\n  "sheet": ' + sheet + b"\n}\n")


def _json_deals(
    view: ExplainStream, drawer: Drawer, last: list[Any], items: Iterator[Any] | None = None
) -> Iterator[tuple[bytes, bytes]]:
    """The entries and the deals shown, in batches (the first deal after ``[``, the others
    after ``,``); ``last[0]``: the paper after the last deal shown (flat, or a view)."""
    upto, vals = view.stream.upto, drawer.fast.vals
    head_of, drawn, running = drawer.head, drawer.drawn, drawer.running
    parts, slot = running if running is not None else ([], [])
    entries: list[bytes] = []
    deals: list[bytes] = []
    sep = b"["
    shown = 0  # the deals drawn from their drawings (``view.shown`` counts them at the end)
    batch = JSON_BATCH  # deals left before the batch's bytes are handed on
    source: Iterator[Any] = view.stream.items if items is None else items
    for item in source:
        if type(item) is not tuple:
            drawer.refresh()
            if upto is None or item.result.number == upto:
                view.shown += 1
                flat, deal = plain_json(drawer, item)
                entries.append(flat)
                deals.append(sep + deal)
                sep, last[0] = b",", item.running
            continue
        head, block, number, lineno, after_finish = item
        for i in block.cells:
            v = vals[i]
            parts[slot[i]] = b"%d" % v if type(v) is int else json_cell(v)
        if upto is not None and number != upto:
            continue
        shown += 1
        last[0] = vals if upto is None else list(vals)
        # the head's and the block's drawings as made before (the methods make them)
        top: Any = head.drawn
        top = top[after_finish] if top is not None else False
        if top is False:
            top = head_of(head, after_finish)
        body = block.drawn
        if body is None:
            body = drawn(block)
        if top is None or body is False or running is None:
            flat, deal = plain_json(drawer, item)
            entries.append(flat)
            deals.append(sep + deal)
            sep = b","
            continue
        n = b"%d" % number
        flat, pre, post = body
        entries.append(n.join(flat))
        deals += (
            sep,
            top[0] % ((lineno, number) if top[1] else (number, lineno)),
            n.join(pre),
            b"".join(parts),
            post,
        )
        sep = b","
        batch -= 1
        if not batch:
            yield b"".join(entries), b"".join(deals)
            entries.clear()
            deals.clear()
            batch = JSON_BATCH
    view.shown += shown
    if isinstance(last[0], list):
        last[0] = list(last[0])
    yield b"".join(entries), b"".join(deals)


def nested_pieces(flat: list[bytes]) -> list[bytes]:
    """:func:`nested_entries` of the flat entries cut where the deal's number goes, cut
    there too (a number has no line break to indent)."""
    out = [piece.replace(b"\n", b"\n    ") for piece in flat]
    out[0] = b',\n      "entries": [' + out[0][1:]
    out[-1] += b'\n      ],\n      "running": '
    return out


def nested_entries(flat: bytes) -> bytes:
    """A deal's entries as its JSON has them, up to its paper, from the flat entries
    (each after ``,\\n    ``) two levels deeper."""
    if not flat:
        return b',\n      "entries": [],\n      "running": '
    return b',\n      "entries": [' + flat[1:].replace(b"\n", b"\n    ") + b'\n      ],\n      "running": '


def json_cell(v: Any) -> bytes:
    """A paper's cell as JSON writes it."""
    from pulyacalc.render.formats import dumps
    from pulyacalc.render.view import jnum

    return b"%d" % v if type(v) is int else dumps(jnum(v)).encode()


def _lines(
    view: ExplainStream, drawer: Drawer, items: Iterator[Any] | None = None, head: bool = True
) -> Iterator[bytes]:
    """JSON Lines, CSV or TSV: a line per entry of each deal shown (of ``items``: all,
    None), after the CSV's header (``head``)."""
    if head and drawer.fmt in ("csv", "tsv"):
        import io

        from pulyacalc.render.explain import ROW_HEAD
        from pulyacalc.render.formats import write_delimited

        buf = io.StringIO()
        write_delimited(ROW_HEAD, [], buf, "," if drawer.fmt == "csv" else "\t")
        yield buf.getvalue().encode()
    upto, drawn = view.stream.upto, drawer.drawn
    out: list[bytes] = []
    source: Iterator[Any] = view.stream.items if items is None else items
    for item in source:
        if type(item) is not tuple:
            if upto is None or item.result.number == upto:
                view.shown += 1
                out.append(plain_lines(drawer, item))
            continue
        if upto is not None and item[2] != upto:
            continue
        view.shown += 1
        body = item[1].drawn
        if body is None:
            body = drawn(item[1])
        out.append(plain_lines(drawer, item) if body is False else (b"%d" % item[2]).join(body))
        if len(out) >= BATCH:
            yield b"".join(out)
            out.clear()
    yield b"".join(out)


def _empty(s: Any) -> SheetView:
    from pulyacalc.core.sheet import Sheet

    return Sheet(s.header.players).view()
