"""``-o FILE`` and ``-q``, shared by every command that prints.

The options set this module's state through their callbacks (click calls them on every
run, given or not, so nothing carries over between runs).  :func:`replaced` is the one
writer of a named file (``-o``, ``convert -o``, ``--plot``), so what docs/commands.md
("Writing a file") promises holds for each: all or nothing, links written through, a
FIFO, device, socket or directory refused, permissions and hard links kept.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Container, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Annotated, Any

import typer

from pulyacalc.core.i18n import N_, _, tr

#: the file ``emit`` writes to (None: standard output); set by ``-o``
target: str | None = None
#: whether notes on standard error (skipped files, a finished pulya) are silenced; set by ``-q``
quiet: bool = False
#: whether this run has written the file already (a second emit appends)
_written: bool = False


def _set_output(value: str | None) -> str | None:
    global target, _written
    target = None if value in (None, "-") else check_writable(value)
    _written = False
    return value


def _refusal(path: str) -> str | None:
    """Why ``path`` cannot be written as a file (None when it can)."""
    try:
        st = os.stat(path)  # through a symbolic link: the file it points to
    except OSError:
        return None  # not there (or not reachable): creating it tells what is wrong
    if stat.S_ISREG(st.st_mode):
        return None
    if stat.S_ISDIR(st.st_mode):
        return _("is a directory")
    if stat.S_ISFIFO(st.st_mode):
        kind = _("is a FIFO, not a regular file; to write into it, leave out -o and redirect: > {path}")
    elif stat.S_ISSOCK(st.st_mode):
        kind = _("is a socket, not a regular file; to write into it, leave out -o and redirect: > {path}")
    else:
        kind = _("is a device, not a regular file; to write into it, leave out -o and redirect: > {path}")
    return kind.format(path=path)


def check_writable(value: str) -> str:
    """An ``-o`` value checked before any work (a usage error, exit 2, naming the option)."""
    if value == "-":
        return value
    why = _refusal(value)
    if why is not None:
        raise typer.BadParameter(f"{value}: {why}")
    return value


def drawing_file(value: str, suffixes: Container[str], misnamed: str) -> str:
    """A file a picture is drawn into (sheet's ``-o``, ``--plot``): named with one of
    ``suffixes`` (else the message ``misnamed``), in a folder that exists, writable."""
    path = Path(value)
    if path.suffix.lower() not in suffixes:
        raise typer.BadParameter(misnamed)
    if not os.path.isdir(path.parent):  # False, not ENAMETOOLONG, for a name too long
        raise typer.BadParameter(
            _("{file}: no such directory {folder}").format(file=value, folder=path.parent)
        )
    # a FIFO or a device named x.svg: refused before any work, as every other -o (exit 2)
    return check_writable(value)


def _set_quiet(value: bool) -> bool:
    global quiet
    quiet = value
    return value


@contextmanager
def replaced(path: str, binary: bool = False) -> Iterator[IO[Any]]:
    """A file written under a temporary name and put in place only when the block ends
    without an error (``-``: standard output, written at the end as well); exit 1 with a
    message when it cannot be written."""
    if path == "-":
        with _to_stdout() as f:
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
    tmp = f"{real}.tmp-{os.getpid()}"
    created = False
    try:
        # O_EXCL: never through a link or over a file someone else put at that name
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        created = True
        with open(fd, "wb") if binary else open(fd, "w", encoding="utf-8", newline="\n") as f:
            yield f
        if old is not None and old.st_nlink > 1:
            _copy_into(tmp, real)  # every hard link sees the new content
        else:
            if old is not None:
                _keep_owner_and_mode(tmp, old)
            os.replace(tmp, real)
            created = False
    except OSError as e:
        raise _cannot(path, e.strerror or str(e)) from None
    finally:
        if created:
            os.remove(tmp)


def _cannot(path: str, why: str) -> typer.Exit:
    print(_("pulyacalc: cannot write {path}: {reason}").format(path=path, reason=why), file=sys.stderr)
    return typer.Exit(1)


def _keep_owner_and_mode(tmp: str, old: os.stat_result) -> None:
    os.chmod(tmp, stat.S_IMODE(old.st_mode))
    if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
        # only root may give a file away: otherwise the new one is ours, with the old mode
        with suppress(OSError):
            os.chown(tmp, old.st_uid, old.st_gid)


def _copy_into(tmp: str, real: str) -> None:
    """The finished temporary file written over ``real`` in place (inode, mode, links stay)."""
    with open(tmp, "rb") as src, open(real, "r+b") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
        dst.truncate()


@contextmanager
def _to_stdout() -> Iterator[IO[str]]:
    """``-o -`` (text: pictures never go to standard output): all or nothing as a file is."""
    import tempfile

    with tempfile.SpooledTemporaryFile(max_size=1 << 22, mode="w+", encoding="utf-8", newline="\n") as spool:
        yield spool
        spool.seek(0)
        while chunk := spool.read(1 << 16):
            sys.stdout.write(chunk)
        sys.stdout.flush()


def write(text: str) -> None:
    """Write ``text`` to the ``-o`` file (the first time all or nothing, then appended)."""
    global _written
    assert target is not None
    path = target
    if not _written:
        with replaced(path) as f:
            f.write(text)
        _written = True
        return
    try:
        with open(os.path.realpath(path), "a", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as e:
        raise _cannot(path, e.strerror or str(e)) from None


def note(message: str) -> None:
    """A note for the person at the terminal, on standard error, unless ``-q``."""
    if not quiet:
        print(f"pulyacalc: {tr(message)}", file=sys.stderr)


OutputOpt = Annotated[
    str | None,
    typer.Option(
        "-o",
        "--output",
        metavar="FILE",
        callback=_set_output,
        help=N_(
            "Write the output to FILE instead of standard output (all or nothing; - is standard output)."
        ),
    ),
]

QuietOpt = Annotated[
    bool,
    typer.Option(
        "-q",
        "--quiet",
        callback=_set_quiet,
        help=N_("No notes on standard error (skipped files and the like)."),
    ),
]
