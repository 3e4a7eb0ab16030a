"""Corrections (RULES.md 2.9): what a table writes on the sheet by hand, exactly as written,
with its reason — read from both formats, scored, explained, checked, kept by convert,
a ledger row of its own, ignored by the stats; never a deal."""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers import run_text, score_text
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import Problems, PulyaError
from pulyacalc.core.model import Correction, Deal, Log, Unreadable
from pulyacalc.logs.read import read_text
from pulyacalc.logs.write import deal_key, write_lines, write_yaml

HEAD = "players: Anna Boris Vera\ndealer: Vera\npool: 20\n\n"
#: three deals; the dealer goes Vera, Anna, Boris
DEALS = [
    "Anna 6♠, Boris pass, Vera pass",
    "raspasy Anna 4, Boris 0, Vera 6",
    "raspasy Anna 4, Boris 0, Vera 6",
]
FIX = 'correction Anna mountain -4 "remise of deal 1 written twice"'


def log(*lines: str) -> str:
    return HEAD + "\n".join(lines) + "\n"


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc", input=input)


def problems_of(text: str, name: str = "t.txt") -> list[str]:
    with pytest.raises(PulyaError) as e:
        score_text(text, name)
    return [f"{p.loc}: {p.message}" for p in e.value.problems]


def write(tmp_path: Path, text: str, name: str = "log.txt") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# -- reading -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "want"),
    [
        (FIX, ("Anna", "mountain", -4, None, "remise of deal 1 written twice")),
        ('correction Boris pool +3 "help not written"', ("Boris", "pool", 3, None, "help not written")),
        ('correction Vera whists on Boris 1/2 "half"', ("Vera", "whists", Fraction(1, 2), "Boris", "half")),
        (
            'поправка vera гора −3/2 "по договорённости"',
            ("Vera", "mountain", Fraction(-3, 2), None, "по договорённости"),
        ),
        ('поправка anna висты на boris 0.5 "вист"', ("Anna", "whists", Fraction(1, 2), "Boris", "вист")),
        ('correction Anna pool 2 "deal #3: \\"forgot\\""', ("Anna", "pool", 2, None, 'deal #3: "forgot"')),
    ],
)
def test_a_correction_line_reads_as_written(line: str, want: tuple[Any, ...]) -> None:
    text = "players: Anna Boris Vera\n\n" + line + "\n"
    deals = list(read_text(text, "t.txt", None, Problems()).deals)
    assert len(deals) == 1 and isinstance(deals[0], Correction)
    c = deals[0]
    assert (c.player, c.area, c.amount, c.on, c.reason) == want
    assert str(c.loc) == "t.txt:3:1"


def test_a_note_after_the_reason_is_the_corrections_note() -> None:
    deals = list(read_text(log(FIX + "  # agreed by all"), "t.txt", None, Problems()).deals)
    c = deals[0]
    assert isinstance(c, Correction) and c.note == "agreed by all" and c.reason.endswith("twice")


@pytest.mark.parametrize(
    ("line", "where", "message"),
    [
        ('correction Dan mountain -4 "x"', "t.txt:6:12", "unknown player 'Dan'"),
        ('correction Anna hill -4 "x"', "t.txt:6:17", "unknown area 'hill'"),
        ('correction Anna whists 4 "x"', "t.txt:6:1", "a correction needs the player the whists are on"),
        ('correction Anna pool on Boris 4 "x"', "t.txt:6:25", "only whists are written on someone"),
        ('correction Anna whists on Anna 4 "x"', "t.txt:6:27", "Anna cannot write whists on himself"),
        ('correction Anna mountain four "x"', "t.txt:6:26", "'four' is not an amount"),
        ('correction Anna mountain 0 "x"', "t.txt:6:26", "a correction of 0 changes nothing"),
        ("correction Anna mountain -4", "t.txt:6:28", "a correction needs its reason in double quotes"),
        ('correction Anna mountain -4 ""', "t.txt:6:29", "the reason is empty"),
        ('correction Anna mountain -4 "x', "t.txt:6:29", "the reason's closing quote is missing"),
        ('correction Anna mountain -4 "x" more', "t.txt:6:33", "after the reason only a # note may follow"),
        ('correction Anna mountain -4 5 "x"', "t.txt:6:29", "unexpected '5' in a correction"),
        (
            '2. correction Anna mountain -4 "x"',
            "t.txt:6:1",
            "a correction is not a deal: it takes no deal number",
        ),
    ],
)
def test_a_bad_correction_is_a_located_error(line: str, where: str, message: str) -> None:
    found = problems_of(log(DEALS[0], line, DEALS[1]))
    assert any(p.startswith(f"{where}: {message}") for p in found), found


