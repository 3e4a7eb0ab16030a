"""Seating for one deal: who deals, who sits out, who defends first."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Seats:
    """Seating for one deal: the players clockwise and this deal's dealer."""

    players: tuple[str, ...]
    dealer: str
    #: players in the deal, clockwise from first hand (the 4-player dealer sits out);
    #: computed once (scoring asks for them many times a deal)
    active: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: the 4-player dealer, who sits the deal out; None with 3 players
    sits_out: str | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.players)
        i = self.players.index(self.dealer)
        order = tuple(self.players[(i + 1 + k) % n] for k in range(n))
        object.__setattr__(self, "active", order if n == 3 else order[:-1])
        object.__setattr__(self, "sits_out", self.dealer if n == 4 else None)

    def after(self, player: str) -> tuple[str, ...]:
        """The other active players, clockwise from ``player``: first defender first."""
        act = self.active
        i = act.index(player)
        return tuple(act[(i + k) % len(act)] for k in range(1, len(act)))

    def next_dealer(self) -> str:
        i = self.players.index(self.dealer)
        return self.players[(i + 1) % len(self.players)]
