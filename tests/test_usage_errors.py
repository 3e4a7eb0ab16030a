"""Command-line mistakes are usage (exit 2, named by the option, with a suggestion), never a
problem blamed on the log (issue 10 item 6); a missing convention file says where it was
looked for (item 7); convention names are read without regard to case."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import score_text
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import PulyaError

ROOT = Path(__file__).resolve().parent.parent
SOCHI = str(ROOT / "examples" / "sochi-3p.txt")  # 30 deals
FOUR = str(ROOT / "examples" / "leningrad-4p.yaml")
runner = CliRunner()


def usage(args: list[str]) -> str:
    """Run a command that must be refused as usage; its message, on one line."""
    result = runner.invoke(app, args, prog_name="pulyacalc")
    assert result.exit_code == 2, result.output
    assert "Usage: pulyacalc" in result.output
    return " ".join(result.output.split())


LOG_COMMANDS = ["score", "explain", "check", "ledger", "season", "stats", "prices"]


# compare leaves out a convention that does not load (its design): not here
@pytest.mark.parametrize("command", [*LOG_COMMANDS, "dispute"])
def test_unknown_convention_name_is_the_options_mistake(command: str) -> None:
    args = [command] if command == "prices" else [command, SOCHI]
    if command == "dispute":
        args += ["--deal", "1"]
    out = usage([*args, "-c", "sochy"])
    assert "Invalid value for '-c' / '--convention': unknown convention 'sochy'; did you mean 'sochi'?" in out
    assert "sochi-3p.txt:" not in out  # not blamed on the log


@pytest.mark.parametrize("command", ["show", "diff"])
def test_conventions_show_and_diff_refuse_an_unknown_name_as_usage(command: str) -> None:
    args = ["conventions", command, "sochy"] + (["rostov"] if command == "diff" else [])
    assert "Invalid value for 'NAME_OR_PATH': unknown convention 'sochy'; did you mean 'sochi'?" in usage(
        args
    )


@pytest.mark.parametrize("name", ["Sochi", "SOCHI", "sochi"])
def test_convention_names_in_any_case_on_the_command_line(name: str) -> None:
    plain = runner.invoke(app, ["score", SOCHI, "-c", "sochi"], prog_name="pulyacalc")
    other = runner.invoke(app, ["score", SOCHI, "-c", name], prog_name="pulyacalc")
    assert other.exit_code == 0, other.output
    assert other.stdout == plain.stdout
    shown = runner.invoke(app, ["conventions", "show", name], prog_name="pulyacalc")
    assert shown.exit_code == 0, shown.output


def test_convention_names_in_any_case_in_a_log() -> None:
    deals = "players: Anna Boris Vera\ndealer: Vera\nconvention: {}\npool: 10\nAnna 6♠ 7, Boris whist 2, Vera pass 1\n"
    lower = score_text(deals.format("leningrad"))
    upper = score_text(deals.format("LENINGRAD"))
    assert upper.convention == lower.convention


def test_missing_convention_file_on_the_command_line(tmp_path: Path) -> None:
    out = usage(["score", SOCHI, "-c", str(tmp_path / "house.yaml")])
    assert f"no such file '{tmp_path / 'house.yaml'}'" in out
    assert "unknown convention" not in out


def test_missing_convention_file_named_by_a_log_is_looked_for_next_to_it(tmp_path: Path) -> None:
    log = tmp_path / "evening.txt"
    log.write_text("players: Anna Boris Vera\nconvention: house.yaml\nAnna 6♠ 6, Boris pass, Vera pass\n")
    result = runner.invoke(app, ["score", str(log)], prog_name="pulyacalc")
    assert result.exit_code == 1
    assert "evening.txt:2:1: no such file 'house.yaml'" in result.output
    assert f"(looked for next to the log: {tmp_path.resolve() / 'house.yaml'})" in result.output
    assert "unknown convention" not in result.output


def test_missing_convention_file_with_the_log_on_standard_input(tmp_path: Path) -> None:
    text = "players: Anna Boris Vera\nconvention: house.yaml\nAnna 6♠ 6, Boris pass, Vera pass\n"
    r = subprocess.run(
        [sys.executable, "-m", "pulyacalc", "score", "-"],
        input=text,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=tmp_path,
    )
    assert r.returncode == 1, r.stderr
    assert "no such file 'house.yaml'" in r.stderr
    assert (
        f"the log is on standard input: looked for it in the current directory: {tmp_path.resolve()}"
        in r.stderr
    )


def test_missing_file_a_convention_extends(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: base.yaml\n")
    text = "players: Anna Boris Vera\nconvention: house.yaml\nAnna 6♠ 6, Boris pass, Vera pass\n"
    with pytest.raises(PulyaError) as e:
        score_text(text, str(tmp_path / "evening.txt"))
    message = str(e.value)
    assert "extends a convention that is not there: 'base.yaml'" in message
    assert "looked for next to the convention file" in message


@pytest.mark.parametrize("price", ["abc", "-1", "nan"])
@pytest.mark.parametrize("command", ["score", "ledger", "season", "compare"])
def test_whist_price_is_usage(command: str, price: str) -> None:
    out = usage([command, SOCHI, f"--whist-price={price}"])
    assert "Invalid value for '--whist-price'" in out
    assert "like 0.5 or 10" in out


@pytest.mark.parametrize("command", ["score", "ledger", "season", "stats", "compare"])
def test_kodeks_rounding_on_four_players_is_the_options_mistake(command: str) -> None:
    out = usage([command, FOUR, "--rounding", "kodeks"])
    assert "Invalid value for '--rounding': kodeks rounding (K4.2.12) is defined for 3 players" in out
    assert "leningrad-4p.yaml:" not in out


def test_kodeks_rounding_on_four_players_dispute() -> None:
    out = usage(["dispute", FOUR, "--deal", "1", "--rounding", "kodeks"])
    assert "Invalid value for '--rounding'" in out


def test_a_log_asking_for_kodeks_on_four_players_is_still_the_logs_problem(tmp_path: Path) -> None:
    log = tmp_path / "four.txt"
    log.write_text(
        "players: Anna Boris Vera Gleb\ndealer: Gleb\nrounding: kodeks\nAnna 6♠, Boris pass, Vera pass\n"
    )
    result = runner.invoke(app, ["score", str(log)], prog_name="pulyacalc")
    assert result.exit_code == 1
    assert "four.txt:3:1: kodeks rounding" in result.output


def test_explain_a_deal_past_the_end_is_usage() -> None:
    out = usage(["explain", SOCHI, "--deal", "31"])
    assert "Invalid value for '--deal': no deal 31: the log has 30 deals" in out


@pytest.mark.parametrize("command", ["season", "stats"])
def test_season_on_standard_input_is_usage(command: str) -> None:
    out = usage([command, "-"])
    assert "Invalid value for 'LOG|DIR...': a season reads files, not standard input" in out
