"""The one table drawer: tabulate's ``simple`` and ``plain`` tables in its very bytes (test_grid_direct.py),
drawn without it but for escapes, line breaks, wide characters, ragged rows.  A right-aligned column lines up
its numbers' units (12 over the 46 of 46⅔); a long table is spooled, a wide one fitted (:func:`fit_plan`)."""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from itertools import chain
from typing import Any, NamedTuple

from pulyacalc.core.remembered import Remembered
from pulyacalc.render.formats import Spans, Spool, shape, spans_in
from pulyacalc.render.view import WIDTH

#: a space tabulate keeps (private use: not whitespace, one column wide): lines up a column's units
PAD = "\ue000"
#: a number as :func:`pulyacalc.render.view.show` writes it: its whole part, then a fraction or cents
_NUMBER = re.compile(r"([+\-−]?\d*)([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒]|(?<=\d) \d+/\d+|(?<!\d)\d+/\d+|\.\d+)?")
#: how the part after a mixed number's or cents' units begins: a column with one lines its units up
_MIXED = frozenset(" .½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒")
_SIGNS = ("+", "-", "−")
_TAIL = re.compile("[ ./½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒]")
#: what tabulate reads beyond a cell's characters; and what else ``str.splitlines`` breaks at
_SPECIAL = re.compile("[\r\n\x1b\x01]")
_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
#: a table's rows of text cells; its columns' sides; widths to wrap each column to (None: as it is)
Body = list[list[str]]
Align = Sequence[str] | None
Widths = Sequence[int | None] | None


def _read_number(cell: str) -> tuple[str, str] | None:
    """A number's whole part and what follows its units (`` 2/7``: under 5 2/7's); None: no number."""
    body = cell[1:] if cell[:1] in _SIGNS else cell
    m = None if body.isdigit() and body.isascii() else _NUMBER.fullmatch(cell)
    if m is None:
        return (cell, "") if body.isdigit() and body.isascii() else None
    if not m.group(0) or m.group(0) in _SIGNS:
        return None
    tail = m.group(2) or ""
    return m.group(1), " " + tail if tail[:1].isdigit() else tail


#: each cell read (a long log's running totals are many)
_number = Remembered(_read_number, size=50_000)


class Column:
    """A column measured as its cells come: its widest cell, and its numbers' widest whole part and tail."""

    __slots__ = ("right", "plain", "other", "whole", "tail", "bare", "mixed", "raw", "known", "seen")

    def __init__(self, right: bool) -> None:
        self.right = right
        self.plain = self.other = self.tail = self.raw = 0
        self.whole = -1  # (no number with a whole part yet)
        self.bare = self.mixed = False
        self.known = Remembered(self._aligned)
        self.seen: set[str] = set()  # (a cell added again changes nothing)

    def add(self, cell: str) -> None:
        seen = self.seen
        if cell in seen:
            return
        if len(seen) > 100_000:  # bounded: a long log's running totals
            seen.clear()
        seen.add(cell)
        size = len(cell.strip())
        if size > self.plain:
            self.plain = size
        if not self.right:
            return
        number = _number(cell)
        if number is None:
            self.other = max(self.other, size)
            return
        whole, tail = number
        if tail:
            self.mixed = self.mixed or tail[0] in _MIXED
            self.tail = max(self.tail, len(tail))
        if not whole and tail[:1] == " ":
            self.bare = True  # (drawn stripped: without the space before it)
        else:
            self.whole = max(self.whole, len(whole))

    @property
    def width(self) -> int:
        """The widest cell as drawn: stripped, the units lined up."""
        if not self.mixed:
            return self.plain
        numbers = max(self.whole + self.tail if self.whole >= 0 else 0, self.tail - 1 if self.bare else 0)
        return max(self.other, numbers)

    def aligned(self, cell: str) -> str:
        """The cell as the body holds it: a number's tail padded with :data:`PAD` (never stripped)."""
        return self.known(cell) if self.mixed else cell

    def _aligned(self, cell: str) -> str:
        number = _number(cell)
        return cell if number is None else number[0] + number[1].ljust(self.tail, PAD)


