"""Settlement («роспись пули», RULES.md §3, K4.2.14): the sheet → each player's whists,
then money.  Exact fractions throughout; rounding happens once, at the end, as the
convention says; every result sums to exactly 0."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Context, Decimal, Inexact, InvalidOperation
from fractions import Fraction
from math import lcm

from pulyacalc.convention.schema import Convention, MountainDivisor
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.kinds import KODEKS_ROUNDINGS, Rounding
from pulyacalc.core.sheet import SheetView

#: money sums and differences: exact for every amount the limits allow (docs/format.md "Limits": a
#: result has at most about 60 digits), an error past that; never rounded to Decimal's default 28 digits
MONEY = Context(prec=100, traps=[Inexact, InvalidOperation])


class SettlementError(ValueError):
    """A settlement the chosen rounding cannot do (e.g. kodeks with 4 players)."""


@dataclass(frozen=True)
class Separate:
    """``kodeks_separate`` (RULES.md §3.9): the pools and the mountains, each amnestied and
    moved to the nearest multiple of 3 on its own, before they are put together."""

    #: pool − the smallest pool, in mountain points (× ``pool.point_in_mountain``), and moved
    pool: dict[str, Amount]
    pool_moved: dict[str, Amount]
    #: mountain − the smallest mountain, and moved
    mountain: dict[str, Amount]
    mountain_moved: dict[str, Amount]


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
    #: kodeks rounding (K4.2.12): the amnestied mountains after the move (kodeks_separate:
    #: the moved mountain − the moved pool), and the compensation whists ({writer: {on: whists}})
    rounded_mountain: dict[str, Amount]
    kodeks_whists: dict[str, dict[str, Amount]]
    #: step 3: average mountain, each one's mountain result 10 × (avg − G) (× n / (n − 1) among the opponents)
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
    #: ``settlement.mountain_divisor``: the mountain divided among all the players or the opponents
    divisor: MountainDivisor = "players"
    #: the two roundings of ``kodeks_separate``, None under any other rounding
    separate: Separate | None = None


def mountain_factor(conv: Convention, n: int) -> Amount:
    """Whists one point of (average − own mountain) is worth: ``mountain.point_in_whists``,
    × n / (n − 1) when each pays only his opponents (each pays each other 10 × G / (n − 1))."""
    unit = conv.mountain_point_in_whists
    return exact(Fraction(unit) * n / (n - 1)) if conv.mountain_divisor == "opponents" else unit


def _check_kodeks(rounding: Rounding, n: int, divisor: MountainDivisor) -> None:
    if n != 3:
        three = N_("{rounding} rounding (K4.2.12) is defined for 3 players; use --rounding exact or nearest")
        raise SettlementError(M_(three, rounding=rounding))
    if divisor == "opponents":
        opponents = N_(
            "{rounding} rounding moves mountains to a multiple of 3, which divides among the "
            "3 players; it cannot go with settlement.mountain_divisor: opponents (2): use "
            "--rounding exact or nearest"
        )
        raise SettlementError(M_(opponents, rounding=rounding))


def _moved(
    values: dict[str, Amount],
    rounding: Rounding,
    what: str,
    players: tuple[str, ...],
    extra: dict[str, dict[str, Amount]],
    mountain: bool = True,
) -> dict[str, Amount]:
    """Each of ``values`` moved one point to the nearest multiple of 3 (K4.2.12), refused unless
    whole (``what``, with ``{p}`` and ``{v}``, names the one that is not), paid in whists: a move
    that gains its owner (a mountain down, a pool up) has each other write 3 on him."""
    out: dict[str, Amount] = {}
    for p in players:
        if Fraction(values[p]).denominator != 1:
            whole = N_("{rounding} rounding needs whole {what}: use exact or nearest")
            raise SettlementError(M_(whole, rounding=rounding, what=what.format(p=p, v=values[p])))
        value = int(values[p])
        rest = value % 3
        out[p] = moved = value - 1 if rest == 1 else value + 1 if rest == 2 else value
        gains = (moved < value) == mountain
        for q in players:
            if rest and q != p:
                writer, on = (q, p) if gains else (p, q)
                extra[writer][on] += 3
    return out


def _separate(
    sheet: SheetView, ratio: Amount, players: tuple[str, ...], extra: dict[str, dict[str, Amount]]
) -> Separate:
    """``kodeks_separate``'s two roundings (:class:`Separate`)."""
    low_pool = min(sheet.pool.values())
    low_mountain = min(sheet.mountain.values())
    pool = {p: exact(ratio * (sheet.pool[p] - low_pool)) for p in players}
    mountain = {p: exact(sheet.mountain[p] - low_mountain) for p in players}
    what = "pools and mountains; {p}'s %s is {v}"
    pool_moved = _moved(pool, "kodeks_separate", what % "pool", players, extra, mountain=False)
    mountain_moved = _moved(mountain, "kodeks_separate", what % "mountain", players, extra)
    return Separate(pool, pool_moved, mountain, mountain_moved)


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
    divisor = conv.mountain_divisor
    ratio = conv.pool_point_in_mountain
    if rounding in KODEKS_ROUNDINGS:
        _check_kodeks(rounding, n, divisor)

    g = {p: exact(sheet.mountain[p] + ratio * (target - sheet.pool[p])) for p in players}
    low = min(g.values())
    amnestied = {p: exact(g[p] - low) for p in players}

    mountain = dict(amnestied)
    separate = None
    extra: dict[str, dict[str, Amount]] = {p: {q: 0 for q in players if q != p} for p in players}
    if rounding == "kodeks":
        mountain = _moved(amnestied, rounding, "mountains; {p}'s is {v}", players, extra)
    elif rounding == "kodeks_separate":
        separate = _separate(sheet, ratio, players, extra)
        # the moved pools count against the moved mountains; the target is everyone's
        joined = {p: exact(separate.mountain_moved[p] - separate.pool_moved[p]) for p in players}
        least = min(joined.values())
        mountain = {p: exact(joined[p] - least) for p in players}

    avg = exact(Fraction(sum(mountain.values())) / n)
    factor = mountain_factor(conv, n)
    share = n if divisor == "players" else n - 1
    mres = {p: exact(factor * (avg - mountain[p])) for p in players}
    pays_each = {p: exact(Fraction(conv.mountain_point_in_whists * mountain[p]) / share) for p in players}
    written = {i: {j: sheet.whists[i][j] + extra[i][j] for j in players if j != i} for i in players}
    pairs = {i: {j: exact(written[i][j] - written[j][i]) for j in players if j != i} for i in players}
    wres = {i: exact(sum(pairs[i].values())) for i in players}
    total = {p: exact(mres[p] + wres[p]) for p in players}
    assert sum(total.values()) == 0, "a settlement must sum to zero"

    result: dict[str, Amount] = {**round_nearest(total, players)} if rounding == "nearest" else dict(total)
    money = None if whist_price is None else to_money(result, players, whist_price)
    payments = [] if money is None else pay_list(money, players)
    steps = (g, low, amnestied, mountain, extra, avg, mres, pays_each, pairs, wres, total, result)
    return Settlement(players, target, rounding, *steps, money, payments, whist_price, divisor, separate)


