"""The example evenings in examples/: each one run through the real command line
(`pulyacalc score|settle EXAMPLE -f json`, CliRunner with prog_name="pulyacalc") must
print exactly its expected file in examples/expected/, and a few numbers of each were
worked out by hand from RULES.md (examples/HANDCHECK.md) before the expected files
were written.

To refresh the expected files after a deliberate change: `python examples/regenerate.py`
(never from CI), then re-check the changed numbers by hand.
"""

from __future__ import annotations

import importlib.util
import json
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.play import score_file

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES_DIR = ROOT / "examples"
EXPECTED_DIR = EXAMPLES_DIR / "expected"


def _load_regenerate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("examples_regenerate", EXAMPLES_DIR / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REGEN = _load_regenerate()
EXAMPLES: dict[str, tuple[str, str]] = REGEN.EXAMPLES


def run_json(name: str, *extra: str) -> dict[str, Any]:
    command, rel = EXAMPLES[name]
    result = CliRunner().invoke(
        app, [command, str(EXAMPLES_DIR / rel), "-f", "json", *extra], prog_name="pulyacalc"
    )
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def expected(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((EXPECTED_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return doc


# -- every example against its expected file ---------------------------------------------


def test_every_example_has_an_expected_file_and_back() -> None:
    assert {p.stem for p in EXPECTED_DIR.glob("*.json")} == set(EXAMPLES)
    for _, rel in EXAMPLES.values():
        assert (EXAMPLES_DIR / rel).is_file(), rel


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_matches_expected(name: str) -> None:
    assert run_json(name) == expected(name)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_settlement_sums_to_zero(name: str) -> None:
    doc = expected(name)
    assert sum(Fraction(v) for v in doc["settlement_exact"].values()) == 0


def test_regenerate_check_reports_nothing_to_change(capsys: pytest.CaptureFixture[str]) -> None:
    """The helper that refreshes expected files agrees with the files as committed
    (run in --check mode: it writes nothing)."""
    assert REGEN.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out


# -- hand-checked numbers (examples/HANDCHECK.md) ------------------------------------------


def sheet_rows(doc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, dict[str, Any]]]:
    sheet = doc["sheet"]
    pools = {p: row["pool"] for p, row in sheet.items()}
    mountains = {p: row["mountain"] for p, row in sheet.items()}
    whists = {p: row["whists"] for p, row in sheet.items()}
    return pools, mountains, whists


def test_sochi_by_hand() -> None:
    doc = expected("sochi-3p")
    pools, mountains, whists = sheet_rows(doc)
    assert doc["deals"] == 30 and doc["finished"] is True
    assert pools == {"Anna": 20, "Boris": 20, "Vera": 20}
    assert mountains == {"Anna": 12, "Boris": 36, "Vera": 39}
    assert whists == {
        "Anna": {"Boris": 56, "Vera": 78},
        "Boris": {"Anna": 34, "Vera": 50},
        "Vera": {"Anna": 10, "Boris": 66},
    }
    stages = doc["stages"]
    assert stages["mountain_equivalent"] == {"Anna": 12, "Boris": 36, "Vera": 39}
    assert stages["mountain_result"] == {"Anna": 170, "Boris": -70, "Vera": -100}
    assert stages["whist_result"] == {"Anna": 90, "Boris": -38, "Vera": -52}
    assert doc["settlement"] == {"Anna": 260, "Boris": -108, "Vera": -152}


def test_sochi_five_by_hand() -> None:
    doc = expected("sochi-5p")
    pools, mountains, whists = sheet_rows(doc)
    assert doc["deals"] == 10 and doc["finished"] is False
    assert pools == {"Anna": 10, "Boris": 10, "Vera": 2, "Gleb": 0, "Dima": 4}
    assert mountains == {"Anna": 6, "Boris": 2, "Vera": 4, "Gleb": 10, "Dima": 12}
    assert whists["Anna"] == {"Boris": 10, "Vera": 4, "Gleb": 0, "Dima": 42}
    assert whists["Gleb"] == {"Anna": 0, "Boris": 0, "Vera": 22, "Dima": 8}
    stages = doc["stages"]
    assert stages["mountain_result"] == {"Anna": 56, "Boris": 96, "Vera": -4, "Gleb": -84, "Dima": -64}
    assert stages["whist_result"] == {"Anna": 56, "Boris": -16, "Vera": -8, "Gleb": 30, "Dima": -62}
    assert doc["settlement"] == {"Anna": 112, "Boris": 80, "Vera": -12, "Gleb": -54, "Dima": -126}


def test_gusarik_by_hand() -> None:
    doc = expected("gusarik-2p")
    pools, mountains, whists = sheet_rows(doc)
    assert doc["deals"] == 8 and doc["finished"] is True
    assert pools == {"Oleg": 10, "Polina": 10}
    assert mountains == {"Oleg": 4, "Polina": 12}
    assert whists == {"Oleg": {"Polina": 24}, "Polina": {"Oleg": 44}}
    stages = doc["stages"]
    assert stages["mountain_result"] == {"Oleg": 80, "Polina": -80}
    assert stages["whist_result"] == {"Oleg": -20, "Polina": 20}
    assert doc["settlement"] == {"Oleg": 60, "Polina": -60}


def test_join_leave_by_hand() -> None:
    doc = expected("sochi-join-leave")
    pools, mountains, whists = sheet_rows(doc)
    assert doc["deals"] == 8 and doc["finished"] is False
    assert pools == {"Kostya": 8, "Lena": 0, "Misha": 10, "Nina": 10}
    assert mountains == {"Kostya": 5, "Lena": 6, "Misha": 1, "Nina": 2}
    assert whists["Misha"] == {"Kostya": 2, "Lena": 20, "Nina": 32}
    stages = doc["stages"]
    assert stages["mountain_result"] == {"Kostya": -5, "Lena": -95, "Misha": 55, "Nina": 45}
    assert stages["whist_result"] == {"Kostya": -32, "Lena": -4, "Misha": 54, "Nina": -18}
    assert doc["settlement"] == {"Kostya": -37, "Lena": -99, "Misha": 109, "Nina": 27}


def test_sochi_help_deals_by_hand() -> None:
    """Deal 26: Anna (closed) takes no trick on raspasy: her 1 point helps Boris, tied 16:16
    with Vera, because he sits next clockwise; deal 28: 3 to Boris, 1 to Vera; deal 30: the
    last point goes off Vera's mountain."""
    ev = score_file(str(EXAMPLES_DIR / "sochi-3p.txt"), keep=True)
    by_deal = {r.number: r for r in ev.results}

    def pools_and_help(n: int) -> list[tuple[str, str, str, Any, str | None]]:
        return [
            (e.rule, e.player, e.area, e.amount, e.on)
            for e in by_deal[n].entries
            if e.rule in ("help", "help-whists", "written-off")
        ]

    assert pools_and_help(26) == [
        ("help", "Boris", "pool", 1, None),
        ("help-whists", "Anna", "whists", 10, "Boris"),
    ]
    assert pools_and_help(28) == [
        ("help", "Boris", "pool", 3, None),
        ("help-whists", "Anna", "whists", 30, "Boris"),
        ("help", "Vera", "pool", 1, None),
        ("help-whists", "Anna", "whists", 10, "Vera"),
    ]
    assert pools_and_help(30) == [("written-off", "Vera", "mountain", -1, None)]


def test_sochi_raspasy_run_by_hand() -> None:
    """Deals 4-6: a run of three raspasy at 1, 2, 3 a trick; Boris pays 1 + 8 + 3."""
    ev = score_file(str(EXAMPLES_DIR / "sochi-3p.txt"), keep=True)
    by_deal = {r.number: r for r in ev.results}
    assert [by_deal[n].raspasy_run for n in (4, 5, 6, 7)] == [1, 2, 3, 0]
    mountain = {
        n: {e.player: e.amount for e in by_deal[n].entries if e.area == "mountain"} for n in (4, 5, 6)
    }
    assert mountain == {4: {"Boris": 1}, 5: {"Boris": 8, "Vera": 12}, 6: {"Boris": 3}}
    assert [(e.player, e.amount) for e in by_deal[5].entries if e.area == "pool"] == [("Anna", 2)]


def test_leningrad_by_hand() -> None:
    doc = expected("leningrad-4p")
    pools, mountains, whists = sheet_rows(doc)
    assert doc["deals"] == 27 and doc["finished"] is True
    assert pools == {"Gleb": 20, "Dasha": 18, "Egor": 25, "Zhenya": 20}
    assert sum(pools.values()) == 83  # past 4 × 20, no help
    assert mountains == {"Gleb": 26, "Dasha": 36, "Egor": 20, "Zhenya": 40}
    assert whists["Gleb"] == {"Dasha": 44, "Egor": 64, "Zhenya": 36}
    assert whists["Zhenya"] == {"Gleb": 24, "Dasha": 20, "Egor": 24}
    stages = doc["stages"]
    # G = M + 2 × (20 − P): Dasha 36 + 4, Egor 20 − 10
    assert stages["mountain_equivalent"] == {"Gleb": 26, "Dasha": 40, "Egor": 10, "Zhenya": 40}
    assert stages["mountain_result"] == {"Gleb": 30, "Dasha": -110, "Egor": 190, "Zhenya": -110}
    assert stages["whist_result"] == {"Gleb": 48, "Dasha": 6, "Egor": -2, "Zhenya": -52}
    assert doc["settlement"] == {"Gleb": 78, "Dasha": -104, "Egor": 188, "Zhenya": -162}


def test_leningrad_dealer_deals_by_hand() -> None:
    """Deal 6: 8♦ without one, gentleman: (3 × 12 + 2 × 12) / 2 = 30 each, dealer Gleb 12;
    deal 12: the talon gave the dealer Egor nothing: no amnesty, Egor's pool +1."""
    ev = score_file(str(EXAMPLES_DIR / "leningrad-4p.yaml"), keep=True)
    by_deal = {r.number: r for r in ev.results}
    assert by_deal[6].dealer == "Gleb"
    assert sorted((e.player, e.area, e.amount, e.on) for e in by_deal[6].entries) == [
        ("Dasha", "whists", 30, "Zhenya"),
        ("Egor", "whists", 30, "Zhenya"),
        ("Gleb", "whists", 12, "Zhenya"),
        ("Zhenya", "mountain", 12, None),
    ]
    assert by_deal[12].dealer == "Egor"
    assert sorted((e.player, e.area, e.amount) for e in by_deal[12].entries) == [
        ("Dasha", "mountain", 6),
        ("Egor", "pool", 1),
        ("Gleb", "mountain", 6),
        ("Zhenya", "mountain", 8),
    ]


def test_rostov_by_hand() -> None:
    doc = expected("rostov-3p")
    pools, mountains, whists = sheet_rows(doc)
    assert doc["deals"] == 14 and doc["finished"] is True
    assert pools == {"Igor": 10, "Kira": 10, "Lev": 10}
    assert mountains == {"Igor": 0, "Kira": 4, "Lev": 10}
    assert whists == {
        "Igor": {"Kira": 51, "Lev": 62},
        "Kira": {"Igor": 24, "Lev": 29},
        "Lev": {"Igor": 2, "Kira": 34},
    }
    assert doc["settlement_exact"] == {"Igor": "401/3", "Kira": "-76/3", "Lev": "-325/3"}
    assert doc["settlement"] == {"Igor": 133.67, "Kira": -25.33, "Lev": -108.33}


def test_classic_by_hand() -> None:
    """examples/HANDCHECK.md, classic-3p.txt: bombs, dark play and a dealer who stays."""
    doc = expected("classic-3p")
    pools, mountains, whists = sheet_rows(doc)
    assert doc["deals"] == 10 and doc["finished"] is False
    assert pools == {"Anna": 12, "Boris": 8, "Vera": 20}
    # deal 10: Anna short 1 with her pool open, half the remise (K3.8.12): 1 × 1 × 4
    assert mountains == {"Anna": 68, "Boris": 48, "Vera": 4}
    assert whists == {
        "Anna": {"Boris": 16, "Vera": 48},
        "Boris": {"Anna": 24, "Vera": 0},
        "Vera": {"Anna": 40, "Boris": 56},
    }
    assert doc["bombs"] == {"Anna": [4, 8, 4], "Boris": [4, 8], "Vera": [4, 8, 2, 4]}
    assert doc["stages"]["mountain_result"] == {"Anna": -293.33, "Boris": -133.33, "Vera": 426.67}
    assert doc["settlement_exact"] == {"Anna": "-880/3", "Boris": "-544/3", "Vera": "1424/3"}


def test_rostov_raspasy_tie_by_hand() -> None:
    """Deal 2 (2/2/6): Igor and Kira each write 15 on Lev; deal 9 (3/4/3): 10 each on Kira."""
    ev = score_file(str(EXAMPLES_DIR / "rostov-3p.yaml"), keep=True)
    by_deal = {r.number: r for r in ev.results}
    assert sorted((e.player, e.amount, e.on) for e in by_deal[2].entries) == [
        ("Igor", 15, "Lev"),
        ("Kira", 15, "Lev"),
    ]
    assert sorted((e.player, e.amount, e.on) for e in by_deal[9].entries) == [
        ("Igor", 10, "Kira"),
        ("Lev", 10, "Kira"),
    ]


def test_house_rules_by_hand() -> None:
    doc = expected("house-rules")
    pools, mountains, whists = sheet_rows(doc)
    assert doc["convention"] == "house"
    assert doc["finished"] is False
    assert pools == {"Anna": 0, "Boris": 4, "Vera": 10}
    # raspasy 3 at 4 a trick (progression 1 2 4): Vera and Anna 2 × 4 = 8 each
    assert mountains == {"Anna": 12, "Boris": 1, "Vera": 14}
    # gentleman whist on deal 1: (5 × 2 + 2 × 2) / 2 = 7 each
    assert whists["Boris"]["Anna"] == 7 and whists["Vera"]["Anna"] == 7
    assert doc["settlement_exact"] == {"Anna": "-272/3", "Boris": "205/3", "Vera": "67/3"}


def test_house_rules_work_from_another_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`convention: house.yaml` is found beside the log, wherever the command runs."""
    monkeypatch.chdir(tmp_path)
    assert run_json("house-rules")["convention"] == "house"


def test_sheet_kodeks_by_hand() -> None:
    doc = expected("sheet")
    stages = doc["stages"]
    assert stages["amnestied_mountain"] == {"A": 0, "B": 20, "C": 8}
    assert stages["kodeks_mountain"] == {"A": 0, "B": 21, "C": 9}
    assert stages["kodeks_whists"] == {"A": {"B": 0, "C": 0}, "B": {"A": 3, "C": 3}, "C": {"A": 3, "B": 3}}
    assert stages["mountain_result"] == {"A": 100, "B": -110, "C": 10}
    assert doc["settlement"] == {"A": 62, "B": -101, "C": 39}


def test_leningrad_50_sheet_is_rules_case_8() -> None:
    doc = expected("leningrad-50-sheet")
    stages = doc["stages"]
    assert stages["mountain_equivalent"] == {"One": 22, "Two": 12, "Three": 70, "Four": 132}
    assert stages["amnestied_mountain"] == {"One": 10, "Two": 0, "Three": 58, "Four": 120}
    assert stages["average_mountain"] == 47
    assert stages["mountain_result"] == {"One": 370, "Two": 470, "Three": -110, "Four": -730}
    assert stages["whist_result"] == {"One": 56, "Two": 112, "Three": -96, "Four": -72}
    assert doc["settlement"] == {"One": 426, "Two": 582, "Three": -206, "Four": -802}


# -- as a new user meets them ---------------------------------------------------------------


def test_sochi_table_is_readable() -> None:
    result = CliRunner().invoke(app, ["score", str(EXAMPLES_DIR / "sochi-3p.txt")], prog_name="pulyacalc")
    assert result.exit_code == 0, result.output
    assert "30 deals — the pulya is finished" in result.stdout
    assert "Anna" in result.stdout and "260" in result.stdout and "-152" in result.stdout


def test_leningrad_csv() -> None:
    result = CliRunner().invoke(
        app, ["score", str(EXAMPLES_DIR / "leningrad-4p.yaml"), "-f", "csv"], prog_name="pulyacalc"
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("player,pool,mountain,")
    assert lines[1:] == [
        "Gleb,20,26,,44,64,36,26,30,48,78,78",
        "Dasha,18,36,60,,16,38,40,-110,6,-104,-104",
        "Egor,25,20,12,44,,46,10,190,-2,188,188",
        "Zhenya,20,40,24,20,24,,40,-110,-52,-162,-162",
    ]
