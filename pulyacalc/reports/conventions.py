"""`pulyacalc conventions`: the built-in conventions, one convention merged, two compared.

Everything here works from the schema rows: a key added there needs no edit here."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pulyacalc.convention.dump import dump, shown
from pulyacalc.convention.load import builtin_dir, load, ordered_names, read_nodes
from pulyacalc.convention.schema import SCHEMA, Convention, Key
from pulyacalc.core.errors import Problems, PulyaError


@dataclass(frozen=True)
class BuiltIn:
    name: str
    title: str
    #: the YAML file it is read from
    file: str
    #: the file's ``description:``, on one line ("" when it has none)
    description: str


def _description(path: Path) -> str:
    for k, v in read_nodes(str(path)).pairs:
        if k.text == "description" and v.kind == "scalar":
            return " ".join(v.text.split())
    return ""


def builtins() -> list[BuiltIn]:
    """Every built-in convention, in the order of RULES.md §4."""
    paths = {name: builtin_dir() / f"{name}.yaml" for name in ordered_names()}
    return [BuiltIn(name, load(name).title, str(path), _description(path)) for name, path in paths.items()]


@dataclass(frozen=True)
class Shown:
    """One convention, every key merged: what ``conventions show`` prints."""

    #: how it was asked for: a built-in name or a path
    ref: str
    convention: Convention

    @property
    def yaml(self) -> str:
        """The convention as a YAML file that loads back to the same convention."""
        return dump(self.convention, self.ref)


def show(ref: str) -> Shown:
    """The convention ``ref`` names (a built-in name or a file); raises ReadError."""
    return Shown(ref, load(ref))


@dataclass(frozen=True)
class Difference:
    row: Key
    #: each convention's value as plain data (``Key.show``)
    a: Any
    b: Any


@dataclass(frozen=True)
class Diff:
    ref_a: str
    a: Convention
    ref_b: str
    b: Convention
    #: the keys whose values differ, in the schema's order
    differences: tuple[Difference, ...]


def diff(ref_a: str, ref_b: str) -> Diff:
    """The keys where the conventions ``ref_a`` and ``ref_b`` differ."""
    problems = Problems()
    convs = []
    for ref in (ref_a, ref_b):
        try:
            convs.append(load(ref))
        except PulyaError as e:  # both conventions' problems are reported together
            problems.extend(e.problems)
    problems.raise_if_any()
    a, b = convs
    rows = tuple(
        Difference(row, shown(a, row), shown(b, row))
        for row in SCHEMA.values()
        if getattr(a, row.field) != getattr(b, row.field)
    )
    return Diff(ref_a, a, ref_b, b, rows)
