"""`ledger` and `stats` stream (issue 11): a long log in flat memory, the same bytes.

`ledger` writes its rows as the deals are scored (ledger.LedgerRun told each deal by the
fast path, render/ledger.LedgerStream, render/longtable.LongTable) and `stats` counts each
deal as it is scored (stats.Counting).  Both are compared with the way they were made
before — every deal's result kept (``keep=True``), then rendered whole — in every output
format, on generated line logs (with the faults a hand-kept log has, a newcomer included)
and YAML logs, and with the caches made small so that they empty and fill again.  Neither
command asks ``play`` to keep anything: what it holds grows with the players and the
distinct lines, not with the deals.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from logs_gen import random_log
from test_fast_path import faults
from typer.testing import CliRunner

from pulyacalc import evening, ledger, stats
from pulyacalc.cli.app import app
from pulyacalc.core.errors import PulyaError
from pulyacalc.evening import score_file, settle_evening
from pulyacalc.ledger import ledger_file
from pulyacalc.render.formats import FORMATS, render
from pulyacalc.render.ledger import LedgerView
from pulyacalc.render.stats import PlayerView, StatsView
from pulyacalc.scoring import fast
from pulyacalc.stats import Gathering, Stats, Tally, count_deal, score_stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import genlog  # noqa: E402

OPTIONS = ([], ["--running"], ["--whist-price", "0.35"], ["--running", "--whist-price", "1"])


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


def old_ledger(path: str, fmt: str, options: list[str], rounding: str | None = None) -> str:
    """The ledger as it was made before: every deal kept, then rendered whole."""
    from decimal import Decimal

    price = Decimal(options[options.index("--whist-price") + 1]) if "--whist-price" in options else None
    lg = ledger_file(path, rounding=rounding, price=price)  # type: ignore[arg-type]
    return render(LedgerView(lg, "--running" in options), fmt)


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
    max_examples=12,
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
    monkeypatch.setattr(fast, "FAST_CACHE_SIZE", 40)
    monkeypatch.setattr(ledger, "ADD_EVERY", 7)
    monkeypatch.setattr(ledger, "PLACINGS", 2)
    monkeypatch.setattr(stats, "COUNT_EVERY", 5)
    from pulyacalc.render import ledger_stream

    monkeypatch.setattr(ledger_stream, "VALUES", 20)  # values written, remembered
    monkeypatch.setattr(ledger_stream, "BATCH", 11)  # deals written as JSON, CSV at a time
    monkeypatch.setattr(ledger, "BLOCK", 9)  # rows with running totals told at a time
    path = tmp_path / "long.pulya"
    path.write_text("".join(genlog.line_log(1500, seed=9, players=4, pool=60)), encoding="utf-8")
    assert_ledger_streams(path)
    assert_stats_stream([path])


def test_nothing_is_kept_per_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither command asks play to keep each deal, and a line log goes the fast path
    (memory as score's: a deal's result is not even made for a line read before)."""
    asked: list[dict[str, Any]] = []
    runs: list[Any] = []
    play, fast_run = evening.play, fast.run

    def watched_play(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs)
        return play(*args, **kwargs)

    def watched_run(*args: Any, **kwargs: Any) -> Any:
        runs.append(kwargs.get("tracer"))
        return fast_run(*args, **kwargs)

    monkeypatch.setattr(evening, "play", watched_play)
    monkeypatch.setattr(fast, "run", watched_run)
    path = tmp_path / "long.pulya"
    path.write_text("".join(genlog.line_log(6000, seed=3, pool=20)), encoding="utf-8")
    for args in (
        ["ledger", str(path), "-f", "json"],
        ["ledger", str(path), "--running"],
        ["stats", str(path)],
    ):
        asked.clear()
        runs.clear()
        assert run(*args).exit_code == 0
        assert not any(kw.get("keep") or kw.get("running") for kw in asked), args
        assert runs and all(h is not None for h in runs), args


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
        season.add(ev.header.source, ev, s, who, counted)
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


# ---- the running totals and money in whole numbers (ledger_totals, render/ledger_text) ----

MORE_OPTIONS = (
    ["--running", "--whist-price", "0.5"],
    ["--whist-price", "0.33"],
    ["--running", "--whist-price", "7"],
    ["--running", "--whist-price", "0.01"],
)


@SETTINGS
@given(
    st.integers(0, 10_000),
    st.sampled_from((3, 4)),
    st.sampled_from(("sochi", "leningrad", "rostov", "classic")),
    st.sampled_from((None, "exact", "nearest", "kodeks", "kodeks_separate")),
    st.booleans(),
)
def test_running_totals_and_money_in_whole_numbers_are_the_kept_ones(
    seed: int, players: int, convention: str, rounding: str | None, faulty: bool
) -> None:
    path = Path(__file__).parent / f"_ledger_money_{seed}.pulya"
    extra = ["--rounding", rounding] if rounding else []
    try:
        path.write_text(line_log(seed, players, convention, 10, 90, faulty), encoding="utf-8")
        for fmt in FORMATS:
            for options in MORE_OPTIONS:
                got = run("ledger", str(path), "-f", fmt, *options, *extra)
                try:
                    want = old_ledger(str(path), fmt, options, rounding)
                except PulyaError:
                    # a bad log (1), or a rounding not for this table (2: the option blamed)
                    assert got.exit_code in (1, 2), got.output
                    continue
                assert got.exit_code == 0, got.output
                assert got.stdout == want, (fmt, options, rounding)
    finally:
        path.unlink()


