"""Numbers as people read them (issue #11 item 1): exact values as mixed numbers a person
can add (46⅔, or 46 2/3 where the console cannot show ⅔), tables that never reformat a
number, the exact value beside the decimal in CSV.  The property that every displayed
column with a total adds up to it, on random evenings under every rounding, is in
tests/totals.py (the fuzz and limits suite), on the tables as the commands print them.
"""

from __future__ import annotations

import io
import re
import sys
from decimal import Decimal
from fractions import Fraction

import pytest

from pulyacalc.core.amounts import VULGAR, mixed
from pulyacalc.render import view
from pulyacalc.render.table import grid

GLYPH = {v: Fraction(n, d) for (n, d), v in VULGAR.items()}


def number(cell: str) -> Fraction:
    """A table's cell back to its exact value: 12, +5⅓, -46⅔, -46 2/3, -⅔, 5/7, 130.00."""
    text = cell.strip().replace("−", "-")
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    m = re.fullmatch(r"(\d*)(?:([" + "".join(GLYPH) + r"])|(?: ?(\d+)/(\d+))|(\.\d+))?", text)
    assert m is not None and text, f"not a number as tables write one: {cell!r}"
    whole = Fraction(int(m.group(1) or 0))
    if m.group(2):
        whole += GLYPH[m.group(2)]
    elif m.group(3):
        whole += Fraction(int(m.group(3)), int(m.group(4)))
    elif m.group(5):
        whole += Fraction(Decimal(m.group(5)))
    return sign * whole


def columns(lines: list[str], at: int) -> dict[str, list[str]]:
    """The table whose header is ``lines[at]`` (``simple`` format: a dashes line under the
    header, the columns two spaces apart), column by column, until an empty line."""
    spans = [m.span() for m in re.finditer(r"-+", lines[at + 1])]
    body = []
    for line in lines[at + 2 :]:
        if not line.strip():
            break
        body.append(line)
    return {lines[at][a:b].strip(): [row[a:b] for row in body] for a, b in spans}


def test_mixed_numbers() -> None:
    assert mixed(Fraction(-140, 3)) == "-46⅔"
    assert mixed(Fraction(-140, 3), glyphs=False) == "-46 2/3"
    assert mixed(Fraction(7, 2)) == "3½"
    assert mixed(Fraction(37, 7)) == "5 2/7"  # no character for 2/7
    assert mixed(Fraction(-2, 3)) == "-⅔" and mixed(Fraction(-2, 3), glyphs=False) == "-2/3"
    assert mixed(Fraction(-46, 1)) == "-46" and mixed(0) == "0"
    for x in (Fraction(-140, 3), Fraction(37, 7), Fraction(-2, 7), Fraction(1, 10), Fraction(9, 8)):
        assert number(mixed(x)) == x and number(mixed(x, glyphs=False)) == x


def test_a_table_never_reformats_a_number() -> None:
    text = grid(
        [["Anna", "1300000.00", "13349.33", "+5"], ["Boris", "-1300000.00", "-13349.33", "-5"]],
        head=["", "money", "x", "y"],
        colalign=("left", "right", "right", "right"),
    )
    assert "1300000.00" in text and "13349.33" in text and "+5" in text
    assert "e+06" not in text and "13349.3 " not in text


def test_units_line_up_in_a_column_with_fractions() -> None:
    text = grid([["a", "46⅔"], ["b", "12"], ["c", "-46 2/7"]], head=["", "n"], colalign=("left", "right"))
    rows = text.splitlines()[2:]
    # the units digit of each number: the 6 of 46⅔, the 2 of 12, the 6 of -46 2/7
    units = [rows[0].index("46⅔") + 1, rows[1].index("12") + 1, rows[2].index("-46 2/7") + 2]
    assert len(set(units)) == 1, text


def test_money_is_written_one_way_in_the_table_the_payments_and_csv() -> None:
    from pathlib import Path

    from typer.testing import CliRunner

    from pulyacalc.cli.app import app

    log = str(Path(__file__).resolve().parent.parent / "examples" / "sochi-3p.txt")
    table = CliRunner().invoke(app, ["score", log, "--whist-price", "0.5"]).stdout
    csv = CliRunner().invoke(app, ["score", log, "--whist-price", "0.5", "-f", "csv"]).stdout
    anna = next(line for line in table.splitlines() if line.startswith("Anna") and "130" in line)
    assert anna.split()[-1] == "130.00"
    assert "Vera pays Anna 76.00" in table
    assert csv.splitlines()[1].split(",")[-2] == "130.00"


def test_a_console_that_cannot_show_thirds_gets_them_spelled(monkeypatch: pytest.MonkeyPatch) -> None:
    from pulyacalc.cli import console

    class Console(io.TextIOWrapper):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Console(io.BytesIO(), encoding="cp1251"))
    monkeypatch.setattr(view, "GLYPHS", [True])
    console.setup()
    try:
        assert view.show(Fraction(-140, 3)) == "-46 2/3"
        # and anything else that reaches such a console keeps its number readable
        assert console.degrade("-46⅔", "cp1251") == "-46 2/3"
    finally:
        view.use_glyphs(True)
    assert view.show(Fraction(-140, 3)) == "-46⅔"


def _assert_totals(text: str) -> None:
    """The score table: every column of the settlement table the footer sums adds up to 0."""
    lines = text.splitlines()
    assert any(line.endswith("the results, in whists, sum to 0") for line in lines)
    table = columns(lines, next(i for i, line in enumerate(lines) if line.startswith("settlement ")))
    summed = [h for h in ("mountain result", "whist result", "result", "money") if h in table]
    assert summed[:3] == ["mountain result", "whist result", "result"]
    for head in summed:
        assert sum(number(c) for c in table[head]) == 0, (head, text)


def _assert_stages(text: str) -> None:
    """settle's stages: each column of a result adds up to 0 ("sums to 0")."""
    lines = text.splitlines()
    checked = 0
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and lines[i + 1].startswith("--") and not line.startswith("--"):
            table = columns(lines, i)
            for head, cells in table.items():
                if head in ("mountain result", "whist result", "total", "result") or head.startswith("money"):
                    assert sum(number(c) for c in cells) == 0, (head, text)
                    checked += 1
    assert (
        checked >= 4
    )  # mountain result (twice with 3 players or more), whist result, total (and result, money)


def _assert_ledger(text: str, players: list[str]) -> None:
    """The ledger: each player's column (and his money) adds up to its settlement row."""
    lines = text.splitlines()
    table = columns(lines, next(i for i, line in enumerate(lines) if line.lstrip().startswith("number  ")))
    deals = table["text"]
    last = next(i for i, c in enumerate(deals) if c.strip() == "settlement")
    for head, cells in table.items():
        if head in {f"{k} {p}" for p in players for k in ("result", "money")}:
            assert sum(number(c) for c in cells[:last]) == number(cells[last]), (head, text)


def test_one_table_writing_path() -> None:
    """Every table goes through render/table.grid (numbers never parsed by tabulate)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "pulyacalc"
    users = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if re.search(r"^\s*(from tabulate import|import tabulate)", p.read_text("utf-8"), re.M)
    )
    assert users == ["render/table.py"]
