"""Messages about a convention point at the place a person has to change."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.load import load
from pulyacalc.core.errors import PulyaError
from pulyacalc.yamlsource import parse_yaml

runner = CliRunner()


def score(log: Path):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["score", str(log)], prog_name="pulyacalc")


def test_a_refused_level_value_is_one_problem_not_two(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: sochi\ncontracts:\n  price: {6: two}\n", "utf-8")
    log = tmp_path / "log.txt"
    log.write_text("players: A B C\nconvention: house.yaml\n", "utf-8")
    r = score(log)
    assert r.exit_code == 1
    assert "house.yaml:3:14: contracts.price for 6: expected a number" in r.stderr
    assert "missing" not in r.stderr
    assert r.stderr.count("house.yaml:") == 1


def test_an_odd_obligation_is_reported_where_the_log_overrides_it(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("players: A B C\nwhist.obligation: {6: 5}\n", "utf-8")
    r = score(log)
    assert r.exit_code == 1
    assert "log.txt:2:19: half-whist on 6 needs an even obligation, it is 5" in r.stderr
    assert "sochi.yaml" not in r.stderr


def test_an_odd_obligation_is_reported_at_the_key_set_last(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: sochi\nwhist:\n  obligation: {7: 3}\n", "utf-8")
    log = tmp_path / "log.txt"
    log.write_text("players: A B C\nconvention: house.yaml\n", "utf-8")
    assert "house.yaml:3:15: half-whist on 7 needs an even obligation, it is 3" in score(log).stderr
    log.write_text("players: A B C\nconvention: house.yaml\nwhist.half_whist_levels: 7\n", "utf-8")
    assert "log.txt:3:26: half-whist on 7 needs an even obligation, it is 3" in score(log).stderr


# -- one message per parser (convention/schema.py), pinned: the rows must not change them ---

BAD_VALUES = [
    ("pool:\n  target: 0\n", "3:11: pool.target: 0 is out of range, expected 1..100,000"),
    ("pool:\n  target: x\n", "3:11: pool.target: expected a whole number, got 'x'"),
    ("pool:\n  point_in_mountain: -1\n", "3:22: pool.point_in_mountain: must not be negative"),
    ("pool:\n  help: maybe\n", "3:9: pool.help: expected true or false, got 'maybe'"),
    (
        "contracts:\n  price: 3\n",
        "3:10: contracts.price: expected a mapping of levels like {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}, got '3'",
    ),
    ("whist:\n  obligation: {6: 11}\n", "3:19: whist.obligation for 6: 11 is out of range, expected 0..10"),
    (
        "whist:\n  two_whisters_shortfall: {6: both_}\n",
        "3:31: whist.two_whisters_shortfall for 6: expected one of split, second, split_capped, both, "
        "second_alone, got 'both_'",
    ),
    (
        "whist:\n  half_whist_levels: [5, 6]\n",
        "3:23: whist.half_whist_levels: 5 is out of range, expected 6..10",
    ),
    (
        "whist:\n  half_whist_levels: {a: 1}\n",
        "3:22: whist.half_whist_levels: expected a list like [1, 2, 3], got a mapping",
    ),
    ("raspasy:\n  exit: []\n", "3:9: raspasy.exit: the list must not be empty"),
    (
        "raspasy:\n  progression: [1, 2000]\n",
        "3:20: raspasy.progression: 2000 is out of range, expected 0..1000",
    ),
    ("raspasy:\n  progression: 1 2 x\n", "3:16: raspasy.progression: expected a whole number, got 'x'"),
    (
        "raspasy:\n  zero_trick_bonus: none\n",
        "3:21: raspasy.zero_trick_bonus ('trick' or a number): expected a number (like 2, 0.5 or 1/2), got 'none'",
    ),
    (
        "settlement:\n  rounding: up\n",
        "3:13: settlement.rounding: expected one of exact, kodeks, nearest, kodeks_separate, got 'up'",
    ),
    (
        "whist:\n  on_failure: [greedy]\n",
        "3:15: whist.on_failure: expected one of greedy, gentleman, got a list",
    ),
    ("raspasy:\n  scoring: ~\n", "3:12: raspasy.scoring: expected one of mountain, whists, got nothing"),
]


@pytest.mark.parametrize(("text", "message"), BAD_VALUES)
def test_a_wrong_value_is_one_located_message(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "house.yaml").write_text("extends: sochi\n" + text, "utf-8")
    with pytest.raises(PulyaError) as e:
        load(str(tmp_path / "house.yaml"))
    assert [f"{p.loc.line}:{p.loc.column}: {p.message}" for p in e.value.problems] == [message]


def test_a_level_table_names_every_level(tmp_path: Path) -> None:
    (tmp_path / "bare.yaml").write_text("contracts:\n  price: {6: 2, 8: 6}\n", "utf-8")
    with pytest.raises(PulyaError) as e:
        load(str(tmp_path / "bare.yaml"))
    messages = [p.message for p in e.value.problems]
    assert "contracts.price: every level 6..10 needs a value; missing 7, 9, 10" in messages


def test_a_log_overrides_only_the_levels_it_names(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: rostov\ncontracts:\n  price: {6: 3}\n", "utf-8")
    over = parse_yaml("contracts.price: {7: 5}\n", "log.yaml")
    conv = load(str(tmp_path / "house.yaml"), overrides=over)
    assert dict(conv.price) == {6: 3, 7: 5, 8: 6, 9: 8, 10: 10}
