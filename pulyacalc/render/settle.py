"""The settlement stage by stage (``_STAGES``), as players do it on paper (RULES.md §3), each
with its arithmetic: what `settle` prints for people (programs get the score report)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.i18n import N_, _
from pulyacalc.core.kinds import KODEKS_ROUNDINGS
from pulyacalc.core.sheet import SheetView
from pulyacalc.render.aligned import sheet_table, tabulated
from pulyacalc.render.report import Report
from pulyacalc.render.view import convention_title, counted, jnum, payments_text, rounding_name, show, signed
from pulyacalc.scoring.settlement import Settlement


@dataclass(frozen=True)
class SettleReport(Report):
    """A paper sheet settled: the stages for people, the score report for programs."""

    def table(self) -> str:
        title = _("{title}, {players}, pool to {target}: the settlement stage by stage")
        players = counted(len(self.sheet.players), "player")
        title = title.format(title=convention_title(self.convention), players=players, target=self.target)
        return stages_table(self.convention, self.target, self.sheet, self.settlement, title)

    def document(self) -> dict[str, Any]:
        """The score report's, its stages with each-pays-each and the total besides."""
        doc = super().document()
        s, players, pays = self.settlement, self.settlement.players, self.settlement.pays_each
        each = {p: {q: jnum(exact(pays[q] - pays[p])) for q in players if q != p} for p in players}
        doc["stages"] |= {"each_pays_each": each, "total": {p: jnum(s.exact[p]) for p in players}}
        return doc


def _p(x: Amount) -> str:
    """In parentheses when negative, for arithmetic: 2 × (50 − 78)."""
    return f"({show(x)})" if x < 0 else show(x)


def _table(out: list[str], rows: list[list[Any]], head: list[str]) -> None:
    out += [*tabulated(rows, head).splitlines(), ""]


#: a kodeks move in words, by (moved up, in its owner's favour)
_HOW = {
    (False, True): N_("down one: each other writes 3 whists on him"),
    (False, False): N_("down one: he writes 3 whists on each other"),
    (True, True): N_("up one: each other writes 3 whists on him"),
    (True, False): N_("up one: he writes 3 whists on each other"),
}


def _moves(out: list[str], s: Settlement, was: Any, now: Any, head: list[str], pool: bool = False) -> None:
    """The kodeks moves' table: a mountain moved down, a pool moved up, gains its owner."""
    rows = []
    for p in s.players:
        b, a = was[p], now[p]
        how = _(_HOW[a > b, a > b if pool else a < b]) if a != b else _("a multiple of 3 already")
        rows.append([p, show(b), show(a), how])
    _table(out, rows, ["", *head, ""])


def _separate_stage(out: list[str], step: int, s: Settlement, ratio: Amount) -> None:
    """kodeks_separate (RULES.md §3.9): the pools and the mountains moved apart, then joined."""
    sep = s.separate
    assert sep is not None
    title = _(
        "{step}. Kodeks rounding, pools and mountains apart (kodeks_separate, K4.2.12): "
        "instead of the mountains of step 3,"
    )
    out.append(title.format(step=step))
    r = f" × {show(ratio)}" if ratio != 1 else ""
    pools = _("each pool over the smallest pool{ratio}, to the nearest multiple of 3")
    out.append("   " + pools.format(ratio=r))
    _moves(out, s, sep.pool, sep.pool_moved, [_("pool"), _("pool moved")], pool=True)
    out.append("   " + _("each mountain over the smallest mountain, to the nearest multiple of 3"))
    _moves(out, s, sep.mountain, sep.mountain_moved, [_("mountain"), _("mountain moved")])
    mm, pm = sep.mountain_moved, sep.pool_moved
    least = min(exact(mm[p] - pm[p]) for p in s.players)
    joined = _("kodeks mountain = moved mountain − moved pool, amnestied (the smallest, {least}, off all)")
    out.append("   " + joined.format(least=show(least)))
    rows = [[p, f"{show(mm[p])} − {_p(pm[p])} − {_p(least)}", show(s.rounded_mountain[p])] for p in s.players]
    _worked(out, rows, _("kodeks mountain"))


