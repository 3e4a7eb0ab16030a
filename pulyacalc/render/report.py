"""The score/settle report (the sheet and its settlement) as a view; nothing here changes a number."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pulyacalc.convention.schema import Convention
from pulyacalc.core.i18n import _
from pulyacalc.core.kinds import KODEKS_ROUNDINGS
from pulyacalc.core.sheet import SheetView
from pulyacalc.render.aligned import sheet_table, tabulated
from pulyacalc.render.view import (
    SCHEMA_VERSION,
    bombs_text,
    convention_title,
    counted,
    decimal,
    fraction_text,
    jnum,
    payments_text,
    rounding_name,
    sheet_json,
    sheet_row,
    show,
    table_changes,
    versioned,
)
from pulyacalc.scoring.settlement import Settlement


def settlement_json(s: Settlement) -> dict[str, Any]:
    players = s.players
    out: dict[str, Any] = {
        "rounding": s.rounding,
        "mountain_equivalent": {p: jnum(s.equivalent[p]) for p in players},
        "amnesty": jnum(s.amnesty),
        "amnestied_mountain": {p: jnum(s.amnestied[p]) for p in players},
        "average_mountain": jnum(s.average),
        "mountain_result": {p: jnum(s.mountain_result[p]) for p in players},
        "pays_each": {p: jnum(s.pays_each[p]) for p in players},
        "whist_pairs": {p: {q: jnum(v) for q, v in s.whist_pairs[p].items()} for p in players},
        "whist_result": {p: jnum(s.whist_result[p]) for p in players},
    }
    if s.rounding in KODEKS_ROUNDINGS:
        out["kodeks_mountain"] = {p: jnum(s.rounded_mountain[p]) for p in players}
        out["kodeks_whists"] = {p: {q: jnum(v) for q, v in s.kodeks_whists[p].items()} for p in players}
    if s.separate is not None:
        moved = ("pool", "pool_moved", "mountain", "mountain_moved")  # each its field's name
        out["kodeks_separate"] = {k: {p: jnum(getattr(s.separate, k)[p]) for p in players} for k in moved}
    if s.divisor != "players":  # only when not the Code's, so that the Code's output stays as it was
        out["mountain_divisor"] = s.divisor
    return out


@dataclass(frozen=True)
class Report:
    """What `score` prints (and `settle` in the machine formats): the sheet and its settlement."""

    convention: Convention
    target: int
    sheet: SheetView
    settlement: Settlement
    deals: int | None = None
    finished: bool | None = None
    #: Classic (RULES.md 2.10): each player's bombs not yet used, in order; None: no bombs played
    bombs: Mapping[str, tuple[int, ...]] | None = None
    #: who joined or left the table and after which deal (``play.Evening.changes``)
    changes: tuple[tuple[str, str, int], ...] = ()

    def document(self) -> dict[str, Any]:
        s = self.settlement
        doc: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "players": list(self.sheet.players),
            "sheet": sheet_json(self.sheet),
            "settlement": {p: jnum(s.result[p]) for p in s.players},
            "settlement_exact": {p: fraction_text(s.exact[p]) for p in s.players},
            "convention": self.convention.name,
            "pool_target": self.target,
            "rounding": s.rounding,
            "stages": settlement_json(s),
        }
        doc |= {k: v for k, v in (("deals", self.deals), ("finished", self.finished)) if v is not None}
        if self.bombs is not None:
            doc["bombs"] = {p: list(self.bombs.get(p, ())) for p in self.sheet.players}
        from pulyacalc.play import overrides

        changed = overrides(self.convention)
        if changed:  # only when there are some, so that a plain evening's document stays as it was
            doc["overrides"] = changed
        if s.money is not None and s.whist_price is not None:
            doc["whist_price"] = float(s.whist_price)
            doc["money"] = {p: float(s.money[p]) for p in s.players}
            doc["payments"] = [{"from": a, "to": b, "amount": float(x)} for a, b, x in s.payments]
        return doc

    def records(self) -> list[dict[str, Any]]:
        """One object per player: the sheet row and the settlement."""
        doc, records = self.document(), []
        for p in self.sheet.players:
            row = {"player": p, **doc["sheet"][p], "result": doc["settlement"][p]}
            row["result_exact"] = doc["settlement_exact"][p]
            records.append(row | ({"money": doc["money"][p]} if "money" in doc else {}))
        return versioned(records)

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        s, sheet = self.settlement, self.sheet
        cols: list[Mapping[str, Any]] = [s.equivalent, s.mountain_result, s.whist_result, s.result]
        head = ["player", "pool", "mountain", *[f"whists_on_{q}" for q in sheet.players]]
        head += ["mountain_equivalent", "mountain_result", "whist_result", "result"]
        if s.money is not None:
            head.append("money")
            cols.append(s.money)
        head.append("result_exact")  # added last: the columns before it keep their places
        rows = []
        for p in sheet.players:
            row = [p, *sheet_row(sheet, p, own="", fmt=decimal), *(decimal(values[p]) for values in cols)]
            rows.append([*row, fraction_text(s.exact[p])])
        return head, rows

    def table(self) -> str:
        """For people: the title, the sheet, the settlement and how it was reached."""
        return "\n".join([*_sheet_lines(self), _settlement_grid(self), "", *_settlement_notes(self)]) + "\n"


def _sheet_lines(r: Report) -> list[str]:
    """The title (convention, players, target, deals, finished or not), the sheet, the bombs."""
    players = r.sheet.players
    status = ""
    if r.finished:
        status = " — " + _("the pulya is finished")
    elif r.finished is not None:
        status = " — " + _("the pulya is not finished: missing pool points go to the mountain (K4.2.3)")
    parts = [convention_title(r.convention), counted(len(players), "player")]
    parts.append(_("pool to {target}").format(target=r.target))
    if r.deals is not None:
        parts.append(counted(r.deals, "deal"))
    changed = "; " + ", ".join(table_changes(r.changes)) if r.changes else ""
    lines = [", ".join(parts) + changed + status, "", sheet_table(r.sheet, _("sheet")), ""]
    if r.bombs is not None:
        lines += [bombs_text(players, r.bombs), ""]
    return lines


def _settlement_grid(r: Report) -> str:
    """The settlement's table: each player's row from the mountain equivalent to the money."""
    s = r.settlement
    # each header is its field's name (CSV column or JSON key, docs/output.md) with spaces
    cols: list[tuple[str, Mapping[str, Any]]] = [(_("mountain equivalent"), s.equivalent)]
    cols.append((_("amnestied mountain"), s.amnestied))
    if s.rounding in KODEKS_ROUNDINGS:
        cols.append((_("kodeks mountain"), s.rounded_mountain))
    cols += [(_("mountain result"), s.mountain_result), (_("whist result"), s.whist_result)]
    cols.append((_("result"), s.result))
    if s.money is not None:
        cols.append((_("money"), s.money))
    rows = [[p, *(show(values[p]) for _head, values in cols)] for p in r.sheet.players]
    return tabulated(rows, [_("settlement"), *(head for head, _values in cols)])


def _settlement_notes(r: Report) -> list[str]:
    """How the settlement was reached: the formulas, the rounding, who pays whom."""
    s, conv, n = r.settlement, r.convention, len(r.sheet.players)
    equivalent = _(
        "mountain equivalent = mountain + {ratio} × (pool target − pool); amnesty {amnesty}; "
        "average amnestied mountain {average}"
    )
    ratio = show(conv.pool_point_in_mountain)
    lines = [equivalent.format(ratio=ratio, amnesty=show(s.amnesty), average=show(s.average))]
    divided = (f" × {n}/{n - 1}" if n > 2 else f" × {n}") if s.divisor == "opponents" else ""
    note = _(
        "mountain result = {unit}{divided} × (average − amnestied mountain); "
        "whist result = written on others − written on him"
    ).format(unit=show(conv.mountain_point_in_whists), divided=divided)
    if s.rounding == "kodeks":
        kodeks = _("kodeks mountain: amnestied mountains moved to a multiple of 3, ±3 whists each (K4.2.12)")
        note += "; " + kodeks
    lines.append(note)
    if s.rounding == "kodeks_separate":
        separate = _(
            "kodeks_separate: each pool over the smallest (in mountain points) and each mountain over "
            "the smallest moved to a multiple of 3, ±3 whists each (K4.2.12); "
            "kodeks mountain = moved mountain − moved pool, amnestied"
        )
        lines.append(separate)
    if s.divisor == "opponents" and n == 2:
        indivisible = _(
            "the indivisible mountain: 10 × (the other's mountain − his own) "
            "(settlement.mountain_divisor: opponents; K4.1.1 c, seed 001)"
        )
        lines.append(indivisible)
    elif s.divisor == "opponents":
        divisor = _(
            "mountain divided among the {opponents} opponents, not the {n} players "
            "(settlement.mountain_divisor: opponents; the Code, K4.2.14, divides by all)"
        )
        lines.append(divisor.format(opponents=n - 1, n=n))
    rounding = _("rounding {rounding}; the results, in whists, sum to 0")
    lines.append(rounding.format(rounding=rounding_name(s.rounding)))
    if s.payments:
        lines.append(payments_text(s.payments))
    return lines
