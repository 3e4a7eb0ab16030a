"""``looked_up``: a column's texts, each distinct new value made once (render/remembered.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pulyacalc.render.remembered import looked_up


@given(st.lists(st.lists(st.integers(-5, 5), max_size=30), max_size=8), st.integers(0, 12))
def test_each_value_is_its_text_and_each_new_one_made_once_a_column(
    columns: list[list[int]], bound: int
) -> None:
    known: dict[int, str | None] = {}
    widest = bound  # (a column's new values are all kept, whatever the bound)
    for column in columns:
        made: list[int] = []
        widest = max(widest, len(set(column)))

        def make(new: list[int], made: list[int] = made) -> list[str | None]:
            made.extend(new)
            return [None if n == 0 else f"<{n}>" for n in new]  # (0: kept as None, made again)

        before = {k: v for k, v in known.items() if v is not None}
        got = looked_up(known, column, make, bound)
        assert got == [None if n == 0 else f"<{n}>" for n in column]
        assert sorted(made) == sorted({n for n in column if n not in before})
        assert len(known) <= widest
        assert all(known[n] == got[i] for i, n in enumerate(column) if n in known)
