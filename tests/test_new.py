"""`pulyacalc new`: a commented template that scores as written, and whose examples, each
uncommented in order, score and check clean (issue 10 item 11)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


def uncommented(text: str) -> str:
    # every example line without its leading '# ' and trailing '# k kind'
    out = []
    for line in text.splitlines():
        m = re.match(r"# (\S.*?)\s+# \d+ ", line)
        out.append(m.group(1) if m else line)
    return "\n".join(out) + "\n"


def test_a_russian_evening_in_russian_words() -> None:
    r = run("new", "--players", "Аня Боря Вера", "-c", "sochi")
    assert r.exit_code == 0, r.output
    # the header keys in the language of the words (docs/format.md)
    assert "игроки: Аня Боря Вера\nсдаёт: Вера\nконвенция: sochi\n" in r.stdout
    assert "# Боря мизер 0" in r.stdout
    assert "вист" in r.stdout and "полвиста" in r.stdout and "распасы" in r.stdout
    assert "whist" not in r.stdout


def test_english_names_english_words_and_lang_overrides() -> None:
    en = run("new", "--players", "Anna Boris Vera").stdout
    assert "# Boris misere 0" in en and "convention: sochi" in en
    ru = run("new", "--players", "Anna Boris Vera", "--lang", "ru").stdout
    assert "# Boris мизер 0" in ru


@pytest.mark.parametrize(
    ("players", "convention", "deals"),
    [
        ("Аня Боря Вера", "sochi", 6),
        ("Anna Boris Vera", "rostov", 6),
        ("Anna Boris Vera Dan", "leningrad", 7),
    ],
)
def test_the_template_and_its_examples_score_and_check(
    tmp_path: Path, players: str, convention: str, deals: int
) -> None:
    text = run("new", "--players", players, "-c", convention).stdout
    as_written = tmp_path / "evening.txt"
    as_written.write_text(text, "utf-8")
    assert run("score", str(as_written)).exit_code == 0
    checked = run("check", str(as_written))
    assert checked.exit_code == 0 and "0 deals" in checked.stdout
    filled = tmp_path / "filled.txt"
    filled.write_text(uncommented(text), "utf-8")
    scored = run("score", str(filled))
    assert scored.exit_code == 0, scored.output
    assert f"{deals} deals" in scored.stdout
    checked = run("check", str(filled))
    assert checked.exit_code == 0 and "clean" in checked.stdout, checked.output


CONVENTIONS = ("sochi", "leningrad", "rostov", "classic", "gusarik")
NAMES = {"en": "Anna Boris Vera Dan Egor", "ru": "Аня Боря Вера Дима Егор"}


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_convention_and_table_size(tmp_path: Path, n: int, lang: str) -> None:
    # issue 28 item 5: Rostov at four (no talon trick), Classic's compulsory raspasy first,
    # Gusarik's dummy (a line names the two), five with two sitting out
    players = " ".join(NAMES[lang].split()[:n])
    for convention in CONVENTIONS:
        text = run("new", "--players", players, "-c", convention, "--lang", lang).stdout
        keys = ("игроки", "сдаёт", "конвенция") if lang == "ru" else ("players", "dealer", "convention")
        assert all(f"\n{key}: " in text for key in keys), text
        log = tmp_path / f"{convention}.txt"
        log.write_text(uncommented(text), "utf-8")
        scored = run("score", str(log))
        assert scored.exit_code == 0, (convention, scored.output)
        checked = run("check", str(log))
        assert checked.exit_code == 0 and "clean" in checked.stdout, (convention, text, checked.output)
        assert "#" not in uncommented(text).split(f"{keys[2]}: {convention}\n", 1)[1]


@pytest.mark.parametrize(
    ("house", "players"),
    [("extends: classic\ntable:\n  two_all_pass: redeal\n", "Anna Boris"),
     ("extends: classic\nraspasy:\n  exit: [8]\n", "Anna Boris Vera")],
)  # fmt: skip
def test_a_table_no_template_fits_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, house: str, players: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path(f"house{len(players)}.yaml").write_text(house, encoding="utf-8")
    r = run("new", "--players", players, "-c", f"house{len(players)}.yaml")
    assert r.exit_code == 2 and r.stdout == ""
    assert "no template fits" in r.stderr and "'-c'" in r.stderr, r.stderr


def test_four_players_show_the_talon_on_raspasy() -> None:
    text = run("new", "--players", "Anna Boris Vera Dan").stdout
    assert "talon 1" in text
    assert "talon" not in run("new", "--players", "Anna Boris Vera").stdout


@pytest.mark.parametrize(
    ("args", "option"),
    [(["--players", "Anna"], "--players"), (["--players", "A A B"], "--players"),
     (["--players", "A B C D E F"], "--players"),
     (["--players", "A B C", "--lang", "de"], "--lang")],
)  # fmt: skip
def test_a_wrong_option_is_usage(args: list[str], option: str) -> None:
    r = run("new", *args)
    assert r.exit_code == 2
    assert option in r.stderr


def test_new_writes_a_file_with_o(tmp_path: Path) -> None:
    out = tmp_path / "evening.txt"
    r = run("new", "--players", "Anna Boris Vera", "-o", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    assert out.read_text("utf-8").startswith("# An evening of Preferans")


def test_a_convention_file_is_read_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a broken file is told at once, located, not at the first `score` of the new log
    monkeypatch.chdir(tmp_path)
    Path("broken.yaml").write_text("extends: sochi\npool: [\n", encoding="utf-8")
    r = run("new", "--players", "Anna Boris Vera", "-c", "broken.yaml")
    assert r.exit_code == 1
    assert r.stdout == ""
    assert re.search(r"^broken\.yaml:\d+:\d+: ", r.stderr, re.M), r.stderr
    Path("house.yaml").write_text("extends: sochi\n", encoding="utf-8")
    r = run("new", "--players", "Anna Boris Vera", "-c", "house.yaml")
    assert r.exit_code == 0, r.output
    assert "convention: house.yaml\n" in r.stdout
