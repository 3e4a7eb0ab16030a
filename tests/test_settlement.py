"""RULES.md §3: settlement stages, the three roundings, money and payments.
Every expected number is worked by hand in the comments."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest
from helpers import INTERFACE_SHEET, run
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.load import load
from pulyacalc.core.sheet import SheetView
from pulyacalc.scoring.settlement import SettlementError, round_nearest, settle


def interface_view() -> SheetView:
    return SheetView(
        ("A", "B", "C"),
        {"A": 14, "B": 8, "C": 0},
        {"A": 12, "B": 26, "C": 6},
        {"A": {"B": 12, "C": 0}, "B": {"A": 22, "C": 0}, "C": {"A": 22, "B": 4}},
    )


def invoke(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), input=input, prog_name="pulyacalc")


def test_exact_every_stage() -> None:
    # G = M + (20 − P): 18, 38, 26; amnesty 18 → 0, 20, 8; avg 28/3
    s = settle(interface_view(), load("sochi"), 20, "exact")
    assert s.equivalent == {"A": 18, "B": 38, "C": 26}
    assert s.amnesty == 18
    assert s.amnestied == {"A": 0, "B": 20, "C": 8}
    assert s.average == Fraction(28, 3)
    assert s.mountain_result == {"A": Fraction(280, 3), "B": Fraction(-320, 3), "C": Fraction(40, 3)}
    # variant 1: each pays every other 10 × G / 3
    assert s.pays_each == {"A": 0, "B": Fraction(200, 3), "C": Fraction(80, 3)}
    assert s.whist_result == {"A": -32, "B": 6, "C": 26}
    assert s.result == {"A": Fraction(184, 3), "B": Fraction(-302, 3), "C": Fraction(118, 3)}
    assert sum(s.result.values()) == 0


def test_kodeks_interface_sheet() -> None:
    # amnestied 0, 20, 8: 20 → 21 (B writes 3 on A and C), 8 → 9 (C writes 3 on A and B)
    s = settle(interface_view(), load("sochi"), 20, "kodeks")
    assert s.rounded_mountain == {"A": 0, "B": 21, "C": 9}
    assert s.kodeks_whists == {"A": {"B": 0, "C": 0}, "B": {"A": 3, "C": 3}, "C": {"A": 3, "B": 3}}
    assert s.result == {"A": 62, "B": -101, "C": 39}


def test_kodeks_moved_down() -> None:
    # G 0, 4, 0: 4 → 3, A and C each write 3 on B; avg 1 → 10, −20, 10; whists +3, −6, +3
    view = SheetView(
        ("A", "B", "C"),
        {"A": 20, "B": 20, "C": 20},
        {"A": 0, "B": 4, "C": 0},
        {"A": {"B": 0, "C": 0}, "B": {"A": 0, "C": 0}, "C": {"A": 0, "B": 0}},
    )
    s = settle(view, load("sochi"), 20, "kodeks")
    assert s.rounded_mountain["B"] == 3
    assert s.result == {"A": 13, "B": -26, "C": 13}
    assert settle(view, load("sochi"), 20, "exact").result["B"] == Fraction(-80, 3)


def test_kodeks_through_the_settle_command() -> None:
    res = invoke("settle", "-", "-f", "json", input=INTERFACE_SHEET)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["settlement"] == {"A": 62, "B": -101, "C": 39}


def test_kodeks_with_four_players_is_refused_clearly() -> None:
    r = run("sochi", ("A", "B", "C", "D"), "A 6♠ 5, B whist 3, C whist 2")
    with pytest.raises(SettlementError, match="3 players"):
        r.settle("kodeks")
    log = "players: A B C D\n\nA 6♠ 5, B whist 3, C whist 2\n"
    res = invoke("score", "-", "--rounding", "kodeks", input=log)
    assert res.exit_code == 2  # usage: --rounding's mistake
    assert "kodeks" in res.stderr and "3 players" in res.stderr
    assert "Traceback" not in res.output
    assert res.stdout == ""


def test_nearest_largest_remainder_and_ties_by_seat() -> None:
    # 184/3, −302/3, 118/3: floors 61, −101, 39 (sum −1); remainders all 1/3 → A by seat
    s = settle(interface_view(), load("sochi"), 20, "nearest")
    assert s.result == {"A": 62, "B": -101, "C": 39}
    assert sum(s.result.values()) == 0
    # floors 0, 0, −1, need one more: the largest remainder (B's 2/3)
    assert round_nearest({"A": Fraction(1, 3), "B": Fraction(2, 3), "C": -1}, ("A", "B", "C")) == {
        "A": 0,
        "B": 1,
        "C": -1,
    }
    # a tie goes to the first in seating order, not in dict order
    tie = round_nearest({"A": Fraction(1, 2), "B": Fraction(-1, 2)}, ("B", "A"))
    assert tie == {"A": 0, "B": 0}
    tie = round_nearest({"A": Fraction(5, 2), "B": Fraction(-5, 2)}, ("B", "A"))
    # floors 2, −3 (sum −1): remainders 1/2 each, B is seated first
    assert tie == {"A": 2, "B": -2}


def test_nearest_four_players_sums_to_zero() -> None:
    r = run("sochi", ("A", "B", "C", "D"), "A 6♠ 5, B whist 3, C pass 2", "B misere 1")
    s = r.settle("nearest")
    assert all(isinstance(v, int) for v in s.result.values())
    assert sum(s.result.values()) == 0
    for p in s.players:
        assert abs(Fraction(s.result[p]) - Fraction(s.exact[p])) < 1


def test_money_to_the_cent_and_payments() -> None:
    # 184/3 × 0.5 = 30.666…, −302/3 × 0.5 = −50.333…, 118/3 × 0.5 = 19.666…
    # cents floored 3066, −5034, 1966 (sum −2); remainders 2/3 each → A and B by seat
    s = settle(interface_view(), load("sochi"), 20, "exact", Decimal("0.5"))
    assert s.money == {"A": Decimal("30.67"), "B": Decimal("-50.33"), "C": Decimal("19.66")}
    assert sum(s.money.values()) == 0
    assert s.payments == [("B", "A", Decimal("30.67")), ("B", "C", Decimal("19.66"))]


def test_money_through_the_command() -> None:
    res = invoke(
        "settle", "-", "-f", "json", "--whist-price", "0.5", "--rounding", "exact", input=INTERFACE_SHEET
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["settlement_exact"] == {"A": "184/3", "B": "-302/3", "C": "118/3"}
    assert data["money"] == {"A": 30.67, "B": -50.33, "C": 19.66}
    assert sum(p["amount"] for p in data["payments"]) == pytest.approx(50.33)


def test_unfinished_pool_is_folded_into_the_mountain() -> None:
    # pool 20, one 6 made: G = 18, 20, 20 → amnesty 0, 2, 2 → avg 4/3
    r = run("sochi", ("A", "B", "C"), "A 6♠, B pass, C pass")
    s = r.settle("exact")
    assert s.equivalent == {"A": 18, "B": 20, "C": 20}
    assert s.result == {"A": Fraction(40, 3), "B": Fraction(-20, 3), "C": Fraction(-20, 3)}


def test_leningrad_ratio_two() -> None:
    # pool 10, A made a 7 (4): G = 2 × 6, 2 × 10, 2 × 10 = 12, 20, 20
    r = run("leningrad", ("A", "B", "C"), "A 7♠, B pass, C pass", pool=10)
    s = r.settle("exact")
    assert s.equivalent == {"A": 12, "B": 20, "C": 20}
    assert s.result == {"A": Fraction(160, 3), "B": Fraction(-80, 3), "C": Fraction(-80, 3)}


def test_average_includes_the_four_player_dealer() -> None:
    # a failed misère by A: mountain 10; pool 1 open for all: G = 11, 1, 1, 1
    # → amnestied 10, 0, 0, 0, avg 10/4 → A 10 × (5/2 − 10) = −75, the others +25 each
    r = run("sochi", ("A", "B", "C", "D"), "A misere 1", pool=1)
    s = r.settle("exact")
    assert s.amnestied == {"A": 10, "B": 0, "C": 0, "D": 0}
    assert s.average == Fraction(5, 2)
    assert s.result == {"A": -75, "B": 25, "C": 25, "D": 25}
    assert sum(s.result.values()) == 0


@given(st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=6), st.integers(1, 50))
def test_largest_remainder_is_floors_then_the_largest_remainders_ties_by_seat(
    values: list[int], k: int
) -> None:
    """Each ``v / k`` rounded down, then +1 to the largest remainders, the first seat of
    equal ones first, until the whole total: as sorting every seat says (one short, the
    common case, is taken without sorting)."""
    from pulyacalc.scoring.settlement import largest_remainder

    values = [*values, -(sum(values) % k)]  # a total of whole k's
    floors = [v // k for v in values]
    order = sorted(range(len(values)), key=lambda i: (floors[i] * k - values[i], i))
    want = list(floors)
    for i in order[: sum(values) // k - sum(floors)]:
        want[i] += 1
    assert largest_remainder(values, k) == want
    assert sum(want) * k == sum(values)


@given(
    st.lists(st.fractions(min_value=-10_000, max_value=10_000, max_denominator=12), min_size=2, max_size=5),
    st.decimals(min_value=Decimal("0.01"), max_value=Decimal("50"), places=2),
)
def test_money_is_each_result_in_cents_by_largest_remainder(results: list[Fraction], price: Decimal) -> None:
    """``to_money``: each result × the price in cents, rounded by largest remainder (the rounded
    cents sum to the exact total, 0), each within a cent of the exact amount."""
    from pulyacalc.scoring.settlement import round_nearest, to_money

    players = tuple(f"P{i}" for i in range(len(results)))
    result = dict(zip(players, [*results[:-1], -sum(results[:-1])], strict=True))
    money = to_money(result, players, price)  # type: ignore[arg-type]
    exact = {p: result[p] * Fraction(price) * 100 for p in players}
    assert {p: int(money[p] * 100) for p in players} == round_nearest(exact, players)  # type: ignore[arg-type]
    assert sum(money.values()) == 0 and all(abs(Fraction(money[p] * 100) - exact[p]) < 1 for p in players)
