"""One formatting path: every report is a view, every format is one entry of the format
table, and every view can be written in every format (render/formats.py)."""

from __future__ import annotations

import ast
import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from pulyacalc.render import formats
from pulyacalc.render.formats import FORMATS, render
from pulyacalc.render.view import SCHEMA_VERSION, View

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pulyacalc"
EXAMPLES = ROOT / "examples"
SOCHI = str(EXAMPLES / "sochi-3p.txt")
#: four players, the dealer takes a talon trick: not legal under Rostov (tests/test_compare.py)
TALON_4P = "players: A B C D\n\nA pass 4, B pass 3, C pass 2, D pass 1\n"


def _score(price: Decimal | None) -> View:
    from pulyacalc.play import score_file, settle_evening
    from pulyacalc.render.report import Report

    ev = score_file(SOCHI)
    return Report(ev.convention, ev.target, ev.sheet, settle_evening(ev, price), ev.deals, ev.finished)


def _settle(rounding: str) -> View:
    from pulyacalc.convention.load import load
    from pulyacalc.logs.sheet_file import read_sheet
    from pulyacalc.render.settle import SettleReport
    from pulyacalc.scoring.settlement import settle

    paper = read_sheet(str(EXAMPLES / "sheet.yaml"))
    conv = load("sochi")
    return SettleReport(conv, 20, paper.sheet, settle(paper.sheet, conv, 20, rounding, Decimal("0.5")))


def _check(against: str | None) -> View:
    from pulyacalc.render.check import CheckView
    from pulyacalc.reports.check import Checking

    run = Checking(str(EXAMPLES / "leningrad-4p.yaml"))
    found = list(run)
    return CheckView(run.deals, found, 3 if against else None, against)


def _prices() -> View:
    from pulyacalc.convention.load import load
    from pulyacalc.render.prices import PricesView
    from pulyacalc.reports.prices import price_table

    return PricesView(price_table(load("rostov"), 4))


def _season() -> View:
    from pulyacalc.render.season import SeasonView
    from pulyacalc.reports.season import score_season

    return SeasonView(score_season([str(EXAMPLES)], price=Decimal("1")))


def _compare(text: str) -> View:
    from pulyacalc.core.errors import Problems
    from pulyacalc.logs.read import read_text
    from pulyacalc.render.compare import CompareView
    from pulyacalc.reports.compare import compare

    problems = Problems()
    log = read_text(text, "l.txt", None, problems)
    return CompareView(compare(log, problems, ["sochi", "rostov", "leningrad"]))


#: every report the command line writes, as a view (explain streams: tests/test_explain_stream.py)
VIEWS = {
    "score": lambda: _score(None),
    "score-money": lambda: _score(Decimal("0.5")),
    "settle": lambda: _settle("exact"),
    "settle-kodeks": lambda: _settle("kodeks"),
    "check": lambda: _check(None),
    "check-against": lambda: _check("sheet.yaml"),
    "prices": _prices,
    "season": _season,
    "compare": lambda: _compare((EXAMPLES / "sochi-3p.txt").read_text("utf-8")),
    "compare-excluded": lambda: _compare(TALON_4P),
}


@pytest.fixture(scope="module", params=sorted(VIEWS))
def view(request: pytest.FixtureRequest) -> View:
    made: View = VIEWS[request.param]()
    return made


def _read(fmt: str, text: str) -> Any:
    """Read back what a built-in format wrote (each is a format a program can parse)."""
    if fmt == "json":
        return json.loads(text)
    if fmt == "jsonl":
        return [json.loads(line) for line in text.splitlines()]
    if fmt in ("csv", "tsv"):
        return list(csv.reader(io.StringIO(text), delimiter="," if fmt == "csv" else "\t"))
    return text


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_view_is_written_in_every_format(view: View, fmt: str) -> None:
    text = render(view, fmt)
    # every line ends in a newline (no JSONL record at all is no line at all)
    assert text.endswith("\n") or (fmt == "jsonl" and text == "" and not list(view.records()))
    back = _read(fmt, text)
    if fmt in ("csv", "tsv"):
        head, *rows = back
        assert head and all(len(row) == len(head) for row in rows)
    if fmt == "jsonl":
        assert back == json.loads(json.dumps(list(view.records())))


