"""The caches behind `score`'s speed (issue 5): the line reader parses each distinct deal
text once (``log_lines.DealText``, lazy ``LineLocs``), and the scorer works out what a deal
writes once per (text, dealer, raspasy run).  They must change no result and no message:
the same deals read from YAML (which is never cached) score the same, a line repeated
with an error is reported at each of its own lines, and full caches are emptied safely.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import problems_of

from pulyacalc.core.errors import Loc, Problems
from pulyacalc.core.model import Play
from pulyacalc.logs import lines as log_lines
from pulyacalc.logs.header import convention_for
from pulyacalc.logs.lines import LineLocs, parse_deal_line
from pulyacalc.logs.read import read_text
from pulyacalc.scoring import fold as scoring
from pulyacalc.scoring.fold import DealResult, Scorer

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import genlog  # noqa: E402


def fold(text: str, name: str) -> tuple[list[tuple[object, ...]], object, list[str]]:
    """Every deal result (all fields but the deal's locations), the final sheet, and the
    problems, formatted, in the order they were found."""
    problems = Problems()
    log = read_text(text, name, problems=problems)
    scorer = Scorer(log.header, convention_for(log.header), problems)
    results = [_fields(s.result()) for s in scorer.run(log.deals)]
    return results, scorer.sheet.view(), [p.format() for p in problems.items]


def _fields(r: DealResult) -> tuple[object, ...]:
    d = r.deal
    what = (d.declarer, d.contract, dict(d.calls)) if isinstance(d, Play) else ()
    return (r.number, r.dealer, r.kind, r.entries, r.after_finish, r.raspasy_run, r.after_raspasy,
            *what, dict(d.tricks), d.dealer)  # fmt: skip


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("convention", ["sochi", "leningrad", "rostov"])
def test_line_log_scores_like_its_yaml_twin(players: int, convention: str) -> None:
    # 1500 deals of a few hundred distinct lines: nearly every deal is a cache hit, and
    # the small pool closes, so help and write-offs (2.8) are placed per deal
    kw = {"seed": 11, "players": players, "convention": convention, "pool": 30}
    lines = fold("".join(genlog.line_log(1500, **kw)), "a.pulya")  # type: ignore[arg-type]
    yaml = fold(genlog.yaml_log(1500, **kw), "a.yaml")  # type: ignore[arg-type]
    assert len(lines[0]) == 1500
    assert lines[0] == yaml[0]
    assert lines[1] == yaml[1]
    assert lines[2] == yaml[2] == []


def test_full_caches_are_emptied_and_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "".join(genlog.line_log(800, seed=5, players=4, convention="sochi", pool=15))
    want = fold(text, "a.pulya")
    monkeypatch.setattr(log_lines, "PARSE_CACHE_SIZE", 3)
    monkeypatch.setattr(scoring, "WRITTEN_CACHE_SIZE", 2)
    assert fold(text, "a.pulya") == want


FOUR = "players: Anna Boris Vera Dan\nconvention: sochi\n\n"


#: the hint under a dealer's pass (K3.8.8)
ONLY_RETURN = "a player out may only take the whist the defenders gave up (K3.8.8)"


def test_a_repeated_line_is_checked_for_each_dealer_and_reported_at_its_own_line() -> None:
    # the same text under four dealers: only Dan's deal is legal (the dealer sits out)
    line = "Anna 6♠, Boris pass, Vera pass"
    got = problems_of(FOUR + "\n".join([line] * 5) + "\n", "t.txt")
    assert got == [
        "t.txt:5:1: Anna deals this deal and sits out: the 4-player dealer does not bid; "
        "first hand is Boris; add 'dealer: NAME' if the rotation was different\n"
        f"    {line}\n    ^^^^",
        "t.txt:6:16: Boris deals and sits out: he does not pass or go half-whist; " + ONLY_RETURN + "\n"
        f"    {line}\n    {' ' * 15}^^^^",
        "t.txt:7:27: Vera deals and sits out: he does not pass or go half-whist; " + ONLY_RETURN + "\n"
        f"    {line}\n    {' ' * 26}^^^^",
    ]


def test_a_whole_deal_problem_underlines_each_repeat_from_its_own_number() -> None:
    # the second copy has a deal number, the third a note (the same text after both: one
    # parse); each underline starts at the line's own first clause and stops before the note
    bad = "Anna 6♠ 9, Boris whist 1, Vera pass 1"
    text = f"players: Anna Boris Vera\nconvention: sochi\n\n{bad}\n2. {bad}\n{bad}# again\n"
    got = problems_of(text, "t.txt")
    assert [g.splitlines()[0] for g in got] == [
        "t.txt:4:1: tricks add up to 11, more than 10",
        "t.txt:5:4: tricks add up to 11, more than 10",
        "t.txt:6:1: tricks add up to 11, more than 10",
    ]
    carets = [g.splitlines()[2].strip() for g in got]
    assert carets == ["^" * len(bad)] * 3


def test_line_locs_are_the_plain_locs_made_on_demand() -> None:
    line = "7. Anna 6♠ 7, Boris whist 2, Vera pass 1, dealer Vera"
    # a deal text read alone (a YAML log's) has its locs made on demand too
    plain = parse_deal_line(line, Loc("f", 3, 1), ("Anna", "Boris", "Vera"), Problems(), source=line)
    assert plain is not None and isinstance(plain.locs, LineLocs)
    assert plain.locs["contract"] == Loc("f", 3, 9) and plain.locs["calls"] is plain.loc == Loc("f", 3, 4)
    log = read_text("players: Anna Boris Vera\n\n\n" + "\n".join([line.replace("7.", "1."), line[3:]]), "f")
    deals = list(log.deals)
    first, second = deals
    assert isinstance(first.locs, LineLocs) and isinstance(second.locs, LineLocs)
    assert first.template is second.template is not None  # one parse for both lines
    assert list(first.locs) == list(plain.locs)
    # the same columns as the plain parse (line 4 vs 3); the second line has no number
    assert {k: v.column for k, v in first.locs.items()} == {k: v.column for k, v in plain.locs.items()}
    assert {k: v.column + 3 for k, v in second.locs.items()} == {k: v.column for k, v in plain.locs.items()}
    assert first.locs["contract"] == Loc("f", 4, 9)
    # the deal-as-a-whole parts are the deal's own Loc object (table._echo relies on it)
    assert first.locs["calls"] is first.loc and second.locs["tricks"] is second.loc
    assert first.loc == Loc("f", 4, 4) and second.loc == Loc("f", 5, 1)


def test_numbers_of_thousands_of_digits_are_reported_not_a_traceback() -> None:
    head = "players: Anna Boris Vera\n\n"
    got = problems_of(head + "1" * 5000 + ". Anna 6♠, Boris pass, Vera pass\n")
    assert got and got[0].startswith("t.txt:3:1: deal number 1111") and "but this is deal 1" in got[0]
    got = problems_of(head + f"Anna 6♠ {'7' * 5000}, Boris whist, Vera pass\n")
    assert len(got) == 1 and got[0].startswith("t.txt:3:9: 7777") and "is not a number of tricks" in got[0]
