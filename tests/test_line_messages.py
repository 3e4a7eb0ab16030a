"""The line format's messages for what paper notes write (issue 10, items 3 and 4): a missing
comma or a ``;`` between clauses is said as such, at the place, with the line echoed; a
failed contract written as undertricks (``Anna 6♠ -1``, ``6п без одной``, ``без 2``) reads as
the declarer's tricks, which ``convert`` writes and ``explain`` shows."""

from __future__ import annotations

import pytest

from pulyacalc.core.errors import Loc, Problems
from pulyacalc.core.model import CONCEDE_SPELLINGS, UNDERTRICK_SPELLINGS, Contract, Play, Suit
from pulyacalc.logs.lines import parse_deal_line
from pulyacalc.logs.read import read_text
from pulyacalc.logs.write import deal_key, write_lines

P3 = ("Anna", "Boris", "Vera")
RU = ("Аня", "Боря", "Вера")


def problems_of(line: str, players: tuple[str, ...] = P3) -> list[str]:
    """Each problem of one deal line as printed: location, message, echo and caret."""
    problems = Problems()
    parse_deal_line(line, Loc("e.txt", 3, 1), players, problems, source=line)
    return [p.format() for p in problems.items]


def read(line: str, players: tuple[str, ...] = P3) -> Play:
    problems = Problems()
    deal = parse_deal_line(line, Loc("e.txt", 3, 1), players, problems, source=line)
    assert not problems.items, [p.format() for p in problems.items]
    assert isinstance(deal, Play)
    return deal


# -- item 3: clauses are separated by commas --------------------------------------------------


def test_a_missing_comma_is_said_at_its_place() -> None:
    assert problems_of("Аня 6♠ 7 Боря вист 4 Вера пас", RU) == [
        "e.txt:3:9: clauses are separated by commas: a comma is missing before 'Боря'; "
        "write '7, Боря'; a clause is a name, a call and tricks, like 'Anna 6♠ 7'\n"
        "    Аня 6♠ 7 Боря вист 4 Вера пас\n"
        "            ^"
    ]


def test_a_missing_comma_after_a_count_with_a_misspelled_name() -> None:
    # the name is not known, but a count of tricks ends a clause
    (message,) = problems_of("Anna 6♠ 7 Bors whist 2, Vera pass 1")
    assert message.startswith("e.txt:3:10: clauses are separated by commas: a comma is missing before 'Bors'")


def test_a_missing_comma_without_tricks() -> None:
    (message,) = problems_of("Anna 6♠ Boris whist 2, Vera pass 1")
    assert message.startswith("e.txt:3:8: clauses are separated by commas: a comma is missing before 'Boris'")
    assert "unknown suit" not in message


def test_a_missing_comma_on_raspasy() -> None:
    (message,) = problems_of("raspasy Anna 3 Boris 4, Vera 3")
    assert message.startswith(
        "e.txt:3:15: clauses are separated by commas: a comma is missing before 'Boris'"
    )


def test_a_missing_comma_after_the_dealer() -> None:
    (message,) = problems_of("Anna 6♠ 7, dealer Boris Vera pass 1, Boris whist 2")
    assert message.startswith("e.txt:3:24: clauses are separated by commas: a comma is missing before 'Vera'")


def test_a_semicolon_is_said_at_the_semicolon() -> None:
    assert problems_of("Аня 6♠ 7; Боря вист 2; Вера пас 1", RU) == [
        "e.txt:3:9: clauses are separated by commas, not ';'; replace each ';' with ','\n"
        "    Аня 6♠ 7; Боря вист 2; Вера пас 1\n"
        "            ^"
    ]


def test_a_semicolon_glued_to_the_next_name() -> None:
    (message,) = problems_of("Anna 6♠;Boris whist 2, Vera pass 1")
    assert message.startswith("e.txt:3:8: clauses are separated by commas, not ';'")


def test_a_bad_suit_is_still_an_unknown_suit() -> None:
    (message,) = problems_of("Anna 6x 7, Boris whist 2, Vera pass 1")
    assert message.startswith("e.txt:3:6: unknown suit 'x'")


