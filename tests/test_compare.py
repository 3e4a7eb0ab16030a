"""`compare`: one evening settled under several conventions side by side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
SOCHI = ROOT / "examples" / "sochi-3p.txt"


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc", input=input)


def test_each_column_is_what_score_gives_under_that_convention() -> None:
    r = run("compare", str(SOCHI), "-c", "sochi", "-c", "leningrad", "-c", "rostov", "-f", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert [c["convention"] for c in doc["conventions"]] == ["sochi", "leningrad", "rostov"]
    for col in doc["conventions"]:
        one = json.loads(run("score", str(SOCHI), "-c", col["convention"], "-f", "json").stdout)
        assert col["settlement"] == one["settlement"]
        assert col["settlement_exact"] == one["settlement_exact"]
        assert col["sheet"] == one["sheet"]
        assert sum(col["mountain_result"].values()) == 0 or abs(sum(col["mountain_result"].values())) < 0.02
    # the conventions really differ on this evening
    assert len({json.dumps(c["settlement"]) for c in doc["conventions"]}) == 3


def test_table_has_a_column_per_convention_and_money() -> None:
    r = run("compare", str(SOCHI), "-c", "sochi", "-c", "leningrad", "--whist-price", "1")
    assert r.exit_code == 0, r.output
    head = r.stdout.splitlines()[2].split()
    assert head == ["sochi", "leningrad"]
    anna = next(line for line in r.stdout.splitlines() if line.startswith("Anna"))
    sochi = json.loads(run("score", str(SOCHI), "-f", "json").stdout)["settlement"]["Anna"]
    assert anna.split()[1] == str(sochi)


def test_default_is_every_built_in_and_stdin_works() -> None:
    r = run("compare", "-", "-f", "csv", input=SOCHI.read_text("utf-8"))
    assert r.exit_code == 0, r.output
    from pulyacalc.convention.load import builtin_names

    assert r.stdout.splitlines()[0] == "player," + ",".join(builtin_names())
    assert len(r.stdout.splitlines()) == 4


#: four players, the dealer takes a talon trick: legal where the talon goes to the dealer
#: (Sochi, Leningrad), not under Rostov (raspasy.talon_to_dealer false)
TALON_4P = "players: A B C D\n\nA pass 4, B pass 3, C pass 2, D pass 1\n"


def talon_log(tmp_path: Path) -> Path:
    log = tmp_path / "l.txt"
    log.write_text(TALON_4P, encoding="utf-8")
    return log


def test_a_convention_the_log_breaks_is_left_out_not_the_whole_table(tmp_path: Path) -> None:
    log = talon_log(tmp_path)
    for source, given in ((str(log), None), ("-", TALON_4P)):
        args = ["compare", source, "-c", "sochi", "-c", "rostov", "-c", "leningrad"]
        r = run(*args, "-f", "csv", input=given)
        assert r.exit_code == 0, r.output
        assert r.stdout.splitlines()[0] == "player,sochi,leningrad"
        doc = json.loads(run(*args, "-f", "json", input=given).stdout)
        assert [c["asked"] for c in doc["conventions"]] == ["sochi", "leningrad"]
        assert [x["convention"] for x in doc["excluded"]] == ["rostov"]
        table = run(*args, input=given)
        assert table.exit_code == 0, table.output
        head = table.stdout.splitlines()[2].split()
        assert head == ["sochi", "leningrad"]
        # the note says which convention is left out, and where the log breaks it
        name = "<stdin>" if source == "-" else source
        (note,) = [line for line in table.stdout.splitlines() if line.startswith("rostov")]
        assert f"{name}:3:" in note and "talon" in note


def test_a_comparison_that_leaves_nothing_out_has_no_note_and_an_empty_excluded_list() -> None:
    doc = json.loads(run("compare", str(SOCHI), "-c", "sochi", "-c", "rostov", "-f", "json").stdout)
    assert doc["excluded"] == []
    table = run("compare", str(SOCHI), "-c", "sochi", "-c", "rostov").stdout
    assert "not legal" not in table


def test_the_use_case_says_why_a_convention_is_left_out(tmp_path: Path) -> None:
    from pulyacalc.core.errors import Problems
    from pulyacalc.logs.read import read_text
    from pulyacalc.reports.compare import compare, compare_log

    by_path = compare_log(str(talon_log(tmp_path)), ["sochi", "rostov", "leningrad"])
    problems = Problems()
    by_text = compare(
        read_text(TALON_4P, "l.txt", None, problems), problems, ["sochi", "rostov", "leningrad"]
    )
    for c in (by_path, by_text):
        assert c.players == ("A", "B", "C", "D") and c.deals == 1
        assert [col.asked for col in c.columns] == ["sochi", "leningrad"]
        assert [x.asked for x in c.excluded] == ["rostov"]
        (problem,) = c.excluded[0].problems
        assert problem.kind == "rule" and problem.loc.line == 3
    assert by_text.excluded[0].problems[0].loc.file == "l.txt"


def test_a_convention_that_does_not_load_or_cannot_round_is_left_out(tmp_path: Path) -> None:
    log = talon_log(tmp_path)
    kodeks = tmp_path / "kodeks.yaml"
    kodeks.write_text("extends: sochi\nsettlement:\n  rounding: kodeks\n", "utf-8")
    nosuch = str(tmp_path / "nosuch.yaml")
    r = run("compare", str(log), "-c", "sochi", "-c", str(kodeks), "-f", "json")
    assert r.exit_code == 0, r.output
    assert [c["asked"] for c in json.loads(r.stdout)["conventions"]] == ["sochi"]
    # on the command line a convention that is not there is usage, named by its option
    for wrong, said in ((nosuch, "no such file"), ("sochy", "did you mean 'sochi'?")):
        r = run("compare", str(log), "-c", "sochi", "-c", wrong)
        assert r.exit_code == 2
        assert "'-c' / '--convention'" in r.stderr and said in r.stderr
        assert str(log) not in r.stderr  # never blamed on the log
    from pulyacalc.reports.compare import compare_log

    c = compare_log(str(log), ["sochi", nosuch, str(kodeks)])
    assert [x.asked for x in c.excluded] == [nosuch, str(kodeks)]
    assert "kodeks" in c.excluded[1].problems[0].message


def test_a_log_legal_under_no_convention_is_a_located_error(tmp_path: Path) -> None:
    log = talon_log(tmp_path)
    for source, given, name in ((str(log), None, str(log)), ("-", TALON_4P, "<stdin>")):
        r = run("compare", source, "-c", "rostov", input=given)
        assert r.exit_code == 1
        assert f"{name}:3" in r.stderr
        assert r.stdout == ""


def test_a_log_that_cannot_be_read_fails_under_every_convention(tmp_path: Path) -> None:
    log = tmp_path / "l.txt"
    log.write_text("players: A B C\n\nA 6♠ 7, B whist 2, C pass\nA 6x 7\n", encoding="utf-8")
    r = run("compare", str(log), "-c", "sochi", "-c", "leningrad")
    assert r.exit_code == 1
    assert f"{log}:4" in r.stderr
    assert r.stderr == run("score", str(log), "-c", "sochi").stderr


def test_a_player_who_joined_has_his_row_and_the_title_counts_deals_not_seat_changes() -> None:
    """Issue 31 item 5: Nina joins after deal 3 of 8; every shape has her, each column sums
    to 0, and the title says 4 players and 8 deals (the join and leave lines are no deals)."""
    log = str(ROOT / "examples" / "sochi-join-leave.txt")
    r = run("compare", log, "-c", "sochi", "-c", "leningrad")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("4 players, 8 deals;")
    assert "\nNina " in r.stdout
    doc = json.loads(run("compare", log, "-c", "sochi", "-f", "json").stdout)
    assert doc["players"] == ["Kostya", "Lena", "Misha", "Nina"] and doc["deals"] == 8
    one = json.loads(run("score", log, "-f", "json").stdout)
    assert doc["conventions"][0]["settlement_exact"] == one["settlement_exact"]
    assert sum(doc["conventions"][0]["settlement"].values()) == 0
    rows = run("compare", log, "-c", "sochi", "-f", "csv").stdout.splitlines()
    assert rows[-1] == "Nina,27"
    assert sum(int(row.split(",")[1]) for row in rows[1:]) == 0
