"""RULES.md 2.7 and 2.8 where the order of things matters: the progression deal by
deal, and several zero-trick bonuses placed in seating order from the deal's first hand."""

from __future__ import annotations

from helpers import run, run_text

from pulyacalc.core.rulebook import RULEBOOK

ABC = ("A", "B", "C")


def _mountain_per_deal(convention: str, deals: list[str]) -> list[int]:
    r = run(convention, ABC, *deals)
    return [sum(e.amount for e in res.entries if e.area == "mountain") for res in r.results]


RASP = "A pass 4, B pass 3, C pass 3"


def test_sochi_progression_deal_by_deal_and_reset() -> None:
    deals = [RASP, RASP, RASP, RASP, "A 6♠, B pass, C pass", RASP, RASP]
    assert _mountain_per_deal("sochi", deals) == [1, 2, 3, 3, 0, 1, 2]


def test_leningrad_progression_deal_by_deal() -> None:
    assert _mountain_per_deal("leningrad", [RASP] * 5) == [2, 4, 6, 6, 6]


def test_raspasy_run_is_reported() -> None:
    r = run("sochi", ABC, RASP, RASP, "B misere 0", RASP)
    assert [res.raspasy_run for res in r.results] == [1, 2, 0, 1]
    assert [res.after_raspasy for res in r.results] == [0, 1, 2, 0]


def _two_bonuses(third_dealer: str | None) -> str:
    dealer = f", dealer: {third_dealer}" if third_dealer else ""
    return f"""players: [A, B, C]
convention: sochi
pool: 2
deals:
  - B 6♠, C pass, A pass
  - A pass 0, B pass 5, C pass 5
  - {{raspasy: {{A: 0, B: 0, C: 10}}{dealer}}}
"""


def test_zero_trick_bonuses_in_seating_order_from_first_hand_c() -> None:
    """Deal 3 is dealt by B: first hand C, then A, then B.  The second raspasy in a row,
    v = 2.  A (pool 1) closes with 1 and helps C with 1; then B (closed) helps C with 1
    and writes the last point off his mountain."""
    r = run_text(_two_bonuses(None), "o.yaml")
    assert r.results[-1].dealer == "B"
    got = [
        (e.rule, e.player, e.area, e.amount, e.on)
        for e in r.entries()
        if e.area != "mountain" or e.amount < 0
    ]
    assert got == [
        ("zero-trick", "A", "pool", 1, None),
        ("help", "C", "pool", 1, None),
        ("help-whists", "A", "whists", 10, "C"),
        ("help", "C", "pool", 1, None),
        ("help-whists", "B", "whists", 10, "C"),
        ("written-off", "B", "mountain", -1, None),
    ]
    assert r.sheet.pool == {"A": 2, "B": 2, "C": 2}


def test_zero_trick_bonuses_in_seating_order_from_first_hand_b() -> None:
    """The same deal dealt by A: first hand B goes first.  B (closed) helps the larger
    open pool, A's (1), then C (0).  A's pool is now closed by B's help, so A's 2 help C
    with 1 and the last point goes off A's own mountain."""
    r = run_text(_two_bonuses("A"), "o.yaml")
    assert r.results[-1].dealer == "A"
    got = [
        (e.rule, e.player, e.area, e.amount, e.on)
        for e in r.entries()
        if e.area != "mountain" or e.amount < 0
    ]
    assert got == [
        ("help", "A", "pool", 1, None),
        ("help-whists", "B", "whists", 10, "A"),
        ("help", "C", "pool", 1, None),
        ("help-whists", "B", "whists", 10, "C"),
        ("help", "C", "pool", 1, None),
        ("help-whists", "A", "whists", 10, "C"),
        ("written-off", "A", "mountain", -1, None),
    ]


def test_four_player_dealer_bonus_comes_after_the_players() -> None:
    """With 4 players the dealer comes last in the deal's order (he sits out): A and the
    dealer D took no trick; A's bonus is written first, then D's."""
    r = run_text(
        "players: [A, B, C, D]\nconvention: sochi\ndeals:\n  - raspasy: {A: 0, B: 5, C: 5}\n", "f.yaml"
    )
    assert [(e.player, e.amount) for e in r.entries() if e.area == "pool"] == [("A", 1), ("D", 1)]


def test_every_entry_names_a_rule_of_the_rulebook() -> None:
    r = run(
        "sochi",
        ABC,
        "A 6♦ 7, B whist 2, C whist 1",
        "B 7♠ 5, C whist 3, A pass 2",
        "C misere 2",
        RASP,
        "A 6♠, B pass, C half",
        pool=4,
    )
    rules = {e.rule for res in r.results for e in res.entries}
    assert rules <= set(RULEBOOK)
    assert {
        "made",
        "whists",
        "shortfall",
        "remise",
        "consolation",
        "misere-remise",
        "raspasy-mountain",
        "half-whist",
    } <= rules
    for rid in rules:
        assert RULEBOOK[rid].section.startswith("2.")
