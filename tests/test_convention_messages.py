"""Messages about a convention point at the place a person has to change."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pulyacalc.cli.app import app

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
