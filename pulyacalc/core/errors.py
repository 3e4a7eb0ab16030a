"""Located problems and the two error types: input that cannot be read, and input
that reads fine but breaks a rule of the game or the convention.

Every problem carries ``FILE:LINE[:COLUMN]`` so that a person (or an editor) can jump
to it.  Readers collect all problems of a file and raise once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pulyacalc.core.kinds import FindingCode, ProblemKind


@dataclass(frozen=True, slots=True)
class Loc:
    """A place in an input file; ``line`` and ``column`` count from 1 (0 = unknown)."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if not self.line:
            return self.file
        if not self.column:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.column}"

    def at_column(self, column: int) -> Loc:
        return Loc(self.file, self.line, column)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, located, with an optional suggestion."""

    loc: Loc
    message: str
    hint: str = ""
    #: the offending source line, echoed with a caret under ``loc.column``
    source: str = ""
    #: how many characters the caret underlines
    width: int = 1
    #: "read" (cannot read: syntax, spelling, types) or "rule" (not allowed)
    kind: ProblemKind = "read"
    #: what ``check`` calls it (docs/commands.md), set where the problem is found; left
    #: out, it is the kind ("read" or "rule")
    code: FindingCode = "read"

    def __post_init__(self) -> None:
        if self.code == "read" and self.kind != "read":
            object.__setattr__(self, "code", self.kind)

    def format(self) -> str:
        text = f"{self.loc}: {self.message}"
        if self.hint:
            text += f"; {self.hint}"
        if self.source and self.loc.column:
            line = self.source.rstrip("\r\n").replace("\t", " ")
            # control characters (escape sequences, vertical tabs, U+2028…) are shown as
            # '?', one for one, so the echo cannot break the terminal or the caret's column
            bad = ("\u2028", "\u2029")
            line = "".join("?" if c < " " or "\x7f" <= c <= "\x9f" or c in bad else c for c in line)
            caret = " " * (self.loc.column - 1) + "^" * max(1, self.width)
            text += f"\n    {line}\n    {caret}"
        return text


@dataclass
class PulyaError(Exception):
    """Base of the errors pulyacalc reports to a person: a list of located problems."""

    problems: list[Problem] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(p.format() for p in self.problems)


class ReadError(PulyaError):
    """The input cannot be read: bad syntax, unknown spelling, wrong type."""


class RuleError(PulyaError):
    """The input reads but is not allowed: tricks that do not add up, a bidding dealer…"""


class Problems:
    """A collector: readers add problems as they go and raise them all at the end."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(
        self,
        loc: Loc,
        message: str,
        hint: str = "",
        *,
        source: str = "",
        width: int = 1,
        kind: ProblemKind = "read",
        code: FindingCode | None = None,
    ) -> None:
        """``code``: what ``check`` calls the problem, if not its ``kind``."""
        self.items.append(Problem(loc, message, hint, source, width, kind, kind if code is None else code))

    def extend(self, problems: Iterable[Problem]) -> None:
        self.items.extend(problems)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def raise_if_any(self) -> None:
        if not self.items:
            return
        ordered = sorted(self.items, key=lambda p: (p.loc.file, p.loc.line, p.loc.column))
        if all(p.kind == "rule" for p in ordered):
            raise RuleError(ordered)
        raise ReadError(ordered)


def not_utf8(path: str, name: str, reason: str) -> Problem:
    """ "Not UTF-8", located at the first bad byte's line and column when ``path`` is a
    file that can be read again (standard input cannot: it is located at the stream)."""
    loc = Loc(name)
    if path != "-":
        try:
            with open(path, "rb") as f:
                for number, raw in enumerate(f, 1):
                    try:
                        raw.decode("utf-8")
                    except UnicodeDecodeError as e:
                        column = len(raw[: e.start].decode("utf-8", "replace")) + 1
                        loc = Loc(name, number, column)
                        break
        except OSError:
            pass
    return Problem(loc, f"not UTF-8 text ({reason})", "save the file as UTF-8")
