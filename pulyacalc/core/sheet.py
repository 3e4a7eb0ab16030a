"""The paper: entries written on it and its running totals («нарастающим итогом»)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.kinds import Area, RuleId

POOL: Final = "pool"
MOUNTAIN: Final = "mountain"
WHISTS: Final = "whists"


class Write(NamedTuple):
    """An entry not yet dated to a deal (``Entry(n, *write)`` dates it), shared by the deals writing it."""

    rule: RuleId
    player: str
    area: Area
    amount: Amount
    on: str | None = None
    why: str = ""


class Entry(NamedTuple):
    """One thing written on the sheet (a NamedTuple: the quickest to make)."""

    deal: int
    rule: RuleId
    player: str
    area: Area
    amount: Amount
    on: str | None = None
    why: str = ""


@dataclass(frozen=True)
class SheetView:
    """The paper at a moment: pools, mountains, whists written by each on each."""

    players: tuple[str, ...]
    pool: dict[str, Amount]
    mountain: dict[str, Amount]
    whists: dict[str, dict[str, Amount]]


class Sheet:
    """The running totals the paper keeps («нарастающим итогом»)."""

    def __init__(self, players: tuple[str, ...], start: SheetView | None = None) -> None:
        """An empty sheet, or a copy of ``start`` (a pulya taken up where the paper is)."""
        self.players = players
        self.pool: dict[str, Amount] = dict.fromkeys(players, 0)
        self.mountain: dict[str, Amount] = dict.fromkeys(players, 0)
        self.whists: dict[str, dict[str, Amount]] = {p: {q: 0 for q in players if q != p} for p in players}
        if start is not None:
            self.pool.update(start.pool)
            self.mountain.update(start.mountain)
            for p, row in start.whists.items():
                self.whists[p].update(row)

    def add(self, player: str) -> None:
        """A player who joins (RULES.md 6.3): a new column, empty."""
        self.players = (*self.players, player)
        self.pool[player] = self.mountain[player] = 0
        for row in self.whists.values():
            row[player] = 0
        self.whists[player] = {q: 0 for q in self.players if q != player}

    def apply(self, e: Entry) -> None:
        if e.area == POOL:
            self.pool[e.player] = exact(self.pool[e.player] + e.amount)
        elif e.area == MOUNTAIN:
            self.mountain[e.player] = exact(self.mountain[e.player] + e.amount)
        else:
            assert e.on is not None
            row = self.whists[e.player]
            row[e.on] = exact(row[e.on] + e.amount)

    def view(self) -> SheetView:
        whists = {p: dict(r) for p, r in self.whists.items()}
        return SheetView(self.players, dict(self.pool), dict(self.mountain), whists)
