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
