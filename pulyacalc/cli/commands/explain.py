"""`pulyacalc explain LOG [--deal N]`: every entry of every deal, with its rule and arithmetic."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from pulyacalc.cli.options import ConventionOpt, Format, FormatOpt, InputFormatOpt, LogArg, RoundingOpt
from pulyacalc.cli.runtime import emit, fail, reports_problems

if TYPE_CHECKING:
    from pulyacalc.explain import DealExplained, Explained, Explanation


@reports_problems
def explain(
    log: LogArg,
    deal: Annotated[
        int | None, typer.Option("--deal", "-d", min=1, help="Explain only deal number N (1 = the first).")
    ] = None,
    convention: ConventionOpt = None,
    format: FormatOpt = Format.table,
    rounding: RoundingOpt = None,
    input_format: InputFormatOpt = None,
) -> None:
    """Every entry of every deal: who writes how much, where, why (rule and arithmetic), and the
    running totals after each deal (нарастающим итогом)."""
    from pulyacalc.explain import explain_file

    ex = explain_file(
        log,
        convention=convention,
        rounding=rounding.value if rounding else None,
        input_format=input_format.value if input_format else None,
    )
    deals = ex.deals
    if deal is not None:
        deals = tuple(d for d in ex.deals if d.result.number == deal)
        if not deals:
            raise fail(f"--deal {deal}: the log has {ex.evening.deals} deals")
    emit(render(format, ex, deals))


def entry_json(x: Explained) -> dict[str, Any]:
    from pulyacalc.render.report import fraction_text, jnum

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
    from pulyacalc.render.report import sheet_json

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
    }


def render(format: Format, ex: Explanation, deals: tuple[DealExplained, ...]) -> str:
    import json

    from pulyacalc.render.report import SCHEMA_VERSION, dumps, sheet_json

    ev = ex.evening
    if format is Format.json:
        doc = {
            "schema_version": SCHEMA_VERSION,
            "players": list(ev.header.players),
            "convention": ev.convention.name,
            "pool_target": ev.target,
            "entries": [entry_json(x) for d in deals for x in d.entries],
            "deals": [deal_json(d) for d in deals],
            "sheet": sheet_json(deals[-1].running if deals else ev.sheet),
        }
        return dumps(doc) + "\n"
    if format is Format.jsonl:
        lines = [
            json.dumps({"schema_version": SCHEMA_VERSION, **entry_json(x)}, ensure_ascii=False)
            for d in deals
            for x in d.entries
        ]
        return "".join(line + "\n" for line in lines)
    if format in (Format.csv, Format.tsv):
        return _csv(deals, "," if format is Format.csv else "\t")
    return _table(ex, deals)


def _csv(deals: tuple[DealExplained, ...], delimiter: str) -> str:
    import csv
    import io

    from pulyacalc.render.report import fraction_text

    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    w.writerow(["deal", "rule", "section", "player", "area", "on", "amount", "why"])
    for d in deals:
        for x in d.entries:
            e = x.entry
            w.writerow(
                [e.deal, e.rule, x.rule.section, e.player, e.area, e.on or "", fraction_text(e.amount), e.why]
            )
    return buf.getvalue()


def _table(ex: Explanation, deals: tuple[DealExplained, ...]) -> str:
    from tabulate import tabulate

    from pulyacalc.core.amounts import num
    from pulyacalc.explain import place
    from pulyacalc.render.report import show

    ev = ex.evening
    players = ev.header.players
    out = [f"{ev.convention.title}, {len(players)} players, pool to {ev.target}, {ev.deals} deals", ""]
    for d in deals:
        r = d.result
        flags = []
        if r.raspasy_run > 1:
            flags.append(f"raspasy no. {r.raspasy_run} in a row")
        if r.after_finish:
            flags.append("after the pulya was finished")
        extra = f" ({'; '.join(flags)})" if flags else ""
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
        run = [
            [
                f"  {p}",
                show(d.running.pool[p]),
                show(d.running.mountain[p]),
                *["·" if q == p else show(d.running.whists[p][q]) for q in players],
            ]
            for p in players
        ]
        table = tabulate(
            run,
            headers=[f"  after deal {r.number}", "pool", "mountain", *[f"on {q}" for q in players]],
            tablefmt="simple",
            disable_numparse=True,
            colalign=("left", *["right"] * (2 + len(players))),
        )
        out.extend("  " + line for line in table.splitlines())
        out.append("")
    return "\n".join(out)