class Layout:
    """How a table's lines are drawn: each column's width, side and wrapping; whether a row takes lines."""

    def __init__(
        self, widths: list[int], lefts: Sequence[bool], wraps: Sequence[int | None], multiline: bool
    ):
        self.widths, self.lefts, self.wraps, self.multiline = widths, list(lefts), list(wraps), multiline
        self.format = "  ".join(f"%{'-' if left else ''}{w}s" for w, left in zip(widths, lefts, strict=True))
        self.plain = not multiline and not any(w is not None for w in wraps)
        self.dashes = "  ".join("-" * w for w in widths).rstrip()
        #: (column, cell) → the cell's lines padded
        self.cells = Remembered(self._cell, size=8192 * len(widths))
        #: a row's cells → its lines (a table drawn again and again: explain's paper after each deal)
        self.rows = Remembered(self.lines, size=2048)

    def rule(self) -> str:
        return self.dashes

    def head(self, head: list[str], heads: Widths, tablefmt: str) -> list[str]:
        """The header's lines (wrapped to ``heads``, padded) and ``simple``'s dashes under it."""
        if heads is None and head:  # (one line: most tables)
            line = (self.format % tuple(head)).rstrip().replace(PAD, " ")
            return [line, self.dashes] if tablefmt == "simple" else [line]
        split = _head_lines(head, _given(heads, head))
        lines = []
        for k in range(max(map(len, split), default=0)):
            parts = [p[k] if k < len(p) else "" for p in split]
            lines.append((self.format % tuple(parts)).rstrip().replace(PAD, " "))
        return [*lines, self.rule()] if tablefmt == "simple" else lines

    def lines(self, cells: Sequence[str]) -> list[str]:
        """A row's lines: each cell wrapped, stripped and padded, topped up with blanks, ends cut."""
        if self.plain:
            return [(self.format % tuple(c.strip() for c in cells)).rstrip().replace(PAD, " ")]
        columns = list(map(self.cells, enumerate(cells)))
        height = max(map(len, columns))
        blanks = [" " * w for w in self.widths]
        return [
            "  ".join(c[k] if k < len(c) else b for c, b in zip(columns, blanks, strict=True))
            .rstrip()
            .replace(PAD, " ")
            for k in range(height)
        ]

    def _cell(self, at: tuple[int, str]) -> list[str]:
        i, cell = at
        limit, width = self.wraps[i], self.widths[i]
        text = (cell if limit is None else wrapped(cell, limit)).strip()
        lines = text.splitlines() if self.multiline else [text]
        return [x.ljust(width) if self.lefts[i] else x.rjust(width) for x in lines]


def _head_lines(head: list[str], widths: list[int | None]) -> list[list[str]]:
    """Each header's lines, wrapped to its width (None: as it is)."""
    return [wrapped(h, w).split("\n") if w is not None else [h] for h, w in zip(head, widths, strict=False)]


def _given(xs: Widths, like: Sequence[Any]) -> list[int | None]:
    """``xs`` (widths, maybe short or None) for each of ``like``."""
    return (list(xs or ()) + [None] * len(like))[: len(like)]


def _wrapped_lines(text: str, width: int) -> list[str]:
    import tabulate as tab  # only for a table fitted to a width (start-up time)

    # a mixed number's space (46 2/3) is no place to break: held as one character meanwhile
    held = _IN_NUMBER.sub("\ue001", text)
    lines = tab._CustomTextWrap(width=width).wrap(held)  # type: ignore[attr-defined]
    return [line.replace("\ue001", " ") for line in lines]


def _wrap(shape_width: tuple[bytes, int]) -> Spans | None:
    """Where each line of the text of this :func:`shape` wrapped begins and ends in it (None: its lines
    are not pieces of it: a tab or a colour code, which the wrapper rewrites)."""
    text, width = shape_width[0].decode("utf-8", "surrogatepass"), shape_width[1]
    return spans_in(text, _wrapped_lines(text, width))


