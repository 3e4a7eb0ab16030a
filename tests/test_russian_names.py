"""Russian names wherever a name is typed (issue #12 item 4): the built-in conventions by
their Russian names (``-c сочинка``, ``конвенция: питер``), the Russian header keys in
YAML logs and sheets, ``сдачи:`` and ``изменения:``, and ``convert --lang ru``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import examples
from hypothesis import given, settings
from test_convert import logs, reread, same
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.load import builtin_aliases, builtin_name, folded, load
from pulyacalc.core.errors import PulyaError
from pulyacalc.logs.words import RUSSIAN
from pulyacalc.logs.write import write_lines, write_yaml

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args), prog_name="pulyacalc")
    return r.exit_code, r.stdout, r.stderr


LINE_LOG = "players: Аня Боря Вера\nconvention: {conv}\nАня 6♠ 7, Боря whist 2, Вера pass 1\n"


@pytest.mark.parametrize(
    ("typed", "builtin"),
    [
        ("сочинка", "sochi"),
        ("Сочинка", "sochi"),
        ("СОЧИ", "sochi"),
        ("ленинградка", "leningrad"),
        ("Ленинград", "leningrad"),
        ("питер", "leningrad"),
        ("ПИТЕР", "leningrad"),
        ("ростов", "rostov"),
        ("Ростовка", "rostov"),
        ("Sochi", "sochi"),
    ],
)
def test_a_builtin_is_found_by_its_russian_names_in_any_case(typed: str, builtin: str) -> None:
    assert builtin_name(typed) == builtin
    assert load(typed) == load(builtin)


def test_yo_and_ye_are_the_same_letter() -> None:
    assert folded("Сдаёт") == folded("сдает") == "сдает"
    # an alias written with «ё» is found without it, and the other way round
    assert all("ё" not in alias for alias in builtin_aliases())


def test_minus_c_takes_a_russian_name_and_output_names_the_builtin(tmp_path: Path) -> None:
    log = tmp_path / "e.txt"
    log.write_text(LINE_LOG.format(conv="sochi"), encoding="utf-8")
    code, out, _ = run("score", str(log), "-c", "ленинградка", "-f", "json")
    assert code == 0
    assert json.loads(out)["convention"] == "leningrad"
    code, out_en, _ = run("score", str(log), "-c", "leningrad", "-f", "json")
    assert out == out_en


def test_a_log_names_its_convention_in_russian(tmp_path: Path) -> None:
    ru, en = tmp_path / "ru.txt", tmp_path / "en.txt"
    ru.write_text(LINE_LOG.format(conv="Питер"), encoding="utf-8")
    en.write_text(LINE_LOG.format(conv="leningrad"), encoding="utf-8")
    assert run("score", str(ru), "-f", "json")[1] == run("score", str(en), "-f", "json")[1]


def test_a_mistyped_russian_name_gets_the_nearest_russian_name(tmp_path: Path) -> None:
    log = tmp_path / "e.txt"
    log.write_text(LINE_LOG.format(conv="sochi"), encoding="utf-8")
    code, _, err = run("score", str(log), "-c", "сочинко")
    assert code == 2
    assert "did you mean 'сочинка'?" in err
    code, _, err = run("conventions", "show", "ростовкаа")
    assert code != 0
    assert "ростовка" in err


def test_conventions_show_by_a_russian_name_lists_the_aliases() -> None:
    code, out, _ = run("conventions", "show", "питер")
    assert code == 0
    assert "name: leningrad" in out
    assert "aliases: [ленинградка, ленинград, питер]" in out


def test_a_house_file_has_aliases_of_its_own_not_its_base(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: sochi\ntitle: Дом\n", encoding="utf-8")
    assert load(str(house)).aliases == ()
    house = tmp_path / "bad.yaml"
    house.write_text("extends: sochi\naliases: {a: b}\n", encoding="utf-8")
    with pytest.raises(PulyaError) as e:
        load(str(house))
    assert [p.format() for p in e.value.problems] == [
        f"{house}:2:10: aliases: expected a list of names, got a mapping"
    ]


YAML_EN = """players: [Аня, Боря, Вера]
dealer: Вера
convention: leningrad
pool: 10
overrides:
  whist.on_failure: greedy
deals:
  - {declarer: Аня, contract: 6♠, defenders: {Боря: whist, Вера: pass}, tricks: {Аня: 7, Боря: 2, Вера: 1}}
  - {raspasy: {Аня: 4, Боря: 1, Вера: 5}}
