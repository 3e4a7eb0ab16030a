"""`ledger` and `stats` stream (issue 11): a long log in flat memory, the same bytes.

`ledger` writes its rows as the deals are scored (ledger.Rows told each deal by
``play(..., each=...)``, render/ledger.LedgerView, render/table.LongTable) and `stats`
counts each deal as it is scored (stats.Counting).  Both are compared with the way they are
made from an evening kept whole (``keep=True``; the ledger's table drawn by grid) in every
output format, on generated line logs (with the faults a hand-kept log has, a newcomer
included) and YAML logs, and with the caches made small so that they empty and fill again.
Neither command asks ``play`` to keep anything: what it holds grows with the players and
the distinct lines, not with the deals.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from helpers import examples
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from logs_gen import faults, random_log
from typer.testing import CliRunner

from pulyacalc import play
from pulyacalc.cli.app import app
from pulyacalc.core.errors import PulyaError
from pulyacalc.play import score_file, settle_evening
from pulyacalc.render.formats import FORMATS, render
from pulyacalc.render.ledger import LedgerView
from pulyacalc.render.stats import PlayerView, StatsView
from pulyacalc.reports import ledger, stats
from pulyacalc.reports.ledger import ledger_file
from pulyacalc.reports.stats import Gathering, Stats, Tally, count_deal, score_stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import genlog  # noqa: E402

OPTIONS = ([], ["--running"], ["--whist-price", "0.35"], ["--running", "--whist-price", "1"])


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


def old_ledger(path: str, fmt: str, options: list[str], rounding: str | None = None) -> str:
    """The ledger of an evening kept whole, rendered (its table drawn whole by grid)."""
    from decimal import Decimal

    from pulyacalc.render.formats import fit_lines

    price = Decimal(options[options.index("--whist-price") + 1]) if "--whist-price" in options else None
    lg = ledger_file(path, rounding=rounding, price=price)  # type: ignore[arg-type]
    if fmt == "table":
        return fit_lines(whole_table(lg, "--running" in options))
    return render(LedgerView(lg, "--running" in options), fmt)


def whole_table(lg: Any, running: bool) -> str:
    """The table of a kept ledger drawn whole by grid."""
    from pulyacalc.render.ledger import (
        _cell,
        final_rows,
        notes,
        row_values,
        table_align,
        table_columns,
        title,
    )
    from pulyacalc.render.table import grid

    columns, head = table_columns(lg.players, running, lg.settlement.money is not None)
    rows = []
    for row in lg.rows:  # the deal without its note (``  # ...``), then its values
        values = row_values(row)
        cells = [_cell(k, values[k][p]) for k, p in columns]
        rows.append([str(row.number), row.dealer, row.text.split("  # ", 1)[0], *cells])
    rows += final_rows(lg, columns)
    table = grid(rows, head=head, tablefmt="simple", colalign=table_align(columns))
    return "\n".join([title(lg), "", table, "", *notes(lg)]) + "\n"


def assert_ledger_streams(path: Path, rounding: str | None = None) -> None:
    for fmt in FORMATS:
        for options in OPTIONS:
            extra = ["--rounding", rounding] if rounding else []
            got = run("ledger", str(path), "-f", fmt, *options, *extra)
            try:
                want = old_ledger(str(path), fmt, options, rounding)
            except PulyaError:
                assert got.exit_code == 1, got.output
                continue
            assert got.exit_code == 0, got.output
            assert got.stdout == want, (fmt, options)


def line_log(seed: int, players: int, convention: str, pool: int, deals: int, faulty: bool) -> str:
    text = list(genlog.line_log(deals, seed=seed, players=players, convention=convention, pool=pool))
    head, body = text[:5], text[5:]
    rng = random.Random(seed)
    if players == 3:  # (4 players: the dealer who sits out moves; a line may not come anywhere)
        few = body[: max(1, len(body) // 8)]
        body = [rng.choice(few) for _ in body]  # the same few lines over and over: many hits
    if faulty:
        body = faults(random.Random(seed + 1), body, genlog.NAMES[:players])
    return "".join(head + body)


#: few examples, each a long run of every format; a failure is not shrunk (slow), its seed is shown
SETTINGS = settings(
    max_examples=examples(12, least=4),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)


@SETTINGS
@given(
    st.integers(0, 10_000),
    st.sampled_from((3, 4)),
    st.sampled_from(("sochi", "leningrad", "rostov", "classic")),
    st.sampled_from((5, 10, 40)),
    st.booleans(),
)
def test_the_streamed_ledger_is_the_kept_ones_on_line_logs(
    seed: int, players: int, convention: str, pool: int, faulty: bool
) -> None:
    path = Path(__file__).parent / f"_ledger_stream_{seed}.pulya"
    try:
        path.write_text(line_log(seed, players, convention, pool, 120, faulty), encoding="utf-8")
        assert_ledger_streams(path)
    finally:
        path.unlink()


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("rounding", [None, "nearest", "kodeks"])
def test_the_streamed_ledger_is_the_kept_ones_on_yaml_logs(tmp_path: Path, seed: int, rounding: str) -> None:
    path = tmp_path / "gen.yaml"
    path.write_text(random_log(seed, "sochi", 3, deals=40), encoding="utf-8")
    assert_ledger_streams(path, rounding)


def test_a_newcomer_and_a_note_on_the_line(tmp_path: Path) -> None:
    """A log that seats a newcomer (every row reads the final table) is read again whole."""
    lines = list(genlog.line_log(60, seed=5, pool=10))
    lines[40] = lines[40].rstrip("\n") + "  # a note\n"
    lines.append("join Eve\n")  # a fourth at the end: every row has his column
    path = tmp_path / "join.pulya"
    path.write_text("".join(lines), encoding="utf-8")
    assert "Eve" in run("ledger", str(path)).stdout
    assert_ledger_streams(path)


def test_small_caches_empty_and_fill_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pulyacalc.scoring import fold

    monkeypatch.setattr(fold, "WRITTEN_CACHE_SIZE", 40)  # the fold's one cache, emptied when full
    monkeypatch.setattr(fold, "LINES_CACHE_SIZE", 40)
    monkeypatch.setattr(ledger, "REMEMBERED", 7)  # rows and texts made, remembered
    monkeypatch.setattr(stats, "COUNT_EVERY", 5)
    from pulyacalc.core import remembered
    from pulyacalc.render import ledger as view

    monkeypatch.setattr(remembered, "REMEMBERED", 5)  # each shape's texts of rows, values measured
    monkeypatch.setattr(view, "BATCH", 11)  # rows written, deals given to the table, at a time
    path = tmp_path / "long.pulya"
    path.write_text("".join(genlog.line_log(350, seed=9, players=4, pool=60)), encoding="utf-8")
    assert_ledger_streams(path)
    assert_stats_stream([path])


def test_nothing_is_kept_per_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither command asks play to keep each deal: each is shown every deal as it is
    scored (``each``), memory as score's."""
    asked: list[dict[str, Any]] = []
    score_log = play.score_log

    def watched(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs)
        return score_log(*args, **kwargs)

    monkeypatch.setattr(play, "score_log", watched)
    path = tmp_path / "long.pulya"
    path.write_text("".join(genlog.line_log(6000, seed=3, pool=20)), encoding="utf-8")
    for args in (
        ["ledger", str(path), "-f", "json"],
        ["ledger", str(path), "--running"],
        ["stats", str(path)],
    ):
        asked.clear()
        assert run(*args).exit_code == 0
        assert asked, args
        assert not any(kw.get("keep") or kw.get("running") for kw in asked), args
        assert all(kw.get("each") is not None for kw in asked), args


