"""`ledger` as a view: a row per deal with what it moved each player's result by, then the
rounding as its own row, so that every column adds up to the settlement `score` prints.

The table shows the settlement under the rows; the machine formats do not (a program adding
a column up would count it twice): JSON carries it beside the rows, JSONL and CSV/TSV end
with the rounding row.  ``running`` adds the running totals, a whist price adds money.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pulyacalc.core.i18n import _
from pulyacalc.ledger import LedgerRow
from pulyacalc.render.view import (
    SCHEMA_VERSION,
    convention_title,
    counted,
    decimal,
    fraction_text,
    jnum,
    show,
)

if TYPE_CHECKING:
    from pulyacalc.core.amounts import Amount
    from pulyacalc.ledger import Ledger


def signed(x: Amount | Decimal) -> str:
    text = show(x)
    return f"+{text}" if x > 0 else text


def amounts(name: str, values: dict[str, Amount]) -> dict[str, Any]:
    """``{name: {player: jnum}, name_exact: {player: fraction}}``."""
    return {
        name: {p: jnum(v) for p, v in values.items()},
        f"{name}_exact": {p: fraction_text(v) for p, v in values.items()},
    }


def _money(values: dict[str, Decimal]) -> dict[str, Any]:
    return {p: jnum(v) for p, v in values.items()}


@dataclass(frozen=True)
class LedgerView:
    ledger: Ledger
    #: add the running totals (``--running``)
    running: bool = False

    def _deal(self, row: LedgerRow) -> dict[str, Any]:
        return deal_json(row, self.running)

    def _rounding(self) -> dict[str, Any]:
        lg = self.ledger
        out: dict[str, Any] = {"name": lg.rounding_name, **amounts("result", lg.rounding)}
        if lg.money_rounding is not None:
            out["money"] = _money(lg.money_rounding)
        return out

    def document(self) -> dict[str, Any]:
        lg = self.ledger
        s = lg.settlement
        doc: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "players": list(lg.players),
            "deals": [self._deal(row) for row in lg.rows],
            "rounding": self._rounding(),
            "settlement": {p: jnum(s.result[p]) for p in lg.players},
            "settlement_exact": {p: fraction_text(s.exact[p]) for p in lg.players},
        }
        if s.money is not None and s.whist_price is not None:
            doc["whist_price"] = float(s.whist_price)
            doc["money"] = _money(s.money)
        return doc

    def records(self) -> list[dict[str, Any]]:
        """One object per deal, then the rounding's."""
        head = {"schema_version": SCHEMA_VERSION}
        rows = [{**head, "row": "deal", **self._deal(row)} for row in self.ledger.rows]
        rounding = self._rounding()
        rows.append({**head, "row": "rounding", "rounding": rounding.pop("name"), **rounding})
        return rows

    def _columns(self) -> list[tuple[str, str]]:
        """(which value, player) for each player column, in the order of the CSV header."""
        return columns_of(self.ledger.players, self.running, self.ledger.settlement.money is not None)

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        columns = self._columns()
        head = ["number", "dealer", "text", *[f"{k}_{p}" for k, p in columns]]
        out: list[list[Any]] = [deal_csv(row, columns) for row in self.ledger.rows]
        out.append(self._rounding_csv(columns))
        return head, out

    def _rounding_csv(self, columns: list[tuple[str, str]]) -> list[Any]:
        values = self._rounding_values()
        return ["", "", f"rounding {self.ledger.rounding_name}", *[decimal(values[k][p]) for k, p in columns]]

    def _rounding_values(self) -> dict[str, dict[str, Any]]:
        lg = self.ledger
        s = lg.settlement
        return {
            "result": lg.rounding,
            "running": s.result,
            "money": lg.money_rounding or {},
            "money_running": s.money or {},
        }

    def table(self) -> str:
        from pulyacalc.render.table import grid

        lg = self.ledger
        columns, head = table_columns(lg.players, self.running, lg.settlement.money is not None)
        rows = [[str(row.number), *deal_cells(row, columns)] for row in lg.rows]
        rows += self._final_rows(columns)
        table = grid(rows, head=head, tablefmt="simple", colalign=table_align(columns))
        return "\n".join([self._title(), "", table, "", *self._notes()]) + "\n"

    def _final_rows(self, columns: list[tuple[str, str]]) -> list[list[str]]:
        """The table's last rows: the rounding's (unless exact), and the settlement."""
        lg = self.ledger
        s = lg.settlement
        rows: list[list[str]] = []
        if lg.rounding_name != "exact":
            values = self._rounding_values()
            rows.append(
                [
                    "",
                    "",
                    _("rounding {rounding}").format(rounding=lg.rounding_name),
                    *[_cell(k, values[k][p]) for k, p in columns],
                ]
            )
        final: dict[str, dict[str, Any]] = {
            "result": s.result,
            "running": s.result,
            "money": s.money or {},
            "money_running": s.money or {},
        }
        rows.append(["", "", _("settlement"), *[_cell(k, final[k][p]) for k, p in columns]])
        return rows

    def _title(self) -> str:
        lg = self.ledger
        ev, s = lg.evening, lg.settlement
        players = lg.players
        parts = [
            convention_title(ev.convention),
            counted(len(players), "player"),
            _("pool to {target}").format(target=ev.target),
            counted(ev.deals, "deal"),
        ]
        if s.whist_price is not None:
            parts.append(_("whist price {price}").format(price=s.whist_price))
        return ", ".join(parts) + ": " + _("what each deal moved the results by, in whists")

    def _notes(self) -> list[str]:
        lg = self.ledger
        s = lg.settlement
        if lg.rounding_name == "exact":
            notes = [_("The rows add up exactly to the settlement (rounding exact).")]
        else:
            notes = [
                _(
                    "The deals' rows add up exactly to the exact settlement; the last row is what "
                    "rounding {rounding} moves, so each column adds up to the settlement."
                ).format(rounding=lg.rounding_name)
            ]
        notes.append(
            _(
                "A row is what the deal's entries add to the settlement (RULES.md §3.8), "
                "not the evening without the deal."
            )
        )
        if s.whist_price is not None:
            notes.append(
                _(
                    "Money: each running total to the cent, as score rounds it; a deal's money is "
                    "the change of the running total (its result × {price}, within a cent)."
                ).format(price=s.whist_price)
            )
        return notes


