"""Every `$` example in README.md and docs/*.md runs as written and prints what the page
shows (sqlite-utils keeps its docs honest this way).

A page's examples run in order, in one scratch copy of the repository (so an example may
use a file an earlier one wrote), with `pulyacalc` on PATH.  What a block shows after a
`$` line is compared with what the command printed (standard output, then standard
error): a line that is only `…` stands for any number of lines the page leaves out, and a
`…` inside a line for the text cut there (a line cut short, a path that depends on where
pulyacalc is installed).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)


def examples(page: Path) -> list[tuple[int, str, list[str]]]:
    """(line number, command, lines shown) for each `$` line of the page's code blocks."""
    text = page.read_text(encoding="utf-8")
    out: list[tuple[int, str, list[str]]] = []
    for block in FENCE.finditer(text):
        first_line = text.count("\n", 0, block.start(1)) + 1
        current: tuple[int, str, list[str]] | None = None
        for i, line in enumerate(block.group(1).splitlines()):
            if line.startswith("$ "):
                current = (first_line + i, line[2:], [])
                out.append(current)
            elif current is not None:
                current[2].append(line)
    return out


def matches(shown: list[str], printed: list[str]) -> bool:
    """Does the page's text stand for the output, with `…` as the marks of cuts?"""
    shown = _trim(shown)
    printed = _trim(printed)
    if not shown:
        return True
    if shown[0].strip() == "…":
        return any(matches(shown[1:], printed[i:]) for i in range(len(printed) + 1))
    if not printed:
        return False
    want, got = shown[0].rstrip(), printed[0].rstrip()
    if "…" in want and want.strip() != "…":
        # a cut inside a line (a path that depends on where pulyacalc is installed, a long
        # line shortened): the text around each `…` in order
        head, *rest = want.split("…")
        same = got.startswith(head)
        at = len(head)
        for piece in rest:
            found = got.find(piece, at) if piece else len(got)
            same = same and found >= 0
            at = found + len(piece)
        same = same and (not rest[-1] or got.endswith(rest[-1]))
    else:
        same = want == got
    return same and matches(shown[1:], printed[1:])


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("repo")
    for name in ("examples", "docs", "conventions"):
        shutil.copytree(ROOT / name, where / name)
    return where


ALL = [(page, ex) for page in PAGES for ex in examples(page)]


@pytest.mark.parametrize(
    ("page", "example"),
    ALL,
    ids=[f"{page.relative_to(ROOT)}:{ex[0]}" for page, ex in ALL],
)
def test_example_prints_what_the_page_shows(
    page: Path, example: tuple[int, str, list[str]], scratch: Path
) -> None:
    line, command, shown = example
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.update({"COLUMNS": "200", "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"})
    done = subprocess.run(
        ["bash", "-c", command], cwd=scratch, env=env, capture_output=True, text=True, timeout=120
    )
    printed = (done.stdout + done.stderr).splitlines()
    assert matches(shown, printed), (
        f"{page.relative_to(ROOT)}:{line}: $ {command}\n--- the page shows:\n"
        + "\n".join(shown)
        + "\n--- it printed:\n"
        + "\n".join(printed)
    )


def test_the_matcher_reads_cuts() -> None:
    assert matches(["a", "…", "d"], ["a", "b", "c", "d"])
    assert matches(["a long li…"], ["a long line"])
    assert matches(["x  …/conventions/sochi.yaml"], ["x  /any/where/conventions/sochi.yaml"])
    assert not matches(["x  …/conventions/sochi.yaml"], ["x  /any/where/conventions/rostov.yaml"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert not matches(["a", "…", "e"], ["a", "b", "c", "d"])
