"""Running a command: library errors as located messages (exit 1), output that survives a
closed pipe, standard streams in any state a shell leaves them; :func:`run` decides the
exit statuses of docs/output.md ("Rules for every format")."""

from __future__ import annotations

import errno
import io
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, TextIO

import typer

from pulyacalc.cli.console import degrade, fit, is_console
from pulyacalc.core.i18n import _, ngettext, tr


class _Diagnostics(io.RawIOBase):
    """Standard error as a raw stream whose failures are dropped: diagnostics that cannot be
    shown must not end the command or change its status."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd, self.broken = fd, False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return not self.broken and os.isatty(self.fd)

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while not self.broken and done < len(view):
            try:
                done += os.write(self.fd, view[done:])  # EINTR is retried by os.write itself (PEP 475)
            except OSError:
                self.broken = True
        return len(view)


class _Closed(io.RawIOBase):
    """Standard output the shell closed (``>&-``): every write fails with EBADF."""

    discard = False  # set once the failure is reported: the rest goes nowhere

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self.discard:
            return len(memoryview(data))
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


def guard_streams() -> None:
    """A descriptor the shell closed is taken by ``/dev/null``, so that no file opened later
    gets its number (a ``-o`` file on descriptor 2 would receive the diagnostics)."""
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if 0 in closed:
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    if 1 in closed:
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_Closed()), encoding="utf-8", newline="\n")
    old = sys.stderr
    if old is None or hasattr(old, "reconfigure"):  # not a stream an embedding program put there
        sys.stderr = io.TextIOWrapper(
            _Diagnostics(2),  # a raw stream that writes all it is given: no buffer needed
            encoding=getattr(old, "encoding", None) or "utf-8",
            errors=getattr(old, "errors", None) or "backslashreplace",
            line_buffering=True,
            write_through=True,
        )


def _status(code: object) -> int:
    """The exit status a ``SystemExit`` code stands for (a text is a message: status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


#: the cyclic garbage collector was paused for the start-up (cli/app.py ``script``)
_gc_paused = False
#: the collector's first threshold once resumed: a short command's young objects are never
#: walked, and at most this many wait in a long log's loop (Python's default is 700)
GC_YOUNG = 10_000


def resume_gc() -> None:
    """The command's work begins: the objects made so far (living to the end) are moved out
    of a paused collector's sight (``gc.freeze``) and it runs again, for a long log's loop."""
    global _gc_paused
    if _gc_paused:
        import gc

        _gc_paused = False
        gc.freeze()
        gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
        gc.enable()


def run(app: Callable[[], object], *, gc_paused: bool = False) -> int:
    """Run ``app`` with its streams guarded; its exit status once standard output is flushed
    (the one place where a failure to write it is reported)."""
    global _gc_paused
    _gc_paused = gc_paused
    guard_streams()
    try:
        app()
        status = 0
    except SystemExit as e:
        status = _status(e.code)
    except KeyboardInterrupt:
        status = 130
    except BrokenPipeError:
        status = _reader_left()
    except OSError as e:  # a write of standard output outside emit (click's help, --version)
        status = _write_failed(e) if e.filename is None else _file_failed(e)
    return finish(status)


def finish(status: int) -> int:
    """Flush standard output and error: ``status``, or 1 when standard output fails (0: reader gone)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        status = _reader_left()
    except OSError as e:
        status = _write_failed(e)
    except (AttributeError, ValueError):  # replaced or closed by an embedding program
        pass
    with suppress(AttributeError, OSError, ValueError):
        sys.stderr.flush()
    return status


def _silence_stdout() -> None:
    """What is still buffered for standard output goes nowhere (no later flush fails again)."""
    raw = getattr(getattr(sys.stdout, "buffer", None), "raw", None)
    if isinstance(raw, _Closed):
        raw.discard = True
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        pass


def _reader_left() -> int:
    # `pulyacalc … | head`: the reader left; nothing more is wanted, status 0, no message
    _silence_stdout()
    return 0


def _file_failed(e: OSError) -> int:
    """An error about a file that no command turned into a message, naming it: exit 1."""
    from pulyacalc.core.errors import os_reason, shown

    print(f"pulyacalc: {shown(str(e.filename), 0)}: {os_reason(e)}", file=sys.stderr)
    return 1


def _write_failed(e: OSError) -> int:
    _silence_stdout()
    reason = e.strerror or str(e)
    print(_("pulyacalc: cannot write to standard output: {reason}").format(reason=reason), file=sys.stderr)
    return 1


def fail(message: str) -> typer.Exit:
    """Print a message to standard error; the caller raises the returned Exit(1)."""
    from pulyacalc.core.errors import shown

    print(f"pulyacalc: {shown(tr(message), 0)}", file=sys.stderr)
    return typer.Exit(1)


@contextmanager
def problems_reported() -> Iterator[None]:
    """A command's work begins: library errors turned into located messages on stderr and exit status 1."""
    from pulyacalc.core.errors import PulyaError
    from pulyacalc.scoring.settlement import SettlementError

    resume_gc()
    try:
        yield
    except PulyaError as e:
        for problem in e.problems:
            # one character for one, so the caret stays under the echoed column
            print(fit(problem.format(), sys.stderr), file=sys.stderr)
        n = len(e.problems)
        if n > 1:
            print("pulyacalc: " + ngettext("{n} problem", "{n} problems", n).format(n=n), file=sys.stderr)
        raise typer.Exit(1) from None
    except SettlementError as e:
        raise fail(e.args[0] if e.args else str(e)) from None
    except BrokenPipeError:
        raise typer.Exit(_reader_left()) from None
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    except OSError as e:
        import tempfile

        from pulyacalc.cli.output import STDOUT

        if e.filename not in (None, tempfile.gettempdir()) or e.filename2 == STDOUT:
            raise
        raise typer.Exit(_unnamed_failed(e)) from None


def _unnamed_failed(e: OSError) -> int:
    """An error of no named file (or of the temporary folder) inside a command: standard
    output is ``emit``'s, which reports its own, and the inputs name theirs, so a full disk
    is the temporary folder's (a spool past its memory, standard input's copy)."""
    import tempfile

    from pulyacalc.core.errors import os_reason, shown

    said = _("pulyacalc: a file could not be read or written: {reason}")
    if e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        said = _("pulyacalc: cannot write a temporary file in {folder}: {reason}")
    print(said.format(folder=shown(tempfile.gettempdir(), 0), reason=os_reason(e)), file=sys.stderr)
    return 1


def emit(text: str) -> None:
    """Write to standard output, or to the ``-o`` file (cli/output.py)."""
    from pulyacalc.cli import output

    if output.target is not None:
        output.write(text)
        return
    try:
        try:
            sys.stdout.write(text)
        except UnicodeEncodeError:
            # a stream main() did not set up (an embedding program): degrade, never die
            sys.stdout.write(degrade(text, sys.stdout.encoding or "ascii"))
        sys.stdout.flush()
    except BrokenPipeError:
        raise typer.Exit(_reader_left()) from None
    except OSError as e:
        raise typer.Exit(_write_failed(e)) from None


class ProgressBar:
    """A one-line bar on a terminal's standard error, shown once the work has taken over
    ``delay`` seconds, redrawn at most ten times a second, erased at the end."""

    def __init__(self, stream: TextIO, delay: float = 0.5, width: int = 30) -> None:
        self.stream, self.delay, self.width = stream, delay, width
        self.start, self.last, self.shown = time.monotonic(), 0.0, False
        self.enabled = is_console(stream)

    def update(self, done: int, total: int, name: str) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        filled = self.width * done // max(total, 1)
        label = name if len(name) <= 40 else "…" + name[-39:]
        line = f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {label}"
        self._write(line.ljust(self.width + 60))
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self._write("\r" + " " * (self.width + 60) + "\r")
            self.shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False


@contextmanager
def walking_logs(
    progress: bool,
) -> Iterator[tuple[Callable[[int, int, str], None] | None, list[tuple[str, str]]]]:
    """Over many logs (season, stats): the bar's ``update`` (None: ``--no-progress``) and a
    list for files that are not logs, each named on stderr at the end, however it ends."""
    from pulyacalc.cli.output import note

    bar = ProgressBar(sys.stderr) if progress else None
    skipped: list[tuple[str, str]] = []
    try:
        yield (bar.update if bar is not None else None), skipped
    finally:
        if bar is not None:
            bar.close()
        for path, why in skipped:
            note(_("skipped {path}: {why}").format(path=path, why=tr(why)))
