"""What ships says nothing of the machine it was built on: no home or work directories, no
virtual-environment or interpreter-manager paths, no hardware (issue: a newcomer's evening)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(
    [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "examples").rglob("*.*")],
)
# bytecode is written where the tests run (tests/test_examples.py imports examples/regenerate.py)
# and never shipped (.gitignore)
SHIPPED = [p for p in SHIPPED if "__pycache__" not in p.parts]
MACHINE = re.compile(r"/root/|/work/|/home/\w|\.pyenv|pyenv shim|/venv/bin|\b\d+-core\b|\bshims?\b")


@pytest.mark.parametrize("path", SHIPPED, ids=[str(p.relative_to(ROOT)) for p in SHIPPED])
def test_no_machine_details(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    found = [m.group(0) for m in MACHINE.finditer(text)]
    assert not found, f"{path.relative_to(ROOT)} names the build machine: {found}"
