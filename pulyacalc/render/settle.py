"""The settlement stage by stage, the way players do it on paper (RULES.md §3, K4.2.14):
the sheet; pools brought to the mountain; amnesty; (kodeks moves); the average mountain
and each mountain result; the each-pays-each view (variant 1); whists netted pair by
pair; the total; money and who pays whom.

Every stage shows its arithmetic so that a person with a pencil can follow it.
:class:`SettleReport` is what `settle` prints: this table for people; for programs the
score report, whose JSON document also carries the each-pays-each view and the total.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.sheet import SheetView
from pulyacalc.render.report import Report
from pulyacalc.render.view import jnum, sheet_head, sheet_row, show
from pulyacalc.scoring.settlement import Settlement


@dataclass(frozen=True)
class SettleReport(Report):
    """A paper sheet settled: the stages for people, the score report for programs."""

    def table(self) -> str:
        n = len(self.sheet.players)
        title = f"{self.convention.title}, {n} players, pool to {self.target}: the settlement stage by stage"
        return stages_table(self.convention, self.target, self.sheet, self.settlement, title)

    def document(self) -> dict[str, Any]:
        doc = super().document()
        doc["stages"].update(stages_json(self.settlement))
        return doc


def _s(x: Amount) -> str:
    """Signed, for results: +370, -110, 0."""
    text = show(x)
    return f"+{text}" if x > 0 else text


def _p(x: Amount) -> str:
    """In parentheses when negative, for arithmetic: 2 × (50 − 78)."""
    return f"({show(x)})" if x < 0 else show(x)


def stages_table(conv: Convention, target: int, sheet: SheetView, s: Settlement, title: str = "") -> str:
    from tabulate import tabulate

    players = sheet.players
    n = len(players)
    ratio = conv.pool_point_in_mountain
    unit = conv.mountain_point_in_whists
    out: list[str] = []
    if title:
        out += [title, ""]

    def table(rows: list[list[Any]], head: list[str]) -> None:
        text = tabulate(
            rows,
            headers=head,
            tablefmt="simple",
            disable_numparse=True,
            colalign=("left", *["right"] * (len(head) - 1)),
        )
        out.extend(text.splitlines())
        out.append("")

    out.append("1. The sheet")
    table([[p, *sheet_row(sheet, p)] for p in players], ["", *sheet_head(players)])

    r = f"{show(ratio)} × " if ratio != 1 else ""
    out.append(
        f"2. Pools brought to the mountain: G = mountain + {r}(target {target} − pool)"
        + (f"   (a pool point is {show(ratio)} mountain points)" if ratio != 1 else "")
    )
    table(
        [
            [
                p,
                f"{show(sheet.mountain[p])} + {r}({target} − {show(sheet.pool[p])})",
                show(s.equivalent[p]),
            ]
            for p in players
        ],
        ["", "arithmetic", "G"],
    )

    out.append(f"3. Amnesty: the smallest G, {show(s.amnesty)}, off every mountain")
    table(
        [[p, f"{show(s.equivalent[p])} − {_p(s.amnesty)}", show(s.amnestied[p])] for p in players],
        ["", "arithmetic", "mountain"],
    )

    step = 4
    if s.rounding == "kodeks":
        rows = []
        for p in players:
            before, after = s.amnestied[p], s.rounded_mountain[p]
            if after < before:
                how = "down one: each other writes 3 whists on him"
            elif after > before:
                how = "up one: he writes 3 whists on each other"
            else:
                how = "a multiple of 3 already"
            rows.append([p, show(before), show(after), how])
        out.append(f"{step}. Kodeks rounding (K4.2.12): each mountain to the nearest multiple of 3")
        table(rows, ["", "mountain", "moved", ""])
        step += 1

    total = sum(Fraction(s.rounded_mountain[p]) for p in players)
    out.append(
        f"{step}. Average mountain: ({' + '.join(show(s.rounded_mountain[p]) for p in players)}) / {n} "
        f"= {show(exact(total))} / {n} = {show(s.average)}"
    )
    out.append(f"   Mountain result = {show(unit)} × (average − mountain)")
    table(
        [
            [
                p,
                f"{show(unit)} × ({show(s.average)} − {show(s.rounded_mountain[p])})",
                _s(s.mountain_result[p]),
            ]
            for p in players
        ],
        ["", "arithmetic", "mountain result"],
    )
    step += 1

    out.append(
        f"{step}. The same, each pays each (K4.2.14 variant 1): every player pays each other "
        f"{show(unit)} × his mountain / {n}"
    )
    pe = s.pays_each
    rows = []
    for p in players:
        row = [p, show(pe[p])]
        for q in players:
            row.append("·" if q == p else _s(exact(pe[q] - pe[p])))
        row.append(_s(exact(sum(Fraction(pe[q] - pe[p]) for q in players if q != p))))
        rows.append(row)
    table(rows, ["", "pays each", *[f"from {q}" for q in players], "net"])
    step += 1

    kodeks = s.rounding == "kodeks" and any(v for row in s.kodeks_whists.values() for v in row.values())
    out.append(
        f"{step}. Whists netted pair by pair: what he wrote on the other − what the other wrote on him"
        + (" (kodeks whists included)" if kodeks else "")
    )
    rows = []
    for p in players:
        row = [p]
        for q in players:
            if q == p:
                row.append("·")
                continue
            mine = exact(sheet.whists[p][q] + s.kodeks_whists[p][q])
            theirs = exact(sheet.whists[q][p] + s.kodeks_whists[q][p])
            row.append(f"{show(mine)} − {show(theirs)} = {_s(s.whist_pairs[p][q])}")
        row.append(_s(s.whist_result[p]))
        rows.append(row)
    table(rows, ["", *[f"with {q}" for q in players], "whists"])
    step += 1

    out.append(f"{step}. Total = mountain result + whists (sums to 0)")
    rows = []
    for p in players:
        row = [
            p,
            f"{_s(s.mountain_result[p])} {'+' if s.whist_result[p] >= 0 else '−'} "
            f"{show(exact(-s.whist_result[p]) if s.whist_result[p] < 0 else s.whist_result[p])}",
            _s(s.exact[p]),
        ]
        if s.rounding == "nearest":
            row.append(_s(s.result[p]))
        if s.money is not None:
            row.append(show(s.money[p]))
        rows.append(row)
    head = ["", "arithmetic", "result"]
    if s.rounding == "nearest":
        head.append("rounded")
    if s.money is not None:
        head.append(f"money at {s.whist_price}")
    table(rows, head)
    out.append(
        f"rounding {s.rounding}"
        + ("; exact results shown with two decimals" if s.rounding == "exact" else "")
    )
    if s.payments:
        out.append("payments: " + "; ".join(f"{a} pays {b} {show(x)}" for a, b, x in s.payments))
    return "\n".join(out) + "\n"


def stages_json(s: Settlement) -> dict[str, Any]:
    """The stages with their inputs, for -f json (added to the INTERFACE.md shape)."""
    players = s.players
    return {
        "each_pays_each": {
            p: {q: jnum(exact(s.pays_each[q] - s.pays_each[p])) for q in players if q != p} for p in players
        },
        "total": {p: jnum(s.exact[p]) for p in players},
    }
