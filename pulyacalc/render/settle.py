"""The settlement stage by stage, the way players do it on paper (RULES.md §3, K4.2.14):
the sheet; pools brought to the mountain; amnesty; (kodeks moves, or kodeks_separate's moves
of the pools and the mountains apart); the average mountain
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
from pulyacalc.core.kinds import KODEKS_ROUNDINGS
from pulyacalc.core.sheet import SheetView
from pulyacalc.render.report import Report
from pulyacalc.render.view import convention_title, jnum, sheet_head, sheet_row, show
from pulyacalc.scoring.settlement import Settlement


@dataclass(frozen=True)
class SettleReport(Report):
    """A paper sheet settled: the stages for people, the score report for programs."""

    def table(self) -> str:
        n = len(self.sheet.players)
        title = (
            f"{convention_title(self.convention)}, {n} players, pool to {self.target}: "
            "the settlement stage by stage"
        )
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


def _table(out: list[str], rows: list[list[Any]], head: list[str]) -> None:
    from pulyacalc.render.formats import grid

    text = grid(
        rows,
        head=head,
        tablefmt="simple",
        colalign=("left", *["right"] * (len(head) - 1)),
    )
    out.extend(text.splitlines())
    out.append("")


def _how(before: Amount, after: Amount, gains: bool) -> str:
    """A kodeks move in words; ``gains``: the move is in its owner's favour."""
    if after == before:
        return "a multiple of 3 already"
    way = "down" if after < before else "up"
    if gains:
        return f"{way} one: each other writes 3 whists on him"
    return f"{way} one: he writes 3 whists on each other"


def _kodeks_stage(out: list[str], step: int, s: Settlement) -> None:
    rows = []
    for p in s.players:
        before, after = s.amnestied[p], s.rounded_mountain[p]
        rows.append([p, show(before), show(after), _how(before, after, gains=after < before)])
    out.append(f"{step}. Kodeks rounding (K4.2.12): each mountain to the nearest multiple of 3")
    _table(out, rows, ["", "mountain", "moved", ""])


def _separate_stage(out: list[str], step: int, s: Settlement, ratio: Amount) -> None:
    """kodeks_separate (RULES.md §3.9): the pools and the mountains moved apart, then joined."""
    sep = s.separate
    assert sep is not None
    players = s.players
    out.append(
        f"{step}. Kodeks rounding, pools and mountains apart (kodeks_separate, K4.2.12): "
        "instead of the mountains of step 3,"
    )
    r = f" × {show(ratio)}" if ratio != 1 else ""
    out.append(f"   each pool over the smallest pool{r}, to the nearest multiple of 3")
    rows = []
    for p in players:
        before, after = sep.pool[p], sep.pool_moved[p]
        rows.append([p, show(before), show(after), _how(before, after, gains=after > before)])
    _table(out, rows, ["", "pool", "moved", ""])
    out.append("   each mountain over the smallest mountain, to the nearest multiple of 3")
    rows = []
    for p in players:
        before, after = sep.mountain[p], sep.mountain_moved[p]
        rows.append([p, show(before), show(after), _how(before, after, gains=after < before)])
    _table(out, rows, ["", "mountain", "moved", ""])
    joined = {p: exact(sep.mountain_moved[p] - sep.pool_moved[p]) for p in players}
    least = min(joined.values())
    out.append(f"   mountain = moved mountain − moved pool, amnestied (the smallest, {show(least)}, off all)")
    rows = [
        [
            p,
            f"{show(sep.mountain_moved[p])} − {_p(sep.pool_moved[p])} − {_p(least)}",
            show(s.rounded_mountain[p]),
        ]
        for p in players
    ]
    _table(out, rows, ["", "arithmetic", "mountain"])


def stages_table(conv: Convention, target: int, sheet: SheetView, s: Settlement, title: str = "") -> str:
    players = sheet.players
    n = len(players)
    ratio = conv.pool_point_in_mountain
    unit = conv.mountain_point_in_whists
    out: list[str] = []
    if title:
        out += [title, ""]

    def table(rows: list[list[Any]], head: list[str]) -> None:
        _table(out, rows, head)

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
        _kodeks_stage(out, step, s)
        step += 1
    elif s.rounding == "kodeks_separate":
        _separate_stage(out, step, s, ratio)
        step += 1

    total = sum(Fraction(s.rounded_mountain[p]) for p in players)
    out.append(
        f"{step}. Average mountain: ({' + '.join(show(s.rounded_mountain[p]) for p in players)}) / {n} "
        f"= {show(exact(total))} / {n} = {show(s.average)}"
    )
    # with the opponents as divisor each point over the average costs n/(n − 1) times as much
    factor = f"{show(unit)} × {n}/{n - 1}" if s.divisor == "opponents" else show(unit)
    out.append(
        f"   Mountain result = {factor} × (average − mountain)"
        + (
            f"   (each mountain divided among the {n - 1} opponents, settlement.mountain_divisor; "
            "the Code, K4.2.14, divides by all the players)"
            if s.divisor == "opponents"
            else ""
        )
    )
    table(
        [
            [
                p,
                f"{factor} × ({show(s.average)} − {show(s.rounded_mountain[p])})",
                _s(s.mountain_result[p]),
            ]
            for p in players
        ],
        ["", "arithmetic", "mountain result"],
    )
    step += 1

    if s.divisor == "opponents":
        out.append(
            f"{step}. The same, each pays each: every player pays each other "
            f"{show(unit)} × his mountain / {n - 1} (his opponents; K4.2.14 variant 1 divides by {n})"
        )
    else:
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

    kodeks = s.rounding in KODEKS_ROUNDINGS and any(
        v for row in s.kodeks_whists.values() for v in row.values()
    )
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
    out.append(f"rounding {s.rounding}")
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
