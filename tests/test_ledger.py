"""`ledger`: what each deal moved each result by (RULES.md §3.8).

The rows add up exactly to `score`'s exact settlement (a property over generated logs and
every example); each row is checked against an independent path — settling the paper
after the deal minus settling it before — and by hand on a small log; the rounding is its
own row; money adds up to the cent; every format renders; `explain` shows the same row.
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import score_text
from hypothesis import given
from hypothesis import strategies as st
from logs_gen import random_log
from test_explain import example_logs
from test_output_shapes import check, documented, flatten
from test_properties import SETTINGS, logs
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import PulyaError
from pulyacalc.core.sheet import Sheet
from pulyacalc.play import score_file, settle_evening
from pulyacalc.render.formats import FORMATS, render
from pulyacalc.render.ledger import LedgerView
from pulyacalc.reports.ledger import Ledger, ledger, ledger_file
from pulyacalc.scoring.settlement import settle

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc", input=input)


def column_sums(lg: Ledger) -> dict[str, Fraction]:
    return {p: sum((Fraction(r.result[p]) for r in lg.rows), Fraction(0)) for p in lg.players}


def assert_rows_add_up(text: str, name: str) -> None:
    """Under exact rounding the rows add up to score's exact settlement; each row sums to 0
    and is the settlement after the deal minus the settlement before it (settle() on the
    running papers: a path that does not use the ledger's linear formula)."""
    ev = score_text(text, name, rounding="exact", running=True)
    lg = ledger(ev)
    assert column_sums(lg) == {p: Fraction(v) for p, v in settle_evening(ev).exact.items()}
    assert all(v == 0 for v in lg.rounding.values())
    players = ev.header.players
    before = settle(Sheet(players).view(), ev.convention, ev.target, "exact").exact
    for row, paper in zip(lg.rows, ev.running, strict=True):
        after = settle(paper, ev.convention, ev.target, "exact").exact
        assert row.result == {p: after[p] - before[p] for p in players}, row.number
        assert sum(Fraction(v) for v in row.result.values()) == 0
        assert row.running == after
        before = after


@SETTINGS
@given(logs())
def test_rows_add_up_to_the_exact_settlement(log: dict[str, Any]) -> None:
    assert_rows_add_up(yaml.safe_dump(log, allow_unicode=True, sort_keys=False), "p.yaml")


@SETTINGS
@given(st.integers(0, 10_000), st.sampled_from(("sochi", "leningrad", "rostov")), st.sampled_from((3, 4)))
def test_rows_add_up_on_generated_evenings(seed: int, convention: str, players: int) -> None:
    assert_rows_add_up(random_log(seed, convention, players, deals=30), "gen.yaml")


@pytest.mark.parametrize("path", example_logs(), ids=lambda p: p.name)
def test_rows_add_up_for_every_example(path: Path) -> None:
    lg = ledger_file(str(path), rounding="exact")
    assert column_sums(lg) == {p: Fraction(v) for p, v in lg.settlement.exact.items()}
    # under the log's own rounding and under nearest: the rows plus the rounding row are
    # what score prints, in whists and in money
    for rounding in (None, "nearest"):
        ev = score_file(str(path), rounding=rounding, keep=True)  # type: ignore[arg-type]
        lg = ledger(ev, Decimal("0.37"))
        printed = settle_evening(ev, Decimal("0.37"))
        sums = column_sums(lg)
        assert {p: sums[p] + lg.rounding[p] for p in lg.players} == printed.result
        money = {p: sum((r.money[p] for r in lg.rows if r.money), Decimal(0)) for p in lg.players}
        assert lg.money_rounding is not None and printed.money is not None
        assert {p: money[p] + lg.money_rounding[p] for p in lg.players} == printed.money


#: a small Sochi evening worked by hand (a pool point lowers G by 1, a mountain point is
#: 10 whists: δG is worth 10 × (mean δG − δG_p))
SMALL = """players: Anna Boris Vera
convention: sochi
pool: 10

Anna 6♠, Boris pass, Vera pass
Boris 7♥ 7, Vera whist 2, Anna pass 1
Anna pass 3, Boris pass 4, Vera pass 3
Vera misere 1
"""

BY_HAND = [
    # Anna pool +2: δG = (−2, 0, 0), mean −2/3 → Anna 10 × 4/3, the others 10 × (−2/3)
    {"Anna": Fraction(40, 3), "Boris": Fraction(-20, 3), "Vera": Fraction(-20, 3)},
    # Boris pool +4 → +80/3, −40/3, −40/3; Vera writes 3 × 4 = 12 on Boris → Boris −12, Vera +12
    {"Anna": Fraction(-40, 3), "Boris": Fraction(44, 3), "Vera": Fraction(-4, 3)},
    # raspasy 3/4/3, first of a run: Boris mountain +1 (amnesty 3) → −20/3, +10/3 each other
    {"Anna": Fraction(10, 3), "Boris": Fraction(-20, 3), "Vera": Fraction(10, 3)},
    # misère caught with one trick: Vera mountain +10 → −200/3, +100/3 each other
    {"Anna": Fraction(100, 3), "Boris": Fraction(100, 3), "Vera": Fraction(-200, 3)},
]


def small(tmp_path: Path, text: str = SMALL) -> Path:
    p = tmp_path / "small.txt"
    p.write_text(text, encoding="utf-8")
    return p


def test_a_small_log_by_hand(tmp_path: Path) -> None:
    lg = ledger_file(str(small(tmp_path)))
    assert [r.result for r in lg.rows] == BY_HAND
    assert [(r.number, r.dealer) for r in lg.rows] == [(1, "Vera"), (2, "Anna"), (3, "Boris"), (4, "Vera")]
    assert lg.rows[1].text == "Boris 7♥ 7, Vera whist 2, Anna pass 1"
    assert lg.rows[2].text == "Vera pass 3, Anna pass 3, Boris pass 4"  # clockwise from first hand
    want = {p: sum((row[p] for row in BY_HAND), Fraction(0)) for p in ("Anna", "Boris", "Vera")}
    assert want == {"Anna": Fraction(110, 3), "Boris": Fraction(104, 3), "Vera": Fraction(-214, 3)}
    assert lg.total == want == lg.settlement.exact
    assert lg.rows[-1].running == want


@pytest.mark.parametrize("rounding", ["nearest", "kodeks"])
def test_the_rounding_is_its_own_last_row(tmp_path: Path, rounding: str) -> None:
    lg = ledger_file(str(small(tmp_path)), rounding=rounding)  # type: ignore[arg-type]
    s = lg.settlement
    assert lg.total == {"Anna": Fraction(110, 3), "Boris": Fraction(104, 3), "Vera": Fraction(-214, 3)}
    assert {p: lg.total[p] + lg.rounding[p] for p in lg.players} == s.result
    assert all(Fraction(v).denominator == 1 for v in s.result.values())
    assert any(lg.rounding.values())  # 110/3, 104/3, −214/3 are not whole
    out = run("ledger", str(small(tmp_path)), "--rounding", rounding)
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    rounding_line = next(line for line in lines if f"rounding {rounding}" in line)
    settlement_line = next(line for line in lines if "settlement" in line and "rounding" not in line)
    assert lines.index(rounding_line) + 1 == lines.index(settlement_line)
    assert settlement_line.split()[1:] == [f"{'+' if v > 0 else ''}{v}" for v in s.result.values()]
    assert f"the last row is what rounding {rounding} moves" in out.stdout


def test_nearest_by_hand(tmp_path: Path) -> None:
    # 110/3 = 36.67, 104/3 = 34.67, −214/3 = −71.33: down to 36, 34, −72 (short by 2),
    # the remainders all 2/3: +1 to the first two by seat → 37, 35, −72
    lg = ledger_file(str(small(tmp_path)), rounding="nearest")
    assert lg.settlement.result == {"Anna": 37, "Boris": 35, "Vera": -72}
    assert lg.rounding == {"Anna": Fraction(1, 3), "Boris": Fraction(1, 3), "Vera": Fraction(-2, 3)}


def test_under_exact_the_table_says_the_rows_add_up(tmp_path: Path) -> None:
    out = run("ledger", str(small(tmp_path)))
    assert out.exit_code == 0, out.output
    assert "The rows add up exactly to the settlement (rounding exact" in out.stdout
    assert "rounding exact" not in [line.strip() for line in out.stdout.splitlines()]
    assert "+13⅓" in out.stdout and "-66⅔" in out.stdout
    assert "settlement" in out.stdout.splitlines()[-4]


def test_running_totals(tmp_path: Path) -> None:
    out = run("ledger", str(small(tmp_path)), "--running", "-f", "json")
    doc = json.loads(out.stdout)
    assert [d["running_exact"]["Anna"] for d in doc["deals"]] == ["40/3", "0", "10/3", "110/3"]
    table = run("ledger", str(small(tmp_path)), "--running").stdout
    assert "running Anna" in table and "running Vera" in table
    assert "running_Anna" in run("ledger", str(small(tmp_path)), "--running", "-f", "csv").stdout
    assert "running" not in run("ledger", str(small(tmp_path)), "-f", "json").stdout


def test_money_adds_up_to_score_money_to_the_cent(tmp_path: Path) -> None:
    path = str(small(tmp_path))
    for rounding in ("exact", "nearest", "kodeks"):
        doc = json.loads(
            run("ledger", path, "-f", "json", "--whist-price", "0.35", "--rounding", rounding).stdout
        )
        score = json.loads(
            run("score", path, "-f", "json", "--whist-price", "0.35", "--rounding", rounding).stdout
        )
        assert doc["money"] == score["money"] and doc["whist_price"] == 0.35
        for p in doc["players"]:
            cents = sum(round(d["money"][p] * 100) for d in doc["deals"]) + round(
                doc["rounding"]["money"][p] * 100
            )
            assert cents == round(score["money"][p] * 100), (rounding, p)
            for d in doc["deals"]:  # a deal's money is its result × price, within a cent
                assert abs(
                    Fraction(d["result_exact"][p]) * Fraction("0.35") - Fraction(str(d["money"][p]))
                ) <= Fraction(1, 100)
        if rounding == "exact":
            assert all(v == 0 for v in doc["rounding"]["money"].values())


def test_json_shape(tmp_path: Path) -> None:
    path = str(small(tmp_path))
    players = {"Anna", "Boris", "Vera"}
    doc = json.loads(run("ledger", path, "-f", "json", "--running", "--whist-price", "0.5").stdout)
    check("ledger-json", doc, players)
    assert list(doc) == [
        "schema_version",
        "players",
        "deals",
        "rounding",
        "settlement",
        "settlement_exact",
        "whist_price",
        "money",
    ]
    assert list(doc["deals"][0])[:4] == ["number", "dealer", "text", "result"]
    # without options: the shape, with the exact fractions beside the numbers
    doc = json.loads(run("ledger", path, "-f", "json").stdout)
    optional = {
        k for k in documented("ledger-json") if k.startswith(("whist_price", "money", "rounding.money"))
    }
    optional |= {k for k in documented("ledger-json") if k.startswith(("deals[].running", "deals[].money"))}
    assert set(flatten(doc, players)) == set(documented("ledger-json")) - optional
    assert doc["deals"][0] == {
        "number": 1,
        "dealer": "Vera",
        "text": "Anna 6♠, Boris pass, Vera pass",
        "result": {"Anna": 13.33, "Boris": -6.67, "Vera": -6.67},
        "result_exact": {"Anna": "40/3", "Boris": "-20/3", "Vera": "-20/3"},
    }
    assert doc["rounding"] == {
        "name": "exact",
        "result": {"Anna": 0, "Boris": 0, "Vera": 0},
        "result_exact": {"Anna": "0", "Boris": "0", "Vera": "0"},
    }
    score = json.loads(run("score", path, "-f", "json").stdout)
    assert doc["settlement"] == score["settlement"] and doc["settlement_exact"] == score["settlement_exact"]


def test_jsonl_and_csv_shapes(tmp_path: Path) -> None:
    path = str(small(tmp_path))
    players = {"Anna", "Boris", "Vera"}
    lines = [
        json.loads(x)
        for x in run(
            "ledger", path, "-f", "jsonl", "--whist-price", "1", "--rounding", "nearest"
        ).stdout.splitlines()
    ]
    assert [x["row"] for x in lines] == ["deal"] * 4 + ["rounding"]
    deal_fields = {
        k.removeprefix("deals[]."): t
        for k, t in documented("ledger-json").items()
        if k.startswith("deals[].")
    }
    for x in lines[:-1]:
        got = flatten(x, players)
        assert set(got) - {"schema_version", "row"} <= set(deal_fields)
    check("ledger-jsonl-rounding", lines[-1], players)
    total = {p: sum(Fraction(x["result_exact"][p]) for x in lines) for p in players}
    assert total == {"Anna": 37, "Boris": 35, "Vera": -72}
    for fmt, sep in (("csv", ","), ("tsv", "\t")):
        rows = list(
            csv.reader(
                io.StringIO(run("ledger", path, "-f", fmt, "--running", "--whist-price", "1").stdout),
                delimiter=sep,
            )
        )
        head = [
            h.rsplit("_", 1)[0] + "_<player>" if h.endswith(("_Anna", "_Boris", "_Vera")) else h
            for h in rows[0]
        ]
        assert list(dict.fromkeys(head)) == list(documented("ledger-csv"))
        assert [r[0] for r in rows[1:]] == ["1", "2", "3", "4", ""]
        assert rows[-1][2] == "rounding exact"


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("running", [False, True])
def test_every_format_renders(fmt: str, running: bool) -> None:
    lg = ledger_file(str(ROOT / "examples" / "sochi-3p.txt"), price=Decimal("0.5"))
    text = render(LedgerView(lg, running), fmt)
    assert text.endswith("\n") and len(text.splitlines()) >= 31
    if fmt == "json":
        assert len(json.loads(text)["deals"]) == 30
    elif fmt == "jsonl":
        assert len(text.splitlines()) == 31
    elif fmt in ("csv", "tsv"):
        assert len(list(csv.reader(io.StringIO(text), delimiter="," if fmt == "csv" else "\t"))) == 32


def test_a_rounding_that_cannot_settle_fails_as_score_does() -> None:
    path = str(ROOT / "examples" / "leningrad-4p.yaml")
    got = run("ledger", path, "--rounding", "kodeks")
    want = run("score", path, "--rounding", "kodeks")
    # --rounding's mistake: usage, named by the option (issue 10 item 6)
    assert got.exit_code == want.exit_code == 2
    assert "'--rounding'" in got.stderr and "3 players" in got.stderr and "3 players" in want.stderr
    with pytest.raises(PulyaError):
        ledger_file(path, rounding="kodeks")


def test_bad_input_is_located_and_a_bad_price_is_named(tmp_path: Path) -> None:
    bad = small(tmp_path, SMALL + "Boris 7NT 7, Vera whist 2, Anna pass 2\n")
    r = run("ledger", str(bad))
    assert r.exit_code == 1 and f"{bad}:9:1:" in r.stderr and "Traceback" not in r.output
    r = run("ledger", str(small(tmp_path)), "--whist-price", "much")
    assert r.exit_code == 2 and "--whist-price" in r.stderr
    r = run("ledger", str(small(tmp_path)), "--rounding", "sometimes")
    assert r.exit_code == 2 and "--rounding" in r.stderr


def test_a_bad_log_says_its_problems_and_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "bad.pulya"
    path.write_text("players: Anna Boris Vera\n\nAnna 6♠ 7, Boris whist 9, Vera pass 1\n", encoding="utf-8")
    for fmt in FORMATS:
        got = run("ledger", str(path), "--running", "-f", fmt)
        assert got.exit_code == 1
        assert f"{path}:3:" in got.stderr
        assert not got.stdout


def test_reads_standard_input() -> None:
    r = run("ledger", "-", "-f", "jsonl", input=SMALL)
    assert r.exit_code == 0, r.output
    assert len(r.stdout.splitlines()) == 5


def test_explain_deal_shows_its_ledger_row(tmp_path: Path) -> None:
    path = str(small(tmp_path))
    r = run("explain", path, "--deal", "2")
    assert r.exit_code == 0, r.output
    assert "  moves the results: Anna -13⅓, Boris +14⅔, Vera -1⅓\n" in r.stdout
    # every deal of plain explain, in JSON too, is the ledger's row for it
    doc = json.loads(run("explain", path, "-f", "json").stdout)
    rows = json.loads(run("ledger", path, "-f", "json").stdout)["deals"]
    assert [d["ledger_exact"] for d in doc["deals"]] == [row["result_exact"] for row in rows]
    assert [d["ledger"] for d in doc["deals"]] == [row["result"] for row in rows]
    assert run("explain", path).stdout.count("moves the results:") == 4