def test_a_bad_correction_echoes_its_line_with_a_caret() -> None:
    r = run("score", "-", input=log(DEALS[0], 'correction Anna hill -4 "x"'))
    assert r.exit_code == 1
    assert "<stdin>:6:17: unknown area 'hill'" in r.output
    assert 'correction Anna hill -4 "x"' in r.output and "^^^^" in r.output
    assert "Traceback" not in r.output


def test_every_problem_of_a_correction_at_once() -> None:
    found = problems_of(log("correction Dan hill"))
    assert any("unknown player 'Dan'" in p for p in found)
    assert any("unknown area 'hill'" in p for p in found)
    assert any("reason in double quotes" in p for p in found)


YAML_HEAD = "players: [Anna, Boris, Vera]\ndealer: Vera\npool: 20\ndeals:\n"


def test_a_yaml_correction_reads_as_written() -> None:
    text = YAML_HEAD + (
        "  - {declarer: Anna, contract: 6♠, defenders: {Boris: pass, Vera: pass}}\n"
        "  - correction: {player: Vera, area: whists, on: Boris, amount: 1/2, reason: forgot}\n"
        "    note: agreed\n"
        "  - correction: {player: Anna, area: mountain, amount: -4, reason: 'written twice'}\n"
        "  - 'correction Boris pool 1 \"as a line\"'\n"
    )
    deals = list(read_text(text, "t.yaml", None, Problems()).deals)
    got = [(d.player, d.area, d.on, d.amount, d.reason, d.note) for d in deals if isinstance(d, Correction)]
    assert got == [
        ("Vera", "whists", "Boris", Fraction(1, 2), "forgot", "agreed"),
        ("Anna", "mountain", None, -4, "written twice", None),
        ("Boris", "pool", None, 1, "as a line", None),
    ]


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("{correction: {player: Dan, area: pool, amount: 1, reason: x}}", "unknown player 'Dan'"),
        ("{correction: {player: Anna, area: hill, amount: 1, reason: x}}", "unknown area 'hill'"),
        (
            "{correction: {player: Anna, area: whists, amount: 1, reason: x}}",
            "needs the player the whists are on",
        ),
        (
            "{correction: {player: Anna, area: pool, on: Boris, amount: 1, reason: x}}",
            "only whists are written on",
        ),
        ("{correction: {player: Anna, area: pool, amount: 1/0, reason: x}}", "divides by zero"),
        ("{correction: {player: Anna, area: pool, amount: 1}}", "a correction needs its reason"),
        ("{correction: {player: Anna, area: pool, reason: x}}", "a correction needs its amount"),
        ("{correction: {player: Anna, area: pool, amount: 1, reason: x, why: y}}", "unknown key 'why'"),
        (
            "{correction: {player: Anna, area: pool, amount: 1, reason: x}, dealer: Anna}",
            "a correction has no 'dealer'",
        ),
        ("{correction: Anna}", "correction: expected a mapping"),
    ],
)
def test_a_bad_yaml_correction_is_a_located_error(item: str, message: str) -> None:
    found = problems_of(YAML_HEAD + f"  - {item}\n", "t.yaml")
    assert any(p.startswith("t.yaml:5:") and message in p for p in found), found


# -- scoring -------------------------------------------------------------------------------


