"""A log wrong on every line (issue 11): the same wrong line is read once, and each copy
is reported at its own line with the same problems."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import MAX_KEPT, MAX_SHOWN_PER_FILE, Loc, Problem, Problems, PulyaError
from pulyacalc.logs import lines
from pulyacalc.play import score_file

WRONG = "Anna 6x 7, Bob whist"


def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the line reader parses from now on, in order (``lines._parse`` watched)."""
    calls: list[str] = []
    parse = lines._parse

    def counting(text: str, *args: object, **kw: object) -> object:
        calls.append(text)
        return parse(text, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(lines, "_parse", counting)
    return calls


def test_a_wrong_line_repeated_is_read_once_and_reported_at_each_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "wrong.pulya"
    log.write_text(
        "players: Anna Boris Vera\n\n" + f"{WRONG}\n" * 3 + f"# a note\n{WRONG}\n", encoding="utf-8"
    )
    calls = parses(monkeypatch)
    with pytest.raises(PulyaError) as e:
        score_file(str(log))
    assert calls == [WRONG]  # read once
    found = e.value.problems
    per_line: dict[int, list[tuple[int, str, str]]] = {}
    for p in found:
        per_line.setdefault(p.loc.line, []).append((p.loc.column, str(p.message), str(p.hint)))
    assert sorted(per_line) == [3, 4, 5, 7]
    assert per_line[3] and all(per_line[n] == per_line[3] for n in (4, 5, 7))
    # the same as a log with the line once
    log.write_text("players: Anna Boris Vera\n\n" + f"{WRONG}\n", encoding="utf-8")
    monkeypatch.undo()  # the reader unwatched
    with pytest.raises(PulyaError) as once:
        score_file(str(log))
    assert [(p.loc.column, str(p.message), str(p.hint), p.source) for p in once.value.problems] == [
        (p.loc.column, str(p.message), str(p.hint), p.source) for p in found if p.loc.line == 3
    ]


def test_check_shows_the_first_problems_of_a_file_and_counts_the_rest(tmp_path: Path) -> None:
    log = tmp_path / "wrong.pulya"
    log.write_text("players: Anna Boris Vera\n\n" + f"{WRONG}\n" * 250, encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(log), "-f", "json"], prog_name="pulyacalc")
    assert r.exit_code == 1
    found = json.loads(r.stdout)["findings"]
    assert len(found) == MAX_SHOWN_PER_FILE + 1
    assert [f["line"] for f in found[:-1]] == sorted(f["line"] for f in found[:-1])
    assert found[-1]["message"] == "and 400 more problems not shown (500 in all; the first 100 are shown)"
    assert (found[-1]["code"], found[-1]["line"]) == ("read", 0)
    # a long log (streamed) says the same of its own count
    log.write_text("players: Anna Boris Vera\n\n" + f"{WRONG}\n" * 6000, encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(log), "-f", "jsonl"], prog_name="pulyacalc")
    found = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(found) == MAX_SHOWN_PER_FILE + 1
    assert "(12,000 in all; the first 100 are shown)" in found[-1]["message"]


def test_a_collector_keeps_a_bounded_number_and_counts_the_rest() -> None:
    assert Problems().limit == MAX_KEPT
    p = Problems(limit=3)
    for line in range(1, 6):
        p.add(Loc("f", line, 1), "wrong")
    assert len(p) == 5 and len(p.items) == 3
    with pytest.raises(PulyaError) as e:
        p.raise_if_any()
    shown = e.value.problems
    assert [q.loc.line for q in shown[:3]] == [1, 2, 3]
    assert str(shown[-1].message) == "and 2 more problems not shown (5 in all; the first 3 are shown)"


def test_a_yaml_logs_repeated_deal_is_read_once_and_scores_as_the_line_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pulyacalc.logs.read import read_log

    deals = ["Anna 6♠ 7, Boris whist 2, Vera pass 1", "Boris pass 4, Vera pass 3, Anna pass 3"] * 3
    yml = tmp_path / "log.yaml"
    yml.write_text(
        "players: [Anna, Boris, Vera]\ndeals:\n" + "".join(f"  - {d}\n" for d in deals), encoding="utf-8"
    )
    txt = tmp_path / "log.txt"
    txt.write_text("players: Anna Boris Vera\n\n" + "".join(f"{d}\n" for d in deals), encoding="utf-8")
    calls = parses(monkeypatch)
    log = read_log(str(yml))
    read = list(log.deals)
    assert sorted(calls) == sorted(set(deals))  # each text once
    assert read[0].template is not None and read[0].template is read[2].template  # type: ignore[union-attr]
    assert [d.loc.line for d in read] == [3, 4, 5, 6, 7, 8]
    assert score_file(str(yml)).sheet == score_file(str(txt)).sheet


def test_a_wrong_line_seen_before_is_not_looked_at_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a copy of a wrong line is known by its text alone: none of the reader's checks of a
    # line (a seat change? a correction?) runs for it again
    log = tmp_path / "wrong.pulya"
    log.write_text("players: Anna Boris Vera\n\n" + f"{WRONG}\n" * 5, encoding="utf-8")
    looked: list[str] = []
    corr = lines.starts_with

    def watched(text: str, *args: object, **kwargs: bool) -> bool:
        looked.append(text)
        return corr(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lines, "starts_with", watched)
    with pytest.raises(PulyaError) as e:
        score_file(str(log))
    assert looked == [WRONG, WRONG]  # a seat change? a correction?
    assert sorted({p.loc.line for p in e.value.problems}) == [3, 4, 5, 6, 7]


def test_problems_told_again_past_the_limit_are_only_counted() -> None:
    p = Problems(limit=3)
    first = [Problem(Loc("f", 2, 5), "wrong"), Problem(Loc("f", 2, 9), "also wrong")]
    p.again(first, 7)
    assert [(q.loc.line, q.loc.column) for q in p.items] == [(7, 5), (7, 9)]
    p.again(first, 8)  # one kept (the limit), one counted
    p.again(first, 9)  # both counted
    assert len(p.items) == 3 and len(p) == 6
    assert p.more_in == {"f": 3}
    p.again([], 10)
    assert len(p) == 6


def test_problems_told_again_may_stand_at_another_column() -> None:
    p = Problems()
    p.again([Problem(Loc("f", 2, 5), "wrong")], 9, shift=3)
    assert [(q.loc.file, q.loc.line, q.loc.column) for q in p.items] == [("f", 9, 8)]
