"""A paper sheet typed as paper (issue 28, item 4): Russian keys, a cell as its running
entries (``2.4.10.20``, each checked to be one the paper can write), and those entries
reconciled with the log one by one."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import PulyaError
from pulyacalc.logs.sheet_file import parse_sheet

ROOT = Path(__file__).resolve().parent.parent
SOCHI = ROOT / "examples" / "sochi-3p.txt"

ENGLISH = """players: [Anna, Boris, Vera]
convention: sochi
pool: 20
sheet:
  Anna:  {pool: 20, mountain: 12, whists: {Boris: 56, Vera: 78}}
  Boris: {pool: 20, mountain: 36, whists: {Anna: 34, Vera: 50}}
  Vera:  {pool: 20, mountain: 39, whists: {Anna: 10, Boris: 66}}
"""

# the evening of examples/sochi-3p.txt as its paper reads: Boris's mountain and Vera's (which
# falls from 40 to 39 when pool points go off it) as their running entries
RUSSIAN = """игроки: [Anna, Boris, Vera]
конвенция: сочинка
пуля: 20
лист:
  Anna:  {пуля: 2.4.10.12.14.18.20, Гора: 12, висты: {Boris: 56, Vera: 78}}
  Boris: {пуля: 20, гора: 1.9.12.14.16.18.24.30.36, висты: {Anna: 34, Vera: 50}}
  Vera:  {пуля: "20", гора: 12 16 18 22 32 34 38 40 39, вист: {Anna: 10, Boris: 66.}}
"""


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


def problems(text: str) -> list[str]:
    with pytest.raises(PulyaError) as e:
        parse_sheet(text, "s.yaml")
    return [f"{p.loc}: {p.message}" for p in e.value.problems]


def test_russian_keys_and_running_entries_read_as_the_english_sheet() -> None:
    ru, en = parse_sheet(RUSSIAN, "ru.yaml"), parse_sheet(ENGLISH, "en.yaml")
    assert ru.sheet == en.sheet
    assert [x for x, _ in ru.entries[("mountain", "Vera")]] == [12, 16, 18, 22, 32, 34, 38, 40, 39]
    assert ("whists", "Vera", "Boris") not in ru.entries  # `66.` is one entry: the total
    # each entry located at its own column
    assert [loc.column for _, loc in ru.entries[("pool", "Anna")]][:3] == [17, 19, 21]


def test_one_dot_is_a_decimal_point() -> None:
    sheet = parse_sheet(ENGLISH.replace("mountain: 12,", "mountain: 12.5,"), "s.yaml")
    assert sheet.sheet.mountain["Anna"] * 2 == 25 and not sheet.entries


@pytest.mark.parametrize(
    ("cell", "found"),
    [
        ("пуля: 2.4.4.20", "s.yaml:5:21: Anna's pool: the entry 4 after 4 does not grow"),
        ("пуля: 2.6.4.20", "s.yaml:5:21: Anna's pool: the entry 4 after 6 does not grow"),
        ("гора: 1.9.9.36", "s.yaml:5:21: Anna's mountain: the entry 9 repeats the one before"),
        ("пуля: 2.x.20", "s.yaml:5:19: Anna's pool: expected a number"),
    ],
)
def test_an_entry_the_paper_cannot_write_is_refused_at_its_place(cell: str, found: str) -> None:
    text = RUSSIAN.replace("пуля: 2.4.10.12.14.18.20", cell)
    if cell.startswith("гора"):
        text = text.replace(", Гора: 12", "")
    assert any(p.startswith(found) for p in problems(text)), problems(text)


def test_the_columns_hint_accepts_every_word_it_lists() -> None:
    bad = RUSSIAN.replace("Гора:", "горб:")
    r = CliRunner().invoke(app, ["--lang", "ru", "settle", "-"], input=bad, prog_name="pulyacalc")
    line = next(x for x in r.output.splitlines() if "горб" in x)
    listed = re.findall(r"[a-zа-яё]+", line.split("столбцы:")[1])
    assert {"pool", "пуля", "mountain", "гора", "whists", "висты"} <= set(listed)
    words = [w for w in listed if w != "или"]
    for i, word in enumerate(words):  # listed as "pool (пуля), …": each English word, then its Russian
        row = dict(zip(("pool", "mountain", "whists"), ("20", "12", "{Boris: 56, Vera: 78}"), strict=True))
        english = words[i - i % 2]
        text = RUSSIAN.replace(
            "{пуля: 2.4.10.12.14.18.20, Гора: 12, висты: {Boris: 56, Vera: 78}}",
            "{" + ", ".join(f"{word if k == english else k}: {v}" for k, v in row.items()) + "}",
        )
        assert parse_sheet(text, "s.yaml").sheet == parse_sheet(ENGLISH, "en.yaml").sheet


def check_json(tmp_path: Path, sheet: str) -> dict[str, Any]:
    path = tmp_path / "sheet.yaml"
    path.write_text(sheet, encoding="utf-8")
    r = run("check", str(SOCHI), "--against", str(path), "-f", "json")
    return dict(json.loads(r.stdout))


def test_entries_that_agree_with_the_log_are_clean(tmp_path: Path) -> None:
    doc = check_json(tmp_path, RUSSIAN)
    assert doc["ok"] and doc["findings"] == []


def test_the_first_entry_that_differs_names_the_deal(tmp_path: Path) -> None:
    # the paper missed Boris's 14 (deal 9 wrote 2 to his mountain? the log says which)
    doc = check_json(tmp_path, RUSSIAN.replace("1.9.12.14.16.18", "1.9.12.16.18"))
    running = [f for f in doc["findings"] if f["code"] == "sheet-running"]
    assert len(running) == 1
    assert (
        "Boris's mountain: the paper's entry 4 is 16, the log's is 14, written at deal"
        in running[0]["message"]
    )
    assert running[0]["hint"] == "the 3 entries before it agree"
    parting = [f for f in doc["findings"] if f["code"] == "parting-deal"]
    assert doc["parting_deal"] == int(running[0]["message"].rsplit(" ", 1)[1])
    assert parting and f"deal {doc['parting_deal']}" in parting[0]["message"]


def test_a_differing_cell_names_the_deals_that_wrote_to_it(tmp_path: Path) -> None:
    doc = check_json(tmp_path, ENGLISH.replace("mountain: 12,", "mountain: 14,"))
    (f,) = doc["findings"]
    assert f["code"] == "sheet-cell"
    assert f["hint"].startswith("the paper has 2 more; the deals that wrote to Anna's mountain: ")
    assert re.fullmatch(r"\d+ \(\+\d+\), \d+ \(\+\d+\)", f["hint"].split(": ")[1])
    doc = check_json(tmp_path, ENGLISH.replace("mountain: 12,", "mountain: 11,"))
    assert doc["findings"][0]["hint"].startswith("the paper has 1 less;")
