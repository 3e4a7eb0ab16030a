"""render/jsontext.py writes JSON indented by two in the very text json.dumps gives."""

from __future__ import annotations

import enum
import json
from collections import OrderedDict
from typing import Any

from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pulyacalc.render import jsontext
from pulyacalc.render.formats import dumps

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=st.characters(), max_size=12)
)
DOCS = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=30,
)


def want(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2)


@settings(max_examples=examples(600))
@given(DOCS)
def test_a_document_is_written_as_json_dumps_writes_it(doc: Any) -> None:
    assert jsontext.dumps(doc) == want(doc)
    assert dumps(doc) == want(doc)


class Seat(enum.IntEnum):
    FIRST = 1


class Word(str):
    pass


def test_what_it_does_not_read_plainly_is_left_to_json_dumps() -> None:
    """A subclass of int or str, a mapping not a dict, a key not a string: json.dumps's
    own text (an IntEnum is written as its number, a key 1 as "1")."""
    for doc in (
        {"seat": Seat.FIRST},
        [Word("a\u2028b")],
        OrderedDict(a=1),
        {1: "one", None: 2, 1.5: [3]},
        {"deep": {"deeper": [{"k": Seat.FIRST}]}},
    ):
        assert jsontext.dumps(doc) == want(doc)


def test_escapes_and_empty_containers() -> None:
    doc = {'quote"': "tab\t \\ \x00 \u2028 ♠ Ж", "": [], "e": {}, "n": [float("nan"), -0.0, 1e300]}
    assert jsontext.dumps(doc) == want(doc)
    assert "♠" in jsontext.dumps(doc)  # UTF-8 as it is
