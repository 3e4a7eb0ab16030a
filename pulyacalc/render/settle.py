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
from pulyacalc.core.i18n import _
from pulyacalc.core.kinds import KODEKS_ROUNDINGS
from pulyacalc.core.sheet import SheetView
from pulyacalc.render.report import Report
from pulyacalc.render.view import convention_title, counted, jnum, payments_text, sheet_head, sheet_row, show
from pulyacalc.scoring.settlement import Settlement


@dataclass(frozen=True)
class SettleReport(Report):
    """A paper sheet settled: the stages for people, the score report for programs."""

    def table(self) -> str:
        n = len(self.sheet.players)
        title = _("{title}, {players}, pool to {target}: the settlement stage by stage").format(
            title=convention_title(self.convention), players=counted(n, "player"), target=self.target
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
    from pulyacalc.render.table import grid

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
        return _("a multiple of 3 already")
    if after < before:
        return (
            _("down one: each other writes 3 whists on him")
            if gains
            else _("down one: he writes 3 whists on each other")
        )
    return (
        _("up one: each other writes 3 whists on him")
        if gains
        else _("up one: he writes 3 whists on each other")
    )


def _kodeks_stage(out: list[str], step: int, s: Settlement) -> None:
    rows = []
    for p in s.players:
        before, after = s.amnestied[p], s.rounded_mountain[p]
        rows.append([p, show(before), show(after), _how(before, after, gains=after < before)])
    out.append(
        _("{step}. Kodeks rounding (K4.2.12): each mountain to the nearest multiple of 3").format(step=step)
    )
    _table(out, rows, ["", _("amnestied mountain"), _("kodeks mountain"), ""])


def _separate_stage(out: list[str], step: int, s: Settlement, ratio: Amount) -> None:
    """kodeks_separate (RULES.md §3.9): the pools and the mountains moved apart, then joined."""
    sep = s.separate
    assert sep is not None
    players = s.players
    out.append(
        _(
            "{step}. Kodeks rounding, pools and mountains apart (kodeks_separate, K4.2.12): "
            "instead of the mountains of step 3,"
        ).format(step=step)
    )
    r = f" × {show(ratio)}" if ratio != 1 else ""
    out.append(
        "   " + _("each pool over the smallest pool{ratio}, to the nearest multiple of 3").format(ratio=r)
    )
    rows = []
    for p in players:
        before, after = sep.pool[p], sep.pool_moved[p]
        rows.append([p, show(before), show(after), _how(before, after, gains=after > before)])
    _table(out, rows, ["", _("pool"), _("pool moved"), ""])
    out.append("   " + _("each mountain over the smallest mountain, to the nearest multiple of 3"))
    rows = []
    for p in players:
        before, after = sep.mountain[p], sep.mountain_moved[p]
        rows.append([p, show(before), show(after), _how(before, after, gains=after < before)])
    _table(out, rows, ["", _("mountain"), _("mountain moved"), ""])
    joined = {p: exact(sep.mountain_moved[p] - sep.pool_moved[p]) for p in players}
    least = min(joined.values())
    joined_note = _(
        "kodeks mountain = moved mountain − moved pool, amnestied (the smallest, {least}, off all)"
    )
    out.append("   " + joined_note.format(least=show(least)))
    rows = [
        [
            p,
            f"{show(sep.mountain_moved[p])} − {_p(sep.pool_moved[p])} − {_p(least)}",
            show(s.rounded_mountain[p]),
        ]
        for p in players
    ]
    _table(out, rows, ["", _("arithmetic"), _("kodeks mountain")])


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

    out.append(_("1. The sheet"))
    table([[p, *sheet_row(sheet, p)] for p in players], ["", *sheet_head(players)])

    r = f"{show(ratio)} × " if ratio != 1 else ""
    out.append(
        _(
            "2. Pools brought to the mountain: mountain equivalent G = "
            "mountain + {ratio}(target {target} − pool)"
        ).format(ratio=r, target=target)
        + (
            "   " + _("(a pool point is {ratio} mountain points)").format(ratio=show(ratio))
            if ratio != 1
            else ""
        )
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
        ["", _("arithmetic"), _("mountain equivalent")],
    )

    out.append(
        _(
            "3. Amnesty: the smallest G, {amnesty}, off every mountain equivalent: the amnestied mountain"
        ).format(amnesty=show(s.amnesty))
    )
    table(
        [[p, f"{show(s.equivalent[p])} − {_p(s.amnesty)}", show(s.amnestied[p])] for p in players],
        ["", _("arithmetic"), _("amnestied mountain")],
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
        _("{step}. Average mountain: ({sum}) / {n} = {total} / {n} = {average}").format(
            step=step,
            sum=" + ".join(show(s.rounded_mountain[p]) for p in players),
            n=n,
            total=show(exact(total)),
            average=show(s.average),
        )
    )
    # with the opponents as divisor each point over the average costs n/(n − 1) times as much
    factor = f"{show(unit)} × {n}/{n - 1}" if s.divisor == "opponents" else show(unit)
    out.append(
        "   "
        + _("Mountain result = {factor} × (average − mountain)").format(factor=factor)
        + (
            "   "
            + _(
                "(each mountain divided among the {opponents} opponents, settlement.mountain_divisor; "
                "the Code, K4.2.14, divides by all the players)"
            ).format(opponents=n - 1)
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
        ["", _("arithmetic"), _("mountain result")],
    )
    step += 1

    if s.divisor == "opponents":
        out.append(
            _(
                "{step}. The same, each pays each: every player pays each other "
                "{unit} × his mountain / {opponents} (his opponents; K4.2.14 variant 1 divides by {n})"
            ).format(step=step, unit=show(unit), opponents=n - 1, n=n)
        )
    else:
        out.append(
            _(
                "{step}. The same, each pays each (K4.2.14 variant 1): every player pays each other "
                "{unit} × his mountain / {n}"
            ).format(step=step, unit=show(unit), n=n)
        )
    pe = s.pays_each
    rows = []
    for p in players:
        row = [p, show(pe[p])]
        for q in players:
            row.append("·" if q == p else _s(exact(pe[q] - pe[p])))
        row.append(_s(exact(sum(Fraction(pe[q] - pe[p]) for q in players if q != p))))
        rows.append(row)
    # i18n: the column of what {player} pays this row's player
    from_ = _("from {player}")
    table(rows, ["", _("pays each"), *[from_.format(player=q) for q in players], _("mountain result")])
    step += 1

    kodeks = s.rounding in KODEKS_ROUNDINGS and any(
        v for row in s.kodeks_whists.values() for v in row.values()
    )
    out.append(
        _(
            "{step}. Whists netted pair by pair: what he wrote on the other − what the other wrote on him"
        ).format(step=step)
        + (" " + _("(kodeks whists included)") if kodeks else "")
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
    # i18n: the column of the whists netted with {player}
    with_ = _("with {player}")
    table(rows, ["", *[with_.format(player=q) for q in players], _("whist result")])
    step += 1

    total_title = _("{step}. Total = mountain result + whist result (sums to 0)").format(step=step)
    if s.money is not None:  # the price, once named in the money column's header, now in the title
        total_title += "; " + _("money at {price}").format(price=s.whist_price)
    out.append(total_title)
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
    # the exact total (JSON stages.total); rounded to whole whists, the result (CSV result)
    head = ["", _("arithmetic"), _("total")]
    if s.rounding == "nearest":
        head.append(_("result"))
    if s.money is not None:
        head.append(_("money"))
    table(rows, head)
    out.append(_("rounding {rounding}").format(rounding=s.rounding))
    if s.payments:
        out.append(payments_text(s.payments))
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
