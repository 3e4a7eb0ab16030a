"""``explain`` of a long log drawn in two processes (issue 11: two cores).

Drawing each deal's entries and paper takes longer than scoring the log.  :func:`split`
forks: the child scores the log up to a deal in the middle and draws those deals into
parts of its own; this process scores those same deals without drawing them, then scores
and draws the rest, and puts its parts after the child's.  The boundary is a place in the
log (the first item numbered past ``after``), the same in both.  The bytes are those of one
process drawing them all (tests/test_explain_apart.py).  The child writes nothing else: the
progress bar and the problems are this process's.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator
from itertools import chain
from typing import IO, TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pulyacalc.render.explain import ExplainStream

Parts = tuple[IO[bytes], IO[bytes]]


class Drawer(Protocol):
    """What is used of ``explain_fast.Drawer``: its paper drawn again from the cells."""

    paper: Any

    def refresh(self) -> None: ...


class Failed(Exception):
    """The child did not draw its deals (killed, out of memory): draw the log in one
    process."""


def split(
    view: ExplainStream,
    drawer: Drawer,
    after: int,
    parts: Parts,
    draw: Callable[..., tuple[Any, ...]],
    rest: Callable[[Parts, tuple[Any, ...], tuple[Any, ...] | None], None],
) -> list[IO[bytes]]:
    """The deals up to the first item numbered past ``after`` drawn by a child
    (``draw(items, parts)``), the others here (``draw(items, parts, False)``: no head),
    then ``rest(parts, mine, child's)`` ends the parts; gives the parts to send, in order."""
    import tempfile

    # (the child's parts are sent after, and closed by, the caller)
    own = _reopened(view.stream.header.source)
    if own is None:
        raise Failed("the log cannot be opened again")
    theirs = (tempfile.TemporaryFile(), tempfile.TemporaryFile())  # noqa: SIM115
    said = tempfile.TemporaryFile()  # noqa: SIM115  # (closed below)
    pid = os.fork()
    if pid == 0:
        for fd, new in own:  # (its own place in the log: the shared one is this process's)
            os.dup2(new, fd)
        _child(draw, _upto(view.stream.items, after), theirs, said)
    for _, new in own:
        os.close(new)
    try:
        items = _past(view.stream.items, after)
        drawer.refresh()  # (the paper as the skipped deals left it, every cell)
        if drawer.paper is not None:
            drawer.paper.length = 0  # (laid out again)
        mine = draw(items, parts, False)
        child = _result(pid, said)
        pid = 0
    finally:
        if pid:
            stop(pid)
        said.close()
    rest(parts, mine, child)
    return [theirs[0], parts[0], theirs[1], parts[1]]


def _reopened(path: str) -> list[tuple[int, int]] | None:
    """Each descriptor this process reads the log at ``path`` by, with the log opened
    again at the same place (a child reading by the first would move this process's place:
    a forked child shares it); None where the log is not a file that can be."""
    try:
        want = os.stat(path)
        fds = (
            [int(fd) for fd in os.listdir("/proc/self/fd")]
            if os.path.isdir("/proc/self/fd")
            else range(3, 256)
        )
    except (OSError, ValueError):
        return None
    out: list[tuple[int, int]] = []
    for fd in fds:
        try:
            st = os.fstat(fd)
        except OSError:
            continue
        if fd < 3 or (st.st_dev, st.st_ino) != (want.st_dev, want.st_ino):
            continue
        try:
            new = os.open(path, os.O_RDONLY)
            os.lseek(new, os.lseek(fd, 0, os.SEEK_CUR), os.SEEK_SET)
            again = os.fstat(new)
        except OSError:
            return None
        out.append((fd, new))
        if (again.st_dev, again.st_ino) != (want.st_dev, want.st_ino):
            for _, n in out:
                os.close(n)
            return None
    return out


def number(item: Any) -> int:
    """The deal number of one of ``FastDeals.items``."""
    return item[2] if type(item) is tuple else item.result.number  # type: ignore[no-any-return]


def _upto(items: Iterator[Any], after: int) -> Iterator[Any]:
    """The items before the first numbered past ``after``."""
    for item in items:
        if number(item) > after:
            return
        yield item


def _past(items: Iterator[Any], after: int) -> Iterator[Any]:
    """The items from the first numbered past ``after`` on: those before are read (scored)
    now."""
    for item in items:
        if number(item) > after:
            return chain((item,), items)
    return iter(())


def _child(draw: Callable[..., tuple[Any, ...]], items: Iterator[Any], parts: Parts, said: IO[bytes]) -> None:
    status = 0
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)  # (the progress bar and any word are the parent's)
        got = draw(items, parts)
        for part in parts:
            part.flush()
        pickle.dump(got, said, protocol=pickle.HIGHEST_PROTOCOL)
        said.flush()
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def _result(pid: int, said: IO[bytes]) -> tuple[Any, ...]:
    """What the child's ``draw`` gave, once it is done."""
    _, status = os.waitpid(pid, 0)
    if status:
        raise Failed(status)
    said.seek(0)
    got: tuple[Any, ...] = pickle.load(said)
    return got


def stop(pid: int) -> None:
    """Child ``pid`` stopped (this process stops early) and reaped."""
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass
