"""Located problems (``FILE:LINE[:COLUMN]``) and the two error types: input that cannot be read,
and input that breaks a rule.  Readers collect all problems of a file and raise once."""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import IO, Any, NamedTuple, TypeVar

from pulyacalc.core.i18n import M_, MN_, tr
from pulyacalc.core.kinds import FindingCode, ProblemKind

#: characters never echoed as they are: C0/C1 controls (terminal escapes), bidi, invisible format characters,
#: line separators, lone surrogates (ZWJ/ZWNJ stay for scripts and emoji); printable text skips the regex.
UNSAFE_CHARS = (
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028-\u202e"
    "\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]"
)
#: an echoed value longer than this is cut (so that a huge scalar cannot flood the terminal)
SHOWN_CHARS = 60
T = TypeVar("T", bound=IO[Any])


@cache
def unsafe() -> re.Pattern[str]:
    return re.compile(UNSAFE_CHARS)


def has_unsafe(text: str) -> bool:
    """Does ``text`` hold a character :func:`shown` would replace?"""
    return not text.isprintable() and unsafe().search(text) is not None


def shown(text: str, limit: int = SHOWN_CHARS, *, keep: str = "") -> str:
    """``text`` safe to echo in a message: every :data:`UNSAFE_CHARS` character (but ``keep``)
    shown as '?', cut with '…' past ``limit`` (0: never).  Every echo of input goes through it."""
    if limit and len(text) > limit:
        text = text[: limit - 1] + "…"
    if text.isprintable():
        return text
    if keep:
        return unsafe().sub(lambda m: m.group(0) if m.group(0) in keep else "?", text)
    return unsafe().sub("?", text)


def _cut_long_words(text: str) -> str:
    """A message's words of over 200 characters (a 5,000-digit number) cut to their first hundred."""
    return text if len(text) < 201 else re.sub(r"\S{201,}", lambda m: m.group(0)[:100] + "…", text)


def quoted(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` in quotes for a message, as :func:`shown` makes it safe."""
    return f"'{shown(text, limit)}'"


class Loc(NamedTuple):
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

    def place(self) -> str:
        """The place within its file, for a message that names the file: "line 3, column 5"."""
        if not self.line:
            return self.file
        return f"line {self.line}, column {self.column}" if self.column else f"line {self.line}"

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
    #: what ``check`` calls it (docs/commands.md); left out, it is the kind
    code: FindingCode = "read"

    def __post_init__(self) -> None:
        if self.code == "read" and self.kind != "read":
            object.__setattr__(self, "code", self.kind)

    def format(self) -> str:
        text = f"{shown(str(self.loc), 0)}: " + shown(_cut_long_words(tr(self.message)), 0, keep="\n")
        if self.hint:
            text += "; " + shown(_cut_long_words(tr(self.hint)), 0, keep="\n")
        if self.source and self.loc.column:
            # control characters shown as '?', one for one: the caret's column stays right
            line = shown(self.source.rstrip("\r\n").replace("\t", " "), 0)
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


#: at most this many problems of one file are reported; the rest are counted ("and N more")
MAX_SHOWN_PER_FILE = 100
#: at most this many problems are kept by a ``Problems``; the rest are counted (flat memory)
MAX_KEPT = 10_000


def too_many(file: str, more: int, n: int, shown: int, kind: ProblemKind) -> Problem:
    """The last problem told of a file with ``n``: ``more`` of them are not shown."""
    message = MN_(
        "and {more:,} more problem not shown ({n:,} in all; the first {limit} are shown)",
        "and {more:,} more problems not shown ({n:,} in all; the first {limit} are shown)",
        more,
        more=more,
        n=n,
        limit=shown,
    )
    return Problem(Loc(file), message, M_("fix these and run again"), kind=kind)


class Problems:
    """A collector: readers add problems as they go and raise them all at the end (``limit`` kept)."""

    def __init__(self, limit: int = MAX_KEPT) -> None:
        self.items: list[Problem] = []
        self.limit = limit
        #: problems counted but not kept (past ``limit``), in all and per file
        self.more = 0
        self.more_in: dict[str, int] = {}

    def add(
        self,
        loc: Loc,
        message: str,
        hint: str = "",
        *,
        source: str = "",
        width: int = 1,
        kind: ProblemKind = "read",
        code: FindingCode = "read",
    ) -> None:
        """``code``: what ``check`` calls the problem, if not its ``kind``."""
        if self.full:
            self.more += 1
            self.more_in[loc.file] = self.more_in.get(loc.file, 0) + 1
            return
        self.items.append(Problem(loc, message, hint, source, width, kind, code))

    @property
    def full(self) -> bool:
        """Is a problem added now only counted (its hint need not be worked out)?"""
        return len(self.items) >= self.limit

    def again(self, problems: list[Problem], line: int, shift: int = 0) -> None:
        """``problems`` (of one line) told again as at ``line``, their columns moved by ``shift``."""
        if problems and self.full:
            file = problems[0].loc.file
            self.more += len(problems)
            self.more_in[file] = self.more_in.get(file, 0) + len(problems)
            return
        for p in problems:
            loc = Loc(p.loc.file, line, p.loc.column + shift)
            self.add(loc, p.message, p.hint, source=p.source, width=p.width, kind=p.kind, code=p.code)

    def extend(self, problems: Iterable[Problem]) -> None:
        self.items.extend(problems)

    def __len__(self) -> int:
        return len(self.items) + self.more

    def raise_if_any(self) -> None:
        """Raise the problems in order (file, line, column): the first ``MAX_SHOWN_PER_FILE`` of
        each file, then one saying how many more (those counted but not kept included)."""
        if not self:
            return
        count: dict[str, int] = {}
        out: list[Problem] = []
        for p in sorted(self.items, key=lambda p: p.loc):
            n = count[p.loc.file] = count.get(p.loc.file, 0) + 1
            if n <= MAX_SHOWN_PER_FILE:
                out.append(p)
        for file in count | self.more_in:
            kept = count.get(file, 0)
            n, told = kept + self.more_in.get(file, 0), min(kept, MAX_SHOWN_PER_FILE)
            if n > told:
                read = any(p.kind == "read" for p in self.items if p.loc.file == file) or not kept
                out.append(too_many(file, n - told, n, told, "read" if read else "rule"))
        if all(p.kind == "rule" for p in out):
            raise RuleError(out)
        raise ReadError(out)


#: the files this run's ``-o`` and ``--plot`` replace, by (device, inode) → option: none is read
WRITTEN: dict[tuple[int, int], str] = {}


class ReadsOutput(Exception):
    """A file opened to be read is one an option replaces (args: the option, the file)."""


def opened(f: T) -> T:
    """``f``, a file just opened to be read, checked against :data:`WRITTEN`."""
    if WRITTEN:
        st = os.fstat(f.fileno())
        if (st.st_dev, st.st_ino) in WRITTEN:
            f.close()
            raise ReadsOutput(WRITTEN[st.st_dev, st.st_ino], f.name)
    return f


def os_reason(e: OSError) -> str:
    """Why a file could not be opened or read, in words ("permission denied"), not ``[Errno 13]``."""
    words = {
        errno.ENOENT: "no such file",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.EISDIR: "is a directory",
        errno.ENOTDIR: "a part of the path is not a directory",
        errno.ELOOP: "too many symbolic links",
        errno.ENAMETOOLONG: "the name is too long",
        errno.ENXIO: "no such device",
        errno.EIO: "input/output error",
    }
    return words[e.errno] if e.errno in words else (e.strerror or type(e).__name__).lower()


#: the bad byte of a file that is not UTF-8 is looked for in at most this many bytes
NOT_UTF8_SCAN_BYTES = 64 * 1024 * 1024


def not_utf8(path: str, name: str, reason: str) -> Problem:
    """ "Not UTF-8", at the first bad byte when ``path`` is a regular file (a FIFO's bytes are gone)."""
    loc, known = Loc(name), None
    # unreadable now (OSError; ValueError: a NUL in the name): located at the file
    with contextlib.suppress(OSError, ValueError):
        if path != "-" and stat.S_ISREG(os.stat(path).st_mode):
            with open(path, "rb") as f:
                known = encoding_of(f.read(65536))
            loc = _first_bad_byte(path, name) or loc
    if known is not None:
        encoding = M_("this file is in {encoding}, not UTF-8", encoding=known[0])
        return Problem(loc, encoding, M_("save it as UTF-8, or run with --encoding {codec}", codec=known[1]))
    return Problem(loc, M_("not UTF-8 text ({reason})", reason=reason), M_("save the file as UTF-8"))


def encoding_of(data: bytes) -> tuple[str, str] | None:
    """The encoding (name, codec) a Russian typist's editor may have saved ``data`` in: UTF-16
    (Notepad's «Юникод») or Windows-1251 (Cyrillic letters in bytes 0xC0–0xFF)."""
    halves = [sum(b in (0, 4) for b in data[k::2]) * 10 >= len(data[k::2]) * 9 for k in (0, 1)]
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(data) > 1 and halves[0] != halves[1]):
        return "UTF-16", "utf-16"  # one byte of every character NUL (Latin) or 0x04 (Cyrillic)
    high = [b for b in data if b >= 0x80]
    if high and sum(b >= 0xC0 or b in (0xA8, 0xB8) for b in high) * 10 >= len(high) * 9:
        return "Windows-1251", "cp1251"
    return None


def _first_bad_byte(path: str, name: str) -> Loc | None:
    # a character cut by a chunk waits in the decoder; one cut by the end of the file is bad
    decoder = codecs.getincrementaldecoder("utf-8")()
    line, column, read = 1, 1, 0
    with open(path, "rb") as f:
        while read < NOT_UTF8_SCAN_BYTES:
            chunk = f.read(65536)
            read += len(chunk)
            try:
                text, bad = decoder.decode(chunk, final=not chunk), False
            except UnicodeDecodeError as e:
                text, bad = e.object[: e.start].decode("utf-8"), True
            line += text.count("\n")
            column = len(text) - text.rfind("\n") if "\n" in text else column + len(text)
            if bad or not chunk:
                return Loc(name, line, column) if bad else None
    return None


def did_you_mean(close: str | None, quoted: bool = True) -> str:
    """``did you mean 'Boris'? `` (with its trailing space) before a hint, or nothing."""
    if not close:
        return ""
    return M_("did you mean {name!r}? ", name=close) if quoted else M_("did you mean {name}? ", name=close)
