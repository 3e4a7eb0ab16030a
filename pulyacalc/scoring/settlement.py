"""Settlement («роспись пули», RULES.md §3, K4.2.14): the sheet → each player's whists,
then money.  Exact fractions throughout; rounding happens once, at the end, as the
convention says; every result sums to exactly 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.sheet import SheetView


class SettlementError(ValueError):
    """A settlement the chosen rounding cannot do (e.g. kodeks with 4 players)."""


@dataclass(frozen=True)
class Settlement:
    players: tuple[str, ...]
    target: int
    rounding: Rounding
    #: step 1: mountain equivalent G = M + ratio × (target − P)
    equivalent: dict[str, Amount]
    #: step 2: the amnesty (smallest G) and G − min G
    amnesty: Amount
    amnestied: dict[str, Amount]
    #: kodeks rounding (K4.2.12): the amnestied mountains after the move, and the
    #: compensation whists written by each on each ({writer: {on: whists}})
    rounded_mountain: dict[str, Amount]
    kodeks_whists: dict[str, dict[str, Amount]]
    #: step 3: the average mountain and each player's mountain result 10 × (avg − G)
    average: Amount
    mountain_result: dict[str, Amount]
    #: K4.2.14 variant 1: what each player pays every other for his mountain
    pays_each: dict[str, Amount]
    #: step 4: whists netted pair by pair ({i: {j: W[i→j] − W[j→i]}}) and their sum
    whist_pairs: dict[str, dict[str, Amount]]
    whist_result: dict[str, Amount]
    #: step 5: exact result, and step 6: as rounded for display
    exact: dict[str, Amount]
    result: dict[str, Amount]
    money: dict[str, Decimal] | None = None
    payments: list[tuple[str, str, Decimal]] = field(default_factory=list)
    whist_price: Decimal | None = None


def settle(
    sheet: SheetView,
    conv: Convention,
    target: int,
    rounding: Rounding | None = None,
    whist_price: Decimal | None = None,
) -> Settlement:
    players = sheet.players
    n = len(players)
    rounding = rounding or conv.rounding
    ratio = conv.pool_point_in_mountain
    unit = conv.mountain_point_in_whists

    g = {p: exact(sheet.mountain[p] + ratio * (target - sheet.pool[p])) for p in players}
    low = min(g.values())
    amnestied = {p: exact(g[p] - low) for p in players}

    mountain = dict(amnestied)
    extra: dict[str, dict[str, Amount]] = {p: {q: 0 for q in players if q != p} for p in players}
    if rounding == "kodeks":
        if n != 3:
            raise SettlementError(
                "kodeks rounding (K4.2.12) is defined for 3 players; use --rounding exact or nearest"
            )
        for p in players:
            value = amnestied[p]
            if Fraction(value).denominator != 1:
                raise SettlementError(
                    f"kodeks rounding needs whole mountains; {p}'s is {value}: use exact or nearest"
                )
            rest = int(value) % 3
            if rest == 1:  # moved down one point: each other writes 3 whists on him
                mountain[p] = int(value) - 1
                for q in players:
                    if q != p:
                        extra[q][p] += 3
            elif rest == 2:  # moved up one point: he writes 3 whists on each other
                mountain[p] = int(value) + 1
                for q in players:
                    if q != p:
                        extra[p][q] += 3

    avg = exact(Fraction(sum(mountain.values())) / n)
    mres = {p: exact(unit * (avg - mountain[p])) for p in players}
    pays_each = {p: exact(Fraction(unit * mountain[p]) / n) for p in players}

    def written(i: str, j: str) -> Amount:
        return exact(sheet.whists[i][j] + extra[i][j])

    pairs = {i: {j: exact(written(i, j) - written(j, i)) for j in players if j != i} for i in players}
    wres = {i: exact(sum(pairs[i].values())) for i in players}
    total = {p: exact(mres[p] + wres[p]) for p in players}
    assert sum(total.values()) == 0, "a settlement must sum to zero"

    result = round_nearest(total, players) if rounding == "nearest" else dict(total)
    money = None
    payments: list[tuple[str, str, Decimal]] = []
    if whist_price is not None:
        money = to_money(result, players, whist_price)
        payments = pay_list(money, players)
    return Settlement(
        players,
        target,
        rounding,
        g,
        low,
        amnestied,
        mountain,
        extra,
        avg,
        mres,
        pays_each,
        pairs,
        wres,
        total,
        result,
        money,
        payments,
        whist_price,
    )


def _largest_remainder(values: dict[str, Fraction], players: tuple[str, ...]) -> dict[str, int]:
    """Whole numbers: each rounded down, then +1 to the largest remainders (ties by seat)
    until the total is the (whole) exact total."""
    floors = {p: values[p].numerator // values[p].denominator for p in players}
    want = sum(values.values())
    assert want.denominator == 1
    short = int(want) - sum(floors.values())
    order = sorted(players, key=lambda p: (-(values[p] - floors[p]), players.index(p)))
    for p in order[:short]:
        floors[p] += 1
    return floors


def round_nearest(values: dict[str, Amount], players: tuple[str, ...]) -> dict[str, Amount]:
    return dict(_largest_remainder({p: Fraction(values[p]) for p in players}, players))


def to_money(result: dict[str, Amount], players: tuple[str, ...], price: Decimal) -> dict[str, Decimal]:
    """Result × price of a whist, to the cent, still summing to 0."""
    cents = {p: Fraction(result[p]) * Fraction(price) * 100 for p in players}
    whole = _largest_remainder(cents, players)
    return {p: Decimal(whole[p]) / 100 for p in players}


def pay_list(money: dict[str, Decimal], players: tuple[str, ...]) -> list[tuple[str, str, Decimal]]:
    """Who pays whom: the biggest loser pays the biggest winner first (few payments)."""
    owe = {p: -money[p] for p in players if money[p] < 0}
    get = {p: money[p] for p in players if money[p] > 0}
    out: list[tuple[str, str, Decimal]] = []
    while owe and get:
        payer = max(owe, key=lambda p: (owe[p], -players.index(p)))
        payee = max(get, key=lambda p: (get[p], -players.index(p)))
        amount = min(owe[payer], get[payee])
        out.append((payer, payee, amount))
        owe[payer] -= amount
        get[payee] -= amount
        if not owe[payer]:
            del owe[payer]
        if not get[payee]:
            del get[payee]
    return out