def old_stats(paths: list[Path]) -> Stats:
    """The statistics as they were gathered before: each evening's deals kept, then counted."""
    season = Gathering()
    for path in paths:
        ev = score_file(str(path), keep=True)
        s = settle_evening(ev)
        counted: dict[str, Tally] = {p: Tally() for p in ev.sheet.players}
        table = ev.header.players
        for r in ev.results:
            table = r.table or table
            count_deal(counted, r, table, ev.convention.five_second_out)
        who: Mapping[str, str] = {p: p for p in ev.sheet.players}
        season.add(ev, s, who, counted)
    return season.stats()


def assert_stats_stream(paths: list[Path]) -> None:
    new, old = score_stats([str(p) for p in paths]), old_stats(paths)
    for fmt in FORMATS:
        assert render(StatsView(new), fmt) == render(StatsView(old), fmt), fmt
        for p in old.players:
            page = new.player(p.player)
            assert page is not None
            assert render(PlayerView(new, page), fmt) == render(PlayerView(old, p), fmt), (fmt, p.player)


@SETTINGS
@given(st.integers(0, 10_000), st.sampled_from((3, 4)), st.sampled_from(("sochi", "rostov", "classic")))
def test_the_streamed_stats_are_the_kept_ones(seed: int, players: int, convention: str) -> None:
    folder = Path(__file__).parent / f"_stats_stream_{seed}"
    folder.mkdir(exist_ok=True)
    try:
        paths = []
        for i in range(3):
            path = folder / f"{i}.pulya"
            path.write_text(line_log(seed + i, players, convention, 10, 90, i == 1), encoding="utf-8")
            paths.append(path)
        yaml = folder / "y.yaml"
        yaml.write_text(random_log(seed, "sochi", 3, deals=30), encoding="utf-8")
        paths.append(yaml)
        for path in list(paths):
            try:
                old_stats([path])
            except PulyaError:
                with pytest.raises(PulyaError):
                    score_stats([str(path)])
                paths.remove(path)  # a log with a problem (a fault, or a 4-player rotation)
        assert_stats_stream(paths)
    finally:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


