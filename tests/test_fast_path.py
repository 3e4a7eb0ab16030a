"""The fold's fast path (scoring/fast.py, issue 13) gives what the full path gives.

A line log scored with nothing kept goes the fast path: a line read before in the same
state (dealer, raspasy run) only adds up what it wrote.  The same log read with its deals
handed over as a plain iterator goes the full path (every deal built, checked, placed).
On generated logs — legal ones with the lines repeated as real archives repeat them, and
the same with faults mixed in (shuffled lines, corrections, numbered and commented lines,
unreadable lines, explicit dealers, blank lines) — both give the same sheet, deal count,
finish, settlement and problems, and explain (always the full path) ends on the same paper.
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import Problems, PulyaError
from pulyacalc.evening import score_log, settle_evening
from pulyacalc.explain import explain_file
from pulyacalc.logs.lines import LineDeals
from pulyacalc.logs.read import read_text
from pulyacalc.scoring import fast

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import genlog  # noqa: E402

CONVENTIONS = ("sochi", "leningrad", "rostov", "classic")
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outcome(text: str, *, fast_path: bool, name: str = "t.pulya") -> Any:
    """Everything a score shows: the evening and its settlement, or the problems."""
    problems = Problems()
    log = read_text(text, name, problems=problems)
    assert isinstance(log.deals, LineDeals)
    if not fast_path:
        log = replace(log, deals=iter(log.deals))  # any iterable but the reader: the full path
    try:
        ev = score_log(log, problems)
    except PulyaError as e:
        return [(p.loc, p.message, p.hint, p.source, p.width, p.kind, p.code) for p in e.problems]
    try:
        settled: Any = settle_evening(ev)
    except PulyaError as e:
        settled = [p.message for p in e.problems]
    return ev.sheet, ev.deals, ev.finished, ev.target, ev.after_finish_from, settled


def faults(rng: random.Random, lines: list[str], players: tuple[str, ...]) -> list[str]:
    """The deal lines with a few of the things a hand-kept log has."""
    out = list(lines)
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(out) + 1)
        what = rng.randrange(11)
        if what == 0:
            out.insert(i, "\n")
        elif what == 1:
            out.insert(i, "# a comment\n")
        elif what == 2:
            p, q = rng.sample(players, 2)
            out.insert(i, f'correction {p} whists on {q} {rng.randint(-9, 9)} "by agreement"\n')
        elif what == 3:
            out.insert(i, f'correction {rng.choice(players)} pool {rng.randint(1, 30)} "missed"\n')
        elif what == 4 and i < len(out):
            out[i] = out[i].rstrip("\n") + "  # a note\n"
        elif what == 5 and i < len(out):
            out[i] = f"{rng.randint(1, len(out))}. {out[i]}"
        elif what == 6:
            out.insert(i, f"{rng.choice(players)} 6♠ 11, nonsense\n")
        elif what == 7 and i < len(out):
            out[i] = out[i].rstrip("\n") + f", dealer {rng.choice(players)}\n"
        elif what in (8, 9):
            # Classic's dark passes and bids (RULES.md 2.10): a bomb is state the fast
            # path does not key on, so it steps aside while one is held
            for j in range(i, len(out)):
                if what == 8 and "whist" not in out[j] and " pass " in out[j] and "misere" not in out[j]:
                    out[j] = out[j].replace(" pass ", " pass dark ", 1)
                    break
                if what == 9 and " whist " in out[j]:
                    name, rest = out[j].split(" ", 1)
                    out[j] = f"{name} dark {rest}"
                    break
        elif what == 10:
            out.insert(i, "join Eve\n")  # RULES.md 6.3: the newcomer's column is made from the paper
    if rng.random() < 0.3 and out:
        j, k = rng.randrange(len(out)), rng.randrange(len(out))
        out[j], out[k] = out[k], out[j]
    return out


@st.composite
def logs(draw: Any) -> str:
    convention = draw(st.sampled_from(CONVENTIONS))
    n = draw(st.sampled_from((3, 4)))
    pool = draw(st.sampled_from((5, 10, 20, 40)))
    deals = draw(st.integers(2, 150))
    seed = draw(st.integers(0, 10_000))
    text = list(genlog.line_log(deals, seed=seed, players=n, convention=convention, pool=pool))
    head, body = text[:5], text[5:]
    if draw(st.booleans()):
        # what a tired scorer writes: the same few lines over and over (many hits)
        few = body[: max(1, len(body) // 8)]
        rng = random.Random(seed)
        body = [rng.choice(few) for _ in body]
    if draw(st.booleans()) or convention == "classic":
        body = faults(random.Random(seed + 1), body, genlog.NAMES[:n])
    if draw(st.booleans()) and body:
        body[-1] = body[-1].rstrip("\n")  # no newline at the end
    return "".join(head + body)


@SETTINGS
@given(logs())
def test_the_fast_path_scores_as_the_full_path(text: str) -> None:
    assert outcome(text, fast_path=True) == outcome(text, fast_path=False)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs())
def test_explain_ends_on_the_paper_score_shows(text: str) -> None:
    got = outcome(text, fast_path=True)
    if isinstance(got, list):
        return  # a log with problems explains nothing
    path = Path(__file__).parent / "_fast_path_explain.pulya"
    try:
        path.write_text(text, encoding="utf-8")
        ex = explain_file(str(path))
    finally:
        path.unlink()
    assert ex.evening.sheet == got[0]
    assert ex.deals[-1].running == got[0] if ex.deals else True


def test_a_long_log_fills_and_empties_the_cache(monkeypatch: Any) -> None:
    """More distinct lines and states than the cache holds: it is emptied and fills again."""
    monkeypatch.setattr(fast, "FAST_CACHE_SIZE", 50)
    text = "".join(genlog.line_log(3000, seed=7, players=4, pool=300))
    assert outcome(text, fast_path=True) == outcome(text, fast_path=False)


def test_after_the_finish_every_write_off_is_the_full_paths() -> None:
    for convention in CONVENTIONS:
        text = "".join(genlog.line_log(2000, seed=3, convention=convention, pool=10))
        got = outcome(text, fast_path=True)
        assert got[2]  # finished early: most deals are written off
        assert got == outcome(text, fast_path=False)


def test_score_prints_the_same_through_either_path(tmp_path: Path) -> None:
    """The command line (fast path) against the Python API's full path, rendered alike."""
    text = "".join(genlog.line_log(500, seed=11, players=3, pool=30))
    path = tmp_path / "e.pulya"
    path.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(app, ["score", str(path), "-f", "json"])
    assert out.exit_code == 0
    from pulyacalc.render.formats import render
    from pulyacalc.render.report import Report

    problems = Problems()
    log = read_text(text, str(path), problems=problems)
    ev = score_log(replace(log, deals=iter(log.deals)), problems)
    report = Report(ev.convention, ev.target, ev.sheet, settle_evening(ev), ev.deals, ev.finished)
    assert render(report, "json") == out.stdout


