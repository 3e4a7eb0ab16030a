"""The talon's cards (K3.4.11) and «без трёх» (K note 40) as logs write them: the card
type and its spellings, the readers' located errors in both formats, what the premium
counts, `convert` keeping both, and exit 1 with a located message from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import Loc, Problems
from pulyacalc.core.model import RANK_SPELLINGS, SUIT_SPELLINGS, Card, Play, Suit
from pulyacalc.logs.lines import parse_deal_line
from pulyacalc.logs.read import read_text
from pulyacalc.logs.write import deal_key, write_lines, write_yaml
from pulyacalc.scoring.rules import talon_tricks

runner = CliRunner()
PLAYERS = ("Anna", "Boris", "Vera")


def cards(*words: str) -> tuple[Card, ...]:
    return tuple(Card.parse(w) for w in words)


# -- the card type ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("A♠", "A♠"),
        ("10♥", "10♥"),
        ("Ks", "K♠"),
        ("Th", "10♥"),
        ("qd", "Q♦"),
        ("J♣", "J♣"),
        ("Тп", "A♠"),
        ("Кч", "K♥"),
        ("Дб", "Q♦"),
        ("Вт", "J♣"),
        ("туз пик", "A♠"),
        ("король червей", "K♥"),
        ("дама бубен", "Q♦"),
        ("семёрка треф", "7♣"),
        ("queen hearts", "Q♥"),
        ("7 ♦️", "7♦"),
    ],
)
def test_a_card_is_read_in_every_spelling_and_printed_one_way(written: str, shown: str) -> None:
    card = Card.parse(written)
    assert str(card) == shown
    assert Card.parse(str(card)) == card


def test_every_rank_and_suit_spelling_together_reads_as_that_card_and_no_other() -> None:
    for r, rank in RANK_SPELLINGS.items():
        for s, suit in SUIT_SPELLINGS.items():
            if suit is Suit.NO_TRUMP:
                continue
            assert Card.parse(r + s) == Card(rank, suit), r + s


@pytest.mark.parametrize("word", ["X♠", "A", "♠", "ANT", "1♠", "11♥", "туз", ""])
def test_what_is_not_a_card_is_refused(word: str) -> None:
    with pytest.raises(ValueError, match="unknown card"):
        Card.parse(word)


# -- what the premium counts (K3.4.11) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("talon", "count"),
    [
        (("A♠",), 1),
        (("A♠", "7♥"), 1),
        (("A♠", "K♠"), 2),
        (("K♠", "A♠"), 2),
        (("A♠", "K♥"), 1),
        (("A♠", "Q♠"), 1),
        (("A♠", "A♥"), 3),
        (("K♣", "Q♣"), 1),
        (("K♣", "Q♦"), 0),
        (("K♣", "J♣"), 0),
        (("K♣",), 0),
        (("Q♣",), 0),
        (("10♠", "9♠"), 0),
    ],
)
def test_the_talon_counts_as_the_code_says(talon: tuple[str, ...], count: int) -> None:
    assert talon_tricks(cards(*talon))[0] == count


# -- the line reader ---------------------------------------------------------------------------


def read_line(text: str) -> tuple[Play | None, list[str]]:
    problems = Problems()
    deal = parse_deal_line(text, Loc("f", 3, 1), PLAYERS, problems, source=text)
    assert deal is None or isinstance(deal, Play)
    return deal, [p.format() for p in problems.items]


@pytest.mark.parametrize(
    "text",
    [
        "Anna 6♠ 7, Boris whist 2, Vera pass 1, talon cards A♠ K♠",
        "Anna 6♠ 7, Boris whist 2, Vera pass 1, talon A♠ K♠",
        "прикуп туз пик король пик, Anna 6♠ 7, Boris вист 2, Vera пас 1",
        "Anna 6♠ 7, Boris whist 2, Vera pass 1, прикуп карты Тп Кп",
    ],
)
def test_the_talon_clause_is_read_anywhere_in_the_line(text: str) -> None:
    deal, problems = read_line(text)
    assert problems == []
    assert deal is not None and deal.talon == cards("A♠", "K♠") and not deal.concede


@pytest.mark.parametrize(("text", "concede"), [("Anna 7♠ concede", True), ("Anna 7♠ без трёх", True)])
def test_concede_is_read_after_the_contract(text: str, concede: bool) -> None:
    deal, problems = read_line(text)
    assert problems == []
    assert deal is not None and deal.concede is concede and deal.contract.level == 7


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("Anna 6♠ 7, Boris whist 2, Vera pass 1, talon cards A♠ K♠ Q♠", "f:3:58:", "a third card Q♠"),
        ("Anna 6♠ 7, Boris whist 2, Vera pass 1, talon A♠ A♠", "f:3:49:", "A♠ is given twice"),
        ("Anna 6♠ 7, Boris whist 2, Vera pass 1, talon X♠", "f:3:46:", "unknown card 'X♠'"),
        ("Anna 6♠ 7, Boris whist 2, Vera pass 1, talon cards", "f:3:51:", "which cards were in the talon?"),
        ("talon A♠, talon K♠, Anna 6♠ 6, Boris whist 2, Vera whist 2", "f:3:11:", "given twice"),
        ("Anna pass 3, Boris pass 3, Vera pass 4, talon A♠", "f:3:41:", "this deal has none"),
        ("Boris 7♠ 7, Anna whist concede", "f:3:24:", "only the declarer concedes"),
    ],
)
def test_impossible_talons_and_misplaced_concedes_are_located(text: str, where: str, message: str) -> None:
    deal, problems = read_line(text)
    assert deal is None
    assert len(problems) == 1
    assert problems[0].startswith(where), problems[0]
    assert message in problems[0]
    assert text in problems[0]  # the line echoed with a caret


# -- the YAML reader ---------------------------------------------------------------------------

YAML_HEAD = "players: [Anna, Boris, Vera]\ndeals:\n"


def read_yaml(deal: str) -> tuple[list[object], list[str]]:
    problems = Problems()
    log = read_text(YAML_HEAD + deal, "t.yaml", problems=problems)
    return list(log.deals), [p.format() for p in problems.items]


def test_yaml_talon_and_concede_are_read() -> None:
    deals, problems = read_yaml(
        "  - {declarer: Anna, contract: 6♠, defenders: {Boris: whist, Vera: pass}, "
        "tricks: {Anna: 6}, talon: [A♠, туз червей]}\n"
        "  - {declarer: Anna, contract: 7♠, concede: true}\n"
    )
    assert problems == []
    first, second = deals
    assert isinstance(first, Play) and first.talon == cards("A♠", "A♥")
    assert isinstance(second, Play) and second.concede


@pytest.mark.parametrize(
    ("talon", "where", "message"),
    [
        ("[A♠, K♠, Q♠]", "t.yaml:3:", "a third card Q♠"),
        ("[A♠, A♠]", "t.yaml:3:", "A♠ is given twice"),
        ("[A♠, Z♠]", "t.yaml:3:", "unknown card"),
        ("A♠", "t.yaml:3:", "expected a list of one or two cards"),
        ("[]", "t.yaml:3:", "expected a list of one or two cards"),
    ],
)
def test_yaml_impossible_talons_are_located(talon: str, where: str, message: str) -> None:
    _, problems = read_yaml(
        f"  - {{declarer: Anna, contract: 6♠, defenders: {{Boris: pass, Vera: pass}}, talon: {talon}}}\n"
    )
    assert len(problems) == 1
    assert problems[0].startswith(where) and message in problems[0], problems[0]


def test_yaml_raspasy_has_no_talon_cards_and_concede_is_a_flag() -> None:
    _, problems = read_yaml("  - {raspasy: {Anna: 4, Boris: 3, Vera: 3}, talon: [A♠]}\n")
    assert len(problems) == 1 and "a raspasy deal has no 'talon'" in problems[0]
    _, problems = read_yaml("  - {declarer: Anna, contract: 7♠, concede: maybe}\n")
    assert len(problems) == 1 and "concede" in problems[0]


# -- convert keeps them -------------------------------------------------------------------------

LOG = """players: Anna Boris Vera
contracts.concede_three: true

