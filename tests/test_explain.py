"""`explain`: every entry with its rule and arithmetic; the entries add up to `score`."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from logs_gen import random_log
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.rulebook import RULEBOOK
from pulyacalc.play import score_file

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc", input=input)


def example_logs() -> list[Path]:
    """Every log in examples/ (line logs, and YAML files with deals:), found at test time."""
    out = []
    for p in sorted((ROOT / "examples").rglob("*")):
        if p.suffix == ".txt" or (
            p.suffix in (".yaml", ".yml") and re.search(r"(?m)^deals:", p.read_text("utf-8"))
        ):
            out.append(p)
    return out


def add_up(entries: list[dict[str, Any]], players: list[str]) -> dict[str, Any]:
    sheet: dict[str, Any] = {
        p: {
            "pool": Fraction(0),
            "mountain": Fraction(0),
            "whists": {q: Fraction(0) for q in players if q != p},
        }
        for p in players
    }
    for e in entries:
        x = Fraction(e["amount_exact"])
        if e["area"] == "whists":
            sheet[e["player"]]["whists"][e["on"]] += x
        else:
            sheet[e["player"]][e["area"]] += x
    return sheet


def assert_adds_up(path: Path, *extra: str) -> None:
    ex = run("explain", str(path), "-f", "json", *extra)
    assert ex.exit_code == 0, ex.output
    doc = json.loads(ex.stdout)
    sc = run("score", str(path), "-f", "json", *extra)
    assert sc.exit_code == 0, sc.output
    printed = json.loads(sc.stdout)["sheet"]
    # everyone on the final sheet: the head streams out before a newcomer joins (RULES.md 6.3)
    players = list(doc["sheet"])
    total = add_up(doc["entries"], players)
    exact = score_file(str(path), convention=extra[1] if extra else None).sheet
    for p in players:
        for area in ("pool", "mountain"):
            assert total[p][area] == Fraction(getattr(exact, area)[p]), (path, p, area)
            assert abs(float(total[p][area]) - printed[p][area]) < 0.005, (path, p, area)
        for q, v in total[p]["whists"].items():
            assert v == Fraction(exact.whists[p][q]), (path, p, q)
            assert abs(float(v) - printed[p]["whists"][q]) < 0.005, (path, p, q)
    # and every deal's running totals are the entries so far
    for d in doc["deals"]:
        so_far = add_up([e for e in doc["entries"] if e["deal"] <= d["deal"]], players)
        for p in d["running"]:  # a newcomer has no column before he joins (RULES.md 6.3)
            assert abs(float(so_far[p]["mountain"]) - d["running"][p]["mountain"]) < 0.005


@pytest.mark.parametrize("path", example_logs(), ids=lambda p: p.name)
def test_explain_adds_up_to_score_for_every_example(path: Path) -> None:
    assert_adds_up(path)


def test_there_are_examples_to_explain() -> None:
    assert example_logs(), "examples/ has no logs"


@pytest.mark.parametrize(
    ("seed", "convention", "players"),
    [(s, c, n) for s in (1, 2, 3) for c in ("sochi", "leningrad", "rostov") for n in (3, 4)],
)
def test_explain_adds_up_to_score_for_generated_logs(
    tmp_path: Path, seed: int, convention: str, players: int
) -> None:
    path = tmp_path / "gen.yaml"
    path.write_text(random_log(seed, convention, players), encoding="utf-8")
    assert_adds_up(path)
    # and under another convention than the log's
    other = {"sochi": "leningrad", "leningrad": "sochi", "rostov": "sochi"}[convention]
    assert_adds_up(path, "-c", other)


LOG = """players: Anna Boris Vera
convention: leningrad
pool: 20

