"""The line reader reads the stream in pieces and splits each at once (logs/read._chain):
it gives exactly the lines a line-at-a-time reader gives, wherever the pieces end.

The reference below is the plain rule: the text split at '\n' (no empty line after a final
'\n'), each line cut to the line limit plus one character, and a line whose rest after the
cut is longer than MAX_SKIP_CHARS ends the reading, located.  Small limits and pieces put
every case (a line across two pieces, a long line across many, a line of exactly the limit,
no final newline) in reach of a short text.
"""

from __future__ import annotations

import io

import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pulyacalc import yamlsource
from pulyacalc.core.errors import ReadError
from pulyacalc.logs import read

LIMIT = 5  # MAX_LINE_CHARS in these tests: lines are cut at 6 characters
SKIP = 12  # MAX_SKIP_CHARS in these tests


def reference(text: str) -> list[str] | str:
    """The lines, or the message that ends the reading."""
    pieces = text.split("\n")
    if pieces[-1] == "":
        pieces.pop()
    out = []
    for number, line in enumerate(pieces, 1):
        if len(line) - (LIMIT + 1) > SKIP:
            return f"line {number} does not end within"
        out.append(line[: LIMIT + 1])
    return out


def chunked(text: str, head: int) -> list[str] | str:
    stream = io.StringIO(text)
    try:
        return list(read._chain(stream.read(head), stream, None, "t.pulya"))
    except ReadError as e:
        return e.problems[0].message.split(" characters")[0].rsplit(" ", 1)[0]


@settings(max_examples=examples(300), deadline=None)
@given(
    st.text(alphabet="ab\n", max_size=80),
    st.integers(0, 30),
    st.integers(1, 30),
)
def test_pieces_give_the_lines_a_line_at_a_time_reader_gives(text: str, head: int, chunk: int) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(yamlsource, "MAX_LINE_CHARS", LIMIT)
        mp.setattr(read, "MAX_SKIP_CHARS", SKIP)
        mp.setattr(read, "CHUNK_CHARS", chunk)
        assert chunked(text, head) == reference(text)


def test_a_long_line_is_refused_before_any_of_it_is_given() -> None:
    """A line that never ends is refused before its cut start reaches the reader."""
    stream = io.StringIO("x" * 3_000_000)
    lines = read._chain(stream.read(4096), stream, None, "t.pulya")
    with pytest.raises(ReadError) as e:
        next(lines)
    assert "line 1 does not end within 1,000,000 characters" in e.value.problems[0].message