def test_a_numbered_line_is_checked_each_time_it_is_read() -> None:
    """'2. …' read twice: right the first time, wrong the second; never learnt."""
    head = "players: Anna Boris Vera\nconvention: sochi\npool: 20\n"
    line = "Anna 6♠ 6, Boris whist 2, Vera pass 2\n"
    text = head + "".join(f"{n}. {line}" for n in (1, 2, 3, 4, 2))  # deals 2 and 5: one dealer
    got = outcome(text, fast_path=True)
    assert got == outcome(text, fast_path=False)
    assert isinstance(got, list) and "deal number 2, but this is deal 5" in got[0][1]


def test_help_around_a_pool_written_over_its_target() -> None:
    """A correction can leave one pool over the target while another is open, the pools
    adding up to the finish: help still goes to the open pool (RULES.md 2.8, 2.9)."""
    head = "players: Anna Boris Vera\nconvention: sochi\npool: 10\n"
    body = (
        'correction Anna pool 25 "carried over"\n'
        'correction Boris pool 10 "carried over"\n' + "Anna 6♠ 6, Boris whist 2, Vera pass 2\n" * 6
    )
    got = outcome(head + body, fast_path=True)
    assert got == outcome(head + body, fast_path=False)
    sheet = got[0]
    assert sheet.pool == {"Anna": 25, "Boris": 10, "Vera": 10}


