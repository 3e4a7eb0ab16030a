"""``-o FILE`` and ``-q``, shared by every command that prints.  :func:`replaced` is the one
writer of a named file, so docs/commands.md "Writing a file" holds for each."""

from __future__ import annotations

import itertools
import os
import stat
import sys
from collections.abc import Callable, Container, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import IO, Any

import typer

from pulyacalc.core.errors import shown
from pulyacalc.core.i18n import _, tr
from pulyacalc.render.formats import spool, spooled

#: the file ``emit`` writes to (None: standard output); set by ``-o``
target: str | None = None
#: whether notes on standard error (skipped files, a finished pulya) are silenced; set by ``-q``
quiet: bool = False
#: whether ``-o`` may replace a log or a paper sheet (``new``: any file with text); ``--force``
force: bool = False
#: this run's ``-o`` file (:func:`session`), opened at the first ``emit``
_stack: ExitStack | None = None
_file: Any = None
#: the temporary files' numbers (two may be open in one process: ``--plot`` and ``-o``)
_count = itertools.count()
#: what a report's ``-o`` name says of its format (``-o standings.csv``: CSV)
REPORT_SUFFIXES = {".txt": "table", ".csv": "csv", ".tsv": "tsv", ".json": "json", ".jsonl": "jsonl"}


def set_output(value: str | None) -> str | None:
    """``-o``'s callback: the file ``emit`` writes to, checked before any work."""
    global target
    target = None if value in (None, "-") or descriptor(value) == 1 else check_writable(value)
    return value


def descriptor(path: str) -> int | None:
    """The open descriptor a name stands for (``/dev/stdout``, ``/dev/fd/3``,
    ``/proc/self/fd/3``; ``-``: 1), written to as it is: its file is never replaced."""
    if path == "-":
        return 1
    name = "/" + os.path.normpath(path).lstrip("/") if path.startswith("/") else path
    named = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}.get(name)
    for head in ("/dev/fd/", "/proc/self/fd/", f"/proc/{os.getpid()}/fd/"):
        if name.startswith(head) and name[len(head) :].isdigit():
            named = int(name[len(head) :])
    return named


def _refusal(path: str) -> str | None:
    """Why ``path`` cannot be written as a file (None when it can)."""
    fd = descriptor(path)
    try:
        st = os.stat(path) if fd is None else os.fstat(fd)  # through a link: the file it points to
    except (OSError, ValueError):
        # not there (or not reachable): creating it tells what is wrong
        return None if fd is None else _("no such open descriptor")
    if fd is not None or stat.S_ISREG(st.st_mode):
        # as `>`, cp and tee refuse it (root too, when no one may write it: 0444)
        if fd is None and (not st.st_mode & 0o222 or not os.access(path, os.W_OK)):
            return _("is read-only; to replace it, make it writable or name another file")
        return None
    if stat.S_ISDIR(st.st_mode):
        return _("is a directory")
    if stat.S_ISFIFO(st.st_mode):
        kind = _("is a FIFO, not a regular file; to write into it, leave out -o and redirect: > {path}")
    elif stat.S_ISSOCK(st.st_mode):
        kind = _("is a socket, not a regular file; to write into it, leave out -o and redirect: > {path}")
    else:
        kind = _("is a device, not a regular file; to write into it, leave out -o and redirect: > {path}")
    return kind.format(path=shown(path, 0))


def check_writable(value: str) -> str:
    """An ``-o`` value checked before any work (a usage error, exit 2, naming the option)."""
    why = _refusal(value) if value != "-" else None
    if why is not None:
        raise typer.BadParameter(f"{shown(value, 0)}: {why}")
    return value


def drawing_file(value: str, suffixes: Container[str], misnamed: str) -> str:
    """A file a picture is drawn into (sheet's ``-o``, ``--plot``): named with one of
    ``suffixes`` (else the message ``misnamed``), in a folder that exists, writable."""
    path = Path(value)
    if path.suffix.lower() not in suffixes:
        raise typer.BadParameter(misnamed)
    if not os.path.isdir(path.parent):  # False, not ENAMETOOLONG, for a name too long
        message = _("{file}: no such directory {folder}")
        raise typer.BadParameter(message.format(file=shown(value, 0), folder=shown(str(path.parent), 0)))
    # a FIFO or a device named x.svg: refused before any work, as every other -o (exit 2)
    return check_writable(value)


def keeps(name: str) -> Callable[[bool], bool]:
    """The callback of a flag kept in this module (``-q``, ``--force``)."""

    def keep(value: bool) -> bool:
        globals()[name] = value
        return value

    return keep


