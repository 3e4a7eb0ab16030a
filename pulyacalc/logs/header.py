"""The header every input shares: players, dealer, convention, pool, rounding, overrides."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from pulyacalc.convention.load import load
from pulyacalc.convention.schema import ROUNDINGS, SCHEMA, Convention
from pulyacalc.core.errors import Loc, Problems
from pulyacalc.core.model import Header
from pulyacalc.yamlsource import Node, as_int, as_str, words

HEADER_KEYS = ("players", "dealer", "convention", "pool", "rounding")


def match_player(word: str, players: tuple[str, ...]) -> tuple[str | None, str]:
    """A written name → the player: exact, then ignoring case, then a unique prefix.

    Returns (player or None, hint for the message).
    """
    if word in players:
        return word, ""
    low = word.casefold()
    same = [p for p in players if p.casefold() == low]
    if len(same) == 1:
        return same[0], ""
    pre = [p for p in players if p.casefold().startswith(low)]
    if len(pre) == 1:
        return pre[0], ""
    if len(pre) > 1:
        return None, f"{word!r} could be {' or '.join(pre)}: write more letters"
    close = difflib.get_close_matches(word, list(players), n=1, cutoff=0.5)
    if close:
        return None, f"did you mean {close[0]}?"
    return None, f"players: {', '.join(players)}"


@dataclass
class HeaderBuilder:
    """Collects header keys from either format and checks them."""

    file: str
    problems: Problems

    def build(
        self,
        values: dict[str, tuple[Node, Loc]],
        overrides: list[tuple[str, Node]],
        first_loc: Loc,
        *,
        key_locs: dict[str, Loc] | None = None,
        overrides_mapping: bool = False,
    ) -> Header | None:
        """Check the header keys.  ``overrides`` are convention keys the log sets: header
        lines of a line log, or the ``overrides:`` mapping of a YAML log
        (``overrides_mapping``), located at ``key_locs``."""
        p = self.problems
        locs = {k: loc for k, (_, loc) in values.items()}
        if "players" not in values:
            p.add(
                first_loc,
                "the log does not say who plays",
                "start with 'players: Anna Boris Vera' (3 or 4 names, clockwise)",
            )
            return None
        pnode = values["players"][0]
        names = words(pnode)
        players = tuple(n for n, _ in names)
        ok = True
        if len(players) not in (3, 4):
            p.add(
                pnode.loc,
                f"Preferans is played by 3 or 4 players, the log names {len(players)}",
                "list the players clockwise, e.g. 'players: Anna Boris Vera'",
            )
            ok = False
        seen: set[str] = set()
        for name, loc in names:
            if name.casefold() in seen:
                p.add(loc, f"player {name!r} is listed twice")
                ok = False
            seen.add(name.casefold())
            if name[:1].isdigit() or not name:
                p.add(loc, f"a player's name cannot start with a digit: {name!r}")
                ok = False
        if not ok:
            return None
        dealer = None
        if "dealer" in values:
            node = values["dealer"][0]
            text = as_str(node, p, "dealer")
            if text is not None:
                dealer, hint = match_player(text, players)
                if dealer is None:
                    p.add(node.loc, f"the dealer {text!r} is not a player", hint)
        convention = "sochi"
        if "convention" in values:
            convention = as_str(values["convention"][0], p, "convention") or "sochi"
        pool = None
        if "pool" in values:
            pool = as_int(values["pool"][0], p, "pool (the target)", low=1, high=100_000)
        rounding = None
        if "rounding" in values:
            node = values["rounding"][0]
            text = node.text.strip() if node.kind == "scalar" else ""
            if text not in ROUNDINGS:
                p.add(node.loc, f"rounding: expected one of {', '.join(ROUNDINGS)}, got {node.describe()}")
            else:
                rounding = text
        known: list[tuple[str, Node]] = []
        for key, node in overrides:
            if key in SCHEMA or any(s.startswith(key + ".") for s in SCHEMA):
                known.append((key, node))
                continue
            where = (key_locs or {}).get(key, node.loc)
            if overrides_mapping:
                close = difflib.get_close_matches(key, list(SCHEMA), n=1, cutoff=0.6)
                p.add(
                    where,
                    f"unknown convention key {key!r} under overrides",
                    (f"did you mean {close[0]!r}? " if close else "")
                    + "convention keys are like 'whist.on_failure' (see conventions/sochi.yaml)",
                )
                continue
            close = difflib.get_close_matches(key, [*HEADER_KEYS, *SCHEMA], n=1, cutoff=0.6)
            p.add(
                where,
                f"unknown header key {key!r}",
                (f"did you mean {close[0]!r}? " if close else "")
                + f"header keys: {', '.join(HEADER_KEYS)}, or a convention key like "
                "'whist.on_failure'",
            )
        overrides = known
        return Header(players, dealer, convention, pool, rounding, tuple(overrides), locs, self.file)


def convention_for(header: Header, override: str | None = None) -> Convention:
    """The convention the log names (or ``override``), with the log's own overrides applied."""
    ref = override or header.convention
    node = None
    if header.overrides:
        pairs = []
        for key, value in header.overrides:
            pairs.append((Node("scalar", value.loc, text=key), value))
        node = Node("map", header.overrides[0][1].loc, pairs=tuple(pairs))
    relative = header.source if override is None else None
    return load(
        ref,
        relative_to=relative,
        ref_loc=header.locs.get("convention"),
        overrides=node,
        pool=header.pool,
        rounding=header.rounding,
    )
