"""`render.formats.write`: one writer per format reading a view's shapes as they stream — a
table fitted to the width line by line whatever the pieces it comes in; a document whose
arrays are iterators and whose counts come later is ``json.dumps``'s text; nothing is
written of a view that fails (a log with a problem prints its problems and nothing else)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest

from pulyacalc.render.formats import FORMATS, Later, Made, fit_lines, render, write
from pulyacalc.render.view import WIDTH, use_width

TEXT = (
    "Deal 1 (evening.pulya:5:1), dealer Vera: Anna 6♠, Boris pass, Vera pass\n"
    "  Anna  pool  +2  6♠ not whisted: price 2  unplayed §2.1 K3.4, K4.2.3.2\n"
    "  moves the results: Anna +13⅓, Boris -6⅔, Vera -6⅔\n"
)


class Pieces:
    """A view whose table comes cut at the given offsets (mid-line, mid-word)."""

    def __init__(self, text: str, cuts: list[int]) -> None:
        self.text, self.cuts = text, cuts

    def table(self) -> Iterator[str]:
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
    out = render(Pieces(TEXT, cuts), "table")  # type: ignore[arg-type]  # only table() is read
    assert out == fit_lines(TEXT)
    assert all(len(line) <= 40 for line in out.splitlines())


@pytest.mark.usefixtures("width_40")
def test_a_table_without_a_last_newline_keeps_its_last_line() -> None:
    assert render(Pieces(TEXT.rstrip("\n"), [50]), "table") == fit_lines(TEXT.rstrip("\n"))  # type: ignore[arg-type]


def test_without_a_width_the_pieces_are_written_as_they_are() -> None:
    assert render(Pieces(TEXT, [3, 90]), "table") == TEXT  # type: ignore[arg-type]


class Streamed:
    """A view whose items are counted as they stream (check's findings, the ledger's deals)."""

    def __init__(self, items: list[dict[str, Any]], fail: bool = False) -> None:
        self.items, self.fail, self.seen = items, fail, 0

    def _each(self) -> Iterator[dict[str, Any]]:
        for item in self.items:
            self.seen += 1
            yield item
        if self.fail:
            raise ValueError("the log ends badly")

    def table(self) -> Iterator[str]:
        for item in self._each():
            yield f"{item['n']}\n"
        yield f"{self.seen} items\n"

    def document(self) -> dict[str, Any]:
        return {
            "schema_version": 1,
            "count": Later(lambda: self.seen),
            "items": self._each(),
            "last": Later(lambda: self.items[-1] if self.items else None),
            "empty": [],
        }

    def records(self) -> Iterator[dict[str, Any]]:
        yield from self._each()
        yield {"count": self.seen}

    def rows(self) -> tuple[Any, Iterator[list[Any]]]:
        return Later(lambda: ["n", f"of {self.seen}"]), ([item["n"], "x,y"] for item in self._each())


@pytest.mark.parametrize("n", [0, 1, 3])
def test_a_streamed_document_is_json_dumps(n: int) -> None:
    items = [{"n": k, "name": "Вера", "nested": {"x": [k, "½"]}} for k in range(n)]
    expected = {
        "schema_version": 1,
        "count": n,
        "items": items,
        "last": items[-1] if items else None,
        "empty": [],
    }
    assert render(Streamed(items), "json") == json.dumps(expected, indent=2, ensure_ascii=False) + "\n"  # type: ignore[arg-type]


def test_records_and_rows_stream_and_a_later_head_comes_first() -> None:
    view = Streamed([{"n": 1}, {"n": 2}])
    assert render(view, "jsonl") == '{"n": 1}\n{"n": 2}\n{"count": 2}\n'  # type: ignore[arg-type]
    assert render(Streamed([{"n": 1}, {"n": 2}]), "csv") == 'n,of 2\n1,"x,y"\n2,"x,y"\n'  # type: ignore[arg-type]
    assert render(Streamed([{"n": 1}]), "tsv") == "n\tof 1\n1\tx,y\n"  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_nothing_is_written_of_a_view_that_fails(fmt: str) -> None:
    out = io.StringIO()
    with pytest.raises(ValueError, match="ends badly"):
        write(Streamed([{"n": k} for k in range(5000)], fail=True), fmt, out.write)  # type: ignore[arg-type]
    assert out.getvalue() == ""
    write(Streamed([{"n": 1}]), fmt, out.write)  # type: ignore[arg-type]
    assert out.getvalue() == render(Streamed([{"n": 1}]), fmt)  # type: ignore[arg-type]


class Written:
    """A view whose text is already made (``Made``): a document's array, the records and the
    rows, told the format's name."""

    def table(self) -> str:
        return ""

    def document(self) -> dict[str, Any]:
        return {"a": 1, "list": Made(lambda fmt: ["[\n    1", ",\n    2", "\n  ]"]), "b": {"c": 2}}

    def records(self) -> Made:
        return Made(lambda fmt: ['{"n": 1}\n', '{"n": 2}\n'])

    def rows(self) -> tuple[Any, Made]:
        cells: list[str] = []

        def body(fmt: str) -> list[str]:
            cells.append("x")
            return ["1" + ("," if fmt == "csv" else "\t") + "2\n"]

        return Later(lambda: ["n", *cells]), Made(body)


def test_made_text_is_written_as_it_is() -> None:
    view = Written()
    assert render(view, "json") == json.dumps({"a": 1, "list": [1, 2], "b": {"c": 2}}, indent=2) + "\n"
    assert render(view, "jsonl") == '{"n": 1}\n{"n": 2}\n'
    assert render(view, "csv") == "n,x\n1,2\n"
    assert render(view, "tsv") == "n\tx\n1\t2\n"
