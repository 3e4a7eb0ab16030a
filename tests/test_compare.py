"""`compare`: one evening settled under several conventions side by side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SOCHI = ROOT / "examples" / "sochi-3p.txt"


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc", input=input)


def test_each_column_is_what_score_gives_under_that_convention() -> None:
    r = run("compare", str(SOCHI), "-c", "sochi", "-c", "leningrad", "-c", "rostov", "-f", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert [c["convention"] for c in doc["conventions"]] == ["sochi", "leningrad", "rostov"]
    for col in doc["conventions"]:
        one = json.loads(run("score", str(SOCHI), "-c", col["convention"], "-f", "json").stdout)
        assert col["settlement"] == one["settlement"]
        assert col["settlement_exact"] == one["settlement_exact"]
        assert col["sheet"] == one["sheet"]
        assert sum(col["mountain_result"].values()) == 0 or abs(sum(col["mountain_result"].values())) < 0.02
    # the conventions really differ on this evening
    assert len({json.dumps(c["settlement"]) for c in doc["conventions"]}) == 3


def test_table_has_a_column_per_convention_and_money() -> None:
    r = run("compare", str(SOCHI), "-c", "sochi", "-c", "leningrad", "--whist-price", "1")
    assert r.exit_code == 0, r.output
    head = r.stdout.splitlines()[2].split()
    assert head == ["sochi", "leningrad"]
    anna = next(line for line in r.stdout.splitlines() if line.startswith("Anna"))
    sochi = json.loads(run("score", str(SOCHI), "-f", "json").stdout)["settlement"]["Anna"]
    assert anna.split()[1] == str(sochi)


def test_default_is_every_built_in_and_stdin_works() -> None:
    r = run("compare", "-", "-f", "csv", input=SOCHI.read_text("utf-8"))
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == "player,leningrad,rostov,sochi"
    assert len(r.stdout.splitlines()) == 4


def test_a_log_wrong_under_one_convention_is_a_located_error(tmp_path: Path) -> None:
    log = tmp_path / "l.txt"
    # four players, the dealer takes a talon trick: Rostov's talon takes none
    log.write_text("players: A B C D\n\nA pass 4, B pass 3, C pass 2, D pass 1\n", encoding="utf-8")
    r = run("compare", str(log), "-c", "sochi", "-c", "rostov")
    assert r.exit_code == 1
    assert f"{log}:3" in r.stderr