#: the space inside a mixed number written without glyphs (46 2/3)
_IN_NUMBER = re.compile(r"(?<=\d) (?=\d+/\d+)")
#: each text's wrapping to a width, as tabulate's ``maxcolwidths`` wraps it, by its digits' places
#: (every digit is one column and breaks alike: "after deal 12" wraps as "after deal 47" does)
_WRAPPED = Remembered(_wrap, size=8192)


def wrapped(cell: str, width: int) -> str:
    """``cell`` wrapped to ``width`` by tabulate's own wrapper (its lines joined)."""
    spans = _WRAPPED((shape(cell), width))
    if spans is None:  # (wrapped as it is, each time: rare)
        return "\n".join(_wrapped_lines(cell, width))
    return "\n".join([cell[a:b] for a, b in spans])


def _layout(body: Body, head: list[str], lefts: Sequence[bool], limits: Widths, heads: Widths) -> Layout:
    """The layout of a body (cells as it holds them) wrapped to ``limits``, headers to ``heads``."""
    ncols = len(lefts)
    wraps, hwraps = _given(limits, lefts), _given(heads, lefts)
    texts = [
        [(c if w is None else wrapped(c, w)).strip() for c in col]
        for col, w in zip(zip(*body, strict=False), wraps, strict=False)
    ]
    head_lines = _head_lines(head, hwraps)
    multiline = any("\n" in t for col in texts for t in col) or any(len(h) > 1 for h in head_lines)
    widths = [max((max(map(len, t.split("\n"))) for t in col), default=0) for col in texts]
    if head:
        widths = [max(w, max(map(len, h)) + 2) for w, h in zip(widths, head_lines, strict=True)]
    return Layout(widths[:ncols], lefts, wraps, multiline)


def _exotic(body: Body, head: list[str], align: Align, tablefmt: str, wrap: bool) -> bool:
    """Whether tabulate draws the table otherwise than :class:`Layout` (format, align, ragged, cells)."""
    if tablefmt not in ("plain", "simple") or not body:
        return True
    ncols = len(body[0])
    if any(len(row) != ncols for row in body) or (head and len(head) != ncols):
        return True
    if align and (len(align) > ncols or any(a not in ("left", "right") for a in align)):
        return True
    cells = [*head, *chain.from_iterable(body)]
    if _drawn_otherwise(cells):
        return True
    return wrap and bool(_OTHER_BREAKS.search("\t".join(cells)) or {"True", "False"} & set(cells))


def draw(
    body: Body,
    head: list[str],
    align: Align,
    tablefmt: str,
    limits: Widths = None,
    heads: Widths = None,
    layout: Layout | None = None,
) -> str:
    """tabulate's table (``limits``/``heads``: its ``maxcolwidths``/``maxheadercolwidths``) in its bytes."""
    wrap = any(w is not None for w in chain(limits or (), heads or ()))
    if not wrap:  # (most tables: one-line cells)
        text = _plain(body, head, align, tablefmt, units=True)
        if text is not None:
            return text
    if layout is None and _exotic(body, head, align, tablefmt, wrap):
        return _tabulate(body, head, align, tablefmt, limits, heads)
    lefts = [a == "left" for a in _given_align(align, len(body[0]))]
    layout = layout or _layout(body, head, lefts, limits, heads)
    lines = layout.head(head, heads, tablefmt)
    lines.extend(chain.from_iterable(map(layout.rows, map(tuple, body))))
    if tablefmt == "simple" and not head:
        lines.append(layout.rule())
    return "\n".join(lines).replace(PAD, " ")


#: the layout of one-line cells of these widths and sides
_LAYOUTS = Remembered(lambda wl: Layout(list(wl[0]), wl[1], [None] * len(wl[0]), False), size=1024)


