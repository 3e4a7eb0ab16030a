"""`explain` streams (issue 10 item 13): flat memory (a smoke test here; bench/streams.py
measures it on a long log), every format holding what the whole-log explanation holds (the
table its very bytes), `--deal N` stops reading after deal N, and a progress bar on a
terminal's stderr for score, explain and check."""

from __future__ import annotations

import csv
import io
import json
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.cli.progress import count_lines, log_progress
from pulyacalc.play import score_file
from pulyacalc.render.explain import ROW_HEAD, ExplainStream, entry_json, entry_row, explain_table
from pulyacalc.render.formats import FORMATS, render
from pulyacalc.render.view import SCHEMA_VERSION, sheet_json
from pulyacalc.reports.explain import DealExplained, Explanation, explain, explain_stream

ROOT = Path(__file__).resolve().parent.parent


def explain_file(path: str) -> Explanation:
    """A log explained whole: what the stream is held to."""
    return explain(score_file(path, running=True))


def holds_the_explanation(text: str, fmt: str, ex: Explanation, deals: tuple[DealExplained, ...]) -> None:
    """The stream's ``text`` in ``fmt`` shows ``deals`` of the whole explanation ``ex``: the
    table byte for byte, the others read back entry by entry, deal by deal."""
    entries = [entry_json(x) for d in deals for x in d.entries]
    if fmt == "table":
        assert text == explain_table(ex, deals)
    elif fmt == "json":
        doc = json.loads(text)
        assert doc["schema_version"] == SCHEMA_VERSION and doc["entries"] == entries
        assert doc["players"] == list(ex.evening.sheet.players)
        shown = [(d.result.number, d.result.kind, [entry_json(x) for x in d.entries]) for d in deals]
        assert [(d["deal"], d["kind"], d["entries"]) for d in doc["deals"]] == shown
        assert [d["running"] for d in doc["deals"]] == [sheet_json(d.running) for d in deals]
        assert doc["sheet"] == sheet_json(deals[-1].running if deals else ex.evening.sheet)
    elif fmt == "jsonl":
        assert [json.loads(line) for line in text.splitlines()] == [
            {"schema_version": SCHEMA_VERSION, **e} for e in entries
        ]
    else:
        rows = [ROW_HEAD, *[list(map(str, entry_row(x))) for d in deals for x in d.entries]]
        assert list(csv.reader(io.StringIO(text), delimiter="," if fmt == "csv" else "\t")) == rows


sys.path.insert(0, str(ROOT / "bench"))
import genlog  # noqa: E402

EXAMPLES = ["examples/sochi-3p.txt", "examples/rostov-3p.yaml", "examples/leningrad-4p.yaml"]


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


def big_log(tmp_path: Path, deals: int) -> Path:
    path = tmp_path / f"log{deals}.txt"
    path.write_text("".join(genlog.line_log(deals, seed=1, pool=100000)), encoding="utf-8")
    return path


class Sink(io.TextIOBase):
    """Standard output that keeps nothing (only the bytes' count)."""

    written = 0

    def write(self, s: str) -> int:
        self.written += len(s)
        return len(s)


@pytest.mark.parametrize("log", EXAMPLES)
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_the_stream_holds_the_whole_explanation(log: str, fmt: str) -> None:
    ex = explain_file(str(ROOT / log))
    out = io.StringIO()
    out.write(render(ExplainStream(explain_stream(str(ROOT / log))), fmt))
    holds_the_explanation(out.getvalue(), fmt, ex, ex.deals)


@pytest.mark.parametrize(
    "text",
    [
        "players: Anna Boris Vera\n",
        'players: Anna Boris Vera\ncorrection Anna pool 2 "agreed"\n',
        "players: Anna Boris Vera\nAnna 6♠, Boris pass, Vera pass\n",
    ],
)
def test_the_json_stream_of_a_log_with_no_entries_or_no_deals(tmp_path: Path, text: str) -> None:
    import json

    log = tmp_path / "e.txt"
    log.write_text(text, encoding="utf-8")
    ex = explain_file(str(log))
    out = io.StringIO()
    out.write(render(ExplainStream(explain_stream(str(log))), "json"))
    holds_the_explanation(out.getvalue(), "json", ex, ex.deals)
    assert json.loads(out.getvalue())["players"] == ["Anna", "Boris", "Vera"]


def peak(path: Path, fmt: str | None) -> int:
    tracemalloc.start()
    try:
        if fmt is None:
            score_file(str(path))
        else:
            FORMATS[fmt](ExplainStream(explain_stream(str(path))), Sink())
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_json_stream_holds_no_deal_it_has_written(tmp_path: Path) -> None:
    """A smoke test of flat memory (bench/streams.py measures it on 500,000 deals, in every
    format, and check's): on 1,000 deals the stream, one deal at a time with its caches per
    distinct set of writes, peaks under 3× score's (keeping every deal, its entries and its
    paper holds several times more)."""
    log = big_log(tmp_path, 1000)
    # the modules imported and their tables built first, untraced
    FORMATS["json"](ExplainStream(explain_stream(str(ROOT / EXAMPLES[0]))), Sink())
    assert peak(log, "json") < 3 * peak(log, None)


