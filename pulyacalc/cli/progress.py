"""Progress through one big log on a terminal's standard error (score, explain, check, sheet):
a :class:`pulyacalc.cli.runtime.ProgressBar` over the lines read so far (a text stream cannot
tell its byte offset; the lines are counted once, when the bar first shows)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pulyacalc.cli.runtime import ProgressBar


def count_lines(path: str) -> int:
    """The file's lines, counted in bytes (quick: no decoding)."""
    n = 0
    last = b"\n"
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            n += chunk.count(b"\n")
            last = chunk[-1:]
    return n + (last != b"\n")


#: seconds of work before the bar shows (a short log never shows one)
DELAY = 0.5


@contextmanager
def log_progress(path: str, delay: float | None = None) -> Iterator[Callable[[int], None] | None]:
    """The bar's ``update(line reached)`` for the log at ``path``, or None when there is
    nothing to show (stderr not a terminal, not a regular file)."""
    bar = ProgressBar(sys.stderr, delay=DELAY if delay is None else delay)
    if not bar.enabled or path == "-" or not os.path.isfile(path):
        yield None
        return
    total = 0

    def update(line: int) -> None:
        nonlocal total
        if not total:
            if time.monotonic() - bar.start < bar.delay:
                return
            total = max(count_lines(path), 1)
        bar.update(min(line, total), total, path)

    try:
        yield update
    finally:
        bar.close()
