"""Wording that tells the truth (issue 10, items 8, 9, 15): a title names the convention
the evening was played under, overrides included; ``score`` points to ``check`` for deals
after the pulya was finished; one deal is «1 deal»; every JSONL line carries its version."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SOCHI = ROOT / "examples" / "sochi-3p.txt"

OVERRIDDEN = """players: Anna Boris Vera
dealer: Vera
convention: sochi
whist.on_failure: gentleman
whist.half_whist_levels: [6]

Anna 6♠, Boris pass, Vera pass
"""


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


def write(tmp_path: Path, text: str, name: str = "log.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_overrides_show_in_every_title_and_in_json(tmp_path: Path) -> None:
    log = write(tmp_path, OVERRIDDEN)
    named = "Сочинка (Sochi) + whist.half_whist_levels=[6] + whist.on_failure=gentleman, 3 players"
    for command in ("score", "explain", "ledger"):
        r = run(command, log)
        assert r.exit_code == 0, r.output
        assert r.output.startswith(named), (command, r.output)
    r = run("compare", log, "-c", "sochi")
    assert "whist.on_failure=gentleman" in r.output
    doc = json.loads(run("score", "-f", "json", log).stdout)
    assert doc["overrides"] == {"whist.half_whist_levels": [6], "whist.on_failure": "gentleman"}
    assert doc["convention"] == "sochi"  # the existing key is unchanged


def test_a_plain_evening_has_no_overrides() -> None:
    r = run("score", str(SOCHI))
    assert r.output.startswith("Сочинка (Sochi), 3 players, pool to 20, 30 deals")
    assert "overrides" not in json.loads(run("score", "-f", "json", str(SOCHI)).stdout)


def test_an_untitled_house_file_is_named_by_its_path(tmp_path: Path) -> None:
    write(tmp_path, "extends: sochi\nwhist:\n  on_failure: gentleman\n", "ours.yaml")
    log = write(tmp_path, OVERRIDDEN.replace("convention: sochi", "convention: ours.yaml"))
    first = run("score", log).output.splitlines()[0]
    assert first.startswith(str(tmp_path / "ours.yaml") + " + whist.half_whist_levels=[6], 3 players")


def test_one_evening_is_singular(tmp_path: Path) -> None:
    """«1 evenings» (issue 10 item 15): season and stats of one evening, in both languages."""
    log = write(tmp_path, OVERRIDDEN)
    assert run("--lang", "en", "season", log).output.startswith("Season: 1 evening, 1 deal;")
    assert run("--lang", "en", "stats", log).output.startswith("Stats: 1 evening, 1 deal;")
    two = run("--lang", "en", "season", log, str(SOCHI)).output
    assert two.startswith("Season: 2 evenings, 31 deals;")
    assert run("--lang", "ru", "season", log).output.startswith("Сезон: 1 вечер, 1 сдача;")


def test_one_deal_is_singular(tmp_path: Path) -> None:
    log = write(tmp_path, OVERRIDDEN)
    assert ", 1 deal — " in run("score", log).output
    assert "1 deals" not in run("explain", log).output
    assert "1 deals" not in run("check", log).output