def deal_json(row: LedgerRow, running: bool) -> dict[str, Any]:
    """A deal's object in JSON (and JSON Lines)."""
    out: dict[str, Any] = {"number": row.number, "dealer": row.dealer, "text": row.text}
    out.update(amounts("result", row.result))
    if running:
        out.update(amounts("running", row.running))
    if row.money is not None and row.money_running is not None:
        out["money"] = _money(row.money)
        if running:
            out["money_running"] = _money(row.money_running)
    return out


def row_values(row: LedgerRow) -> dict[str, dict[str, Any]]:
    return {
        "result": row.result,
        "running": row.running,
        "money": row.money or {},
        "money_running": row.money_running or {},
    }


def columns_of(players: tuple[str, ...], running: bool, money: bool) -> list[tuple[str, str]]:
    """(which value, player) for each player column, in the order of the CSV header."""
    kinds = ["result"]
    if running:
        kinds.append("running")
    if money:
        kinds += ["money", "money_running"] if running else ["money"]
    return [(k, p) for k in kinds for p in players]


def deal_csv(row: LedgerRow, columns: list[tuple[str, str]]) -> list[Any]:
    """A deal's CSV row."""
    values = row_values(row)
    return [row.number, row.dealer, row.text, *[decimal(values[k][p]) for k, p in columns]]


def table_columns(
    players: tuple[str, ...], running: bool, money: bool
) -> tuple[list[tuple[str, str]], list[str]]:
    """The table's player columns (each player's together: result, Σ, money, money Σ) and
    its header (each its CSV column's name with spaces: result_<player>: "result Anna")."""
    columns = sorted(columns_of(players, running, money), key=lambda c: players.index(c[1]))
    names = {
        "result": _("result {player}"),
        "running": _("running {player}"),
        "money": _("money {player}"),
        "money_running": _("money running {player}"),
    }
    head = [_("number"), _("dealer"), _("text"), *[names[k].format(player=p) for k, p in columns]]
    return columns, head


def table_align(columns: list[tuple[str, str]]) -> tuple[str, ...]:
    return ("right", "left", "left", *["right"] * len(columns))


def deal_cells(row: LedgerRow, columns: list[tuple[str, str]]) -> list[str]:
    """A deal's cells in the table but its number: the deal without its note (``  # ...``),
    to keep the table narrow (the machine formats keep the whole line)."""
    values = row_values(row)
    deal = row.text.split("  # ", 1)[0]
    return [row.dealer, deal, *[_cell(k, values[k][p]) for k, p in columns]]


def _cell(kind: str, value: Amount | Decimal) -> str:
    """A change is signed (+12), a running total is not."""
    return show(value) if kind.endswith("running") else signed(value)
