"""The machine output has exactly the fields docs/output.md documents, with their types.

The tables of docs/output.md (each after a ``<!-- shape: NAME -->`` marker) are read
here and compared with real output of score, settle and season, run with every option
that adds fields (``--whist-price``, kodeks rounding), so nothing is documented that is
not printed and nothing is printed that is not documented.
"""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers import INTERFACE_SHEET
from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "output.md"
runner = CliRunner()

LOG = """players: Anna Boris Vera
dealer: Vera
convention: sochi
pool: 10
rounding: kodeks

Anna 6♠ 7, Boris whist 2, Vera pass 1
Boris 7NT, Vera pass, Anna pass
Vera misere 1
Anna pass 4, Boris pass 1, Vera pass 5
Boris 6♦ 5, Vera whist 3, Anna pass 2
Vera 6♣, Anna pass, Boris half
Anna 8♥ 8, Boris whist 1, Vera whist 1
"""


def documented(shape: str) -> dict[str, str]:
    """{field path: type} from the table after ``<!-- shape: NAME -->``."""
    text = DOC.read_text(encoding="utf-8")
    marker = f"<!-- shape: {shape} -->"
    assert marker in text, f"docs/output.md has no table {shape}"
    table = text.split(marker, 1)[1].strip().split("\n\n", 1)[0]
    fields: dict[str, str] = {}
    for line in table.splitlines()[2:]:
        m = re.match(r"^\| `([^`]+)` \| (\w+) \|", line)
        assert m, f"{shape}: cannot read the row {line!r}"
        fields[m.group(1)] = m.group(2)
    assert fields
    return fields


