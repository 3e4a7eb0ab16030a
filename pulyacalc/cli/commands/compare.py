"""`pulyacalc compare LOG -c sochi -c leningrad -c rostov`: one evening, several conventions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from pulyacalc.cli.options import (
    Format,
    FormatOpt,
    InputFormatOpt,
    LogArg,
    PriceOpt,
    RoundingOpt,
    parse_price,
)
from pulyacalc.cli.runtime import emit, reports_problems

if TYPE_CHECKING:
    from pulyacalc.evening import Evening
    from pulyacalc.scoring.settlement import Settlement


@reports_problems
def compare(
    log: LogArg,
    conventions: Annotated[
        list[str] | None,
        typer.Option(
            "-c",
            "--convention",
            metavar="NAME|PATH",
            help="A convention (built-in name or file); repeat it. Default: every built-in one.",
        ),
    ] = None,
    format: FormatOpt = Format.table,
    whist_price: PriceOpt = None,
    rounding: RoundingOpt = None,
    input_format: InputFormatOpt = None,
) -> None:
    """The same evening settled under several conventions side by side (the log's own
    overrides and pool target apply under each)."""
    from pulyacalc.compare import compare_log

    comparison = compare_log(
        log,
        conventions,
        rounding=rounding.value if rounding else None,
        input_format=input_format.value if input_format else None,
        price=parse_price(whist_price),
    )
    emit(render(format, [(c.asked, c.evening, c.settlement) for c in comparison.columns]))


def render(format: Format, columns: list[tuple[str, Evening, Settlement]]) -> str:
    import json

    from pulyacalc.render.report import SCHEMA_VERSION, dumps, fraction_text, jnum, sheet_json, show

    players = columns[0][1].header.players
    if format in (Format.json, Format.jsonl):
        docs: list[dict[str, Any]] = []
        for name, ev, s in columns:
            d: dict[str, Any] = {
                "convention": ev.convention.name,
                "asked": name,
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
            docs.append(d)
        if format is Format.jsonl:
            return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs)
        return (
            dumps(
                {
                    "schema_version": SCHEMA_VERSION,
                    "players": list(players),
                    "deals": columns[0][1].deals,
                    "conventions": docs,
                }
            )
            + "\n"
        )
    names = [name for name, _, _ in columns]
    if format in (Format.csv, Format.tsv):
        import csv
        import io

        buf = io.StringIO()
        w = csv.writer(buf, delimiter="," if format is Format.csv else "\t", lineterminator="\n")
        w.writerow(["player", *names])
        for p in players:
            w.writerow([p, *[show(s.result[p]) for _, _, s in columns]])
        return buf.getvalue()
    from tabulate import tabulate

    money = all(s.money is not None for _, _, s in columns)
    rows = []
    for p in players:
        row = [p]
        for _, _, s in columns:
            cell = show(s.result[p])
            if money and s.money is not None:
                cell += f" ({show(s.money[p])})"
            row.append(cell)
        rows.append(row)
    out = [
        f"{len(players)} players, {columns[0][1].deals} deals; results in whists"
        + (" (money)" if money else "")
        + " under each convention",
        "",
        tabulate(
            rows,
            headers=["", *names],
            tablefmt="simple",
            disable_numparse=True,
            colalign=("left", *["right"] * len(names)),
        ),
        "",
    ]
    detail = []
    for p in players:
        r = [p]
        for _, ev, s in columns:
            r.append(
                f"{show(ev.sheet.pool[p])} / {show(ev.sheet.mountain[p])} / "
                f"{show(s.mountain_result[p])} {'−' if s.whist_result[p] < 0 else '+'} "
                f"{show(-s.whist_result[p] if s.whist_result[p] < 0 else s.whist_result[p])}"
            )
        detail.append(r)
    out.append(
        tabulate(
            detail,
            headers=["pool / mountain / mountain result + whists", *names],
            tablefmt="simple",
            disable_numparse=True,
            colalign=("left", *["right"] * len(names)),
        )
    )
    status = "\n".join(
        f"{name}: {ev.convention.title}, pool to {ev.target}, "
        + ("finished" if ev.finished else "not finished")
        + f", rounding {s.rounding}"
        for name, ev, s in columns
    )
    out += ["", status]
    return "\n".join(out) + "\n"
