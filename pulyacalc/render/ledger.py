"""`ledger` as a view: a row per deal, then the rounding's, so every column adds up to the settlement (only
the table shows it too: a program would count it twice); a row's cells made once per ``Moved``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from itertools import chain
from typing import TYPE_CHECKING, Any

from pulyacalc.core.i18n import _
from pulyacalc.core.remembered import Remembered
from pulyacalc.render.formats import Later, Made, Spool, delimited_line, members
from pulyacalc.render.view import (
    SCHEMA_VERSION,
    Spent,
    convention_title,
    counted,
    decimal,
    each,
    fraction_text,
    jnum,
    rounding_name,
    show,
    signed,
    twins,
)
from pulyacalc.reports.ledger import Ledger, LedgerRow, Moved

if TYPE_CHECKING:
    from pulyacalc.core.amounts import Amount
    from pulyacalc.render.table import LongTable
    from pulyacalc.reports.ledger import Sink

#: a ledger scored as it is read, each row to the sink (``ledger.ledger_run``)
Play = Callable[["Sink"], "Ledger | None"]
#: (which value, player) of each player column
Columns = list[tuple[str, str]]


class LedgerView:
    """``ledger`` in every shape, its rows written as they come: ``source`` a ledger or a play of the log."""

    def __init__(self, source: Ledger | Play, running: bool = False) -> None:
        self.source, self.running = source, running

    def _spent(self, rows: Any) -> Ledger:
        """The log played into ``rows`` (:class:`Unseated` where not every row could be told)."""
        add, source = rows.add, self.source
        if isinstance(source, Ledger):
            for row in source.rows:
                add(row)
            return source
        lg = source(add)
        if lg is None:
            raise Unseated
        return lg

    def table(self) -> Spent:
        """The log played and its rows spooled now; the table drawn as it is written."""
        rows = TableRows(self.running)
        try:
            lg = self._spent(rows)
            table, columns = rows.finished(lg.players, lg.settlement.money is not None)
            for cells in final_rows(lg, columns):
                table.add(cells)
        except BaseException:
            rows.close()
            raise

        def text() -> Iterator[str]:
            try:
                yield title(lg) + "\n\n"
                yield from table.lines()
                yield "\n" + "\n".join(notes(lg)) + "\n"
            finally:
                rows.close()

        return Spent(text())

    def document(self) -> dict[str, Any]:
        spool = Spool(BATCH)
        try:
            rows = JsonRows(self.running, spool)
            lg = self._spent(rows)
        except BaseException:
            spool.file.close()
            raise

        s = lg.settlement
        doc: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "players": list(lg.players),
            "deals": Made(lambda fmt: chain(spool.pieces(), ["\n  ]" if rows.count else "[]"])),
            "rounding": rounding_json(lg),
            "settlement": {p: jnum(s.result[p]) for p in lg.players},
            "settlement_exact": {p: fraction_text(s.exact[p]) for p in lg.players},
        }
        if s.money is not None and s.whist_price is not None:
            doc["whist_price"] = float(s.whist_price)
            doc["money"] = each(jnum, s.money)
        return doc

    def records(self) -> Made:
        return Made(self._records)

    def _records(self, fmt: str) -> Iterator[str]:
        import json

        with Spool(BATCH) as spool:
            lg = self._spent(JsonlRows(self.running, spool))
            yield from spool.pieces()
            rounding = rounding_json(lg)  # the last line: the rounding's
            record = {"schema_version": SCHEMA_VERSION, "row": "rounding", "rounding": rounding.pop("name")}
            yield json.dumps(record | rounding, ensure_ascii=False) + "\n"

    def rows(self) -> tuple[Later, Made]:
        """The head names the columns the ledger ends with (asked once the rows are spent)."""
        columns: Columns = []

        def body(fmt: str) -> Iterator[str]:
            delimiter = "," if fmt == "csv" else "\t"
            with Spool(BATCH) as spool:
                lg = self._spent(DelimitedRows(self.running, spool, delimiter))
                columns.extend(columns_of(lg.players, self.running, lg.settlement.money is not None))
                yield from spool.pieces()
                values = rounding_values(lg)  # the last row: the rounding's
                cells = ["", "", f"rounding {lg.rounding_name}", *[decimal(values[k][p]) for k, p in columns]]
                yield delimited_line(cells, delimiter)

        return Later(lambda: ["number", "dealer", "text", *[f"{k}_{p}" for k, p in columns]]), Made(body)


class Unseated(Exception):
    """A play that could not tell every row (a newcomer seated): the caller reads the log again."""


# ---- what goes before and after the rows ----


def by_kind(result: Any, running: Any, money: Any, money_running: Any) -> dict[str, dict[str, Any]]:
    """A row's values by the kind of its columns (:func:`columns_of`)."""
    return {"result": result, "running": running, "money": money or {}, "money_running": money_running or {}}


