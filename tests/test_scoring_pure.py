"""The rules are pure functions whose signature is the cache key (issue 8, item 2), the
closed sets of scoring are the ``kinds`` types, and a problem's ``code`` is set where the
problem is found (item 5).

The scorer remembers ``resolve`` and ``rules.written`` per ``fold.KEY``; a cache hit skips
both.  That is right only while they read nothing the key does not cover, so their
signatures are checked against the key: a new parameter (say ``after_raspasy``, to check
the raspasy exit in ``resolve``) fails here until the key holds it too.
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, get_args

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import Loc, Problem, Problems
from pulyacalc.core.kinds import DealKind, RuleId
from pulyacalc.core.model import Play, Raspasy
from pulyacalc.core.rulebook import RULEBOOK
from pulyacalc.core.seating import Seats
from pulyacalc.core.sheet import Entry, Write
from pulyacalc.logs.header import convention_for
from pulyacalc.logs.read import read_text
from pulyacalc.scoring import fold, rules
from pulyacalc.scoring.fold import DealResult, Scorer
from pulyacalc.scoring.resolve import resolve

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import genlog  # noqa: E402


def uncovered(*functions: Callable[..., Any]) -> set[str]:
    """Parameters of ``functions`` that neither the cache key covers nor ``NOT_KEYED`` excuses."""
    keyed = {param for param, _ in fold.KEY} | set(fold.NOT_KEYED)
    return {p for f in functions for p in inspect.signature(f).parameters} - keyed


def test_the_cached_functions_take_nothing_the_key_does_not_cover() -> None:
    assert uncovered(resolve, rules.written) == set()


def test_a_new_input_to_resolve_is_caught() -> None:
    def resolve_with_exit(deal: Any, seats: Any, conv: Any, problems: Any, after_raspasy: int) -> None:
        """resolve, had the raspasy-exit check moved into it."""

    assert uncovered(resolve_with_exit, rules.written) == {"after_raspasy"}


def test_every_key_part_is_an_input() -> None:
    params = set(inspect.signature(resolve).parameters) | set(inspect.signature(rules.written).parameters)
    assert {param for param, _ in fold.KEY} <= params
    assert set(fold.NOT_KEYED) <= params


def test_the_key_the_scorer_remembers_is_made_of_the_named_parts() -> None:
    text = "".join(genlog.line_log(300, seed=3, players=4, convention="sochi", pool=20))
    log = read_text(text, "a.pulya")
    scorer = Scorer(log.header, convention_for(log.header))
    results = [s.result() for s in scorer.run(log.deals)]
    memo = scorer.memo
    assert memo is not None
    assert results and len(memo.written) < len(results)  # repeated lines: hits
    for r in results:
        part = {
            "template": r.deal.template,
            "dealer": r.dealer,
            "run": r.raspasy_run,
            "bomb": r.bomb,
            "dark": r.dark,
        }
        key = tuple(part[name] for _, name in fold.KEY)
        assert memo.written[key].kind == r.kind
    assert all(len(k) == len(fold.KEY) for k in memo.written)


FOUR = "players: Anna Boris Vera Dan\nconvention: sochi\npool: 10\n\n"


def _fold(deals: list[Any], log: Any) -> tuple[list[tuple[object, ...]], object, list[str]]:
    problems = Problems()
    scorer = Scorer(log.header, convention_for(log.header), problems)
    got = [_fields(s.result()) for s in scorer.run(deals)]
    return got, scorer.sheet.view(), [p.format() for p in problems.items]


def _fields(r: DealResult) -> tuple[object, ...]:
    return (r.number, r.dealer, r.kind, r.entries, r.after_finish, r.raspasy_run, r.after_raspasy)


def test_a_repeated_bad_line_is_reported_at_each_line_and_the_cache_changes_nothing() -> None:
    # with 4 players the dealer rotates: the first two lines are legal under some dealers
    # only, the third under none; raspasy runs, and a small pool closes (help, 2.8)
    lines = ["Anna 6♠, Boris pass, Vera pass", "Anna pass 4, Boris pass 3, Vera pass 3"] * 40
    lines[7::8] = ["Anna 6♠ 9, Boris whist 1, Vera pass 1"] * 10
    lines += ["Anna pass 4, Boris pass 3, Vera pass 3"] * 12
    log = read_text(FOUR + "\n".join(lines) + "\n", "t.txt")
    deals = list(log.deals)
    assert all(d.template is not None for d in deals)
    cached = _fold(deals, log)
    fresh = _fold([replace(d, template=None) for d in deals], log)  # no template: never remembered
    assert cached == fresh
    results, _, problems = cached
    first = FOUR.count("\n") + 1
    bad = [int(p.split(":")[1]) for p in problems if "more than 10" in p]
    assert bad == [first + i for i in range(7, 80, 8)]
    # every deal is scored or reported, once
    reported = [int(p.split(":")[1]) for p in problems]
    scored = [first + r[0] - 1 for r in results]
    assert sorted(reported + scored) == list(range(first, first + len(lines)))
    # the same refused (text, dealer) comes again and again: each time checked anew
    refused = {(lines[n - first], (n - first) % 4) for n in reported}
    assert len(reported) >= 3 * len(refused)
    assert any(r[5] > 1 for r in results) and any(r[4] for r in results)


def test_rules_written_is_a_function_of_its_arguments() -> None:
    log = read_text(FOUR + "Anna pass 4, Boris pass 3, Vera pass 3\n", "t.txt")
    (deal,) = list(log.deals)
    assert isinstance(deal, Raspasy)
    conv = convention_for(log.header)
    res = resolve(deal, Seats(log.header.players, "Dan"), conv, Problems())
    assert res is not None
    first, third = rules.written(res, conv, 1), rules.written(res, conv, 3)
    assert first == rules.written(res, conv, 1) and first != third
    assert first.kind == "raspasy" and all(w.area == "mountain" for w in first.others)
    # Dan dealt and his talon took no trick: a bonus into his pool, placed later (2.8)
    assert [(w.rule, w.player) for w in first.pool] == [("zero-trick", "Dan")]
    assert all(type(w) is Write for w in first.others + first.pool)


class _Seen:
    """A deal's seats that answer only what ``rules.seating`` says ``written`` reads of
    them; anything else fails the test."""

    def __init__(self, seats: Seats, raspasy: bool, talon: bool = False) -> None:
        self._seats = seats
        self._may = {"sits_out", "sitters", "dummy"} | ({"active"} if raspasy else set())
        self._may |= {"dealer"} if talon else set()  # the dealer writes the talon premium

    def __getattr__(self, name: str) -> Any:
        assert name in self._may, f"rules.written read seats.{name}: add it to rules.seating"
        return getattr(self._seats, name)


#: line logs of two, three and five players (genlog writes three and four)
EXAMPLES = ("gusarik-2p.txt", "sochi-5p.txt", "classic-3p.txt", "sochi-join-leave.txt")


@pytest.mark.parametrize("convention", ["sochi", "leningrad", "rostov", "classic"])
def test_written_reads_of_the_seats_only_what_seating_names(
    convention: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scorer shares what a deal writes between deals of the same ``fold.written_key``
    (with three players: one line whoever dealt), which holds of the seats only
    ``rules.seating``; every written here reads no more, and the shared answer is the one
    written gives."""
    calls: list[Any] = []
    real = rules.written

    def guarded(res: Any, conv: Any, run: int, bomb: int = 1, dark: int = 0) -> rules.Written:
        talon = bool(getattr(res.deal, "talon", ()))
        seen = replace(res, seats=_Seen(res.seats, res.kind == "raspasy", talon))
        got = real(seen, conv, run, bomb, dark)
        calls.append((fold.written_key(res, run, bomb, dark), got))
        return got

    monkeypatch.setattr(fold, "written", guarded)
    logs = [(ROOT / "examples" / name).read_text(encoding="utf-8") for name in EXAMPLES]
    generated = ["".join(genlog.line_log(400, seed=n, players=n, convention=convention)) for n in (3, 4)]
    for text in logs + generated:
        log = read_text(text, "t.pulya")
        conv = convention_for(log.header, convention if text in generated else None)
        for _ in Scorer(log.header, conv).run(log.deals):
            pass
    assert len(calls) > 100
    by_key = {}
    for key, got in calls:
        assert by_key.setdefault(key, got) == got


