"""`compare` as a view: a column per convention under which the log is legal; the others are told with
their first problem under the table and in JSON's ``excluded``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pulyacalc.core.i18n import _, ngettext, tr
from pulyacalc.render.table import grid
from pulyacalc.render.view import (
    SCHEMA_VERSION,
    convention_title,
    counted,
    decimal,
    fraction_text,
    jnum,
    rounding_name,
    sheet_json,
    show,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from pulyacalc.reports.compare import Column, Comparison, Excluded


def column_json(c: Column, players: tuple[str, ...]) -> dict[str, Any]:
    ev, s = c.evening, c.settlement
    d: dict[str, Any] = {
        "convention": ev.convention.name,
        "asked": c.asked,
        "title": ev.convention.title,
        "pool_target": ev.target,
        "finished": ev.finished,
        "rounding": s.rounding,
        "sheet": sheet_json(ev.sheet),
        "settlement": {p: jnum(s.result[p]) for p in players},
        "settlement_exact": {p: fraction_text(s.exact[p]) for p in players},
        "mountain_result": {p: jnum(s.mountain_result[p]) for p in players},
        "whist_result": {p: jnum(s.whist_result[p]) for p in players},
    }
    if s.money is not None:
        d["money"] = {p: float(s.money[p]) for p in players}
    return d


def excluded_json(x: Excluded) -> dict[str, Any]:
    problems = [{"where": str(p.loc), "message": p.message, "hint": p.hint} for p in x.problems]
    return {"convention": x.asked, "problems": problems}


def excluded_note(x: Excluded) -> str:
    """``rostov: not legal for this log — FILE:LINE:COL: message (and 2 more problems)``"""
    if not x.problems:
        return _("{name}: not legal for this log").format(name=x.asked)
    first, more = x.problems[0], len(x.problems) - 1
    said = _("{name}: not legal for this log — {where}: {message}")
    said = said.format(name=x.asked, where=first.loc, message=tr(first.message))
    if more:
        said += " " + ngettext("(and {n} more problem)", "(and {n} more problems)", more).format(n=more)
    return said


@dataclass(frozen=True)
class CompareView:
    comparison: Comparison

    def records(self) -> list[dict[str, Any]]:
        """One object per convention, each with ``schema_version`` as every JSON Lines object."""
        c = self.comparison
        return [{"schema_version": SCHEMA_VERSION, **column_json(col, c.players)} for col in c.columns]

    def document(self) -> dict[str, Any]:
        c = self.comparison
        return {
            "schema_version": SCHEMA_VERSION,
            "players": list(c.players),
            "deals": c.deals,
            "conventions": [column_json(col, c.players) for col in c.columns],
            # always there (one shape whatever the log), empty when legal under every convention
            "excluded": [excluded_json(x) for x in c.excluded],
        }

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        c = self.comparison
        body = [[p, *[decimal(col.settlement.result[p]) for col in c.columns]] for p in c.players]
        return ["player", *[col.asked for col in c.columns]], body

    def table(self) -> str:
        c = self.comparison
        names = [col.asked for col in c.columns]
        money = all(col.settlement.money is not None for col in c.columns)

        def result(p: str, col: Column) -> str:
            s = col.settlement
            cell = show(s.result[p])
            return cell + f" ({show(s.money[p])})" if money and s.money is not None else cell

        def detail(p: str, col: Column) -> str:
            ev, s = col.evening, col.settlement
            w = s.whist_result[p]
            whists = f"− {show(-w)}" if w < 0 else f"+ {show(w)}"
            paper = f"{show(ev.sheet.pool[p])} / {show(ev.sheet.mountain[p])}"
            return f"{paper} / {show(s.mountain_result[p])} {whists}"

        def drawn(cell: Callable[[str, Column], str], corner: str) -> str:
            rows = [[p, *[cell(p, col) for col in c.columns]] for p in c.players]
            return grid(rows, head=[corner, *names], colalign=("left", *["right"] * len(names)))

        title = _("{players}, {deals}; results in whists (money) under each convention")
        if not money:
            title = _("{players}, {deals}; results in whists under each convention")
        title = title.format(players=counted(len(c.players), "player"), deals=counted(c.deals, "deal"))
        # the detail table, its header the legend of its cells (fitted to a width: the legend above it)
        legend = _("pool / mountain / mountain result + whist result")
        details = drawn(detail, legend)
        if details.count("\n") + 1 != len(c.players) + 2:  # (not the header, its rule, a row per player)
            details = _("each cell: {legend}").format(legend=legend) + "\n" + drawn(detail, "")
        out = [title, "", drawn(result, ""), "", details, ""]
        about = _("{name}: {title}, pool to {target}, {done}, rounding {rounding}")
        for col in c.columns:
            ev, rounding = col.evening, rounding_name(col.settlement.rounding)
            done = _("finished") if ev.finished else _("not finished")
            title = convention_title(ev.convention)
            out.append(
                about.format(name=col.asked, title=title, target=ev.target, done=done, rounding=rounding)
            )
        out += [excluded_note(x) for x in c.excluded]
        return "\n".join(out) + "\n"
