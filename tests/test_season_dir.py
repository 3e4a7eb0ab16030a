"""`season DIR` reads the logs of a directory and leaves out what is not a log."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from pulyacalc.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def test_season_over_a_club_directory_skips_conventions_and_sheets(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("extends: sochi\nwhist:\n  on_failure: gentleman\n", "utf-8")
    (tmp_path / "paper.yaml").write_text((ROOT / "examples" / "sheet.yaml").read_text("utf-8"), "utf-8")
    (tmp_path / "notes.txt").write_text("bring snacks next time\n", "utf-8")
    (tmp_path / "mon.txt").write_text(
        "players: Anna Boris Vera\nconvention: house.yaml\n\nAnna 6♠ 5, Boris whist 3, Vera pass 2\n", "utf-8"
    )
    r = runner.invoke(app, ["season", str(tmp_path), "-f", "json"], prog_name="pulyacalc")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert [e["file"] for e in doc["evenings"]] == [str(tmp_path / "mon.txt")]
    assert f"skipped {tmp_path / 'house.yaml'}: a convention file" in r.stderr
    assert f"skipped {tmp_path / 'paper.yaml'}: a paper sheet" in r.stderr
    assert f"skipped {tmp_path / 'notes.txt'}: no 'players:' line" in r.stderr
    # the house file's gentleman whist: (5 tricks × 2 + 2 × 1 undertrick × 2) / 2 = 7 written
    # by each defender on Anna, whose 6♠ failed by one (mountain 2); unfinished pools of 0
    # to 20: G = 22, 20, 20 → amnesty 2, 0, 0 → average 2/3 → Anna 10 × (2/3 − 2) − 14
    assert doc["evenings"][0]["convention"] == "house"
    assert doc["evenings"][0]["result_exact"] == {"Anna": "-82/3", "Boris": "41/3", "Vera": "41/3"}


def test_a_file_named_on_the_command_line_is_always_read_as_a_log(tmp_path: Path) -> None:
    conv = tmp_path / "house.yaml"
    conv.write_text("extends: sochi\n", "utf-8")
    r = runner.invoke(app, ["season", str(conv)], prog_name="pulyacalc")
    assert r.exit_code == 1
    assert "house.yaml:1:1: the log does not say who plays" in r.stderr


@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "players: A B C",
                    "deals:",
                    "sheet:",
                    "Pool: 20",
                    "  indented: x",
                    "# c: d",
                    "",
                    "\ufeffx: y",
                ]
            ),
            st.text(alphabet="aé:# \t\r-1Я", max_size=30),
        ),
        max_size=20,
    ),
    st.booleans(),
)
def test_a_small_file_s_keys_are_those_the_line_by_line_reading_finds(lines: list[str], long: bool) -> None:
    """``top_keys`` reads a small file at once: the same keys as reading it line by line, which
    it does for a file padded past its head with comments (read past, never counted)."""
    from pulyacalc.reports.season import HEAD_BYTES, top_keys

    text = "\n".join(lines + (["x" * 10_001 + ": long"] if long else []))
    with tempfile.TemporaryDirectory() as d:
        small, padded = Path(d) / "small.txt", Path(d) / "padded.txt"
        small.write_text(text, "utf-8")
        padded.write_text(text + "\n" + "# pad\n" * (HEAD_BYTES // 6 + 1), "utf-8")
        assert top_keys(small) == top_keys(padded)