Anna 6♠ 7, Boris whist 2, Vera pass 1, talon cards A♠ K♠
Boris 7♥ concede
Vera 6♣, Anna pass, Boris pass, прикуп дама треф король треф
"""


def test_convert_keeps_the_talon_and_concede_both_ways() -> None:
    log = read_text(LOG, "t.txt", problems=Problems())
    deals = list(log.deals)
    lines = "".join(write_lines(read_text(LOG, "t.txt", problems=Problems())))
    assert "Anna 6♠ 7, Boris whist 2, Vera pass 1, talon cards A♠ K♠\n" in lines
    assert "Boris 7♥ concede\n" in lines
    assert "Vera 6♣, Anna pass, Boris pass, talon cards Q♣ K♣\n" in lines
    yaml = "".join(write_yaml(read_text(LOG, "t.txt", problems=Problems())))
    assert "    talon: [A♠, K♠]\n" in yaml and "    concede: true\n" in yaml
    for text, name in ((lines, "back.txt"), (yaml, "back.yaml")):
        back = list(read_text(text, name, problems=Problems()).deals)
        assert [deal_key(d) for d in back] == [deal_key(d) for d in deals]  # type: ignore[arg-type]


def test_deal_key_tells_talons_and_concedes_apart() -> None:
    base = "Anna 6♠ 7, Boris whist 2, Vera pass 1"
    keys = {
        deal_key(read_line(t)[0])  # type: ignore[arg-type]
        for t in (base, base + ", talon A♠", base + ", talon K♠", base + ", talon A♠ K♠")
    }
    assert len(keys) == 4
    assert deal_key(read_line("Anna 7♠ concede")[0]) != deal_key(
        read_line("Anna 7♠, Boris pass, Vera pass")[0]
    )  # type: ignore[arg-type]


# -- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "deal", "message"),
    [
        ("premium.enabled: true", "Anna 6♠ 7, Boris whist 2, Vera pass 1, talon A♠ K♠ Q♠", "t.txt:4:"),
        ("", "Anna 7♠ concede", "contracts.concede_three"),
        ("whist.stalingrad: true", "Anna 6♠ 7, Boris whist, Vera pass", "whist.stalingrad"),
    ],
)
def test_score_refuses_with_a_located_message_and_exit_1(
    tmp_path: Path, header: str, deal: str, message: str
) -> None:
    log = tmp_path / "t.txt"
    log.write_text(f"players: Anna Boris Vera\n{header}\n\n{deal}\n", encoding="utf-8")
    r = runner.invoke(app, ["score", str(log)], prog_name="pulyacalc")
    assert r.exit_code == 1
    assert f"{log}:4:" in r.stderr and message.replace("t.txt", str(log)) in r.stderr
    assert "Traceback" not in r.stderr


def test_the_same_line_with_another_talon_writes_its_own_premium() -> None:
    """The scorer remembers what a deal line writes per its text: the talon is part of it."""
    from helpers import run

    two_aces = "Anna 6♠ 6, Boris whist, Vera pass, talon A♠ A♥"
    one_ace = "Anna 6♠ 6, Boris whist, Vera pass, talon A♠"
    result = run(
        "sochi",
        PLAYERS,
        two_aces,
        one_ace,
        two_aces,
        extra=["premium.enabled: true", "premium.by: opponents"],
    )
    for deal, each in ((1, 3), (2, 1), (3, 3)):
        premium = {(e.player, e.amount) for e in result.entries(deal) if e.rule == "premium"}
        assert premium == {("Boris", each), ("Vera", each)}
