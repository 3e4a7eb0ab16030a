"""Running a command: library errors as located messages (exit 1), output that survives a closed pipe."""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO, TypeVar

import typer

from pulyacalc.cli.console import degrade, fit

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> typer.Exit:
    """Print a message to standard error; the caller raises the returned Exit(1)."""
    print(f"pulyacalc: {message}", file=sys.stderr)
    return typer.Exit(1)


def reports_problems(func: F) -> F:
    """Turn library errors into located messages on stderr and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from pulyacalc.core.errors import PulyaError
        from pulyacalc.scoring.settlement import SettlementError

        try:
            return func(*args, **kwargs)
        except PulyaError as e:
            for problem in e.problems:
                # one character for one, so the caret stays under the echoed column
                print(fit(problem.format(), sys.stderr), file=sys.stderr)
            n = len(e.problems)
            if n > 1:
                print(f"pulyacalc: {n} problems", file=sys.stderr)
            raise typer.Exit(1) from None
        except SettlementError as e:
            raise fail(str(e)) from None
        except BrokenPipeError:
            _quiet_broken_pipe()
        except KeyboardInterrupt:
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]


def _quiet_broken_pipe() -> None:
    # `pulyacalc … | head`: the reader left; exit quietly without a traceback.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    raise typer.Exit(0)


def emit(text: str) -> None:
    """Write to standard output, or to the ``-o`` file (cli/output.py), exiting quietly when
    the reader has gone."""
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
        _quiet_broken_pipe()


class ProgressBar:
    """A one-line bar on a terminal's standard error, shown only once the work has taken
    more than ``delay`` seconds, redrawn at most ten times a second, erased at the end.
    Nothing is written when standard error is not a terminal (pipelines, logs)."""

    def __init__(self, stream: TextIO, delay: float = 0.5, width: int = 30) -> None:
        self.stream = stream
        self.delay = delay
        self.width = width
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False
        try:
            self.enabled = stream.isatty()
        except (AttributeError, ValueError):
            self.enabled = False

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
    """For commands over many logs (season, stats): the progress bar's ``update`` (None when
    ``--no-progress``) and a list for the files a directory held that are not logs; when the
    work ends, however it ends, the bar is erased and each skipped file is named on stderr."""
    from pulyacalc.cli.output import note

    bar = ProgressBar(sys.stderr) if progress else None
    skipped: list[tuple[str, str]] = []
    try:
        yield (bar.update if bar is not None else None), skipped
    finally:
        if bar is not None:
            bar.close()
        for path, why in skipped:
            note(f"skipped {path}: {why}")
