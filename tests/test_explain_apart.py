"""``explain`` of a long log drawn in two processes (render/explain_apart.py): the same
bytes as one process draws, in every format, wherever the log is cut; a child that fails
leaves the log drawn in one process."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_explain_fast import as_yaml, logs
from typer.testing import CliRunner

from pulyacalc.cli import apart
from pulyacalc.cli.app import app
from pulyacalc.cli.commands import explain as explain_command
from pulyacalc.core import i18n
from pulyacalc.core.errors import PulyaError
from pulyacalc.explain import explain_stream
from pulyacalc.render import explain_apart
from pulyacalc.render.explain import ExplainStream
from pulyacalc.render.explain_fast import write
from pulyacalc.render.formats import FORMATS
from pulyacalc.render.view import use_width

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork here")


def drawn(path: Path, fmt: str, after: int | None) -> Any:
    """What the fast path writes (in two processes, cut after deal ``after``), or its
    problems."""
    import io

    try:
        view = ExplainStream(explain_stream(str(path), fast=True))
        parts = write(view, fmt, (io.BytesIO(), io.BytesIO()), after)
    except PulyaError as e:
        return [(str(p.loc), p.message) for p in e.problems]
    out = b""
    for part in parts:
        part.seek(0)
        out += part.read()
    return out.decode(), view.shown


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    logs(),
    st.sampled_from(sorted(FORMATS)),
    st.sampled_from(("en", "ru")),
    st.integers(0, 130),
    st.sampled_from((None, None, 30, 60, 100)),
    st.sampled_from(("line", "line", "lines")),
)
def test_two_processes_write_the_bytes_of_one(
    text: str, fmt: str, lang: str, after: int, width: int | None, layout: str
) -> None:
    path = Path(__file__).parent / ("_explain_apart.pulya" if layout == "line" else "_explain_apart.yaml")
    try:
        path.write_text(text if layout == "line" else as_yaml(text, layout, len(text)), encoding="utf-8")
        i18n.use(lang)
        use_width(width)
        assert drawn(path, fmt, after) == drawn(path, fmt, None)
    finally:
        i18n.use("en")
        use_width(None)
        path.unlink()


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


def long_log(tmp_path: Path) -> Path:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import genlog

    path = tmp_path / "long.pulya"
    path.write_text("".join(genlog.line_log(400, seed=3, pool=30)), encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_the_command_draws_a_log_in_two_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    path = long_log(tmp_path)
    want = run("explain", str(path), "-f", fmt)
    cut: list[int | None] = []
    split_at = explain_command._split_at

    def watched(log: str) -> int | None:
        cut.append(split_at(log))
        return cut[-1]

    monkeypatch.setattr(apart, "APART_BYTES", 0)
    monkeypatch.setattr(explain_command, "_split_at", watched)
    got = run("explain", str(path), "-f", fmt)
    assert got.exit_code == want.exit_code == 0
    assert got.stdout == want.stdout
    assert cut and cut[0] is not None and 150 < cut[0] < 260  # (about half the lines)


def test_a_child_that_fails_leaves_the_log_to_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = long_log(tmp_path)
    want = run("explain", str(path), "-f", "json")
    monkeypatch.setattr(apart, "APART_BYTES", 0)
    monkeypatch.setattr(explain_apart, "_child", lambda *args: os._exit(1))
    got = run("explain", str(path), "-f", "json")
    assert got.exit_code == 0
    assert got.stdout == want.stdout


def test_a_logs_problems_are_said_as_by_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = long_log(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[300] = "Anna 6♠ 11, nonsense\n"  # in the second half: this process's
    lines[40] = "Boris 7♥ 12\n"  # in the first: the child's too
    path.write_text("".join(lines), encoding="utf-8")
    want = run("explain", str(path))
    monkeypatch.setattr(apart, "APART_BYTES", 0)
    got = run("explain", str(path))
    assert got.exit_code == want.exit_code == 1
    assert got.stderr == want.stderr and ":301:" in got.stderr and ":41:" in got.stderr
    assert not got.stdout


def test_a_yaml_log_is_drawn_in_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A YAML log is short (2 MiB by default) and read whole: a second process would only
    score it twice."""
    from test_explain_fast import as_yaml

    text = long_log(tmp_path).read_text(encoding="utf-8")
    path = tmp_path / "long.yaml"
    path.write_text(as_yaml(text, "lines", 1), encoding="utf-8")
    want = run("explain", str(path), "-f", "json")

    def refused(*args: object) -> object:
        raise AssertionError("split")

    monkeypatch.setattr(apart, "APART_BYTES", 0)
    monkeypatch.setattr(explain_apart, "split", refused)
    got = run("explain", str(path), "-f", "json")
    assert got.exit_code == want.exit_code == 0
    assert got.stdout == want.stdout
