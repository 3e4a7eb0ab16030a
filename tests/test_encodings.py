"""Output on any terminal (issue 10 item 1): a pipe or a file always gets UTF-8 whatever the
locale says, a console that lacks a character gets a plain stand-in, and nothing dies with a
UnicodeEncodeError; an error's echoed line keeps its caret under the right column.

Every command runs as a real process in the environments that fail in different ways, not
in every environment (a process is most of this file's time):
* into a pipe, in English under ASCII (PYTHONIOENCODING: any character written through a
  stream left unconverted fails there, whatever cp1251 or cp866 would also fail on) and
  under the C locale (the locale's own path), and in Russian under cp1251 (Cyrillic kept
  as cp1251 bytes would not read as UTF-8: a pipe mistaken for a console);
* on a console, in Russian under cp866 (of the program's characters it lacks every one
  cp1251 lacks, which the first test below checks) and under ASCII (its own codec and
  transliteration).
Score goes into a pipe under every environment, compared byte for byte with UTF-8.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from pulyacalc.cli.console import degrade, fit, stand_in

ROOT = Path(__file__).resolve().parent.parent
LOG = "examples/sochi-3p.txt"

#: every command (tests/test_encodings.py checks that none is missing), with what prints most
COMMANDS = [
    ["new", "--players", "Аня Боря Вера", "-c", "sochi"],
    ["score", LOG, "--whist-price", "0.5"],
    ["settle", "examples/sheet.yaml", "--whist-price", "0.5"],
    ["explain", LOG],
    ["explain", LOG, "--deal", "5"],
    ["ledger", LOG, "--running"],
    ["sheet", LOG, "-o", "-"],
    ["check", LOG],
    ["compare", LOG],
    ["dispute", LOG, "--deal", "3"],
    ["convert", LOG, "--to", "yaml"],
    ["prices"],
    ["season", "examples"],
    ["stats", "examples"],
    ["stats", "examples", "--player", "Anna"],
    ["conventions", "list"],
    ["play", LOG],
    ["conventions", "show", "sochi"],
    ["conventions", "diff", "sochi", "leningrad"],
    ["--help"],
    ["score", "--help"],
]

ENVIRONMENTS = {
    "cp1251": {"PYTHONIOENCODING": "cp1251"},
    "cp866": {"PYTHONIOENCODING": "cp866"},
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "C": {"PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "LC_ALL": "C", "LANG": "C"},
}

BAD = "players: Аня Боря Вера\nconvention: sochi\n1. Аня 6♠ Боря вист…\n"
#: the environments every command is run in, into a pipe and on a console (the docstring)
PIPES = ("ascii", "C")
CONSOLES = ("cp866", "ascii")


def _program_characters() -> set[str]:
    """Every character past ASCII the program can write but Cyrillic: in its code and its
    Russian catalog."""
    found: set[str] = set()
    for path in [*(ROOT / "pulyacalc").rglob("*.py"), *(ROOT / "pulyacalc").rglob("*.po")]:
        found.update(c for c in path.read_text(encoding="utf-8") if ord(c) > 127)
    return {c for c in found if not "\u0400" <= c <= "\u04ff"}


def _lacks(encoding: str, char: str) -> bool:
    try:
        char.encode(encoding)
    except UnicodeEncodeError:
        return True
    return False


def test_a_cp866_console_lacks_every_character_a_cp1251_one_lacks() -> None:
    """Why the console runs below are cp866 and not cp1251 too: every character of the
    program's a cp1251 console would have to degrade, a cp866 one degrades as well."""
    chars = _program_characters()
    assert "×" in chars and "«" in chars
    assert {c for c in chars if _lacks("cp1251", c)} <= {c for c in chars if _lacks("cp866", c)}


