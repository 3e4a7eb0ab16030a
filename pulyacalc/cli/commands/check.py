"""`pulyacalc check LOG [--against SHEET]`: everything wrong or suspicious about a log,
each with FILE:LINE; with --against, every cell where a paper sheet and the log differ."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from pulyacalc.cli.options import ConventionOpt, Format, FormatOpt, InputFormatOpt, LogArg
from pulyacalc.cli.runtime import emit, reports_problems


@reports_problems
def check(
    log: LogArg,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            metavar="SHEET",
            help="A paper sheet (YAML, as for settle; optional running: totals per deal) "
            "to reconcile with the log: every differing cell, and the first deal where they part.",
        ),
    ] = None,
    convention: ConventionOpt = None,
    format: FormatOpt = Format.table,
    input_format: InputFormatOpt = None,
) -> None:
    """Check a log beyond its syntax: refused deals, deals after the finish, contracts below
    the raspasy exit, forbidden shortfalls, a 4-player dealer in play, an unreachable pool
    target, strange convention overrides.  Exit status 0 when clean, 1 otherwise."""
    from pulyacalc.checks import check_log, run_log

    run = run_log(log, convention=convention, input_format=input_format.value if input_format else None)
    findings = check_log(run)
    parting: int | None = None
    if against is not None:
        from pulyacalc.logs.sheet_file import read_sheet
        from pulyacalc.reconcile import reconcile

        paper = read_sheet(against)
        rec = reconcile(run, paper, "<stdin>" if against == "-" else against)
        findings.extend(rec.findings)
        parting = rec.parting_deal
    emit(render(format, run.deals, findings, parting, against))
    if findings:
        raise typer.Exit(1)


def render(format: Format, deals: int, findings: list[Any], parting: int | None, against: str | None) -> str:
    import json

    from pulyacalc.render.report import SCHEMA_VERSION, dumps

    rows = [
        {
            "where": str(f.loc),
            "file": f.loc.file,
            "line": f.loc.line,
            "column": f.loc.column,
            "code": f.code,
            "message": f.message,
            "hint": f.hint,
        }
        for f in findings
    ]
    if format is Format.json:
        doc: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "ok": not findings,
            "deals": deals,
            "findings": rows,
        }
        if against is not None:
            doc["against"] = against
            doc["parting_deal"] = parting
        return dumps(doc) + "\n"
    if format is Format.jsonl:
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    if format in (Format.csv, Format.tsv):
        import csv
        import io

        buf = io.StringIO()
        w = csv.writer(buf, delimiter="," if format is Format.csv else "\t", lineterminator="\n")
        w.writerow(["file", "line", "column", "code", "message", "hint"])
        for r in rows:
            w.writerow([r["file"], r["line"], r["column"], r["code"], r["message"], r["hint"]])
        return buf.getvalue()
    lines = [f"{f.format()} [{f.code}]" for f in findings]
    if findings:
        lines.append(f"{len(findings)} finding{'s' if len(findings) != 1 else ''} in {deals} deals")
    else:
        agree = " and the sheet agrees with the log" if against is not None else ""
        lines.append(f"clean: {deals} deals, nothing wrong or suspicious{agree}")
    return "\n".join(lines) + "\n"
