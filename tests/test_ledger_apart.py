"""A long log's ledger scored in a second process (pulyacalc/ledger_apart.py): the same
bytes as scored here, in every shape; the log's problems, a newcomer, a Ctrl-C and a fault
of the child's as they are here."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from test_ledger_stream import assert_ledger_streams, line_log, run

from pulyacalc import ledger, ledger_apart
from pulyacalc.cli import apart
from pulyacalc.core.errors import RuleError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import genlog  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork here")


@pytest.fixture(autouse=True)
def every_log_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apart, "APART_BYTES", 0)


def apart_was_used(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The plays that went apart, counted."""
    calls: list[int] = []
    real = ledger_apart.apart

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ledger_apart, "apart", counted)
    return calls


@pytest.mark.parametrize(
    ("seed", "players", "convention", "faulty"),
    [(1, 3, "sochi", False), (2, 4, "leningrad", True), (3, 3, "rostov", True), (4, 3, "classic", False)],
)
def test_the_ledger_apart_is_the_kept_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, players: int, convention: str, faulty: bool
) -> None:
    calls = apart_was_used(monkeypatch)
    path = tmp_path / "log.pulya"
    path.write_text(line_log(seed, players, convention, 10, 150, faulty), encoding="utf-8")
    assert_ledger_streams(path)
    assert calls  # (not left to the play here)


def test_a_yaml_log_and_a_newcomer_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = apart_was_used(monkeypatch)
    lines = list(genlog.line_log(60, seed=5, pool=10))
    lines.append("join Eve\n")  # every row reads the table as it ends: played again, apart
    path = tmp_path / "join.pulya"
    path.write_text("".join(lines), encoding="utf-8")
    assert "Eve" in run("ledger", str(path)).stdout
    assert_ledger_streams(path)
    assert len(calls) >= 2


def test_small_rounds_forget_and_send_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``KEPT`` rows' ``Moved`` both sides start afresh; rows go a few at a time."""
    monkeypatch.setattr(ledger_apart, "KEPT", 5)
    monkeypatch.setattr(ledger_apart, "ROWS", 3)
    monkeypatch.setattr(ledger, "BLOCK", 4)
    path = tmp_path / "long.pulya"
    path.write_text("".join(genlog.line_log(400, seed=9, players=3, pool=30)), encoding="utf-8")
    assert_ledger_streams(path)


def test_the_logs_problems_are_said_as_here(tmp_path: Path) -> None:
    path = tmp_path / "bad.pulya"
    path.write_text("players: Anna Boris Vera\n\nAnna 6♠ 7, Boris whist 9, Vera pass 1\n", encoding="utf-8")
    got = run("ledger", str(path), "--running")
    assert got.exit_code == 1
    assert f"{path}:3:" in got.stderr
    assert not got.stdout


def played(play: ledger_apart.Play) -> object:
    return ledger_apart.apart(play)(lambda number, m, t: None)


def test_an_error_of_the_log_is_raised_here() -> None:
    def play(sink: object) -> None:
        raise RuleError([])

    with pytest.raises(RuleError):
        played(play)


def test_a_fault_that_cannot_be_sent_is_raised_here_with_its_traceback() -> None:
    class Unpicklable(Exception):
        def __reduce__(self) -> tuple[object, ...]:
            raise TypeError("not to be pickled")

    def play(sink: object) -> None:
        raise Unpicklable("inside")

    with pytest.raises(RuntimeError, match="Unpicklable: inside"):
        played(play)


def test_a_child_stopped_by_ctrl_c_stops_this_one() -> None:
    def play(sink: object) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        played(play)


def test_a_child_that_ends_without_a_word_is_a_fault() -> None:
    def play(sink: object) -> None:
        os._exit(3)

    with pytest.raises(RuntimeError, match="status 3"):
        played(play)


# ---- a long table's rows drawn in two processes (render/halves.py) ----


@pytest.fixture
def drawn_in_halves(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Tables of a few blocks drawn in halves (their spools files at once); the halves
    the child drew that were given, counted."""
    from pulyacalc.render import halves, ledger_stream

    monkeypatch.setattr(ledger_stream, "SPOOL_MEMORY", 1)
    monkeypatch.setattr(halves, "MIN_BLOCKS", 2)
    monkeypatch.setattr(ledger, "BLOCK", 16)
    given: list[int] = []
    read = halves._read

    def counted(out: object) -> object:
        given.append(1)
        return read(out)  # type: ignore[arg-type]

    monkeypatch.setattr(halves, "_read", counted)
    return given


@pytest.mark.parametrize("columns", [None, 60, 100])
@pytest.mark.parametrize("options", [["--running"], ["--running", "--whist-price", "0.33"]])
def test_a_table_drawn_in_halves_is_the_kept_one(
    tmp_path: Path, drawn_in_halves: list[int], columns: int | None, options: list[str]
) -> None:
    from test_ledger_stream import old_ledger

    from pulyacalc.render import view

    path = tmp_path / "log.pulya"
    path.write_text(line_log(7, 3, "sochi", 10, 300, False), encoding="utf-8")
    view.use_width(columns)  # as the command line sets it from COLUMNS
    try:
        got = run("ledger", str(path), *options)
        want = old_ledger(str(path), "table", options)
    finally:
        view.use_width(None)
    assert got.exit_code == 0, got.output
    assert got.stdout == want
    assert drawn_in_halves  # (the child's half given)


def test_a_half_the_child_could_not_draw_is_drawn_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawn_in_halves: list[int]
) -> None:
    from test_ledger_stream import old_ledger

    from pulyacalc.render import halves

    monkeypatch.setattr(halves, "_child", lambda *args: os._exit(1))
    path = tmp_path / "log.pulya"
    path.write_text(line_log(8, 3, "sochi", 10, 300, False), encoding="utf-8")
    got = run("ledger", str(path), "--running")
    assert got.exit_code == 0, got.output
    assert got.stdout == old_ledger(str(path), "table", ["--running"])
    assert not drawn_in_halves


def test_a_scan_the_child_could_not_finish_is_finished_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, drawn_in_halves: list[int]
) -> None:
    """A fitted table's widest cells are looked for in halves too (``_Scan.read``)."""
    from test_ledger_stream import old_ledger

    from pulyacalc.render import longtable_blocks, view

    def failed(self: object, items: object) -> tuple[object, ...]:
        raise MemoryError

    monkeypatch.setattr(longtable_blocks._Scan, "_other", failed)
    path = tmp_path / "log.pulya"
    path.write_text(line_log(9, 3, "sochi", 10, 300, False), encoding="utf-8")
    view.use_width(70)
    try:
        got = run("ledger", str(path), "--running", "--whist-price", "0.2")
        want = old_ledger(str(path), "table", ["--running", "--whist-price", "0.2"])
    finally:
        view.use_width(None)
    assert got.exit_code == 0, got.output
    assert got.stdout == want
    assert drawn_in_halves  # (the rows still drawn in halves)
