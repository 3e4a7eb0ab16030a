"""RULES.md 2.8 held to ``pool.settled`` (issue 26, item 2): once ``settled`` names a class
of papers for a write, ``place`` gives that write the same answer on every paper of the
class — which is what lets the fold remember ``place``'s answer per write then."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pulyacalc.convention.load import load
from pulyacalc.core.sheet import MOUNTAIN, POOL, Write
from pulyacalc.scoring.fold import clockwise_of
from pulyacalc.scoring.pool import place, settled, settled_deal, settled_paper

PLAYERS = ("Anna", "Boris", "Vera", "Gleb")
amounts = st.one_of(st.integers(-5, 30), st.fractions(Fraction(-5), Fraction(30), max_denominator=4))


@st.composite
def cases(draw: st.DrawFn) -> tuple[object, ...]:
    n = draw(st.sampled_from((3, 4)))
    players = PLAYERS[:n]
    conv = load(draw(st.sampled_from(("sochi", "leningrad", "rostov", "classic"))))
    conv = replace(
        conv, help=draw(st.booleans()), pool_point_in_mountain=draw(st.sampled_from((1, 2, Fraction(1, 2))))
    )
    target = draw(st.sampled_from((5, 10, 20)))
    me = draw(st.sampled_from(players))
    on = draw(st.sampled_from((None, *[p for p in players if p != me])))
    write = Write("made", me, POOL, draw(amounts), on, why="made 6♠")
    paper = st.fixed_dictionaries({p: amounts for p in players})
    return players, conv, target, write, draw(paper), draw(paper), draw(st.booleans())


@settings(max_examples=400, deadline=None)
@given(cases())
def test_once_settled_place_reads_no_pool(case: tuple[object, ...]) -> None:
    players, conv, target, write, one, other, after_finish = case
    assert isinstance(players, tuple) and isinstance(write, Write) and isinstance(target, int)
    assert isinstance(one, dict) and isinstance(other, dict) and isinstance(after_finish, bool)
    clockwise = clockwise_of(players)
    how = settled(write, one, target, conv, after_finish)  # type: ignore[arg-type]
    if how is None or settled(write, other, target, conv, after_finish) != how:  # type: ignore[arg-type]
        return
    got = place(write, one, target, conv, after_finish, clockwise)  # type: ignore[arg-type]
    assert got == place(write, other, target, conv, after_finish, clockwise)  # type: ignore[arg-type]


def test_settled_names_the_common_cases() -> None:
    conv = load("sochi")
    w = Write("made", "Anna", POOL, 4)
    assert settled(w, {"Anna": 0, "Boris": 20, "Vera": 3}, 20, conv, False) == "own pool"
    assert settled(w, {"Anna": 18, "Boris": 20, "Vera": 3}, 20, conv, False) is None  # help
    assert settled(w, {"Anna": 20, "Boris": 21, "Vera": 20}, 20, conv, True) == "all closed"
    no_help = load("leningrad")
    assert settled(w, {"Anna": 18, "Boris": 20, "Vera": 3}, 20, no_help, False) == "playing"
    assert settled(w, {"Anna": 18, "Boris": 20, "Vera": 3}, 20, no_help, True) == "finished"


@settings(max_examples=300, deadline=None)
@given(cases(), st.lists(st.tuples(st.integers(0, 3), amounts), max_size=3))
def test_settled_deal_holds_for_every_write_in_turn(
    case: tuple[object, ...], more: list[tuple[int, object]]
) -> None:
    """Once ``settled_deal`` names a class for a deal's pool writes, ``settled`` names it for
    each of them in turn, on the paper the ones placed before it left."""
    players, conv, target, write, one, _, after_finish = case
    assert isinstance(players, tuple) and isinstance(write, Write) and isinstance(target, int)
    assert isinstance(one, dict) and isinstance(after_finish, bool)
    pool = (write, *(Write("made", players[i % len(players)], POOL, a) for i, a in more))  # type: ignore[arg-type]
    paper = settled_paper(one, target, conv, after_finish)  # type: ignore[arg-type]
    how = settled_deal(pool, one, target, paper, conv)  # type: ignore[arg-type]
    if how is None:
        return
    pools, clockwise = dict(one), clockwise_of(players)
    for w in pool:
        assert settled(w, pools, target, conv, after_finish) == how  # type: ignore[arg-type]
        for got in place(w, pools, target, conv, after_finish, clockwise):  # type: ignore[arg-type]
            if got.area == POOL:
                pools[got.player] += got.amount


def test_a_once_closed_shortfall_reads_only_its_whisters_pool() -> None:
    """``once_closed`` (K3.8.11, K3.8.12): half the remise while his pool is open, the whole
    once it is closed, whatever the others' pools."""
    conv, clockwise = load("classic"), clockwise_of(PLAYERS[:3])
    w = Write("shortfall", "Boris", MOUNTAIN, 1, why="took 3 of the obligation 4: 1 × 1")
    for others in (0, 20):
        open_, closed = {"Anna": others, "Boris": 19, "Vera": 0}, {"Anna": others, "Boris": 20, "Vera": 0}
        assert settled(w, open_, 20, conv, False) == "own pool"
        assert settled(w, closed, 20, conv, False) == "own closed"
        assert [x.amount for x in place(w, open_, 20, conv, False, clockwise)] == [1]
        assert [x.amount for x in place(w, closed, 20, conv, False, clockwise)] == [2]
    # without help no paper is a class: a shortfall may read it
    assert settled_paper({"Anna": 20, "Boris": 20, "Vera": 20}, 20, replace(conv, help=False), False) is None


def test_each_help_says_the_write_it_comes_of() -> None:
    """RULES.md 2.8: a write that closes its player's pool helps the fullest open pool, then
    the next; each help's reason starts with the write's own, the whists' with the help."""
    conv = load("sochi")
    w = Write("misere-made", "Vera", POOL, 10, why="misère made: price 10")
    pools = {"Anna": 16, "Boris": 14, "Vera": 20}
    out = place(w, pools, 20, conv, False, clockwise_of(("Anna", "Boris", "Vera")))
    assert [(x.rule, x.player, x.amount, x.on) for x in out] == [
        ("help", "Anna", 4, None),
        ("help-whists", "Vera", 40, "Anna"),
        ("help", "Boris", 6, None),
        ("help-whists", "Vera", 60, "Boris"),
    ]
    assert [str(x.why) for x in out] == [
        "misère made: price 10; Vera's pool is closed: 4 help Anna",
        "helped Anna with 4: 4 × 10",
        "misère made: price 10; Vera's pool is closed: 6 help Boris",
        "helped Boris with 6: 6 × 10",
    ]