def _tabulate(body: Body, head: list[str], align: Align, tablefmt: str, limits: Widths, heads: Widths) -> str:
    """tabulate's own table (what :func:`draw` leaves to it)."""
    import tabulate as tab  # only for such tables (start-up time)

    text = tab.tabulate(
        body,
        headers=head,
        tablefmt=tablefmt,
        disable_numparse=True,
        colalign=align,
        maxcolwidths=list(limits) if limits else None,
        maxheadercolwidths=list(heads) if heads else None,  # type: ignore[arg-type]  # None: as wide as it is
    )
    return str(text).replace(PAD, " ")


def _as_is(text: str) -> bool:
    """Printable ASCII, which tabulate draws as it is (most cells: told at once)."""
    return text.isascii() and text.isprintable()


def _drawn_otherwise(cells: Sequence[str]) -> bool:
    """Whether tabulate draws a cell otherwise: escape, line break, odd width (never :func:`_as_is`)."""
    text = "".join(cells)
    return not _as_is(text) and bool(_SPECIAL.search(text) or _measured_otherwise(text))


def _measured_otherwise(text: str) -> bool:
    """Whether tabulate measures a character of ``text`` otherwise than as one column: with wcwidth
    installed, a wide, zero-width or control one (Cyrillic names and suits stay with :class:`Layout`)."""
    if not _wcwidth():
        return False
    chars = set(text)
    if chars <= _ONE_COLUMN:
        return False
    if any(map(_not_one_column, chars)):
        return True
    if len(_ONE_COLUMN) > 10_000:  # (bounded: a hostile log's every character)
        _ONE_COLUMN.clear()
    _ONE_COLUMN.update(chars)
    return False


#: the characters found one column wide so far
_ONE_COLUMN: set[str] = set()


@cache
def _not_one_column(c: str) -> bool:
    if c.isascii():
        return not c.isprintable()
    wide = unicodedata.east_asian_width(c) in ("W", "F")
    return wide or unicodedata.category(c) in ("Mn", "Me", "Cf", "Cc")


@cache
def _wcwidth() -> bool:
    """Whether tabulate's optional dependency wcwidth is installed (prompt_toolkit brings it)."""
    return importlib.util.find_spec("wcwidth") is not None


def _widest(text: str) -> int:
    return max(map(len, text.splitlines()), default=0)


def _aligned(body: Body, align: Align, ncols: int) -> Body:
    """The body with its right-aligned columns' units lined up, remembered per column (explain's paper)."""
    rights = [i for i, a in enumerate(_given_align(align, ncols)) if a == "right"]
    done = {i: _ALIGNED(tuple(row[i] for row in body if i < len(row))) for i in rights}
    mixed = [(i, iter(texts)) for i, texts in done.items() if texts is not None]
    if not mixed:
        return body
    body = [list(row) for row in body]
    for i, texts in mixed:
        for row in body:
            if i < len(row):
                row[i] = next(texts)
    return body


def _aligned_column(cells: tuple[str, ...]) -> tuple[str, ...] | None:
    """A right-aligned column's cells, their texts lined up (None: nothing to line up)."""
    column = Column(True)
    for cell in cells:
        column.add(cell)
    return tuple(map(column.aligned, cells)) if column.mixed else None


#: each right-aligned column's cells (:func:`_aligned`): their texts lined up, or None
_ALIGNED = Remembered(_aligned_column, size=8192)


def _given_align(align: Align, ncols: int) -> list[str]:
    return (list(align or ()) + ["left"] * ncols)[:ncols]


