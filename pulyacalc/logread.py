"""Reading a log: choose the format (YAML or lines), read the header, and hand the
deals over — as a list for YAML, as a stream for line logs.

Both formats share the header keys and the player-name matching here.
"""

from __future__ import annotations

import difflib
import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from .convention import ROUNDINGS, SCHEMA, Convention, load
from .errors import Loc, Problem, Problems, ReadError, not_utf8
from .model import Header, Log
from .yamlsource import Node, as_int, as_str, words

HEADER_KEYS = ("players", "dealer", "convention", "pool", "rounding")


def match_player(word: str, players: tuple[str, ...]) -> tuple[str | None, str]:
    """A written name → the player: exact, then ignoring case, then a unique prefix.

    Returns (player or None, hint for the message).
    """
    if word in players:
        return word, ""
    low = word.casefold()
    same = [p for p in players if p.casefold() == low]
    if len(same) == 1:
        return same[0], ""
    pre = [p for p in players if p.casefold().startswith(low)]
    if len(pre) == 1:
        return pre[0], ""
    if len(pre) > 1:
        return None, f"{word!r} could be {' or '.join(pre)}: write more letters"
    close = difflib.get_close_matches(word, list(players), n=1, cutoff=0.5)
    if close:
        return None, f"did you mean {close[0]}?"
    return None, f"players: {', '.join(players)}"


@dataclass
class HeaderBuilder:
    """Collects header keys from either format and checks them."""

    file: str
    problems: Problems

    def build(
        self,
        values: dict[str, tuple[Node, Loc]],
        overrides: list[tuple[str, Node]],
        first_loc: Loc,
        *,
        key_locs: dict[str, Loc] | None = None,
        overrides_mapping: bool = False,
    ) -> Header | None:
        """Check the header keys.  ``overrides`` are convention keys the log sets: header
        lines of a line log, or the ``overrides:`` mapping of a YAML log
        (``overrides_mapping``), located at ``key_locs``."""
        p = self.problems
        locs = {k: loc for k, (_, loc) in values.items()}
        if "players" not in values:
            p.add(
                first_loc,
                "the log does not say who plays",
                "start with 'players: Anna Boris Vera' (3 or 4 names, clockwise)",
            )
            return None
        pnode = values["players"][0]
        names = words(pnode)
        players = tuple(n for n, _ in names)
        ok = True
        if len(players) not in (3, 4):
            p.add(
                pnode.loc,
                f"Preferans is played by 3 or 4 players, the log names {len(players)}",
                "list the players clockwise, e.g. 'players: Anna Boris Vera'",
            )
            ok = False
        seen: set[str] = set()
        for name, loc in names:
            if name.casefold() in seen:
                p.add(loc, f"player {name!r} is listed twice")
                ok = False
            seen.add(name.casefold())
            if name[:1].isdigit() or not name:
                p.add(loc, f"a player's name cannot start with a digit: {name!r}")
                ok = False
        if not ok:
            return None
        dealer = None
        if "dealer" in values:
            node = values["dealer"][0]
            text = as_str(node, p, "dealer")
            if text is not None:
                dealer, hint = match_player(text, players)
                if dealer is None:
                    p.add(node.loc, f"the dealer {text!r} is not a player", hint)
        convention = "sochi"
        if "convention" in values:
            convention = as_str(values["convention"][0], p, "convention") or "sochi"
        pool = None
        if "pool" in values:
            pool = as_int(values["pool"][0], p, "pool (the target)", low=1, high=100_000)
        rounding = None
        if "rounding" in values:
            node = values["rounding"][0]
            text = node.text.strip() if node.kind == "scalar" else ""
            if text not in ROUNDINGS:
                p.add(node.loc, f"rounding: expected one of {', '.join(ROUNDINGS)}, got {node.describe()}")
            else:
                rounding = text
        known: list[tuple[str, Node]] = []
        for key, node in overrides:
            if key in SCHEMA or any(s.startswith(key + ".") for s in SCHEMA):
                known.append((key, node))
                continue
            where = (key_locs or {}).get(key, node.loc)
            if overrides_mapping:
                close = difflib.get_close_matches(key, list(SCHEMA), n=1, cutoff=0.6)
                p.add(
                    where,
                    f"unknown convention key {key!r} under overrides",
                    (f"did you mean {close[0]!r}? " if close else "")
                    + "convention keys are like 'whist.on_failure' (see conventions/sochi.yaml)",
                )
                continue
            close = difflib.get_close_matches(key, [*HEADER_KEYS, *SCHEMA], n=1, cutoff=0.6)
            p.add(
                where,
                f"unknown header key {key!r}",
                (f"did you mean {close[0]!r}? " if close else "")
                + f"header keys: {', '.join(HEADER_KEYS)}, or a convention key like "
                "'whist.on_failure'",
            )
        overrides = known
        return Header(players, dealer, convention, pool, rounding, tuple(overrides), locs, self.file)


def convention_for(header: Header, override: str | None = None) -> Convention:
    """The convention the log names (or ``override``), with the log's own overrides applied."""
    ref = override or header.convention
    node = None
    if header.overrides:
        pairs = []
        for key, value in header.overrides:
            pairs.append((Node("scalar", value.loc, text=key), value))
        node = Node("map", header.overrides[0][1].loc, pairs=tuple(pairs))
    relative = header.source if override is None else None
    return load(
        ref,
        relative_to=relative,
        ref_loc=header.locs.get("convention"),
        overrides=node,
        pool=header.pool,
        rounding=header.rounding,
    )


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
        from .yamlsource import MAX_YAML_BYTES

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
        from . import log_yaml

        return log_yaml.parse(head + rest, name, problems, max_bytes=limit)
    from . import log_lines  # only the reader this log needs (start-up time)

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
    from . import log_lines, log_yaml

    problems = problems if problems is not None else Problems()
    fmt = input_format or detect_format(name, text[:4096])
    if fmt == "yaml":
        return log_yaml.parse(text, name, problems)
    return log_lines.parse_stream(iter(text.splitlines(keepends=True)), name, problems)
