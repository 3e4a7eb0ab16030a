"""`score` points to `check` for deals played after the pulya was finished (issue #10 item 9):
one line on standard error, whatever stderr is (a note, like season's), none with ``-q``;
the first such deal is the one ``check`` names first, on the fold's fast path too."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.play import score_file
from pulyacalc.reports.check import Checking

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import genlog  # noqa: E402

LOG = """players: Anna Boris Vera
convention: sochi
pool: 2
Anna 6♠, Boris pass, Vera pass
Boris 6♠, Vera pass, Anna pass
Vera 6♠, Anna pass, Boris pass
Anna 6♠, Boris pass, Vera pass
Boris 7♠, Vera pass, Anna pass
"""


def score(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, ["score", *args])
    return r.exit_code, r.stdout, r.stderr


def test_score_points_to_check_for_deals_after_the_finish(tmp_path: Path) -> None:
    log = tmp_path / "evening.txt"
    log.write_text(LOG, encoding="utf-8")
    code, out, err = score(str(log))
    assert code == 0 and out.startswith("Сочинка")
    assert err == (
        "pulyacalc: 2 deals were played after the pulya was finished (from deal 4); "
        f"pulyacalc check {log} lists them\n"
    )
    assert score(str(log), "-q")[2] == ""
    # a finished pulya with nothing after it, and an unfinished one: nothing to say
    assert score(str(ROOT / "examples" / "sochi-3p.txt"))[2] == ""
    log.write_text(LOG.replace("pool: 2", "pool: 20"), encoding="utf-8")
    assert score(str(log))[2] == ""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_first_deal_after_the_finish_is_the_one_check_names(tmp_path: Path, seed: int) -> None:
    log = tmp_path / "big.pulya"
    log.write_text("".join(genlog.line_log(600, seed=seed, pool=20)), encoding="utf-8")
    ev = score_file(str(log))  # the fast path: nothing kept
    kept = score_file(str(log), keep=True)  # the full path
    first = next(r.number for r in kept.results if r.after_finish)
    assert ev.after_finish_from == kept.after_finish_from == first
    findings = [f for f in Checking(str(log)) if f.code == "after-finish"]
    assert findings and f"deal {first} " in findings[0].message
