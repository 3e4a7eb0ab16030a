"""The command line as a user meets it: the real program name, exit codes, standard
streams, standard input, and the installed console script."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

YAML_LOG = """players: [Anna, Boris, Vera]
dealer: Vera
convention: sochi
pool: 20
deals:
  - declarer: Anna
    contract: 6♠
    defenders: {Boris: whist, Vera: pass}
    tricks: {Anna: 7, Boris: 2, Vera: 1}
  - declarer: Boris
    contract: 7NT
    defenders: {Vera: pass, Anna: pass}
  - declarer: Vera
    contract: misere
    tricks: {Vera: 1}
  - raspasy: {Anna: 4, Boris: 1, Vera: 5}
  - Boris 6♦ 5, Vera whist 3, Anna pass 2
  - declarer: Vera
    contract: 6♣
    defenders: {Anna: pass, Boris: half}
"""


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), input=input, prog_name="pulyacalc")


def test_help_names_the_program_and_every_command() -> None:
    r = run("--help")
    assert r.exit_code == 0
    assert "pulyacalc" in r.output
    for name in ("score", "settle"):
        assert name in r.output


def test_every_command_is_documented_in_the_readme_and_docs() -> None:
    """A command nobody can find does not exist: each one appears in README.md and docs/."""
    import typer.main

    group = typer.main.get_command(app)
    names = sorted(group.commands)  # type: ignore[attr-defined]
    assert {"score", "settle"} <= set(names)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    for name in names:
        assert f"pulyacalc {name}" in readme, f"README.md does not show `pulyacalc {name}`"
        assert f"pulyacalc {name}" in docs, f"docs/ do not document `pulyacalc {name}`"
        r = run(name, "--help")
        assert r.exit_code == 0 and r.output.strip(), name


def test_score_reads_standard_input() -> None:
    r = run("score", "-", "-f", "json", input=YAML_LOG)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["players"] == ["Anna", "Boris", "Vera"]
    assert doc["sheet"]["Vera"]["whists"]["Boris"] == 12  # 2 × 5 + 2 × 1, greedy whist


def test_usage_error_exits_2() -> None:
    r = run("score")
    assert r.exit_code == 2
    r = run("score", "-", "-f", "xml", input=YAML_LOG)
    assert r.exit_code == 2


def test_missing_file_is_a_located_error(tmp_path: Path) -> None:
    r = run("score", str(tmp_path / "nope.txt"))
    assert r.exit_code == 1
    assert "nope.txt: no such file" in r.stderr
    assert "Traceback" not in r.output


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    log = tmp_path / "bad.txt"
    log.write_text(
        "players: Anna Boris Vera\npool: 6:4\n\nAnna 6♠ 7, Boris whist 2, Vera pass 1\n"
        "Bors 7NT, Vera pass, Anna pass\nBoris 6x 5, Vera whist 3, Anna pass 2\n",
        encoding="utf-8",
    )
    r = run("score", str(log))
    assert r.exit_code == 1
    err = r.stderr
    assert re.search(r"bad\.txt:2:\d+: pool .*'6:4'", err)
    assert re.search(r"bad\.txt:5:1: unknown player 'Bors'; did you mean Boris\?", err)
    assert re.search(r"bad\.txt:6:7: unknown suit 'x'", err)
    assert "3 problems" in err
    assert r.stdout == ""


def test_whist_price_gives_money_and_payments() -> None:
    r = run("score", "-", "-f", "json", "--whist-price", "0.5", input=YAML_LOG)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    cents = [round(v * 100) for v in doc["money"].values()]
    assert sum(cents) == 0
    paid = sum(round(p["amount"] * 100) for p in doc["payments"])
    assert paid == sum(c for c in cents if c > 0)


def test_bad_whist_price_is_refused() -> None:
    r = run("score", "-", "--whist-price", "cheap", input=YAML_LOG)
    assert r.exit_code == 2  # usage: the option's mistake, not the log's (issue 10 item 6)
    assert "--whist-price" in r.stderr


def test_convention_option_overrides_the_log() -> None:
    sochi = json.loads(run("score", "-", "-f", "json", input=YAML_LOG).stdout)
    lenin = json.loads(run("score", "-", "-f", "json", "-c", "leningrad", input=YAML_LOG).stdout)
    assert lenin["convention"] == "leningrad"
    # Leningrad whists per trick are twice Sochi's: Boris's 3 tricks × 4 on Anna
    assert sochi["sheet"]["Boris"]["whists"]["Anna"] == 6
    assert lenin["sheet"]["Boris"]["whists"]["Anna"] == 12


def test_unknown_convention_suggests_a_name() -> None:
    r = run("score", "-", "-c", "sochy", input=YAML_LOG)
    assert r.exit_code == 2
    assert "unknown convention 'sochy'" in r.stderr
    assert "did you mean 'sochi'" in r.stderr


def _installed_script() -> str | None:
    exe = Path(sys.executable).parent / ("pulyacalc.exe" if os.name == "nt" else "pulyacalc")
    return str(exe) if exe.exists() else None


@pytest.mark.skipif(_installed_script() is None, reason="pulyacalc is not installed in this environment")
def test_installed_program_runs_from_any_directory(tmp_path: Path) -> None:
    """`pip install .` gives a working `pulyacalc`, built-in conventions included."""
    log = tmp_path / "evening.yaml"
    log.write_text(YAML_LOG, encoding="utf-8")
    script = _installed_script()
    assert script is not None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run(
        [script, "score", "evening.yaml", "-f", "json", "-c", "rostov"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["convention"] == "rostov"


def test_python_dash_m_works(tmp_path: Path) -> None:
    log = tmp_path / "evening.yaml"
    log.write_text(YAML_LOG, encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "pulyacalc", "score", str(log), "-f", "csv"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith("player,pool,mountain")


def test_an_unreadable_deal_keeps_its_turn_to_deal(tmp_path: Path) -> None:
    """With 4 players a typo on one line must not shift the dealer of every later deal
    (which would turn one problem into a chain of false 'the dealer sits out' errors)."""
    log = tmp_path / "four.txt"
    log.write_text(
        "players: Anna Boris Vera Dan\n\n"
        "Anna 6♠ 7, Boris whist 2, Vera pass 1\n"  # Dan deals
        "Boris 7x, Vera pass, Dan pass\n"  # Anna deals; the suit is a typo
        "Vera 6♦ 6, Dan whist 3, Anna pass 1\n"  # Boris deals
        "Dan 7♥ 7, Anna whist 2, Boris pass 1\n",  # Vera deals
        encoding="utf-8",
    )
    r = run("score", str(log))
    assert r.exit_code == 1
    assert "four.txt:4:7: unknown suit 'x'" in r.stderr
    assert "sits out" not in r.stderr
    assert r.stderr.count("four.txt:") == 1
