"""The evening's metadata header keys (date, title, place; дата, название, место): every
log format reads them, and convert writes them back."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.logs.read import read_text

runner = CliRunner()
LINES = "players: Anna Boris Vera\nдата: 2026-11-30\nназвание: Пятница у Ани\nместо: Sochi, Kurortny 5\n\n"
DEAL = "Anna 6♠ 5, Boris whist 3, Vera pass 2\n"


def test_every_format_reads_the_metadata() -> None:
    log = read_text(LINES + DEAL, "t.txt")
    h = log.header
    assert (h.date, h.title, h.place) == ("2026-11-30", "Пятница у Ани", "Sochi, Kurortny 5")
    y = read_text(
        "players: [Anna, Boris, Vera]\ndate: 2026-11-30\ntitle: Friday\nplace: Sochi\ndeals: []\n", "t.yaml"
    )
    assert (y.header.date, y.header.title, y.header.place) == ("2026-11-30", "Friday", "Sochi")


@pytest.mark.parametrize("to", ["yaml", "lines"])
def test_convert_keeps_the_metadata_both_ways(tmp_path: Path, to: str) -> None:
    src = tmp_path / "a.txt"
    src.write_text(LINES + DEAL, "utf-8")
    r = runner.invoke(app, ["convert", "--to", to, str(src)], prog_name="pulyacalc")
    assert r.exit_code == 0, r.output
    out = tmp_path / ("b.yaml" if to == "yaml" else "b.lines")
    out.write_text(r.stdout, "utf-8")
    back = runner.invoke(app, ["convert", "--to", "lines", str(out)], prog_name="pulyacalc")
    assert back.stdout.startswith(
        "players: Anna Boris Vera\ndate: 2026-11-30\ntitle: Пятница у Ани\nplace: Sochi, Kurortny 5\n\n"
    )


def test_an_empty_title_is_a_located_problem(tmp_path: Path) -> None:
    src = tmp_path / "a.yaml"
    src.write_text("players: [Anna, Boris, Vera]\ntitle: []\ndeals: []\n", "utf-8")
    r = runner.invoke(app, ["score", str(src)], prog_name="pulyacalc")
    assert r.exit_code == 1
    assert f"{src}:2:8: title: expected text" in r.stderr
