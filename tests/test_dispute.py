"""`pulyacalc dispute LOG --deal N`: each reading of every contested key that matters for a
deal.  The figures of a reading are checked against `score` and `explain` run on the same
log with that key written in its header, through the command line: a reading is exactly
what the log scores under it."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any, get_args

import pytest
from test_output_shapes import documented, fits, flatten
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.schema import SCHEMA, Situation
from pulyacalc.core.amounts import mixed
from pulyacalc.reports.dispute import SITUATIONS, dispute_file

runner = CliRunner()

HEADER = "players: Anna Boris Vera\ndealer: Vera\nconvention: {conv}\npool: 10\n"
DEALS = """
Boris 7NT, Vera pass, Anna pass
Boris 6♦ 5, Vera whist 3, Anna pass 2
Anna 6♠ 9, Boris whist 1, Vera whist 0
Anna pass 4, Boris pass 0, Vera pass 6
Vera 6♣, Anna pass, Boris pass
Anna pass 3, Boris pass 3, Vera pass 4
Anna 6♠ 7, Boris whist 2, Vera pass 1
Vera 8♥ 10, Anna whist 0, Boris whist 0
"""
#: deal number → the contested keys that matter for it (deal 1: both passed, nothing)
MATTERS = {
    1: [],
    2: ["whist.on_failure", "whist.consolation_by_passer"],
    3: ["whist.two_whisters_shortfall"],
    4: ["raspasy.zero_trick_bonus", "raspasy.zero_trick_bonus_area"],
    5: ["raspasy.run_ends_on"],
    6: ["raspasy.run_ends_on"],
    7: ["whist.lone_whister_made"],
    8: ["whist.two_whisters_shortfall"],
}
FOUR = """players: Anna Boris Vera Gleb
dealer: Gleb
pool: 10

