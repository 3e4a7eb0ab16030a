"""The Python API (pulyacalc/api.py): every example of docs/api.md runs and prints what
the page shows, and the API gives what the commands give."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pulyacalc import api
from pulyacalc.play import score_file

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "api.md"
SOCHI = ROOT / "examples" / "sochi-3p.txt"

#: a ```python block, and the ```text block right after it (what it prints), if any
EXAMPLE = re.compile(r"```python\n(.*?)```\n(?:\n```text\n(.*?)```\n)?", re.DOTALL)


def examples() -> list[tuple[int, str, str | None]]:
    text = DOC.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2)) for m in EXAMPLE.finditer(text)]


def test_the_page_has_examples() -> None:
    assert len(examples()) >= 8
    assert DOC.read_text(encoding="utf-8").count("```python") == len(examples())


def test_every_example_of_docs_api_md_prints_what_the_page_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    namespace: dict[str, Any] = {"__name__": "docs_api_md"}
    for line, code, shown in examples():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{DOC}:{line}", "exec"), namespace)  # noqa: S102 - the page's own code
        printed = out.getvalue()
        assert shown is not None or not printed, f"docs/api.md:{line} prints, but the page does not show it"
        if shown is not None:
            assert printed == shown, f"docs/api.md:{line}"


def test_importing_pulyacalc_does_not_load_the_api() -> None:
    import subprocess

    code = "import pulyacalc, sys; print('pulyacalc.api' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_api_gives_what_score_gives() -> None:
    from typer.testing import CliRunner

    from pulyacalc.cli.app import app

    by_file = api.score(api.read_file(str(SOCHI)))
    by_text = api.score(api.read_text(SOCHI.read_text("utf-8"), "sochi-3p.txt"))
    assert by_file.sheet == by_text.sheet == score_file(str(SOCHI)).sheet
    doc = json.loads(CliRunner().invoke(app, ["score", str(SOCHI), "-f", "json"]).stdout)
    settlement = api.settle(by_file)
    assert {p: Fraction(str(x)) for p, x in doc["settlement_exact"].items()} == settlement.exact
    # the entries add up to the sheet, cell by cell
    totals: dict[tuple[str, str, str | None], Fraction] = {}
    for e in api.entries(by_file):
        key = (e.area, e.player, e.on)
        totals[key] = totals.get(key, Fraction(0)) + e.amount
    for p in by_file.sheet.players:
        assert totals.get(("mountain", p, None), 0) == by_file.sheet.mountain[p]
        for q, w in by_file.sheet.whists[p].items():
            assert totals.get(("whists", p, q), 0) == w


def test_a_log_can_be_scored_again_under_each_convention() -> None:
    log = api.read_file(str(SOCHI))
    first = [api.settle(api.score(log, name)).exact for name in api.conventions()]
    again = [api.settle(api.score(log, name)).exact for name in api.conventions()]
    assert first == again and len({json.dumps(x, default=str) for x in first}) == len(api.conventions())


def test_errors_are_pulya_errors_with_every_problem() -> None:
    text = "players: A B C\n\nA 6x 7, B whist 2, C pass 1\nA 6♠ 7, B wist 2, C pass 1\n"
    with pytest.raises(api.ReadError) as read:
        api.read_text(text, "t.txt")
    assert [p.loc.line for p in read.value.problems] == [3, 4]
    with pytest.raises(api.PulyaError) as unknown:
        api.score(api.read_text("players: A B C\n"), "nosuch")
    assert "unknown convention 'nosuch'" in unknown.value.problems[0].format()
    kodeks = api.read_text("players: A B C D\nrounding: kodeks\n\nA 6♠, B pass, C pass\n", "k.txt")
    with pytest.raises(api.RuleError) as rounding:
        api.settle(api.score(kodeks))
    assert str(rounding.value.problems[0].loc) == "k.txt:2:1"


def test_entries_need_an_evening_that_kept_its_deals() -> None:
    with pytest.raises(ValueError, match="api.score"):
        list(api.entries(score_file(str(SOCHI))))