def rounding_values(lg: Ledger) -> dict[str, dict[str, Any]]:
    return by_kind(lg.rounding, lg.settlement.result, lg.money_rounding, lg.settlement.money)


def rounding_json(lg: Ledger) -> dict[str, Any]:
    out: dict[str, Any] = {"name": lg.rounding_name, **twins("result", lg.rounding)}
    if lg.money_rounding is not None:
        out["money"] = each(jnum, lg.money_rounding)
    return out


def final_rows(lg: Ledger, columns: Columns) -> list[list[str]]:
    """The table's last rows: the rounding's (unless exact), and the settlement."""
    s = lg.settlement
    rows: list[list[str]] = []
    if lg.rounding_name != "exact":
        values = rounding_values(lg)
        name = _("rounding {rounding}").format(rounding=rounding_name(lg.rounding_name))
        rows.append(["", "", name, *[_cell(k, values[k][p]) for k, p in columns]])
    final = by_kind(s.result, s.result, s.money, s.money)
    rows.append(["", "", _("settlement"), *[_cell(k, final[k][p]) for k, p in columns]])
    return rows


def title(lg: Ledger) -> str:
    ev, s = lg.evening, lg.settlement
    parts = [convention_title(ev.convention), counted(len(lg.players), "player")]
    parts += [_("pool to {target}").format(target=ev.target), counted(ev.deals, "deal")]
    if s.whist_price is not None:
        parts.append(_("whist price {price}").format(price=s.whist_price))
    return ", ".join(parts) + ": " + _("what each deal moved the results by, in whists")


def notes(lg: Ledger) -> list[str]:
    s = lg.settlement
    rounded = _(
        "The deals' rows add up exactly to the exact settlement; the last row is what "
        "rounding {rounding} moves, so each column adds up to the settlement."
    )
    if lg.rounding_name == "exact":
        rounded = _("The rows add up exactly to the settlement (rounding exact).")
    row = _(
        "A row is what the deal's entries add to the settlement (RULES.md §3.8), "
        "not the evening without the deal."
    )
    out = [rounded.format(rounding=rounding_name(lg.rounding_name)), row]
    if s.whist_price is not None:
        money = _(
            "Money: each running total to the cent, as score rounds it; a deal's money is "
            "the change of the running total (its result × {price}, within a cent)."
        )
        out.append(money.format(price=s.whist_price))
    return out


# ---- a deal's row in each shape ----


def row_values(row: LedgerRow) -> dict[str, dict[str, Any]]:
    return by_kind(row.moved.result, row.running, row.money, row.money_running)


def columns_of(players: tuple[str, ...], running: bool, money: bool) -> Columns:
    """(which value, player) for each player column, in the order of the CSV header."""
    kinds = ["result"]
    if running:
        kinds.append("running")
    if money:
        kinds += ["money", "money_running"] if running else ["money"]
    return [(k, p) for k in kinds for p in players]


def table_columns(players: tuple[str, ...], running: bool, money: bool) -> tuple[Columns, list[str]]:
    """The table's player columns (each player's together) and its header (the CSV names with spaces)."""
    columns = sorted(columns_of(players, running, money), key=lambda c: players.index(c[1]))
    names = {
        "result": _("result {player}"),
        "running": _("running {player}"),
        "money": _("money {player}"),
        "money_running": _("money running {player}"),
    }
    return columns, [_("number"), _("dealer"), _("text"), *[names[k].format(player=p) for k, p in columns]]


def table_align(columns: Columns) -> tuple[str, ...]:
    return ("right", "left", "left", *["right"] * len(columns))


def _cell(kind: str, value: Amount | Decimal) -> str:
    """A change is signed (+12), a running total is not."""
    return show(value) if kind.endswith("running") else signed(value)


def moved_json(m: Moved) -> dict[str, Any]:
    """A deal's object in JSON but its number and values: its dealer, text and result."""
    return {"dealer": m.dealer, "text": m.text, **twins("result", m.result)}


def values_json(row: LedgerRow, running: bool) -> dict[str, Any]:
    """A deal's values in JSON: the running totals (``running``) and the money."""
    out: dict[str, Any] = twins("running", row.running) if running else {}
    if row.money is not None and row.money_running is not None:
        out["money"] = each(jnum, row.money)
        if running:
            out["money_running"] = each(jnum, row.money_running)
    return out


class JsonRows:
    """Deals written into the JSON document's array, two levels deep, each ``Moved``'s members once."""

    def __init__(self, running: bool, out: Spool) -> None:
        self.written = out.write
        self.running, self.count = running, 0
        self.moved = Remembered(self._moved)
        #: the members of each distinct result (many rows move the results alike)
        self.results = Remembered(lambda _, m: members(twins("result", m.result), 2))

    def _moved(self, m: Moved) -> str:
        """The members of a row's ``Moved`` (``moved_json``), its result's made once."""
        result: str = self.results.made(tuple(m.result.items()), m)
        return members({"dealer": m.dealer, "text": m.text}, 2) + "," + result

    def add(self, row: LedgerRow) -> None:
        text = self.moved(row.moved)
        if self.running or row.money is not None:
            text += "," + members(values_json(row, self.running), 2)
        self.written(f'{"," if self.count else "["}\n    {{\n      "number": {row.number},{text}\n    }}')
        self.count += 1


#: rows written to a spool at a time
BATCH = 1024


class JsonlRows:
    def __init__(self, running: bool, out: Spool) -> None:
        self.written, self.running = out.write, running
        self.head = {"schema_version": SCHEMA_VERSION, "row": "deal"}
        self.moved = Remembered(moved_json)

    def add(self, row: LedgerRow) -> None:
        import json

        obj = {**self.head, "number": row.number, **self.moved(row.moved), **values_json(row, self.running)}
        self.written(json.dumps(obj, ensure_ascii=False) + "\n")


class DelimitedRows:
    """Deals written as CSV (or TSV) rows; a row's cells but its number and values made once per ``Moved``."""

    def __init__(self, running: bool, out: Spool, delimiter: str) -> None:
        self.written = out.write
        self.running, self.delimiter = running, delimiter
        self.columns: Columns | None = None
        self.moved = Remembered(lambda m: [m.dealer, m.text, *[decimal(m.result[p]) for p in m.result]])

    def add(self, row: LedgerRow) -> None:
        columns = self.columns
        if columns is None:
            columns = self.columns = columns_of(tuple(row.result), self.running, row.money is not None)
        cells = [row.number, *self.moved(row.moved)]
        if len(columns) > len(row.result):
            values = row_values(row)
            cells += [decimal(values[k][p]) for k, p in columns[len(row.result) :]]
        self.written(delimited_line(cells, self.delimiter))


class TableRows:
    """The table's rows into one ``LongTable`` made at the first; a deal's cells once per ``Moved``."""

    def __init__(self, running: bool) -> None:
        self.running = running
        self.table: LongTable | None = None
        self.columns: Columns = []
        self.values: list[tuple[int, str, str]] = []  # (column, kind, player) of each value cell
        self.cells = Remembered(self._cells)
        #: each value's text, made once per distinct value (running totals, money)
        self.texts = Remembered(lambda key, v: _cell(key[0], v))

    def _start(self, players: tuple[str, ...], money: bool) -> LongTable:
        from pulyacalc.render.table import LongTable

        self.columns, head = table_columns(players, self.running, money)
        self.values = [(i, k, p) for i, (k, p) in enumerate(self.columns, 3) if k != "result"]
        self.table = LongTable(head, table_align(self.columns))
        return self.table

    def add(self, row: LedgerRow) -> None:
        table = self.table or self._start(tuple(row.result), row.money is not None)
        cells = [str(row.number), *self.cells(row.moved)]
        if self.values:
            values, texts = row_values(row), self.texts
            for i, k, p in self.values:
                v = values[k][p]
                # (a Decimal -0 writes its sign; an amount is kept by its terms: they hash faster)
                key = (k, v, v.is_signed()) if type(v) is Decimal else (k, v.numerator, v.denominator)
                cells[i] = texts.made(key, v)
        table.add(cells)

    def _cells(self, m: Moved) -> list[str]:
        """A deal's cells after its number, a blank where each of its values goes."""
        deal = m.text.split("  # ", 1)[0]
        return [m.dealer, deal, *[signed(m.result[p]) if k == "result" else "" for k, p in self.columns]]

    def finished(self, players: tuple[str, ...], money: bool) -> tuple[LongTable, Columns]:
        return self.table or self._start(players, money), self.columns

    def close(self) -> None:
        if self.table is not None:
            self.table.close()