Anna 6♠ 5, Boris whist 3, Vera whist 2
Boris pass 5, Vera pass 3, Gleb pass 2
"""


def run(args: list[str], code: int = 0) -> str:
    result = runner.invoke(app, args, prog_name="pulyacalc")
    assert result.exit_code == code, result.output
    return result.stdout if code == 0 else result.output


def write(tmp_path: Path, text: str, name: str = "evening.pulya") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def document(log: Path, deal: int) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(run(["dispute", str(log), "--deal", str(deal), "-f", "json"]))
    return doc


def with_override(text: str, line: str) -> str:
    """The log with ``line`` written last in its header."""
    head, deals = text.split("\n\n", 1)
    return f"{head}\n{line}\n\n{deals}"


# -- the figures of every reading are the log scored with that key in its header ------------


@pytest.mark.parametrize("conv", ["sochi", "leningrad"])
@pytest.mark.parametrize("deal", sorted(MATTERS))
def test_every_reading_is_score_with_the_key_in_the_header(tmp_path: Path, conv: str, deal: int) -> None:
    text = HEADER.format(conv=conv) + DEALS
    log = write(tmp_path, text)
    doc = document(log, deal)
    assert [k["key"] for k in doc["contested"]] == MATTERS[deal]
    own_score = json.loads(run(["score", str(log), "-f", "json"]))
    assert doc["settlement_exact"] == own_score["settlement_exact"]
    for key in doc["contested"]:
        assert sum(r["own"] for r in key["readings"]) == 1
        for reading in key["readings"]:
            changed = write(tmp_path, with_override(text, reading["override"]), "changed.pulya")
            score = json.loads(run(["score", str(changed), "-f", "json"]))
            assert reading["result"] == score["settlement"], reading["override"]
            assert reading["result_exact"] == score["settlement_exact"], reading["override"]
            for p, v in reading["change_exact"].items():
                assert Fraction(v) == Fraction(score["settlement_exact"][p]) - Fraction(
                    own_score["settlement_exact"][p]
                )
            explained = json.loads(run(["explain", str(changed), "--deal", str(deal), "-f", "json"]))
            assert reading["entries"] == explained["entries"], reading["override"]
            ledger = json.loads(run(["ledger", str(changed), "-f", "json"]))
            row = next(d for d in ledger["deals"] if d["number"] == deal)
            assert reading["deal_moves_exact"] == row["result_exact"], reading["override"]


def test_greedy_and_gentleman_side_by_side_with_different_figures(tmp_path: Path) -> None:
    log = write(tmp_path, HEADER.format(conv="sochi") + DEALS)
    doc = document(log, 2)
    failure = next(k for k in doc["contested"] if k["key"] == "whist.on_failure")
    greedy, gentleman = failure["readings"]
    assert (greedy["value"], greedy["own"], gentleman["value"], gentleman["own"]) == (
        "greedy",
        True,
        "gentleman",
        False,
    )
    assert greedy["source"].startswith("K3.8.13") and gentleman["source"].startswith("K3.8.14")
    assert greedy["result"] != gentleman["result"]
    # by hand (RULES.md 2.3): greedy Vera 10 + 2 and Anna 2 on Boris; gentleman 7 each
    assert [e["amount"] for e in greedy["entries"] if e["area"] == "whists"] == [10, 2, 2]
    assert [e["amount"] for e in gentleman["entries"] if e["area"] == "whists"] == [7, 7]
    # Anna writes 5 more whists on Boris, Vera 5 fewer; Boris pays the same
    assert gentleman["change"] == {"Anna": 5, "Boris": 0, "Vera": -5}
    table = run(["dispute", str(log), "--deal", "2"])
    anna, vera = (mixed(Fraction(gentleman["result_exact"][p])) for p in ("Anna", "Vera"))
    row = next(line for line in table.splitlines() if line.strip().startswith("gentleman whist "))
    assert f"{anna} (+5)" in row and f"{vera} (-5)" in row
    assert any(line.strip().startswith("greedy whist *") for line in table.splitlines())


def test_a_key_the_log_sets_is_disputed_by_replacing_it(tmp_path: Path) -> None:
    # the other reading replaces the header's setting; it is not "set twice"
    text = with_override(HEADER.format(conv="sochi") + DEALS, "whist.on_failure: greedy")
    doc = document(write(tmp_path, text), 2)
    failure = next(k for k in doc["contested"] if k["key"] == "whist.on_failure")
    greedy, gentleman = failure["readings"]
    assert greedy["own"] and not gentleman["own"] and not gentleman.get("refused")
    assert gentleman["change"] == {"Anna": 5, "Boris": 0, "Vera": -5}


def test_a_level_table_is_disputed_at_the_deal_level(tmp_path: Path) -> None:
    log = write(tmp_path, HEADER.format(conv="sochi") + DEALS)
    key = document(log, 8)["contested"][0]
    assert key["level"] == 8
    readings = {r["value"]: r for r in key["readings"]}
    # every choice of the Literal is a reading, the log's own (Sochi: second on 8) marked
    assert list(readings) == list(SCHEMA["whist.two_whisters_shortfall"].choices)
    assert readings["second"]["own"] and readings["split"]["override"] == (
        "whist.two_whisters_shortfall: {8: split}"
    )
    # K3.8.6: on 8 the second whister writes 6; split: each 3 (half of the obligation 1)
    assert [e["amount"] for e in readings["second"]["entries"] if e["area"] == "mountain"] == [6]
    assert [e["amount"] for e in readings["split"]["entries"] if e["area"] == "mountain"] == [3, 3]


def test_leningrad_zero_trick_readings_differ(tmp_path: Path) -> None:
    log = write(tmp_path, HEADER.format(conv="leningrad") + DEALS)
    key = document(log, 4)["contested"][0]
    readings = {r["value"]: r for r in key["readings"]}
    assert list(readings) == ["trick", "price", "1"]
    pools = {v: [e["amount"] for e in r["entries"] if e["area"] == "pool"] for v, r in readings.items()}
    # Leningrad's first raspasy: v = 2 mountain points = 1 pool point; literally 2
    assert pools == {"trick": [1], "price": [2], "1": [1]}
    assert readings["price"]["change"] != readings["trick"]["change"]


def test_a_house_value_no_table_names_is_the_first_reading(tmp_path: Path) -> None:
    text = with_override(HEADER.format(conv="sochi") + DEALS, "raspasy.zero_trick_bonus: 3/4")
    doc = document(write(tmp_path, text), 4)
    first = doc["contested"][0]["readings"][0]
    assert (first["value"], first["own"], first["source"]) == ("3/4", True, "the log's convention (sochi)")
    assert [r["value"] for r in doc["contested"][0]["readings"][1:]] == ["trick", "price", "1"]


def test_four_players_the_dealer_keys(tmp_path: Path) -> None:
    log = write(tmp_path, FOUR)
    assert [k["key"] for k in document(log, 1)["contested"]] == [
        "whist.consolation_by_dealer",
    ]
    # the talon gave the dealer (Anna deals the second deal) nothing
    keys = [k["key"] for k in document(log, 2)["contested"]]
    assert keys == [
        "raspasy.zero_trick_bonus",
        "raspasy.zero_trick_bonus_area",
        "raspasy.zero_trick_bonus_dealer",
    ]
    dealer = document(log, 2)["contested"][2]["readings"]
    assert [(r["value"], r["own"]) for r in dealer] == [("true", True), ("false", False)]
    assert [e["player"] for e in dealer[1]["entries"] if e["rule"] == "zero-trick"] == []


# -- what cannot be disputed -----------------------------------------------------------------


def test_a_deal_with_nothing_contested_says_so(tmp_path: Path) -> None:
    log = write(tmp_path, HEADER.format(conv="sochi") + DEALS)
    out = run(["dispute", str(log), "--deal", "1"])
    assert "Nothing is contested on this deal" in out and "Boris 7NT" in out
    assert document(log, 1)["contested"] == []


@pytest.mark.parametrize("deal", ["9", "100"])
def test_a_deal_out_of_range_is_a_usage_error_naming_the_option(tmp_path: Path, deal: str) -> None:
    log = write(tmp_path, HEADER.format(conv="sochi") + DEALS)
    out = run(["dispute", str(log), "--deal", deal], code=2)
    assert "'--deal'" in out and f"no deal {deal}: the log has 8 deals" in out


def test_deal_zero_and_no_deal_are_usage_errors(tmp_path: Path) -> None:
    log = write(tmp_path, HEADER.format(conv="sochi") + DEALS)
    assert "--deal" in run(["dispute", str(log), "--deal", "0"], code=2)
    assert "--deal" in run(["dispute", str(log)], code=2)


def test_a_refused_deal_is_reported_located_as_score_reports_it(tmp_path: Path) -> None:
    log = write(
        tmp_path, HEADER.format(conv="sochi") + "\nAnna 6♠ 7, Boris whist 2, Vera pass 1\nBoris 6♦ 11\n"
    )
    for deal in ("1", "2"):
        out = run(["dispute", str(log), "--deal", deal], code=1)
        assert f"{log}:7:" in out and "Traceback" not in out


def test_a_reading_that_refuses_the_log_says_why(tmp_path: Path) -> None:
    # only the declarer's tricks: under 'own' the lone whister's count is missing
    log = write(tmp_path, HEADER.format(conv="sochi") + "\nAnna 6♠ 7, Boris whist, Vera pass\n")
    key = document(log, 1)["contested"][0]
    own = next(r for r in key["readings"] if r["value"] == "own")
    assert own["refused"] and own["refused"][0]["where"].endswith(":6:1")
    assert "result" not in own and own["entries"] == []
    table = run(["dispute", str(log), "--deal", "1"])
    assert "refused" in table and "give his tricks or the passer's" in table


def test_two_players_half_whist_shows_both_seats_readings(tmp_path: Path) -> None:
    # the dealer declares with the dummy on first hand: K3.8.7 and seed 001 agree
    log = write(tmp_path, "players: Anna Boris\ndealer: Boris\nconvention: gusarik\n\nBoris 6♠, Anna half\n")
    key = document(log, 1)["contested"][0]
    assert key["key"] == "table.two_half_whist"
    assert {r["value"]: r["result_exact"] for r in key["readings"]} == {
        "after_dummy": {"Anna": "-16", "Boris": "16"},
        "any_hand": {"Anna": "-16", "Boris": "16"},
    }


# -- the contested data is the schema's ----------------------------------------------------


def test_every_situation_has_its_predicate() -> None:
    assert set(SITUATIONS) == set(get_args(Situation))
    used = {s for row in SCHEMA.values() if row.contested for s in row.contested.when}
    assert used <= set(get_args(Situation))


def test_every_choice_of_a_contested_key_is_a_reading_with_a_source() -> None:
    for row in SCHEMA.values():
        if row.contested is None:
            continue
        values = [v for v, _ in row.contested.readings(row)]
        assert set(row.choices) <= set(values), row.name
        assert len(values) == len(set(map(repr, values))), row.name
        assert all(source for _, source in row.contested.readings(row)), row.name


def test_the_library_call_matches_the_command(tmp_path: Path) -> None:
    log = write(tmp_path, HEADER.format(conv="sochi") + DEALS)
    d = dispute_file(str(log), 2)
    assert [k.key.name for k in d.keys] == MATTERS[2]
    assert d.result.number == 2 and d.line == "Boris 6♦ 5, Vera whist 3, Anna pass 2"


# -- formats ---------------------------------------------------------------------------------

PLAYERS = {"Anna", "Boris", "Vera", "Gleb"}


def shape(shape_name: str, docs: list[Any]) -> None:
    """The documented fields, every one printed by one of ``docs`` and nothing else; an empty
    list (no problem, no entry) stands for the fields of its items."""
    want = documented(shape_name)
    got: dict[str, list[Any]] = {}
    for doc in docs:
        for path, values in flatten(doc, PLAYERS).items():
            got.setdefault(path, []).extend(values)
    for path, values in got.items():
        if all(v == [] for v in values):
            assert any(w.startswith(path + "[].") for w in want), path
            continue
        assert path in want, f"{shape_name}: {path} printed but not documented"
        # null only where the table says so (``on`` for the pool and the mountain)
        assert all(fits(want[path], v) for v in values if v is not None or not path.endswith(".on")), path
    printed = {p for p in got} | {w for w in want if any(w.startswith(p + "[].") for p in got)}
    assert set(want) <= printed, f"{shape_name}: documented but not printed {sorted(set(want) - printed)}"


def test_json_has_every_documented_field(tmp_path: Path) -> None:
    log = write(tmp_path, HEADER.format(conv="sochi") + DEALS)
    refused = write(
        tmp_path, HEADER.format(conv="sochi") + "\nAnna 6♠ 7, Boris whist, Vera pass\n", "r.pulya"
    )
    shape("dispute-json", [document(log, 8), document(refused, 1), document(log, 1)])
    assert "level" not in document(refused, 1)["contested"][0]


def test_jsonl_one_object_per_reading(tmp_path: Path) -> None:
    log = write(tmp_path, HEADER.format(conv="sochi") + DEALS)
    lines = run(["dispute", str(log), "--deal", "2", "-f", "jsonl"]).splitlines()
    rows = [json.loads(x) for x in lines]
    assert [(r["key"], r["value"]) for r in rows] == [
        ("whist.on_failure", "greedy"),
        ("whist.on_failure", "gentleman"),
        ("whist.consolation_by_passer", "true"),
        ("whist.consolation_by_passer", "false"),
    ]
    level = [json.loads(x) for x in run(["dispute", str(log), "--deal", "8", "-f", "jsonl"]).splitlines()]
    assert {r["level"] for r in level} == {8}
    shape("dispute-jsonl", rows + level)


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_csv_one_row_per_reading(tmp_path: Path, fmt: str) -> None:
    log = write(tmp_path, HEADER.format(conv="sochi") + DEALS)
    out = run(["dispute", str(log), "--deal", "8", "-f", fmt])
    rows = list(csv.reader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
    assert rows[0][:6] == ["deal", "key", "level", "value", "own", "source"]
    assert rows[0][6:] == [
        *[f"result_{p}" for p in ("Anna", "Boris", "Vera")],
        *[f"change_{p}" for p in ("Anna", "Boris", "Vera")],
        "refused",
    ]
    assert [r[3] for r in rows[1:]] == list(SCHEMA["whist.two_whisters_shortfall"].choices)
    assert [r[4] for r in rows[1:]].count("true") == 1 and all(r[2] == "8" for r in rows[1:])


# -- docs/commands.md shows real output ----------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("deal", ["9", "1"])
def test_the_examples_in_the_commands_doc_are_real(monkeypatch: pytest.MonkeyPatch, deal: str) -> None:
    monkeypatch.chdir(ROOT)
    command = f"$ pulyacalc dispute examples/sochi-3p.txt --deal {deal}\n"
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert command in text
    shown = text.split(command, 1)[1].split("```", 1)[0]
    assert shown == run(["dispute", "examples/sochi-3p.txt", "--deal", deal])


def test_the_talon_premium_and_the_second_out_keys(tmp_path: Path) -> None:
    """premium.by with the dealer holding cards, premium.on_concede on «без трёх», and
    bombs.second_out on a dark raspasy at five (issue 27): each contested where it matters."""
    three = "players: A B C\npremium.enabled: true\ncontracts.concede_three: true\n\n"
    log = write(tmp_path, three + "A 6♠ 6, B whist, C pass, talon A♠ 7♥\nB 7♠ concede, talon A♠ A♥\n")
    assert "premium.by" in [k["key"] for k in document(log, 1)["contested"]]
    (key,) = document(log, 2)["contested"]
    assert key["key"] == "premium.on_concede"
    assert [r["change"]["A"] for r in key["readings"]] == [0, 12]  # the dealer A writes 3 × 4
    five = "players: A B C D E\nconvention: classic\nbombs.opening: 0\n\nB pass dark 3, C pass 4, D pass 3\n"
    keys = [k["key"] for k in document(write(tmp_path, five, "five.pulya"), 1)["contested"]]
    assert "bombs.second_out" in keys and "premium.by" not in keys


def test_every_deal_of_a_log_with_seat_changes_is_disputed_at_its_own_table(tmp_path: Path) -> None:
    """Issue 31 item 7: the deals after a join or a leave are read at the table they were
    dealt at (4 with Nina, Misha sitting out deal 5), a join before the first deal too, and
    every reading has the newcomer's result, before her join as after it."""
    log = Path(__file__).resolve().parent.parent / "examples" / "sochi-join-leave.txt"
    for number in range(1, 9):
        r = runner.invoke(app, ["dispute", str(log), "--deal", str(number), "-f", "json"])
        assert r.exit_code == 0, (number, r.output)
        doc = json.loads(r.stdout)
        assert doc["players"] == ["Kostya", "Lena", "Misha", "Nina"]
        for key in doc["contested"]:
            for reading in key["readings"]:
                assert "refused" in reading or set(reading["result"]) == set(doc["players"])
    five = dispute_file(str(log), 5)
    assert "whist.consolation_by_dealer" in [k.key.name for k in five.keys]  # Misha sits out
    first = tmp_path / "first.txt"
    first.write_text(
        "players: Anna Boris Vera\ndealer: Vera\n\njoin Dan\n"
        "Anna 6♠ 6, Boris whist 4, Vera pass\nAnna 6♠ 6, Boris whist 4, Dan pass\n"
    )
    for number in (1, 2):
        r = runner.invoke(app, ["dispute", str(first), "--deal", str(number)])
        assert r.exit_code == 0, r.output
        assert "result Dan" in r.stdout
