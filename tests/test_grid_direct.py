"""The tables drawn without tabulate (render/table.draw) are tabulate's own bytes: any text
cells, headers or none, any left/right alignment, both formats it draws, cells and headers
wrapped to widths; a long table spooled is grid's table (render/table.LongTable)."""

from __future__ import annotations

from typing import Any

from helpers import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pulyacalc.render.table import PAD, LongTable, _tabulate, draw, grid

#: what cells hold: letters, digits, spaces (stripped at the ends), the report's symbols,
#: Cyrillic, the units-alignment pad, tabs, words tabulate might read as something else
CELLS = st.one_of(
    st.text(alphabet="ab Z09 -+.,/×·§⅔½−ёЖ\t" + PAD, max_size=12),
    st.sampled_from(["", " ", "True", "False", "1e5", "  x  ", "nan", "-0", "1,300,000"]),
)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[list[str]], list[str], list[str] | None, str]:
    ncols = draw(st.integers(1, 6))
    body = draw(st.lists(st.lists(CELLS, min_size=ncols, max_size=ncols), min_size=1, max_size=5))
    head = draw(st.one_of(st.just([]), st.lists(CELLS, min_size=ncols, max_size=ncols)))
    align = draw(
        st.one_of(st.none(), st.lists(st.sampled_from(["left", "right"]), min_size=0, max_size=ncols))
    )
    return body, head, align, draw(st.sampled_from(["plain", "simple"]))


@settings(max_examples=examples(400), deadline=None)
@given(tables())
def test_drawn_is_tabulate(table: tuple[list[list[str]], list[str], list[str] | None, str]) -> None:
    body, head, align, fmt = table
    assert draw(body, head, align, fmt) == _tabulate(body, head, align, fmt, None, None)


@settings(max_examples=examples(400), deadline=None)
@given(tables())
def test_a_table_drawn_from_remembered_rows_is_drawn(
    table: tuple[list[list[str]], list[str], list[str] | None, str],
) -> None:
    """grid's way for one-line cells (each row's facts remembered) draws what draw does."""
    from pulyacalc.render.table import _plain

    body, head, align, fmt = table
    text = _plain([tuple(row) for row in body], head, align, fmt)
    assert text is None or text == draw(body, head, align, fmt)
    # explain's paper is drawn so: plain cells, no units to line up
    paper = [("  Anna", "8", "·", "12"), ("  Boris", "0", "4", "·")]
    drawn = _plain(
        paper,
        ["  after deal 7", "pool", "whists on Anna", "whists on Boris"],
        ["left", *["right"] * 3],
        "simple",
    )
    assert (
        drawn is not None
        and drawn.splitlines()[2] == "Anna                   8                 ·                 12"
    )


def test_what_draw_leaves_to_tabulate() -> None:
    """Cells on many lines, escape sequences, ragged rows, other formats: tabulate's."""
    from pulyacalc.render.table import _exotic

    assert _exotic([["a\nb"]], [], None, "plain", False)
    assert _exotic([["\x1b[31mred\x1b[0m"]], [], None, "plain", False)
    assert _exotic([["a", "b"], ["c"]], [], None, "plain", False)
    assert _exotic([["a"]], ["x", "y"], None, "simple", False)
    assert _exotic([["a"]], [], ["center"], "simple", False)
    assert _exotic([["a"]], [], None, "grid", False)
    assert not _exotic([["a", "b"]], ["x", "y"], ["left", "right"], "simple", False)
    # and grid() draws them as before
    assert grid([["a\nb", "c"]], ["h", "i"]) == _tabulate(
        [["a\nb", "c"]], ["h", "i"], None, "simple", None, None
    )


def test_units_still_line_up() -> None:
    """A right-aligned column of mixed numbers still has its units under each other."""
    text = grid([["A", "46⅔"], ["B", "12"]], colalign=("left", "right"), tablefmt="plain")
    assert text.splitlines() == ["A  46⅔", "B  12 "]  # the pad under ⅔ stays


