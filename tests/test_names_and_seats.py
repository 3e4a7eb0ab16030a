"""Names, seat changes and what a log holds, each read back as it was meant (issue 31 items
17–20): a name the line format would read as two, a join that respells a seated player, a
note that a line cannot hold, a name that is a word of the format, a YAML tag."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import Problems, ReadError
from pulyacalc.logs.read import read_text

THREE = "players: Anna Boris Vera\ndealer: Vera\n\nAnna 6♠ 6, Boris whist 4, Vera pass\n"


def problems(text: str) -> list[str]:
    """What reading and scoring a line log says, each problem as ``LINE:COL: message``."""
    r = CliRunner().invoke(app, ["score", "-", "--input-format", "lines"], input=text)
    assert r.exit_code == 1, r.output
    return [line.removeprefix("<stdin>:") for line in r.stderr.splitlines() if line.startswith("<stdin>:")]


@pytest.mark.parametrize(
    ("players", "said"),
    [
        ("Anna Bo]ris Vera", "1:15: a player's name cannot hold , ; : # [ or ]: 'Bo]ris'"),
        ("Anna Boris:x Vera", "1:15: a player's name cannot hold , ; : # [ or ]: 'Boris:x'"),
        ("Anna Boris;Vera Dan", "1:15: a player's name cannot hold , ; : # [ or ]: 'Boris;Vera'"),
        ("[Anna, Boris, Vera", "1:10: a player's name cannot hold , ; : # [ or ]: '[Anna'"),
    ],
)
def test_a_name_the_line_format_would_split_is_refused_at_its_place(players: str, said: str) -> None:
    """Item 19: a bracket inside a name no longer splits it into two players."""
    assert problems(f"players: {players}\n\nAnna 6♠ 6, Boris whist 4, Vera pass\n") == [said]


def test_a_list_in_brackets_still_reads_and_a_yaml_name_with_a_colon_is_refused() -> None:
    log = read_text("players: [Anna, Boris, Vera]\n\nAnna 6♠ 6, Boris whist 4, Vera pass\n", "l.txt")
    assert log.header.players == ("Anna", "Boris", "Vera")
    with pytest.raises(ReadError) as e:
        read_text('players: [Anna, "Boris:x", Vera]\ndeals: []\n', "l.yaml")
    assert [x.message for x in e.value.problems] == ["a player's name cannot hold , ; : # [ or ]: 'Boris:x'"]


def test_a_join_that_respells_a_player_is_that_player_joining_twice() -> None:
    """Item 17: ``join anna`` with Anna on the sheet is Anna, who joins once; never a second
    player ``anna`` whom no spelling can name."""
    found = problems(THREE + "join anna\nANNA 6♠ 6, Boris whist 4, Vera pass\n")
    assert found[0].startswith("5:1: Anna is already on the sheet: a player joins once"), found


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Nina Petrovna", "a newcomer's name is one word: 'Nina Petrovna'"),
        ("Ni:na", "a player's name cannot hold , ; : # [ or ]: 'Ni:na'"),
        ("7up", "a player's name cannot start with a digit: '7up'"),
    ],
)
def test_a_yaml_join_name_is_held_to_what_a_line_can_write(name: str, said: str) -> None:
    """Item 17: a YAML join name with a space was accepted, and convert wrote a line log
    that did not read back."""
    p = Problems()
    text = (
        f"players: [Anna, Boris, Vera]\ndeals:\n  - Anna 6♠ 6, Boris whist 4, Vera pass\n  - join: {name!r}\n"
    )
    read_text(text.replace("'", '"'), "l.yaml", problems=p)
    assert [str(x.loc) + ": " + x.message for x in p.items] == [f"l.yaml:4:11: {said}"]


def test_a_note_that_is_not_text_is_refused_not_dropped() -> None:
    """Item 18: ``note: [a, b]`` was dropped without a word by every reader and ``convert``."""
    p = Problems()
    text = "players: [Anna, Boris, Vera]\ndeals:\n  - {raspasy: {Anna: 4, Boris: 3, Vera: 3}, note: [a, b]}\n"
    log = read_text(text, "l.yaml", problems=p)
    list(log.deals)
    assert [(str(x.loc), x.message) for x in p.items] == [("l.yaml:3:51", "note: expected text, got a list")]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_player_named_as_a_word_of_the_format_converts_and_reads_back(tmp_path: Path, lang: str) -> None:
    """Item 18: ``convert --lang ru`` wrote ``поправка Anna гора 2`` for a correction of a log
    with a player named ``поправка``, and ``прикуп A♠ K♠`` for the talon's cards with one
    named ``прикуп``: each read back as that player's clause."""
    src = tmp_path / "src.txt"
    src.write_text(
        "players: Anna поправка прикуп Dan\ndealer: Dan\n\n"
        "Anna 6♠ 6, поправка whist 4, прикуп pass, talon cards A♠ K♠, dealer Dan\n"
        'correction Anna mountain +2 "typo"\njoin сдаёт\nleave Dan\n'
        "прикуп 6♠ 6, сдаёт whist 4, Anna pass, dealer поправка\n",
        encoding="utf-8",
    )
    run = CliRunner().invoke
    want = run(app, ["score", str(src), "-f", "json"])
    assert want.exit_code == 0, want.output
    out = tmp_path / "out.txt"
    assert run(app, ["convert", str(src), "--lang", lang, "-o", str(out)]).exit_code == 0
    got = run(app, ["score", str(out), "-f", "json"])
    assert got.exit_code == 0, (out.read_text(encoding="utf-8"), got.output)
    assert got.stdout == want.stdout


def test_a_binary_tag_is_refused_as_every_other() -> None:
    """Item 19: the docs say tags are refused; ``!!binary`` was let through."""
    with pytest.raises(ReadError) as e:
        read_text("players: [Anna, Boris, Vera]\ntitle: !!binary QW5uYQ==\ndeals: []\n", "l.yaml")
    assert [x.message for x in e.value.problems] == ["YAML tag 'tag:yaml.org,2002:binary' is not allowed"]


def test_a_correction_names_only_who_is_not_at_the_table() -> None:
    """Item 20: '…not at the table: Vera, None' for a correction with no one it is on."""
    text = "players: Anna Boris Vera Dan\ndealer: Vera\n\nAnna 6♠ 6, Boris whist 4, Dan pass\nleave Vera\n"
    found = problems(text + 'correction Vera mountain +2 "typo"\ncorrection Anna whists on Vera 2 "typo"\n')
    assert found == [
        "6:1: a correction names someone not at the table: Vera",
        "7:1: a correction names someone not at the table: Vera",
    ]
