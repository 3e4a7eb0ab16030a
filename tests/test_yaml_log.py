"""The YAML log's refusals (issue 2 item 5): each problem located as FILE:LINE[:COLUMN],
exit status 1, no traceback, every problem of a file in one run; and the PyYAML
pitfalls (``6:4``, a player named No, ``012``) read as a person means them."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pulyacalc.cli.app import app


def score(tmp_path: Path, text: str, *args: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "evening.yaml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(app, ["score", str(path), *args], prog_name="pulyacalc")


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based line of the nth line containing ``needle``."""
    hits = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return hits[nth - 1]


def assert_refused(res, expected: list[tuple[int, str]]) -> None:  # type: ignore[no-untyped-def]
    assert res.exit_code == 1, res.output
    assert res.stdout == ""
    assert "Traceback" not in res.output
    lines = [x for x in res.stderr.splitlines() if x.startswith("evening.yaml:") or "/evening.yaml:" in x]
    for line, message in expected:
        assert any(f"evening.yaml:{line}:" in x and message in x for x in lines), (line, message, res.stderr)
    assert len(lines) == len(expected), res.stderr


RULE_ERRORS = """players: [Anna, Boris, Vera]
deals:
  - declarer: Anna
    contract: 6♠
    defenders: {Boris: whist, Vera: pass}
    tricks: {Anna: 6, Boris: 3, Vera: 2}
  - declarer: Anna
    contract: 7♥
    defenders: {Boris: whist, Vera: pass}
    tricks: {Anna: 7, Boris: 2, Vera: 0}
  - declarer: Anna
    contract: 8♠
    defenders: {Boris: pass, Vera: half}
  - declarer: Anna
    contract: 6♣
    defenders: {Boris: half, Vera: pass}
  - declarer: Boris
    contract: misere
    defenders: {Vera: whist, Anna: pass}
    tricks: {Boris: 1}
  - declarer: Vera
    contract: 6♦
    defenders: {Anna: whist, Boris: whist}
    tricks: {Vera: 6}
  - Anna 6♠ 7, Boris whist 2, Vera pass 1
"""


def test_every_rule_problem_of_a_file_in_one_run(tmp_path: Path) -> None:
    t = RULE_ERRORS
    res = score(tmp_path, t)
    assert_refused(
        res,
        [
            (line_of(t, "{Anna: 6, Boris: 3"), "tricks add up to 11, more than 10"),
            (line_of(t, "{Anna: 7, Boris: 2"), "tricks add up to 9, not 10"),
            (line_of(t, "Vera: half"), "half-whist is not allowed on 8♠"),
            (line_of(t, "Boris: half"), "only the second defender may go half-whist"),
            (line_of(t, "{Vera: whist, Anna: pass}"), "a misère has no whist or pass"),
            (line_of(t, "tricks: {Vera: 6}"), "both whisted: give each whister's tricks"),
        ],
    )
    assert "6 problems" in res.stderr


FOUR = """players: [Anna, Boris, Vera, Gleb]
deals:
  - declarer: Gleb
    contract: 6♠
    defenders: {Anna: pass, Boris: pass}
  - declarer: Boris
    contract: 6♠
    defenders: {Vera: pass, Anna: pass}
    tricks: {Boris: 6}
  - raspasy: {Boris: 3, Vera: 3, Gleb: 2, Anna: 3}
"""


def test_the_four_player_dealer_may_not_bid_or_whist(tmp_path: Path) -> None:
    """Gleb deals the first deal, Anna the second, Boris the third (he plays the talon)."""
    t = FOUR
    res = score(tmp_path, t)
    assert_refused(
        res,
        [
            (
                line_of(t, "declarer: Gleb"),
                "Gleb deals this deal and sits out: the 4-player dealer does not bid",
            ),
            (
                line_of(t, "Vera: pass, Anna: pass"),
                "Anna deals and sits out: he does not pass or go half-whist",
            ),
            (
                line_of(t, "raspasy:"),
                "Boris deals this deal and sits out: from the talon he can take at most 2",
            ),
        ],
    )


READ_ERRORS = """players: [Anna, Boris, Vera]
pool: 6:4
deals:
  - declarer: Zed
    contract: 6♠
    defenders: {Boris: whist, Vera: pass}
    tricks: {Zed: 6}
  - declarer: Boris
    contract: 11♠
    defenders: {Vera: pass, Anna: pass}
  - declarer: Vera
    contract: 7♥
    defenders: {Anna: wist, Boris: pass}
  - Anna 6♠ 7, Boris whist 2, Vera pass 1
"""


def test_every_read_problem_of_a_file_in_one_run(tmp_path: Path) -> None:
    t = READ_ERRORS
    res = score(tmp_path, t)
    assert_refused(
        res,
        [
            (2, "pool (the target): expected a whole number, got '6:4'"),
            (line_of(t, "declarer: Zed"), "declarer: unknown player 'Zed'"),
            (line_of(t, "{Zed: 6}"), "tricks: unknown player 'Zed'"),
            (line_of(t, "11♠"), "no contract '11♠': the level is 6, 7, 8, 9 or 10"),
            (line_of(t, "wist"), "unknown call 'wist'"),
        ],
    )
    assert "364" not in res.stderr  # not read as YAML 1.1 sexagesimal


def test_read_and_rule_problems_together(tmp_path: Path) -> None:
    """An unreadable deal does not hide the rule problems of the readable ones."""
    t = RULE_ERRORS + "  - declarer: Zed\n    contract: 6♠\n    defenders: {Boris: pass, Vera: pass}\n"
    res = score(tmp_path, t)
    assert res.exit_code == 1
    assert "unknown player 'Zed'" in res.stderr
    assert "tricks add up to 11" in res.stderr


def test_a_player_named_no_and_a_pool_of_012(tmp_path: Path) -> None:
    """YAML 1.1 would read No as false and 012 as octal 10: here No is a name and 012 twelve."""
    t = "players: [Anna, No, Vera]\npool: 012\ndeals:\n  - Anna 6s 7, No whist 2, Vera pass 1\n"
    res = score(tmp_path, t, "-f", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["players"] == ["Anna", "No", "Vera"]
    assert data["pool_target"] == 12
    # 6♠ made: No whisted alone, 3 side tricks × 2 = 6, short 1 of 4 → mountain 2
    assert data["sheet"]["No"] == {"pool": 0, "mountain": 2, "whists": {"Anna": 6, "Vera": 0}}


def test_a_log_without_players(tmp_path: Path) -> None:
    res = score(tmp_path, "deals:\n  - A 6s, B pass, C pass\n")
    assert res.exit_code == 1
    assert "evening.yaml:1:1: the log does not say who plays" in res.stderr


def test_unknown_key_in_a_deal_suggests_the_right_one(tmp_path: Path) -> None:
    t = "players: [A, B, C]\ndeals:\n  - declarer: A\n    contrakt: 6s\n"
    res = score(tmp_path, t)
    assert res.exit_code == 1
    assert "evening.yaml:4:5: unknown key 'contrakt' in a deal; did you mean 'contract'?" in res.stderr


CONTRACT_WORDING = [
    # what `contract:` says, and the message: the same parser and wording as a deal line
    ("6x", "unknown suit 'x' in '6x'; x is ч on the Russian layout: 6♥?"),
    ("6sx", "unknown suit 'sx' in '6sx'; did you mean 6s? suits: ♠ ♣ ♦ ♥ NT"),
    ("5♠", "no contract '5♠': the level is 6, 7, 8, 9 or 10"),
    ("7", "the contract '7' needs a suit; e.g. 7♠, 7s or 7NT"),
    ("mizre", "'mizre' is not a contract; did you mean 'mizer'? a contract is like 6♠, 7NT or misere"),
]


def test_contract_messages_are_the_line_formats(tmp_path: Path) -> None:
    """One contract parser (core/model.Contract.parse): a YAML `contract:` is refused with
    the message and hint a deal line gets for the same word."""
    for word, message in CONTRACT_WORDING:
        t = f"players: [Anna, Boris, Vera]\ndeals:\n  - declarer: Anna\n    contract: '{word}'\n"
        res = score(tmp_path, t)
        assert_refused(res, [(4, message)])
        assert "evening.yaml:4:15: " in res.stderr, res.stderr


def test_contract_spellings_with_spaces_and_emoji(tmp_path: Path) -> None:
    """`10 hearts`, `6 пик` and `6♦️` (an emoji variation selector) read as in a deal line."""
    t = (
        "players: [Anna, Boris, Vera]\ndeals:\n"
        "  - {declarer: Anna, contract: 10 hearts, defenders: {Boris: pass, Vera: pass}}\n"
        "  - {declarer: Boris, contract: 6 пик, defenders: {Vera: pass, Anna: pass}}\n"
        "  - {declarer: Vera, contract: 6♦️, defenders: {Anna: pass, Boris: pass}}\n"
    )
    res = score(tmp_path, t, "-f", "json")
    assert res.exit_code == 0, res.output
    from pulyacalc.logs.read import read_text

    log = read_text(t, "evening.yaml")
    assert [str(d.contract) for d in log.deals] == ["10♥", "6♠", "6♦"]  # type: ignore[union-attr]