class _Given(NamedTuple):
    """What every stage reads: the sheet, its settlement, the convention's two rates, the target."""

    sheet: SheetView
    s: Settlement
    ratio: Amount  # (a pool point in mountain points)
    unit: Amount  # (a mountain point in whists)
    target: int


def _sheet_stage(out: list[str], step: int, given: _Given) -> None:
    out += [_("1. The sheet"), *sheet_table(given.sheet).splitlines(), ""]


def _worked(out: list[str], rows: list[list[str]], name: str) -> None:
    """A stage's table: each player's arithmetic and what it gives (the column ``name``)."""
    _table(out, rows, ["", _("arithmetic"), name])


def _equivalent_stage(out: list[str], step: int, given: _Given) -> None:
    sheet, s, ratio, target = given.sheet, given.s, given.ratio, given.target
    r = f"{show(ratio)} × " if ratio != 1 else ""
    point = _("(a pool point is {ratio} mountain points)").format(ratio=show(ratio))
    title = _(
        "2. Pools brought to the mountain: mountain equivalent G = mountain + {ratio}(target {target} − pool)"
    )
    out.append(title.format(ratio=r, target=target) + ("   " + point if ratio != 1 else ""))
    rows = [
        [p, f"{show(sheet.mountain[p])} + {r}({target} − {show(sheet.pool[p])})", show(s.equivalent[p])]
        for p in sheet.players
    ]
    _worked(out, rows, _("mountain equivalent"))


def _amnesty_stage(out: list[str], step: int, given: _Given) -> None:
    s = given.s
    title = _("3. Amnesty: the smallest G, {amnesty}, off every mountain equivalent: the amnestied mountain")
    out.append(title.format(amnesty=show(s.amnesty)))
    rows = [
        [p, f"{show(s.equivalent[p])} − {_p(s.amnesty)}", show(s.amnestied[p])] for p in given.sheet.players
    ]
    _worked(out, rows, _("amnestied mountain"))


def _rounding_stage(out: list[str], step: int, given: _Given) -> None:
    """The kodeks moves (a stage only under a kodeks rounding)."""
    s = given.s
    if s.rounding == "kodeks_separate":
        _separate_stage(out, step, s, given.ratio)
        return
    title = _("{step}. Kodeks rounding (K4.2.12): each mountain to the nearest multiple of 3")
    out.append(title.format(step=step))
    _moves(out, s, s.amnestied, s.rounded_mountain, [_("amnestied mountain"), _("kodeks mountain")])


def _average_stage(out: list[str], step: int, given: _Given) -> None:
    s, unit, players = given.s, given.unit, given.sheet.players
    n = len(players)
    total = sum(Fraction(s.rounded_mountain[p]) for p in players)
    title = _("{step}. Average mountain: ({sum}) / {n} = {total} / {n} = {average}")
    summed = " + ".join(show(s.rounded_mountain[p]) for p in players)
    out.append(title.format(step=step, sum=summed, n=n, total=show(exact(total)), average=show(s.average)))
    # with the opponents as divisor each point over the average costs n/(n − 1) times as much
    factor = f"{show(unit)} × {n}/{n - 1}" if s.divisor == "opponents" else show(unit)
    divided = _(
        "(each mountain divided among the {opponents} opponents, settlement.mountain_divisor; "
        "the Code, K4.2.14, divides by all the players)"
    ).format(opponents=n - 1)
    result = _("Mountain result = {factor} × (average − mountain)").format(factor=factor)
    out.append("   " + result + ("   " + divided if s.divisor == "opponents" else ""))
    rows = [
        [p, f"{factor} × ({show(s.average)} − {show(s.rounded_mountain[p])})", signed(s.mountain_result[p])]
        for p in players
    ]
    _worked(out, rows, _("mountain result"))