Boris 6♦ 5, Vera whist 3, Anna pass 2
Anna 6♠ 7, Boris whist 2, Vera whist 1
"""


def test_entry_sentences_show_rule_and_arithmetic(tmp_path: Path) -> None:
    path = tmp_path / "e.txt"
    path.write_text(LOG, encoding="utf-8")
    r = run("explain", str(path))
    assert r.exit_code == 0, r.output
    out = r.stdout
    # Leningrad, gentleman whist on a failed 6 with one whister: (5 × 4 + 2 × 1 × 4) / 2 = 14
    assert "Deal 1 (" in out and "dealer Vera" in out
    assert re.search(
        r"Vera\s+whists on Boris\s+\+14\s+\(5 tricks × 4 \+ 2 × 1 undertrick × 4\) / 2 = 28 / 2 = 14", out
    )
    assert "gentleman §2.3 K3.8.14" in out
    # the second deal: the one-trick whister is short by one (K3.8.6), half responsibility 2
    assert re.search(r"Vera\s+mountain\s+\+2\s+took 1 of his half 2 of the obligation 4: 1 × 2 = 2", out)
    # running totals after deal 2: Boris wrote 14 + 8 on ... and Anna's pool 2
    block = out.split("after deal 2")[1]
    anna = next(line for line in block.splitlines() if line.strip().startswith("Anna"))
    assert anna.split()[1:3] == ["2", "0"]


def test_jsonl_is_one_object_per_entry_with_deal_rule_and_amounts(tmp_path: Path) -> None:
    path = tmp_path / "e.txt"
    path.write_text(LOG, encoding="utf-8")
    r = run("explain", str(path), "-f", "jsonl")
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["deal"] for x in rows] == [1, 1, 1, 2, 2, 2, 2]
    assert all(x["rule"] in RULEBOOK and x["section"] == RULEBOOK[x["rule"]].section for x in rows)
    gentle = [x for x in rows if x["rule"] == "gentleman"]
    assert [(x["player"], x["on"], x["amount"]) for x in gentle] == [
        ("Vera", "Boris", 14),
        ("Anna", "Boris", 14),
    ]


def test_deal_option_explains_one_deal_and_refuses_a_missing_one(tmp_path: Path) -> None:
    path = tmp_path / "e.txt"
    path.write_text(LOG, encoding="utf-8")
    r = run("explain", str(path), "--deal", "2", "-f", "json")
    doc = json.loads(r.stdout)
    assert {e["deal"] for e in doc["entries"]} == {2}
    assert doc["deals"][0]["running"]["Anna"]["pool"] == 2
    r = run("explain", str(path), "--deal", "9")
    assert r.exit_code == 2 and "has 2 deals" in r.stderr


def test_csv_has_a_row_per_entry(tmp_path: Path) -> None:
    path = tmp_path / "e.txt"
    path.write_text(LOG, encoding="utf-8")
    r = run("explain", str(path), "-f", "csv")
    lines = r.stdout.splitlines()
    assert lines[0].startswith("deal,rule,section,player,area,on,amount")
    assert len(lines) == 1 + 7


def test_a_wrong_log_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "e.txt"
    path.write_text(LOG + "Anna 6♠ 7, Boris whist 2, Vera whist 2\n", encoding="utf-8")
    r = run("explain", str(path))
    assert r.exit_code == 1
    assert f"{path}:7" in r.stderr and "Traceback" not in r.output


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("path", example_logs(), ids=lambda p: p.name)
def test_each_deal_shows_its_paper_once(path: Path, lang: str) -> None:
    # a deal's block is its line, its entries, its moves and then the paper after it, once
    # (a revert once left the paper drawn twice under every deal)
    out = run("explain", "--lang", lang, str(path)).stdout
    heads = re.findall(r"(?m)^ {4}(after deal \d+|после сдачи \d+)\b", out)
    assert heads, out[:500]
    assert len(heads) == len(set(heads)), [h for h in heads if heads.count(h) > 1][:3]


def test_deal_n_of_a_log_with_seat_changes_is_that_deal() -> None:
    """A seat change is no deal: ``--deal 4`` after a join said the log had 3 deals."""
    log = str(Path(__file__).resolve().parents[1] / "examples" / "sochi-join-leave.txt")
    for n, dealer in [(3, "Lena"), (4, "Nina"), (6, "Kostya"), (8, "Misha")]:
        r = CliRunner().invoke(app, ["explain", log, "--deal", str(n)])
        assert r.exit_code == 0, r.output
        assert f"\n\nDeal {n} (" in r.stdout and f"dealer {dealer}:" in r.stdout
        assert "Table change" not in r.stdout