def grid(
    rows: Iterable[Iterable[Any]],
    head: Iterable[str] = (),
    colalign: Iterable[str] | None = None,
    tablefmt: str = "simple",
    maxcolwidths: list[int | None] | None = None,
    margin: int = 0,
) -> str:
    """A table for people, as every report draws one; ``margin``: what the caller indents it by."""
    head, align = list(head), list(colalign) if colalign is not None else None
    width, text = WIDTH[0], None
    if not _MADE and maxcolwidths is None:
        texts = [row if isinstance(row, (list, tuple)) else tuple(row) for row in rows]
        rows, text = texts, _plain(texts, head, align, tablefmt)
        if text is not None and (width is None or _widest(text) <= width - margin):
            return text
    body = [list(map(str, row)) for row in rows]
    if _MADE:  # a page is being made: the table as HTML, a mark in the text where it goes
        _MADE[-1].append(_html(body, head, align))
        return f"\x02{len(_MADE[-1]) - 1}\x03"
    if text is None:  # (else drawn already, too wide: no units to line up)
        ncols = max([len(head), *map(len, body)], default=0)
        rights = [i for i, a in enumerate(align or ()) if a == "right"]
        # a number whose units need lining up has one of these after them (most tables have none)
        if rights and _TAIL.search("\t".join(row[i] for row in body for i in rights if i < len(row))):
            body = _aligned(body, align, ncols)
        text = draw(body, head, align, tablefmt, maxcolwidths)
        if width is None or _widest(text) <= width - margin:
            return text
    assert width is not None  # (a table too wide for no width is drawn whole above)
    fit = Fit(body, head, align, tablefmt, maxcolwidths, width - margin, text)
    plan, layouts = _fitted(fit)
    return "\n\n".join(_drawn_part(fit, plan, part, layouts) for part in plan.parts)


def _plain(
    rows: Sequence[Sequence[Any]], head: list[str], align: Align, tablefmt: str, units: bool = False
) -> str | None:
    """:func:`draw`'s table of one-line cells (``units``: already lined up, or none), from each cell's
    remembered facts (explain's paper: few cells new each deal); None: for tabulate, or units to line up."""
    ncols = len(head) or (len(rows[0]) if rows else 0)
    lefts = _SIDES((None if align is None else tuple(align), tablefmt, ncols))
    known = _CELLS.get
    # (a header in Russian: each cell's facts, the same cells each deal but the first)
    if not _as_is("".join(head)) and _OTHER in [(known(h) or _cell_facts(h))[2] for h in head]:
        return None
    if lefts is None or not rows:
        return None
    widths = [len(h) + 2 for h in head] if head else [0] * ncols
    body = []
    for row in rows:
        if len(row) != ncols:
            return None
        cells = []
        for i, cell in enumerate(row):
            # (a cell is any value, drawn as its ``str``)
            text, size, kind = (known(cell) if type(cell) is str else None) or _cell_facts(str(cell))
            if kind and (kind == _OTHER or not (units or lefts[i])):
                return None
            if size > widths[i]:
                widths[i] = size
            cells.append(text)
        body.append(tuple(cells))
    layout = _LAYOUTS((tuple(widths), lefts))
    lines = [*layout.head(head, None, tablefmt), *[(layout.format % cells).rstrip() for cells in body]]
    if tablefmt == "simple" and not head:
        lines.append(layout.rule())
    return "\n".join(lines).replace(PAD, " ")


def _sides(key: tuple[tuple[str, ...] | None, str, int]) -> tuple[bool, ...] | None:
    """Whether each column is left-aligned (None: a format or sides :func:`_plain` does not draw)."""
    align, tablefmt, ncols = key
    if not ncols or _exotic([[""] * ncols], [], align, tablefmt, False):
        return None
    return tuple(a == "left" for a in _given_align(align, ncols))


#: a cell to :func:`_plain`: plain, maybe a number's units (lined up if right), or tabulate's (``_exotic``)
_PLAIN, _UNITS, _OTHER = 0, 1, 2


def _cell_facts(cell: str) -> tuple[str, int, int]:
    """A cell stripped, its width and its kind, remembered."""
    if len(_CELLS) > 50_000:  # (bounded: a long log's running totals)
        _CELLS.clear()
    text = cell.strip()
    kind = _OTHER if _drawn_otherwise([cell]) else _UNITS if _TAIL.search(cell) else _PLAIN
    facts = _CELLS[cell] = (text, len(text), kind)
    return facts