# ---- standard input and a newcomer: streamed too (read again, not kept) ----


def newcomer_log(seed: int, before: int, twice: bool) -> str:
    """A line log of three that seats a fourth (Dan) after ``3 × before + 1`` deals (the
    deals of four then go on in turn), and a fifth (Eve) at the end (``twice``)."""
    three = list(genlog.line_log(3 * before + 1, seed=seed, players=3, pool=10))
    four = list(genlog.line_log(90, seed=seed + 9, players=4, pool=10))[4:]
    return "".join(three + ["join Dan\n", *four, *(["join Eve\n"] if twice else [])])


@pytest.mark.parametrize(("seed", "before", "twice"), [(1, 20, False), (4, 0, True), (4, 21, True)])
def test_a_newcomer_is_streamed_on_a_second_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, before: int, twice: bool
) -> None:
    """A log that seats a newcomer is read twice, each time in flat memory (play is never
    asked to keep the deals), in the very bytes of the kept ledger, from a file or from
    standard input."""
    path = tmp_path / "join.pulya"
    path.write_text(newcomer_log(seed, before, twice), encoding="utf-8")
    old = ledger_file(str(path))
    asked: list[dict[str, Any]] = []
    streamed = ledger.ledger_run

    def watched(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs)
        return streamed(*args, **kwargs)

    for fmt in FORMATS:
        for options in ([], ["--running", "--whist-price", "0.33"]):
            want = old_ledger(str(path), fmt, options)
            monkeypatch.setattr(ledger, "ledger_run", watched)
            monkeypatch.setattr(ledger, "ledger_file", None)  # never kept whole
            asked.clear()
            got = run("ledger", str(path), "-f", fmt, *options)
            assert got.exit_code == 0, got.output
            assert got.stdout == want, (fmt, options)
            assert [kw.get("players") for kw in asked] == [None, old.players], (fmt, options)
            got = CliRunner().invoke(app, ["ledger", "-", "-f", fmt, *options], input=path.read_bytes())
            assert got.exit_code == 0, got.output
            assert got.stdout == want, (fmt, options, "stdin")
            monkeypatch.undo()


