"""Table headers that match the machine field names (issue #10 item 15): every English
header of a table for people reads as the CSV column or JSON key that carries the same
value (``mountain equivalent`` is ``mountain_equivalent``), and docs/output.md maps each
header, English and Russian, to its JSON key and CSV column.

The headers are read from the tables the commands print; the fields from their CSV and
JSON output; the mapping from the page.  So a renamed header, a header the page does not
map, or a field the page names and the output lacks, fails here.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
PAGE = ROOT / "docs" / "output.md"

#: each table-printing command, with options that show every column it can have; the page's
#: section (``<!-- headers: NAME -->``) that maps its headers; the names that stand for a
#: placeholder in the headers and fields (players, conventions)
RUNS: list[tuple[str, list[str]]] = [
    ("score", ["score", str(EX / "sochi-3p.txt"), "--whist-price", "0.5", "--rounding", "kodeks"]),
    ("score", ["score", str(EX / "sochi-3p.txt")]),
    ("settle", ["settle", str(EX / "sheet.yaml"), "--whist-price", "0.5", "--rounding", "nearest"]),
    ("settle", ["settle", str(EX / "sheet.yaml"), "--rounding", "kodeks"]),
    ("settle", ["settle", str(EX / "sheet.yaml"), "--rounding", "kodeks_separate"]),
    ("explain", ["explain", str(EX / "sochi-3p.txt"), "--deal", "2"]),
    ("ledger", ["ledger", str(EX / "sochi-3p.txt"), "--running", "--whist-price", "1"]),
    ("season", ["season", "{dated}", str(EX / "classic-3p.txt"), "--whist-price", "1"]),
    ("stats", ["stats", str(EX / "sochi-3p.txt"), str(EX / "classic-3p.txt")]),
    ("stats --player", ["stats", str(EX / "sochi-3p.txt"), str(EX / "classic-3p.txt"), "--player", "Anna"]),
    ("prices", ["prices", "-c", "sochi"]),
    ("compare", ["compare", str(EX / "sochi-3p.txt")]),
    ("conventions list", ["conventions", "list"]),
    ("conventions diff", ["conventions", "diff", "sochi", "rostov"]),
    ("dispute", ["dispute", str(EX / "sochi-3p.txt"), "--deal", "2"]),
]

DASHES = re.compile(r"-+")


def headers(table: str) -> list[list[str]]:
    """The headers of each table in the text (tabulate's ``simple``: a header line over a
    line of dashes, one run of dashes per column)."""
    lines = table.splitlines()
    out = []
    for above, line in zip(lines, lines[1:], strict=False):
        if not line.strip() or set(line.strip()) - {"-", " "} or not above.strip():
            continue
        if set(above.strip()) <= {"-", " "}:
            continue
        out.append([above[m.start() : m.end()].strip() for m in DASHES.finditer(line)])
    return out


def generic(text: str, names: dict[str, str]) -> str:
    """``text`` with each player's (convention's) name as its placeholder (``<player>``)."""
    for name in sorted(names, key=len, reverse=True):
        # a whole word, or a part of a CSV column's name between underscores (whists_on_Anna)
        text = re.sub(rf"(?<![^\W_])(?<!<){re.escape(name)}(?![^\W_])(?!>)", names[name], text)
    return re.sub(r"(after deal|после сдачи) \d+", r"\1 <n>", text)


def run(args: list[str], lang: str = "en") -> str:
    result = CliRunner().invoke(app, ["--lang", lang, *args], prog_name="pulyacalc")
    assert result.exit_code == 0, result.output
    return result.stdout


def json_keys(doc: Any, names: dict[str, str], path: str = "") -> set[str]:
    """Every key path of the document (``stages.mountain_equivalent.<player>``), each
    prefix included, lists as ``[]``."""
    out: set[str] = set()
    if isinstance(doc, dict):
        for k, v in doc.items():
            key = f"{path}.{generic(str(k), names)}" if path else generic(str(k), names)
            out.add(key)
            out |= json_keys(v, names, key)
    elif isinstance(doc, list):
        for v in doc:
            out |= json_keys(v, names, f"{path}[]")
    return out


def mapping() -> dict[str, list[tuple[str, str, str, str]]]:
    """The page's header tables: section → (English, Russian, JSON key, CSV column)."""
    text = PAGE.read_text(encoding="utf-8")
    out: dict[str, list[tuple[str, str, str, str]]] = {}
    for m in re.finditer(r"<!-- headers: (.+?) -->\n((?:\|.*\n)+)", text):
        rows = [
            tuple(c.replace("`", "").strip() for c in line.strip().strip("|").split("|"))
            for line in m.group(2).splitlines()[2:]
        ]
        out[m.group(1)] = [(r[0], r[1], r[2], r[3]) for r in rows]
    return out