_CELLS: dict[str, tuple[str, int, int]] = {}
_SIDES = Remembered(_sides, size=1024)


#: while a page is made (:func:`html_tables`): the tables grid has drawn as HTML
_MADE: list[list[str]] = []
#: where such a table goes in the text
MARK = re.compile("\x02(\\d+)\x03")


@contextmanager
def html_tables() -> Iterator[list[str]]:
    """Within: :func:`grid` draws each table as HTML into the list given, a :data:`MARK` in the text."""
    _MADE.append([])
    try:
        yield _MADE[-1]
    finally:
        _MADE.pop()


def _html(body: Body, head: list[str], align: Align) -> str:
    """A table as HTML: its header, its rows, the right-aligned columns' cells so."""
    from xml.sax.saxutils import escape

    rights = [a == "right" for a in _given_align(align, max([len(head), *map(len, body)], default=0))]

    def row(cells: Sequence[str], tag: str) -> str:
        opened = [f'<{tag} class="n">' if rights[i] else f"<{tag}>" for i in range(len(cells))]
        tds = "".join(f"{o}{escape(c.strip())}</{tag}>" for o, c in zip(opened, cells, strict=True))
        return f"<tr>{tds}</tr>"

    thead = f"<thead>{row(head, 'th')}</thead>" if head else ""
    return f"<table>{thead}<tbody>{''.join(row(r, 'td') for r in body)}</tbody></table>"


class Fit(NamedTuple):
    """A table to fit to ``width`` (``text``: as drawn, wider), as grid was given it."""

    body: Body
    head: list[str]
    align: Align
    tablefmt: str
    maxcolwidths: list[int | None] | None
    width: int
    text: str


#: each fit plan made, by what decides it, and the layouts of its wrapped parts
_PLANS: Remembered[tuple[FitPlan, dict[int, Layout] | None]] = Remembered(
    lambda _, fit: (fit_plan(fit), {}), size=1024
)


def _fitted(fit: Fit) -> tuple[FitPlan, dict[int, Layout] | None]:
    """:func:`fit_plan` remembered by what decides it (digits wrap alike), with its parts' layouts."""
    body, head, align = fit.body, fit.head, fit.align
    ncols = len(body[0]) if body else 0
    alike = not fit.maxcolwidths and len(head) in (0, ncols)
    if not alike or _exotic(body, head, align, fit.tablefmt, True):
        return fit_plan(fit), None
    key: list[Any] = [fit.width, tuple(align or ()), tuple(map(shape, head))]
    for i, a in enumerate(_given_align(align, ncols)):
        column = [row[i] for row in body]
        if a == "left":
            key.append(tuple(map(shape, column)))
        else:
            key.append((max(map(len, column)), max(len(c.strip()) for c in column)))
    return _PLANS.made(tuple(key), fit)


class FitPlan(NamedTuple):
    """How a table is fitted: the widths of its cells and headers, and the columns of each part."""

    limits: list[int | None] | None
    heads: list[int | None] | None
    parts: list[list[int]]


def _drawn_part(fit: Fit, plan: FitPlan, keep: list[int], layouts: dict[int, Layout] | None = None) -> str:
    """The columns ``keep`` drawn as ``plan`` says; ``layouts``: each wrapped part's, made once."""
    whole = plan.parts == [keep] and len(plan.parts) == 1
    part = fit.body if whole else [[row[i] for i in keep] for row in fit.body]
    part_head = fit.head if whole or not fit.head else [fit.head[i] for i in keep]

    def pick(xs: Sequence[Any] | None) -> Any:
        return xs if whole or xs is None else [xs[i] if i < len(xs) else None for i in keep]

    limits, heads, part_align = pick(plan.limits), pick(plan.heads), pick(fit.align)
    layout = None
    if layouts is not None and any(w is not None for w in chain(limits or (), heads or ())):
        layout = layouts.get(keep[-1])
        if layout is None:
            lefts = [a == "left" for a in _given_align(part_align, len(keep))]
            layout = layouts[keep[-1]] = _layout(part, part_head, lefts, limits, heads)
    return draw(part, part_head, part_align, fit.tablefmt, limits, heads, layout)


