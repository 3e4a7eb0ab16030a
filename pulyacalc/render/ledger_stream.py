"""`ledger` of a whole log in flat memory (a streaming view, render/view.StreamView), in
the bytes :class:`pulyacalc.render.ledger.LedgerView` gives.

``play`` scores the log handing each row to a sink (:func:`pulyacalc.ledger.ledger_run`):
each shape writes its rows into a spool (memory, then a temporary file) as they are
scored, and gives the spool back between what goes before (the table's title names the
deal count) and after (the rounding and the settlement).  A row is written from a
template made once per distinct row (``Moved.shown``; render/ledger_text.py), with the
deal's number and, with running totals or money, the values of the deal put in.
``ledger`` is None when ``play`` could not tell every row (a newcomer): nothing is given,
and the caller writes ``LedgerView`` instead.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import partial
from itertools import repeat
from operator import mod
from typing import IO, TYPE_CHECKING, Any, cast

from pulyacalc.ledger import LedgerRow
from pulyacalc.render.ledger import (
    LedgerView,
    columns_of,
    deal_cells,
    deal_csv,
    deal_json,
    signed,
    table_align,
    table_columns,
)
from pulyacalc.render.ledger_text import MARK, Numbers, cents, money_json, slot, template
from pulyacalc.render.remembered import looked_up
from pulyacalc.render.view import SCHEMA_VERSION

if TYPE_CHECKING:
    from pulyacalc.ledger import Ledger, Moved, Sink
    from pulyacalc.ledger_totals import Block, Totals
    from pulyacalc.render.longtable import LongTable


def full_row(number: int, m: Moved, t: Totals | None) -> LedgerRow:
    """The deal's whole ``LedgerRow`` (where a template cannot be made)."""
    if t is None:
        return LedgerRow(number, m.dealer, m.text, m.result, {})
    money = money_running = None
    if t.price is not None:
        money = {p: Decimal(c) / 100 for p, c in zip(t.players, t.moved, strict=True)}
        money_running = t.paid()
    return LedgerRow(number, m.dealer, m.text, m.result, t.amounts(), money, money_running)