NUMBERS = st.one_of(
    st.from_regex(r"[+\-−]?[0-9]{1,7}", fullmatch=True),
    st.sampled_from(["·", "", "46⅔", "-46 2/3", "130.00", "1.3e+06", "x", " 5 ", "2/7", "5 2/7", "-", "½"]),
)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(1, 5), st.data(), st.sampled_from(["plain", "simple"]), st.sampled_from([None, 30, 60]))
def test_numbers_line_up_as_tabulate_draws_them(
    ncols: int, data: st.DataObject, fmt: str, width: int | None
) -> None:
    """grid's table of numbers (their units lined up by table.Column) is tabulate's table
    of the same cells lined up by hand (``_units``), fitted to a width or not; and a long
    table spooled (``LongTable``) is grid's."""
    from pulyacalc.render.view import WIDTH, use_width

    rows = data.draw(st.lists(st.lists(NUMBERS, min_size=ncols, max_size=ncols), min_size=1, max_size=5))
    names = data.draw(st.lists(CELLS, min_size=len(rows), max_size=len(rows)))
    head = data.draw(st.lists(CELLS, min_size=ncols + 1, max_size=ncols + 1))
    body = [[name, *row] for name, row in zip(names, rows, strict=True)]
    align = ("left", *["right"] * ncols)
    before = WIDTH[0]
    use_width(width)
    try:
        try:
            text = grid(body, head, align, fmt)
        except (ValueError, AttributeError):  # tabulate cannot wrap: a header to 0, a boolean
            assume(False)
            return
        if width is None:
            columns = [_units(list(col)) if i else list(col) for i, col in enumerate(zip(*body, strict=True))]
            expected = _tabulate(
                [list(r) for r in zip(*columns, strict=True)], head, list(align), fmt, None, None
            )
            assert text == expected
        if fmt == "simple":
            with LongTable(head, align) as table:
                for row in body:
                    table.add(row)
                assert "".join(table.lines()) == text + "\n"
    finally:
        use_width(before)


def _units(cells: list[str]) -> list[str]:
    """A right-aligned column's numbers with what follows their units padded to one width
    (the rule, written plainly: render/table.Column is the one that draws)."""
    import re

    number = re.compile(r"([+\-−]?\d*)([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒]|(?<=\d) \d+/\d+|(?<!\d)\d+/\d+|\.\d+)?")
    split: list[tuple[str, str] | None] = []
    for c in cells:
        m = number.fullmatch(c)
        if m is None or not m.group(0) or m.group(0) in "+-−":
            split.append(None)
            continue
        tail = m.group(2) or ""
        split.append((m.group(1), " " + tail if tail[:1].isdigit() else tail))
    if not any(p is not None and p[1][:1] in " .½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒" for p in split):
        return cells
    width = max((len(p[1]) for p in split if p is not None), default=0)
    return [c if p is None else p[0] + p[1].ljust(width, PAD) for c, p in zip(cells, split, strict=True)]


def test_wide_characters_are_known_as_tabulate_knows_them() -> None:
    """_wcwidth asks for wcwidth itself (tabulate is not imported for a table drawn here), and
    only a wide or zero-width character is left to tabulate to measure."""
    import tabulate

    from pulyacalc.render.table import _measured_otherwise, _wcwidth

    assert _wcwidth() is bool(tabulate.WIDE_CHARS_MODE and tabulate.wcwidth is not None)
    assert not _measured_otherwise("Аня♠ ⅔ × ё")
    assert _measured_otherwise("李Аня") is _measured_otherwise("e\u0301") is _wcwidth()
    assert _measured_otherwise("0\t0") is _wcwidth()


#: what a plain table to wrap holds: words of any length (the explanation's reasons)
WORDS = st.one_of(
    CELLS,
    st.lists(st.text(alphabet="abcXYZ019×·§⅔−ё-/:;()=" + PAD, min_size=1, max_size=14), max_size=9).map(
        " ".join
    ),
)


@settings(max_examples=examples(400), deadline=None)
@given(st.data(), st.integers(1, 6), st.sampled_from(["plain", "simple"]))
def test_a_table_wrapped_is_tabulates(data: st.DataObject, ncols: int, fmt: str) -> None:
    """A table whose cells are wrapped to ``maxcolwidths`` and headers to
    ``maxheadercolwidths`` (as ``grid`` fits one to a width) is drawn without tabulate in
    tabulate's bytes (where tabulate can draw it at all)."""
    body = data.draw(st.lists(st.lists(WORDS, min_size=ncols, max_size=ncols), min_size=1, max_size=5))
    head = data.draw(st.one_of(st.just([]), st.lists(WORDS, min_size=ncols, max_size=ncols)))
    align = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(["left", "right"]), max_size=ncols)))
    widths = data.draw(
        st.one_of(st.none(), st.lists(st.one_of(st.none(), st.integers(1, 20)), max_size=ncols))
    )
    heads = data.draw(
        st.one_of(st.none(), st.lists(st.one_of(st.none(), st.integers(1, 20)), max_size=ncols))
    )
    heads = heads if head else None
    try:
        expected = _tabulate(body, head, align, fmt, widths, heads)
    except (TypeError, AttributeError):  # tabulate cannot wrap a cell it reads as a boolean
        return
    assert draw(body, head, align, fmt, widths, heads) == expected