def test_a_season_shares_its_caches_and_gets_each_evening_as_alone(tmp_path: Path) -> None:
    """``season`` shares the parses and what the fast path learnt between the evenings of
    the same players and convention (evening.Shared): every evening comes out as scored
    alone, its digest included (so duplicates are still found)."""
    from pulyacalc.season import score_evening, score_season

    rng = random.Random(5)
    for i in range(24):
        n = 3 if i % 3 else 4
        convention = CONVENTIONS[i % len(CONVENTIONS)]
        text = list(genlog.line_log(60, seed=i % 9, players=n, convention=convention, pool=20))
        body = faults(rng, text[5:], genlog.NAMES[:n]) if i % 4 == 0 else text[5:]
        (tmp_path / f"e{i:02}.pulya").write_text("".join(text[:5] + body), encoding="utf-8")
    season = score_season([str(tmp_path)], keep_going=True)
    assert len(season.evenings) > 12 and season.duplicates
    for ev in season.evenings:
        assert ev == score_evening(ev.source)
    for source, problems in season.failed:
        with pytest.raises(PulyaError) as e:
            score_evening(source)
        assert tuple(e.value.problems) == problems


def test_a_season_shares_what_scorers_remember_but_not_after_a_seat_change(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """The scorers of one club share what deals write (fold.memo, kept by the FastCache);
    an evening whose table changes takes its own from there, so the evenings after it,
    at the old table, are scored as alone."""
    from pulyacalc.scoring import fold
    from pulyacalc.season import score_evening, score_season

    example = Path(__file__).resolve().parents[1] / "examples" / "sochi-join-leave.txt"
    head = "players: Kostya Lena Misha\ndealer: Misha\nconvention: sochi\npool: 10\n\n"
    body = example.read_text(encoding="utf-8").split("\n\n", 1)[1]
    plain = [line for line in body.splitlines() if not line.startswith(("join", "leave"))]
    (tmp_path / "a.txt").write_text(head + "\n".join(plain[:3]) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text(head + body, encoding="utf-8")
    (tmp_path / "c.txt").write_text(head + "\n".join(plain[:3] * 2) + "\n", encoding="utf-8")
    count = {"written": 0}
    real = fold.written

    def counted(*args: Any) -> Any:
        count["written"] += 1
        return real(*args)

    monkeypatch.setattr(fold, "written", counted)
    season = score_season([str(tmp_path)])
    shared = count["written"]
    assert [ev.source for ev in season.evenings] == [str(tmp_path / f"{x}.txt") for x in "abc"]
    count["written"] = 0
    for ev in season.evenings:
        assert ev == score_evening(ev.source)
    assert shared < count["written"]


@pytest.mark.parametrize("streak", [1, 2, 16, 10**9])
def test_lines_missed_one_after_another_go_the_full_way_and_hits_resume(
    streak: int, monkeypatch: Any
) -> None:
    """After ``SLOW_STREAK`` misses in a row the fast path reads line by line the full way
    until a line is known again: the same score, problems and findings whatever the streak."""
    monkeypatch.setattr(fast, "SLOW_STREAK", streak)
    text = list(genlog.line_log(600, seed=5, players=3, pool=60))
    head, body = text[:5], text[5:]
    rng = random.Random(streak)
    few = body[:12]
    mixed: list[str] = []
    for i in range(40):
        mixed += [rng.choice(few) for _ in range(rng.randint(0, 30))]
        mixed += [f"Anna 6x {i % 7}, Bob whist\n"] * rng.randint(0, 40)  # wrong lines, some repeated
    log = "".join(head + mixed)
    assert outcome(log, fast_path=True) == outcome(log, fast_path=False)
    legal = "".join(head + [line for line in mixed if "6x" not in line])
    assert outcome(legal, fast_path=True) == outcome(legal, fast_path=False)


def test_check_finds_the_same_whatever_the_streak(tmp_path: Path, monkeypatch: Any) -> None:
    text = list(genlog.line_log(300, seed=9, players=3, pool=20))
    body = text[5:]
    log = tmp_path / "mixed.pulya"
    log.write_text("".join(text[:5] + body[:50] + ["Anna 6x 7, Bob whist\n"] * 30 + body[:200]), "utf-8")
    seen = []
    for streak in (1, 16, 10**9):
        monkeypatch.setattr(fast, "SLOW_STREAK", streak)
        r = CliRunner().invoke(app, ["check", str(log), "-f", "jsonl"], prog_name="pulyacalc")
        assert r.exit_code == 1
        seen.append(r.stdout)
    assert seen[0] == seen[1] == seen[2]