def test_the_sheet_takes_the_correction_as_written() -> None:
    plain = run_text(log(*DEALS))
    fixed = run_text(
        log(
            DEALS[0],
            FIX,
            'correction Vera whists on Boris 1/2 "forgotten"',
            *DEALS[1:],
            'correction Boris pool 30 "closes past the target: no help"',
        )
    )
    assert fixed.sheet.mountain["Anna"] == plain.sheet.mountain["Anna"] - 4
    assert fixed.sheet.whists["Vera"]["Boris"] == plain.sheet.whists["Vera"]["Boris"] + Fraction(1, 2)
    # the pool takes it as it is: over the target, no help for anyone, nothing written off
    assert fixed.sheet.pool["Boris"] == plain.sheet.pool["Boris"] + 30
    assert fixed.sheet.pool["Anna"] == plain.sheet.pool["Anna"]
    corrections = [r for r in fixed.results if r.kind == "correction"]
    assert [e.rule for r in corrections for e in r.entries] == ["correction"] * 3


def test_a_correction_is_no_deal_no_turn_to_deal_no_end_of_a_run() -> None:
    plain = run_text(log(*DEALS))
    fixed = run_text(log(DEALS[0], DEALS[1], FIX, "3. " + DEALS[2]))
    deals = [r for r in fixed.results if r.kind != "correction"]
    assert [(r.number, r.dealer, r.raspasy_run) for r in deals] == [
        (r.number, r.dealer, r.raspasy_run) for r in plain.results
    ]
    assert [r.raspasy_run for r in deals] == [0, 1, 2]  # the run goes on past the correction
    (c,) = [r for r in fixed.results if r.kind == "correction"]
    assert (c.number, c.dealer) == (2, "")  # after deal 2, dealt by no one
    assert score_text(log(DEALS[0], FIX, *DEALS[1:])).deals == 3


def test_a_correction_before_the_first_deal() -> None:
    fixed = run_text(log(FIX, *DEALS))
    assert fixed.results[0].number == 0 and fixed.results[0].kind == "correction"
    assert [r.number for r in fixed.results[1:]] == [1, 2, 3]


def test_score_totals_include_the_correction() -> None:
    def result(text: str) -> dict[str, Any]:
        r = run("score", "-", "-f", "json", input=text)
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)  # type: ignore[no-any-return]

    plain = result(log(*DEALS))
    fixed = result(log(DEALS[0], FIX, *DEALS[1:]))
    assert plain != fixed
    assert fixed["sheet"]["Anna"]["mountain"] == plain["sheet"]["Anna"]["mountain"] - 4


# -- convert -------------------------------------------------------------------------------


def keys(deals: Iterable[Deal | Correction | Unreadable]) -> list[tuple[Any, ...]]:
    out = []
    for d in deals:
        assert not isinstance(d, Unreadable)
        out.append(deal_key(d))
    return out


@pytest.mark.parametrize("first", ["lines", "yaml"])
def test_convert_keeps_corrections_both_ways(first: str) -> None:
    text = log(
        DEALS[0],
        FIX + "  # by all",
        'поправка Vera висты на Boris -1/2 "вист \\"за\\" 1-ю"',
        *DEALS[1:],
        'correction Boris pool 3 "help"',
    )
    original = read_text(text, "t.txt", None, Problems())
    deals = list(original.deals)
    log0 = Log(original.header, deals)
    write_a, write_b = (write_yaml, write_lines) if first == "yaml" else (write_lines, write_yaml)
    a_text = "".join(write_a(log0))
    a = read_text(a_text, "a", first, Problems())
    a_deals = list(a.deals)
    b_text = "".join(write_b(Log(a.header, a_deals)))
    b = read_text(b_text, "b", "lines" if first == "yaml" else "yaml", Problems())
    assert keys(a_deals) == keys(deals)
    assert keys(b.deals) == keys(deals)
    assert score_text(text).sheet == score_text(b_text, "b").sheet


def test_convert_writes_the_canonical_correction_line(tmp_path: Path) -> None:
    p = write(tmp_path, log(DEALS[0], 'поправка anna гора −4 "дважды"  # все согласны'))
    r = run("convert", str(p), "--to", "lines")
    assert r.exit_code == 0, r.output
    assert 'correction Anna mountain -4 "дважды"  # все согласны\n' in r.stdout
    r = run("convert", str(p), "--to", "yaml")
    assert '  - correction: {player: Anna, area: mountain, amount: -4, reason: "дважды"}\n' in r.stdout


