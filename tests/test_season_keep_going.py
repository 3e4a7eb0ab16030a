"""`season`: a log not in UTF-8 is a problem (not a skip), ``--keep-going`` leaves bad
evenings out, a repeated evening is warned about, and the evening's metadata
(date, title, place) is shown."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pulyacalc.cli.app import app

runner = CliRunner()
GOOD = "players: Anna Boris Vera\n\nAnna 6♠ 5, Boris whist 3, Vera pass 2\n"
OTHER = "players: Anna Boris Vera\n\nAnna 6♠ 7, Boris whist 2, Vera pass 1\n"


def test_a_cp1251_log_in_a_directory_is_a_located_problem_not_a_skip(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(GOOD, "utf-8")
    (tmp_path / "b.txt").write_bytes("игроки: Аня Боря Вера\n".encode("cp1251"))
    r = runner.invoke(app, ["season", str(tmp_path)], prog_name="pulyacalc")
    assert r.exit_code == 1
    assert "skipped" not in r.stderr
    # located as `score` locates it
    assert f"{tmp_path / 'b.txt'}:1:1: this file is in Windows-1251, not UTF-8" in r.stderr
    s = runner.invoke(app, ["score", str(tmp_path / "b.txt")], prog_name="pulyacalc")
    assert s.stderr.splitlines()[0] in r.stderr


def test_keep_going_shows_the_good_evenings_and_exits_1_with_a_summary(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(GOOD, "utf-8")
    (tmp_path / "b.txt").write_text("players: Anna Boris Vera\n\nAnna 6 5\n", "utf-8")
    (tmp_path / "c.txt").write_bytes("игроки: Аня Боря Вера\n".encode("cp1251"))
    plain = runner.invoke(app, ["season", str(tmp_path), "-f", "json"], prog_name="pulyacalc")
    assert plain.exit_code == 1 and plain.stdout == ""
    r = runner.invoke(app, ["season", "--keep-going", str(tmp_path), "-f", "json"], prog_name="pulyacalc")
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert [e["file"] for e in doc["evenings"]] == [str(tmp_path / "a.txt")]
    assert f"{tmp_path / 'b.txt'}:3:" in r.stderr
    assert f"{tmp_path / 'c.txt'}:1:1: this file is in Windows-1251, not UTF-8" in r.stderr
    assert r.stderr.rstrip().splitlines()[-1] == (
        f"pulyacalc: left out 2 of 3 evenings with problems: {tmp_path / 'b.txt'}, {tmp_path / 'c.txt'}"
    )


def test_keep_going_with_nothing_wrong_exits_0(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(GOOD, "utf-8")
    r = runner.invoke(app, ["season", "--keep-going", str(tmp_path)], prog_name="pulyacalc")
    assert r.exit_code == 0 and r.stderr == ""


def test_keep_going_with_no_good_evening_reports_every_problem(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("players: Anna Boris Vera\n\nAnna 6 5\n", "utf-8")
    r = runner.invoke(app, ["season", "--keep-going", str(tmp_path)], prog_name="pulyacalc")
    assert r.exit_code == 1 and r.stdout == ""
    assert f"{tmp_path / 'b.txt'}:3:" in r.stderr


def test_two_files_with_the_same_evening_are_warned_about(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(GOOD, "utf-8")
    (tmp_path / "b.yaml").write_text(
        "players: [Anna, Boris, Vera]\ndeals:\n  - declarer: Anna\n    contract: 6♠\n"
        "    defenders: {Boris: whist, Vera: pass}\n    tricks: {Anna: 5, Boris: 3, Vera: 2}\n",
        "utf-8",
    )
    (tmp_path / "c.txt").write_text(OTHER, "utf-8")
    r = runner.invoke(app, ["season", str(tmp_path)], prog_name="pulyacalc")
    assert r.exit_code == 0
    assert r.stderr == (
        f"pulyacalc: warning: {tmp_path / 'b.yaml'} holds the same evening as {tmp_path / 'a.txt'} "
        "(same players, same deals): it is counted twice\n"
    )


def test_season_shows_the_evening_metadata(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(
        "players: Anna Boris Vera\nдата: 2026-11-30\nназвание: Пятница у Ани\nplace: Sochi\n\n"
        + GOOD.split("\n\n")[1],
        "utf-8",
    )
    (tmp_path / "b.txt").write_text(OTHER, "utf-8")
    r = runner.invoke(app, ["season", str(tmp_path), "-f", "json"], prog_name="pulyacalc")
    assert r.exit_code == 0, r.output
    a, b = json.loads(r.stdout)["evenings"]
    assert (a["date"], a["title"], a["place"]) == ("2026-11-30", "Пятница у Ани", "Sochi")
    assert "date" not in b and "title" not in b
    t = runner.invoke(app, ["season", str(tmp_path)], prog_name="pulyacalc")
    assert "date        title          place" in t.stdout
    assert "2026-11-30  Пятница у Ани  Sochi" in t.stdout
    # no metadata: no evening table
    u = runner.invoke(app, ["season", str(tmp_path / "b.txt")], prog_name="pulyacalc")
    assert "date" not in u.stdout
