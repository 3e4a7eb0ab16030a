"""The closed sets of core/kinds.py are the one list of their values: the command line's
choices and the tables that name them agree with them."""

from __future__ import annotations

from typing import get_args

from pulyacalc.cli.options import Rounding as RoundingOption
from pulyacalc.convention.schema import SCHEMA
from pulyacalc.core.kinds import Rounding


def test_rounding_option_offers_exactly_the_roundings() -> None:
    assert [o.value for o in RoundingOption] == list(get_args(Rounding))


def test_the_convention_key_offers_exactly_the_roundings() -> None:
    assert tuple(SCHEMA["settlement.rounding"].parse.choices) == get_args(Rounding)