@settings(max_examples=examples(1500), deadline=None)
@given(
    st.text(alphabet="ab Xё×-/\u00a0\u2003\t", max_size=60),
    st.integers(1, 30),
    st.sampled_from(["", " ", "  ", "    ", "\u00a0 "]),
)
def test_a_line_is_wrapped_as_textwrap_wraps_it(line: str, width: int, indent: str) -> None:
    """``fit_lines``'s wrapping (formats.wrap_line) is textwrap's, line for line."""
    import textwrap

    from pulyacalc.render.formats import wrap_line

    expected = textwrap.wrap(
        line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )
    assert wrap_line(line, width, indent) == expected


@given(st.text(alphabet="ab c  -19\n\r\x0b\x1c\u2028·", max_size=120), st.integers(4, 30))
def test_fit_lines_wraps_each_long_line_as_textwrap_does(text: str, width: int) -> None:
    """``fit_lines``: a text no piece of which (``str.splitlines``) is wider than the width is
    left as it is; else each line (between line feeds) wider than it is wrapped as textwrap
    wraps it, the continuation indented two more, a line that cannot be wrapped kept; also
    right after a text of other digits in the same places (remembered by its shape)."""
    import textwrap

    from pulyacalc.render.formats import fit_lines
    from pulyacalc.render.view import WIDTH

    def wrapped(line: str) -> str:
        if len(line) <= width:
            return line
        indent = line[: len(line) - len(line.lstrip())] + "  "
        opts = dict(subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
        return "\n".join(textwrap.wrap(line, width, **opts) or [line])  # type: ignore[arg-type]

    def expected(text: str) -> str:
        if max(map(len, text.splitlines()), default=0) > width:
            return "\n".join(map(wrapped, text.split("\n")))
        return text

    other = text.translate(str.maketrans("19", "91"))
    was, WIDTH[0] = WIDTH[0], width
    try:
        assert fit_lines(other) == expected(other)
        assert fit_lines(text) == expected(text)
    finally:
        WIDTH[0] = was


#: texts a cell is wrapped from: words with digits (wrapped alike whatever the digits), mixed
#: numbers (46 2/3, never broken inside), hyphens, and what the wrapper rewrites (a tab, colour)
WRAPPED_TEXTS = st.lists(
    st.one_of(
        st.text(alphabet="ab09-×ё", min_size=1, max_size=9),
        st.sampled_from(["46 2/3", "12", "deal 7", "a\tb", "\x1b[31mred\x1b[0m", "\ue001", "1-2"]),
    ),
    max_size=8,
).map(" ".join)


@settings(max_examples=examples(600), deadline=None)
@given(WRAPPED_TEXTS, st.integers(1, 20), st.randoms(use_true_random=False))
def test_a_cell_is_wrapped_as_tabulate_wraps_it(text: str, width: int, rnd: Any) -> None:
    """``wrapped`` (remembered by where the digits are) is tabulate's wrapping of the very text,
    also right after a text of other digits in the same places was wrapped."""
    import re

    import tabulate as tab

    from pulyacalc.render.table import wrapped

    def expected(cell: str) -> str:
        held = re.sub(r"(?<=\d) (?=\d+/\d+)", "\ue001", cell)  # a mixed number is not broken
        wrapper = tab._CustomTextWrap(width=width)  # type: ignore[attr-defined]
        return "\n".join(wrapper.wrap(held)).replace("\ue001", " ")

    other = "".join(rnd.choice("0123456789") if c.isdigit() and c.isascii() else c for c in text)
    assert wrapped(other, width) == expected(other)
    assert wrapped(text, width) == expected(text)


@settings(max_examples=examples(300), deadline=None)
@given(st.data(), st.integers(12, 40), st.sampled_from(["plain", "simple"]))
def test_a_table_fitted_as_one_of_its_shape_is_fitted_anew(data: st.DataObject, width: int, fmt: str) -> None:
    """A fit plan remembered for a table (its digits aside) fits another of the same shape
    as it would be fitted anew: explain's paper and entries after every deal."""
    from pulyacalc.render import table
    from pulyacalc.render.view import WIDTH

    ncols = data.draw(st.integers(3, 6))
    cells = st.text(alphabet="ab 19-×", max_size=14)
    body = data.draw(st.lists(st.lists(cells, min_size=ncols, max_size=ncols), min_size=1, max_size=4))
    head = data.draw(st.one_of(st.just([]), st.lists(cells, min_size=ncols, max_size=ncols)))
    align = data.draw(st.lists(st.sampled_from(["left", "right"]), min_size=ncols, max_size=ncols))
    swap = str.maketrans("19", "91")
    other = [[c.translate(swap) for c in row] for row in body]
    was, WIDTH[0] = WIDTH[0], width
    try:
        grid(body, head, align, fmt)  # (its plan remembered)
        remembered = grid(other, head, align, fmt)
        table._PLANS.clear()
        assert remembered == grid(other, head, align, fmt)
    finally:
        WIDTH[0] = was
