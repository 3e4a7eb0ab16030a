"""`explain` as a view: every entry of the chosen deals with its rule and arithmetic, and
the running sheet after each deal, and the deal's ledger row (what it moves each result by).
JSON carries the entries flat and per deal (each deal with its ``ledger``); JSONL and CSV/TSV
one entry per line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pulyacalc.render.view import (
    SCHEMA_VERSION,
    convention_title,
    counted,
    fraction_text,
    jnum,
    sheet_head,
    sheet_json,
    sheet_row,
    show,
)

if TYPE_CHECKING:
    from pulyacalc.explain import DealExplained, Explained, Explanation


def entry_json(x: Explained) -> dict[str, Any]:
    e = x.entry
    return {
        "deal": e.deal,
        "rule": e.rule,
        "section": x.rule.section,
        "kodeks": x.rule.kodeks,
        "player": e.player,
        "area": e.area,
        "on": e.on,
        "amount": jnum(e.amount),
        "amount_exact": fraction_text(e.amount),
        "why": e.why,
        "text": x.text,
    }


def deal_json(d: DealExplained) -> dict[str, Any]:
    r = d.result
    return {
        "deal": r.number,
        "where": d.where,
        "dealer": r.dealer,
        "kind": r.kind,
        "line": d.line,
        "after_finish": r.after_finish,
        "entries": [entry_json(x) for x in d.entries],
        "running": sheet_json(d.running),
        "ledger": {p: jnum(v) for p, v in d.ledger.items()},
        "ledger_exact": {p: fraction_text(v) for p, v in d.ledger.items()},
    }


@dataclass(frozen=True)
class ExplainView:
    """An explanation, showing ``deals`` (all of them, or the one asked with ``--deal``)."""

    explanation: Explanation
    deals: tuple[DealExplained, ...]

    def document(self) -> dict[str, Any]:
        ev, deals = self.explanation.evening, self.deals
        return {
            "schema_version": SCHEMA_VERSION,
            "players": list(ev.header.players),
            "convention": ev.convention.name,
            "pool_target": ev.target,
            "entries": [entry_json(x) for d in deals for x in d.entries],
            "deals": [deal_json(d) for d in deals],
            "sheet": sheet_json(deals[-1].running if deals else ev.sheet),
        }

    def records(self) -> list[dict[str, Any]]:
        return [{"schema_version": SCHEMA_VERSION, **entry_json(x)} for d in self.deals for x in d.entries]

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        head = ["deal", "rule", "section", "player", "area", "on", "amount", "why"]
        rows: list[list[Any]] = []
        for d in self.deals:
            for x in d.entries:
                e = x.entry
                amount = fraction_text(e.amount)
                rows.append([e.deal, e.rule, x.rule.section, e.player, e.area, e.on or "", amount, e.why])
        return head, rows

    def table(self) -> str:
        from tabulate import tabulate

        from pulyacalc.core.amounts import num
        from pulyacalc.explain import place

        ev = self.explanation.evening
        players = ev.header.players
        out = [
            f"{convention_title(ev.convention)}, {len(players)} players, pool to {ev.target}, "
            f"{counted(ev.deals, 'deal')}",
            "",
        ]
        for d in self.deals:
            r = d.result
            flags = []
            if r.raspasy_run > 1:
                flags.append(f"raspasy no. {r.raspasy_run} in a row")
            if r.after_finish:
                flags.append("after the pulya was finished")
            extra = f" ({'; '.join(flags)})" if flags else ""
            if r.kind == "correction":  # not a deal (RULES.md 2.9): after the deal it follows
                after = f"after deal {r.number}" if r.number else "before the first deal"
                out.append(f"Correction {after} ({d.where}): {d.line}")
            else:
                out.append(f"Deal {r.number} ({d.where}), dealer {r.dealer}: {d.line}{extra}")
            rows = []
            for x in d.entries:
                e = x.entry
                amount = num(e.amount)
                rows.append(
                    [
                        e.player,
                        place(e),
                        f"+{amount}" if e.amount > 0 else amount,
                        x.text.split(": ", 1)[1] if ": " in x.text else "",
                        f"{e.rule} §{x.rule.section} {x.rule.kodeks}",
                    ]
                )
            if rows:
                table = tabulate(
                    rows,
                    tablefmt="plain",
                    disable_numparse=True,
                    colalign=("left", "left", "right", "left", "left"),
                )
                out.extend("  " + line for line in table.splitlines())
            else:
                out.append("  (nothing is written)")
            moves = ", ".join(f"{p} {'+' if v > 0 else ''}{show(v)}" for p, v in d.ledger.items())
            out.append(f"  moves the results: {moves}")
            table = tabulate(
                [[f"  {p}", *sheet_row(d.running, p)] for p in players],
                headers=[
                    "  after the correction" if r.kind == "correction" else f"  after deal {r.number}",
                    *sheet_head(players),
                ],
                tablefmt="simple",
                disable_numparse=True,
                colalign=("left", *["right"] * (2 + len(players))),
            )
            out.extend("  " + line for line in table.splitlines())
            out.append("")
        return "\n".join(out)