# -- item 4: undertricks -----------------------------------------------------------------------


def _written(key: str) -> str:
    """A key of UNDERTRICK_SPELLINGS as a person writes it: 'без одной', 'down 2', '-1'."""
    for word in ("без", "down"):
        if key.startswith(word):
            return f"{word} {key[len(word) :]}"
    return key


@pytest.mark.parametrize("key", sorted(UNDERTRICK_SPELLINGS))
def test_every_undertrick_spelling_reads_as_the_declarers_tricks(key: str) -> None:
    n = UNDERTRICK_SPELLINGS[key]
    for written in {_written(key), key}:
        deal = read(f"Anna 10♠ {written}, Boris whist 0, Vera whist 0")
        assert deal.tricks["Anna"] == 10 - n, written
        assert deal.contract == Contract(10, Suit.SPADES)


def test_the_table_keeps_без_трёх_for_the_concede() -> None:
    # «без трёх» says the declarer conceded without play (K note 40), not three down
    assert not set(UNDERTRICK_SPELLINGS) & CONCEDE_SPELLINGS
    assert UNDERTRICK_SPELLINGS["-3"] == 3
    assert read("Anna 7♠ без трёх").concede


@pytest.mark.parametrize(
    "line",
    [
        "Аня 6п -1, Боря вист 4, Вера пас",
        "Аня 6п без одной, Боря вист 4, Вера пас",
        "Аня 6 пик без 1, Боря вист 4, Вера пас",
        "Аня 6♠ БЕЗ ОДНОЙ, Боря вист 4, Вера пас",
        "Аня 6♠ −1, Боря вист 4, Вера пас",
        "Аня 6♠ down 1, Боря вист 4, Вера пас",
    ],
)
def test_undertricks_read_like_the_tricks(line: str) -> None:
    assert deal_key(read(line, RU)) == deal_key(read("Аня 6♠ 5, Боря вист 4, Вера пас", RU))


def test_undertricks_keep_the_clause_order() -> None:
    down = read("Boris whist 4, Anna 7NT без двух, Vera pass 1")
    assert list(down.tricks.items()) == [("Boris", 4), ("Anna", 5), ("Vera", 1)]
    assert down.locs["tricks:Anna"].column == 25


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("Anna 6♠ -1 5, Boris whist 4, Vera pass", "3:9: Anna's tricks are given twice: 5 and 1 down"),
        ("Anna 6♠ без 2 5, Boris whist 4, Vera pass", "3:9: Anna's tricks are given twice: 5 and 2 down"),
        ("Anna 6♠ 5, Boris whist -1, Vera pass", "3:24: undertricks are the declarer's: Anna declared 6♠"),
        ("Anna misere без одной", "3:13: a misère is not played down"),
        ("Anna 6♠ -7, Boris whist, Vera pass", "3:9: 7 down on 6♠: Anna cannot take fewer than no tricks"),
        ("Anna pass -1, Boris pass 3, Vera pass 3", "3:11: undertricks are said after a contract"),
    ],
)
def test_undertricks_that_cannot_be(line: str, want: str) -> None:
    (message,) = problems_of(line)
    assert message.startswith(f"e.txt:{want}"), message


LOG = "players: Аня Боря Вера\n\nАня 6п без одной, Боря вист 4, Вера пас\nБоря вист 3, Аня 7 бк -3, Вера вист 3\n"


def test_convert_writes_the_tricks() -> None:
    log = read_text(LOG, "e.txt")
    assert "".join(write_lines(log)).splitlines()[2:] == [
        "Аня 6♠ 5, Боря whist 4, Вера pass",
        "Аня 7NT 4, Боря whist 3, Вера whist 3",
    ]


def test_explain_shows_the_tricks() -> None:
    from helpers import score_text

    from pulyacalc.reports.explain import explain

    lines = [d.line for d in explain(score_text(LOG, "e.txt", running=True)).deals]
    assert lines == ["Аня 6♠ 5, Боря whist 4, Вера pass", "Аня 7NT 4, Боря whist 3, Вера whist 3"]