def fit_plan(fit: Fit) -> FitPlan:
    """How the table fits ``width``: headers broken, then the widest left columns wrapped, then parts."""
    body, head, align, tablefmt, maxcolwidths, width, text = fit
    ncols = max([len(head), *(len(row) for row in body)], default=0)
    every = [list(range(ncols))]
    cells = [max([0, *(len(row[i]) for row in body if i < len(row))]) for i in range(ncols)]
    heads: list[int | None] | None = None
    if head:
        heads = [
            max(1, cells[i], *(len(w) for w in head[i].split() or [""])) if i < len(head) else None
            for i in range(ncols)
        ]
        text = draw(body, head, align, tablefmt, maxcolwidths, heads)
        if _widest(text) <= width:
            return FitPlan(maxcolwidths, heads, every)
    left = [i for i in range(ncols) if _given_align(align, ncols)[i] == "left"]
    over = _widest(text) - width
    given: list[int | None] = list(maxcolwidths) if maxcolwidths else [None] * ncols
    limits = list(given)
    for i in sorted(left, key=lambda i: -cells[i]):
        if over <= 0 or cells[i] <= 16:
            break
        cut = min(over, cells[i] - 16)
        limits[i], over = cells[i] - cut, over - cut
    used = maxcolwidths
    if limits != given:
        used = limits
        text = draw(body, head, align, tablefmt, limits, heads)
        if _widest(text) <= width:
            return FitPlan(limits, heads, every)
    if ncols < 3:
        return FitPlan(used, heads, every)
    plan = FitPlan(limits, heads, [])
    for i in range(1, ncols):
        if plan.parts:
            trial = [0, *plan.parts[-1][1:], i]
            if _widest(_drawn_part(fit, plan, trial)) <= width:
                plan.parts[-1] = trial
                continue
        plan.parts.append([0, i])
    return plan if len(plan.parts) > 1 else FitPlan(used, heads, every)


#: between a spooled row's cells; a row holding this or a line break is JSON, marked ``_JSON``
SEP = "\x1f"
_JSON = "\x00"
_BATCH = 2048


