"""Tables that fit the terminal (issue #10 item 10): under ``COLUMNS`` (and a terminal's own
width when standard output is one) ``score`` and ``explain`` break headers, wrap notes and
stack columns to fit; piped output without ``COLUMNS`` stays as wide as it always was."""

from __future__ import annotations

import fcntl
import os
import shutil
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXE = shutil.which("pulyacalc")
CMD = [EXE] if EXE else [sys.executable, "-m", "pulyacalc"]
LOG = str(ROOT / "examples" / "sochi-3p.txt")
BASE = {k: v for k, v in os.environ.items() if k != "COLUMNS"} | {"PYTHONIOENCODING": "utf-8"}
COMMANDS = [
    ["score", LOG, "--whist-price", "0.5"],
    ["explain", LOG],
    ["explain", LOG, "--deal", "9"],
    ["settle", str(ROOT / "examples" / "sheet.yaml")],
    ["ledger", LOG],
]


def run(args: list[str], columns: str | None = None) -> str:
    env = BASE if columns is None else BASE | {"COLUMNS": columns}
    r = subprocess.run([*CMD, *args], capture_output=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout.decode("utf-8")


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("args", COMMANDS[:3], ids=["score", "explain", "explain-deal"])
def test_every_line_fits_columns(args: list[str], width: int) -> None:
    wide = run(args)
    assert max(len(line) for line in wide.splitlines()) > width  # it did not fit before
    text = run(args, str(width))
    assert max(len(line) for line in text.splitlines()) <= width, text

    # the same words and numbers, only laid out anew (a stacked table repeats its first column)
    def words(t: str) -> set[str]:
        return {w for w in t.split() if w.strip("-")}

    assert words(text) == words(wide)


def test_score_keeps_every_number_when_fitted() -> None:
    text = run(COMMANDS[0], "60")
    for value in ("260", "-108", "-152", "130.00", "-54.00", "-76.00", "170", "-100"):
        assert f" {value}" in text
    assert "payments: Vera pays Anna 76.00; Boris pays Anna 54.00" in text


@pytest.mark.parametrize("args", COMMANDS, ids=["score", "explain", "explain-deal", "settle", "ledger"])
def test_piped_output_without_columns_is_as_wide_as_it_comes(args: list[str]) -> None:
    from typer.testing import CliRunner

    from pulyacalc.cli.app import app

    plain = run(args)
    assert plain == CliRunner().invoke(app, args).stdout  # no width: the tables as they are
    assert run(args, "1000") == plain


def test_a_terminal_gets_its_own_width() -> None:
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 70, 0, 0))
    p = subprocess.Popen([*CMD, "score", LOG], stdout=slave, stderr=subprocess.PIPE, env=BASE)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=60)
    os.close(master)
    lines = b"".join(chunks).decode("utf-8").replace("\r\n", "\n").splitlines()
    assert any(line.startswith("settlement") for line in lines)
    assert max(len(line) for line in lines) <= 70
