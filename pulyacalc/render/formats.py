"""The format table: every output format by name, with the one writer that writes it; :func:`write` lets
the text out once the view is spent (a log with a problem prints its problems alone)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from itertools import compress
from typing import TYPE_CHECKING, Any, Protocol

from pulyacalc.core.remembered import Remembered
from pulyacalc.render.view import WIDTH, Spent

if TYPE_CHECKING:
    from pulyacalc.render.view import View


class Out(Protocol):
    def write(self, text: str, /) -> object: ...


@dataclass(slots=True)
class Later:
    """A document's value known only once its arrays are spent: ``get`` is called then."""

    get: Callable[[], Any]


@dataclass(slots=True)
class Made:
    """Text already made in the format being written: ``text(fmt)`` gives its pieces as they come."""

    text: Callable[[str], Iterable[str]]


def dumps(doc: Any) -> str:
    """The one JSON spelling of a document: ``json.dumps``'s, written faster (render/jsontext.py)."""
    from pulyacalc.render import jsontext  # only for this format (start-up time)

    return jsontext.dumps(doc)


def nested(value: Any, depth: int) -> str:
    """``dumps(value)`` ``depth`` levels deep in an indented document (a line break is a layout's)."""
    return dumps(value).replace("\n", "\n" + "  " * depth)


def members(doc: dict[str, Any], depth: int) -> str:
    """The members of ``doc``'s JSON text ``depth`` levels deep, without the braces around them."""
    text = nested(doc, depth)
    return text[1 : text.rindex("\n")] if doc else ""


def _table(text: str | Iterable[str] | Spent, write: Callable[[str], object]) -> None:
    """The text for people, each line fitted whole to the width set (:func:`fit_lines`)."""
    tail = ""
    for piece in [text] if isinstance(text, str) else text.pieces if isinstance(text, Spent) else text:
        whole, cut, rest = (tail + piece).rpartition("\n")
        if cut:
            write(fit_lines(whole + cut))
        tail = rest
    if tail:
        write(fit_lines(tail))


def _document(doc: dict[str, Any], write: Callable[[str], object]) -> None:
    """The document as ``json.dumps`` writes it, its iterators spooled before the ``Later``s."""
    if not any(isinstance(v, (Iterator, Later, Made)) for v in doc.values()):
        write(dumps(doc) + "\n")
        return
    with ExitStack() as spools:
        arrays = {
            k: _array(spools.enter_context(spool()), v) for k, v in doc.items() if isinstance(v, Iterator)
        }
        for i, (key, value) in enumerate(doc.items()):
            if isinstance(value, Later):
                value = value.get()
            write((",\n  " if i else "{\n  ") + dumps(key) + ": ")
            if key in arrays:
                for chunk in spooled(arrays[key]):
                    write(chunk)
            elif isinstance(value, Made):
                _made(value, write, "json")
            else:
                write(nested(value, 1))
        write("\n}\n")


def _array(file: Any, items: Iterator[Any]) -> Any:
    """The items written as a JSON array one level deep into ``file``, a spool of its own."""
    n = 0
    for item in items:
        file.write(("," if n else "[") + "\n    " + nested(item, 2))
        n += 1
    file.write("\n  ]" if n else "[]")
    return file


def spool() -> Any:
    """Text kept in memory, then in a temporary file past a megabyte; the caller closes it."""
    import tempfile

    return tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8")


def spooled(file: Any) -> Iterator[str]:
    """A spool's text from its start, in pieces."""
    file.seek(0)
    while chunk := file.read(1 << 16):
        yield chunk


class Spool:
    """A :func:`spool` written ``batch`` texts at a time, given back once (:meth:`pieces`) and closed."""

    def __init__(self, batch: int = 64) -> None:
        self.file, self.batch = spool(), batch
        self.pending: list[str] = []

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *_: object) -> None:
        self.file.close()

    def write(self, text: str) -> None:
        self.pending.append(text)
        if len(self.pending) >= self.batch:
            self.flush()

    def flush(self) -> None:
        self.file.write("".join(self.pending))
        self.pending.clear()

    def pieces(self) -> Iterator[str]:
        self.flush()
        with self.file:
            yield from spooled(self.file)


def write_jsonl(view: View, out: Out) -> None:
    import json  # only for this format (start-up time)

    records = view.records()
    if isinstance(records, Made):
        _made(records, out.write, "jsonl")
        return
    for record in records:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")


def write_delimited(head: list[str] | None, rows: Iterable[list[Any]], out: Out, delimiter: str) -> None:
    """The header (None: none) and the rows, row by row as they come (the package's only csv writer)."""
    import csv  # only for these formats (start-up time)

    w = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    if head is not None:
        w.writerow(head)
    w.writerows(rows)


def delimited_line(cells: list[Any], delimiter: str) -> str:
    """A row as CSV (or TSV) text, through the one writer."""
    buf = io.StringIO()
    write_delimited(cells, [], buf, delimiter)
    return buf.getvalue()


def _delimited(view: View, out: Out, fmt: str, delimiter: str) -> None:
    """``rows()``: a :class:`Later` head asked once the rows are spooled, :class:`Made` rows as they are."""
    head, rows = view.rows()
    if not isinstance(head, Later):
        write_delimited(head, [] if isinstance(rows, Made) else rows, out, delimiter)
        _made(rows, out.write, fmt)
        return
    with spool() as body:
        write_delimited(None, [] if isinstance(rows, Made) else rows, body, delimiter)
        _made(rows, body.write, fmt)
        write_delimited(head.get(), [], out, delimiter)
        for chunk in spooled(body):
            out.write(chunk)


def _made(value: Any, write: Callable[[str], object], fmt: str) -> None:
    if isinstance(value, Made):
        for piece in value.text(fmt):
            write(piece)


def fit_lines(text: str) -> str:
    """The text's lines no wider than the width set, wrapped with the continuation indented."""
    width = WIDTH[0]
    if width is None:
        return text
    lines = text.split("\n")
    # (the lines to wrap found without a Python step per line: a long text has few)
    wide = list(compress(range(len(lines)), map(width.__lt__, map(len, lines))))
    # (the text is left as it is unless a piece of it, as ``str.splitlines`` cuts it, is too wide)
    if not any(max(map(len, lines[i].splitlines())) > width for i in wide):
        return text
    for i in wide:
        lines[i] = _wrapped_line(lines[i], width)
    return "\n".join(lines)


def _wrapped_line(line: str, width: int) -> str:
    """A line wrapped, its continuation indented two more than it is (:func:`wrap_line`)."""
    indent = line[: len(line) - len(line.lstrip())] + "  "
    spans = _LINE_SPANS((shape(line), width, indent))
    if spans is None:  # (a tab or the like: rewritten by textwrap)
        return "\n".join(wrap_line(line, width, indent) or [line])
    return ("\n" + indent).join([line[a:b] for a, b in spans]) if spans else line


def _line_spans(key: tuple[bytes, int, str]) -> Spans | None:
    """Where each wrapped line of a line of this :func:`shape` begins and ends in it (None: not pieces)."""
    line, width, indent = key[0].decode("utf-8", "surrogatepass"), key[1], key[2]
    if _OTHER_SPACES.search(line):
        return None
    return spans_in(
        line, [p[len(indent) :] if k else p for k, p in enumerate(wrap_line(line, width, indent))]
    )


#: where each line of a text wrapped begins and ends in it
Spans = tuple[tuple[int, int], ...]


def spans_in(text: str, pieces: Iterable[str]) -> Spans | None:
    """Where each of ``pieces`` begins and ends in ``text``, one after another (None: one is not in it)."""
    spans, at = [], 0
    for piece in pieces:
        at = text.find(piece, at)
        if at < 0:
            return None
        spans.append((at, at + len(piece)))
        at += len(piece)
    return tuple(spans)


#: each long line's wrapping, by its shape (the deal's first line, again and again with other numbers)
_LINE_SPANS = Remembered(_line_spans, size=8192)
#: a digit as :func:`shape` has it: every digit is one column wide and wraps alike
_DIGITS = bytes.maketrans(b"123456789", b"000000000")


def shape(text: str) -> bytes:
    """The text with its digits all 0 (as UTF-8: bytes translate many times faster than a str); a
    colour code's digits say what it does, so a text with one is its own shape."""
    raw = text.encode("utf-8", "surrogatepass")
    return raw if "\x1b" in text else raw.translate(_DIGITS)


#: the whitespace ``textwrap`` breaks at and turns into spaces, but the space itself
_OTHER_SPACES = re.compile("[\t\n\x0b\x0c\r]")
_SPACES = re.compile("( +)")


def wrap_line(line: str, width: int, indent: str) -> list[str]:
    """``textwrap.wrap(line, width, subsequent_indent=indent)``, no long words or hyphens broken, faster."""
    if _OTHER_SPACES.search(line):
        import textwrap

        return textwrap.wrap(
            line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
        )
    # textwrap's _wrap_chunks (no first indent, blanks dropped at the ends, a long word alone), by index
    chunks = [c for c in _SPACES.split(line) if c]
    sizes = [len(c) for c in chunks]
    n, k = len(chunks), 0
    lines: list[str] = []
    while k < n:
        lead = indent if lines else ""
        room = width - len(lead)
        if lines and chunks[k].strip() == "":
            k += 1
        start, used = k, 0
        while k < n and used + sizes[k] <= room:
            used += sizes[k]
            k += 1
        if k < n and k == start and sizes[k] > room:
            k += 1
        end = k - 1 if k > start and chunks[k - 1].strip() == "" else k
        if end > start:
            lines.append(lead + "".join(chunks[start:end]))
    return lines


#: every output format: its name (as given to ``-f``) and its writer; ``table`` is the default
FORMATS: dict[str, Callable[[View, Out], None]] = {
    "table": lambda view, out: _table(view.table(), out.write),
    "json": lambda view, out: _document(view.document(), out.write),
    "jsonl": write_jsonl,
    "csv": partial(_delimited, fmt="csv", delimiter=","),
    "tsv": partial(_delimited, fmt="tsv", delimiter="\t"),
}


def render(view: View, fmt: str) -> str:
    out = io.StringIO()
    FORMATS[fmt](view, out)
    return out.getvalue()


def write(view: View, fmt: str, emit: Callable[[str], object]) -> None:
    """The view in ``fmt`` to ``emit``, once spent (a failing log: nothing); a JSON document with nothing to
    read later (no iterator or ``Later``), or a :class:`Spent` table, goes out as written, not re-spooled."""
    doc = view.document() if fmt == "json" else None
    text = view.table() if fmt == "table" else None
    if isinstance(text, Spent):
        _table(text, emit)
        return
    if doc is not None and not any(isinstance(v, (Iterator, Later)) for v in doc.values()):
        _document(doc, emit)
        return
    with spool() as file:
        if text is not None:
            _table(text, file.write)
        elif doc is None:
            FORMATS[fmt](view, file)
        else:
            _document(doc, file.write)
        for chunk in spooled(file):
            emit(chunk)
