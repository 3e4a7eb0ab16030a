"""A season's rating: openskill's Plackett-Luce model, an evening one ranking of its players by result (ties
share a rank): it rates places, not margins.  openskill is imported only when rating (start-up time)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pulyacalc.core.amounts import Amount

if TYPE_CHECKING:
    from openskill.models import PlackettLuce, PlackettLuceRating

#: what docs and the JSON call the model
MODEL = "openskill Plackett-Luce (mu 25, sigma 25/3, beta 25/6, tau 25/300); ordinal = mu - 3 sigma"


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: skill μ, its uncertainty σ, and the ordinal μ − 3σ that ranks."""

    mu: float
    sigma: float
    ordinal: float


#: a player who has not played yet (the model's prior)
START = Rating(25.0, 25.0 / 3.0, 0.0)


def ranks(players: Sequence[str], result: Mapping[str, Amount]) -> list[int]:
    """Competition ranks by result, 1 = best; equal results share a rank (1, 1, 3)."""
    return [1 + sum(1 for q in players if result[q] > result[p]) for p in players]


class Ratings:
    """Each player's rating, updated one evening at a time."""

    def __init__(self) -> None:
        from openskill.models import PlackettLuce

        self.model: PlackettLuce = PlackettLuce()
        self._now: dict[str, PlackettLuceRating] = {}

    def rate(self, players: Sequence[str], result: Mapping[str, Amount]) -> dict[str, Rating]:
        """Rate one evening (``result``: each player's result); the ratings after it."""
        teams = [[self._now.get(p) or self.model.rating(name=p)] for p in players]
        rated = self.model.rate(teams, ranks=[float(r) for r in ranks(players, result)])
        self._now.update((p, r) for p, (r,) in zip(players, rated, strict=True))
        return {p: self.get(p) for p in players}

    def get(self, player: str) -> Rating:
        r = self._now.get(player)
        return START if r is None else Rating(r.mu, r.sigma, r.ordinal())