@given(
    st.integers(-(10**20), 10**20),
    st.sampled_from((1, 2, 3, 6, 7, 9, 12, 27, 1000, 999_983, 10**6, 3 * 10**7)),
    st.booleans(),
)
def test_numbers_from_whole_numbers_are_views_own(n: int, den: int, glyphs: bool) -> None:
    from fractions import Fraction

    from pulyacalc.core.amounts import exact
    from pulyacalc.render import view
    from pulyacalc.render.ledger_text import Numbers

    x = exact(Fraction(n, den))
    num = Numbers()
    view.use_glyphs(glyphs)
    try:
        assert num.show(n, den)[0] == view.show(x)
    finally:
        view.use_glyphs(True)
    assert num.decimal(n, den) == view.decimal(x)
    assert num.json(n, den) == json_text(view.jnum(x))
    assert num.exact(n, den) == json_text(view.fraction_text(x))


def json_text(value: Any) -> str:
    import json

    return json.dumps(value)


@given(
    st.lists(st.tuples(st.integers(-300, 300), st.sampled_from((1, 2, 3, 9, 7))), min_size=1, max_size=30),
    st.sampled_from(("0.5", "0.33", "7", "0.01", "1.37", "0.333")),
)
def test_money_in_cents_is_to_money(rows: list[tuple[int, int]], price: str) -> None:
    """Totals keeps each running total to the cent by to_money's very rule."""
    from decimal import Decimal
    from fractions import Fraction

    from pulyacalc.core.amounts import exact
    from pulyacalc.ledger import Moved
    from pulyacalc.ledger_totals import Totals
    from pulyacalc.scoring.settlement import to_money

    players = ("A", "B", "C")
    totals = Totals(players, Decimal(price))
    running = dict.fromkeys(players, Fraction(0))
    for a, d in rows:
        x = Fraction(a, d)
        result = {"A": exact(x), "B": exact(-x / 3), "C": exact(x / 3 - x)}
        totals.add(Moved("A", "", result))
        running = {p: running[p] + result[p] for p in players}
        assert totals.amounts() == running
        assert totals.paid() == to_money(running, players, Decimal(price))


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


def test_a_sink_told_row_by_row_writes_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that tells the streaming sinks each deal on its own (no ``block``: a block of
    one, ``Totals.now``) writes the same bytes as one that tells them in blocks."""
    init = ledger.LedgerRun.__init__

    def row_by_row(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.blocks = None

    monkeypatch.setattr(ledger.LedgerRun, "__init__", row_by_row)
    path = tmp_path / "rows.pulya"
    path.write_text(line_log(4, 3, "sochi", 10, 90, True), encoding="utf-8")
    assert_ledger_streams(path)


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
    st.booleans(),
    st.sampled_from((None, "0.33", "1")),
)
def test_a_json_row_from_its_frame_is_the_row_written_whole(
    dealer: str, text: str, result: list[Any], lines: bool, running: bool, price: str | None
) -> None:
    """A JSON (or JSON Lines) row made from its result's frame with its dealer and text put
    in (``_Rows._frame``) is the row as ``LedgerView`` writes it, whatever the two hold: a
    ``%``, quotes, escapes, the characters that stand for them."""
    import json
    from decimal import Decimal

    from pulyacalc.core.amounts import exact
    from pulyacalc.ledger import Moved
    from pulyacalc.ledger_totals import Totals
    from pulyacalc.render.formats import nested
    from pulyacalc.render.ledger_stream import _Rows, full_row

    players = ("Anna", "Boris", "Vera")
    dump = (lambda obj: json.dumps(obj, ensure_ascii=False)) if lines else (lambda obj: nested(obj, 2))
    got: list[bytes] = []
    rows = _Rows(running, dump, True, got.extend)
    totals = Totals(players, None if price is None else Decimal(price))
    if not running and price is None:
        totals = None  # type: ignore[assignment]
    result.append(-sum(result))  # (a deal moves the results by nothing in all)
    want = []
    for number in (1, 2):  # the second row of the same result from the frame made for the first
        m = Moved(
            dealer if number == 1 else text, text, {p: exact(v) for p, v in zip(players, result, strict=True)}
        )
        if totals is not None:
            totals.add(m)
        want.append(rows._whole(full_row(number, m, totals), totals))
        rows(number, m, totals)
    rows.flush()
    assert got == want
