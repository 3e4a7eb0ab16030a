"""Reading a log: the format chosen, the header read, the deals handed over (YAML: a list, lines: a stream).
``read_log`` (a path or '-') and ``read_text`` (a string) share ``_read``: a log reads alike from both."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import chain
from typing import IO

from pulyacalc.core.errors import Loc, Problem, Problems, ReadError, encoding_of, not_utf8, opened, os_reason
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.model import Log

#: the file-name endings that decide a log's format (other names are read by their content)
SUFFIXES = {
    **dict.fromkeys((".yaml", ".yml"), "yaml"),
    **dict.fromkeys((".txt", ".log", ".pulya", ".lines"), "lines"),
}


def format_by_name(name: str) -> str | None:
    """'yaml' or 'lines' when the file name decides it, else None."""
    low = name.lower()
    return next((fmt for suffix, fmt in SUFFIXES.items() if low.endswith(suffix)), None)


def detect_format(name: str, head: str) -> str:
    """'yaml' or 'lines', by the file name or, for stdin and other names, by the content."""
    by_name = format_by_name(name)
    if by_name is not None:
        return by_name
    for line in head.splitlines():
        s = line.strip().lstrip("\ufeff")
        if not s or s.startswith("#"):
            continue
        if s.startswith(("---", "deals:", "sheet:", "- ", "overrides:")):
            return "yaml"
        if ":" not in s.split(",")[0].split(" ")[0]:
            return "lines"  # a deal line like 'Anna 6♠ 7, …' (YAML keeps to 'key: value' here)
    return "yaml" if "\ndeals:" in head or head.startswith("deals:") else "lines"


def refused(loc: Loc, message: str, hint: str = "") -> ReadError:
    """The error of an input that cannot be read at all: one problem."""
    return ReadError([Problem(loc, message, hint)])


def unreadable(name: str, e: OSError) -> Exception:
    """The error of an input whose reading failed part way (EIO); a named file's error as it
    is (the copy of standard input kept while it is read: ``cli/stdin_copy``)."""
    return (
        e if e.filename is not None else refused(Loc(name), M_("cannot read: {reason}", reason=os_reason(e)))
    )


#: ``--encoding``: what logs and sheets are read in, all through a run (default UTF-8, its BOM skipped)
encoding: ContextVar[str] = ContextVar("encoding", default="utf-8-sig")


def open_input(path: str, newline: str | None = None) -> tuple[IO[str], str]:
    """A text stream for a path or '-' (standard input), and the name used in messages."""
    if path == "-":
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding=encoding.get(), errors="strict", newline=newline)
        return stream, "<stdin>"
    try:
        return opened(open(path, encoding=encoding.get(), newline=newline)), path  # noqa: SIM115
    except FileNotFoundError:
        raise refused(Loc(path), M_("no such file")) from None
    except IsADirectoryError:
        raise refused(Loc(path), M_("is a directory, not a log")) from None
    except OSError as e:
        raise refused(Loc(path), M_("cannot open: {reason}", reason=os_reason(e))) from None


def read_log(
    path: str,
    input_format: str | None = None,
    problems: Problems | None = None,
    *,
    max_yaml_bytes: int | None = None,
) -> Log:
    """Read a log from a path or '-'; deal problems go to ``problems`` as deals are read."""
    stream, name = open_input(path)
    return _read(stream, name, path, input_format, problems, max_yaml_bytes)


def read_text(
    text: str,
    name: str = "<text>",
    input_format: str | None = None,
    problems: Problems | None = None,
    *,
    max_yaml_bytes: int | None = None,
) -> Log:
    """Read a log from a string (``name`` locates its problems), exactly as from a file."""
    return _read(io.StringIO(text, newline=None), name, None, input_format, problems, max_yaml_bytes)


def _read(
    stream: IO[str],
    name: str,
    path: str | None,
    input_format: str | None,
    problems: Problems | None,
    max_yaml_bytes: int | None,
) -> Log:
    """Choose the format from the name or the first 4096 characters, then read YAML whole
    or stream the lines.  ``path`` (None for text) is looked into again for a bad byte's place."""
    problems = problems if problems is not None else Problems()
    with _reading(stream, path, name, close=False):
        head = stream.read(4096)
    if "\x00" in head and path not in (None, "-") and _utf16(path):  # read as UTF-8 without a mark
        raise ReadError([not_utf8(path, name, "NUL")])
    fmt = input_format or detect_format(name, head)
    if fmt == "yaml":
        from pulyacalc.yamlsource import MAX_YAML_BYTES, YAML_TOO_LONG

        limit = max_yaml_bytes or MAX_YAML_BYTES
        text = read_whole(stream, head, path, name, limit, M_(YAML_TOO_LONG))
        from pulyacalc.logs import yaml_log as log_yaml

        return log_yaml.parse(text, name, problems, max_bytes=limit)
    from pulyacalc.logs import lines as log_lines

    return log_lines.parse_stream(_chain(head, stream, path, name), name, problems)


def _utf16(path: str) -> bool:
    """Is the file at ``path`` (a regular one: read again) UTF-16 without its byte order mark?"""
    if not os.path.isfile(path):
        return False
    with open(path, "rb") as f:
        found = encoding_of(f.read(65536))
    return found is not None and found[1] == "utf-16"


def read_whole(stream: IO[str], head: str, path: str | None, name: str, limit: int, hint: str) -> str:
    """``head`` and the rest of a YAML document, refused over ``limit`` bytes (a character
    is at least one byte: limit + 1 characters are surely over it, and no more is read)."""
    with _reading(stream, path, name):
        text = head + stream.read(max(0, limit + 1 - len(head)))
    if len(text) > limit:
        over = M_("the YAML document is over the limit of {limit:,} bytes", limit=limit)
        raise refused(Loc(name), over, hint)
    return text


@contextmanager
def _reading(stream: IO[str], path: str | None, name: str, *, close: bool = True) -> Iterator[None]:
    """A bad byte or a read error of ``stream`` told as the input's; the stream closed after
    when ``close`` (standard input is not ours to close; one over a string closes harmlessly)."""
    try:
        yield
    except UnicodeError as e:  # (a decode error, or UTF-16 without its mark)
        raise ReadError([undecodable(path, name, e)]) from None
    except OSError as e:  # a disk's read error: the log's, not standard output's
        raise unreadable(name, e) from None
    finally:
        if close and path != "-":
            stream.close()


def undecodable(path: str | None, name: str, e: UnicodeError) -> Problem:
    """Not text in the codec read: not UTF-8 (at its first bad byte), or not what ``--encoding`` named."""
    reason = e.reason if isinstance(e, UnicodeDecodeError) else str(e)
    codec = encoding.get()
    if codec == "utf-8-sig":
        return not_utf8(path or "-", name, reason)
    hint = M_("read it in the encoding it was saved in (--encoding), or save it as UTF-8")
    return Problem(Loc(name), M_("not {codec} text ({reason})", codec=codec, reason=reason), hint)


#: a too-long line is skipped to its end; one going on this far past its cut (``/dev/zero``) ends the reading
MAX_SKIP_CHARS = 1_000_000
#: characters read at a time, split into lines at once (cheaper than a line at a time);
#: under the line limit, so only a piece's first line can be over it
CHUNK_CHARS = 8192
_NEVER_ENDS = N_("line {number} does not end within {most:,} characters: this is no log")


def _chain(head: str, stream: IO[str], path: str | None, name: str) -> Iterator[str]:
    """Lines of ``head`` + the rest of the stream, without their '\n', read lazily and bounded:
    a line over the line limit is given cut, for the reader to report; its rest is dropped."""
    return chain.from_iterable(_pieces(head, stream, path, name))


def _pieces(head: str, stream: IO[str], path: str | None, name: str) -> Iterator[list[str]]:
    """The lines of ``_chain``, a list of them per piece of the stream read."""
    from pulyacalc.yamlsource import MAX_LINE_CHARS

    limit = MAX_LINE_CHARS + 1
    number = 0  # lines given so far
    tail = ""  # the start of a line not ended yet (shorter than ``limit``)
    data = head
    with _reading(stream, path, name):
        while True:
            if not data:
                data = stream.read(CHUNK_CHARS)
                if not data:
                    break
            lines = (tail + data).split("\n") if tail else data.split("\n")
            tail = lines.pop()
            # only the first line can be over the limit, unless the piece is longer
            if lines and (len(lines[0]) if len(data) < limit else max(map(len, lines))) >= limit:
                # ended within the piece: cut
                for i, line in enumerate(lines, number + 1):
                    if len(line) - limit > MAX_SKIP_CHARS:
                        raise _never_ends(i, name)
                lines = [line[:limit] for line in lines]
            if len(tail) >= limit:
                # its rest is dropped now: a line that never ends is refused before any of it is read
                lines.append(tail[:limit])
                data = _skip_rest(stream, len(tail) - limit, number + len(lines), name)
                tail = ""
            else:
                data = ""
            number += len(lines)
            if lines:
                yield lines
        if tail:
            yield [tail]


def _skip_rest(stream: IO[str], skipped: int, number: int, name: str) -> str:
    """Read on, keeping nothing, to the end of line ``number`` (``skipped`` characters past
    its cut read already): what the last piece holds after its '\n' ('' at the end)."""
    while True:
        piece = stream.read(CHUNK_CHARS)
        if not piece:
            return ""
        end = piece.find("\n")
        skipped += len(piece) if end < 0 else end
        if skipped > MAX_SKIP_CHARS:
            break
        if end >= 0:
            return piece[end + 1 :]
    raise _never_ends(number, name)


def _never_ends(number: int, name: str) -> ReadError:
    message = M_(_NEVER_ENDS, number=number, most=MAX_SKIP_CHARS)
    return refused(Loc(name, number, 1), message, M_("a log is text, one deal per line"))