def largest_remainder(values: list[int], k: int) -> list[int]:
    """``values[i] / k`` (k > 0) in whole numbers: each rounded down, then +1 to the largest
    remainders (ties by position, i.e. by seat) until the total is the (whole) exact total."""
    floors = [v // k for v in values]
    want, rest = divmod(sum(values), k)
    assert rest == 0
    short = want - sum(floors)
    if short:
        rests = [v - f * k for v, f in zip(values, floors, strict=True)]
        if short == 1:  # (the common case: the first of the largest)
            floors[rests.index(max(rests))] += 1
        else:
            for i in sorted(range(len(values)), key=lambda i: (-rests[i], i))[:short]:
                floors[i] += 1
    return floors


def round_nearest(
    values: dict[str, Amount], players: tuple[str, ...], times: Amount | Decimal = 1
) -> dict[str, int]:
    """:func:`largest_remainder` of the exact values (× ``times``) over their common
    denominator, worked out on integer ratios (no Fraction made: a ledger's money per row)."""
    n, d = times.as_integer_ratio()
    ratios = [values[p].as_integer_ratio() for p in players]
    k = lcm(*(b * d for _, b in ratios))
    whole = largest_remainder([a * n * (k // (b * d)) for a, b in ratios], k)
    return dict(zip(players, whole, strict=True))


def to_money(result: dict[str, Amount], players: tuple[str, ...], price: Decimal) -> dict[str, Decimal]:
    """Result × price of a whist, to the cent, still summing to 0."""
    cents = round_nearest(result, players, price * 100)
    return {p: Decimal(cents[p]).scaleb(-2, MONEY) for p in players}


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
        owe[payer] = MONEY.subtract(owe[payer], amount)
        get[payee] = MONEY.subtract(get[payee], amount)
        if not owe[payer]:
            del owe[payer]
        if not get[payee]:
            del get[payee]
    return out
