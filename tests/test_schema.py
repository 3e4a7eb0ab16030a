"""The convention schema: one row per key with its parser, meaning, Russian name and source;
the choices come from Literal types; `check` judges an override by the key's parser; and
docs/conventions.md is generated from the rows, so it cannot go stale."""

from __future__ import annotations

import re
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, get_args

import pytest
import yaml
from helpers import reference_markdown

from pulyacalc.convention.load import builtin_names, load
from pulyacalc.convention.schema import (
    ROUNDINGS,
    SCHEMA,
    Choice,
    Convention,
    Levels,
    RaspasyScoring,
    TwoWhistersShortfall,
    WhistOnFailure,
)
from pulyacalc.core.errors import Problems
from pulyacalc.core.kinds import Rounding
from pulyacalc.reports.check import strange
from pulyacalc.yamlsource import parse_yaml

DOCS = Path(__file__).resolve().parent.parent / "docs" / "conventions.md"

#: a clause of the Code (K3.8.6), one of its notes, a RULES.md section, or the house's own rule
SOURCE = re.compile(r"K\d+(\.\d+)+|K note \d+|RULES\.md §\d|house agreement")


def test_docs_conventions_md_is_the_rows() -> None:
    assert DOCS.read_text(encoding="utf-8") == reference_markdown(), (
        "docs/conventions.md is stale: python tools/conventions_reference.py > docs/conventions.md"
    )


def test_every_row_has_its_name_russian_name_and_source() -> None:
    for key, row in SCHEMA.items():
        assert row.name == key
        assert row.doc.strip(), key
        assert re.search("[а-яё]", row.ru), f"{key}: the Russian name players use"
        assert SOURCE.search(row.source), f"{key}: a Code clause, RULES.md section or 'house agreement'"


def test_one_row_per_convention_field() -> None:
    own = [f.name for f in fields(Convention) if f.name not in ("name", "title", "source", "aliases")]
    rows = [row.field for row in SCHEMA.values()]
    assert len(rows) == len(set(rows))
    assert sorted(own) == sorted(rows)


def test_choices_are_written_once_as_literal_types() -> None:
    assert SCHEMA["whist.on_failure"].choices == get_args(WhistOnFailure) == ("greedy", "gentleman")
    assert SCHEMA["raspasy.scoring"].choices == get_args(RaspasyScoring)
    assert SCHEMA["whist.two_whisters_shortfall"].choices == get_args(TwoWhistersShortfall)
    assert SCHEMA["settlement.rounding"].choices == get_args(Rounding) == ROUNDINGS
    with_choices = {k for k, row in SCHEMA.items() if row.choices}
    chosen = {
        k
        for k, row in SCHEMA.items()
        if isinstance(row.parse, Choice)
        or (isinstance(row.parse, Levels) and isinstance(row.parse.item, Choice))
    }
    assert with_choices == chosen


def _builtins_and_a_house_file(tmp: Path) -> list[Convention]:
    house = tmp / "house.yaml"
    house.write_text(
        "extends: leningrad\nraspasy:\n  trick_value: 1/2\n  zero_trick_bonus: 3/4\n"
        "whist:\n  shortfall_forbidden: [10, 9]\n  two_whisters_shortfall: {7: second}\n",
        encoding="utf-8",
    )
    return [load(n) for n in builtin_names()] + [load(str(house))]


def test_every_parser_reads_back_what_show_writes(tmp_path: Path) -> None:
    for conv in _builtins_and_a_house_file(tmp_path):
        for key, row in SCHEMA.items():
            value = getattr(conv, row.field)
            node = parse_yaml(yaml.safe_dump({"v": row.show(value)}), "t.yaml").pairs[0][1]
            p = Problems()
            assert row.parse(node, p, key) == value, (conv.name, key)
            assert not p.items


SOCHI = load("sochi")
HALF_REMISE = replace(SOCHI, remise_per_trick={6: 1, 7: 2, 8: 3, 9: 4, 10: 5})


@pytest.mark.parametrize(
    ("key", "value", "conv", "why"),
    [
        ("raspasy.trick_value", 50, SOCHI, "50 is far from the built-in conventions' 1, 2, 5"),
        ("pool.target", 30, SOCHI, ""),
        (
            "contracts.price",
            {6: 2, 7: 4, 8: 6, 9: 8, 10: 100},
            SOCHI,
            "on 10 it is 100, far from the built-in conventions' 10",
        ),
        (
            "contracts.price",
            {6: 2, 7: 4, 8: 9, 9: 8, 10: 10},
            SOCHI,
            "a higher contract is worth less than a lower one",
        ),
        (
            "whist.obligation",
            {6: 4, 7: 4, 8: 1, 9: 1, 10: 1},
            SOCHI,
            "on 7 the defence can take at most 3 tricks when it is made, not 4",
        ),
        (
            "whist.shortfall_per_trick",
            {6: 2, 7: 4, 8: 6, 9: 8, 10: 10},
            HALF_REMISE,
            "on 6 a short whister would pay more than the declarer's remise",
        ),
        ("raspasy.progression", (3, 2, 1), SOCHI, "the multipliers go down"),
        ("raspasy.progression", (1, 2, 7), SOCHI, "a multiplier of 7, far above the built-in conventions' 3"),
        # words, flags, level lists and the bonus are never judged
        ("whist.on_failure", "gentleman", SOCHI, ""),
        ("pool.help", False, SOCHI, ""),
        ("raspasy.exit", (9, 10), SOCHI, ""),
        ("whist.half_whist_levels", frozenset({6}), SOCHI, ""),
        ("raspasy.zero_trick_bonus", 100, SOCHI, ""),
        ("whist.two_whisters_shortfall", dict.fromkeys((6, 7, 8, 9, 10), "second"), SOCHI, ""),
    ],
)
def test_strange_judges_by_the_keys_parser(key: str, value: Any, conv: Convention, why: str) -> None:
    assert strange(key, value, conv) == why