class _Rows:
    """A machine shape's deal rows from templates: JSON (``quoted``: a value's mark in
    quotes; ``dump`` writes a deal's object) or CSV/TSV (``dump`` writes a row's cells),
    given to ``write`` a batch at a time, as UTF-8 (rows, templates and values are bytes:
    put together, they are copied, never encoded).  A batch of deals with values is
    written column by column: each value's text once per distinct whole number of its
    column (bounded)."""

    def __init__(
        self, running: bool, dump: Callable[[Any], str], quoted: bool, write: Callable[[list[bytes]], object]
    ) -> None:
        self.running, self.dump, self.quoted, self.write = running, dump, quoted, write
        self.num = Numbers()
        self.den = 0
        #: the rows written, not given yet
        self.texts: list[bytes] = []
        #: each value of a deal, in the order of the templates' marks: its text of a whole
        #: number, whether that is a running total's numerator, and its texts so far
        self.columns: list[tuple[Callable[..., str], bool, dict[int, bytes]]] = []
        #: a JSON row's template but for its dealer and text, by its result (``_frame``)
        self.frames: dict[tuple[Any, ...], str] = {}

    def __call__(self, number: int, m: Moved, t: Totals | None) -> None:
        if t is not None:  # (a run tells such deals a block at a time: one, as a block)
            self.block([number], [m], t, t.now())
            return
        tpl = m.shown
        if tpl is None:
            tpl = m.shown = self._template(m, t)
        row = self._whole(full_row(number, m, t), t) if tpl is False else cast(bytes, tpl) % number
        self.texts.append(row)
        if len(self.texts) >= BATCH:
            self.flush()

    def block(self, numbers: list[int], moveds: list[Moved], t: Totals, b: Block) -> None:
        """Deals with running totals or money told a block at a time (``LedgerRun``): each
        value column's texts from ``b``'s column of whole numbers."""
        tpls = [m.shown for m in moveds]
        if None in tpls:
            for m in moveds:
                if m.shown is None:
                    m.shown = self._template(m, t)
            tpls = [m.shown for m in moveds]
        if any(tpl is False for tpl in tpls):  # (a text with a mark of its own) row by row
            for i, (number, m) in enumerate(zip(numbers, moveds, strict=True)):
                row = _at(t, b, i)
                self.texts.append(self._whole(full_row(number, m, row), row))
        else:
            if b.den != self.den:
                self._over(b.den)
            if not self.columns:
                self._start(t)
            sources = b.nums + b.moved + b.cents
            texts = [
                self._texts(column, sources[at]) for column, at in zip(self.columns, self.at, strict=True)
            ]
            self.texts += map(mod, cast("list[bytes]", tpls), zip(numbers, *texts, strict=True))
        if len(self.texts) >= BATCH:
            self.flush()

    def _over(self, den: int) -> None:
        """The running totals' numerators are over ``den`` now: they mean other numbers."""
        self.den = den
        for _, running, known in self.columns:
            if running:
                known.clear()

    def _texts(
        self, column: tuple[Callable[..., str], bool, dict[int, bytes]], numbers: Sequence[int]
    ) -> list[bytes]:
        """The texts of a value column's whole numbers, each distinct one made once."""
        text, running, known = column

        def make(new: list[int]) -> list[bytes]:
            return list(map(str.encode, map(text, new, repeat(self.den)) if running else map(text, new)))

        return looked_up(known, numbers, make, VALUES // len(self.columns))

    def flush(self) -> None:
        """Every row so far given to ``write``."""
        if self.texts:
            self.write(self.texts)
            self.texts = []

    def _start(self, t: Totals) -> None:
        """The columns of a deal's values, from its Totals."""
        num, n = self.num, len(t.players)
        seats = range(n)
        # (a running total's text is of its numerator and the denominator)
        columns: list[tuple[Callable[..., str], bool, int]] = []
        if self.quoted:
            if self.running:
                columns += [(num.json, True, s) for s in seats] + [(num.exact, True, s) for s in seats]
            if t.price is not None:
                columns += [(money_json, False, n + s) for s in seats]
                if self.running:
                    columns += [(money_json, False, 2 * n + s) for s in seats]
        else:
            if self.running:
                columns += [(num.decimal, True, s) for s in seats]
            if t.price is not None:
                columns += [(cents, False, n + s) for s in seats]
                if self.running:
                    columns += [(cents, False, 2 * n + s) for s in seats]
        self.columns = [(text, running, {}) for text, running, _ in columns]
        #: each column's whole numbers: which of nums + moved + cents (a Block's lists)
        self.at = [i for _, _, i in columns]

    def _whole(self, row: LedgerRow, t: Totals | None) -> bytes:
        """The row written the slow way (the way ``LedgerView`` writes it)."""
        if self.quoted:
            return self.dump(deal_json(row, self.running)).encode()
        money = t is not None and t.price is not None
        return self.dump(deal_csv(row, columns_of(tuple(row.result), self.running, money))).encode()

    def _template(self, m: Moved, t: Totals | None) -> bytes | bool:
        money = t is not None and t.price is not None
        marked = MarkedRow(m.dealer, m.text, m.result, self.running and t is not None, money)
        if self.quoted and not _STANDS.intersection(m.dealer + m.text):
            # a JSON row is its frame (once per result) with its dealer and text put in
            key = (tuple(m.result.items()), marked.running, money)
            frame = self.frames.get(key)
            if frame is None:
                if len(self.frames) > FRAMES:
                    self.frames.clear()
                frame = self.frames[key] = self._frame(replace(marked, dealer=DEALER, text=TEXT))
            if frame:
                return _framed(frame, m.dealer, m.text)
        return self._made(marked)

    def _frame(self, marked: MarkedRow) -> str:
        """The template of a row whose dealer and text are ``DEALER`` and ``TEXT`` (each
        written once, in its quotes); "" where it is not so."""
        from json.encoder import encode_basestring

        got = self.dump(marked.json())
        text = template(got, 1 + marked.count(True), True, "%d")
        if text is None or any(text.count(encode_basestring(c)) != 1 for c in (DEALER, TEXT)):
            return ""
        return text

    def _made(self, marked: MarkedRow) -> bytes | bool:
        """The row's template made whole; False where it cannot be."""
        text = self.dump(marked.json() if self.quoted else marked.csv())
        got = template(text, 1 + marked.count(self.quoted), self.quoted, "%d")
        return False if got is None else got.encode()


#: what stands for a JSON row's dealer and text in its frame (``_Rows._frame``: private-use
#: characters, written as they are), and the characters a row's own dealer or text may not
#: have for it to be put in a frame
DEALER, TEXT = "\ue0fd", "\ue0fe"
_STANDS = frozenset((DEALER, TEXT, MARK))
#: frames remembered (each a distinct result of a deal)
FRAMES = 50_000


def _framed(frame: str, dealer: str, text: str) -> bytes:
    """A JSON row's template: its frame with its dealer and text put in (as JSON writes
    them, a ``%`` doubled for the template)."""
    from json.encoder import encode_basestring

    return (
        frame.replace(encode_basestring(DEALER), encode_basestring(dealer).replace("%", "%%"), 1)
        .replace(encode_basestring(TEXT), encode_basestring(text).replace("%", "%%"), 1)
        .encode()
    )


#: deals written, and rows given, at a time
BATCH = 2048


def _at(t: Totals, b: Block, i: int) -> Totals:
    """The totals after row ``i`` of block ``b`` (a row written the slow way)."""
    from pulyacalc.ledger_totals import Totals

    row = Totals(t.players, None)
    row.price, row.den, row.nums = t.price, b.den, [col[i] for col in b.nums]
    if b.cents:
        row.cents, row.moved = [col[i] for col in b.cents], [col[i] for col in b.moved]
    return row


@dataclass(frozen=True)
class MarkedRow:
    """A deal's row with marks for its number and its values (``ledger_text.slot``)."""

    dealer: str
    text: str
    result: dict[str, Any]
    running: bool
    money: bool

    def count(self, json: bool) -> int:
        """How many values of the deal (marks after the number's): in JSON the running
        totals twice (as a number and exact)."""
        return len(self.result) * ((1 + json) * self.running + self.money * (1 + self.running))

    def json(self) -> dict[str, Any]:
        """``deal_json`` with marks, the values' keys in its order."""
        out = deal_json(LedgerRow(0, self.dealer, self.text, self.result, {}), False)
        out["number"] = slot(0)
        names = ["running", "running_exact"] if self.running else []
        if self.money:
            names += ["money", "money_running"] if self.running else ["money"]
        i = 1
        for name in names:
            out[name] = {p: slot(i + k) for k, p in enumerate(self.result)}
            i += len(self.result)
        return out

    def csv(self) -> list[Any]:
        """``deal_csv`` with marks."""
        columns = columns_of(tuple(self.result), False, False)
        cells = deal_csv(LedgerRow(0, self.dealer, self.text, self.result, {}), columns)
        cells[0] = slot(0)
        return cells + [slot(i) for i in range(1, 1 + self.count(False))]


@dataclass
class LedgerStream:
    """``ledger`` of a whole log in flat memory (see the module's text)."""

    play: Callable[[Sink], Ledger | None]
    #: add the running totals (``--running``)
    running: bool = False
    ledger: Ledger | None = None
    #: where the rows of a machine shape go as the UTF-8 bytes spooled (read from where the
    #: spool stands), in their place among the chunks: standard output takes them as they
    #: are (cli.runtime.emit_bytes), not decoded to be encoded again; None: given as chunks
    raw: Callable[[IO[bytes]], None] | None = None
    #: a long table's rows drawn in two processes (render/halves.py)
    apart: bool = False

    def _played(self, sink: Sink) -> Ledger | None:
        self.ledger = self.play(sink)
        return self.ledger

    def _spooled(self, spool: IO[bytes]) -> Iterator[str]:
        """The rows spooled, given to ``raw`` or as text."""
        spool.seek(0)
        if self.raw is not None:
            self.raw(spool)
            return
        decoder = codecs.getincrementaldecoder("utf-8")()
        while chunk := spool.read(1 << 16):
            yield decoder.decode(chunk)
        yield decoder.decode(b"", final=True)

    def table_chunks(self) -> Iterator[str]:
        with _spool(text=True) as spool:
            sink = _TableSink(spool, self.running, self.apart)
            lg = self._played(sink)
            if lg is None:
                return
            view = LedgerView(lg, self.running)
            table, columns = sink.table or sink.start(lg.players, lg.settlement.money is not None)
            sink.measured()
            table.first = len(sink.last)
            for cells in view._final_rows(columns):
                table.measure(cells)
                table.row(cells[0], cells[1:])
            if table.broken:
                self.ledger = None
                return
            yield view._title() + "\n\n"
            yield from table.lines()
            yield "\n" + "\n".join(view._notes()) + "\n"

    def table(self) -> str:
        return "".join(self.table_chunks())

    def json_chunks(self) -> Iterator[str]:
        from pulyacalc.render.formats import dumps, nested

        first = [True]

        def write(texts: list[bytes]) -> None:
            spool.write((b"[" if first[0] else b",") + b"\n    " + b",\n    ".join(texts))
            first[0] = False

        rows = _Rows(self.running, lambda obj: nested(obj, 2), True, write)
        with _spool() as spool:
            lg = self._played(rows)
            if lg is None:
                return
            rows.flush()
            doc = LedgerView(lg, self.running).document()
            head = {k: doc.pop(k) for k in ("schema_version", "players")}
            del doc["deals"]
            yield dumps(head).removesuffix("\n}") + ',\n  "deals": '
            yield from self._spooled(spool)
            yield ("[]" if first[0] else "\n  ]") + "," + dumps(doc)[1:] + "\n"

    def jsonl_chunks(self) -> Iterator[str]:
        """The text of ``render(view, "jsonl")``, piece by piece."""
        import json

        head = {"schema_version": SCHEMA_VERSION, "row": "deal"}
        rows = _Rows(
            self.running,
            lambda obj: json.dumps({**head, **obj}, ensure_ascii=False),
            True,
            lambda texts: spool.write(b"\n".join(texts) + b"\n"),
        )
        with _spool() as spool:
            lg = self._played(rows)
            if lg is None:
                return
            rows.flush()
            yield from self._spooled(spool)
            yield json.dumps(LedgerView(lg, self.running).records()[-1], ensure_ascii=False) + "\n"

    def records_iter(self) -> Iterator[dict[str, Any]]:
        import json

        for chunk in _lines(self.jsonl_chunks()):
            yield json.loads(chunk)

    def records(self) -> list[dict[str, Any]]:
        return list(self.records_iter())

    def delimited_chunks(self, delimiter: str) -> Iterator[str]:
        """The text of ``render(view, "csv")`` (or ``"tsv"``), piece by piece."""
        rows = _Rows(
            self.running,
            lambda cells: _delimited([cells], delimiter),
            False,
            lambda t: spool.write(b"".join(t)),
        )
        with _spool() as spool:
            lg = self._played(rows)
            if lg is None:
                return
            rows.flush()
            view = LedgerView(lg, self.running)
            yield _delimited([view.rows()[0]], delimiter)
            yield from self._spooled(spool)
            yield _delimited([view._rounding_csv(view._columns())], delimiter)

    def rows_iter(self) -> tuple[list[str], Iterator[list[Any]]]:
        import csv

        lines = _lines(self.delimited_chunks(","))
        head = next(csv.reader([next(lines, "")]), [])
        return head, csv.reader(lines)

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        head, rows = self.rows_iter()
        return head, list(rows)

    def document(self) -> dict[str, Any]:
        import json

        return cast(dict[str, Any], json.loads("".join(self.json_chunks())))


def _delimited(rows: list[list[Any]], delimiter: str) -> str:
    """Rows as CSV (or TSV) text, through the package's one writer."""
    import io

    from pulyacalc.render.formats import write_delimited

    buf = io.StringIO()
    write_delimited(rows[0], rows[1:], buf, delimiter)
    return buf.getvalue()


def _lines(chunks: Iterator[str]) -> Iterator[str]:
    """The lines of text given in pieces (each with its line break)."""
    tail = ""
    for chunk in chunks:
        lines = (tail + chunk).split("\n")
        tail = lines.pop()
        for line in lines:
            yield line + "\n"
    if tail:
        yield tail


class _TableSink:
    """The table's rows into a ``LongTable`` as they are scored, made at the first (the
    players and whether there is money are known then): a deal's row is its number, its
    template (``LongTable.template``, once per ``Moved``) and the text of its values."""

    def __init__(self, spool: IO[str], running: bool, apart: bool = False) -> None:
        self.spool, self.running, self.apart = spool, running, apart
        self.table: tuple[LongTable, list[tuple[str, str]]] | None = None
        self.last = ""  # the last number written
        self.num = Numbers()
        self.den = 0

    def start(self, players: tuple[str, ...], money: bool) -> tuple[LongTable, list[tuple[str, str]]]:
        from pulyacalc.render.longtable import BATCH, SEP, LongTable

        self.sep, self.batch = SEP, BATCH
        columns, head = table_columns(players, self.running, money)
        table = LongTable(head, table_align(columns), self.spool)
        table.apart = self.apart
        self.table = (table, columns)
        self.buffer, self.flush = table.buffer, table.flush
        #: the cells of the deal's values: (column, kind, the player's seat)
        values = [(i, k, players.index(p)) for i, (k, p) in enumerate(columns, 3) if k != "result"]
        table.slots = tuple(i for i, _, _ in values)
        table.tails = {i: 3 for i, k, _ in values if k != "running"}  # (cents: .xx)
        #: each value column: its kind, its texts so far (by the whole number it shows:
        #: a running total's numerator, cents) and the widest (plain, whole part, tail)
        self.columns: list[tuple[str, dict[int, str], list[int]]] = [(k, {}, [0, 0, 0]) for _, k, _ in values]
        # each column's whole numbers: which of nums + moved + cents (a Block's lists)
        n = len(players)
        self.at = [seat + {"running": 0, "money": n, "money_running": 2 * n}[k] for _, k, seat in values]
        return self.table

    def __call__(self, number: int, m: Moved, t: Totals | None) -> None:
        k = m.shown
        if k is None:
            k = m.shown = self._template(number, m, t)
        if t is None:
            # LongTable.row written out (once a deal): numbers only grow, the last is widest
            self.last = first = str(number)
            buffer = self.buffer
            buffer.append(f"{first}{self.sep}{k}\n")
            if len(buffer) >= self.batch:
                self.flush()
            return
        self.block([number], [m], t, t.now())  # (a run tells such deals a block at a time)

    def block(self, numbers: list[int], moveds: list[Moved], t: Totals, b: Block) -> None:
        """Deals with running totals or money told a block at a time (``LedgerRun``): each
        value column's texts from ``b``'s column of whole numbers, written as a block."""
        keys = [m.shown for m in moveds]
        if None in keys:
            for number, m in zip(numbers, moveds, strict=True):
                if m.shown is None:
                    m.shown = self._template(number, m, t)
            keys = [m.shown for m in moveds]
        if b.den != self.den:  # the running totals' numerators mean other numbers now
            self.den = b.den
            for kind, known, _ in self.columns:
                if kind == "running":
                    known.clear()
        sources = b.nums + b.moved + b.cents
        texts = []
        bound = VALUES // len(self.columns)
        for column, at in zip(self.columns, self.at, strict=True):
            make = partial(self._running if column[0] == "running" else self._money, column)
            texts.append(looked_up(column[1], sources[at], make, bound))
        self.table[0].block(numbers, cast("list[str]", keys), texts)  # type: ignore[index]  # (started by _template)
        self.last = str(numbers[-1])

    def _template(self, number: int, m: Moved, t: Totals | None) -> str:
        """The row's cells after its number, measured, as a template (a blank where each
        of the deal's values goes)."""
        table, columns = self.table or self.start(tuple(m.result), t is not None and t.price is not None)
        cells = deal_cells(LedgerRow(number, m.dealer, m.text, m.result, {}), columns[:0])
        table.measure(cells, 1)
        for i, (k, p) in enumerate(columns, 3):
            cells.append(signed(m.result[p]) if k == "result" else "")
            if k == "result":
                table.measure(cells[-1:], i)
        return table.template(cells, t is not None and bool(table.slots))

    def _money(self, column: tuple[str, dict[int, str], list[int]], new: list[int]) -> list[str]:
        """The texts of a money column's new cents (``looked_up``), measured by the largest
        and the smallest (a text of cents is the longer the farther from 0 on its side)."""
        kind, _, size = column
        texts = list(map(cents, new, repeat(kind == "money")))
        for n in (max(new), min(new)):
            text = cents(n, kind == "money")
            size[0], size[1], size[2] = max(size[0], len(text)), max(size[1], len(text) - 3), 3
        return texts

    def _running(self, column: tuple[str, dict[int, str], list[int]], new: list[int]) -> list[str]:
        """The texts of a running total column's new numerators (``looked_up``), measured
        (``LongTable.number`` written out: the widest of each kept here)."""
        size = column[2]
        show, den = self.num.show, self.den
        plain, wide, tails = size
        texts = []
        for n in new:
            text, whole, tail = show(n, den)
            texts.append(text)
            if len(text) > plain:
                plain = len(text)
            if whole > wide:
                wide = whole
            if tail > tails:
                tails = tail
        size[0], size[1], size[2] = plain, wide, tails
        return texts

    def measured(self) -> None:
        """The values' widths told to the table (``_running`` and ``_money`` kept the widest)."""
        if self.table is not None:
            table = self.table[0]
            for i, (_, known, (plain, whole, tail)) in zip(table.slots, self.columns, strict=True):
                known.clear()  # (their memory to the drawing's)
                if plain:
                    table.number(i, plain, whole, tail)


#: distinct values remembered as text, of all the value columns together (about 150 bytes
#: each: a long log's running totals take some 85,000 values in each column)
VALUES = 1_000_000


def _spool(text: bool = False) -> Any:
    """Memory, then a temporary file: of text (a table's rows, read back line by line) or
    of UTF-8 bytes (a machine shape's)."""
    import tempfile

    if text:
        return tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY, mode="w+", encoding="utf-8")
    return tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY, mode="w+b")


#: bytes a spool keeps in memory before it is a temporary file
SPOOL_MEMORY = 1 << 20
