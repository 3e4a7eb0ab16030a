"""`pulyacalc prices -c CONVENTION --players 3|4`: the price table («таблица расчёта»)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from pulyacalc.cli.options import ConventionOpt, Format, FormatOpt
from pulyacalc.cli.runtime import emit, reports_problems

if TYPE_CHECKING:
    from pulyacalc.prices import PriceTable


@reports_problems
def prices(
    convention: ConventionOpt = None,
    players: Annotated[
        int, typer.Option("--players", "-n", min=3, max=4, help="3 or 4 players at the table.")
    ] = 3,
    format: FormatOpt = Format.table,
) -> None:
    """What each outcome is worth in whists to the declarer and to each other player: contracts
    made, not whisted, half-whisted and failed by one, two, three; misère; a raspasy.  Every price is
    computed by scoring the deal on a finished sheet and settling with and without it."""
    from pulyacalc.convention.load import load
    from pulyacalc.prices import price_table

    conv = load(convention or "sochi")
    emit(render(format, price_table(conv, players)))


def render(format: Format, t: PriceTable) -> str:
    import json

    from pulyacalc.render.report import SCHEMA_VERSION, dumps, fraction_text, jnum, show

    if format in (Format.json, Format.jsonl):
        rows: list[dict[str, Any]] = [
            {
                "outcome": r.key,
                "played": r.label,
                "deal": r.line,
                "whists": {role: jnum(r.values[role]) for role in t.roles},
                "whists_exact": {role: fraction_text(r.values[role]) for role in t.roles},
            }
            for r in t.rows
        ]
        if format is Format.jsonl:
            return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        doc = {
            "schema_version": SCHEMA_VERSION,
            "convention": t.convention.name,
            "players": t.players,
            "roles": list(t.roles),
            "prices": rows,
        }
        return dumps(doc) + "\n"
    if format in (Format.csv, Format.tsv):
        import csv
        import io

        buf = io.StringIO()
        w = csv.writer(buf, delimiter="," if format is Format.csv else "\t", lineterminator="\n")
        w.writerow(["outcome", "played", *t.roles])
        for r in t.rows:
            w.writerow([r.key, r.label, *[show(r.values[role]) for role in t.roles]])
        return buf.getvalue()
    from tabulate import tabulate

    head = ["outcome", *t.roles, "played"]
    body = [[r.key, *[show(r.values[role]) for role in t.roles], r.label] for r in t.rows]
    text = tabulate(
        body,
        headers=head,
        tablefmt="simple",
        disable_numparse=True,
        colalign=("left", *["right"] * len(t.roles), "left"),
    )
    title = (
        f"{t.convention.title}, {t.players} players: what each outcome is worth in whists (+ wins, − loses)"
    )
    notes = (
        "The declarer is first hand, the first defender sits next clockwise"
        + ("; the dealer sits out." if t.players == 4 else ".")
        + "\nEach price: the deal scored on a finished sheet where all are equal, then settled (exact)."
    )
    return f"{title}\n\n{text}\n\n{notes}\n"
