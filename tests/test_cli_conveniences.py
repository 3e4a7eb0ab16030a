"""What anyone who uses CLIs expects (issue 10 item 10): --version, shell completion, -o FILE
on every command that prints (all or nothing), -q for the notes on standard error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc import __version__
from pulyacalc.cli.app import COMMANDS, GROUPS, build

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "sochi-3p.txt"


def run(*args: str) -> Any:
    return CliRunner().invoke(build(), list(args), prog_name="pulyacalc")


def main(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    probe = "import sys; sys.argv = ['pulyacalc', *sys.argv[1:]]; from pulyacalc.cli.app import main; main()"
    return subprocess.run(
        [sys.executable, "-c", probe, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


def test_version() -> None:
    r = main("--version")
    assert r.returncode == 0
    assert r.stdout == f"pulyacalc {__version__}\n"


def test_a_command_does_not_ask_importlib_metadata() -> None:
    probe = (
        "import sys; sys.argv = ['pulyacalc', 'score', sys.argv[1]]\n"
        "from pulyacalc.cli.app import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('importlib.metadata' in sys.modules, file=sys.stderr)"
    )
    r = subprocess.run([sys.executable, "-c", probe, str(EXAMPLE)], capture_output=True, text=True)
    assert r.stderr.strip().splitlines()[-1] == "False"


def test_shell_completion_is_offered_and_completes_commands() -> None:
    assert "--install-completion" in run("--help").stdout
    # the shell named, not guessed from the processes above (a run from a job detached
    # from its shell has none to find)
    script = main("--show-completion", "bash", env={"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert script.returncode == 0 and "_PULYACALC_COMPLETE" in script.stdout
    r = main(env={"_PULYACALC_COMPLETE": "complete_bash", "COMP_WORDS": "pulyacalc sc", "COMP_CWORD": "1"})
    assert r.stdout.split() == ["score"]


def printing_commands() -> list[list[str]]:
    # every command (convert has its own -o; play writes its log) and every subcommand of a group
    names = [[c] for c in COMMANDS if c not in ("convert", "play")]  # play is a session, not a report
    return names + [[g, sub] for g in GROUPS for sub in ("list", "show", "diff")]


@pytest.mark.parametrize("command", printing_commands(), ids=" ".join)
def test_every_printing_command_has_o(command: list[str]) -> None:
    r = run(*command, "--help")
    assert r.exit_code == 0
    assert "-o, --output" in r.stdout


def test_o_writes_what_stdout_would_have_shown(tmp_path: Path) -> None:
    shown = run("score", str(EXAMPLE)).stdout
    out = tmp_path / "out.txt"
    r = run("score", str(EXAMPLE), "-o", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    assert out.read_text("utf-8") == shown
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left behind
    assert run("score", str(EXAMPLE), "-o", "-").stdout == shown


def test_o_is_all_or_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("players: Anna Boris Vera\n\nAnna 6♠ 11\n", "utf-8")
    out = tmp_path / "out.txt"
    out.write_text("yesterday's\n", "utf-8")
    r = run("score", str(bad), "-o", str(out))
    assert r.exit_code == 1
    assert out.read_text("utf-8") == "yesterday's\n"
    r = run("prices", "-o", str(tmp_path / "no" / "such" / "dir.txt"))
    assert r.exit_code == 1 and "cannot write" in r.stderr


def test_q_silences_the_skipped_files(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: sochi\n", "utf-8")
    (tmp_path / "mon.txt").write_text(
        "players: Anna Boris Vera\n\nAnna 6♠ 6, Boris whist 3, Vera pass 1\n", "utf-8"
    )
    loud = run("season", str(tmp_path))
    assert loud.exit_code == 0 and "skipped" in loud.stderr
    quiet = run("season", str(tmp_path), "-q")
    assert quiet.exit_code == 0 and "skipped" not in quiet.stderr
    assert quiet.stdout == loud.stdout
