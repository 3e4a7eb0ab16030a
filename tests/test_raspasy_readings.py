"""Issue 9 items 3 and 4 where a rule case cannot say it: the raspasy run a deal leaves
going (``raspasy.run_ends_on``) as the fold reports it, the exit ladder `check` keeps
applying while a run goes on, the cache that must not serve a contract's writes with the
wrong run ending, and the message for a zero-trick bonus word it does not know."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.load import load
from pulyacalc.core.errors import PulyaError

ABC = ("A", "B", "C")
RASP = "A pass 4, B pass 3, C pass 3"
PASSED = "B 6♠, C pass, A pass"
FAILED = "C 6♠ 5, A whist 3, B whist 2"
MADE = "C 6♠ 6, A whist 2, B whist 2"


def _runs(ends_on: str, *deals: str) -> tuple[list[int], list[int]]:
    r = run("sochi", ABC, *deals, extra=[f"raspasy.run_ends_on: {ends_on}"])
    return [res.raspasy_run for res in r.results], [res.after_raspasy for res in r.results]


def test_any_ends_the_run_with_every_other_deal() -> None:
    assert _runs("any", RASP, RASP, PASSED, RASP) == ([1, 2, 0, 1], [0, 1, 2, 0])


def test_played_leaves_the_run_going_after_a_passed_contract() -> None:
    # the passed contract is the exit from 2 raspasy, and so is the next contract
    assert _runs("played", RASP, RASP, PASSED, PASSED, RASP, MADE, RASP) == (
        [1, 2, 0, 0, 3, 0, 1],
        [0, 1, 2, 2, 2, 3, 0],
    )


def test_whisted_made_leaves_the_run_going_after_a_failed_contract() -> None:
    assert _runs("whisted_made", RASP, FAILED, "A misere 0", RASP, MADE, RASP) == (
        [1, 0, 0, 2, 0, 1],
        [0, 1, 1, 1, 2, 0],
    )


def test_the_same_contract_text_in_and_out_of_a_run_is_remembered_once() -> None:
    # a contract's key does not hold the run (it is 0 for every contract); whether it ends
    # a run is part of what is remembered, so the second PASSED (a cache hit) leaves the run
    # going as the first did, and the progression reaches 3
    r = run("sochi", ABC, PASSED, RASP, PASSED, RASP, extra=["raspasy.run_ends_on: played"])
    assert [res.raspasy_run for res in r.results] == [0, 1, 0, 2]
    assert r.written(4) == {("A", "mountain", 2, None)}


def _check(tmp_path: Path, ends_on: str) -> list[tuple[str, int, str]]:
    # Leningrad: exit [6, 7, 7]
    text = (
        f"players: A B C\nconvention: leningrad\nraspasy.run_ends_on: {ends_on}\n\n"
        "A pass 4, B pass 3, C pass 3\n"  # line 5: run 1
        "B 6♠, C pass, A pass\n"  # 6: after 1 raspasy, 6 is fine
        "C pass 4, A pass 3, B pass 3\n"  # 7: run 2 under `played`, 1 under `any`
        "A 6♠, B pass, C pass\n"  # 8: after 2 under `played`: the exit is 7
        "B 6♠ 6, C whist 2, A whist 2\n"  # 9: still after 2 under `played`; ends the run
        "C 6♠, A pass, B pass\n"  # 10: after nothing
    )
    path = tmp_path / f"{ends_on}.txt"
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(path), "-f", "json"], prog_name="pulyacalc")
    assert r.exit_code in (0, 1), r.output
    return [(f["code"], f["line"], f["message"]) for f in json.loads(r.stdout)["findings"]]


def test_the_exit_ladder_keeps_applying_while_a_run_goes_on(tmp_path: Path) -> None:
    assert _check(tmp_path, "any") == []
    found = _check(tmp_path, "played")
    assert [(code, line) for code, line, _ in found] == [("raspasy-exit", 8), ("raspasy-exit", 9)]
    assert all("after 2 raspasy in a row" in m and "exit is 7" in m for _, _, m in found)


def test_an_unknown_zero_trick_bonus_word_names_every_word(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("extends: sochi\nraspasy:\n  zero_trick_bonus: cost\n", "utf-8")
    with pytest.raises(PulyaError) as e:
        load(str(path))
    [p] = e.value.problems
    assert p.message.startswith("raspasy.zero_trick_bonus ('trick' or a number): expected a number")
    assert p.hint == "or one of trick, price"


@pytest.mark.parametrize("name", ["sochi", "leningrad", "rostov"])
def test_every_builtin_keeps_todays_readings(name: str) -> None:
    conv = load(name)
    assert conv.raspasy_zero_trick_bonus_area == "pool"
    assert conv.raspasy_zero_trick_bonus_dealer is True
    assert conv.raspasy_run_ends_on == "any"
