"""Standard input copied as it is read, to be read again (``ledger`` of a log that cannot
stream its rows, a newcomer's, is read a second time, whole): the copy is a temporary
file, so the first reading streams in flat memory as a file's does."""

from __future__ import annotations

import io
import sys
import tempfile
from typing import IO, Any


class _Copying(io.RawIOBase):
    """What is read from ``raw`` is written to ``copy`` too (if any); closing it leaves ``raw`` open."""

    def __init__(self, raw: Any, copy: IO[bytes] | None) -> None:
        self.raw, self.copy = raw, copy

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        read = getattr(self.raw, "read1", self.raw.read)
        data = read(len(b))
        n = len(data)
        b[:n] = data
        if self.copy is not None:
            try:
                self.copy.write(data)
            except OSError as e:
                e.filename = tempfile.gettempdir()  # the copy failed, not standard input
                raise
        return n


class Tee:
    """``sys.stdin`` replaced by one that copies what is read, read again from the copy
    (:meth:`again`), and given back (:meth:`close`)."""

    def __init__(self) -> None:
        self.stdin = sys.stdin
        self.copy: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115  # closed by close()
        raw = _Copying(self.stdin.buffer, self.copy)
        sys.stdin = io.TextIOWrapper(io.BufferedReader(raw), encoding="utf-8")

    def again(self) -> None:
        """Standard input as it came, whole (what was not read yet copied first)."""
        while data := self.stdin.buffer.read(1 << 16):
            self.copy.write(data)
        self.copy.seek(0)
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_Copying(self.copy, None)), encoding="utf-8")

    def close(self) -> None:
        sys.stdin = self.stdin
        self.copy.close()
