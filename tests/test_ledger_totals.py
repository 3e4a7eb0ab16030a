"""ledger_totals.Totals.add_block: rows added a block at a time, column by column, give what
adding them one by one (``add``) gives after each row: the running totals, the cents and
their change (issue 11: a long log's ledger with running totals or money)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pulyacalc.core.amounts import Amount
from pulyacalc.ledger import Moved
from pulyacalc.ledger_totals import Totals

PLAYERS = ("Anna", "Boris", "Vera", "Gleb")
AMOUNT = st.fractions(min_value=-500, max_value=500, max_denominator=12)


def rows_of(draws: list[list[Fraction]], n: int) -> list[Moved]:
    out = []
    for amounts in draws:
        values = [*amounts[: n - 1], -sum(amounts[: n - 1])]  # a row sums to 0
        result: dict[str, Amount] = {
            p: (int(v) if v.denominator == 1 else v) for p, v in zip(PLAYERS, values, strict=False)
        }
        out.append(Moved("Anna", "text", result))
    return out


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from((3, 4)),
    st.sampled_from((None, "0.33", "0.5", "1", "7", "0.01", "0.07")),
    st.lists(st.lists(AMOUNT, min_size=3, max_size=3), min_size=1, max_size=40),
    st.lists(st.integers(1, 15), max_size=4),
)
def test_a_block_adds_up_as_row_by_row(
    n: int, price: str | None, draws: list[list[Fraction]], cuts: list[int]
) -> None:
    players = PLAYERS[:n]
    one, many = Totals(players, None if price is None else Decimal(price)), None
    many = Totals(players, None if price is None else Decimal(price))
    rows = rows_of(draws, n)
    want = []
    for m in rows:
        one.add(m)
        want.append((one.amounts(), list(one.cents) if price else None, list(one.moved) if price else None))
    got = []
    at = 0
    for size in [*cuts, len(rows)]:  # blocks of these sizes, the rest in the last
        block = rows[at : at + size]
        at += len(block)
        if not block:
            continue
        b = many.add_block(block)
        for i in range(len(block)):
            amounts = {p: Fraction(col[i], b.den) for p, col in zip(players, b.nums, strict=True)}
            got.append(
                (
                    {p: (int(v) if v.denominator == 1 else v) for p, v in amounts.items()},
                    [col[i] for col in b.cents] if price else None,
                    [col[i] for col in b.moved] if price else None,
                )
            )
    assert got == want
    assert many.amounts() == one.amounts() and many.paid() == one.paid()
