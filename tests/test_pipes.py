"""The real program in pipelines: data only on stdout, the same bytes on a terminal as
in a pipe, a reader that leaves early (``| head``) ends it quietly, stdin works.

These run the installed ``pulyacalc`` (or ``python -m pulyacalc``) as a subprocess.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import genlog  # noqa: E402

EXE = shutil.which("pulyacalc")
CMD = [EXE] if EXE else [sys.executable, "-m", "pulyacalc"]
ENV = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")} | {
    "TERM": "xterm-256color"
}


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("pipes") / "big.pulya"
    p.write_text("".join(genlog.line_log(3000, seed=5, pool=200)), encoding="utf-8")
    return p


def run(args: list[str], **kw: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CMD, *args], capture_output=True, timeout=60, env=ENV, **kw)  # type: ignore[call-overload, no-any-return]


def test_success_writes_data_to_stdout_and_nothing_to_stderr(big_log: Path) -> None:
    r = run(["score", str(big_log), "-f", "json"])
    assert r.returncode == 0 and r.stderr == b""
    assert r.stdout.startswith(b"{") and r.stdout.endswith(b"}\n")


def test_stdin_is_read_with_a_dash(big_log: Path) -> None:
    r = run(["score", "-", "-f", "csv"], input=big_log.read_bytes())
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith(b"player,pool,mountain")


@pytest.mark.parametrize(
    "args",
    [["explain", "{log}", "-f", "jsonl"], ["explain", "{log}"], ["score", "{log}", "-f", "jsonl"]],
)
def test_a_reader_that_leaves_early_ends_it_quietly(big_log: Path, args: list[str]) -> None:
    """``pulyacalc … | head -1``: exit 0, no traceback, no 'Broken pipe' on stderr."""
    argv = [a.replace("{log}", str(big_log)) for a in args]
    p = subprocess.Popen([*CMD, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.readline()
    p.stdout.close()  # the reader goes away; the writer gets EPIPE on its next write
    err = p.stderr.read()
    code = p.wait(timeout=60)
    assert err == b"", err.decode(errors="replace")
    assert code == 0


def test_shell_pipe_into_head(big_log: Path) -> None:
    if shutil.which("sh") is None or shutil.which("head") is None:
        pytest.skip("no sh/head")
    cmd = " ".join(f"'{c}'" for c in CMD) + f" explain '{big_log}' -f jsonl | head -3; echo status=$?"
    r = subprocess.run(["sh", "-c", cmd], capture_output=True, timeout=60, env=ENV)
    lines = r.stdout.decode().splitlines()
    assert len(lines) == 4 and lines[-1] == "status=0"
    assert r.stderr == b"", r.stderr.decode(errors="replace")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_same_bytes_on_a_terminal_and_in_a_pipe(big_log: Path, fmt: str) -> None:
    """No colour, no layout change: what a terminal gets is what a pipe gets."""
    piped = run(["score", str(big_log), "-f", fmt]).stdout
    master, slave = os.openpty()
    try:
        p = subprocess.Popen(
            [*CMD, "score", str(big_log), "-f", fmt], stdout=slave, stderr=subprocess.PIPE, env=ENV
        )
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        assert p.wait(timeout=60) == 0
    finally:
        os.close(master)
    on_tty = b"".join(chunks).replace(b"\r\n", b"\n")
    assert b"\x1b[" not in on_tty
    assert on_tty == piped


def test_errors_go_to_stderr_located_and_stdout_stays_empty(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pulya"
    bad.write_text("players: A B C\n\nA 6♠ 7, B whist 2, C pass 2\nA 6x\n", encoding="utf-8")
    r = run(["score", str(bad), "-f", "json"])
    assert r.returncode == 1 and r.stdout == b""
    err = r.stderr.decode()
    assert f"{bad}:3:" in err and f"{bad}:4:" in err and "Traceback" not in err


def test_season_has_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"{i}.pulya").write_text("".join(genlog.line_log(60, seed=i)), encoding="utf-8")
    r = run(["season", str(tmp_path), "-f", "csv"])
    assert r.returncode == 0 and r.stderr == b""
    assert len(r.stdout.splitlines()) == 4
