"""Cross-cutting properties: a season agrees with scoring each evening alone and sums to
zero; the season's progress bar writes only to a terminal and erases itself; line logs
are read as a stream (deals are not all held in memory).
"""

from __future__ import annotations

import io
import json
import re
import sys
from fractions import Fraction
from pathlib import Path

from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.cli.runtime import ProgressBar
from pulyacalc.core.errors import UNSAFE_CHARS, has_unsafe, shown

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import genlog  # noqa: E402

runner = CliRunner()


def invoke(*args: str) -> str:
    r = runner.invoke(app, list(args), prog_name="pulyacalc")
    assert r.exit_code == 0, r.output
    return r.stdout


evening = st.tuples(
    st.integers(1, 80),  # deals
    st.integers(0, 10**6),  # seed
    st.sampled_from((3, 4)),
    st.sampled_from(("sochi", "leningrad", "rostov")),
    st.integers(5, 40),  # pool
)


@settings(
    max_examples=examples(25),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(evening, min_size=1, max_size=4))
def test_season_totals_are_the_sum_of_each_evening_scored_alone(
    tmp_path: Path, evenings: list[tuple[int, int, int, str, int]]
) -> None:
    d = tmp_path / "season"
    d.mkdir(exist_ok=True)
    for old in d.iterdir():
        old.unlink()
    expected: dict[str, Fraction] = {}
    played: dict[str, int] = {}
    for i, (n, seed, players, conv, pool) in enumerate(evenings):
        p = d / f"{i:02}.pulya"
        p.write_text(
            "".join(genlog.line_log(n, seed=seed, players=players, convention=conv, pool=pool)),
            encoding="utf-8",
        )
        doc = json.loads(invoke("score", str(p), "-f", "json"))
        for name, value in doc["settlement_exact"].items():
            expected[name] = expected.get(name, Fraction(0)) + Fraction(value)
            played[name] = played.get(name, 0) + 1
    season = json.loads(invoke("season", str(d), "-f", "json"))
    got = {s["player"]: Fraction(s["total_exact"]) for s in season["standings"]}
    assert got == expected
    assert sum(got.values()) == 0
    assert {s["player"]: s["evenings"] for s in season["standings"]} == played
    for s in season["standings"]:
        assert Fraction(s["average_exact"]) == Fraction(s["total_exact"]) / s["evenings"]
        assert s["worst"] <= s["average"] + 0.01 and s["average"] <= s["best"] + 0.01


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_is_silent_when_not_a_terminal() -> None:
    out = io.StringIO()
    bar = ProgressBar(out, delay=0)
    for i in range(1, 6):
        bar.update(i, 5, f"{i}.pulya")
    bar.close()
    assert out.getvalue() == ""


def test_progress_bar_shows_after_the_delay_and_erases_itself() -> None:
    out = FakeTerminal()
    bar = ProgressBar(out, delay=0)
    bar.update(5, 10, "evening.pulya")
    shown = out.getvalue()
    assert "5/10" in shown and "evening.pulya" in shown and "#" * 15 in shown
    bar.close()
    assert out.getvalue().endswith("\r") and out.getvalue().count("\r") >= 3
    quiet = FakeTerminal()
    slow = ProgressBar(quiet, delay=60)
    slow.update(1, 2, "x")
    slow.close()
    assert quiet.getvalue() == ""


def test_line_logs_stream_one_deal_at_a_time(tmp_path: Path) -> None:
    """The deals of a line log come from a generator: reading the first deal does not
    read the whole file."""
    from pulyacalc.logs.read import read_log

    p = tmp_path / "long.pulya"
    p.write_text("".join(genlog.line_log(50_000, seed=2, pool=1000)), encoding="utf-8")
    log = read_log(str(p))
    assert not isinstance(log.deals, list | tuple)
    first = next(iter(log.deals))
    assert first is not None


def test_every_unsafe_character_is_one_isprintable_refuses() -> None:
    """What lets shown() and has_unsafe() skip the expression for printable text."""
    found = re.findall(UNSAFE_CHARS, "".join(map(chr, range(sys.maxunicode + 1))))
    assert len(found) > 2000 and not any(c.isprintable() for c in found)
    from pulyacalc.core import errors

    assert errors.unsafe().pattern == UNSAFE_CHARS  # the compiled expression


@given(st.text(), st.sampled_from(["", "\n", "\u200b\t"]))
def test_shown_replaces_exactly_the_unsafe_characters(text: str, keep: str) -> None:
    assert has_unsafe(text) is (re.search(UNSAFE_CHARS, text) is not None)
    expected = re.sub(UNSAFE_CHARS, lambda m: m.group(0) if m.group(0) in keep else "?", text)
    assert shown(text, 0, keep=keep) == expected
    assert shown("Анна\u202eevil\u200d", 0) == "Анна?evil\u200d"
