"""``-o FILE`` and ``-q``, shared by every command that prints.

The options set this module's state through their callbacks (click calls a callback on
every run, given or not, so nothing carries over from one run to the next), and
:func:`pulyacalc.cli.runtime.emit` asks :func:`write` to take the text when ``-o`` names a
file.  A command prints once, when its work is done, so the file is written all or
nothing: into a temporary file next to it, then renamed over it (as ``convert -o`` does).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Annotated, Any

import typer

#: the file ``emit`` writes to (None: standard output); set by ``-o``
target: str | None = None
#: whether notes on standard error (skipped files, a finished pulya) are silenced; set by ``-q``
quiet: bool = False
#: whether this run has written the file already (a second emit appends)
_written: bool = False


def _set_output(value: str | None) -> str | None:
    global target, _written
    target = None if value in (None, "-") else value
    _written = False
    return value


def _set_quiet(value: bool) -> bool:
    global quiet
    quiet = value
    return value


@contextmanager
def replaced(path: str, binary: bool = False) -> Iterator[IO[Any]]:
    """A file written under a temporary name beside ``path`` and renamed over it only when
    the block ends without an error, so a reader never sees half of it and a failure leaves
    the old file as it was (``-o``, ``convert -o``, ``--plot``).  A file that cannot be
    written is a message and exit 1."""
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(tmp, "wb") if binary else open(tmp, "w", encoding="utf-8", newline="\n") as f:
            yield f
        os.replace(tmp, path)
    except OSError as e:
        print(f"pulyacalc: cannot write {path}: {e.strerror}", file=sys.stderr)
        raise typer.Exit(1) from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def write(text: str) -> None:
    """Write ``text`` to the ``-o`` file: the first time through a temporary file renamed
    over it, so a reader never sees half of it; exit 1 with a message when it cannot."""
    global _written
    assert target is not None
    path = target
    if not _written:
        with replaced(path) as f:
            f.write(text)
        _written = True
        return
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        print(f"pulyacalc: cannot write {path}: {e.strerror}", file=sys.stderr)
        raise typer.Exit(1) from None


def note(message: str) -> None:
    """A note for the person at the terminal, on standard error, unless ``-q``."""
    if not quiet:
        print(f"pulyacalc: {message}", file=sys.stderr)


OutputOpt = Annotated[
    str | None,
    typer.Option(
        "-o",
        "--output",
        metavar="FILE",
        callback=_set_output,
        help="Write the output to FILE instead of standard output (all or nothing; - is standard output).",
    ),
]

QuietOpt = Annotated[
    bool,
    typer.Option(
        "-q", "--quiet", callback=_set_quiet, help="No notes on standard error (skipped files and the like)."
    ),
]
