"""Rendering reads results and prints them: table (for people), JSON and CSV (for
programs).  Nothing here changes a number; rounding for display happens here only for
``exact`` values, which are shown with two decimals.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount
from pulyacalc.core.sheet import SheetView
from pulyacalc.scoring.settlement import Settlement

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Report:
    """What `score` and `settle` print: the sheet and its settlement."""

    convention: Convention
    target: int
    sheet: SheetView
    settlement: Settlement
    deals: int | None = None
    finished: bool | None = None


def show(x: Amount | Decimal) -> str:
    """For people: whole numbers as they are, others with two decimals."""
    if isinstance(x, Decimal):
        return f"{x:.2f}"
    if isinstance(x, int) or x.denominator == 1:
        return str(int(x))
    q = Decimal(x.numerator) / Decimal(x.denominator)
    return f"{q.quantize(Decimal('0.01')):.2f}"


def jnum(x: Amount | Decimal) -> Any:
    """For JSON: whole numbers as integers, others as numbers with two decimals."""
    if isinstance(x, Decimal):
        return float(x)
    if isinstance(x, int) or x.denominator == 1:
        return int(x)
    return round(float(x), 2)


def fraction_text(x: Amount) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def sheet_json(sheet: SheetView) -> dict[str, Any]:
    return {
        p: {
            "pool": jnum(sheet.pool[p]),
            "mountain": jnum(sheet.mountain[p]),
            "whists": {q: jnum(v) for q, v in sheet.whists[p].items()},
        }
        for p in sheet.players
    }


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
    if s.rounding == "kodeks":
        out["kodeks_mountain"] = {p: jnum(s.rounded_mountain[p]) for p in players}
        out["kodeks_whists"] = {p: {q: jnum(v) for q, v in s.kodeks_whists[p].items()} for p in players}
    return out


def report_json(r: Report) -> dict[str, Any]:
    s = r.settlement
    doc: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "players": list(r.sheet.players),
        "sheet": sheet_json(r.sheet),
        "settlement": {p: jnum(s.result[p]) for p in s.players},
        "settlement_exact": {p: fraction_text(s.exact[p]) for p in s.players},
        "convention": r.convention.name,
        "pool_target": r.target,
        "rounding": s.rounding,
        "stages": settlement_json(s),
    }
    if r.deals is not None:
        doc["deals"] = r.deals
    if r.finished is not None:
        doc["finished"] = r.finished
    if s.money is not None and s.whist_price is not None:
        doc["whist_price"] = float(s.whist_price)
        doc["money"] = {p: float(s.money[p]) for p in s.players}
        doc["payments"] = [{"from": a, "to": b, "amount": float(x)} for a, b, x in s.payments]
    return doc


def report_jsonl(r: Report) -> str:
    """One JSON object per player: the sheet row and the settlement."""
    import json  # only for this format (start-up time)

    doc = report_json(r)
    lines = []
    for p in r.sheet.players:
        row: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "player": p,
            **doc["sheet"][p],
            "result": doc["settlement"][p],
            "result_exact": doc["settlement_exact"][p],
        }
        if "money" in doc:
            row["money"] = doc["money"][p]
        lines.append(json.dumps(row, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def dumps(doc: Any) -> str:
    import json  # only for this format (start-up time)

    return json.dumps(doc, ensure_ascii=False, indent=2)


def report_csv(r: Report, delimiter: str = ",") -> str:
    import csv  # only for this format (start-up time)

    s, sheet = r.settlement, r.sheet
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    players = sheet.players
    head = [
        "player",
        "pool",
        "mountain",
        *[f"whists_on_{q}" for q in players],
        "mountain_equivalent",
        "mountain_result",
        "whist_result",
        "result",
    ]
    if s.money is not None:
        head.append("money")
    w.writerow(head)
    for p in players:
        row = [
            p,
            show(sheet.pool[p]),
            show(sheet.mountain[p]),
            *["" if q == p else show(sheet.whists[p][q]) for q in players],
            show(s.equivalent[p]),
            show(s.mountain_result[p]),
            show(s.whist_result[p]),
            show(s.result[p]),
        ]
        if s.money is not None:
            row.append(show(s.money[p]))
        w.writerow(row)
    return buf.getvalue()


def report_table(r: Report) -> str:
    from tabulate import tabulate

    s, sheet, conv = r.settlement, r.sheet, r.convention
    players = sheet.players
    lines = []
    status = ""
    if r.finished is not None:
        status = (
            " — the pulya is finished"
            if r.finished
            else " — the pulya is not finished: missing pool points go to the mountain (K4.2.3)"
        )
    deals = f", {r.deals} deals" if r.deals is not None else ""
    lines.append(f"{conv.title}, {len(players)} players, pool to {r.target}{deals}{status}")
    lines.append("")
    rows = []
    for p in players:
        rows.append(
            [
                p,
                show(sheet.pool[p]),
                show(sheet.mountain[p]),
                *["·" if q == p else show(sheet.whists[p][q]) for q in players],
            ]
        )
    lines.append(
        tabulate(
            rows,
            headers=["sheet", "pool", "mountain", *[f"on {q}" for q in players]],
            tablefmt="simple",
            colalign=("left", *["right"] * (2 + len(players))),
        )
    )
    lines.append("")
    srows = []
    for p in players:
        row = [p, show(s.equivalent[p]), show(s.amnestied[p])]
        if s.rounding == "kodeks":
            row.append(show(s.rounded_mountain[p]))
        row += [show(s.mountain_result[p]), show(s.whist_result[p]), show(s.result[p])]
        if s.money is not None:
            row.append(show(s.money[p]))
        srows.append(row)
    head = ["settlement", "mountain eq.", "amnestied"]
    if s.rounding == "kodeks":
        head.append("kodeks")
    head += ["from mountain", "whists net", "result"]
    if s.money is not None:
        head.append("money")
    lines.append(
        tabulate(srows, headers=head, tablefmt="simple", colalign=("left", *["right"] * (len(head) - 1)))
    )
    lines.append("")
    ratio = show(conv.pool_point_in_mountain)
    lines.append(
        f"mountain eq. = mountain + {ratio} × (pool target − pool); amnesty {show(s.amnesty)}; "
        f"average amnestied mountain {show(s.average)}"
    )
    lines.append(
        f"from mountain = {show(conv.mountain_point_in_whists)} × (average − amnestied); "
        "whists net = written on others − written on him"
        + (
            "; kodeks: mountains moved to a multiple of 3, ±3 whists each (K4.2.12)"
            if s.rounding == "kodeks"
            else ""
        )
    )
    lines.append(f"rounding {s.rounding}; the results, in whists, sum to 0")
    if s.payments:
        lines.append("payments: " + "; ".join(f"{a} pays {b} {show(x)}" for a, b, x in s.payments))
    return "\n".join(lines) + "\n"
