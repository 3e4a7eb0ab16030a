"""`prices`: the price table, computed by scoring and settling, matches the reference texts."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.load import load
from pulyacalc.reports.prices import DECLARER, price_table


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


def price(convention: str, players: int, outcome: str, role: str = DECLARER) -> Fraction:
    t = price_table(load(convention), players)
    row = next(r for r in t.rows if r.key == outcome)
    return Fraction(row.values[role])


def test_reference_figures() -> None:
    # seed 002: a made six whisted by one who took his four tricks, three players
    assert price("sochi", 3, "6 made") == Fraction(16, 3)  # 5.33
    assert price("leningrad", 3, "6 made") == Fraction(32, 3)  # 10.67
    # four players: a six without one costs 31 (Sochi) and 62 (Leningrad)
    assert price("sochi", 4, "6 without 1") == -31
    assert price("leningrad", 4, "6 without 1") == -62
    # a made nine whisted by one who took one trick: 52 (Sochi), 104 in Leningrad
    assert price("sochi", 4, "9 made") == 52
    assert price("leningrad", 4, "9 made") == 104


def test_the_cli_prints_the_figures() -> None:
    r = run("prices", "-c", "sochi", "--players", "3")
    assert r.exit_code == 0, r.output
    six = next(line for line in r.stdout.splitlines() if line.startswith("6 made"))
    assert six.split()[2:5] == ["5⅓", "1⅓", "-6⅔"]
    r = run("prices", "-c", "leningrad", "--players", "4", "-f", "json")
    doc = json.loads(r.stdout)
    row = next(x for x in doc["prices"] if x["outcome"] == "6 without 1")
    assert row["whists"]["declarer"] == -62
    assert doc["roles"] == ["declarer", "first defender", "second defender", "dealer"]


@pytest.mark.parametrize("convention", ["sochi", "leningrad", "rostov"])
@pytest.mark.parametrize("players", [3, 4])
def test_every_price_sums_to_zero_and_is_exact(convention: str, players: int) -> None:
    t = price_table(load(convention), players)
    assert len(t.rows) >= 30
    for r in t.rows:
        assert sum(Fraction(v) for v in r.values.values()) == 0, r.key


def test_prices_follow_the_convention_data() -> None:
    # a contract not whisted is worth the mountain its price saves: Leningrad twice Sochi
    for level in (6, 7, 8, 9, 10):
        assert price("leningrad", 3, f"{level} not whisted") == 2 * price("sochi", 3, f"{level} not whisted")
    # greedy (Sochi) vs gentleman (Leningrad, Rostov) on a failed contract with one passer:
    # under gentleman whist the whister and the passer gain the same
    assert price("rostov", 3, "7 without 1", "first defender") == price(
        "rostov", 3, "7 without 1", "second defender"
    )
    assert price("sochi", 3, "7 without 1", "first defender") > price(
        "sochi", 3, "7 without 1", "second defender"
    )
    # a raspasy trick in Sochi for three: one mountain point, 10 × 2/3 = 6.67
    assert price("sochi", 3, "raspasy") == Fraction(-20, 3)


def test_csv_and_bad_player_count() -> None:
    r = run("prices", "-c", "rostov", "-f", "csv")
    lines = r.stdout.splitlines()
    assert lines[0] == "outcome,played,declarer,first defender,second defender"
    assert run("prices", "--players", "6").exit_code == 2
    r = run("prices", "-c", "nosuch")
    assert r.exit_code == 2 and "unknown convention" in r.stderr