def test_standard_input_streams_as_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ledger -` reads standard input once, in flat memory, in the bytes a file gives; a
    log with problems tells them as from a file, named <stdin>."""
    path = tmp_path / "log.pulya"
    path.write_text(line_log(5, 3, "sochi", 10, 200, False), encoding="utf-8")
    asked: list[dict[str, Any]] = []
    streamed = ledger.ledger_run

    def watched(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs)
        return streamed(*args, **kwargs)

    for fmt in FORMATS:
        want = run("ledger", str(path), "-f", fmt, "--running").stdout
        monkeypatch.setattr(ledger, "ledger_run", watched)
        monkeypatch.setattr(ledger, "ledger_file", None)  # never kept whole
        asked.clear()
        got = CliRunner().invoke(app, ["ledger", "-", "-f", fmt, "--running"], input=path.read_bytes())
        assert got.exit_code == 0, got.output
        assert got.stdout == want
        assert len(asked) == 1, fmt
        monkeypatch.undo()
    bad = path.read_text(encoding="utf-8") + "Anna 6♠ 7, Boris whist 2, Vera whist 9\n"
    got = CliRunner().invoke(app, ["ledger", "-"], input=bad.encode())
    assert got.exit_code == 1
    assert "<stdin>:" in got.output


# ---- a table fitted to a width (COLUMNS): streamed too ----


@SETTINGS
@given(
    st.integers(0, 10_000),
    st.sampled_from((3, 4)),
    st.sampled_from(("sochi", "leningrad", "rostov", "classic")),
    st.sampled_from((24, 40, 60, 80, 100, 130)),
    st.booleans(),
)
def test_a_table_fitted_to_a_width_streams_in_the_bytes_grid_fits(
    seed: int, players: int, convention: str, columns: int, faulty: bool
) -> None:
    """Under COLUMNS the table is fitted (render/table.LongTable) in the bytes grid gives
    the whole table."""
    from pulyacalc.render import view

    path = Path(__file__).parent / f"_ledger_fit_{seed}.pulya"
    try:
        path.write_text(line_log(seed, players, convention, 10, 70, faulty), encoding="utf-8")
        for options in ([], ["--running"], ["--running", "--whist-price", "0.33"]):
            view.use_width(columns)  # as the command line sets it from COLUMNS
            got = run("ledger", str(path), *options)
            try:
                want = old_ledger(str(path), "table", options)
            except PulyaError:
                assert got.exit_code == 1, got.output
                continue
            finally:
                view.use_width(None)
            assert got.exit_code == 0, got.output
            assert got.stdout == want, (columns, options)
    finally:
        path.unlink()


#: characters a dealer or a text might hold that JSON or a template writes otherwise
ODD = st.text(
    st.sampled_from(["a", " ", "%", '"', "\\", "\n", "\x1b", "\u202e", "\ue0fd", "\ue0fe", "\ue0ff", "♠"])
)


@settings(max_examples=200, deadline=None)
@given(
    ODD,
    ODD,
    st.lists(st.fractions(min_value=-100, max_value=100, max_denominator=7), min_size=2, max_size=2),
    st.booleans(),
    st.sampled_from((None, "0.33", "1")),
)
def test_a_json_row_is_its_object_nested(
    dealer: str, text: str, result: list[Any], running: bool, price: str | None
) -> None:
    """A JSON row written from its members (``JsonRows``: those of its ``Moved`` made once)
    is its JSON object ``nested``, whatever its dealer and text hold: a ``%``, quotes,
    escapes, private-use characters."""
    from decimal import Decimal

    from pulyacalc.core.amounts import exact
    from pulyacalc.render.formats import Spool, nested
    from pulyacalc.render.ledger import JsonRows, moved_json, values_json
    from pulyacalc.reports.ledger import LedgerRow, Moved

    players = ("Anna", "Boris", "Vera")
    result.append(-sum(result))  # (a deal moves the results by nothing in all)
    moved = Moved(dealer, text, {p: exact(v) for p, v in zip(players, result, strict=True)})
    out = Spool()
    written = JsonRows(running, out)
    want = []
    for number in (1, 2):  # the second row's members but its number as made for the first
        totals = {p: exact(v * number) for p, v in moved.result.items()} if running or price else {}
        money = None if price is None else {p: Decimal(price) * number for p in players}
        row = LedgerRow(number, moved, totals, money, money)
        written.add(row)
        obj = {"number": row.number, **moved_json(row.moved), **values_json(row, running)}
        want.append(nested(obj, 2))
    assert "".join(out.pieces()) == "[\n    " + ",\n    ".join(want)


def test_a_newcomer_after_five_thousand_deals(tmp_path: Path) -> None:
    """Issue 31 item 8 (an ``AttributeError … 'epoch'`` past ~5,100 deals with a join before
    the one-path ledger): every row has the newcomer, the running totals end at score's."""
    path = tmp_path / "long.pulya"
    path.write_text(newcomer_log(2, 1750, False), encoding="utf-8")
    got = run("ledger", str(path), "-f", "csv", "--running")
    assert got.exit_code == 0, got.output
    rows = got.stdout.splitlines()
    assert len(rows) > 5_300 and "result_Dan" in rows[0]
    settled = json.loads(run("score", str(path), "-f", "json").stdout)["settlement"]
    assert [float(v) for v in rows[-1].split(",")[-4:]] == list(settled.values()), rows[-1]


def test_each_deal_is_written_for_the_table_it_was_dealt_at(tmp_path: Path) -> None:
    """A YAML log with a join crashed the ledger (its text was written for the table as the
    log began, without the newcomer), and a raspasy after a leave was written with the
    4-player talon: each deal's text is for its own table, from a line or a YAML log."""
    from pulyacalc.logs.read import read_log
    from pulyacalc.logs.write import write_yaml

    src = Path(__file__).resolve().parents[1] / "examples" / "sochi-join-leave.txt"
    yaml = tmp_path / "jl.yaml"
    yaml.write_text("".join(write_yaml(read_log(str(src)))), encoding="utf-8")
    lines = run("ledger", str(src))
    assert lines.exit_code == 0 and run("ledger", str(yaml)).stdout == lines.stdout
    assert "Misha pass 2, Kostya pass 4, Lena pass 3, Nina talon 1" in lines.stdout  # four seated
    log = tmp_path / "left.txt"
    log.write_text(
        "players: Kostya Lena Misha\ndealer: Misha\n\nKostya 6♠ 6, Lena whist 4, Misha pass\n"
        "join Nina\nleave Lena\nKostya pass 4, Nina pass 3, Misha pass 3\n",
        encoding="utf-8",
    )
    for fmt in ("csv", "json"):
        got = run("ledger", str(log), "-f", fmt)
        assert got.exit_code == 0 and "talon" not in got.stdout, got.output