def test_a_line_under_another_dealer_shares_its_writes_with_three_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three players: who deals changes nothing a contract writes, so written runs once."""
    count = {"written": 0}
    real = rules.written

    def counted(*args: Any) -> rules.Written:
        count["written"] += 1
        return real(*args)

    monkeypatch.setattr(fold, "written", counted)
    line = "Anna 6♠ 5, Boris whist 3, Vera whist 2\n"
    log = read_text("players: Anna Boris Vera\n" + line * 4, "t.pulya")
    results = [s.result() for s in Scorer(log.header, convention_for(log.header)).run(log.deals)]
    assert len({r.dealer for r in results}) == 3 and len({r.entries[0].why for r in results}) == 1
    assert count["written"] == 1


@pytest.mark.parametrize("convention", ["sochi", "leningrad", "rostov", "classic"])
def test_resolve_reads_of_the_seats_only_what_its_seating_names(convention: str) -> None:
    """The scorer shares ``resolve``'s answer between the deals of one text whose seats
    ``resolve.seating`` reads the same (with three players: whoever dealt); for every deal
    of these logs and every dealer, seats that read the same resolve the same (the seats
    themselves apart) — or, when something is wrong, wrong the same."""
    from pulyacalc.scoring.resolve import seating

    logs = [(ROOT / "examples" / name).read_text(encoding="utf-8") for name in EXAMPLES]
    generated = ["".join(genlog.line_log(300, seed=n, players=n, convention=convention)) for n in (3, 4)]
    compared = 0
    for text in logs + generated:
        log = read_text(text, "t.pulya")
        conv = convention_for(log.header, convention if text in generated else None)
        players = log.header.players
        for deal in log.deals:
            if not isinstance(deal, (Play, Raspasy)) or not set(deal.tricks) <= set(players):
                continue  # a newcomer's deal (sochi-join-leave): not at this table
            if isinstance(deal, Play) and deal.declarer not in players:
                continue
            seen: dict[tuple[object, ...], object] = {}
            for dealer in players:
                seats = Seats(players, dealer, conv.five_second_out)
                res = resolve(deal, seats, conv, Problems())
                got = None if res is None else replace(res, seats=Seats(players, players[0]))
                key = seating(deal, seats)
                if key in seen:
                    compared += 1
                    assert seen[key] == got, (deal.source, dealer)
                seen[key] = got
    assert compared > 300


def test_a_write_dated_is_an_entry() -> None:
    w = Write("whists", "A", "whists", 4, "B", "2 tricks × 2")
    assert Entry(7, *w) == Entry(7, "whists", "A", "whists", 4, "B", "2 tricks × 2")


def test_the_rulebook_has_every_rule_id_and_the_rules_every_deal_kind() -> None:
    assert set(RULEBOOK) == set(get_args(RuleId))
    assert all(r.id == k for k, r in RULEBOOK.items())
    assert set(rules._BY_KIND) == set(get_args(DealKind))


# -- Problem.code: set where a problem is found -----------------------------------------------


def test_a_problems_code_is_its_kind_unless_given() -> None:
    assert Problem(Loc("f"), "m").code == "read"
    assert Problem(Loc("f"), "m", kind="rule").code == "rule"
    problems = Problems()
    problems.add(Loc("f"), "a", kind="rule")
    problems.add(Loc("f"), "b", kind="rule", code="dealer-in-play")
    problems.add(Loc("f"), "c")
    assert [p.code for p in problems.items] == ["rule", "dealer-in-play", "read"]


def check_codes(tmp_path: Path, text: str) -> list[tuple[str, int, str]]:
    log = tmp_path / "log.txt"
    log.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(log), "-f", "json"], prog_name="pulyacalc")
    assert r.exit_code == 1, r.output
    return [(f["code"], f["line"], f["message"]) for f in json.loads(r.stdout)["findings"]]


@pytest.mark.parametrize(
    ("deal", "code", "words"),
    [
        # the talon-count error was named 'dealer-in-play' for its wording ('sits out')
        ("Anna pass 4, Boris pass 1, Vera pass 2, Dan talon 3", "rule", "at most 2 tricks"),
        ("Anna pass 4, Boris pass 1, Vera talon 5", "rule", "only the 4-player dealer"),
        ("Dan 6♠ 7, Anna whist 2, Boris pass 1", "dealer-in-play", "does not bid"),
        ("Anna 6♠ 7, Boris whist 2, Dan pass", "dealer-in-play", "does not pass or go half-whist"),
        ("Anna 6♠ 7, Boris whist 2, Vera pass, Dan whist", "dealer-in-play", "both defenders gave it up"),
        ("Anna 6♠ 7, Boris whist 2, Vera pass, Dan 1", "dealer-in-play", "he takes no tricks"),
        ("Anna 6♠ 9, Boris whist 1, Vera pass 1", "rule", "more than 10"),
    ],
)
def test_check_codes_are_set_where_the_problem_is_found(
    tmp_path: Path, deal: str, code: str, words: str
) -> None:
    (found,) = check_codes(tmp_path, "players: Anna Boris Vera Dan\nconvention: sochi\n\n" + deal + "\n")
    assert found[:2] == (code, 4) and words in found[2]


def test_the_dealers_talon_where_it_takes_none_is_dealer_in_play(tmp_path: Path) -> None:
    text = "players: A B C D\nconvention: rostov\n\nA pass 4, B pass 3, C pass 2, D pass 1\n"
    ((code, line, message),) = check_codes(tmp_path, text)
    assert (code, line) == ("dealer-in-play", 4) and "the talon takes no tricks" in message


def test_echoed_problems_keep_their_code() -> None:
    problems = Problems()
    log = read_text(FOUR + "Dan 6♠ 7, Anna whist 2, Boris pass 1\n", "t.txt", problems=problems)
    scorer = Scorer(log.header, convention_for(log.header), problems)
    deals = list(log.deals)
    assert isinstance(deals[0], Play) and scorer.step(deals[0]) is None
    (p,) = problems.items
    assert p.source and p.code == "dealer-in-play" and p.kind == "rule"
