"""The price table («таблица расчёта»): each outcome's worth in whists to each player, none hard-coded: a
one-deal log played on a finished sheet (pools at target), settled exactly (prices hold through a pulya)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from pulyacalc.convention.schema import LEVELS, Convention
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.errors import Problems
from pulyacalc.core.i18n import M_
from pulyacalc.core.model import Call, Contract, Deal, Header, Log, Play, Raspasy, Suit
from pulyacalc.core.sheet import Sheet
from pulyacalc.play import play
from pulyacalc.scoring.settlement import settle

DECLARER, FIRST, SECOND, DEALER = "declarer", "first defender", "second defender", "dealer"
#: with 5 players, the second player who sits out
SECOND_OUT = "second out"
#: with 2 players, the declarer's one opponent (the dummy always passes)
OPPONENT = "opponent"
#: the seats of each table size the price table knows (core/seating.py)
ROLES = {
    2: (DECLARER, OPPONENT),
    3: (DECLARER, FIRST, SECOND),
    4: (DECLARER, FIRST, SECOND, DEALER),
    5: (DECLARER, FIRST, SECOND, DEALER, SECOND_OUT),
}


@dataclass(frozen=True)
class Price:
    #: a short name: "6 made", "6 without 1", "misère caught", "raspasy trick"
    key: str
    #: what was played, in words
    label: str
    #: the deal as one line of the line format (seats named by role)
    line: str
    #: whists for each seat (``roles``), exact
    values: dict[str, Amount]


@dataclass(frozen=True)
class PriceTable:
    convention: Convention
    players: int
    roles: tuple[str, ...]
    rows: tuple[Price, ...]


def _seating(conv: Convention, players: int) -> tuple[str, ...]:
    """The roles clockwise, the dealer last: with 5 players the second player out sits
    where ``table.five_second_out`` puts him (the declarer is first hand all the same)."""
    if players != 5:
        return ROLES[players]
    at = {"next": 0, "third": 2, "previous": 3}[conv.five_second_out]
    playing = [DECLARER, FIRST, SECOND]
    return (*playing[:at], SECOND_OUT, *playing[at:], DEALER)


def price_of(conv: Convention, players: int, deal: Deal) -> dict[str, Amount]:
    """Score ``deal`` on a finished, equal sheet and settle: each seat's gain in whists."""
    roles = _seating(conv, players)
    header = Header(roles, dealer=DEALER if players > 3 else roles[-1], pool=conv.pool_target)
    problems = Problems()
    finished = replace(Sheet(roles).view(), pool=dict.fromkeys(roles, conv.pool_target))  # every pool closed
    ev = play(Log(header, (deal,)), conv, problems, start=finished)
    problems.raise_if_any()
    base = settle(finished, conv, ev.target, "exact")
    after = settle(ev.sheet, conv, ev.target, "exact")
    return {p: exact(Fraction(after.exact[p]) - Fraction(base.exact[p])) for p in roles}


def outcomes(conv: Convention, players: int) -> Iterator[tuple[str, str, Deal]]:
    """Every outcome of the table: (key, words, deal)."""
    two = players == 2  # the opponent defends with the dummy, who always passes
    d, w, p = DECLARER, OPPONENT if two else FIRST, SECOND

    def calls(first: Call, second: Call = Call.PASS) -> dict[str, Call]:
        return {w: first} if two else {w: first, p: second}

    def made(level: int, whister: str) -> dict[str, int]:
        """The declarer's tricks; the whister's too when his own count is needed (all the side's)."""
        return {d: level, whister: 10 - level} if conv.lone_whister_made == "own" else {d: level}

    for level in LEVELS:
        c = Contract(level, Suit.SPADES)
        yield M_("{level} not whisted", level=level), M_("both defenders pass"), Play(d, c, calls(Call.PASS))
        if level in conv.half_whist_levels and not two:
            half = Play(d, c, {w: Call.PASS, p: Call.HALF})
            yield M_("{level} half-whist", level=level), M_("first passes, second half-whists"), half
        side = 10 - level
        took = M_("takes nothing") if side == 0 else M_("takes {side}", side=side)
        words = M_("one whist, made exactly: the whister {took}", took=took)
        yield M_("{level} made", level=level), words, Play(d, c, calls(Call.WHIST), made(level, w))
        for k in (1, 2, 3):
            words = M_("one whist, the declarer takes {n}", n=level - k)
            short = Play(d, c, calls(Call.WHIST), {d: level - k})
            yield M_("{level} without {k}", level=level, k=k), words, short
    yield M_("misère made"), M_("no trick"), Play(d, Contract.misere(), {}, {d: 0})
    yield M_("misère caught"), M_("one trick"), Play(d, Contract.misere(), {}, {d: 1})
    if players >= 4 and conv.raspasy_talon_to_dealer:
        tricks = {d: 4, w: 2, p: 2, DEALER: 2}
        words = M_("first of a run: first hand 4, the others 2, the dealer 2 from the talon")
    elif two:
        tricks = {d: 4, w: 6}
        words = M_("first of a run: first hand 4, the other 6 (the dummy takes no part)")
    else:
        tricks = {d: 4, w: 3, p: 3}
        words = M_("first of a run: first hand 4, the others 3")
    yield M_("raspasy"), words, Raspasy(tricks)
    if conv.dark_factor == 1:
        return
    # Classic's play «втёмную» (RULES.md 2.10): each game made when bid dark, and a raspasy
    # after first hand's dark pass (which earns him a bomb, worth nothing until he plays)
    f, w = conv.dark_factor, FIRST
    for level in LEVELS:
        deal = Play(d, Contract(level, Suit.SPADES), {w: Call.WHIST, p: Call.PASS}, made(level, w), dark=True)
        words = M_("bid «втёмную», one whist, made exactly: × {f}", f=f)
        yield M_("{level} made dark", level=level), words, deal
    dark = Play(d, Contract.misere(), {}, {d: 0}, dark=True)
    yield M_("misère made dark"), M_("bid «втёмную», no trick: × {f}", f=f), dark
    words = M_("first hand passed «втёмную»: every trick × {f}, and he earns a bomb ×{f}", f=f)
    yield M_("raspasy dark"), words, Raspasy(tricks, dark=(d,))


def price_table(conv: Convention, players: int = 3) -> PriceTable:
    if players not in ROLES:
        raise ValueError(f"the price table is for {', '.join(map(str, ROLES))} players")
    from pulyacalc.reports.explain import deal_text

    rows = tuple(
        Price(key, words, deal_text(deal), price_of(conv, players, deal))
        for key, words, deal in outcomes(conv, players)
    )
    return PriceTable(conv, players, ROLES[players], rows)
