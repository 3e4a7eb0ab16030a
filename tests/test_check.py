"""`check`: everything wrong or suspicious about a log, located; `--against` a paper sheet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_explain import example_logs
from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SOCHI = ROOT / "examples" / "sochi-3p.txt"


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc", input=input)


def findings(path: Path, *extra: str) -> tuple[int, list[dict[str, Any]]]:
    r = run("check", str(path), "-f", "json", *extra)
    assert r.exit_code in (0, 1), r.output
    doc = json.loads(r.stdout)
    assert doc["ok"] == (r.exit_code == 0)
    return r.exit_code, doc["findings"]


def write(tmp_path: Path, text: str, name: str = "log.txt") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("path", example_logs(), ids=lambda p: p.name)
def test_every_example_is_clean(path: Path) -> None:
    code, found = findings(path)
    assert (code, found) == (0, [])


def test_clean_log_says_so_in_the_table() -> None:
    r = run("check", str(SOCHI))
    assert r.exit_code == 0
    assert r.stdout.startswith("clean: 30 deals")


def test_deals_after_the_finish_are_reported_each_with_its_line(tmp_path: Path) -> None:
    log = write(
        tmp_path,
        "players: A B C\npool: 2\n\nA 6♠, B pass, C pass\nB 6♠, C pass, A pass\nC 6♠, A pass, B pass\n"
        "A 7♠, B pass, C pass\nB 6♠, C pass, A pass\n",
    )
    code, found = findings(log)
    assert code == 1
    assert [(f["code"], f["line"]) for f in found] == [("after-finish", 7), ("after-finish", 8)]
    assert "deal 4 is played after the pulya was finished" in found[0]["message"]


def test_contract_below_the_raspasy_exit_reads_the_convention_key(tmp_path: Path) -> None:
    # Leningrad: exit [6, 7, 7]: after the 2nd raspasy in a row the lowest contract is 7
    text = (
        "players: A B C\nconvention: leningrad\n\n"
        "A pass 4, B pass 3, C pass 3\nB 6♠, C pass, A pass\n"  # after one raspasy: 6 is fine
        "C pass 4, A pass 3, B pass 3\nA pass 4, B pass 3, C pass 3\nB 6♠, C pass, A pass\n"
    )
    log = write(tmp_path, text)
    code, found = findings(log)
    assert code == 1
    assert [(f["code"], f["line"]) for f in found] == [("raspasy-exit", 8)]
    assert "after 2 raspasy in a row" in found[0]["message"] and "exit is 7" in found[0]["message"]
    # the same log under a convention whose exit is 6 everywhere is clean
    log2 = write(
        tmp_path,
        text.replace("convention: leningrad\n", "convention: leningrad\nraspasy.exit: [6]\n"),
        "b.txt",
    )
    assert findings(log2) == (0, [])
    # and the key, not the name, decides: Sochi with exit [6, 7] finds it
    log3 = write(
        tmp_path,
        text.replace("convention: leningrad\n", "convention: sochi\nraspasy.exit: [6, 7]\n"),
        "c.txt",
    )
    assert [f["code"] for f in findings(log3)[1]] == ["raspasy-exit"]


def test_misere_is_above_a_seven_exit(tmp_path: Path) -> None:
    text = "players: A B C\nconvention: leningrad\n\nA pass 4, B pass 3, C pass 3\nB pass 4, C pass 3, A pass 3\nC misere 0\n"
    assert findings(write(tmp_path, text)) == (0, [])


def test_forbidden_shortfall(tmp_path: Path) -> None:
    text = "players: A B C\nwhist.shortfall_forbidden: [10]\n\nA 10♥ 10, B whist, C pass\nB 9♥ 10, C whist, A pass\n"
    code, found = findings(write(tmp_path, text))
    assert [(f["code"], f["line"]) for f in found] == [("shortfall-forbidden", 4)]
    assert "B is short on 10♥" in found[0]["message"]


def test_four_player_dealer_in_play(tmp_path: Path) -> None:
    # D deals first and sits out; he declares
    text = "players: A B C D\n\nD 6♠ 6, A whist, B pass\nB 6♠, C pass, D pass\n"
    code, found = findings(write(tmp_path, text))
    assert code == 1
    assert [(f["code"], f["line"]) for f in found] == [("dealer-in-play", 3)]


def test_pool_target_no_one_could_reach(tmp_path: Path) -> None:
    code, found = findings(write(tmp_path, "players: A B C\npool: 2000\n\nA 6♠, B pass, C pass\n"))
    assert [(f["code"], f["line"]) for f in found] == [("pool-target", 2)]
    assert "600 deals" in found[0]["message"]
    assert findings(write(tmp_path, "players: A B C\npool: 200\n\nA 6♠, B pass, C pass\n", "b.txt")) == (
        0,
        [],
    )


def test_strange_overrides(tmp_path: Path) -> None:
    text = (
        "players: [A, B, C]\nconvention: sochi\noverrides:\n"
        "  raspasy.trick_value: 50\n"
        "  whist.obligation: {7: 4}\n"
        "  whist.on_failure: gentleman\n"  # another convention's choice: not strange
        "  contracts.consolation_per_trick: {6: 10, 7: 10, 8: 10, 9: 10, 10: 10}\n"  # Rostov's: not strange
        "deals:\n  - A 6♠, B pass, C pass\n"
    )
    code, found = findings(write(tmp_path, text, "log.yaml"))
    assert code == 1
    assert [(f["code"], f["line"]) for f in found] == [("strange-override", 4), ("strange-override", 5)]
    assert "raspasy.trick_value to 50" in found[0]["message"]
    assert "at most 3 tricks" in found[1]["message"]


def test_a_refused_deal_is_a_finding_and_the_rest_is_still_checked(tmp_path: Path) -> None:
    text = "players: A B C\npool: 2\n\nA 6♠ 7, B whist 2, C whist 2\nB 6♠, C pass, A pass\nC 6♠, A pass, B pass\nA 6♠, B pass, C pass\nB 6♠, C pass, A pass\n"
    code, found = findings(write(tmp_path, text))
    assert [(f["code"], f["line"]) for f in found] == [("rule", 4), ("after-finish", 8)]


def test_unreadable_log_is_a_located_error_on_stderr(tmp_path: Path) -> None:
    r = run("check", str(write(tmp_path, "players: A\n\nA 6♠, B pass\n")))
    assert r.exit_code == 1 and "log.txt:1" in r.stderr


# -- reconciliation -----------------------------------------------------------------------


def sheet_yaml(doc: dict[str, Any], running: dict[int, dict[str, Any]] | None = None) -> str:
    lines = [f"players: [{', '.join(doc['players'])}]", "convention: sochi", "pool: 20", "sheet:"]
    for p in doc["players"]:
        row = doc["sheet"][p]
        wh = ", ".join(f"{q}: {v}" for q, v in row["whists"].items())
        lines.append(f"  {p}: {{pool: {row['pool']}, mountain: {row['mountain']}, whists: {{{wh}}}}}")
    if running:
        lines.append("running:")
        for n, rows in running.items():
            lines.append(f"  {n}:")
            for p, row in rows.items():
                wh = ", ".join(f"{q}: {v}" for q, v in row["whists"].items())
                lines.append(
                    f"    {p}: {{pool: {row['pool']}, mountain: {row['mountain']}, whists: {{{wh}}}}}"
                )
    return "\n".join(lines) + "\n"


def log_sheet() -> dict[str, Any]:
    r = run("score", str(SOCHI), "-f", "json")
    return json.loads(r.stdout)  # type: ignore[no-any-return]


def test_a_correct_sheet_agrees(tmp_path: Path) -> None:
    sheet = write(tmp_path, sheet_yaml(log_sheet()), "sheet.yaml")
    r = run("check", str(SOCHI), "--against", str(sheet))
    assert r.exit_code == 0, r.output
    assert "the sheet agrees with the log" in r.stdout


@pytest.mark.parametrize(
    ("cell", "line"),
    [
        (("Anna", "pool"), 5),
        (("Boris", "mountain"), 6),
        (("Vera", "whists", "Anna"), 7),
        (("Anna", "whists", "Vera"), 5),
    ],
)
def test_against_pinpoints_a_single_wrong_cell(tmp_path: Path, cell: tuple[str, ...], line: int) -> None:
    doc = log_sheet()
    row = doc["sheet"][cell[0]]
    if cell[1] == "whists":
        row["whists"][cell[2]] += 4
    else:
        row[cell[1]] += 4
    sheet = write(tmp_path, sheet_yaml(doc), "sheet.yaml")
    code, found = findings(SOCHI, "--against", str(sheet))
    assert code == 1
    assert len(found) == 1
    f = found[0]
    assert f["code"] == "sheet-cell" and f["file"] == str(sheet) and f["line"] == line
    name = f"{cell[0]}'s whists on {cell[2]}" if cell[1] == "whists" else f"{cell[0]}'s {cell[1]}"
    assert f["message"].startswith(name)
    assert "the log gives" in f["message"]


def running_after_each_deal() -> dict[int, dict[str, Any]]:
    r = run("explain", str(SOCHI), "-f", "json")
    return {d["deal"]: d["running"] for d in json.loads(r.stdout)["deals"]}


def test_running_totals_name_the_deal_where_paper_and_log_part(tmp_path: Path) -> None:
    running = running_after_each_deal()
    doc = log_sheet()
    # the paper forgot 2 in Boris's mountain at deal 12: every total from 12 on is off by 2
    for n, rows in running.items():
        if n >= 12:
            rows["Boris"]["mountain"] -= 2
    doc["sheet"]["Boris"]["mountain"] -= 2
    sheet = write(tmp_path, sheet_yaml(doc, running), "sheet.yaml")
    r = run("check", str(SOCHI), "--against", str(sheet), "-f", "json")
    out = json.loads(r.stdout)
    assert r.exit_code == 1
    assert out["parting_deal"] == 12
    parting = [f for f in out["findings"] if f["code"] == "parting-deal"]
    assert len(parting) == 1 and parting[0]["file"] == str(SOCHI)


def test_sparse_running_totals_bracket_the_deal(tmp_path: Path) -> None:
    full = running_after_each_deal()
    doc = log_sheet()
    running = {n: full[n] for n in (5, 10, 20)}
    for n in (10, 20):
        running[n]["Vera"]["pool"] += 2
    sheet = write(tmp_path, sheet_yaml(doc, running), "sheet.yaml")
    r = run("check", str(SOCHI), "--against", str(sheet), "-f", "json")
    out = json.loads(r.stdout)
    parting = [f for f in out["findings"] if f["code"] == "parting-deal"]
    assert len(parting) == 1
    # Vera's pool changed somewhere in deals 6..10: those deals are named
    assert "one of the deals" in parting[0]["message"] or out["parting_deal"] in range(6, 11)


def test_running_as_a_list_one_item_per_deal(tmp_path: Path) -> None:
    full = running_after_each_deal()
    doc = log_sheet()
    full[3]["Anna"]["mountain"] += 1
    text = sheet_yaml(doc) + "running:\n"
    for n in (1, 2, 3):
        text += (
            "  - {"
            + ", ".join(f"{p}: {{pool: {r['pool']}, mountain: {r['mountain']}}}" for p, r in full[n].items())
            + "}\n"
        )
    sheet = write(tmp_path, text, "sheet.yaml")
    r = run("check", str(SOCHI), "--against", str(sheet), "-f", "json")
    out = json.loads(r.stdout)
    assert out["parting_deal"] == 3


def test_against_a_sheet_of_other_players(tmp_path: Path) -> None:
    doc = log_sheet()
    text = sheet_yaml(doc).replace("Anna", "Ann")
    code, found = findings(SOCHI, "--against", str(write(tmp_path, text, "sheet.yaml")))
    assert code == 1 and [f["code"] for f in found] == ["sheet-players"]
