"""A long table's rows drawn in two processes (issue 11: ``ledger`` of a long log on two
cores).

Once a long table is measured (render/longtable.py), each of its rows is drawn from the
spool on its own: :func:`in_halves` has a child process (``os.fork``) draw the second half
of the spool into a file while this one draws the first, then gives the child's lines after
its own.  The lines are the same, in the same order, as when one process draws them all
(tests/test_ledger_apart.py).  Where that cannot be done (no ``fork``, a spool still in
memory, a child that fails) this process draws them all.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import IO, Any, Protocol

#: a table drawn in halves has at least this many blocks of rows
MIN_BLOCKS = 8


class Spooled(Protocol):
    """What is read of a ``LongTable``: its spool, where each block starts in it, and its
    items from a place (``LongTable.items``)."""

    spool: IO[str]
    marks: list[int]

    def items(
        self, start: int = 0, blocks: int | None = None, spool: IO[str] | None = None
    ) -> Iterator[tuple[str, Any]]: ...


#: work on a table's items, written into a file
Job = Callable[[Iterator[tuple[str, Any]], IO[bytes]], None]
#: what draws the items of a table (each drawing its own: its caches are its own)
Draw = Callable[[Iterator[tuple[str, Any]]], Iterator[str]]


def in_halves(table: Spooled, draw: Draw) -> Iterator[str]:
    """``draw(table.items())``, the second half drawn by a child process at the same time."""

    def job(items: Iterator[tuple[str, Any]], out: IO[bytes]) -> None:
        for text in draw(items):
            out.write(text.encode())

    half = _started(table, job)
    if half is None:
        yield from draw(table.items())
        return
    try:
        yield from draw(table.items(0, half.blocks))
        if half.done():
            yield from _read(half.out)
        else:  # (a fault of the child's: drawn here)
            yield from draw(table.items(table.marks[half.blocks]))
    finally:
        half.stop()  # (stopped early, a reader gone or Ctrl-C: the child too)


class Half:
    """Work on the second half of a table's items, under way in a child process that
    writes into ``out`` (:func:`_started`): ``blocks``, the blocks of the first half (to
    do here)."""

    def __init__(self, pid: int, out: IO[bytes], blocks: int) -> None:
        self.pid, self.out, self.blocks = pid, out, blocks

    def done(self) -> bool:
        """Whether the child did its work, once it has ended."""
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        return not status

    def result(self) -> tuple[Any, ...] | None:
        """What the work gave there (:func:`second_half`); None where the child failed."""
        import pickle

        if not self.done():
            return None
        self.out.seek(0)
        got: tuple[Any, ...] = pickle.load(self.out)
        return got

    def stop(self) -> None:
        """The child stopped if it still works (this process stops early), its file closed."""
        if self.pid:
            stop(self.pid)
            self.pid = 0
        self.out.close()


def second_half(table: Spooled, work: Callable[[Iterator[tuple[str, Any]]], tuple[Any, ...]]) -> Half | None:
    """``work`` of the second half of ``table``'s items started in a child process (what it
    gives is pickled back: ``Half.result``); None where the table is not split so."""
    import pickle

    def job(items: Iterator[tuple[str, Any]], out: IO[bytes]) -> None:
        pickle.dump(work(items), out, protocol=pickle.HIGHEST_PROTOCOL)

    return _started(table, job)


def _started(table: Spooled, job: Job) -> Half | None:
    """``job`` of the items of the second half of ``table`` started in a child process,
    writing into a file of its own; None where the table is not split so (too few blocks,
    a spool still in memory, no ``fork``)."""
    marks = table.marks
    path = _reopened(table.spool)
    if len(marks) < MIN_BLOCKS or path is None or not hasattr(os, "fork"):
        return None
    import tempfile

    half = len(marks) // 2
    table.spool.flush()  # (all of it in the file, for the child to read)
    out = tempfile.TemporaryFile()  # noqa: SIM115  # (closed by ``Half.stop``)
    pid = os.fork()
    if pid == 0:
        _child(table, job, path, marks[half], out)
    return Half(pid, out, half)


def _child(table: Spooled, job: Job, path: str, start: int, out: IO[bytes]) -> None:
    """(In the child) ``job`` of the items from ``start`` on, then exit at once."""
    status = 0
    try:
        # (a spool of its own: the one shared with the parent shares its place in the file)
        with open(path, encoding="utf-8") as spool:
            job(table.items(start, spool=spool), out)
        out.flush()
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def _reopened(spool: IO[str]) -> str | None:
    """A path that opens the spool's file anew (Linux: ``/proc/self/fd``), where the spool
    is a file already; else None."""
    if not getattr(spool, "_rolled", True):  # a SpooledTemporaryFile still in memory
        return None
    try:
        path = f"/proc/self/fd/{spool.fileno()}"
    except (AttributeError, OSError, ValueError):
        return None
    return path if os.path.exists(path) else None


def _read(out: IO[bytes]) -> Iterator[str]:
    import codecs

    out.seek(0)
    decoder = codecs.getincrementaldecoder("utf-8")()
    while chunk := out.read(1 << 20):
        yield decoder.decode(chunk)
    yield decoder.decode(b"", final=True)


def stop(pid: int) -> None:
    """Child ``pid`` stopped (this process stops early) and reaped."""
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass
