"""What failed is named (issue 31 items 15, 16): a read error of the log or the paper is the
reading of that file, a full temporary folder is that folder, and only a failed write of
standard output is reported as one; and no second process is left to be killed."""

from __future__ import annotations

import errno
import io
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.logs import read, sheet_file

ROOT = Path(__file__).resolve().parents[1]
LOG = str(ROOT / "examples" / "sochi-3p.txt")
SHEET = str(ROOT / "examples" / "sheet.yaml")


class Failing(io.StringIO):
    """A stream whose reads after the first ``good`` fail, as a bad disk's do."""

    def __init__(self, text: str, good: int) -> None:
        super().__init__(text)
        self.good = good

    def read(self, size: int | None = -1) -> str:
        self.good -= 1
        if self.good < 0:
            raise OSError(errno.EIO, "Input/output error")
        return super().read(size)


@pytest.mark.parametrize(
    ("args", "path", "good"),
    [
        (["score", LOG], LOG, 0),  # its first characters
        (["explain", LOG], LOG, 1),  # part way: the deals are read as they are played
        (["ledger", LOG], LOG, 1),
        (["check", LOG], LOG, 1),
        (["settle", SHEET], SHEET, 0),
    ],
)
def test_a_read_error_names_the_file_being_read(
    monkeypatch: pytest.MonkeyPatch, args: list[str], path: str, good: int
) -> None:
    text = Path(path).read_text(encoding="utf-8")

    def opened(name: str) -> tuple[Any, str]:
        return Failing(text, good), name

    monkeypatch.setattr(read, "open_input", opened)
    monkeypatch.setattr(sheet_file, "open_input", opened)
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 1, r.output
    assert r.stderr.splitlines()[0] == f"{path}: cannot read: input/output error", r.stderr
    assert "standard output" not in r.stderr


class Full:
    """A temporary file on a disk that is full."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def write(self, data: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def __enter__(self) -> Full:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("args", "feed"),
    [(["explain", LOG, "--deal", "2"], None), (["ledger", "-"], LOG)],
)
def test_a_full_temporary_folder_is_named(
    monkeypatch: pytest.MonkeyPatch, args: list[str], feed: str | None
) -> None:
    monkeypatch.setattr(tempfile, "SpooledTemporaryFile", Full)
    monkeypatch.setattr(tempfile, "TemporaryFile", Full)
    given = Path(feed).read_bytes() if feed else None
    r = CliRunner().invoke(app, args, input=given)
    assert r.exit_code == 1, r.output
    folder = tempfile.gettempdir()
    assert r.stderr == f"pulyacalc: cannot write a temporary file in {folder}: no space left on device\n"


def test_no_second_process_is_started() -> None:
    """Item 15 ("cannot write to standard output: Invalid argument", or exit 143 with
    nothing, when a second process was killed): since the one-path redesign every command
    runs in one process; nothing in the package starts another."""
    starts = re.compile(r"\b(subprocess|multiprocessing|concurrent\.futures|os\.fork|os\.spawn|Popen)\b")
    found = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in sorted((ROOT / "pulyacalc").rglob("*.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if starts.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []
