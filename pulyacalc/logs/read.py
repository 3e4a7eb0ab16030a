"""Reading a log: choose the format (YAML or lines), read the header, and hand the
deals over — as a list for YAML, as a stream for line logs.

Both formats share the header keys and the player-name matching here.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from typing import IO

from pulyacalc.core.errors import Loc, Problem, Problems, ReadError, not_utf8
from pulyacalc.core.model import Log


def detect_format(name: str, head: str) -> str:
    """'yaml' or 'lines', by the file name or, for stdin and other names, by the content."""
    low = name.lower()
    if low.endswith((".yaml", ".yml")):
        return "yaml"
    if low.endswith((".txt", ".log", ".pulya", ".lines")):
        return "lines"
    for line in head.splitlines():
        s = line.strip().lstrip("\ufeff")
        if not s or s.startswith("#"):
            continue
        if s.startswith(("---", "deals:", "sheet:", "- ", "overrides:")):
            return "yaml"
        if ":" not in s.split(",")[0].split(" ")[0]:
            return "lines"  # a deal line like 'Anna 6♠ 7, …' (YAML keeps to 'key: value' here)
    return "yaml" if "\ndeals:" in head or head.startswith("deals:") else "lines"


def open_input(path: str) -> tuple[IO[str], str]:
    """A text stream for a path or '-' (standard input), and the name used in messages."""
    if path == "-":
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="strict", newline=None)
        return stream, "<stdin>"
    try:
        return open(path, encoding="utf-8-sig", newline=None), path  # noqa: SIM115
    except FileNotFoundError:
        raise ReadError([Problem(Loc(path), "no such file")]) from None
    except IsADirectoryError:
        raise ReadError([Problem(Loc(path), "is a directory, not a log")]) from None
    except OSError as e:
        raise ReadError([Problem(Loc(path), f"cannot open: {e.strerror}")]) from None


def read_log(
    path: str,
    input_format: str | None = None,
    problems: Problems | None = None,
    *,
    max_yaml_bytes: int | None = None,
) -> Log:
    """Read a log from a path or '-'.  Header problems raise; deal problems are collected
    into ``problems`` as the deals are read (line logs are read lazily)."""
    problems = problems if problems is not None else Problems()
    stream, name = open_input(path)
    try:
        head = stream.read(4096)
    except UnicodeDecodeError as e:
        raise ReadError([not_utf8(path, name, e.reason)]) from None
    fmt = input_format or detect_format(name, head)
    if fmt == "yaml":
        from pulyacalc.yamlsource import MAX_YAML_BYTES

        limit = max_yaml_bytes or MAX_YAML_BYTES
        try:
            # never read more than the limit: a character is at least one byte, so
            # limit + 1 characters are surely over it
            rest = stream.read(max(0, limit + 1 - len(head)))
            over = len(head) + len(rest) > limit
        except UnicodeDecodeError as e:
            raise ReadError([not_utf8(path, name, e.reason)]) from None
        finally:
            if path != "-":
                stream.close()
        if over:
            raise ReadError(
                [
                    Problem(
                        Loc(name),
                        f"the YAML document is over the limit of {limit:,} bytes",
                        "split the log, use the line format (no size limit), or raise --max-yaml-bytes",
                    )
                ]
            )
        from pulyacalc.logs import yaml_log as log_yaml

        return log_yaml.parse(head + rest, name, problems, max_bytes=limit)
    from pulyacalc.logs import lines as log_lines

    return log_lines.parse_stream(_chain(head, stream, path, name), name, problems)


def _chain(head: str, stream: IO[str], path: str, name: str) -> Iterator[str]:
    """Lines of ``head`` + the rest of the stream, read lazily."""
    close = path != "-"
    try:
        rest = stream.readline() if not head.endswith("\n") and head else ""
        yield from (head + rest).splitlines(keepends=True)
        yield from stream
    except UnicodeDecodeError as e:
        raise ReadError([not_utf8(path, name, e.reason)]) from None
    finally:
        if close:
            stream.close()


def read_text(
    text: str, name: str = "<text>", input_format: str | None = None, problems: Problems | None = None
) -> Log:
    """Read a log from a string (tests, library use)."""
    from pulyacalc.logs import lines as log_lines
    from pulyacalc.logs import yaml_log as log_yaml

    problems = problems if problems is not None else Problems()
    fmt = input_format or detect_format(name, text[:4096])
    if fmt == "yaml":
        return log_yaml.parse(text, name, problems)
    return log_lines.parse_stream(iter(text.splitlines(keepends=True)), name, problems)
