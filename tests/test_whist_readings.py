"""Issue 9 items 1 and 2 beyond the rule cases (tests/cases/whist_readings.yaml): the
refusal of a deal without the lone whister's count under ``whist.lone_whister_made: own``
from the command line (located, exit 1), and ``prices`` and ``check`` with the new values
of ``whist.two_whisters_shortfall`` and ``whist.lone_whister_made``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.load import load
from pulyacalc.reports.prices import FIRST, SECOND, price_table


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


HEADER = "players: A B C\nconvention: sochi\nwhist.lone_whister_made: own\n\n"


def test_own_without_the_whisters_count_is_a_located_error(tmp_path: Path) -> None:
    log = tmp_path / "own.txt"
    log.write_text(HEADER + "A 6♠ 6, B whist 2, C pass 2\nA 6♠ 7, B whist, C pass\n", "utf-8")
    r = run("score", str(log))
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    assert f"{log}:6:1: with whist.lone_whister_made: own, B writes whists for his own tricks" in r.stderr
    assert "write 'B whist N' or 'C pass N'" in r.stderr


def _house(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text("extends: sochi\nwhist:\n" + text, "utf-8")
    return path


def _row(rows: Any, key: str) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in next(r for r in rows if r.key == key).values.items()}


@pytest.mark.parametrize("made", ["side", "own", "split"])
def test_prices_score_the_standard_outcomes_under_every_value(tmp_path: Path, made: str) -> None:
    house = _house(
        tmp_path,
        f"  lone_whister_made: {made}\n"
        "  two_whisters_shortfall: {6: split_capped, 7: both, 8: both, 9: second_alone}\n",
    )
    r = run("prices", "-c", str(house), "-f", "json")
    assert r.exit_code == 0, r.output
    assert len(json.loads(r.stdout)["prices"]) >= 30
    table = price_table(load(str(house)), 3)
    for row in table.rows:
        assert sum(Fraction(v) for v in row.values.values()) == 0, row.key
    sochi = price_table(load("sochi"), 3)
    six = _row(table.rows, "6 made")
    if made == "split":
        # the side's 4 tricks x 2 = 8 whists, 4 written by each defender: they gain alike
        assert six[FIRST] == six[SECOND]
    else:
        # the standard outcome: the whister takes all the side's tricks, so own = side
        assert six == _row(sochi.rows, "6 made")
    assert _row(table.rows, "6 without 1") == _row(sochi.rows, "6 without 1")


def test_check_finds_nothing_strange_in_the_new_values(tmp_path: Path) -> None:
    log = tmp_path / "chk.txt"
    log.write_text(
        "players: A B C\nconvention: sochi\n"
        "whist.two_whisters_shortfall: {6: split_capped, 8: both, 9: second_alone}\n"
        "whist.lone_whister_made: split\n\n"
        "A 8♠ 10, B whist, C whist\nA 6♦ 7, B whist 3, C whist 0\nA 6♠ 7, B whist, C pass\n",
        "utf-8",
    )
    r = run("check", str(log), "-f", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["ok"] and doc["findings"] == []