"""
YAML_RU = (
    YAML_EN.replace("players:", "Игроки:")
    .replace("dealer:", "сдает:")
    .replace("convention: leningrad", "конвенция: ленинградка")
    .replace("pool:", "ПУЛЯ:")
    .replace("overrides:", "изменения:")
    .replace("deals:", "сдачи:")
)


def test_a_yaml_log_in_russian_keys_scores_as_in_english(tmp_path: Path) -> None:
    en, ru = tmp_path / "en.yaml", tmp_path / "ru.yaml"
    en.write_text(YAML_EN, encoding="utf-8")
    ru.write_text(YAML_RU, encoding="utf-8")
    a, b = run("score", str(en), "-f", "json"), run("score", str(ru), "-f", "json")
    assert a[0] == b[0] == 0, b[2]
    assert a[1] == b[1]
    assert json.loads(b[1])["overrides"] == {"whist.on_failure": "greedy"}


def test_a_mistyped_russian_key_is_named_as_written(tmp_path: Path) -> None:
    ru = tmp_path / "ru.yaml"
    ru.write_text(YAML_RU.replace("сдачи:", "сдача:"), encoding="utf-8")
    code, _, err = run("score", str(ru))
    assert code == 1
    assert "unknown key 'сдача' in the log" in err


def test_a_sheet_in_russian_keys_settles_as_in_english(tmp_path: Path) -> None:
    text = (EXAMPLES / "sheet.yaml").read_text(encoding="utf-8")
    assert "\nplayers:" in "\n" + text
    ru = tmp_path / "sheet.yaml"
    ru.write_text(("\n" + text).replace("\nplayers:", "\nигроки:")[1:], encoding="utf-8")
    a = run("settle", str(EXAMPLES / "sheet.yaml"), "-f", "json")
    b = run("settle", str(ru), "-f", "json")
    assert b[0] == 0, b[2]
    assert json.loads(a[1])["players"] == json.loads(b[1])["players"]


# -- convert --lang ru -----------------------------------------------------------------------

FULL = """players: Anna Boris Vera Dan
dealer: Dan
convention: leningrad
pool: 30
whist.on_failure: greedy

Anna 6♠ 7, Boris whist 2, Vera pass 1, talon cards A♠ K♥
Boris 7NT, Vera pass, Anna pass, dealer Anna
Vera misere 1
Anna pass 4, Boris pass 1, Vera pass 3, Dan talon 2
Boris 7♦ concede, Vera whist, Anna pass  # «без трёх»
correction Vera whists on Boris 3/2 "forgotten"
correction Anna mountain -2 "agreed"
Vera 6♣, Anna pass, Boris half
"""


@pytest.mark.parametrize("to", ["lines", "yaml"])
def test_convert_lang_ru_writes_russian_words_that_read_back_as_the_same_deals(
    tmp_path: Path, to: str
) -> None:
    src = tmp_path / "full.txt"
    src.write_text(FULL, encoding="utf-8")
    code, out, err = run("convert", str(src), "--to", to, "--lang", "ru")
    assert code == 0, err
    # the words a person types; a YAML deal's own keys (declarer:, talon: …) stay English
    english = ["players", "pool:", "deals", "pass", "whist", "half", "misere", "mountain"]
    russian = ["игроки:", "сдаёт", "пуля:", "пас", "вист", "полвиста", "мизер", "гора"]
    if to == "lines":
        english += ["talon", "dealer", "concede", "correction"]
        russian += ["прикуп", "без трёх", "поправка"]
    else:
        russian += ["сдачи:"]
    for word in english:
        assert word not in out.replace("whist.on_failure", ""), word
    for word in russian:
        assert word in out, word
    back = tmp_path / f"ru.{'txt' if to == 'lines' else 'yaml'}"
    back.write_text(out, encoding="utf-8")
    # the same deals: the English canonical form of both is the same text
    en_a = run("convert", str(src), "--to", "lines")[1]
    en_b = run("convert", str(back), "--to", "lines")[1]
    assert en_a == en_b
    assert run("score", str(src), "-f", "json")[1] == run("score", str(back), "-f", "json")[1]


@pytest.mark.parametrize("example", ["sochi-3p.txt", "leningrad-4p.yaml", "rostov-3p.yaml"])
def test_every_example_survives_russian(example: str, tmp_path: Path) -> None:
    src = EXAMPLES / example
    for to, suffix in (("lines", "txt"), ("yaml", "yaml")):
        out = run("convert", str(src), "--to", to, "--lang", "ru")[1]
        back = tmp_path / f"back.{suffix}"
        back.write_text(out, encoding="utf-8")
        # the log's own comments and spellings go; its score does not change
        a = json.loads(run("score", str(src), "-f", "json")[1])
        b = json.loads(run("score", str(back), "-f", "json")[1])
        assert {k: v for k, v in a.items() if k != "log"} == {k: v for k, v in b.items() if k != "log"}


def test_lang_en_is_the_canonical_form(tmp_path: Path) -> None:
    src = EXAMPLES / "sochi-3p.txt"
    assert run("convert", str(src), "--to", "lines", "--lang", "en") == run(
        "convert", str(src), "--to", "lines"
    )


def test_a_wrong_lang_is_usage() -> None:
    code, _, err = run("convert", str(EXAMPLES / "sochi-3p.txt"), "--to", "lines", "--lang", "de")
    assert code == 2
    assert "--lang" in err


@settings(max_examples=examples(100), deadline=None)
@given(logs())
def test_russian_there_and_back_gives_the_same_deals(log: object) -> None:
    from pulyacalc.core.model import Log

    assert isinstance(log, Log)
    lines = "".join(write_lines(log, RUSSIAN))
    same(log, reread(lines, "lines"))
    same(log, reread("".join(write_yaml(log, RUSSIAN)), "yaml"))
