"""`settle`: the stages players do on paper, the RULES.md §5 Leningrad example stage by stage."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from helpers import INTERFACE_SHEET
from typer.testing import CliRunner

from pulyacalc.cli.app import app

LENINGRAD_4 = """players: [A, B, C, D]
convention: leningrad
pool: 50
sheet:
  A: {pool: 78, mountain: 78}
  B: {pool: 74, mountain: 60}
  C: {pool: 32, mountain: 34}
  D: {pool: 22, mountain: 76}
"""


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc", input=input)


def stage(out: str, number: int) -> str:
    """The text of stage ``number`` ("2. Pools brought …" up to the next stage)."""
    m = re.search(rf"(?ms)^{number}\. .*?(?=^\d+\. |\Z)", out)
    assert m, f"no stage {number}"
    return m.group(0)


def row(block: str, player: str) -> list[str]:
    line = next(x for x in block.splitlines() if x.startswith(player + " "))
    return line.split()


def test_leningrad_four_players_stage_by_stage() -> None:
    r = run("settle", "-", input=LENINGRAD_4)
    assert r.exit_code == 0, r.output
    out = r.stdout
    # 2: pools to the mountain, 2 mountain points a pool point
    s2 = stage(out, 2)
    assert "G = mountain + 2 × (target 50 − pool)" in s2
    assert [row(s2, p)[-1] for p in "ABCD"] == ["22", "12", "70", "132"]
    assert "78 + 2 × (50 − 78)" in s2
    # 3: amnesty of the smallest, 12
    s3 = stage(out, 3)
    assert "the smallest G, 12" in s3
    assert [row(s3, p)[-1] for p in "ABCD"] == ["10", "0", "58", "120"]
    # 4: average mountain 47 and the mountain results
    s4 = stage(out, 4)
    assert "(10 + 0 + 58 + 120) / 4 = 188 / 4 = 47" in s4
    assert [row(s4, p)[-1] for p in "ABCD"] == ["+370", "+470", "-110", "-730"]
    # 5: each pays each: A pays each 25, D pays each 300; nets equal the mountain results
    s5 = stage(out, 5)
    assert row(s5, "A")[1] == "25" and row(s5, "D")[1] == "300"
    assert [row(s5, p)[-1] for p in "ABCD"] == ["+370", "+470", "-110", "-730"]
    assert row(s5, "A")[2:5] == ["·", "-25", "+120"]
    # 6: no whists; 7: the total
    assert [row(stage(out, 6), p)[-1] for p in "ABCD"] == ["0", "0", "0", "0"]
    assert [row(stage(out, 7), p)[-1] for p in "ABCD"] == ["+370", "+470", "-110", "-730"]


def test_json_keeps_the_interface_shape_and_adds_the_stages() -> None:
    r = run("settle", "-", "-f", "json", input=LENINGRAD_4)
    doc = json.loads(r.stdout)
    assert doc["players"] == ["A", "B", "C", "D"]
    assert doc["sheet"]["A"] == {"pool": 78, "mountain": 78, "whists": {"B": 0, "C": 0, "D": 0}}
    assert doc["settlement"] == {"A": 370, "B": 470, "C": -110, "D": -730}
    st = doc["stages"]
    assert st["mountain_equivalent"] == {"A": 22, "B": 12, "C": 70, "D": 132}
    assert st["amnestied_mountain"] == {"A": 10, "B": 0, "C": 58, "D": 120}
    assert st["average_mountain"] == 47
    assert st["each_pays_each"]["A"] == {"B": -25, "C": 120, "D": 275}


def test_kodeks_rounding_shows_the_moves_and_their_whists() -> None:
    r = run("settle", "-", "--whist-price", "0.5", input=INTERFACE_SHEET)
    assert r.exit_code == 0, r.output
    out = r.stdout
    s4 = stage(out, 4)
    assert "Kodeks rounding (K4.2.12)" in s4
    assert row(s4, "B")[1:3] == ["20", "21"] and "up one" in s4
    s7 = stage(out, 7)
    assert "12 − 25 = -13" in s7  # B wrote 22 + 3 kodeks whists on A
    total = stage(out, 8)
    assert [row(total, p)[-2] for p in "ABC"] == ["+62", "-101", "+39"]
    assert [row(total, p)[-1] for p in "ABC"] == ["31.00", "-50.50", "19.50"]
    assert "payments: B pays A 31.00; B pays C 19.50" in out


def test_rounding_options() -> None:
    sheet = INTERFACE_SHEET.replace("rounding: kodeks\n", "")
    exact = json.loads(run("settle", "-", "-f", "json", input=sheet).stdout)
    assert exact["settlement_exact"] == {"A": "184/3", "B": "-302/3", "C": "118/3"}
    near = json.loads(run("settle", "-", "-f", "json", "--rounding", "nearest", input=sheet).stdout)
    # 61.33, -100.67, 39.33: floors 61, -101, 39, and the missing one to the first in seating (a tie)
    assert near["settlement"] == {"A": 62, "B": -101, "C": 39}
    r = run("settle", "-", "--rounding", "nearest", input=sheet)
    assert "result" in stage(r.stdout, 7).splitlines()[1]  # the rounded result beside the total
    r = run("settle", "-", "--rounding", "kodeks", input=LENINGRAD_4)
    assert r.exit_code == 2 and "kodeks rounding" in r.stderr


def test_csv_still_works(tmp_path: Path) -> None:
    r = run("settle", "-", "-f", "csv", input=LENINGRAD_4)
    assert r.exit_code == 0
    assert r.stdout.splitlines()[1].startswith("A,78,78,")
