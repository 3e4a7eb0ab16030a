"""The tables drawn without tabulate (render/formats.direct) are tabulate's own bytes: any
text cells, headers or none, any left/right alignment, both formats it draws."""

from __future__ import annotations

from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pulyacalc.render.formats import PAD, _tabulate, direct, grid

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
def test_direct_is_tabulate(table: tuple[list[list[str]], list[str], list[str] | None, str]) -> None:
    body, head, align, fmt = table
    drawn = direct(body, head, align, fmt)
    assert drawn is not None  # every such table is drawn directly
    assert drawn == _tabulate(body, head, align, fmt, None, None)


def test_what_direct_leaves_to_tabulate() -> None:
    """Cells on many lines, escape sequences, ragged rows, other formats: tabulate's."""
    assert direct([["a\nb"]], [], None, "plain") is None
    assert direct([["\x1b[31mred\x1b[0m"]], [], None, "plain") is None
    assert direct([["a", "b"], ["c"]], [], None, "plain") is None
    assert direct([["a"]], ["x", "y"], None, "simple") is None
    assert direct([["a"]], [], ["center"], "simple") is None
    assert direct([["a"]], [], None, "grid") is None
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
    st.sampled_from(["·", "", "46⅔", "-46 2/3", "130.00", "1.3e+06", "x", " 5 "]),
)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.integers(1, 5),
    st.data(),
    st.sampled_from(["plain", "simple"]),
)
def test_a_repeated_table_is_grids(ncols: int, data: st.DataObject, fmt: str) -> None:
    """The paper's table drawn the repeated way is grid's, whatever its cells."""
    from pulyacalc.render.formats import Repeated

    rows = data.draw(st.lists(st.lists(NUMBERS, min_size=ncols, max_size=ncols), min_size=1, max_size=5))
    names = data.draw(st.lists(CELLS, min_size=len(rows), max_size=len(rows)))
    head = data.draw(st.lists(CELLS, min_size=ncols + 1, max_size=ncols + 1))
    body = [[name, *row] for name, row in zip(names, rows, strict=True)]
    align = ("left", *["right"] * ncols)
    assert Repeated(align, fmt, 2).draw(body, head) == grid(body, head, align, fmt, None, 2)


def test_wide_characters_are_known_as_tabulate_knows_them() -> None:
    """_wide_chars asks wcwidth itself (tabulate is not imported for a table drawn directly)."""
    import tabulate

    from pulyacalc.render.formats import _wide_chars

    assert _wide_chars() is bool(tabulate.WIDE_CHARS_MODE and tabulate.wcwidth is not None)


#: what a plain table to wrap holds: words of any length (the explanation's reasons)
WORDS = st.one_of(
    CELLS,
    st.lists(st.text(alphabet="abcXYZ019×·§⅔−ё-/:;()=" + PAD, min_size=1, max_size=14), max_size=9).map(
        " ".join
    ),
)


@settings(max_examples=examples(400), deadline=None)
@given(st.data(), st.integers(1, 6))
def test_a_plain_table_wrapped_is_tabulates(data: st.DataObject, ncols: int) -> None:
    """A ``plain`` table without a header, its cells wrapped to ``maxcolwidths`` (as
    ``grid`` fits one to a width), is drawn without tabulate in tabulate's bytes."""
    import tabulate as tab

    from pulyacalc.render.formats import _plain_wrapped

    body = data.draw(st.lists(st.lists(WORDS, min_size=ncols, max_size=ncols), min_size=1, max_size=5))
    align = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(["left", "right"]), max_size=ncols)))
    widths = data.draw(
        st.one_of(st.none(), st.lists(st.one_of(st.none(), st.integers(1, 20)), max_size=ncols))
    )
    try:
        expected = str(
            tab.tabulate(
                body,
                tablefmt="plain",
                disable_numparse=True,
                colalign=align,
                maxcolwidths=widths,  # type: ignore[arg-type]
            )
        ).replace(PAD, " ")
    except (TypeError, AttributeError):  # tabulate cannot wrap a cell it reads as a boolean
        expected = None
    drawn = _plain_wrapped(body, align, widths)
    if drawn is not None:
        assert drawn == expected
    else:
        assert expected is None or any(c in ("True", "False") for row in body for c in row)


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
