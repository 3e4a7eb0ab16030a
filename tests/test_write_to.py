"""`render.formats.write_to`: a streamed table is fitted to the width line by line, whatever
the pieces it comes in."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from pulyacalc.render.formats import fit_lines, write_to
from pulyacalc.render.view import WIDTH, use_width

TEXT = (
    "Deal 1 (evening.pulya:5:1), dealer Vera: Anna 6♠, Boris pass, Vera pass\n"
    "  Anna  pool  +2  6♠ not whisted: price 2  unplayed §2.1 K3.4, K4.2.3.2\n"
    "  moves the results: Anna +13⅓, Boris -6⅔, Vera -6⅔\n"
)


class Pieces:
    """A streamed view whose table comes cut at the given offsets (mid-line, mid-word)."""

    def __init__(self, text: str, cuts: list[int]) -> None:
        self.text, self.cuts = text, cuts

    def table_chunks(self) -> Iterator[str]:
        start = 0
        for cut in [*self.cuts, len(self.text)]:
            yield self.text[start:cut]
            start = cut


@pytest.fixture
def width_40() -> Iterator[None]:
    before = WIDTH[0]
    use_width(40)
    yield
    use_width(before)


@pytest.mark.parametrize("cuts", [[], [10], [30, 31, 100], list(range(1, len(TEXT), 7)), [len(TEXT) - 1]])
@pytest.mark.usefixtures("width_40")
def test_a_line_cut_between_pieces_is_fitted_whole(cuts: list[int]) -> None:
    out = io.StringIO()
    write_to(Pieces(TEXT, cuts), "table", out)  # type: ignore[arg-type]
    assert out.getvalue() == fit_lines(TEXT)
    assert all(len(line) <= 40 for line in out.getvalue().splitlines())


@pytest.mark.usefixtures("width_40")
def test_a_table_without_a_last_newline_keeps_its_last_line() -> None:
    out = io.StringIO()
    write_to(Pieces(TEXT.rstrip("\n"), [50]), "table", out)  # type: ignore[arg-type]
    assert out.getvalue() == fit_lines(TEXT.rstrip("\n"))


def test_without_a_width_the_pieces_are_written_as_they_are() -> None:
    out = io.StringIO()
    write_to(Pieces(TEXT, [3, 90]), "table", out)  # type: ignore[arg-type]
    assert out.getvalue() == TEXT
