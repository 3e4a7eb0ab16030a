"""Tables that keep their context when fitted to a width (issue 28 item 6): a parted table
repeats its first column, `conventions diff` keeps the two values side by side, `compare`'s
long header becomes a legend, a number is never broken, `conventions list` shows no paths;
without a width the bytes are as they were."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.render.table import wrapped
from pulyacalc.render.view import WIDTH, use_width

LOG = str(Path(__file__).resolve().parent.parent / "examples" / "sochi-3p.txt")
LEGEND = "pool / mountain / mountain result + whist result"


@contextmanager
def width(columns: int | None) -> Iterator[None]:
    before = WIDTH[0]
    use_width(columns)
    try:
        yield
    finally:
        use_width(before)


def run(*args: str, columns: int | None = None) -> str:
    from pulyacalc.core.i18n import use

    use("en")
    with width(columns):
        r = CliRunner().invoke(app, list(args), env={"PULYACALC_LANG": "en"})
    assert r.exit_code == 0, r.stderr
    return r.stdout


def test_conventions_list_shows_names_and_titles_not_paths() -> None:
    text = run("conventions", "list")
    assert "/" not in text.split("\n\n")[0] and ".yaml" not in text
    assert "sochi      Сочинка (Sochi)" in text and "file" not in text.splitlines()[0]
    listed = json.loads(run("conventions", "list", "-f", "json"))["conventions"]
    assert all(c["file"].endswith(".yaml") for c in listed)  # a program still finds the file


def test_conventions_diff_keeps_the_two_values_side_by_side() -> None:
    wide = run("conventions", "diff", "sochi", "leningrad")
    narrow = run("conventions", "diff", "sochi", "leningrad", columns=60)
    assert max(map(len, narrow.splitlines())) <= 60
    lines = narrow.splitlines()
    assert sum("key" in line and "sochi" in line and "leningrad" in line for line in lines) == 1
    for key, a, b in [("whist.on_failure", "greedy", "gentleman"), ("raspasy.exit", "[6]", "[6, 7, 7]")]:
        assert any(line.startswith(key) and a in line and line.rstrip().endswith(b) for line in lines), key
        assert f"{key}: " in narrow  # its meaning, under the table
    assert "  gentleman  " in wide  # no width: the four columns as before
    assert run("conventions", "diff", "sochi", "leningrad", columns=1000) == wide


def test_compare_says_its_long_header_once_as_a_legend() -> None:
    wide = run("compare", LOG)
    assert LEGEND in wide and "each cell:" not in wide
    narrow = run("compare", LOG, columns=60)
    assert f"each cell: {LEGEND}" in narrow and "pool /\n" not in narrow
    tables = narrow.split(f"each cell: {LEGEND}\n", 1)[1].split("\n\n")[:3]
    for part in tables:  # each part repeats the players
        rows = part.splitlines()[2:]
        assert [r.split()[0] for r in rows] == ["Anna", "Boris", "Vera"], part
        assert max(map(len, part.splitlines())) <= 60


def test_a_number_is_never_broken_when_a_formula_wraps() -> None:
    text = wrapped("Anna pays 46 2/3 whists to Boris", 12)
    assert "46 2/3" in text.splitlines()
    assert wrapped("(4 tricks − amnesty 3) × 2 = 2", 16) == "(4 tricks −\namnesty 3) × 2 =\n2"


def test_width_fits_piped_output_only_when_given() -> None:
    wide = run("compare", LOG)
    with width(None):  # (the option sets the width for the rest of the process: put back)
        assert run("compare", LOG, "--width", "60") == run("compare", LOG, columns=60) != wide
        assert run("explain", LOG, "--width", "0", columns=60) == run("explain", LOG)
    r = CliRunner().invoke(app, ["compare", LOG, "--width", "-1"], env={"PULYACALC_LANG": "en"})
    assert r.exit_code == 2 and "--width" in r.stderr