def _pays_each_stage(out: list[str], step: int, given: _Given) -> None:
    s, unit, players = given.s, given.unit, given.sheet.players
    n = len(players)
    if s.divisor == "opponents":
        title = _(
            "{step}. The same, each pays each: every player pays each other "
            "{unit} × his mountain / {opponents} (his opponents; K4.2.14 variant 1 divides by {n})"
        )
    else:
        title = _(
            "{step}. The same, each pays each (K4.2.14 variant 1): every player pays each other "
            "{unit} × his mountain / {n}"
        )
    out.append(title.format(step=step, unit=show(unit), opponents=n - 1, n=n))
    pe = s.pays_each
    rows = []
    for p in players:
        row = [p, show(pe[p]), *["·" if q == p else signed(exact(pe[q] - pe[p])) for q in players]]
        row.append(signed(exact(sum(Fraction(pe[q] - pe[p]) for q in players if q != p))))
        rows.append(row)
    # i18n: the column of what {player} pays this row's player
    from_ = _("from {player}")
    _table(out, rows, ["", _("pays each"), *[from_.format(player=q) for q in players], _("mountain result")])


def _whists_stage(out: list[str], step: int, given: _Given) -> None:
    sheet, s, ps = given.sheet, given.s, given.sheet.players
    kodeks = s.rounding in KODEKS_ROUNDINGS and any(any(row.values()) for row in s.kodeks_whists.values())
    title = _("{step}. Whists netted pair by pair: what he wrote on the other − what the other wrote on him")
    out.append(title.format(step=step) + (" " + _("(kodeks whists included)") if kodeks else ""))

    def pair(p: str, q: str) -> str:
        mine = exact(sheet.whists[p][q] + s.kodeks_whists[p][q])
        theirs = exact(sheet.whists[q][p] + s.kodeks_whists[q][p])
        return f"{show(mine)} − {show(theirs)} = {signed(s.whist_pairs[p][q])}"

    rows = [[p, *[pair(p, q) if q != p else "·" for q in ps], signed(s.whist_result[p])] for p in ps]
    # i18n: the column of the whists netted with {player}
    with_ = _("with {player}")
    _table(out, rows, ["", *[with_.format(player=q) for q in ps], _("whist result")])


def _total_stage(out: list[str], step: int, given: _Given) -> None:
    s = given.s
    total_title = _("{step}. Total = mountain result + whist result (sums to 0)").format(step=step)
    if s.money is not None:  # the price, once named in the money column's header, now in the title
        total_title += "; " + _("money at {price}").format(price=s.whist_price)
    out.append(total_title)
    # the exact total (JSON stages.total); rounded to whole whists, the result (CSV result)
    extra: list[tuple[str, Callable[[str], str]]] = []
    if s.rounding == "nearest":
        extra.append((_("result"), lambda p: signed(s.result[p])))
    if s.money is not None:
        money = s.money
        extra.append((_("money"), lambda p: show(money[p])))
    rows = []
    for p in given.sheet.players:
        w = s.whist_result[p]
        whists = f"+ {show(w)}" if w >= 0 else f"− {show(exact(-w))}"
        arithmetic = f"{signed(s.mountain_result[p])} {whists}"
        rows.append([p, arithmetic, signed(s.exact[p]), *(cell(p) for _head, cell in extra)])
    _table(out, rows, ["", _("arithmetic"), _("total"), *(head for head, _cell in extra)])


#: the stages in order: each writes its title and table
_STAGES: tuple[Callable[[list[str], int, _Given], None], ...] = (
    *(_sheet_stage, _equivalent_stage, _amnesty_stage, _rounding_stage),
    *(_average_stage, _pays_each_stage, _whists_stage, _total_stage),
)


def stages_table(conv: Convention, target: int, sheet: SheetView, s: Settlement, title: str = "") -> str:
    """The settlement stage by stage (``_STAGES``), then the rounding and who pays whom."""
    out: list[str] = [title, ""] if title else []
    given = _Given(sheet, s, conv.pool_point_in_mountain, conv.mountain_point_in_whists, target)
    step = 1
    for stage in _STAGES:
        if stage is not _rounding_stage or s.rounding in KODEKS_ROUNDINGS:
            stage(out, step, given)
            step += 1
    out.append(_("rounding {rounding}").format(rounding=rounding_name(s.rounding)))
    if s.payments:
        out.append(payments_text(s.payments))
    return "\n".join(out) + "\n"
