"""The commands that read a log more than once, or against something, stream it (issue 11:
no 20 MB input may take more than 500 MB or 10 s): ``check --against`` compares the paper's
running totals as the deals go by and takes the fast path after the last of them;
``dispute`` and ``compare`` play each reading / convention on the fast path, keeping no
deal's result but the disputed one's.  On generated logs each gives what the old way gave
(every deal kept, the full path), and none keeps a result per deal of the whole log.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import examples
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.play import ONE_CAUSE_DEALS, score_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import genlog  # noqa: E402

runner = CliRunner()


def cli(*args: str) -> tuple[int, str]:
    r = runner.invoke(app, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    return r.exit_code, r.stdout


def line_log(tmp_path: Path, deals: int, seed: int, pool: int = 30) -> Path:
    path = tmp_path / f"g{seed}.pulya"
    path.write_text("".join(genlog.line_log(deals, seed=seed, pool=pool)), encoding="utf-8")
    return path


def _rows(view: Any) -> str:
    out = []
    for p in view.players:
        wh = ", ".join(f"{q}: {v}" for q, v in view.whists[p].items())
        out.append(f"{p}: {{pool: {view.pool[p]}, mountain: {view.mountain[p]}, whists: {{{wh}}}}}")
    return "{" + ", ".join(out) + "}"


def paper(log: Path, points: list[int], wrong: int | None) -> str:
    """A paper sheet of ``log`` with running totals after ``points`` (as the log's own
    papers, but for one more in Boris's mountain from deal ``wrong`` on)."""
    ev = score_file(str(log), running=True)
    after = {r.number: v for r, v in zip(ev.results, ev.running, strict=True)}
    text = "players: [Anna, Boris, Vera]\nsheet:\n"
    for p in ev.sheet.players:
        wh = ", ".join(f"{q}: {v}" for q, v in ev.sheet.whists[p].items())
        text += f"  {p}: {{pool: {ev.sheet.pool[p]}, mountain: {ev.sheet.mountain[p]}, whists: {{{wh}}}}}\n"
    text += "running:\n"
    for n in points:
        view = after.get(n, ev.sheet)
        if wrong is not None and n >= wrong:
            view.mountain["Boris"] += 1
        text += f"  {n}: {_rows(view)}\n"
    return text


# seed 3 names a deal past the log's end; the others are drawn in CI (helpers.examples)
@pytest.mark.parametrize("seed", sorted({3, *range(examples(4, least=1))}))
def test_check_against_a_long_log_names_the_deal_where_log_and_paper_part(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    log = line_log(tmp_path, ONE_CAUSE_DEALS + 2000, seed)  # long: the fast path after the first deals
    points = sorted(rng.sample(range(1, 400), rng.randint(1, 6)))
    if seed == 3:
        points.append(ONE_CAUSE_DEALS + 5000)  # past the log's end: named, and the full way
    wrong = rng.choice([None, *points])
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text(paper(log, points, wrong), encoding="utf-8")
    streamed = cli("check", str(log), "--against", str(sheet), "-f", "json")
    out = json.loads(streamed[1])
    parting = [f for f in out["findings"] if f["code"] == "parting-deal"]
    assert len(parting) == (wrong is not None)
    assert out["parting_deal"] is None or wrong is not None and out["parting_deal"] <= wrong


def _old_play_at(log: Any, conv: Any, problems: Any, number: int, window: int) -> Any:
    """The old way of ``dispute``: every deal kept, the full path."""
    from pulyacalc.core.model import Log, Play, Raspasy
    from pulyacalc.play import play

    ev = play(Log(log.header, tuple(log.deals), log.header_ok), conv, problems, keep=True)
    deals = [r for r in ev.results if isinstance(r.deal, Play | Raspasy)]  # a correction is no deal
    at = next((r for r in deals if r.number == number), None)
    # the table the deal was dealt at: the last seat change's before it, or the log's own
    changes = [r.table for r in ev.results[: ev.results.index(at) if at else 0] if r.table]
    table = changes[-1] if changes else log.header.players
    return ev, at, tuple(r for r in reversed(deals) if r.number < number), table


class _Anew:
    """A ``Remembered`` that keeps nothing: each value made anew."""

    def __init__(self, make: Any, size: int) -> None:
        self.make = make

    def made(self, key: Any, *more: Any) -> Any:
        return self.make(key, *more)


def _nothing_kept(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every evening played from here on keeps no deal's result (counted in the list)."""
    from pulyacalc import play

    made: list[int] = []
    real = play.Playing.evening

    def checked(self: Any, kept: Any = (), papers: Any = ()) -> Any:
        assert not kept and not papers
        made.append(self.scorer.count)
        return real(self, kept, papers)

    monkeypatch.setattr(play.Playing, "evening", checked)
    return made


@pytest.mark.parametrize("seed", range(3))
def test_dispute_streams_and_gives_what_the_old_way_gives(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pulyacalc.reports import dispute

    rng = random.Random(seed)
    log = line_log(tmp_path, 250, seed, pool=15)
    numbers = [1, 250, 251, *rng.sample(range(2, 250), 8)]
    with monkeypatch.context() as m:
        m.setattr(dispute, "_play_at", _old_play_at)
        old = {n: cli("dispute", str(log), "-d", str(n), "-f", "json") for n in numbers}
    with monkeypatch.context() as m:
        m.setattr(dispute, "WINDOW", rng.choice([1, 2, 64]))  # a short window is widened as needed
        made = _nothing_kept(m)
        for n in numbers:
            assert cli("dispute", str(log), "-d", str(n), "-f", "json") == old[n], n
        assert made and all(c == 250 for c in made)
    assert old[251][0] == 2 and old[1][0] == 0


def _compared(text: str, name: str, *, kept: bool) -> Any:
    """``compare``'s JSON, or its problems; ``kept``: the old way (every deal read first
    and kept, each convention playing them the full way)."""
    from dataclasses import replace

    from pulyacalc.core.errors import Problems, PulyaError
    from pulyacalc.logs.read import read_text
    from pulyacalc.render.compare import CompareView
    from pulyacalc.render.formats import render
    from pulyacalc.reports.compare import compare

    problems = Problems()
    try:
        log = read_text(text, name, problems=problems)
        if kept:
            log = replace(log, deals=tuple(log.deals))
        return render(CompareView(compare(log, problems)), "json")
    except PulyaError as e:
        return [(p.loc, p.message, p.hint, p.kind) for p in e.problems]


@pytest.mark.parametrize("seed", range(examples(12, least=4)))
def test_compare_streams_and_gives_what_the_old_way_gives(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from logs_gen import faults, random_log

    rng = random.Random(seed)
    n = rng.choice((3, 3, 4))
    text = list(genlog.line_log(rng.randint(5, 300), seed=seed, players=n, pool=rng.choice((5, 10, 30))))
    body = text[5:]
    if seed % 3:
        body = faults(rng, body, genlog.NAMES[:n])  # corrections, seat changes, wrong lines …
    log = "".join(text[:5] + body)
    yaml = random_log(seed, players=n, deals=rng.randint(5, 60))
    for t, name in ((log, "t.pulya"), (yaml, "t.yaml")):
        old = _compared(t, name, kept=True)
        with monkeypatch.context() as m:
            made = _nothing_kept(m)
            assert _compared(t, name, kept=False) == old
        if name == "t.pulya" and not isinstance(old, list):
            assert len(made) == 5  # each convention once, nothing kept
    # standard input: read once, its lines kept for each convention
    old = _compared(log, "<stdin>", kept=True)
    r = runner.invoke(app, ["compare", "-", "-f", "json"], input=log)
    assert r.exit_code == (1 if isinstance(old, list) else 0)
    if not isinstance(old, list):
        assert r.stdout == old


@pytest.mark.parametrize("example", sorted((Path(__file__).resolve().parents[1] / "examples").glob("*-*.*")))
def test_compare_of_each_example_is_what_the_old_way_gives(example: Path) -> None:
    text = example.read_text(encoding="utf-8")
    assert _compared(text, example.name, kept=False) == _compared(text, example.name, kept=True)


@pytest.mark.parametrize("seed", range(examples(10, least=4)))
def test_convert_remembers_each_text_and_writes_what_it_wrote_deal_by_deal(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from logs_gen import faults, random_log

    from pulyacalc.logs import write

    rng = random.Random(seed)
    n = rng.choice((3, 3, 4))
    text = list(genlog.line_log(rng.randint(5, 400), seed=seed, players=n, pool=rng.choice((5, 30))))
    body = text[5:]
    if seed % 2:
        body = faults(rng, body, genlog.NAMES[:n])  # corrections, seat changes, notes, dealers …
        # but none that does not read (convert then writes nothing): each again, elsewhere
        body = [line for line in body if "nonsense" not in line and not line[:1].isdigit()]
        body += rng.sample(body, min(len(body), 40))
    log = "".join(text[:5] + body)
    yaml = random_log(seed, players=n, deals=rng.randint(5, 60))
    for t, fmt in ((log, "lines"), (yaml, "yaml")):
        for to in ("lines", "yaml"):
            args = ["convert", "-", "--to", to, "--input-format", fmt]
            with monkeypatch.context() as m:
                m.setattr(write, "Remembered", _Anew)  # every deal written anew
                old = runner.invoke(app, args, input=t)
            assert old.exit_code == 0 and old.stdout.count("\n") > 5, old.output
            with monkeypatch.context() as m:
                m.setattr(write, "WRITTEN_SIZE", rng.choice((1, 5, 20_000)))
                new = runner.invoke(app, args, input=t)
            assert (new.exit_code, new.stdout) == (old.exit_code, old.stdout)
