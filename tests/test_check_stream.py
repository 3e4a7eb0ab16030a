"""`check` streams (issue 11): findings handed on in order as they are found, and a run of
deals played after the finish written as one finding with its range.  Its memory, however
many deals come after the finish, is measured by bench/streams.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import Loc
from pulyacalc.play import ONE_CAUSE_DEALS, score_file
from pulyacalc.reports.check import AFTER_FINISH_RANGE, Checking, Finding, merged
from pulyacalc.scoring.fold import DealResult

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import genlog  # noqa: E402

BAD = "Anna 6x 7, Boris whist\n"  # a deal that cannot be read
FIX = 'correction Anna mountain -4 "written twice"\n'
# Leningrad: after two raspasy in a row the exit is 7 (raspasy.exit [6, 7, 7])
LOW = "Anna pass 4, Boris pass 3, Vera pass 3\n" * 2 + "Anna 6♠, Boris pass, Vera pass\n"


def check_json(path: Path) -> dict[str, Any]:
    r = CliRunner().invoke(app, ["check", str(path), "-f", "json"], prog_name="pulyacalc")
    assert r.exit_code == 1, r.output
    return json.loads(r.stdout)  # type: ignore[no-any-return]


def long_log(tmp_path: Path, deals: int, every: int = 0, pool: int = 10) -> Path:
    """A Leningrad log that finishes early; with ``every``: a deal that cannot be read, a
    correction and a contract below the raspasy exit every that many lines, which break
    the deals after the finish into runs."""
    lines = list(genlog.line_log(deals, seed=5, pool=pool, convention="leningrad"))
    if every:
        for i in range(len(lines) - every, 4, -every):
            lines[i:i] = [BAD, FIX, LOW]
    path = tmp_path / "long.pulya"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_a_run_of_deals_after_the_finish_is_one_finding_with_its_range(tmp_path: Path) -> None:
    log = long_log(tmp_path, 60)
    first = score_file(str(log)).after_finish_from
    assert first is not None and first < 40
    doc = check_json(log)
    late = [f for f in doc["findings"] if f["code"] == "after-finish"]
    assert len(late) == 1
    f = late[0]
    assert (f["deal"], f["last_deal"], f["count"]) == (first, 60, 61 - first)
    assert f["line"] == 5 + first  # the first deal's line (five header lines)
    assert f"deal {first} and every deal after it to deal 60 ({61 - first} deals)" in f["message"]
    # the table says it in one line too
    r = CliRunner().invoke(app, ["check", str(log)], prog_name="pulyacalc")
    assert sum("[after-finish]" in line for line in r.stdout.splitlines()) == 1


def test_a_short_run_is_each_deal_and_other_findings_break_a_run() -> None:
    def late(n: int) -> Finding:
        return Finding(Loc("f", n + 10, 1), "after-finish", f"deal {n}", "", n)

    other = Finding(Loc("f", 14, 5), "raspasy-exit", "low")
    found = [late(1), late(2), late(3), late(4), other, late(5), late(6), late(8)]
    out = list(merged(found))
    assert AFTER_FINISH_RANGE == 3
    # 1-4 are one range; the finding between 4 and 5 ends it; 5, 6 are two; 8 is not 7
    assert [(f.code, f.deal, f.last_deal, f.count) for f in out] == [
        ("after-finish", 1, 4, 4),
        ("raspasy-exit", None, None, 1),
        ("after-finish", 5, None, 1),
        ("after-finish", 6, None, 1),
        ("after-finish", 8, None, 1),
    ]
    assert out[0].loc == Loc("f", 11, 1)


class _Every:
    """A ``checks.Follower`` that keeps every result."""

    def __init__(self) -> None:
        self.results: list[DealResult] = []

    def __call__(self, r: DealResult) -> None:
        self.results.append(r)


def test_findings_are_handed_on_as_found_in_the_order_of_the_file(tmp_path: Path) -> None:
    deals = 2 * ONE_CAUSE_DEALS  # a long log: streamed (a short one is held whole)
    log = long_log(tmp_path, deals, every=500)
    c = Checking(str(log))
    found: list[Finding] = []
    read_when_first = None
    for f in c:
        if read_when_first is None and f.loc.line > 10:
            read_when_first = c.scorer.count
        found.append(f)
    # the first deal's findings were written long before the log was read to its end: once
    # it was known to be long (its first deals may be one wrong dealer's, play_one_cause)
    assert read_when_first is not None and read_when_first <= ONE_CAUSE_DEALS
    places = [(f.loc.line, f.loc.column) for f in found]
    assert places == sorted(places)
    # nothing lost: every deal after the finish is in one finding, every bad line is one
    lines = log.read_text(encoding="utf-8").splitlines()
    bad = [i + 1 for i, line in enumerate(lines) if line == BAD.strip()]
    fixes = [i + 1 for i, line in enumerate(lines) if line == FIX.strip()]
    assert [f.loc.line for f in found if f.code == "read"] == bad
    assert [f.loc.line for f in found if f.code == "correction"] == fixes
    assert [f.loc.line for f in found if f.code == "raspasy-exit"] == [n + 3 for n in fixes]
    # the same with a follower, shown every result (nothing owed: the full path)
    kept = Checking(str(log))
    every = kept.follow = _Every()
    assert list(kept) == found
    assert (kept.deals, kept.sheet, kept.finished) == (c.deals, c.sheet, c.finished)
    late = [r.number for r in every.results if r.after_finish and r.kind != "correction"]
    ranges = [f for f in found if f.code == "after-finish"]
    assert sum(f.count for f in ranges) == len(late) > 10 * AFTER_FINISH_RANGE
    assert all(f.last_deal is not None for f in ranges)  # every run here is long
    # the same findings as the command writes
    doc = check_json(log)
    assert [(f["line"], f["code"]) for f in doc["findings"]] == [(f.loc.line, f.code) for f in found]
    assert doc["deals"] == c.deals


@pytest.mark.parametrize("rule", ["", "whist.shortfall_forbidden: [6, 7, 8]\n"])
def test_known_lines_check_found_nothing_in_are_passed_by_the_fold_with_the_same_findings(
    tmp_path: Path, rule: str
) -> None:
    """With a rule whose findings read a deal's writes (shortfall_forbidden), a line is passed
    only while it writes what it was checked with; without one, whatever it writes."""
    lines = list(genlog.line_log(ONE_CAUSE_DEALS + 200, seed=5, pool=10, convention="sochi"))
    lines[4:4] = [rule]  # under the header
    # after the finish a few lines over and over: known, and passed by the fold in runs
    lines += [lines[-7:][i % 7] for i in range(900)] + [BAD] + [lines[-5:][i % 5] for i in range(300)]
    log = tmp_path / "again.pulya"
    log.write_text("".join(lines), encoding="utf-8")
    c = Checking(str(log))
    found = list(c)
    assert c.scorer.unread  # check told the fold which lines it found nothing in
    kept = Checking(str(log))
    kept.follow = _Every()  # followed: every step made
    assert list(kept) == found
    assert (kept.deals, kept.sheet) == (c.deals, c.sheet)
    assert [f.code for f in found].count("after-finish") >= 2
