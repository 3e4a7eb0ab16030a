"""`prices` as a view: the price table («таблица расчёта»), what each outcome is worth to each role."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pulyacalc.core.i18n import N_, _, tr
from pulyacalc.render.aligned import tabulated
from pulyacalc.render.view import SCHEMA_VERSION, counted, decimal, show, twins, versioned

if TYPE_CHECKING:
    from pulyacalc.reports.prices import PriceTable

#: who sits out, by the table's size (the end of the notes' first sentence)
_SITS_OUT = {
    2: N_("; the dummy, who always passes, defends with him."),
    4: N_("; the dealer sits out."),
    5: N_("; the dealer and the second out sit out."),
}
#: the seats of the price table, named by role (the machine formats keep these names)
_ROLES = (N_("declarer"), N_("first defender"), N_("second defender"), N_("dealer"), N_("second out"))


@dataclass(frozen=True)
class PricesView:
    prices: PriceTable

    def records(self) -> list[dict[str, Any]]:
        return versioned(self.document()["prices"])

    def document(self) -> dict[str, Any]:
        t = self.prices
        prices = [
            {
                "outcome": r.key,
                "played": r.label,
                "deal": r.line,
                **twins("whists", {role: r.values[role] for role in t.roles}),
            }
            for r in t.rows
        ]
        return {
            "schema_version": SCHEMA_VERSION,
            "convention": t.convention.name,
            "players": t.players,
            "roles": list(t.roles),
            "prices": prices,
        }

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        t = self.prices
        body = [[r.key, r.label, *[decimal(r.values[role]) for role in t.roles]] for r in t.rows]
        return ["outcome", "played", *t.roles], body

    def table(self) -> str:
        t = self.prices
        head = [_("outcome"), *[_(role) for role in t.roles], _("played")]
        body = [[tr(r.key), *[show(r.values[role]) for role in t.roles], tr(r.label)] for r in t.rows]
        text = tabulated(body, head, (0, len(head) - 1))
        worth = _("what each outcome is worth in whists (+ wins, − loses)")
        title = f"{t.convention.title}, {counted(t.players, 'player')}: {worth}"
        seats = _("The declarer is first hand, the first defender sits next clockwise")
        seats += _(_SITS_OUT[t.players]) if t.players in _SITS_OUT else "."
        how = _("Each price: the deal scored on a finished sheet where all are equal, then settled (exact).")
        return f"{title}\n\n{text}\n\n{seats}\n{how}\n"
