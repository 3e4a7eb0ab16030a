"""RULES.md §5: every worked case, with the numbers RULES.md states (worked by hand)."""

from __future__ import annotations

from dataclasses import replace

from helpers import Run, run, run_text
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.load import load
from pulyacalc.core.sheet import SheetView
from pulyacalc.scoring.settlement import settle

ABC = ("A", "B", "C")
ABCD = ("A", "B", "C", "D")


def test_case_1_six_two_whisters_2_and_1() -> None:
    r = run("sochi", ABC, "A 6♦ 7, B whist 2, C whist 1")
    assert r.written() == {
        ("A", "pool", 2, None),
        ("B", "whists", 4, "A"),
        ("C", "whists", 2, "A"),
        ("C", "mountain", 2, None),
    }
    assert {e.rule for e in r.entries() if e.area == "mountain"} == {"shortfall"}


def test_case_2_six_two_whisters_1_and_0() -> None:
    r = run("sochi", ABC, "A 6♦ 9, B whist 1, C whist 0")
    assert r.sheet.pool["A"] == 2
    assert r.sheet.mountain == {"A": 0, "B": 2, "C": 4}
    assert r.sheet.whists["B"]["A"] == 2


def test_case_3_eight_taken_whole_second_defender_pays() -> None:
    r = run("sochi", ABC, "A 8♦ 10, B whist 0, C whist 0")
    assert r.sheet.pool["A"] == 6
    assert r.sheet.mountain == {"A": 0, "B": 0, "C": 6}
    assert all(v == 0 for row in r.sheet.whists.values() for v in row.values())


def test_case_4_six_failed_greedy() -> None:
    r = run("sochi", ABC, "A 6♠ 5, B whist 3, C pass 2")
    assert r.sheet.mountain["A"] == 2
    assert r.sheet.whists["B"]["A"] == 12  # 2 × 5 + 2 × 1
    assert r.sheet.whists["C"]["A"] == 2
    assert r.sheet.pool == {"A": 0, "B": 0, "C": 0}


def test_case_4_six_failed_gentleman() -> None:
    r = run("sochi", ABC, "A 6♠ 5, B whist 3, C pass 2", extra=["whist.on_failure: gentleman"])
    assert r.sheet.mountain["A"] == 2
    assert r.sheet.whists["B"]["A"] == 7  # (10 + 2 + 2) / 2
    assert r.sheet.whists["C"]["A"] == 7
    assert {e.rule for e in r.entries() if e.area == "whists"} == {"gentleman"}


def test_case_5_rostov_raspasy_6_2_2() -> None:
    r = run("rostov", ABC, "A pass 6, B pass 2, C pass 2")
    assert r.written() == {("B", "whists", 15, "A"), ("C", "whists", 15, "A")}


def test_case_6_sochi_raspasy_4_3_3() -> None:
    r = run("sochi", ABC, "A pass 4, B pass 3, C pass 3")
    assert r.sheet.mountain == {"A": 1, "B": 0, "C": 0}
    assert r.written() == {("A", "mountain", 1, None)}


#: four deals before the case deal, dealt by D, A, B, C in turn: the case deal is dealt by D
BASE_4 = (
    "B 7♠, C pass, A pass",
    "B pass 2, C pass 3, D pass 5",
    "C misere 1",
    "D 6♠ 6, A whist 2, B pass 2",
)


def test_case_7_sochi_four_players_six_without_one_costs_31() -> None:
    # mountain 2 → 2 × 10 × 3/4 = 15; whists 5 × 2 = 10; consolation 2 × 3 writers = 6
    r = run("sochi", ABCD, "A 6♠ 5, B whist 3, C whist 2")
    assert r.sheet.mountain["A"] == 2
    assert r.sheet.whists["D"]["A"] == 2  # the dealer's consolation
    assert r.settle("exact").result["A"] == -31
    without = run("sochi", ABCD, *BASE_4).settle("exact").result
    with_ = run("sochi", ABCD, *BASE_4, "A 6♠ 5, B whist 3, C whist 2").settle("exact").result
    assert with_["A"] - without["A"] == -31
    # the others: 5 each for the mountain, plus what each wrote
    assert with_["B"] - without["B"] == 5 + 6 + 2
    assert with_["C"] - without["C"] == 5 + 4 + 2
    assert with_["D"] - without["D"] == 5 + 2


def test_case_7_leningrad_the_same_costs_62() -> None:
    r = run("leningrad", ABCD, "A 6♠ 5, B whist 3, C whist 2")
    assert r.sheet.mountain["A"] == 4
    assert r.settle("exact").result["A"] == -62
    without = run("leningrad", ABCD, *BASE_4).settle("exact").result
    with_ = run("leningrad", ABCD, *BASE_4, "A 6♠ 5, B whist 3, C whist 2").settle("exact").result
    assert with_["A"] - without["A"] == -62


def _case_8_sheet() -> SheetView:
    players = ("P1", "P2", "P3", "P4")
    return SheetView(
        players,
        dict(zip(players, (78, 74, 32, 22), strict=True)),
        dict(zip(players, (78, 60, 34, 76), strict=True)),
        {p: {q: 0 for q in players if q != p} for p in players},
    )


def test_case_8_leningrad_four_players_pool_50_every_stage() -> None:
    conv = load("leningrad")
    s = settle(_case_8_sheet(), conv, 50, "exact")
    order = ("P1", "P2", "P3", "P4")
    assert [s.equivalent[p] for p in order] == [22, 12, 70, 132]
    assert s.amnesty == 12
    assert [s.amnestied[p] for p in order] == [10, 0, 58, 120]
    assert s.average == 47
    assert [s.mountain_result[p] for p in order] == [370, 470, -110, -730]
    assert [s.result[p] for p in order] == [370, 470, -110, -730]


