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


# issue 28 item 11: help a newcomer reads in five minutes


def cli_help(*args: str, columns: int = 200) -> str:
    from typer.testing import CliRunner

    from pulyacalc.cli.app import app

    r = CliRunner().invoke(app, [*args, "--help"], prog_name="pulyacalc", env={"COLUMNS": str(columns)})
    assert r.exit_code == 0, r.output
    return r.stdout


def every_command() -> list[tuple[str, ...]]:
    from pulyacalc.cli.app import COMMANDS

    return [(), *((name,) for name in COMMANDS), *(("conventions", sub) for sub in ("list", "show", "diff"))]


@pytest.mark.parametrize("command", every_command(), ids=" ".join)
def test_every_help_ends_with_examples(command: tuple[str, ...]) -> None:
    examples = cli_help(*command).split("\nExamples:\n", 1)[1].splitlines()
    assert examples and all(line.startswith("  pulyacalc ") for line in examples), examples
    if command:
        assert " ".join(command) in examples[0]


def test_examples_and_panels_in_russian() -> None:
    text = cli_help("--lang", "ru", "score")
    assert "\nПримеры:\n  pulyacalc score" in text and "\nРедко нужные параметры:\n" in text


@pytest.mark.parametrize("command", ["score", "check", "season", "sheet"])
def test_rarely_used_options_in_the_advanced_panel(command: str) -> None:
    main, advanced = cli_help(command).split("\nAdvanced options:\n", 1)
    advanced = advanced.split("\nExamples:\n")[0]
    for option in ("--allow-outside", "--max-yaml-bytes"):
        assert option in advanced and option not in main, (command, option)
    assert "--convention" in main and "--convention" not in advanced


@pytest.mark.parametrize("columns", [60, 200])
def test_the_command_list_is_never_cut(columns: int) -> None:
    from pulyacalc.cli.app import COMMANDS, GROUPS

    listed = cli_help(columns=columns).split("\nCommands:\n", 1)[1].split("\nExamples:\n")[0]
    assert "..." not in listed and "…" not in listed
    names = [line.split()[0] for line in listed.splitlines() if line.startswith("  ") and line[2] != " "]
    assert names == [*COMMANDS, *GROUPS]


@pytest.mark.parametrize("command", [("score",), ("compare",), ("conventions", "show")])
def test_convention_help_names_every_builtin(command: tuple[str, ...]) -> None:
    from pulyacalc.convention.load import builtin_names

    text = " ".join(cli_help(*command).split())
    listed = re.search(r"\(sochi, [a-z, ]+\)", text)
    assert listed is not None, text
    assert set(listed.group(0)[1:-1].split(", ")) == set(builtin_names())


def test_a_russian_readme_linked_from_the_top() -> None:
    root = DOCS.parent.parent
    ru = (root / "README.ru.md").read_text(encoding="utf-8")
    assert "pulyacalc score" in ru and "Установка" in ru
    top = (root / "README.md").read_text(encoding="utf-8").splitlines()[:5]
    assert any("(README.ru.md)" in line for line in top), top
    assert (root / "README.md").read_text(encoding="utf-8").count("](docs/") >= 5
