"""Seating for one deal: who deals, holds cards, sits out, defends first (every table size)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pulyacalc.core.kinds import DummyHand, SecondOut

#: with 5 players, the second player out, as an index into the order clockwise from the dealer's left
_SECOND_OUT: dict[SecondOut, int] = {"next": 0, "previous": 3, "third": 2}
_set = object.__setattr__


@dataclass(frozen=True, slots=True)
class Seats:
    """Seating for one deal: the players clockwise and this deal's dealer."""

    players: tuple[str, ...]
    dealer: str
    #: with 5 players, who sits out with the dealer
    second_out: SecondOut = "next"
    #: with 2 players, the hand the dummy sits on, from the dealer's left (header ``dummy``)
    dummy_hand: DummyHand = "first"
    #: players in the deal, clockwise from first hand, computed once (scoring asks many times a deal)
    active: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: the dealer when he sits out (4 or 5 players); None with 2 or 3
    sits_out: str | None = field(init=False, repr=False, compare=False)
    #: everyone who sits this deal out, the dealer first (empty with 2 or 3 players)
    sitters: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: a dummy hand defends with the others and always passes (2 players)
    dummy: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n, dealer = len(self.players), self.dealer
        i = self.players.index(dealer)
        order = self.players[i + 1 :] + self.players[: i + 1]
        sitters: tuple[str, ...] = (
            (dealer,) if n == 4 else (dealer, order[_SECOND_OUT[self.second_out]]) if n > 4 else ()
        )
        _set(self, "active", tuple(p for p in order if p not in sitters))
        _set(self, "sitters", sitters)
        _set(self, "sits_out", sitters[0] if sitters else None)
        _set(self, "dummy", n == 2)

    def after(self, player: str) -> tuple[str, ...]:
        """The other active players, clockwise from ``player``: first defender first."""
        i = self.active.index(player)
        return self.active[i + 1 :] + self.active[:i]

    def next_dealer(self) -> str:
        return self.players[(self.players.index(self.dealer) + 1) % len(self.players)]


#: a leaver's seat and whether he was to deal next (until it is taken or a deal dealt); None: no empty seat
Vacated = tuple[int, bool] | None


def change_table(
    players: tuple[str, ...], dealer: str, vacated: Vacated, change: str, who: str
) -> tuple[tuple[str, ...], str, Vacated]:
    """The table after ``who`` joins or leaves (RULES.md 6.3, K3.1.2): a newcomer takes the seat
    of one who left, else sits on the last dealer's left and deals next."""
    if change == "leave":
        i = players.index(who)
        rest = players[:i] + players[i + 1 :]
        nxt = players[(i + 1) % len(players)] if dealer == who else dealer
        return rest, nxt, (i, dealer == who)
    if vacated is not None:
        i, dealt_next = vacated
        return players[:i] + (who,) + players[i:], who if dealt_next else dealer, None
    i = players.index(dealer)
    return players[:i] + (who,) + players[i:], who, None
