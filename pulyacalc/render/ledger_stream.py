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

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
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
from pulyacalc.render.ledger_text import Numbers, cents, money_json, slot, template
from pulyacalc.render.view import SCHEMA_VERSION

if TYPE_CHECKING:
    from pulyacalc.ledger import Ledger, Moved, Sink
    from pulyacalc.ledger_totals import Totals
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
    quotes; ``dump`` writes a deal's object) or CSV/TSV (``dump`` writes a row's cells)."""

    def __init__(self, running: bool, dump: Callable[[Any], str], quoted: bool) -> None:
        self.running, self.dump, self.quoted = running, dump, quoted
        self.num = Numbers()

    def text(self, number: int, m: Moved, t: Totals | None) -> str:
        tpl = m.shown
        if tpl is None:
            tpl = m.shown = self._template(m, t)
        if tpl is False:
            return self._whole(full_row(number, m, t), t)
        if t is None:
            return cast(str, tpl) % number
        return cast(str, tpl) % (number, *self.values(t))

    def _whole(self, row: LedgerRow, t: Totals | None) -> str:
        """The row written the slow way (the way ``LedgerView`` writes it)."""
        if self.quoted:
            return self.dump(deal_json(row, self.running))
        money = t is not None and t.price is not None
        return self.dump(deal_csv(row, columns_of(tuple(row.result), self.running, money)))

    def _template(self, m: Moved, t: Totals | None) -> str | bool:
        money = t is not None and t.price is not None
        marked = MarkedRow(m.dealer, m.text, m.result, self.running and t is not None, money)
        text = self.dump(marked.json() if self.quoted else marked.csv())
        got = template(text, 1 + marked.count(self.quoted), self.quoted)
        return False if got is None else got

    def values(self, t: Totals) -> list[str]:
        """The deal's values in the order of the template's marks."""
        num, den = self.num, t.den
        out: list[str] = []
        if self.quoted:
            if self.running:
                out = [num.json(n, den) for n in t.nums] + [num.exact(n, den) for n in t.nums]
            if t.price is not None:
                out += [money_json(c) for c in t.moved]
                if self.running:
                    out += [money_json(c) for c in t.cents]
            return out
        if self.running:
            out = [num.decimal(n, den) for n in t.nums]
        if t.price is not None:
            out += [cents(c) for c in t.moved]
            if self.running:
                out += [cents(c) for c in t.cents]
        return out


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

    def _played(self, sink: Sink) -> Ledger | None:
        self.ledger = self.play(sink)
        return self.ledger

    def table_chunks(self) -> Iterator[str]:
        from pulyacalc.render.longtable import SEP

        with _spool() as spool:
            sink = _TableSink(spool, self.running)
            lg = self._played(sink)
            if lg is None:
                return
            view = LedgerView(lg, self.running)
            table, columns = sink.table or sink.start(lg.players, lg.settlement.money is not None)
            sink.measured()
            table.first = len(sink.last)
            for cells in view._final_rows(columns):
                table.measure(cells)
                table.row(cells[0], SEP.join(cells[1:]))
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
        rows = _Rows(self.running, lambda obj: nested(obj, 2), True)

        def sink(number: int, m: Moved, t: Totals | None) -> None:
            spool.write(("[" if first[0] else ",") + "\n    " + rows.text(number, m, t))
            first[0] = False

        with _spool() as spool:
            lg = self._played(sink)
            if lg is None:
                return
            doc = LedgerView(lg, self.running).document()
            head = {k: doc.pop(k) for k in ("schema_version", "players")}
            del doc["deals"]
            yield dumps(head).removesuffix("\n}") + ',\n  "deals": '
            yield from _spooled(spool)
            yield ("[]" if first[0] else "\n  ]") + "," + dumps(doc)[1:] + "\n"

    def jsonl_chunks(self) -> Iterator[str]:
        """The text of ``render(view, "jsonl")``, piece by piece."""
        import json

        head = {"schema_version": SCHEMA_VERSION, "row": "deal"}
        rows = _Rows(self.running, lambda obj: json.dumps({**head, **obj}, ensure_ascii=False), True)
        with _spool() as spool:
            lg = self._played(lambda number, m, t: spool.write(rows.text(number, m, t) + "\n"))
            if lg is None:
                return
            yield from _spooled(spool)
            yield json.dumps(LedgerView(lg, self.running).records()[-1], ensure_ascii=False) + "\n"

    def records_iter(self) -> Iterator[dict[str, Any]]:
        import json

        for chunk in _lines(self.jsonl_chunks()):
            yield json.loads(chunk)

    def records(self) -> list[dict[str, Any]]:
        return list(self.records_iter())

    def delimited_chunks(self, delimiter: str) -> Iterator[str]:
        """The text of ``render(view, "csv")`` (or ``"tsv"``), piece by piece."""
        rows = _Rows(self.running, lambda cells: _delimited([cells], delimiter), False)
        with _spool() as spool:
            lg = self._played(lambda number, m, t: spool.write(rows.text(number, m, t)))
            if lg is None:
                return
            view = LedgerView(lg, self.running)
            yield _delimited([view.rows()[0]], delimiter)
            yield from _spooled(spool)
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
    players and whether there is money are known then)."""

    def __init__(self, spool: IO[str], running: bool) -> None:
        self.spool, self.running = spool, running
        self.table: tuple[LongTable, list[tuple[str, str]]] | None = None
        self.last = ""  # the last number written
        self.num = Numbers()

    def start(self, players: tuple[str, ...], money: bool) -> tuple[LongTable, list[tuple[str, str]]]:
        from pulyacalc.render.longtable import BATCH, SEP, LongTable

        self.sep, self.batch = SEP, BATCH
        columns, head = table_columns(players, self.running, money)
        self.table = (LongTable(head, table_align(columns), self.spool), columns)
        self.buffer, self.flush = self.table[0].buffer, self.table[0].flush
        #: the cells of the deal's values: (column, kind, the player's seat)
        self.values = [(i, k, players.index(p)) for i, (k, p) in enumerate(columns, 3) if k != "result"]
        #: the widest of each value so far: (plain, whole part, tail), and its kind and seat
        self.sizes = [([0, 0, 0], k, seat) for _, k, seat in self.values]
        return self.table

    def __call__(self, number: int, m: Moved, t: Totals | None) -> None:
        rest = m.shown
        if rest is None:
            rest = m.shown = self._rest(number, m, t)
        if t is not None:
            rest = self._filled(number, m, t, cast("str | bool", rest))
        # LongTable.row written out (once a deal): numbers only grow, the last is the widest
        self.last = first = str(number)
        buffer = self.buffer
        buffer.append(f"{first}{self.sep}{rest}\n")
        if len(buffer) >= self.batch:
            self.flush()

    def _rest(self, number: int, m: Moved, t: Totals | None) -> str | bool:
        """The row's cells after its number, measured: a template for the deal's values
        (False where none can be made)."""
        from pulyacalc.render.longtable import SEP

        table, columns = self.table or self.start(tuple(m.result), t is not None and t.price is not None)
        cells = deal_cells(LedgerRow(number, m.dealer, m.text, m.result, {}), columns[:0])
        table.measure(cells, 1)
        marks = 0
        for i, (k, p) in enumerate(columns, 3):
            if k == "result":
                cells.append(signed(m.result[p]))
                table.measure(cells[-1:], i)
            else:
                cells.append(slot(marks))  # the deal's values: _filled, in this order
                marks += 1
        if t is None:
            return SEP.join(cells)
        got = template(SEP.join(cells), len(self.values), False)
        return False if got is None else got

    def _filled(self, number: int, m: Moved, t: Totals, rest: str | bool) -> str:
        """The row's cells after its number with the deal's values, each measured."""
        from pulyacalc.render.longtable import SEP

        table = self.table[0]  # type: ignore[index]  # started by _rest
        if rest is False:
            cells = deal_cells(full_row(number, m, t), self.table[1])  # type: ignore[index]
            table.measure(cells, 1)
            return SEP.join(cells)
        nums, den, show, out = t.nums, t.den, self.num.show, []
        for size, kind, seat in self.sizes:
            if kind == "running":
                text, whole, tail = show(nums[seat], den)
            else:
                text = cents(t.moved[seat], True) if kind == "money" else cents(t.cents[seat])
                whole, tail = len(text) - 3, 3
            # LongTable.number written out (once a value): the widest of each kept here
            if len(text) > size[0]:
                size[0] = len(text)
            if whole > size[1]:
                size[1] = whole
            if tail > size[2]:
                size[2] = tail
            out.append(text)
        return cast(str, rest) % tuple(out)

    def measured(self) -> None:
        """The values' widths told to the table (``_filled`` kept the widest)."""
        if self.table is not None:
            for (size, _, _), (i, _, _) in zip(self.sizes, self.values, strict=True):
                plain, whole, tail = size
                if plain:
                    self.table[0].number(i, plain, whole, tail)


def _spool() -> Any:
    import tempfile

    return tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8")


def _spooled(spool: IO[str]) -> Iterator[str]:
    spool.seek(0)
    while chunk := spool.read(1 << 16):
        yield chunk