def test_every_json_document_carries_the_schema_version(view: View) -> None:
    assert json.loads(render(view, "json"))["schema_version"] == SCHEMA_VERSION


def test_every_jsonl_record_carries_the_schema_version(view: View) -> None:
    """check, compare and prices too (issue #10 item 15), as score and season always did."""
    for line in render(view, "jsonl").splitlines():
        assert json.loads(line)["schema_version"] == SCHEMA_VERSION


def test_a_new_format_is_one_entry_in_the_table(view: View, monkeypatch: pytest.MonkeyPatch) -> None:
    # a throwaway format (Markdown-ish rows) added to a copy of the table: every view has it
    def markdown(v: View, out: formats.Out) -> None:
        head, rows = v.rows()
        for r in [head, *rows]:
            out.write("| " + " | ".join(map(str, r)) + " |\n")

    table = {**FORMATS, "markdown": markdown}
    monkeypatch.setattr(formats, "FORMATS", table)
    text = render(view, "markdown")
    assert text.startswith("| ") and text.count("\n") == len(list(view.rows()[1])) + 1


def test_the_command_line_offers_the_table_s_formats() -> None:
    from pulyacalc.cli.options import TABLE, Format

    assert [f.value for f in Format] == list(FORMATS)
    assert TABLE.value == "table"


def test_settle_shows_its_stages_and_adds_them_to_json() -> None:
    view = _settle("exact")
    assert "1. The sheet" in render(view, "table")
    stages = json.loads(render(view, "json"))["stages"]
    assert {"each_pays_each", "total", "pays_each"} <= set(stages)
    assert render(view, "csv") == render(_plain_report(view), "csv")


def _plain_report(view: Any) -> View:
    from pulyacalc.render.report import Report

    return Report(view.convention, view.target, view.sheet, view.settlement)


def test_compare_notes_the_conventions_the_log_breaks() -> None:
    view = _compare(TALON_4P)
    table = render(view, "table")
    note = table.splitlines()[-1]
    assert note.startswith("rostov: not legal for this log — l.txt:3:")
    doc = json.loads(render(view, "json"))
    assert [c["asked"] for c in doc["conventions"]] == ["sochi", "leningrad"]
    (excluded,) = doc["excluded"]
    assert excluded["convention"] == "rostov"
    assert set(excluded["problems"][0]) == {"where", "message", "hint"}
    assert excluded["problems"][0]["where"].startswith("l.txt:3:")
    assert render(view, "csv").splitlines()[0] == "player,sochi,leningrad"
    # nothing left out: no note, and an empty "excluded" list
    whole = _compare((EXAMPLES / "sochi-3p.txt").read_text("utf-8"))
    assert "not legal" not in render(whole, "table")
    assert json.loads(render(whole, "json"))["excluded"] == []


def test_the_note_counts_the_other_problems() -> None:
    from pulyacalc.core.errors import Loc, Problem
    from pulyacalc.render.compare import excluded_note
    from pulyacalc.reports.compare import Excluded

    problems = [Problem(Loc("l.txt", n, 5), f"wrong {n}") for n in (3, 4, 5)]
    assert excluded_note(Excluded("rostov", problems)) == (
        "rostov: not legal for this log — l.txt:3:5: wrong 3 (and 2 more problems)"
    )
    assert excluded_note(Excluded("rostov", problems[:2])).endswith("(and 1 more problem)")
    assert excluded_note(Excluded("rostov", problems[:1])).endswith("wrong 3")


def _source(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def test_csv_writer_and_schema_version_are_written_once() -> None:
    writers, versions = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(_source(path)):
            value = node.value if isinstance(node, ast.Attribute) and node.attr == "writer" else None
            if isinstance(value, ast.Name) and value.id == "csv":
                writers.append(path.name)
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == "SCHEMA_VERSION" for t in targets):
                    versions.append(path.name)
    assert writers == ["formats.py"]
    assert versions == ["view.py"]


def test_render_imports_no_format_library_at_start_up() -> None:
    """json, csv and tabulate are imported by the writer or the table that needs them."""
    for path in sorted((PACKAGE / "render").glob("*.py")):
        for node in _source(path).body:
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not {n.split(".")[0] for n in names} & {"json", "csv", "tabulate"}, path.name