def type_of(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    raise AssertionError(f"unexpected JSON value {value!r}")


def fits(doc_type: str, value: Any) -> bool:
    got = type_of(value)
    return got == doc_type or (doc_type == "number" and got == "integer")


def flatten(doc: Any, players: set[str], prefix: str = "") -> dict[str, list[Any]]:
    """Leaf paths of a JSON value, player-name keys written as ``<player>``."""
    out: dict[str, list[Any]] = {}
    if isinstance(doc, dict):
        for k, v in doc.items():
            key = "<player>" if k in players else k
            for path, values in flatten(v, players, f"{prefix}.{key}" if prefix else key).items():
                out.setdefault(path, []).extend(values)
    elif isinstance(doc, list) and doc and all(isinstance(x, dict) for x in doc):
        for item in doc:
            for path, values in flatten(item, players, prefix + "[]").items():
                out.setdefault(path, []).extend(values)
    else:
        out[prefix] = [doc]
    return out


def check(shape: str, doc: Any, players: set[str], *, extra: dict[str, str] | None = None) -> None:
    want = documented(shape) | (extra or {})
    got = flatten(doc, players)
    assert set(got) == set(want), (
        f"{shape}: printed but not documented {sorted(set(got) - set(want))}; "
        f"documented but not printed {sorted(set(want) - set(got))}"
    )
    for path, values in got.items():
        for v in values:
            assert fits(want[path], v), f"{shape}: {path} = {v!r} is not {want[path]}"


def run(args: list[str], input: str | None = None) -> str:
    result = runner.invoke(app, args, input=input, prog_name="pulyacalc")
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture()
def log_file(tmp_path: Path) -> Path:
    p = tmp_path / "evening.pulya"
    p.write_text(LOG, encoding="utf-8")
    return p


@pytest.fixture()
def season_dir(tmp_path: Path) -> Path:
    d = tmp_path / "season"
    d.mkdir()
    # one evening with its metadata, so that the optional fields are printed and checked too
    dated = LOG.replace(
        "rounding: kodeks", "rounding: kodeks\ndate: 2026-11-27\ntitle: Friday\nplace: the club"
    )
    (d / "01.pulya").write_text(dated, encoding="utf-8")
    (d / "02.pulya").write_text(LOG.replace("rounding: kodeks", "rounding: exact"), encoding="utf-8")
    (d / "03.pulya").write_text(LOG.replace("Vera", "Gleb"), encoding="utf-8")
    return d


PLAYERS = {"Anna", "Boris", "Vera", "Gleb", "A", "B", "C"}


#: fields only kodeks_separate rounding or the opponents' divisor prints (their own tests below)
#: fields present only when the evening asks for them (a reading, or keys the log overrides)
READINGS = ("stages.kodeks_separate", "stages.mountain_divisor", "overrides", "bombs")


def test_score_json_has_every_documented_field_and_no_other(log_file: Path) -> None:
    doc = json.loads(run(["score", str(log_file), "-f", "json", "--whist-price", "0.5"]))
    want = {k: v for k, v in documented("score-json").items() if not k.startswith(READINGS)}
    got = flatten(doc, PLAYERS)
    assert set(got) == set(want), sorted(set(got) ^ set(want))
    for path, values in got.items():
        assert all(fits(want[path], v) for v in values), path
    # the INTERFACE.md contract: these three, with these shapes
    assert doc["players"] == ["Anna", "Boris", "Vera"]
    assert set(doc["sheet"]["Anna"]) == {"pool", "mountain", "whists"}
    assert sum(Fraction(x) for x in doc["settlement_exact"].values()) == 0


def test_score_json_kodeks_separate_and_opponents_print_their_documented_fields(log_file: Path) -> None:
    separate = json.loads(run(["score", str(log_file), "-f", "json", "--rounding", "kodeks_separate"]))
    text = log_file.read_text(encoding="utf-8").replace(
        "rounding: kodeks", "rounding: exact\nsettlement.mountain_divisor: opponents"
    )
    log_file.write_text(text, encoding="utf-8")
    opponents = json.loads(run(["score", str(log_file), "-f", "json"]))
    docs = documented("score-json")
    money = ("whist_price", "money", "payments")
    for doc, only in ((separate, "stages.kodeks"), (opponents, "stages.mountain_divisor")):
        want = {
            k for k in docs if not k.startswith((*READINGS, "stages.kodeks", *money)) or k.startswith(only)
        }
        got = flatten(doc, PLAYERS)
        assert set(got) == want, sorted(set(got) ^ want)
        assert all(fits(docs[path], v) for path, values in got.items() for v in values)


def test_score_json_without_options_drops_only_the_optional_fields(log_file: Path) -> None:
    doc = json.loads(run(["score", str(log_file), "-f", "json", "--rounding", "exact"]))
    optional = {p for p, _ in documented("score-json").items() if p.split(".")[0] in ("whist_price", "money")}
    optional |= {
        p for p in documented("score-json") if p.startswith(("payments", "stages.kodeks", *READINGS))
    }
    got = set(flatten(doc, PLAYERS))
    assert got == set(documented("score-json")) - optional


def test_score_jsonl_one_object_per_player(log_file: Path) -> None:
    out = run(["score", str(log_file), "-f", "jsonl", "--whist-price", "2"])
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["player"] for r in rows] == ["Anna", "Boris", "Vera"]
    for r in rows:
        check("score-jsonl", r, PLAYERS)
    assert sum(Fraction(r["result_exact"]) for r in rows) == 0


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_score_csv_and_tsv_columns(log_file: Path, fmt: str) -> None:
    out = run(["score", str(log_file), "-f", fmt, "--whist-price", "1"])
    rows = list(csv.reader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
    head = ["whists_on_<player>" if re.match(r"whists_on_", h) else h for h in rows[0]]
    want = list(documented("score-csv"))
    assert list(dict.fromkeys(head)) == want
    assert rows[0].count("whists_on_Anna") == 1 and len(rows) == 4
    for row in rows[1:]:
        assert len(row) == len(rows[0])
        for h, cell in zip(head, row, strict=True):
            if documented("score-csv")[h] == "number" and cell:
                assert re.fullmatch(r"-?\d+(\.\d\d)?", cell), (h, cell)
    assert sum(Fraction(r[rows[0].index("money")]) for r in rows[1:]) == 0
    # the exact result beside the decimal: the exact values sum to 0, and each is the decimal
    assert sum(Fraction(r[rows[0].index("result_exact")]) for r in rows[1:]) == 0
    for r in rows[1:]:
        exact = Fraction(r[rows[0].index("result_exact")])
        assert abs(Fraction(r[rows[0].index("result")]) - exact) <= Fraction(1, 200)


def test_settle_json_is_score_json_without_deals_plus_its_stages(tmp_path: Path) -> None:
    p = tmp_path / "sheet.yaml"
    p.write_text(INTERFACE_SHEET, encoding="utf-8")
    doc = json.loads(run(["settle", str(p), "-f", "json", "--whist-price", "0.5"]))
    base = {
        k: v
        for k, v in documented("score-json").items()
        if k not in ("deals", "finished") and not k.startswith(READINGS)
    }
    want = base | documented("settle-json-extra")
    got = flatten(doc, PLAYERS)
    assert set(got) == set(want)
    for path, values in got.items():
        assert all(fits(want[path], v) for v in values), path


def test_settle_jsonl_and_csv_are_as_for_score(tmp_path: Path) -> None:
    p = tmp_path / "sheet.yaml"
    p.write_text(INTERFACE_SHEET, encoding="utf-8")
    for line in run(["settle", str(p), "-f", "jsonl"]).splitlines():
        row = json.loads(line)
        want = {k: v for k, v in documented("score-jsonl").items() if k != "money"}
        assert set(flatten(row, PLAYERS)) == set(want)
    head = run(["settle", str(p), "-f", "csv"]).splitlines()[0].split(",")
    assert head[:3] == ["player", "pool", "mountain"] and head[-2:] == ["result", "result_exact"]


def test_season_json(season_dir: Path) -> None:
    doc = json.loads(run(["season", str(season_dir), "-f", "json", "--whist-price", "0.1"]))
    check("season-json", doc, PLAYERS)
    assert len(doc["evenings"]) == 3
    assert [s["rank"] for s in doc["standings"]] == [1, 2, 3, 4]
    totals = [Fraction(s["total_exact"]) for s in doc["standings"]]
    assert totals == sorted(totals, reverse=True) and sum(totals) == 0
    played = {s["player"]: s["evenings"] for s in doc["standings"]}
    assert played == {"Anna": 3, "Boris": 3, "Vera": 2, "Gleb": 1}


def test_season_jsonl(season_dir: Path) -> None:
    rows = [
        json.loads(x)
        for x in run(["season", str(season_dir), "-f", "jsonl", "--whist-price", "1"]).splitlines()
    ]
    assert len(rows) == 4
    for r in rows:
        check("season-jsonl", r, PLAYERS)


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_season_csv(season_dir: Path, fmt: str) -> None:
    out = run(["season", str(season_dir), "-f", fmt, "--whist-price", "1"])
    rows = list(csv.reader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
    assert rows[0] == list(documented("season-csv"))
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "4"]
    out = run(["season", str(season_dir), "-f", fmt])
    assert "money" not in out.splitlines()[0]


def test_every_format_names_the_schema_version(log_file: Path, season_dir: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "Schema version: 1" in text
    assert json.loads(run(["score", str(log_file), "-f", "json"]))["schema_version"] == 1
    assert json.loads(run(["season", str(season_dir), "-f", "json"]))["schema_version"] == 1
    for line in run(["score", str(log_file), "-f", "jsonl"]).splitlines():
        assert json.loads(line)["schema_version"] == 1


def test_score_json_overrides_are_documented_and_name_convention_keys(log_file: Path) -> None:
    from pulyacalc.convention.schema import SCHEMA

    assert "overrides.<key>" in documented("score-json")
    text = log_file.read_text(encoding="utf-8").replace("rounding: kodeks", "whist.on_failure: gentleman")
    log_file.write_text(text, encoding="utf-8")
    doc = json.loads(run(["score", str(log_file), "-f", "json"]))
    assert doc["overrides"] == {"whist.on_failure": "gentleman"}
    assert set(doc["overrides"]) <= set(SCHEMA)
