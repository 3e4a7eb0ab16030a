"""The fold's one cache changes nothing (issue 26, item 1): the same code played with its
cache (``Scorer(memo=True)``: resolve and rules.written remembered per ``KEY``, raw lines
known per state, ``pool.place`` per write once ``pool.settled``) and without it
(``memo=False``: every deal read, resolved, written and placed) gives the same steps,
results, sheet and problems, on generated logs with random convention overrides."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logs_gen import logs

from pulyacalc.core.errors import Problems
from pulyacalc.logs.read import read_text
from pulyacalc.play import Playing, load_convention
from pulyacalc.scoring import fold

#: header lines a log may override its convention with (docs/format.md), each a few ways
OVERRIDES: tuple[tuple[str, ...], ...] = (
    ("pool.help: false", "pool.help: true"),
    ("pool.point_in_mountain: 2", "pool.point_in_mountain: 1/2"),
    ("pool.help_whists_per_point: 5",),
    ("raspasy.progression: 1 2 4", "raspasy.progression: 1"),
    ("raspasy.run_ends_on: played", "raspasy.run_ends_on: any"),
    ("raspasy.dealer_after: stays", "raspasy.dealer_after: slides"),
    ("raspasy.scoring: whists",),
    ("whist.on_failure: gentleman", "whist.on_failure: greedy"),
    ("contracts.price: {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}",),
)


def with_overrides(text: str, rng: random.Random) -> str:
    """``text`` with a few overrides written under its header."""
    head, _, body = text.partition("\n\n")
    chosen = rng.sample(OVERRIDES, rng.randint(0, 3))
    return "\n".join([head, *(rng.choice(ways) for ways in chosen)]) + "\n\n" + body


#: how a play is read: every step, steps with the sheet read only at the end (``check``),
#: no step at all (``score``): a scorer that owes known writes adds them up at the end;
#: a known line given by its ``Line`` alone (``season``'s digest), making no step
MODES = ("steps", "owing", "quiet", "known")


def played(text: str, memo: bool, mode: str = "steps") -> Any:
    """Every step's result (and its key fields; none when ``quiet``), the paper, the count
    and the problems."""
    problems = Problems()
    log = read_text(text, "t.pulya", problems=problems)
    conv = load_convention(log, problems)
    if conv is None:
        return [p.format() for p in problems.items]
    p = Playing(log, conv, problems, memo=memo)
    p.scorer.owing, p.scorer.quiet = mode != "steps", mode == "quiet"
    read: list[Any] = []  # each step's deal and each known line, in order
    if mode == "known":
        p.scorer.each_known = read.append
    steps = []
    for s in p.steps():
        read.append(s.deal())
        steps.append((s.number, s.line, s.kind, s.writes.writes(), s.result()))
    ev = p.evening()
    steps = [] if mode in ("quiet", "known") else steps  # a known line makes none
    if mode == "known":  # every deal read, in order: a known line by its text
        steps = [x.raw.rstrip("\r\n") if isinstance(x, fold.Line) else x.source for x in read]
    elif mode == "steps" and not memo:
        assert [x.source for x in read] == [r.deal.source for *_, r in steps]
    return steps, ev.sheet, ev.deals, ev.finished, ev.after_finish_from, [q.format() for q in problems.items]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), st.integers(0, 10_000))
def test_the_fold_plays_alike_with_its_cache_and_without(text: str, seed: int) -> None:
    rng = random.Random(seed)
    text = with_overrides(text, rng)
    mode = rng.choice(MODES)
    assert played(text, memo=True, mode=mode) == played(text, memo=False, mode=mode)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs())
def test_known_lines_given_by_their_line_read_every_deal_in_order(text: str) -> None:
    """``Scorer.each_known``: the steps and the known lines, in order, are every deal read,
    and the paper at the end is the one every step makes."""
    known, steps = played(text, memo=True, mode="known"), played(text, memo=False)
    if isinstance(known, list):  # (no convention: the problems alike)
        assert known == steps
        return
    assert known[0] == [r.deal.source for *_, r in steps[0]]
    assert known[1:] == steps[1:]


def test_a_small_cache_fills_and_empties_and_changes_nothing(monkeypatch: Any) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import genlog

    text = "".join(genlog.line_log(3_000, seed=4, players=4, convention="leningrad", pool=30))
    want = played(text, memo=False)
    steps, *rest = want  # the pools close early: most known deals are owed, many times
    assert played(text, memo=True, mode="owing") == want
    assert played(text, memo=True, mode="quiet") == ([], *rest)
    monkeypatch.setattr(fold, "WRITTEN_CACHE_SIZE", 40)
    monkeypatch.setattr(fold, "LINES_CACHE_SIZE", 60)
    assert played(text, memo=True) == want


@pytest.mark.parametrize(
    ("head", "line", "learnt"),
    [
        # with three players the seats read alike whoever deals: learnt once
        ("", "Anna 6♠ 6, Boris pass 2, Vera whist 2", 1),
        # the dealer writes the talon premium (rules.seating): learnt under each dealer
        ("premium.enabled: true\n", "Anna 6♠ 6, Boris pass 2, Vera whist 2, talon cards A♠ K♠", 3),
    ],
)
def test_a_line_read_again_in_the_same_state_is_one_the_fold_knew(head: str, line: str, learnt: int) -> None:
    text = "players: Anna Boris Vera\nconvention: sochi\npool: 100\n" + head + "\n" + (line + "\n") * 9
    problems = Problems()
    log = read_text(text, "t.pulya", problems=problems)
    conv = load_convention(log, problems)
    assert conv is not None
    steps = list(Playing(log, conv, problems).steps())
    known = [isinstance(s.item, fold.Line) for s in steps]
    assert known == [False] * learnt + [True] * (9 - learnt)
    assert played(text, memo=True) == played(text, memo=False)
    assert len({id(s.writes) for s in steps}) == learnt  # one object for the same writes
    assert steps[5].deal() == steps[5].result().deal and steps[5].deal().loc.line == steps[5].line


def test_a_commented_line_is_known_by_its_text_before_the_comment() -> None:
    body = "".join(f"Anna 6♠ 6, Boris pass 2, Vera whist 2  # {n} Vera closes\n" for n in range(9))
    text = "players: Anna Boris Vera\nconvention: sochi\npool: 100\n\n" + body
    problems = Problems()
    log = read_text(text, "t.pulya", problems=problems)
    conv = load_convention(log, problems)
    assert conv is not None
    p = Playing(log, conv, problems)
    notes = [s.deal().note for s in p.steps()]
    assert notes == [f"{n} Vera closes" for n in range(9)]
    assert p.scorer.memo is not None and p.scorer.memo.learnt == 3  # each dealer once
    assert played(text, memo=True) == played(text, memo=False)


def test_a_line_that_names_its_dealer_is_dealt_by_him_in_every_state() -> None:
    """A deal that names its dealer is his wherever it stands: its line, learnt under one
    state, is not taken as dealt by the state's dealer under another (``fold._alike``)."""
    named, other = (
        "Anna 6♠ 6, Boris pass 2, Vera whist 2, dealer Boris\n",
        "Boris 6♣ 6, Vera whist 2, Anna pass 2\n",
    )
    text = "players: Anna Boris Vera\nconvention: sochi\npool: 100\n\n" + (named + other) * 3
    problems = Problems()
    log = read_text(text, "t.pulya", problems=problems)
    conv = load_convention(log, problems)
    assert conv is not None
    dealers = [s.dealer for s in Playing(log, conv, problems).steps()]
    assert dealers == ["Boris", "Vera"] * 3
    assert played(text, memo=True) == played(text, memo=False)
