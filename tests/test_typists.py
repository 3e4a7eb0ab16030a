"""The mistakes Russian typists make (issue 28 item 7), each told where it is (FILE:LINE:COLUMN),
with what was meant, all of a file's at once, exit 1, in both languages: a Latin letter in a
Cyrillic name, a letter typed on the other keyboard layout, a '.' for the comma, a misspelt
Russian header key, a file saved in Windows-1251 or UTF-16 (and ``--encoding`` reading it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app

HEAD = "players: Аня Боря Вера\nconvention: sochi\n\n"
LOG = HEAD + (
    "Aня 6♠ 7, Боря вист 2, Вера пас 1\n"  # a Latin A
    "Аня 6ы 7, Боря вист 2, Вера пас 1\n"  # ы is the s key: 6s
    "Аня 6♠ 7. Боря вист 2. Вера пас 1\n"  # '.' for ','
    "Аня 6♠ 7, Боря dbcn 2, Вера пас 1\n"  # вист on the English layout
    "Аня 6g 7, Боря вист 2, Вера пас 1\n"  # g is the п key: 6п
)
PLAIN = HEAD + "Аня 6♠ 7, Боря вист 2, Вера пас 1\nБоря 7♥ 7, Вера пас 1, Аня вист 2\n"

ENGLISH = [
    "log.txt:4:1: unknown player 'Aня'; the first letter is Latin A; the name is Аня",
    "log.txt:5:5: unknown suit 'ы' in '6ы'; ы is s on the Russian layout: 6♠?",
    "log.txt:6:9: clauses are separated by commas, not '.'; replace '.' with ','",
    "log.txt:6:22: clauses are separated by commas, not '.'; replace '.' with ','",
    "log.txt:7:16: unknown call 'dbcn'; dbcn is вист on the Russian layout",
    "log.txt:8:5: unknown suit 'g' in '6g'; g is п on the Russian layout: 6♠?",
]
RUSSIAN = [
    "log.txt:4:1: неизвестный игрок 'Aня'; первая буква — латинская A; имя — Аня",
    "log.txt:5:5: неизвестная масть 'ы' в '6ы'; ы — это s в русской раскладке: 6♠?",
    "log.txt:6:9: части разделяются запятыми, а не точками; замените '.' на ','",
    "log.txt:6:22: части разделяются запятыми, а не точками; замените '.' на ','",
    "log.txt:7:16: неизвестная заявка 'dbcn'; dbcn — это вист в русской раскладке",
    "log.txt:8:5: неизвестная масть 'g' в '6g'; g — это п в русской раскладке: 6♠?",
]


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(app, list(args), prog_name="pulyacalc")
    return r.exit_code, r.output


def located(out: str, tmp: Path) -> list[str]:
    return [line.replace(f"{tmp}/", "") for line in out.splitlines() if line.startswith(str(tmp))]


@pytest.mark.parametrize(("lang", "expected"), [("en", ENGLISH), ("ru", RUSSIAN)])
def test_every_slip_of_a_file_is_told_at_once_with_what_was_meant(
    tmp_path: Path, lang: str, expected: list[str]
) -> None:
    (tmp_path / "log.txt").write_text(LOG, encoding="utf-8")
    code, out = run("--lang", lang, "score", str(tmp_path / "log.txt"))
    assert code == 1
    assert located(out, tmp_path) == expected


def test_a_latin_letter_in_a_name_of_the_header_names_the_letter(tmp_path: Path) -> None:
    (tmp_path / "log.txt").write_text(PLAIN.replace("Вера\n", "Bера\n", 1), encoding="utf-8")
    code, out = run("score", str(tmp_path / "log.txt"))
    assert code == 1
    assert located(out, tmp_path)[0] == "log.txt:1:19: the first letter is Latin B; the name is Вера"
    # a Cyrillic letter in a Latin name, not the first
    (tmp_path / "log.txt").write_text("players: Anna Bоris Vera\n\nAnna 6♠ 6, Boris pass, Vera whist 4\n")
    code, out = run("--lang", "ru", "score", str(tmp_path / "log.txt"))
    assert located(out, tmp_path)[0] == "log.txt:1:15: 2-я буква — русская о; имя — Boris"


@pytest.mark.parametrize(
    ("typed", "lang", "said"),
    [
        ("конвенциа", "en", "did you mean 'конвенция'? header keys: игроки, сдаёт"),
        ("конвенциа", "ru", "может быть, 'конвенция'? ключи заголовка: игроки, сдаёт"),
        ("conventon", "en", "did you mean 'convention'? header keys: players, dealer"),
    ],
)
def test_a_misspelt_header_key_is_offered_in_the_language_it_is_typed_in(
    tmp_path: Path, typed: str, lang: str, said: str
) -> None:
    (tmp_path / "log.txt").write_text(PLAIN.replace("convention", typed), encoding="utf-8")
    code, out = run("--lang", lang, "check", str(tmp_path / "log.txt"))
    assert code == 1
    assert located(out, tmp_path)[0].startswith("log.txt:2:1: ")
    assert said in out


@pytest.mark.parametrize(
    ("codec", "named", "where"),
    [("cp1251", "Windows-1251", "1:10"), ("utf-16", "UTF-16", "1:1"), ("utf-16-le", "UTF-16", "1:1")],
)
def test_a_file_in_another_encoding_is_named_and_read_with_encoding(
    tmp_path: Path, codec: str, named: str, where: str
) -> None:
    path = tmp_path / "log.txt"
    text = PLAIN.replace("♠", "п").replace("♥", "ч")
    path.write_bytes(text.encode(codec))
    code, out = run("score", str(path))
    assert code == 1
    assert out.startswith(f"{path}:")
    assert f"this file is in {named}, not UTF-8; save it as UTF-8, or run with --encoding " in out
    code, out = run("--lang", "ru", "check", str(path))
    assert f"этот файл в кодировке {named}, а не UTF-8" in out
    read = "utf-16" if codec.startswith("utf-16") and codec != "utf-16-le" else codec
    code, out = run("score", str(path), "--encoding", read)
    assert code == 0, out
    (tmp_path / "utf8.txt").write_text(text, encoding="utf-8")
    assert out == run("score", str(tmp_path / "utf8.txt"))[1]


def test_an_unknown_encoding_is_usage(tmp_path: Path) -> None:
    (tmp_path / "log.txt").write_text(PLAIN, encoding="utf-8")
    code, out = run("score", str(tmp_path / "log.txt"), "--encoding", "klingon")
    assert code == 2
    assert "--encoding" in out and "klingon" in out


@pytest.mark.parametrize(
    ("codec", "reason"),
    [("utf-16", "UTF-16 stream does not start with BOM"), ("ascii", "ordinal not in range(128)")],
)
def test_a_file_not_in_the_encoding_named_is_told_so(tmp_path: Path, codec: str, reason: str) -> None:
    path = tmp_path / "log.txt"
    path.write_text(LOG, encoding="utf-8")  # UTF-8, Cyrillic names: no UTF-16 mark, not ASCII
    code, out = run("score", str(path), "--encoding", codec)
    assert code == 1 and "Traceback" not in out
    assert f"{path}: not {codec} text ({reason}); read it in the encoding it was saved in (--encoding)" in out
    code, out = run("--lang", "ru", "check", str(path), "--encoding", codec)
    assert code == 1 and f"текст не в {codec} ({reason})" in out
