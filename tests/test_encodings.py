"""Output on any terminal (issue 10 item 1): a pipe or a file always gets UTF-8 whatever the
locale says, a console that lacks a character gets a plain stand-in, and nothing dies with a
UnicodeEncodeError; an error's echoed line keeps its caret under the right column."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pulyacalc.cli.console import degrade, fit, stand_in

ROOT = Path(__file__).resolve().parent.parent
LOG = "examples/sochi-3p.txt"

COMMANDS = [
    ["score", LOG],
    ["settle", "examples/sheet.yaml"],
    ["explain", LOG],
    ["check", LOG],
    ["compare", LOG],
    ["convert", LOG, "--to", "yaml"],
    ["prices"],
    ["season", "examples"],
    ["ledger", LOG],
    ["stats", "examples"],
    ["dispute", LOG, "--deal", "3"],
    ["conventions", "list"],
    ["conventions", "show", "sochi"],
    ["conventions", "diff", "sochi", "leningrad"],
    ["--help"],
]

ENVIRONMENTS = {
    "cp1251": {"PYTHONIOENCODING": "cp1251"},
    "cp866": {"PYTHONIOENCODING": "cp866"},
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "C": {"PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "LC_ALL": "C", "LANG": "C"},
}

BAD = "players: Аня Боря Вера\nconvention: sochi\n1. Аня 6♠ Боря вист…\n"


def run(args: list[str], env: dict[str, str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    full = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "LC_ALL")}
    full.update(env)
    code = "import sys; sys.argv = ['pulyacalc', *sys.argv[1:]]; from pulyacalc.cli.app import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=full, input=stdin, capture_output=True, check=False
    )


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
@pytest.mark.parametrize("name", ENVIRONMENTS)
def test_every_command_writes_utf8_into_a_pipe(name: str, args: list[str]) -> None:
    r = run(args, ENVIRONMENTS[name])
    assert b"Traceback" not in r.stderr, r.stderr.decode("utf-8", "replace")
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")
    r.stdout.decode("utf-8")  # strict: UTF-8 bytes, never cp1251 or escapes
    r.stderr.decode("utf-8")


@pytest.mark.parametrize("name", ENVIRONMENTS)
def test_the_pipe_gets_the_same_bytes_as_under_utf8(name: str) -> None:
    utf8 = run(["score", LOG], {"PYTHONIOENCODING": "utf-8"})
    assert "×".encode() in utf8.stdout or "Аня".encode() in utf8.stdout
    assert run(["score", LOG], ENVIRONMENTS[name]).stdout == utf8.stdout


@pytest.mark.parametrize("name", ENVIRONMENTS)
def test_an_error_is_utf8_with_its_caret_in_place(name: str) -> None:
    r = run(["score", "-"], ENVIRONMENTS[name], stdin=BAD.encode())
    assert r.returncode == 1
    text = r.stderr.decode("utf-8")
    assert "Traceback" not in text
    lines = text.splitlines()
    echo = lines.index("    1. Аня 6♠ Боря вист…")  # the line as written, not degraded
    assert lines[echo + 1].strip().startswith("^")


def test_symbols_degrade_and_cyrillic_stays_where_the_console_has_it() -> None:
    text = "Аня × 2 · −5 ♠♣♦♥ «Сочи» …"
    # cp1251 has · « » …, cp866 has ·; neither has × − or the suits
    assert degrade(text, "cp1251") == "Аня x 2 · -5 scdh «Сочи» …"
    assert degrade(text, "cp866") == 'Аня x 2 · -5 scdh "Сочи" ...'
    assert degrade(text, "ascii") == 'Anya x 2 . -5 scdh "Sochi" ...'
    assert degrade(text, "utf-8") == text
    assert degrade("日本", "ascii") == "??"


def test_one_for_one_keeps_every_column() -> None:
    text = "Аня 6♠ вист… «ж» 日"
    for encoding in ("ascii", "cp866", "cp1251", "latin-1"):
        out = degrade(text, encoding, one_for_one=True)
        assert len(out) == len(text)
        out.encode(encoding)
    assert stand_in("…", one_for_one=True) == "."
    assert stand_in("Ж") == "Zh"


class _Stream:
    def __init__(self, encoding: str) -> None:
        self.encoding = encoding


def test_an_echoed_error_under_cp866_keeps_its_caret_aligned() -> None:
    from pulyacalc.core.errors import Loc, Problem

    source = "1. Аня 6♠ Боря вист…"
    problem = Problem(Loc("log", 3, 8), "unknown suit", source=source, width=3)
    shown = fit(problem.format(), _Stream("cp866")).splitlines()
    echo, caret = shown[1], shown[2]
    assert echo == "    1. Аня 6s Боря вист."
    assert echo[caret.index("^") :].startswith("6s ")
    shown[1].encode("cp866")


def _on_a_terminal(encoding: str, args: list[str], stdin: bytes = b"") -> bytes:
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUTF8"}
    env["PYTHONIOENCODING"] = encoding
    code = "import sys; sys.argv = ['pulyacalc', *sys.argv[1:]]; from pulyacalc.cli.app import main; main()"
    try:
        p = subprocess.Popen(
            [sys.executable, "-c", code, *args],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=slave,
            stderr=slave,
        )
        os.close(slave)
        p.communicate(stdin, timeout=60)
        out = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(master)
    return out.replace(b"\r\n", b"\n")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_cp866_console_shows_cyrillic_and_stand_ins() -> None:
    out = _on_a_terminal("cp866", ["score", LOG]).decode("cp866")
    assert "Traceback" not in out
    assert "Сочинка (Sochi)" in out  # cp866 has Cyrillic and the middle dot: kept
    assert "        ·" in out
    assert "mountain + 1 x (pool target - pool)" in out  # × and − it has not
    assert "30 deals - the pulya" in out


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_an_ascii_console_gets_an_aligned_error() -> None:
    out = _on_a_terminal("ascii", ["score", "-"], BAD.encode()).decode("ascii")
    assert "Traceback" not in out
    lines = out.splitlines()
    echo = next(i for i, line in enumerate(lines) if line.startswith("    1. "))
    assert lines[echo] == "    1. Any 6s Bory vist."  # one character for one
    caret = lines[echo + 1].index("^")
    assert caret > 0
    assert len(lines[echo]) == len("    1. Аня 6♠ Боря вист…")
