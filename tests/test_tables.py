"""Tables other than 3 and 4 (RULES.md §6): the header key `dummy`, the seats each table
gives, and each table through `prices`, `convert`, `check` and `explain`."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from helpers import run as score_run
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import Problems, PulyaError
from pulyacalc.core.model import SeatChange
from pulyacalc.core.seating import Seats
from pulyacalc.logs.yaml_log import parse as parse_yaml_log

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def cli(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(app, list(args), prog_name="pulyacalc")
    return r.exit_code, r.output


def header_problems(text: str) -> list[str]:
    problems = Problems()
    with contextlib.suppress(PulyaError):
        parse_yaml_log(text + "deals: []\n", "t.yaml", problems)
    return [p.message for p in problems.items]


# -- seating ------------------------------------------------------------------------------


def test_seats_of_each_table() -> None:
    two = Seats(("A", "B"), "B")
    assert (two.active, two.sitters, two.sits_out, two.dummy) == (("A", "B"), (), None, True)
    assert two.after("A") == ("B",)
    three = Seats(("A", "B", "C"), "C")
    assert (three.active, three.sitters, three.dummy) == (("A", "B", "C"), (), False)
    four = Seats(("A", "B", "C", "D"), "D")
    assert (four.active, four.sitters, four.sits_out) == (("A", "B", "C"), ("D",), "D")
    five = ("A", "B", "C", "D", "E")
    assert Seats(five, "E").active == ("B", "C", "D") and Seats(five, "E").sitters == ("E", "A")
    assert Seats(five, "E", "previous").active == ("A", "B", "C")
    assert Seats(five, "E", "previous").sitters == ("E", "D")
    assert Seats(five, "E", "third").active == ("A", "B", "D")
    assert Seats(five, "E", "third").sitters == ("E", "C")
    assert Seats(five, "E").next_dealer() == "A"


# -- the header key `dummy` -----------------------------------------------------------------


@pytest.mark.parametrize(("written", "hand"), [("first", "first"), ("вторая", "second"), ("2", "second")])
def test_dummy_hand_is_read(written: str, hand: str) -> None:
    problems = Problems()
    log = parse_yaml_log(f"players: [A, B]\nболван: {written}\ndeals: []\n", "t.yaml", problems)
    assert log.header.dummy == hand and not problems.items


def test_dummy_is_refused_at_a_table_of_three_and_spelt_wrong() -> None:
    assert header_problems("players: [A, B, C]\ndummy: first\n") == [
        "a dummy («болван») sits only at a table of two, and 3 play here"
    ]
    assert header_problems("players: [A, B]\ndummy: third\n") == [
        "dummy: expected first or second (the hand), got 'third'"
    ]


def test_one_player_and_six_are_refused() -> None:
    for names in ("[A]", "[A, B, C, D, E, F]"):
        (message,) = header_problems(f"players: {names}\n")
        assert message.startswith("Preferans is played by 2 to 5 players, the log names")


# -- the commands ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["gusarik-2p.txt", "sochi-5p.txt", "sochi-join-leave.txt"])
def test_convert_round_trip_scores_the_same(name: str, tmp_path: Path) -> None:
    source = str(EXAMPLES / name)
    code, want = cli("score", source, "-f", "json")
    assert code == 0
    as_yaml = tmp_path / "evening.yaml"
    code, text = cli("convert", source, "--to", "yaml")
    assert code == 0
    as_yaml.write_text(text, encoding="utf-8")
    as_lines = tmp_path / "evening.txt"
    code, text = cli("convert", str(as_yaml), "--to", "lines")
    assert code == 0
    as_lines.write_text(text, encoding="utf-8")
    assert json.loads(cli("score", str(as_yaml), "-f", "json")[1]) == json.loads(want)
    assert json.loads(cli("score", str(as_lines), "-f", "json")[1]) == json.loads(want)
    assert (EXAMPLES / name).read_text(encoding="utf-8").count("dummy: first") == text.count("dummy: first")


@pytest.mark.parametrize("name", ["gusarik-2p.txt", "sochi-5p.txt", "sochi-join-leave.txt"])
def test_check_finds_the_examples_clean(name: str) -> None:
    code, out = cli("check", str(EXAMPLES / name))
    assert code == 0 and out.startswith("clean:")


def test_prices_for_two_players_the_indivisible_mountain() -> None:
    code, out = cli("prices", "-c", "gusarik", "-n", "2", "-f", "json")
    assert code == 0
    rows = {r["outcome"]: r for r in json.loads(out)["prices"]}
    # a 6 failed by one: mountain 2 → (2 − 0) × 10 = 20, whists 5 × 2 + 2 × 2 = 14
    assert rows["6 without 1"]["whists"] == {"declarer": -34, "opponent": 34}
    assert "6 half-whist" not in rows


def test_prices_for_five_players_each_sitter_writes_consolation() -> None:
    code, out = cli("prices", "-c", "sochi", "-n", "5", "-f", "json")
    assert code == 0
    rows = {r["outcome"]: r for r in json.loads(out)["prices"]}
    assert rows["6 without 1"]["whists"] == {
        "declarer": -34,
        "first defender": 16,
        "second defender": 6,
        "dealer": 6,
        "second out": 6,
    }


def test_explain_says_the_dummy_consolation() -> None:
    code, out = cli("explain", str(EXAMPLES / "gusarik-2p.txt"), "--deal", "2")
    assert code == 0
    assert "(for the dummy: the whister writes it)" in out


def test_second_out_is_refused_with_the_dealer_in_play_code() -> None:
    with pytest.raises(PulyaError) as e:
        score_run("sochi", ("A", "B", "C", "D", "E"), "A 6♠ 6, B whist 4, C pass")
    assert [p.code for p in e.value.problems] == ["dealer-in-play"]


# -- a seat that changes (RULES.md 6.3) -------------------------------------------------------


def test_explain_says_what_the_newcomer_wrote() -> None:
    code, out = cli("explain", str(EXAMPLES / "sochi-join-leave.txt"))
    assert code == 0
    assert "Table change after deal 3" in out and ": join Nina" in out
    assert "the average pool of the 3 at the table: (2 + 0 + 10) / 3 = 4  " in out
    assert "(0 + 4 + 0) / 3 = 4/3, rounded up (not in the newcomer's favour)" in out
    assert "Table change after deal 5" in out and ": leave Lena" in out


def test_the_fast_path_and_the_kept_fold_agree_across_a_seat_change() -> None:
    from pulyacalc.play import score_file

    path = str(EXAMPLES / "sochi-join-leave.txt")
    assert score_file(path).sheet == score_file(path, keep=True).sheet


def test_yaml_seat_changes_with_a_note_and_russian_words() -> None:
    text = (
        "players: [A, B, C]\ndeals:\n  - {входит: D, note: late}\n  - D 6♠, A pass, B pass\n  - {leave: d}\n"
    )
    problems = Problems()
    log = parse_yaml_log(text, "t.yaml", problems)
    deals = list(log.deals)
    assert not problems.items
    assert [(d.change, d.player, d.note) for d in deals if isinstance(d, SeatChange)] == [
        ("join", "D", "late"),
        ("leave", "D", None),
    ]


@pytest.mark.parametrize(
    ("deal", "column"),
    [("Dan 7♠, Boris pass, Vera half", 1), ("Boris 7♠, Dan pass, Vera whist 3", 15)],
)
def test_a_player_who_left_may_not_bid_or_whist(deal: str, column: int, tmp_path: Path) -> None:
    # the header still names him, so only the table can tell; this was a ValueError
    log = tmp_path / "left.txt"
    log.write_text(
        f"players: Anna Boris Vera Dan\n\nAnna 6♠ 6, Boris whist 4, Vera pass 0\nleave Dan\n{deal}\n"
    )
    r = CliRunner().invoke(app, ["score", str(log)], prog_name="pulyacalc")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"left.txt:5:{column}: 'Dan' is not at the table" in r.output
    assert "players now: Anna, Boris, Vera" in r.output