def test_case_8_through_the_settle_command(tmp_path: object) -> None:
    text = (
        "players: [P1, P2, P3, P4]\nconvention: leningrad\npool: 50\nsheet:\n"
        "  P1: {pool: 78, mountain: 78}\n  P2: {pool: 74, mountain: 60}\n"
        "  P3: {pool: 32, mountain: 34}\n  P4: {pool: 22, mountain: 76}\n"
    )
    res = CliRunner().invoke(app, ["settle", "-", "-f", "json"], input=text, prog_name="pulyacalc")
    assert res.exit_code == 0, res.output
    import json

    assert json.loads(res.stdout)["settlement"] == {"P1": 370, "P2": 470, "P3": -110, "P4": -730}


def _leningrad_all_at_48() -> list[str]:
    """Each player: four made misères (10 each) and an unplayed 9 (8): 48."""
    deals = []
    for _ in range(4):
        deals += ["A misere 0", "B misere 0", "C misere 0"]
    deals += ["A 9♠, B pass, C pass", "B 9♠, C pass, A pass", "C 9♠, A pass, B pass"]
    return deals


def test_case_9_leningrad_finished_past_the_target() -> None:
    before = run("leningrad", ABC, *_leningrad_all_at_48(), pool=50)
    assert before.sheet.pool == {"A": 48, "B": 48, "C": 48}
    assert not before.finished
    r = run("leningrad", ABC, *_leningrad_all_at_48(), "A 8♠, B pass, C pass", pool=50)
    assert r.sheet.pool == {"A": 54, "B": 48, "C": 48}  # no help: past the target
    assert r.finished  # 150 = 3 × 50
    s = r.settle("exact")
    assert s.equivalent == {"A": -8, "B": 4, "C": 4}  # 8 off his mountain, 4 onto each other
    assert s.result == {"A": 80, "B": -40, "C": -40}


def test_case_10_sochi_help() -> None:
    r = run("sochi", ABC, "C 6♠, A pass, B pass", "A 7♠, B pass, C pass", "A 6♠, B pass, C pass", pool=4)
    assert r.written() == {("C", "pool", 2, None), ("A", "whists", 20, "C")}
    assert {e.rule for e in r.entries()} == {"help", "help-whists"}


def test_case_11_sochi_four_players_written_off_the_mountain() -> None:
    r = run(
        "sochi",
        ABCD,
        "B 7♠, C pass, A pass",  # D deals
        "C 7♠, D pass, B pass",  # A deals
        "D 7♠, A pass, C pass",  # B deals
        "A 6♠, B pass, D pass",  # C deals: A has 2, 2 left to close
        "A 9♠ 9, B whist 1, C pass 0",  # D deals: a 9 made
        pool=4,
    )
    assert r.sheet.pool == {"A": 4, "B": 4, "C": 4, "D": 4}
    assert r.written() == {("A", "pool", 2, None), ("A", "mountain", -6, None), ("B", "whists", 8, "A")}
    assert r.finished
    written_off = r.settle("exact").result
    kept = Run(replace(r.sheet, mountain={**r.sheet.mountain, "A": 0}), r.results, r.conv, r.target, True)
    not_written = kept.settle("exact").result
    for p in ("B", "C", "D"):
        assert not_written[p] - written_off[p] == 15
    assert written_off["A"] - not_written["A"] == 45


def test_case_12_half_whist() -> None:
    for conv, want in (("sochi", 4), ("leningrad", 8)):
        for level in (6, 7):
            r = run(conv, ABC, f"A {level}♠, B pass, C half")
            assert r.sheet.whists["C"]["A"] == want, (conv, level)
            assert r.sheet.pool["A"] == {6: 2, 7: 4}[level]


def test_the_interface_example_log_scores() -> None:
    """The YAML log of INTERFACE.md reads and scores (each deal worked by hand)."""
    text = """players: [Anna, Boris, Vera]
dealer: Vera
convention: sochi
pool: 20
deals:
  - declarer: Anna
    contract: 6♠
    defenders: {Boris: whist, Vera: pass}
    tricks: {Anna: 7, Boris: 2, Vera: 1}
  - declarer: Boris
    contract: 7NT
    defenders: {Vera: pass, Anna: pass}
  - declarer: Vera
    contract: misere
    tricks: {Vera: 1}
  - raspasy: {Anna: 4, Boris: 1, Vera: 5}
  - Boris 6♦ 5, Vera whist 3, Anna pass 2
"""
    r = run_text(text, "i.yaml")
    # 6♠ made 7: Anna pool 2; Boris whists 3 × 2 = 6, short 1 × 2 (d = 3 < 4)
    # 7NT unplayed: Boris pool 4; misère 1 trick: Vera mountain 10
    # raspasy (first): a = 1 → Anna 3, Vera 4
    # 6♦ failed by 1 (greedy): Boris mountain 2; Vera 5 × 2 + 2 = 12, Anna 2
    assert r.sheet.pool == {"Anna": 2, "Boris": 4, "Vera": 0}
    assert r.sheet.mountain == {"Anna": 3, "Boris": 2 + 2, "Vera": 10 + 4}
    assert r.sheet.whists == {
        "Anna": {"Boris": 2, "Vera": 0},
        "Boris": {"Anna": 6, "Vera": 0},
        "Vera": {"Anna": 0, "Boris": 12},
    }
