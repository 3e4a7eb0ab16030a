"""`season` as a view: the standings over many evenings (JSON also carries each evening's result)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pulyacalc.core.i18n import _
from pulyacalc.render.aligned import tabulated
from pulyacalc.render.table import grid
from pulyacalc.render.view import SCHEMA_VERSION, counted, decimal, jnum, twins, versioned
from pulyacalc.render.view import show as view_show

if TYPE_CHECKING:
    from pulyacalc.reports.season import Season


#: an evening's metadata header keys, shown when a log gives them
META = ("date", "title", "place")


@dataclass(frozen=True)
class SeasonView:
    season: Season

    def records(self) -> list[dict[str, Any]]:
        """One standing per line, best first."""
        return versioned(self.document()["standings"])

    def document(self) -> dict[str, Any]:
        s = self.season
        doc: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "evenings": [
                {
                    "file": e.source,
                    "players": list(e.players),
                    "convention": e.convention,
                    "pool_target": e.pool_target,
                    "rounding": e.rounding,
                    "deals": e.deals,
                    "finished": e.finished,
                    **twins("result", {p: e.result[p] for p in e.players}),
                    **({"money": {p: float(e.money[p]) for p in e.players}} if e.money is not None else {}),
                    **{k: v for k in META if (v := getattr(e, k)) is not None},
                }
                for e in s.evenings
            ],
            "standings": [
                {
                    "rank": rank,
                    "player": st.player,
                    "evenings": st.evenings,
                    **twins("total", st.total),
                    **twins("average", st.average),
                    "best": jnum(st.best),
                    "best_evening": st.best_evening,
                    "worst": jnum(st.worst),
                    "worst_evening": st.worst_evening,
                    **({"money": float(st.money)} if st.money is not None else {}),
                }
                for rank, st in enumerate(s.standings, 1)
            ],
            "deals": s.deals,
        }
        if s.whist_price is not None:
            doc["whist_price"] = float(s.whist_price)
        return doc

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        head = ["rank", "player", "evenings", "total", "average", "best", "best_evening", "worst"]
        money = ["money"] if self.season.whist_price is not None else []
        return [*head, "worst_evening", *money], self._rows(people=False)

    def _rows(self, people: bool) -> list[list[Any]]:
        rows: list[list[Any]] = []
        show = view_show if people else decimal  # tables for people, CSV for programs
        for rank, st in enumerate(self.season.standings, 1):
            # the average is a statistic, not an amount to add up: with decimals (19.83, not 19⅚)
            row: list[Any] = [rank, st.player, st.evenings, show(st.total), decimal(st.average)]
            if people:
                row += [show(st.best), show(st.worst)]
            else:
                row += [show(st.best), st.best_evening, show(st.worst), st.worst_evening]
            if st.money is not None:
                row.append(show(st.money))
            rows.append(row)
        return rows

    def table(self) -> str:
        s, p = self.season, self.season.whist_price
        price = ", " + _("whist price {price}").format(price=p) if p is not None else ""
        title = _("Season: {evenings}, {deals}{price}; results in whists")
        evenings = counted(len(s.evenings), "evening")
        lines = [title.format(evenings=evenings, deals=counted(s.deals, "deal"), price=price), ""]
        head = [_("rank"), _("player"), _("evenings"), _("total"), _("average"), _("best"), _("worst")]
        if s.whist_price is not None:
            head.append(_("money"))
        lines.append(tabulated(self._rows(people=True), head, (1,)))
        keys = [k for k in META if any(getattr(e, k) is not None for e in s.evenings)]
        if keys:
            rows = [[e.source, *(getattr(e, k) or "" for k in keys)] for e in s.evenings]
            names = {"date": _("date"), "title": _("title"), "place": _("place")}
            lines += ["", grid(rows, [_("file"), *(names.get(k, k) for k in keys)])]
        return "\n".join(lines) + "\n"
