"""RULES.md 3.9 and 3.10: ``settlement.rounding: kodeks_separate`` and
``settlement.mountain_divisor``.  Every expected number is worked by hand in the comments;
the properties check that every settlement sums to exactly 0 on random sheets."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import examples, run, run_text, score_text
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.load import load
from pulyacalc.convention.schema import Convention
from pulyacalc.core.errors import PulyaError, ReadError, RuleError
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.sheet import SheetView
from pulyacalc.play import settle_evening
from pulyacalc.reports.ledger import ledger
from pulyacalc.scoring.settlement import SettlementError, settle

SOCHI = load("sochi")
OPPONENTS = replace(SOCHI, mountain_divisor="opponents")


def view(pool: list[Fraction | int], mountain: list[Fraction | int], whists: int = 0) -> SheetView:
    players = ("A", "B", "C", "D")[: len(pool)]
    return SheetView(
        players,
        dict(zip(players, pool, strict=True)),
        dict(zip(players, mountain, strict=True)),
        {p: {q: whists for q in players if q != p} for p in players},
    )


def invoke(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, list(args), prog_name="pulyacalc")
    return r.exit_code, r.stdout, r.stderr


# -- kodeks_separate --------------------------------------------------------------------


def test_the_worked_example_rounds_the_pools_not_the_equivalents() -> None:
    # pools 4/2/0, mountains 0: exactly +20/0/−20; the pools 4 → 3 (A writes 3 on B and C),
    # 2 → 3 (A and C write 3 on B); moved mountain − moved pool −3/−3/0, amnestied 0/0/3,
    # average 1: +10/+10/−20; whists +9/−9/0 → 19/1/−20 (kodeks: 20/−1/−19)
    sheet = view([4, 2, 0], [0, 0, 0])
    s = settle(sheet, SOCHI, 20, "kodeks_separate")
    assert s.result == {"A": 19, "B": 1, "C": -20}
    assert settle(sheet, SOCHI, 20, "kodeks").result == {"A": 20, "B": -1, "C": -19}
    assert s.separate is not None
    assert s.separate.pool == {"A": 4, "B": 2, "C": 0}
    assert s.separate.pool_moved == {"A": 3, "B": 3, "C": 0}
    assert s.separate.mountain_moved == {"A": 0, "B": 0, "C": 0}
    assert s.rounded_mountain == {"A": 0, "B": 0, "C": 3}
    # A's pool down: A writes 3 on B and on C; B's up: A and C write 3 on B
    assert s.kodeks_whists == {"A": {"B": 6, "C": 3}, "B": {"A": 0, "C": 0}, "C": {"A": 0, "B": 3}}
    assert s.mountain_result == {"A": 10, "B": 10, "C": -20}


def test_the_mountains_move_as_kodeks_moves_them() -> None:
    # equal pools: mountains 5/0/1 over the smallest; 5 → 6 (A writes 3 on B and C),
    # 1 → 0 (A and B write 3 on C); average 2: −40/+20/+20; whists +9/0/−9 → −31/20/11,
    # the same as kodeks, which sees the same amnestied mountains
    sheet = view([20, 20, 20], [7, 2, 3])
    s = settle(sheet, SOCHI, 20, "kodeks_separate")
    assert s.separate is not None and s.separate.mountain == {"A": 5, "B": 0, "C": 1}
    assert s.separate.mountain_moved == {"A": 6, "B": 0, "C": 0}
    assert s.result == {"A": -31, "B": 20, "C": 11}
    assert settle(sheet, SOCHI, 20, "kodeks").result == s.result


def test_the_pool_spread_is_in_mountain_points() -> None:
    # Leningrad: pools 4/2/0 are 8/4/0 mountain points → 9/3/0 (see the rule cases: 41/−1/−40)
    s = settle(view([4, 2, 0], [0, 0, 0]), load("leningrad"), 20, "kodeks_separate")
    assert s.separate is not None and s.separate.pool == {"A": 8, "B": 4, "C": 0}
    assert s.result == {"A": 41, "B": -1, "C": -40}


def test_the_other_roundings_carry_no_separate_stage() -> None:
    roundings: tuple[Rounding, ...] = ("exact", "kodeks", "nearest")
    for rounding in roundings:
        s = settle(view([4, 2, 0], [0, 0, 0]), SOCHI, 20, rounding)
        assert s.separate is None and s.divisor == "players"


def test_kodeks_separate_is_refused_for_four_players() -> None:
    with pytest.raises(SettlementError, match="kodeks_separate rounding .* is defined for 3 players"):
        settle(view([0, 0, 0, 0], [0, 0, 0, 0]), SOCHI, 20, "kodeks_separate")


@pytest.mark.parametrize(
    ("pool", "mountain", "what"),
    [
        ([Fraction(3, 2), 0, 0], [0, 0, 0], "A's pool is 3/2"),
        ([0, 0, 0], [0, Fraction(5, 2), 0], "B's mountain is 5/2"),
    ],
)
def test_kodeks_separate_is_refused_for_values_not_whole(
    pool: list[Fraction | int], mountain: list[Fraction | int], what: str
) -> None:
    with pytest.raises(SettlementError, match=f"needs whole pools and mountains; {what}"):
        settle(view(pool, mountain), SOCHI, 20, "kodeks_separate")


def test_a_point_in_mountain_not_whole_is_refused_in_the_convention(tmp_path: Path) -> None:
    conv = tmp_path / "house.yaml"
    conv.write_text(
        "extends: sochi\npool:\n  point_in_mountain: 1.5\nsettlement:\n  rounding: kodeks_separate\n",
        encoding="utf-8",
    )
    with pytest.raises(ReadError) as e:
        load(str(conv))
    (problem,) = e.value.problems
    assert problem.loc.line == 5
    assert "kodeks_separate rounding needs whole mountain points per pool point" in problem.message


def test_the_log_header_and_the_option_take_kodeks_separate(tmp_path: Path) -> None:
    log = (
        "players: A B C\npool: 20\nrounding: kodeks_separate\n\nA 7♥, B pass, C pass\nB 6♣, C pass, A pass\n"
    )
    ev = score_text(log, "t.txt")
    assert ev.convention.rounding == "kodeks_separate"
    assert settle_evening(ev).result == {"A": 19, "B": 1, "C": -20}
    path = tmp_path / "e.txt"
    path.write_text(log.replace("rounding: kodeks_separate\n", ""), encoding="utf-8")
    code, out, _ = invoke("score", str(path), "--rounding", "kodeks_separate")
    assert code == 0 and "rounding kodeks_separate" in out and "kodeks_separate: each pool" in out


def test_four_players_under_kodeks_separate_is_a_located_problem(tmp_path: Path) -> None:
    path = tmp_path / "e.txt"
    path.write_text("players: A B C D\nrounding: kodeks_separate\n\nA 7♥, B pass, C pass\n", encoding="utf-8")
    code, _, err = invoke("score", str(path))
    assert code == 1
    assert f"{path}:2:" in err and "defined for 3 players" in err and "Traceback" not in err


def test_the_stages_explain_kodeks_separate() -> None:
    from pulyacalc.render.settle import stages_table

    sheet = view([4, 2, 0], [0, 0, 0])
    text = stages_table(SOCHI, 20, sheet, settle(sheet, SOCHI, 20, "kodeks_separate"))
    assert "4. Kodeks rounding, pools and mountains apart (kodeks_separate, K4.2.12)" in text
    assert "each pool over the smallest pool, to the nearest multiple of 3" in text
    assert "down one: he writes 3 whists on each other" in text  # A's pool 4 → 3
    assert "up one: each other writes 3 whists on him" in text  # B's pool 2 → 3
    assert "5. Average mountain: (0 + 0 + 3) / 3 = 3 / 3 = 1" in text
    assert "(kodeks whists included)" in text


# -- mountain_divisor -----------------------------------------------------------------------


def test_opponents_each_pays_each_a_share_of_n_minus_one() -> None:
    # amnestied G 0/2/4: each pays each 10 × G / 2 = 0/10/20 → +30/0/−30 (players: +20/0/−20)
    s = settle(view([4, 2, 0], [0, 0, 0]), OPPONENTS, 20, "exact")
    assert s.divisor == "opponents"
    assert s.pays_each == {"A": 0, "B": 10, "C": 20}
    assert s.result == {"A": 30, "B": 0, "C": -30}


def test_opponents_with_four_players() -> None:
    # mountains 0/3/0/0, average 3/4; each pays each 10 × 3 / 3 = 10: B −30, the others +10
    s = settle(view([20, 20, 20, 20], [0, 3, 0, 0]), OPPONENTS, 20, "exact")
    assert s.result == {"A": 10, "B": -30, "C": 10, "D": 10}
    assert settle(view([20, 20, 20, 20], [0, 3, 0, 0]), SOCHI, 20, "exact").result == {
        "A": Fraction(15, 2),
        "B": Fraction(-45, 2),
        "C": Fraction(15, 2),
        "D": Fraction(15, 2),
    }


@pytest.mark.parametrize("rounding", ["kodeks", "kodeks_separate"])
def test_kodeks_roundings_are_refused_with_opponents(rounding: str) -> None:
    with pytest.raises(SettlementError, match=f"{rounding} rounding .*mountain_divisor: opponents"):
        settle(view([4, 2, 0], [0, 0, 0]), OPPONENTS, 20, rounding)  # type: ignore[arg-type]


def test_kodeks_with_opponents_in_a_convention_is_located_at_the_key_set_last(tmp_path: Path) -> None:
    conv = tmp_path / "house.yaml"
    conv.write_text(
        "extends: sochi\nsettlement:\n  rounding: kodeks\n  mountain_divisor: opponents\n", encoding="utf-8"
    )
    with pytest.raises(ReadError) as e:
        load(str(conv))
    (problem,) = e.value.problems
    assert problem.loc.line == 3  # both in one file: at the rounding
    assert "kodeks rounding cannot go with settlement.mountain_divisor: opponents" in problem.message
    # over a house file with kodeks, the log's override is the one pointed at
    text = f"players: [A, B, C]\nconvention: {conv}\ndeals: []\n"
    conv.write_text("extends: sochi\nsettlement:\n  rounding: kodeks\n", encoding="utf-8")
    log = text.replace("deals: []", "overrides: {settlement.mountain_divisor: opponents}\ndeals: []")
    with pytest.raises(PulyaError) as e2:
        run_text(log, str(tmp_path / "t.yaml"))  # beside its convention (a log's may not be elsewhere)
    assert [(p.loc.line, "cannot go with" in p.message) for p in e2.value.problems] == [(3, True)]


def test_a_header_rounding_over_an_opponents_convention_is_refused_when_settled() -> None:
    log = "players: A B C\nrounding: kodeks\nsettlement.mountain_divisor: opponents\n\nA 7♥, B pass, C pass\n"
    ev = score_text(log, "t.txt")
    with pytest.raises(RuleError) as e:
        settle_evening(ev)
    assert e.value.problems[0].loc.line == 2


def test_the_stages_and_the_footer_say_the_divisor_departs_from_the_code() -> None:
    from pulyacalc.render.report import Report
    from pulyacalc.render.settle import stages_table

    sheet = view([4, 2, 0], [0, 0, 0])
    s = settle(sheet, OPPONENTS, 20, "exact")
    text = stages_table(OPPONENTS, 20, sheet, s)
    assert "Mountain result = 10 × 3/2 × (average − mountain)" in text
    assert "10 × 3/2 × (2 − 0)" in text
    assert "every player pays each other 10 × his mountain / 2 (his opponents" in text
    footer = Report(OPPONENTS, 20, sheet, s).table()
    assert "mountain result = 10 × 3/2 × (average − amnestied mountain)" in footer
    assert "mountain divided among the 2 opponents, not the 3 players" in footer
    doc = Report(OPPONENTS, 20, sheet, s).document()
    assert doc["stages"]["mountain_divisor"] == "opponents"
    assert (
        "mountain_divisor"
        not in Report(SOCHI, 20, sheet, settle(sheet, SOCHI, 20, "exact")).document()["stages"]
    )


# -- the ledger still adds up -------------------------------------------------------------

EVENING = """players: A B C
pool: 10
{extra}
A 6♠ 7, B whist 2, C pass 1
B 7NT, C pass, A pass
C misere 1
A pass 4, B pass 1, C pass 5
B 6♦ 5, C whist 3, A pass 2
C 6♣, A pass, B half
A 8♥ 8, B whist 1, C whist 1
"""


@pytest.mark.parametrize(
    "extra",
    [
        "rounding: kodeks_separate",
        "settlement.mountain_divisor: opponents",
        "rounding: nearest\nsettlement.mountain_divisor: opponents",
    ],
)
def test_the_ledger_rows_add_up_under_the_new_readings(extra: str) -> None:
    ev = score_text(EVENING.format(extra=extra), "t.txt", keep=True)
    lg = ledger(ev)
    s = lg.settlement
    unrounded = settle(ev.sheet, ev.convention, ev.target, "exact")
    assert lg.total == unrounded.exact  # the rows are linear in the sheet, the divisor included
    for p in lg.players:
        assert lg.rounding[p] == s.result[p] - unrounded.exact[p]
    for row in lg.rows:
        assert sum(row.result.values()) == 0
    if s.rounding == "kodeks_separate":
        assert any(lg.rounding.values())  # this evening's rounding moves something
    else:
        assert (
            s.divisor == "opponents"
            and s.exact != settle_evening(score_text(EVENING.format(extra=""), "t.txt")).exact
        )


# -- properties: every settlement sums to exactly 0 -----------------------------------------

WHOLE = st.integers(min_value=0, max_value=60)
EXACT = st.fractions(min_value=0, max_value=60, max_denominator=6)


def sheets(values: st.SearchStrategy[Fraction | int], n: int) -> st.SearchStrategy[SheetView]:
    players = ("A", "B", "C", "D")[:n]

    @st.composite
    def make(draw: st.DrawFn) -> SheetView:
        return SheetView(
            players,
            {p: draw(st.integers(min_value=0, max_value=20)) for p in players},
            {p: draw(values) for p in players},
            {p: {q: draw(values) for q in players if q != p} for p in players},
        )

    return make()


@settings(max_examples=examples(200), deadline=None)
@given(sheets(WHOLE, 3))
def test_kodeks_separate_sums_to_zero_in_whole_whists_within_four_of_exact(sheet: SheetView) -> None:
    s = settle(sheet, SOCHI, 20, "kodeks_separate")
    assert sum(s.result.values()) == 0
    exact = settle(sheet, SOCHI, 20, "exact").result
    for p in sheet.players:
        # every moved mountain is a multiple of 3, so the average is whole
        assert Fraction(s.result[p]).denominator == 1
        # six moves at most, each worth at most 2/3 of a whist to anyone
        assert abs(Fraction(s.result[p]) - Fraction(exact[p])) <= 4
    if len(set(sheet.pool.values())) == 1:  # equal pools: the same moves as kodeks
        assert s.result == settle(sheet, SOCHI, 20, "kodeks").result


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from([3, 4]).flatmap(lambda n: sheets(EXACT, n)), st.sampled_from(["exact", "nearest"]))
def test_opponents_sums_to_zero_and_is_n_over_n_minus_1_of_the_mountain(
    sheet: SheetView, rounding: str
) -> None:
    conv: Convention = OPPONENTS
    s = settle(sheet, conv, 20, rounding)  # type: ignore[arg-type]
    code = settle(sheet, SOCHI, 20, rounding)  # type: ignore[arg-type]
    assert sum(s.result.values()) == 0 and sum(s.exact.values()) == 0
    n = len(sheet.players)
    for p in sheet.players:
        assert s.mountain_result[p] == code.mountain_result[p] * Fraction(n, n - 1)
        assert s.whist_result[p] == code.whist_result[p]


def test_the_rule_helpers_score_the_worked_example() -> None:
    r = run("sochi", "ABC", "A 7♥, B pass, C pass", "B 6♣, C pass, A pass", pool=20)
    assert r.settle("kodeks_separate").result == {"A": 19, "B": 1, "C": -20}