def words(name: str) -> str:
    """A field or header name as words: ``mountain_equivalent`` and ``mountain
    equivalent`` both read ``mountain equivalent``; ``misère`` reads as ``misere``."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode() or name
    return " ".join(plain.replace("_", " ").split())


def reads_as(header: str, json_key: str, csv_column: str) -> bool:
    """Does the English header read as its field's name?  The CSV column's name with
    spaces, or the JSON key's last name (after the placeholders), or — for a table whose
    columns are players or conventions (head-to-head, each-pays-each) — the placeholder
    that names the column.  ``a / b + c``: each part reads as its field."""
    parts = re.split(r" / | \+ ", header)
    if len(parts) > 1:
        return all(any(words(p) == words(f) for f in re.split(r"[.,] ?", json_key)) for p in parts)
    if csv_column != "—" and words(header) == words(csv_column):
        return True
    if re.fullmatch(r"<\w+>", header) and csv_column == header.strip("<>"):
        return True  # conventions diff: the column of convention <a> is the CSV column a
    if json_key == "—":
        return False
    names = [n for n in re.split(r"\.|\[\]", json_key) if n and not n.startswith("<")]
    if names and words(header) == words(names[-1]):
        return True
    # a dotted name read whole: rating.ordinal → "rating ordinal"; and a matrix's column
    # (``head_to_head.<player>.<player>``): the header is the column's placeholder, perhaps with a word
    return bool(re.search(r"<\w+>$", json_key) and re.search(r"<\w+>", header))


def fields(section: str, args: list[str]) -> tuple[set[str], set[str], dict[str, str]]:
    """The JSON key paths and CSV columns of the command's output, as placeholders."""
    doc = json.loads(run([*args, "-f", "json"]))
    listed = doc.get("players")
    names: dict[str, str] = (
        {p: "<player>" for p in listed if isinstance(p, str)} if isinstance(listed, list) else {}
    )
    if section == "compare":
        names |= {c["convention"]: "<convention>" for c in doc["conventions"]}
    if section == "conventions diff":
        names |= {doc["a"]["name"]: "<a>", doc["b"]["name"]: "<b>"}
    if section in ("season", "stats", "stats --player"):
        found = doc.get("standings") or doc.get("players") or []
        if isinstance(found, dict):
            found = [found]
        names |= {p["player"]: "<player>" for p in found if isinstance(p, dict) and "player" in p}
        names |= {
            str(e["file"]): "<file>" for e in doc.get("evenings", []) if isinstance(e, dict) and "file" in e
        }
    if section == "stats --player":
        names |= {h["opponent"]: "<player>" for h in doc["head_to_head"]}
    keys = json_keys(doc, names)
    head = next(csv.reader(io.StringIO(run([*args, "-f", "csv"]))))
    return keys, {generic(h, names) for h in head}, names


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An evening with the metadata ``season`` shows in a table of its own."""
    log = tmp_path_factory.mktemp("season") / "dated.txt"
    text = (EX / "sochi-3p.txt").read_text(encoding="utf-8")
    log.write_text("date: 2026-03-14\ntitle: Pi day\nplace: Kira's\n" + text, encoding="utf-8")
    return str(log)


@pytest.mark.parametrize(("section", "args"), RUNS, ids=[f"{s}-{i}" for i, (s, _) in enumerate(RUNS)])
def test_every_header_is_mapped_to_a_field_it_reads_as(section: str, args: list[str], dated: str) -> None:
    args = [dated if a == "{dated}" else a for a in args]
    rows = mapping()[section]
    keys, columns, names = fields(section, args)
    english = {en: (ru, key, col) for en, ru, key, col in rows}
    en_tables = headers(run(args))
    ru_tables = headers(run(args, "ru"))
    assert en_tables, "no table found"
    assert [len(t) for t in en_tables] == [len(t) for t in ru_tables]
    for en_head, ru_head in zip(en_tables, ru_tables, strict=True):
        for en, ru in zip(en_head, ru_head, strict=True):
            if not en:  # a column of names or explanations with no header
                continue
            en, ru = generic(en, names), generic(ru, names)
            assert en in english, f"{section}: the table's header {en!r} is not in docs/output.md"
            want_ru, key, column = english[en]
            assert ru == want_ru, f"{section}: {en!r} is {ru!r} in Russian, docs/output.md says {want_ru!r}"
            for k in re.split(r", ", key):
                assert k == "—" or k in keys, f"{section}: {en!r}: no JSON key {k!r} in the output"
            assert column == "—" or column in columns, f"{section}: {en!r}: no CSV column {column!r}"
            if key != "—" or column != "—":
                assert reads_as(en, key, column), f"{section}: {en!r} does not read as {key} / {column}"


def test_every_mapped_header_is_in_a_table(dated: str) -> None:
    """The page maps no header that no table prints (a renamed one would linger)."""
    shown: dict[str, set[str]] = {}
    for section, args in RUNS:
        args = [dated if a == "{dated}" else a for a in args]
        _, _, names = fields(section, args)
        shown.setdefault(section, set()).update(generic(h, names) for t in headers(run(args)) for h in t if h)
    for section, rows in mapping().items():
        assert section in shown, f"docs/output.md maps the headers of {section!r}, which no test runs"
        for en, *_ in rows:
            assert en in shown[section], f"{section}: {en!r} is mapped but no table prints it"


def test_a_header_with_no_field_has_none_in_the_page() -> None:
    """A column of explanations (``arithmetic``, ``played``) maps to no field: both ``—``."""
    for section, rows in mapping().items():
        for en, _ru, key, column in rows:
            if key == "—" or column == "—":
                continue
            assert reads_as(en, key, column) or " / " in en, (section, en)


def test_the_reader_of_headers_reads_a_table() -> None:
    table = "t\n\n  a    bb c\n---  -------\n  1    2\n"
    assert headers(table) == [["a", "bb c"]]
    assert reads_as("mountain equivalent", "stages.mountain_equivalent.<player>", "mountain_equivalent")
    assert not reads_as("mountain eq.", "stages.mountain_equivalent.<player>", "mountain_equivalent")
    assert not reads_as("whists net", "stages.whist_result.<player>", "whist_result")