def identity(path: str) -> tuple[int, int] | None:
    """The (device, inode) of the file at ``path`` (through links), None when there is none."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def typed(path: str, anything: bool) -> bool:
    """Whether ``path`` is a file a person typed, which ``-o`` replaces only with ``--force``: a
    log or a paper sheet (a top-level ``players:``, ``игроки:``, ``deals:`` or ``сдачи:``, as
    season tells a log in a folder); with ``anything``, any file with text."""
    from pulyacalc.reports.season import top_keys

    try:
        if anything:
            return os.path.getsize(path) > 0
        return bool(top_keys(Path(path)) & {"players", "игроки", "deals", "сдачи"})
    except (OSError, ValueError):  # ValueError: not UTF-8 (a picture)
        return False


class _Cannot(typer.Exit):
    """The ``-o`` file could not be written (it is left as it was)."""


class _Guarded:
    """A file being written whose failures name it (exit 1), not the input being read."""

    def __init__(self, f: IO[Any], path: str) -> None:
        self.f, self.path = f, path

    def write(self, data: Any) -> None:
        _guard(self.path, self.f.write, data)


def _guard(path: str, call: Callable[..., Any], *args: Any) -> Any:
    try:
        return call(*args)
    except OSError as e:
        raise _cannot(path, e.strerror or str(e)) from None


@contextmanager
def replaced(path: str, binary: bool = False) -> Iterator[Any]:
    """A file written under a temporary name and put in place only when the block ends
    without an error (``-`` and ``/dev/fd/N``: the open descriptor, written at the end as
    well); exit 1 with a message when it cannot be written."""
    fd = descriptor(path)
    if fd is not None:
        with _to_descriptor(fd, path) as f:
            yield f
        return
    real = os.path.realpath(path)  # a link is written through: its target is replaced
    why = _refusal(real)
    if why is not None:  # it became one after the option was checked
        raise _cannot(path, why)
    try:
        old: os.stat_result | None = os.stat(real)
    except OSError:
        old = None
    # a short name beside it (a name of 255 characters leaves no room for a suffix); O_EXCL:
    # never through a link or over a file someone else put at that name
    tmp = os.path.join(os.path.dirname(real), f"pulyacalc-{os.getpid()}-{next(_count)}.tmp")
    made = _guard(path, os.open, tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    placed = False
    try:
        with open(made, "wb") if binary else open(made, "w", encoding="utf-8", newline="\n") as f:
            yield _Guarded(f, path)
            _guard(path, f.flush)
        _guard(path, _put, tmp, real, old)
        placed = True
    finally:
        if not placed:
            with suppress(OSError):
                os.remove(tmp)


def _put(tmp: str, real: str, old: os.stat_result | None) -> None:
    """The finished temporary file in place of ``real``: renamed over it, or (a file with
    other hard links) copied into it, so that every name sees the new content."""
    if old is not None and old.st_nlink > 1:
        with open(tmp, "rb") as src, open(real, "r+b") as dst:
            while chunk := src.read(1 << 20):
                dst.write(chunk)
            dst.truncate()
        os.remove(tmp)
        return
    if old is not None:
        os.chmod(tmp, stat.S_IMODE(old.st_mode))
        if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
            # only root may give a file away: otherwise the new one is ours, with the old mode
            with suppress(OSError):
                os.chown(tmp, old.st_uid, old.st_gid)
    os.replace(tmp, real)


#: an error of standard output written here, marked (not a temporary file's)
STDOUT = "standard output"


def _cannot(path: str, why: str) -> typer.Exit:
    message = _("pulyacalc: cannot write {path}: {reason}").format(path=shown(path, 0), reason=why)
    print(message, file=sys.stderr)
    return _Cannot(1)


@contextmanager
def _to_descriptor(fd: int, path: str) -> Iterator[IO[str]]:
    """``-o -`` or ``-o /dev/fd/N`` (text: pictures never go there): spooled, all or nothing
    as a file is, then written to the open descriptor (1: standard output)."""
    with spool() as kept:
        yield kept
        if fd == 1:
            try:
                sys.stdout.writelines(spooled(kept))
                sys.stdout.flush()
            except OSError as e:  # standard output's own failure: runtime.run reports it
                e.filename2 = STDOUT
                raise
            return
        with open(_guard(path, os.dup, fd), "w", encoding="utf-8", newline="\n") as sink:
            _guard(path, sink.writelines, spooled(kept))
            _guard(path, sink.flush)


@contextmanager
def session() -> Iterator[None]:
    """One run of a command: its ``-o`` file, opened at the first ``emit``, is put in place
    when the command ends (by a status too: check's findings), left as it was on an error."""
    global _stack, _file
    with ExitStack() as stack:
        _stack, _file = stack, None
        try:
            yield
        except typer.Exit as e:
            if not isinstance(e, _Cannot):
                stack.close()  # the output was written whole
            raise
        finally:
            _stack = _file = None


def write(text: str) -> None:
    """Write ``text`` to the ``-o`` file, all of a run's text put in place at once."""
    global _file
    assert target is not None and _stack is not None
    if _file is None:
        _file = _stack.enter_context(replaced(target))
    _file.write(text)


def note(message: str) -> None:
    """A note for the person at the terminal, on standard error, unless ``-q``."""
    if not quiet:
        print(f"pulyacalc: {shown(tr(message), 0)}", file=sys.stderr)