class LongTable:
    """A ``simple`` table too long to hold (``ledger``): rows spooled and measured as they come."""

    def __init__(self, head: list[str], colalign: Sequence[str]) -> None:
        self.head, self.align = list(head), list(colalign)
        self.columns = [Column(a == "right") for a in self.align]
        self.spool = Spool(_BATCH)  # (closed by ``close``, or the ``with`` around the table)
        self.count = 0
        self.exotic = _exotic([self.head], [], None, "simple", False)  # (then grid draws it whole)
        self.unwrappable = "True" in head or "False" in head

    def __enter__(self) -> LongTable:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.spool.file.close()

    def add(self, cells: Sequence[str]) -> None:
        """A row (its cells' texts, as many as the headers), measured and spooled."""
        for column, cell in zip(self.columns, cells, strict=False):
            column.add(cell)
        line = SEP.join(cells)
        if len(cells) != len(self.head) or _drawn_otherwise(cells):
            self.exotic = True
        if _OTHER_BREAKS.search(line) or "True" in cells or "False" in cells:
            self.unwrappable = True
        if "\n" in line or "\r" in line or line.count(SEP) != len(cells) - 1:
            import json

            line = _JSON + json.dumps(list(cells))
        self.spool.write(line + "\n")
        self.count += 1

    def _rows(self) -> Iterator[list[str]]:
        self.spool.flush()
        self.spool.file.seek(0)
        for line in self.spool.file:
            if line[0] == _JSON:
                import json

                yield json.loads(line[1:])
            else:
                yield line[:-1].split(SEP)

    def _aligned(self) -> Iterator[list[str]]:
        """The rows as the table's body holds them (the units lined up)."""
        mixed = [(i, c.known) for i, c in enumerate(self.columns) if c.mixed]
        if not mixed:
            yield from self._rows()
            return
        for row in self._rows():
            for i, aligned in mixed:
                row[i] = aligned(row[i])
            yield row

    def lines(self) -> Iterator[str]:
        """The table's text, a piece at a time (each ending in a line break)."""
        if self.exotic or not self.count:
            yield grid(list(self._rows()), self.head, self.align) + "\n"
            return
        widths = [max(c.width, len(h) + 2) for c, h in zip(self.columns, self.head, strict=True)]
        lefts = [a != "right" for a in self.align]
        width = WIDTH[0]
        if width is None or sum(widths) + 2 * (len(widths) - 1) <= width:
            layout = Layout(widths, lefts, [None] * len(widths), False)
            yield from self._drawn(layout, layout.head(self.head, None, "simple"), None)
            return
        fitted = self._plan(width)
        if fitted is None:  # (cells tabulate reads otherwise once wrapped: grid's whole way)
            yield grid(list(self._rows()), self.head, self.align) + "\n"
            return
        few, plan = fitted
        for k, part in enumerate(plan.parts):
            head = [self.head[i] for i in part]
            limits = [(plan.limits or [None] * len(lefts))[i] for i in part]
            heads = None if plan.heads is None else [plan.heads[i] for i in part]
            cells = [[r[i] for i in part] for r in few]
            layout = _layout(cells, head, [lefts[i] for i in part], limits, heads)
            yield from self._drawn(layout, ["", *layout.head(head, heads, "simple")][0 if k else 1 :], part)

    def _drawn(self, layout: Layout, head: list[str], part: list[int] | None) -> Iterator[str]:
        """The headers' lines, then every row's (of the columns ``part``), a batch at a time."""
        out = head
        for row in self._aligned():
            out.extend(layout.lines(row if part is None else [row[i] for i in part]))
            if len(out) >= _BATCH:
                yield "\n".join(out) + "\n"
                out = []
        if out:
            yield "\n".join(out) + "\n"

    def _plan(self, width: int) -> tuple[Body, FitPlan] | None:
        """The rows holding each column's widest cells and how grid fits them (None: it cannot)."""
        n = len(self.head)
        sizes, holders = [-1] * (2 * n), [[""] * n] * (2 * n)
        for row in self._aligned():
            for i, cell in enumerate(row):
                if len(cell) > sizes[i]:
                    sizes[i], holders[i] = len(cell), row
                size = len(cell.strip())
                if size > sizes[n + i]:
                    sizes[n + i], holders[n + i] = size, row
        few = _unique(holders)
        plan = self._fit_plan(few, width)
        wraps = {i: w for i, w in enumerate(plan.limits or ()) if w is not None}
        if not wraps and not plan.heads:
            return few, plan
        if self.unwrappable:
            return None
        if wraps:
            few = _unique(few + self._wrapped(wraps))
            again = self._fit_plan(few, width)
            if (again.limits, again.heads) != (plan.limits, plan.heads):
                return None
            plan = again
        return few, plan

    def _fit_plan(self, few: Body, width: int) -> FitPlan:
        text = draw(few, self.head, self.align, "simple")
        return fit_plan(Fit(few, self.head, self.align, "simple", None, width, text))

    def _wrapped(self, wraps: dict[int, int]) -> Body:
        """Per column wrapped, the row with the widest line wrapped and one whose cell takes lines."""
        widest: dict[int, tuple[int, list[str]]] = {}
        many: dict[int, list[str]] = {}
        for row in self._aligned():
            for i, w in wraps.items():
                lines = wrapped(row[i], w).strip().split("\n")
                size = max(map(len, lines))
                if i not in widest or size > widest[i][0]:
                    widest[i] = (size, row)
                if len(lines) > 1 and i not in many:
                    many[i] = row
        return [r for _, r in widest.values()] + list(many.values())


def _unique(rows: Body) -> Body:
    return list({id(r): r for r in rows}.values())