# -- explain, check, ledger, stats -----------------------------------------------------------


def test_explain_shows_the_correction_with_its_reason(tmp_path: Path) -> None:
    p = write(tmp_path, log(DEALS[0], FIX, *DEALS[1:]))
    r = run("explain", str(p), "--deal", "1")
    assert r.exit_code == 0, r.output
    assert f"Correction after deal 1 ({p}:6:1): {FIX}" in r.stdout
    assert "Anna  mountain  -4  remise of deal 1 written twice  correction §2.9" in r.stdout
    doc = json.loads(run("explain", str(p), "-f", "json").stdout)
    (c,) = [d for d in doc["deals"] if d["kind"] == "correction"]
    assert c["deal"] == 1 and c["dealer"] == ""
    (e,) = c["entries"]
    assert (e["rule"], e["section"], e["player"], e["area"], e["amount"], e["why"]) == (
        "correction",
        "2.9",
        "Anna",
        "mountain",
        -4,
        "remise of deal 1 written twice",
    )


def test_check_lists_each_correction_and_stays_clean(tmp_path: Path) -> None:
    p = write(tmp_path, log(DEALS[0], FIX, *DEALS[1:], 'correction Vera whists on Boris 1/2 "half"'))
    r = run("check", str(p))
    assert r.exit_code == 0, r.output
    assert f"{p}:6:1: correction after deal 1: Anna mountain -4: remise of deal 1 written twice" in r.stdout
    assert "correction after deal 3: Vera whists on Boris +1/2: half" in r.stdout
    assert r.stdout.splitlines()[-1] == (
        "clean: 3 deals and 2 corrections written by hand, nothing wrong or suspicious"
    )
    doc = json.loads(run("check", str(p), "-f", "json").stdout)
    assert doc["ok"] is True and doc["deals"] == 3
    assert [f["code"] for f in doc["findings"]] == ["correction", "correction"]


def test_check_with_a_fault_counts_the_corrections_too(tmp_path: Path) -> None:
    p = write(tmp_path, log(DEALS[0], FIX, "Anna 6♠ 7, Boris whist 2, Vera pass 2"))
    r = run("check", str(p))
    assert r.exit_code == 1
    assert r.stdout.splitlines()[-1] == "1 finding in 2 deals and 1 correction written by hand"


def test_the_ledger_shows_the_correction_as_its_own_row(tmp_path: Path) -> None:
    p = write(tmp_path, log(DEALS[0], FIX, *DEALS[1:]))
    doc = json.loads(run("ledger", str(p), "-f", "json").stdout)
    rows = doc["deals"]
    assert [r["text"] for r in rows][1] == FIX
    # a mountain −4 of Anna's, with 3 players and 10 whists a mountain point: +80/3 for her
    assert rows[1]["result_exact"] == {"Anna": "80/3", "Boris": "-40/3", "Vera": "-40/3"}


def test_stats_ignore_corrections(tmp_path: Path) -> None:
    plain = write(tmp_path, log(*DEALS), "a.txt")
    (tmp_path / "b").mkdir()
    fixed = write(tmp_path / "b", log(DEALS[0], FIX, *DEALS[1:]), "a.txt")
    a = json.loads(run("stats", str(plain), "-f", "json").stdout)
    b = json.loads(run("stats", str(fixed), "-f", "json").stdout)

    def counts(doc: dict[str, Any]) -> list[Any]:
        return [(p["player"], p["deals"], p.get("raspasy")) for p in doc["players"]]

    assert counts(a) == counts(b)


def test_compare_counts_deals_not_corrections(tmp_path: Path) -> None:
    p = write(tmp_path, log(DEALS[0], FIX, *DEALS[1:]))
    doc = json.loads(run("compare", str(p), "-f", "json").stdout)
    assert doc["deals"] == 3