def run(args: list[str], env: dict[str, str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    full = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "LC_ALL")}
    full.update(env)
    code = "import sys; sys.argv = ['pulyacalc', *sys.argv[1:]]; from pulyacalc.cli.app import main; main()"
    with tempfile.TemporaryDirectory() as own:
        if "play" in args:  # play locks its log, and the tests run side by side: each its own copy
            copy = Path(own) / Path(LOG).name
            shutil.copyfile(ROOT / LOG, copy)
            args = [str(copy) if a == LOG else a for a in args]
        return subprocess.run(
            [sys.executable, "-c", code, *args],
            cwd=ROOT,
            env=full,
            input=stdin,
            capture_output=True,
            check=False,
        )


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
@pytest.mark.parametrize("name", PIPES)
def test_every_command_writes_utf8_into_a_pipe(name: str, args: list[str]) -> None:
    r = run(args, ENVIRONMENTS[name])
    assert b"Traceback" not in r.stderr, r.stderr.decode("utf-8", "replace")
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")
    r.stdout.decode("utf-8")  # strict: UTF-8 bytes, never cp1251 or escapes
    r.stderr.decode("utf-8")


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_every_command_in_russian_writes_utf8_into_a_pipe(args: list[str]) -> None:
    r = run(["--lang", "ru", *args], ENVIRONMENTS["cp1251"])
    assert b"Traceback" not in r.stderr, r.stderr.decode("utf-8", "replace")
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")
    r.stdout.decode("utf-8")
    r.stderr.decode("utf-8")


def test_every_command_is_run_here() -> None:
    """A new command is added to COMMANDS, so that every one is run on every console."""
    import typer.main

    from pulyacalc.cli.app import app

    names = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert names, "no commands found"
    assert names <= {args[0] for args in COMMANDS}, names - {args[0] for args in COMMANDS}


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
@pytest.mark.parametrize("encoding", CONSOLES)
def test_every_command_in_russian_on_a_console_that_lacks_characters(encoding: str, args: list[str]) -> None:
    """On a console (where nothing is reconfigured to UTF-8) what it cannot show degrades:
    Russian (Cyrillic transliterated on an ASCII console), ×, −, the suits, ⅔."""
    out = _on_a_terminal(encoding, ["--lang", "ru", *args])
    assert b"Traceback" not in out, out.decode("utf-8", "replace")
    assert out.strip(), "nothing printed"
    text = out.decode(encoding)  # strict: only what the console can show
    assert "?" * 3 not in text  # stand-ins, not question marks
    if encoding != "ascii" and not out.isascii():  # the console's encoding, not UTF-8 bytes
        with pytest.raises(UnicodeDecodeError):
            out.decode("utf-8")


@pytest.fixture(scope="module")
def utf8_score() -> bytes:
    utf8 = run(["score", LOG], {"PYTHONIOENCODING": "utf-8"})
    assert "×".encode() in utf8.stdout or "Аня".encode() in utf8.stdout
    return utf8.stdout


@pytest.mark.parametrize("name", ENVIRONMENTS)
def test_the_pipe_gets_the_same_bytes_as_under_utf8(name: str, utf8_score: bytes) -> None:
    assert run(["score", LOG], ENVIRONMENTS[name]).stdout == utf8_score


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
    import select

    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUTF8"}
    env["PYTHONIOENCODING"] = encoding
    code = "import sys; sys.argv = ['pulyacalc', *sys.argv[1:]]; from pulyacalc.cli.app import main; main()"
    out = b""
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
        assert p.stdin is not None
        p.stdin.write(stdin)
        p.stdin.close()
        # read while it writes: a terminal holds only a few kilobytes (explain writes more)
        while True:
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, "no output for a minute"
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        p.wait(timeout=60)
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


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_an_ascii_console_gets_help_and_usage_errors_transliterated() -> None:
    # click takes a stream named ASCII for misconfigured and would write around it in UTF-8
    for args, expected in (
        (["score", "--help"], "Zapusk: pulyacalc score"),
        (["score", "--bogus"], "--bogus"),
    ):
        out = _on_a_terminal("ascii", ["--lang", "ru", *args])
        text = out.decode("ascii")  # strict: no UTF-8 bytes
        assert expected in text, text
        assert "Traceback" not in text
