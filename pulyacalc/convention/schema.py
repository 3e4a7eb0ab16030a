"""Conventions are data: every number and choice of RULES.md §4 under a named key.

A convention file is YAML.  It may ``extends:`` a built-in name (``sochi``) or another
file and override a few keys; a log may override keys too.  Unknown or mistyped keys and
values of the wrong type are refused with ``FILE:LINE:`` and the allowed keys.

The scoring code reads these fields and never asks which convention it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pulyacalc.core.amounts import Amount
from pulyacalc.core.errors import Problems
from pulyacalc.yamlsource import Node, as_bool, as_int, as_number

LEVELS = (6, 7, 8, 9, 10)
ROUNDINGS = ("exact", "kodeks", "nearest")


@dataclass(frozen=True)
class Convention:
    """A complete, checked convention.  Field names follow the YAML keys (see SCHEMA)."""

    name: str
    title: str
    source: str
    # pool («пуля»)
    pool_target: int
    pool_point_in_mountain: Amount
    help: bool
    help_whists_per_point: Amount
    # units
    mountain_point_in_whists: Amount
    # contracts 6..10
    price: Mapping[int, Amount]
    whist_per_trick: Mapping[int, Amount]
    remise_per_trick: Mapping[int, Amount]
    consolation_per_trick: Mapping[int, Amount]
    # misère
    misere_price: Amount
    misere_remise_per_trick: Amount
    # whist
    obligation: Mapping[int, int]
    shortfall_per_trick: Mapping[int, Amount]
    two_whisters_shortfall: Mapping[int, str]
    half_whist_levels: frozenset[int]
    shortfall_forbidden: frozenset[int]
    whist_on_failure: str
    consolation_by_passer: bool
    consolation_by_dealer: bool
    # raspasy
    raspasy_scoring: str
    raspasy_trick_value: Amount
    raspasy_progression: tuple[int, ...]
    raspasy_amnesty: bool
    raspasy_zero_trick_bonus: str | Amount
    raspasy_talon_to_dealer: bool
    raspasy_exit: tuple[int, ...]
    # settlement
    rounding: str

    def progression(self, run: int) -> int:
        """Multiplier of the ``run``-th raspasy in a row (1-based); the last one repeats."""
        seq = self.raspasy_progression
        return seq[min(run, len(seq)) - 1]

    def exit_level(self, run: int) -> int:
        """Lowest contract allowed after the ``run``-th raspasy in a row."""
        seq = self.raspasy_exit
        return seq[min(run, len(seq)) - 1]

    def values(self) -> dict[str, Any]:
        """The convention as a nested mapping of its YAML keys (for `prices`, docs, JSON)."""
        out: dict[str, Any] = {}
        for key in SCHEMA:
            spec = SCHEMA[key]
            value = getattr(self, spec.field)
            section, _, leaf = key.rpartition(".")
            target = out
            if section:
                for part in section.split("."):
                    target = target.setdefault(part, {})
            target[leaf] = spec.show(value)
        return out


# -- the schema ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Key:
    field: str
    kind: str  # see _PARSERS
    doc: str
    choices: tuple[str, ...] = ()

    def show(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: _plain(v) for k, v in value.items()}
        if isinstance(value, frozenset):
            return sorted(value)
        if isinstance(value, tuple):
            return list(value)
        return _plain(value)


def _plain(v: Any) -> Any:
    if isinstance(v, Fraction):
        return str(v)
    return v


SCHEMA: dict[str, Key] = {
    "pool.target": Key("pool_target", "posint", "default pool target per player"),
    "pool.point_in_mountain": Key(
        "pool_point_in_mountain", "number", "one pool point in mountain points (1; Leningrad 2)"
    ),
    "pool.help": Key("help", "bool", "points over a closed pool help an opponent (K4.2.3)"),
    "pool.help_whists_per_point": Key(
        "help_whists_per_point", "number", "whists the helper writes per point of help"
    ),
    "mountain.point_in_whists": Key(
        "mountain_point_in_whists", "number", "one mountain point in whists (10)"
    ),
    "contracts.price": Key("price", "levels", "pool points for a made contract, 6..10"),
    "contracts.whist_per_trick": Key("whist_per_trick", "levels", "whists per defender trick"),
    "contracts.remise_per_trick": Key(
        "remise_per_trick", "levels", "mountain per undertrick of the declarer"
    ),
    "contracts.consolation_per_trick": Key(
        "consolation_per_trick", "levels", "whists per undertrick, per writer («консоляция»)"
    ),
    "misere.price": Key("misere_price", "number", "pool points for a made misère"),
    "misere.remise_per_trick": Key(
        "misere_remise_per_trick", "number", "mountain per trick taken on a misère"
    ),
    "whist.obligation": Key("obligation", "levels_int", "tricks the defence must take, 6..10"),
    "whist.shortfall_per_trick": Key(
        "shortfall_per_trick", "levels", "mountain per trick a whister is short"
    ),
    "whist.two_whisters_shortfall": Key(
        "two_whisters_shortfall",
        "levels_choice",
        "with two whisters: 'split' (each answers for half the obligation) or "
        "'second' (the second defender answers) (K3.8.6)",
        ("split", "second"),
    ),
    "whist.half_whist_levels": Key(
        "half_whist_levels", "level_set", "contracts on which half-whist is allowed (K3.8.7)"
    ),
    "whist.shortfall_forbidden": Key(
        "shortfall_forbidden",
        "level_set",
        "contracts on which a whister may not end short (e.g. [10] where the ten is only "
        "«checked», K note 39); validation only: `check` reports such deals",
    ),
    "whist.on_failure": Key(
        "whist_on_failure",
        "choice",
        "one whister and a passer, contract failed: greedy (K3.8.13) or gentleman (K3.8.14)",
        ("greedy", "gentleman"),
    ),
    "whist.consolation_by_passer": Key(
        "consolation_by_passer", "bool", "the passer writes consolation on a failed contract"
    ),
    "whist.consolation_by_dealer": Key(
        "consolation_by_dealer", "bool", "the 4-player dealer writes consolation (K3.8.1.2)"
    ),
    "raspasy.scoring": Key(
        "raspasy_scoring",
        "choice",
        "raspasy written into the mountain (K3.7.2.1) or as whists (K3.7.2.2)",
        ("mountain", "whists"),
    ),
    "raspasy.trick_value": Key(
        "raspasy_trick_value",
        "number",
        "value of one raspasy trick: mountain points, or whists when scoring is whists",
    ),
    "raspasy.progression": Key(
        "raspasy_progression", "int_list", "multipliers of consecutive raspasy; the last repeats"
    ),
    "raspasy.amnesty": Key(
        "raspasy_amnesty", "bool", "subtract the fewest tricks taken from everyone (K3.7.3)"
    ),
    "raspasy.zero_trick_bonus": Key(
        "raspasy_zero_trick_bonus",
        "bonus",
        "pool points for taking no trick: 'trick' (one trick's value) or a number",
    ),
    "raspasy.talon_to_dealer": Key(
        "raspasy_talon_to_dealer",
        "bool",
        "with 4 players the dealer plays the talon and his tricks count (K3.7.6.1)",
    ),
    "raspasy.exit": Key(
        "raspasy_exit", "level_list", "lowest contract after the n-th raspasy in a row; last repeats"
    ),
    "settlement.rounding": Key("rounding", "choice", "exact | kodeks (K4.2.12) | nearest", ROUNDINGS),
}

TOP_KEYS = ("name", "title", "description", "references", "extends")
SECTIONS = sorted({k.split(".")[0] for k in SCHEMA})


def _parse_levels(node: Node, p: Problems, what: str, one: Callable[[Node, str], Any]) -> Any:
    if node.kind != "map":
        p.add(
            node.loc,
            f"{what}: expected a mapping of levels like {{6: 2, 7: 4, 8: 6, 9: 8, 10: 10}}, "
            f"got {node.describe()}",
        )
        return None
    out: dict[int, Any] = {}
    for k, v in node.pairs:
        level = as_int(k, p, f"{what}: level", low=6, high=10)
        value = one(v, f"{what} for {k.text}")
        if level is not None and value is not None:
            out[level] = value
    return out


def _parse(spec: Key, node: Node, p: Problems, what: str) -> Any:
    kind = spec.kind
    if kind == "posint":
        return as_int(node, p, what, low=1)
    if kind == "number":
        n = as_number(node, p, what)
        if n is not None and n < 0:
            p.add(node.loc, f"{what}: must not be negative")
            return None
        return n
    if kind == "bool":
        return as_bool(node, p, what)
    if kind == "choice":
        text = node.text.strip() if node.kind == "scalar" else ""
        if text not in spec.choices:
            p.add(node.loc, f"{what}: expected one of {', '.join(spec.choices)}, got {node.describe()}")
            return None
        return text
    if kind == "levels":

        def one(v: Node, w: str) -> Any:
            return as_number(v, p, w)

        return _parse_levels(node, p, what, one)
    if kind == "levels_int":
        return _parse_levels(node, p, what, lambda v, w: as_int(v, p, w, low=0, high=10))

    if kind == "levels_choice":

        def choice(v: Node, w: str) -> Any:
            t = v.text.strip() if v.kind == "scalar" else ""
            if t not in spec.choices:
                p.add(v.loc, f"{w}: expected one of {', '.join(spec.choices)}, got {v.describe()}")
                return None
            return t

        return _parse_levels(node, p, what, choice)
    if kind in ("level_set", "level_list", "int_list"):
        items = _list_items(node)
        if items is None:
            p.add(node.loc, f"{what}: expected a list like [1, 2, 3], got {node.describe()}")
            return None
        low, high = (6, 10) if kind != "int_list" else (0, 1000)
        values = [as_int(n, p, what, low=low, high=high) for n in items]
        if any(v is None for v in values):
            return None
        if kind == "level_set":
            return frozenset(v for v in values if v is not None)
        if not values:
            p.add(node.loc, f"{what}: the list must not be empty")
            return None
        return tuple(v for v in values if v is not None)
    if kind == "bonus":
        if node.kind == "scalar" and node.text.strip() == "trick":
            return "trick"
        n = as_number(node, p, what + " ('trick' or a number)")
        return n
    raise AssertionError(kind)


def _list_items(node: Node) -> tuple[Node, ...] | None:
    if node.kind == "seq":
        return node.items
    if node.kind == "scalar" and not node.null:
        # "1 2 3" or "1, 2, 3" as written in a line-log header
        parts = node.text.strip().removeprefix("[").removesuffix("]").replace(",", " ").split()
        col = node.loc.column
        return tuple(Node("scalar", node.loc.at_column(col), text=x) for x in parts)
    return None


# -- loading ---------------------------------------------------------------------------
