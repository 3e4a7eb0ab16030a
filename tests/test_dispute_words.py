"""`dispute` for a non-programmer (issue 28, item 10): readings named as players say them,
in both languages; a key that changes nothing left to one line; the bracket labelled."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.schema import SCHEMA

SOCHI = str(Path(__file__).resolve().parent.parent / "examples" / "sochi-3p.txt")


def run(*args: str) -> str:
    r = CliRunner().invoke(app, list(args), prog_name="pulyacalc")
    assert r.exit_code == 0, r.output
    return r.stdout


def test_every_contested_reading_has_a_name_a_player_says() -> None:
    for row in SCHEMA.values():
        if row.contested:
            for value, _ in row.contested.readings(row):
                assert row.contested.name(value) != str(value), (row.name, value)


def test_readings_are_named_in_words_in_english_and_russian() -> None:
    en, ru = run("dispute", SOCHI, "--deal", "9"), run("--lang", "ru", "dispute", SOCHI, "--deal", "9")
    assert "  greedy whist *  " in en and "  gentleman whist  " in en and "yes, the passer consoles *" in en
    assert "  жлобский вист *  " in ru and "  джентльменский вист  " in ru and "да, пасующий" in ru
    assert "in the header: whist.on_failure: gentleman" in en  # the key's value still as a header writes it
    assert "in brackets: the change over the evening" in en and "в скобках: изменение за вечер" in ru


def test_a_key_that_changes_nothing_is_one_line() -> None:
    text = run("dispute", SOCHI, "--deal", "5")
    area = "raspasy.zero_trick_bonus_area (into the pool / off the mountain)"
    assert text.rstrip().endswith(f"Also contested, the same results under every reading: {area}")
    assert text.count("raspasy.zero_trick_bonus_area") == 1
    doc = json.loads(run("dispute", SOCHI, "--deal", "5", "-f", "json"))
    assert {k["key"]: k["changes"] for k in doc["contested"]} == {
        "raspasy.zero_trick_bonus": True,
        "raspasy.zero_trick_bonus_area": False,
    }
    names = [r["name"] for r in doc["contested"][1]["readings"]]
    assert names == ["into the pool", "off the mountain"]
    assert [r["value"] for r in doc["contested"][1]["readings"]] == ["pool", "mountain"]
