"""Help says what the commands do, in the words the docs use (issue: a newcomer's evening)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pulyacalc.reports.season import LOG_SUFFIXES

DOCS = Path(__file__).resolve().parent.parent / "docs" / "commands.md"


def help_of(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pulyacalc", *args, "--help"],
        capture_output=True,
        text=True,
        env={"COLUMNS": "200", "PATH": ""},
        check=True,
    )
    return done.stdout


@pytest.mark.parametrize("command", ["season", "stats"])
def test_the_directory_walk_names_every_suffix_it_reads(command: str) -> None:
    text = " ".join(help_of(command).split())
    for suffix in LOG_SUFFIXES:
        assert f"*{suffix}" in text, (command, suffix)


@pytest.mark.parametrize("command", ["explain", "dispute"])
def test_deal_is_a_number_n(command: str) -> None:
    text = help_of(command)
    assert re.search(r"--deal\s+N\b", text), text
    assert "<int range>" not in text


def test_prices_short_option_is_documented() -> None:
    assert "-n/--players" in DOCS.read_text(encoding="utf-8")
