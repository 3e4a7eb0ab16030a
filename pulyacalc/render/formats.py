"""The format table: every output format by name, with the one function that writes it
(sqlite-utils style: a report hands its shapes to one place that writes them).

A view (:class:`pulyacalc.render.view.View`) gives four shapes; each writer here turns one
of them into text.  ``render(view, fmt)`` looks the format up in :data:`FORMATS`.  A new
format is one module in ``render/`` with a ``write(view) -> str`` and one entry in
:data:`FORMATS` (the command line's ``--format`` choices are the table's names); json, csv
and tabulate are imported by the writer that needs them, never at start-up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO, cast

if TYPE_CHECKING:
    # for the type only: the command line reads this table at start-up, nothing more
    from collections.abc import Iterable

    from pulyacalc.render.view import StreamView, View

    Writer = Callable[[View], str]


def dumps(doc: Any) -> str:
    """The one JSON spelling of a document: UTF-8 as it is, indented by two (the text of
    ``json.dumps``, written faster: render/jsontext.py)."""
    from pulyacalc.render import jsontext  # only for this format (start-up time)

    return jsontext.dumps(doc)


def nested(value: Any, depth: int) -> str:
    """``dumps(value)`` as it reads ``depth`` levels deep in an indented document: a piece
    of :func:`dumps`'s text written on its own (a JSON text has no raw newline in a string,
    so each line break is a line of the layout)."""
    return dumps(value).replace("\n", "\n" + "  " * depth)


def write_table(view: View) -> str:
    return fit_lines(view.table())


def write_json(view: View) -> str:
    return dumps(view.document()) + "\n"


def write_jsonl(view: View) -> str:
    import json  # only for this format (start-up time)

    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in view.records())


def delimited(view: View, delimiter: str) -> str:
    """The header and the rows, one line each (through the package's only csv writer)."""
    import io

    head, rows = view.rows()
    buf = io.StringIO()
    write_delimited(head, rows, buf, delimiter)
    return buf.getvalue()


def write_delimited(head: list[str], rows: Iterable[list[Any]], out: TextIO, delimiter: str) -> None:
    """The header and the rows onto ``out``, row by row as they come."""
    import csv  # only for these formats (start-up time)

    w = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    w.writerow(head)
    w.writerows(rows)


def write_csv(view: View) -> str:
    return delimited(view, ",")


def write_tsv(view: View) -> str:
    return delimited(view, "\t")


#: a number as :func:`pulyacalc.render.view.show` writes it: its whole part (with a sign),
#: then what follows the units (a fraction, ``' 2/7'``, or cents); the fraction's own
#: characters are those of :data:`pulyacalc.core.amounts.VULGAR`
_NUMBER = re.compile(r"([+\-−]?\d*)([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒]|(?<=\d) \d+/\d+|(?<!\d)\d+/\d+|\.\d+)?")
#: the characters what follows the units in :data:`_NUMBER` begins with or holds: a cell
#: without any has nothing to line up
_TAIL = re.compile("[ ./½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒]")


#: how the part after the units of a mixed number or of cents begins
_MIXED = frozenset(" .½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒")

#: a stand-in for a space that tabulate keeps (a private-use character: not whitespace, one
#: column wide for wcwidth too)
PAD = "\ue000"


def _units_aligned(cells: list[str]) -> list[str]:
    """A right-aligned column's numbers with their units under each other: what follows the
    units (⅔, `` 2/7``, ``.50``) padded to one width, so 12 sits over the 46 of 46⅔."""
    split: list[tuple[str, str] | None] = []
    for c in cells:
        m = _NUMBER.fullmatch(c)
        if m is None or not m.group(0) or m.group(0) in "+-−":
            split.append(None)
            continue
        tail = m.group(2) or ""
        if tail[:1].isdigit():  # a fraction without a whole part: 2/7 under the 2/7 of 5 2/7
            tail = " " + tail
        split.append((m.group(1), tail))
    # only a column that shows a mixed number (46⅔, 5 2/7) or cents: made/declared (3/4) is not one
    if not any(p is not None and p[1][:1] in _MIXED for p in split):
        return cells
    width = max((len(t) for p in split if p is not None for t in p[1:]), default=0)
    # padded with PAD, which tabulate neither strips from a cell nor from the line's end
    # (the last column's padding is what lines its units up); grid() makes it a space
    return [c if p is None else p[0] + p[1].ljust(width, PAD) for c, p in zip(cells, split, strict=True)]


def grid(
    rows: Iterable[Iterable[Any]],
    head: Iterable[str] = (),
    colalign: Iterable[str] | None = None,
    tablefmt: str = "simple",
    maxcolwidths: list[int | None] | None = None,
    margin: int = 0,
) -> str:
    """A table for people, the one way every report draws one (with tabulate).  Cells are
    written as given, never read as numbers (tabulate would print 1300000.00 as 1.3e+06
    and 13349.33 as 13349.3); in a right-aligned column the units of the numbers line up.
    With a width set (:func:`pulyacalc.render.view.use_width`: ``COLUMNS``, or the
    terminal's; ``margin``: what the caller indents it by) a wider table is fitted to it:
    headers broken at their spaces, then long text wrapped, then the columns stacked in
    parts that repeat the first."""
    from pulyacalc.render.view import WIDTH

    body = [list(map(str, row)) for row in rows]
    head = list(head)
    align = list(colalign) if colalign is not None else None
    rights = [i for i, a in enumerate(align or ()) if a == "right"]
    # what follows the units (⅔, `` 2/7``, ``.50``) has one of these characters: a table
    # whose right-aligned cells have none has nothing to line up (most, every drawn paper)
    if rights and body and _TAIL.search("\t".join(_cells(body, rights))):
        columns = [list(col) for col in zip(*body, strict=True)]
        for i in rights:
            if i < len(columns):
                columns[i] = _units_aligned(columns[i])
        body = [list(row) for row in zip(*columns, strict=True)]
    text = None if maxcolwidths else direct(body, head, align, tablefmt)
    if text is None:
        text = _tabulate(body, head, align, tablefmt, maxcolwidths, None)
    width = WIDTH[0]
    if width is None or _widest(text) <= width - margin:
        return text
    width -= margin  # the caller indents the table by ``margin``
    return _fitted(body, head, align, tablefmt, maxcolwidths, width, text)


def _tabulate(
    body: list[list[str]],
    head: list[str],
    align: list[str] | None,
    tablefmt: str,
    maxcolwidths: list[int | None] | None,
    maxheadercolwidths: list[int | None] | None,
) -> str:
    if tablefmt == "plain" and not head:
        drawn = _plain_wrapped(body, align, maxcolwidths)
        if drawn is not None:
            return drawn
    import tabulate as tab  # only for tables (start-up time)

    text = tab.tabulate(
        body,
        headers=head,
        tablefmt=tablefmt,
        disable_numparse=True,
        colalign=align,
        maxcolwidths=maxcolwidths,
        maxheadercolwidths=maxheadercolwidths,  # type: ignore[arg-type]  # None: as wide as it is
    )
    return str(text).replace(PAD, " ")


def cell_wrapper(width: int) -> Callable[[str], list[str]]:
    """How tabulate wraps a cell to ``width`` (``maxcolwidths``): its lines."""
    import tabulate as tab

    return tab._CustomTextWrap(width=width).wrap  # type: ignore[attr-defined, no-any-return]  # its own


#: what ``str.splitlines`` breaks a line at beyond ``\r`` and ``\n`` (tabulate splits a cell
#: both ways), and the cells tabulate cannot wrap (it reads them as booleans)
_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_BOOLEANS = frozenset(("True", "False"))
#: each cell's text wrapped to a width (tabulate's wrapping), as drawn before
_WRAPPED: dict[tuple[str, int], str] = {}


def _plain_wrapped(
    body: list[list[str]], align: list[str] | None, widths: list[int | None] | None
) -> str | None:
    """tabulate's ``plain`` table without a header, in its very bytes, its cells wrapped to
    ``widths`` (``maxcolwidths``) by tabulate's own wrapper (each cell's wrapping kept), the
    table drawn without it: each cell stripped, its lines padded to the column's widest,
    a row as many lines as its tallest cell, columns two spaces apart, trailing spaces
    cut.  A table fitted to a narrow width is drawn many times so (``_fitted``: in parts,
    tried one after another), each time a few milliseconds of tabulate's.  None where
    tabulate does more (escape sequences, wide characters, other alignments, ragged rows);
    tests/test_grid_direct.py holds both to the same bytes."""
    import tabulate as tab  # only for tables (start-up time)

    wrapper = getattr(tab, "_CustomTextWrap", None)
    if not body or wrapper is None:
        return None
    ncols = len(body[0])
    lefts = [True] * ncols
    for i, a in enumerate(align or ()):
        if i >= ncols or a not in ("left", "right"):
            return None
        lefts[i] = a == "left"
    limits = list(widths or ())[:ncols]
    limits += [None] * (ncols - len(limits))
    if any(len(row) != ncols for row in body):
        return None
    columns = [
        _plain_column(tuple(row[i] for row in body), width, left, wrapper)
        for i, (width, left) in enumerate(zip(limits, lefts, strict=True))
    ]
    if any(col is None for col in columns):
        return None
    drawn = cast("list[tuple[list[list[str]], str, bool]]", columns)
    multiline = any(col[2] for col in drawn)
    out: list[str] = []
    for r in range(len(body)):
        cells = [(col[0][r], col[1]) for col in drawn]
        height = max(len(c) for c, _ in cells) if multiline else 1
        for k in range(height):
            out.append("  ".join([c[k] if k < len(c) else blank for c, blank in cells]).rstrip())
    return "\n".join(out).replace(PAD, " ")


def _plain_column(
    cells: tuple[str, ...], width: int | None, left: bool, wrapper: Any
) -> tuple[list[list[str]], str, bool] | None:
    """A column of :func:`_plain_wrapped`: each cell's lines padded, a blank as wide as
    the column, whether a cell has many lines; the same column is drawn again as
    ``_fitted`` tries parts (kept per cells, width and alignment); None: a cell tabulate
    reads otherwise (escape sequences, line breaks, wide characters, a boolean to wrap)."""
    key = (cells, width, left)
    known = _COLUMNS.get(key)
    if known is None:
        text = "\t".join(cells)
        if (
            _SPECIAL.search(text)
            or _OTHER_BREAKS.search(text)
            or (not text.isascii() and _wide_chars())
            or (width is not None and any(c in _BOOLEANS for c in cells))
        ):
            return None
        if width is not None:
            cells = tuple(_wrap(wrapper, c, width) for c in cells)
        lines = [c.strip().splitlines() for c in cells]
        w = max((len(x) for cell in lines for x in cell), default=0)
        padded = [[x.ljust(w) if left else x.rjust(w) for x in cell] for cell in lines]
        if len(_COLUMNS) >= 4096:  # bounded: ever new columns forget the old
            _COLUMNS.clear()
        known = _COLUMNS[key] = (padded, " " * w, any(len(cell) > 1 for cell in lines))
    return known


#: each column drawn by :func:`_plain_column`
_COLUMNS: dict[tuple[tuple[str, ...], int | None, bool], tuple[list[list[str]], str, bool]] = {}


def _wrap(wrapper: Any, cell: str, width: int) -> str:
    """The cell wrapped to ``width`` as tabulate's ``maxcolwidths`` wraps it."""
    key = (cell, width)
    known = _WRAPPED.get(key)
    if known is None:
        if len(_WRAPPED) >= 8192:  # bounded: ever new cells forget the old
            _WRAPPED.clear()
        known = _WRAPPED[key] = "\n".join(wrapper(width=width).wrap(cell))
    return known


#: what tabulate reads in a cell beyond its characters: line breaks (a cell of many lines),
#: escape sequences (colours, links), its separating-line mark; a table with none is drawn
#: by :func:`direct`
_SPECIAL = re.compile("[\r\n\x1b\x01]")
#: a row's format for given widths and alignments (``%-6s  %4s``), made once
_ROW_FORMATS: dict[tuple[tuple[int, ...], tuple[bool, ...]], tuple[str, str]] = {}


def direct(body: list[list[str]], head: list[str], align: list[str] | None, tablefmt: str) -> str | None:
    """tabulate's ``plain`` and ``simple`` tables of text cells (``disable_numparse``), in
    its very bytes, drawn without it: a column as wide as its widest cell (cells stripped
    of surrounding spaces, headers not) or its header and two, columns two spaces apart,
    each line's trailing spaces cut; ``simple`` puts dashes under the header, or above and
    below a table without one.  The explanation's paper after each of many deals is
    drawn this way (tabulate would take most of the time); tests/test_grid_direct.py
    holds both to the same bytes.  None where tabulate does more: cells on many lines,
    escape sequences, wide characters, rows of unequal length, other formats."""
    if tablefmt not in ("plain", "simple") or not body:
        return None
    ncols = len(body[0])
    if any(len(row) != ncols for row in body) or (head and len(head) != ncols):
        return None
    lefts = [True] * ncols
    if align:
        if len(align) > ncols or any(a not in ("left", "right") for a in align):
            return None
        for i, a in enumerate(align):
            lefts[i] = a == "left"
    plain = "\t".join(head) + "\t" + "\t".join(chain.from_iterable(body))
    if _SPECIAL.search(plain) or (not plain.isascii() and _wide_chars()):
        return None
    return _drawn([list(map(str.strip, row)) for row in body], head, tuple(lefts), tablefmt)


def _drawn(rows: list[list[str]], head: list[str], lefts: tuple[bool, ...], tablefmt: str) -> str:
    """:func:`direct`'s table of cells already stripped (and checked)."""
    widths = list(map(max, zip(*(map(len, row) for row in rows), strict=True)))
    if head:
        widths = [max(w, len(h) + 2) for w, h in zip(widths, head, strict=True)]
    key = (tuple(widths), lefts)
    known = _ROW_FORMATS.get(key)
    if known is None:
        if len(_ROW_FORMATS) > 1024:  # bounded: tables of ever new widths forget the old
            _ROW_FORMATS.clear()
        known = _ROW_FORMATS[key] = (
            "  ".join(f"%{'-' if left else ''}{w}s" for w, left in zip(widths, lefts, strict=True)),
            "  ".join("-" * w for w in widths).rstrip(),
        )
    fmt, rule = known
    lines = [(fmt % tuple(head)).rstrip()] if head else []
    if tablefmt == "simple":
        lines = [*lines, rule] if head else [rule]
    lines.extend((fmt % tuple(row)).rstrip() for row in rows)
    if tablefmt == "simple" and not head:
        lines.append(rule)
    return "\n".join(lines).replace(PAD, " ")


def plain_cells(texts: list[str]) -> bool:
    """Whether text cells like these are drawn by :func:`direct` (and ``Repeated``): no
    line break or escape sequence, and plain ASCII when wide characters count double."""
    text = "\t".join(texts)
    return not (_SPECIAL.search(text) or (not text.isascii() and _wide_chars()))


#: a right-aligned cell that needs nothing of grid's: digits, signs, the empty-cell dot
_PLAIN_NUMBERS = re.compile("[0-9+\\-−·]*")


class Repeated:
    """A table drawn many times with the same columns (the paper after each of many
    deals): :meth:`draw` gives :func:`grid`'s very bytes, checking in one step that the
    right-aligned cells are whole numbers (nothing to line up, nothing tabulate reads
    otherwise) and drawing it as :func:`direct` does; any other table goes :func:`grid`'s
    whole way.  tests/test_grid_direct.py holds both to the same bytes."""

    def __init__(self, colalign: Iterable[str], tablefmt: str = "simple", margin: int = 0) -> None:
        self.align = list(colalign)
        self.tablefmt, self.margin = tablefmt, margin
        self.lefts = tuple(a == "left" for a in self.align)
        from pulyacalc.render.view import WIDTH

        self.width = WIDTH  # set by use_width: a table to fit goes grid's way
        rights = [i for i, a in enumerate(self.align) if a == "right"]
        others = [i for i, a in enumerate(self.align) if a != "right"]
        self.ok = bool(rights) and all(a in ("left", "right") for a in self.align)
        self.rights, self.others = _picker(rights), _picker(others)

    def draw(self, rows: list[list[str]], head: list[str]) -> str:
        rights, others = self.rights, self.others
        if (
            not self.ok
            or self.width[0] is not None
            or not rows
            or set(map(len, rows)) != {len(self.align)}
            or len(head) != len(self.align)
            or not _PLAIN_NUMBERS.fullmatch("".join(chain.from_iterable(map(rights, rows))))
        ):
            return grid(rows, head, self.align, self.tablefmt, None, self.margin)
        text = "\t".join(head) + "\t" + "\t".join(chain.from_iterable(map(others, rows)))
        if _SPECIAL.search(text) or (not text.isascii() and _wide_chars()):
            return grid(rows, head, self.align, self.tablefmt, None, self.margin)
        return _drawn([list(map(str.strip, row)) for row in rows], head, self.lefts, self.tablefmt)


def _picker(columns: list[int]) -> Callable[[list[str]], tuple[str, ...]]:
    """A row's cells of ``columns`` (indices), as a tuple."""
    if len(columns) >= 2:
        return itemgetter(*columns)
    if columns:
        i = columns[0]
        return lambda row: (row[i],)
    return lambda row: ()


def _cells(body: list[list[str]], columns: list[int]) -> Iterator[str]:
    """The cells of ``columns`` (indices of some) in each row."""
    if len(columns) == 1:
        i = columns[0]
        return (row[i] for row in body if i < len(row))
    pick = itemgetter(*columns)
    return chain.from_iterable(pick(row) for row in body if columns[-1] < len(row))


def _wide_chars() -> bool:
    """Whether tabulate measures characters by their width on a terminal: wcwidth can be
    imported (tabulate's ``WIDE_CHARS_MODE``); then only plain ASCII is drawn by
    :func:`direct`.  Asked of wcwidth, not of tabulate: a table drawn directly does not
    need tabulate's import (some milliseconds of every ``score``)."""
    if not _WIDE:
        try:
            import wcwidth  # type: ignore[import-not-found]  # noqa: F401  # tabulate's optional dependency
        except ImportError:
            _WIDE.append(False)
        else:
            _WIDE.append(True)
    return _WIDE[0]


#: :func:`_wide_chars`, once known
_WIDE: list[bool] = []


def _widest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


def _fitted(
    body: list[list[str]],
    head: list[str],
    align: list[str] | None,
    tablefmt: str,
    maxcolwidths: list[int | None] | None,
    width: int,
    text: str,
) -> str:
    """The table no wider than ``width`` where it can be: each step only when the one
    before did not fit, so a table that fits is drawn as it always was."""
    return fit_plan(body, head, align, tablefmt, maxcolwidths, width, text).text


class FitPlan(NamedTuple):
    """How :func:`_fitted` drew a table: its text, the widths its cells were wrapped to
    (``limits``) and its headers (``heads``), and the columns of each part (``parts``,
    None: one table of them all)."""

    text: str
    limits: list[int | None] | None
    heads: list[int | None] | None
    parts: list[list[int]] | None


def fit_plan(
    body: list[list[str]],
    head: list[str],
    align: list[str] | None,
    tablefmt: str,
    maxcolwidths: list[int | None] | None,
    width: int,
    text: str,
) -> FitPlan:
    """:func:`_fitted`, with how it drew the table (render/longtable_fit.py draws a long
    table so, deciding on a few of its rows)."""
    ncols = max([len(head), *(len(row) for row in body)], default=0)
    cells = [max([0, *(len(row[i]) for row in body if i < len(row))]) for i in range(ncols)]
    # 1. headers broken at their spaces ("mountain eq." over two lines): a column as wide as its cells
    heads: list[int | None] | None = None
    if head:
        heads = [
            max(cells[i], *(len(w) for w in head[i].split() or [""])) if i < len(head) else None
            for i in range(ncols)
        ]
        text = _tabulate(body, head, align, tablefmt, maxcolwidths, heads)
        if _widest(text) <= width:
            return FitPlan(text, maxcolwidths, heads, None)
    # 2. long text wrapped: the widest left-aligned columns (notes, deals) given what is left
    left = [i for i in range(ncols) if (align[i] if align and i < len(align) else "left") == "left"]
    over = _widest(text) - width
    limits: list[int | None] = list(maxcolwidths) if maxcolwidths else [None] * ncols
    for i in sorted(left, key=lambda i: -cells[i]):
        if over <= 0 or cells[i] <= 16:
            break
        cut = min(over, cells[i] - 16)
        limits[i] = cells[i] - cut
        over -= cut
    used = maxcolwidths
    if limits != (list(maxcolwidths) if maxcolwidths else [None] * ncols):
        used = limits
        text = _tabulate(body, head, align, tablefmt, limits, heads)
        if _widest(text) <= width:
            return FitPlan(text, limits, heads, None)
    # 3. stacked: the first column, then as many of the others as fit, part after part
    if ncols < 3:
        return FitPlan(text, used, heads, None)
    parts: list[list[int]] = []
    drawn: list[str | None] = []  # each part as last tried (None: not yet drawn)
    for i in range(1, ncols):
        if parts:
            trial = [0, *parts[-1][1:], i]
            tried = _part(body, head, align, tablefmt, limits, heads, trial)
            if _widest(tried) <= width:
                parts[-1], drawn[-1] = trial, tried
                continue
        parts.append([0, i])
        drawn.append(None)
    if len(parts) < 2:
        return FitPlan(text, used, heads, None)
    text = "\n\n".join(
        t if t is not None else _part(body, head, align, tablefmt, limits, heads, part)
        for part, t in zip(parts, drawn, strict=True)
    )
    return FitPlan(text, limits, heads, parts)


def _part(
    body: list[list[str]],
    head: list[str],
    align: list[str] | None,
    tablefmt: str,
    limits: list[int | None],
    heads: list[int | None] | None,
    keep: list[int],
) -> str:
    """The table with only the columns ``keep``."""

    def pick(xs: list[Any] | None) -> Any:
        return None if xs is None else [xs[i] if i < len(xs) else None for i in keep]

    return _tabulate(
        [[row[i] for i in keep] for row in body],
        [head[i] for i in keep] if head else [],
        pick(align),
        tablefmt,
        pick(limits),
        pick(heads),
    )


def fit_lines(text: str) -> str:
    """The text's lines no wider than the width set (:func:`pulyacalc.render.view.use_width`),
    prose wrapped at its spaces with the continuation indented; nothing changes without a
    width set or in a line that fits."""
    from pulyacalc.render.view import WIDTH

    width = WIDTH[0]
    if width is None or max(map(len, text.splitlines()), default=0) <= width:
        return text
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out.extend(wrap_line(line, width, indent + "  ") or [line])
    return "\n".join(out)


#: the whitespace ``textwrap`` breaks at and turns into spaces, but the space itself
_OTHER_SPACES = re.compile("[\t\n\x0b\x0c\r]")
_SPACES = re.compile("( +)")


def wrap_line(line: str, width: int, indent: str) -> list[str]:
    """``textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
    break_on_hyphens=False)``, in its very lines, without building a wrapper each time:
    the lines :func:`fit_lines` wraps are many (every deal's first line in a narrow
    ``explain``).  A line with whitespace other than spaces goes to textwrap itself;
    tests/test_grid_direct.py holds both to the same lines."""
    if _OTHER_SPACES.search(line):
        import textwrap

        return textwrap.wrap(
            line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
        )
    # textwrap's _wrap_chunks (no first indent, whitespace dropped at the ends of lines,
    # a word longer than a line on a line of its own), walking the chunks by index
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
FORMATS: dict[str, Writer] = {
    "table": write_table,
    "json": write_json,
    "jsonl": write_jsonl,
    "csv": write_csv,
    "tsv": write_tsv,
}


def render(view: View, fmt: str) -> str:
    """The view written in the format named ``fmt`` (a name of :data:`FORMATS`)."""
    return FORMATS[fmt](view)


def write_to(view: StreamView, fmt: str, out: TextIO) -> None:
    """The streaming view written in ``fmt`` onto ``out`` piece by piece, in the same bytes
    as :func:`render`, in flat memory whatever the format."""
    if fmt == "table":
        # a chunk may end inside a line: that part waits for the rest of its line, so that
        # a line is fitted whole (wrapped once, not as two pieces)
        tail = ""
        for chunk in view.table_chunks():
            whole, cut, rest = (tail + chunk).rpartition("\n")
            if cut:
                out.write(fit_lines(whole + cut))
            tail = rest
        if tail:
            out.write(fit_lines(tail))
    elif fmt == "json":
        for chunk in view.json_chunks():
            out.write(chunk)
    elif fmt == "jsonl" and hasattr(view, "jsonl_chunks"):
        for chunk in view.jsonl_chunks():  # a view that writes its lines itself, faster
            out.write(chunk)
    elif fmt in ("csv", "tsv") and hasattr(view, "delimited_chunks"):
        for chunk in view.delimited_chunks("," if fmt == "csv" else "\t"):
            out.write(chunk)
    elif fmt == "jsonl":
        import json  # only for this format (start-up time)

        for record in view.records_iter():
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    elif fmt in ("csv", "tsv"):
        head, rows = view.rows_iter()
        write_delimited(head, rows, out, "," if fmt == "csv" else "\t")
    else:
        out.write(render(view, fmt))
