"""Every example a command's help shows is a command line that command accepts."""

from __future__ import annotations

import importlib
import pkgutil
import shlex
import shutil
from pathlib import Path

import pytest
import typer

import pulyacalc.cli.commands as commands
from pulyacalc.cli.app import app


def _examples() -> list[str]:
    lines = []
    for m in pkgutil.iter_modules(commands.__path__):
        text = getattr(importlib.import_module(f"pulyacalc.cli.commands.{m.name}"), "EXAMPLES", "")
        lines += [line.split("  #")[0] for line in str(text).splitlines() if line.startswith("pulyacalc ")]
    return lines


@pytest.mark.parametrize("line", _examples())
def test_a_help_example_is_a_command_line_its_command_accepts(
    line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # (the files examples name, where options read them)
    shutil.copy(Path(__file__).parent.parent / "examples/house-rules/house.yaml", "house.yaml")
    command = typer.main.get_command(app)
    args = shlex.split(line)[1:]
    while hasattr(command, "commands"):  # (a group: its subcommand)
        command = command.commands[args.pop(0)]
    command.make_context(line, args)