def test_deal_n_stops_reading_after_deal_n(tmp_path: Path) -> None:
    log = tmp_path / "e.txt"
    text = "".join(genlog.line_log(6, seed=3))
    lines = text.splitlines(keepends=True)
    # a line nobody can read right after deal 2: --deal 2 never reads it, the whole log does
    broken = "".join(lines[:7]) + "Anna 6♠ six, this is no deal\n" + "".join(lines[7:])
    log.write_text(broken, encoding="utf-8")
    whole = run("explain", str(log))
    assert whole.exit_code == 1 and ":8:" in whole.stderr
    r = run("explain", str(log), "--deal", "2")
    assert r.exit_code == 0, r.stderr
    first = r.stdout.splitlines()[0]
    assert first.endswith(", deal 2 of the log")
    assert "\nDeal 2 (" in r.stdout and "Deal 1 (" not in r.stdout and "Deal 3 (" not in r.stdout
    # the problem is a deal of its own: --deal 3 reads it and reports it
    assert run("explain", str(log), "--deal", "3").exit_code == 1


def test_deal_n_does_not_read_on(tmp_path: Path) -> None:
    log = big_log(tmp_path, 3000)
    stream = explain_stream(str(log), upto=5)
    view = ExplainStream(stream)
    rows = render(view, "csv").splitlines()[1:]
    assert view.shown == 1 and rows and all(row.startswith("5,") for row in rows)
    assert stream.count == 5  # the deals read: five, not 3000


def test_deal_n_keeps_the_corrections_after_it_and_the_json_document() -> None:
    for fmt in ("json", "jsonl", "csv"):
        ex = explain_file(str(ROOT / EXAMPLES[0]))
        deals = tuple(d for d in ex.deals if d.result.number == 9)
        out = io.StringIO()
        out.write(render(ExplainStream(explain_stream(str(ROOT / EXAMPLES[0]), upto=9)), fmt))
        holds_the_explanation(out.getvalue(), fmt, ex, deals)


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_by_the_lines_of_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = big_log(tmp_path, 50)
    total = count_lines(str(log))
    assert total == len(log.read_text(encoding="utf-8").splitlines())
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    with log_progress(str(log), delay=0) as update:
        assert update is not None
        update(total // 2)
        assert f"{total // 2}/{total}" in err.getvalue()
    assert err.getvalue().endswith("\r")  # erased at the end
    with log_progress("-", delay=0) as update:  # standard input: no end to measure
        assert update is None
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal: nothing
    with log_progress(str(log), delay=0) as update:
        assert update is None


def test_score_and_check_tell_the_bar_as_they_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pulyacalc.reports.check import Checking

    # the raw lines of a line log: every WATCH_EVERY lines, and the last line
    log = big_log(tmp_path, 3000)
    for play in (score_file, lambda path, progress: list(Checking(path, progress=progress))):
        seen: list[int] = []
        play(str(log), progress=seen.append)
        assert seen == [1024, 2048, count_lines(str(log))]
    # the commands pass the bar's update: on a terminal the bar is drawn
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr("pulyacalc.cli.progress.DELAY", 0.0)
    with log_progress(str(log)) as update:
        score_file(str(log), progress=update)
    assert f"/{count_lines(str(log))}" in err.getvalue()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("convention,players", [("classic", 3), ("leningrad", 4)])
def test_the_stream_draws_repeated_writes_as_the_whole_explanation(
    tmp_path: Path, lang: str, convention: str, players: int
) -> None:
    """A generated log repeats its writes (each set drawn once and remembered): every format
    still holds the whole explanation, in both languages (Classic's bombs multiply the arithmetic)."""
    from pulyacalc.core import i18n

    log = tmp_path / "g.pulya"
    log.write_text("".join(genlog.line_log(400, seed=5, players=players, convention=convention)))
    i18n.use(lang)
    try:
        ex = explain_file(str(log))
        for fmt in sorted(FORMATS):
            out = io.StringIO()
            out.write(render(ExplainStream(explain_stream(str(log))), fmt))
            holds_the_explanation(out.getvalue(), fmt, ex, ex.deals)
    finally:
        i18n.use("en")


def test_the_table_goes_out_as_it_comes_once_the_log_is_played(tmp_path: Path) -> None:
    """The table is made whole (its problems raised) before any of it goes out: then its
    pieces go out as they come (not copied through a second spool, one chunk); a log with
    a problem lets nothing out."""
    from pulyacalc.render.formats import write

    log = big_log(tmp_path, 3000)
    chunks: list[str] = []
    write(ExplainStream(explain_stream(str(log))), "table", chunks.append)
    whole = render(ExplainStream(explain_stream(str(log))), "table")
    assert "".join(chunks) == whole
    assert chunks[0] == whole[: len(chunks[0])] and chunks[0].endswith("deals\n") and len(chunks) > 2
    broken = tmp_path / "broken.txt"
    broken.write_text(log.read_text(encoding="utf-8") + "Anna 6x 7\n", encoding="utf-8")
    out: list[str] = []
    with pytest.raises(Exception, match="unknown suit"):
        write(ExplainStream(explain_stream(str(broken))), "table", out.append)
    assert out == []
