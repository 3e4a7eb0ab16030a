"""The drawn sheet of a log of any length (issue 11): `sheet` streams the log.

`sheet` used to keep every deal's result and draw the cells from all of them (a 19 MB log
took 50 s and a gigabyte).  Now each cell's totals are shown to ``pulya.Marks`` deal by
deal — a deal scored the full way as its result, a fast-path hit as its writes — which
keeps only a cell's latest ``SHOWN_AT_MOST`` totals and how many came before: no cell of
any sheet holds more.  So the drawing is the same bytes as the old way's (every deal kept,
the cells drawn from all of them), which these tests keep as the reference, on generated
logs; a log too long for a cell says how many totals its ``…`` stands for; the page's
explain table of a long log holds its first ``PAGE_DEALS`` deals and says so.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from unittest import mock

import pytest
from helpers import examples
from hypothesis import HealthCheck, given, settings
from logs_gen import logs, random_log
from test_sheet_drawing import EXAMPLES, expected, read_back, run

from pulyacalc import play
from pulyacalc.cli.commands import sheet as sheet_cmd
from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.errors import Problems, PulyaError
from pulyacalc.core.sheet import POOL, Write
from pulyacalc.logs.read import read_text
from pulyacalc.play import Evening
from pulyacalc.render import sheet_svg
from pulyacalc.reports.pulya import CellKey, Mark, Marks, Pulya, cells, traced
from pulyacalc.scoring.fold import DealResult, DealWrites, Step

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import genlog  # noqa: E402


def running_marks(players: tuple[str, ...], results: Iterable[DealResult]) -> dict[CellKey, tuple[Mark, ...]]:
    """The old way: the running totals each deal leaves in each cell it writes in.  A deal that writes
    twice in one cell (a pool entry and help, say) leaves one new total, as a pencil does;
    a deal whose entries in a cell add up to nothing leaves none."""
    total: dict[CellKey, Amount] = dict.fromkeys(cells(players), 0)
    marks: dict[CellKey, list[Mark]] = {}
    for result in results:
        touched: dict[CellKey, None] = {}
        for e in result.entries:
            key: CellKey = (e.area, e.player, e.on or "")
            total[key] = exact(total.get(key, 0) + e.amount)  # a newcomer's cells from his join
            touched[key] = None
        for key in touched:
            written = marks.setdefault(key, [])
            before = written[-1].value if written else 0
            if total[key] != before:
                written.append(Mark(total[key], result.number))
    return {k: tuple(v) for k, v in marks.items() if v}


def from_evening(ev: Evening) -> Pulya:
    """An evening scored with ``keep=True``: its entries as the paper writes them."""
    return traced(ev, running_marks(ev.sheet.players, ev.results), {})


def old_way(log: Path, html: bool, numbers: bool = False) -> str:
    """The drawing as `sheet` made it before: every deal kept, the cells drawn from all."""
    from pulyacalc.core.i18n import _
    from pulyacalc.play import score_file
    from pulyacalc.render.explain import explain_table
    from pulyacalc.render.report import Report
    from pulyacalc.render.sheet_html import page
    from pulyacalc.render.table import html_tables
    from pulyacalc.render.view import convention_title
    from pulyacalc.reports.explain import explain

    ev = score_file(str(log), keep=True, running=html)
    pulya = from_evening(ev)
    drawing = sheet_svg.svg(pulya, numbers)
    if not html:
        return drawing
    report = Report(ev.convention, ev.target, ev.sheet, pulya.settlement, ev.deals, ev.finished, pulya.bombs)
    explained = explain(ev)
    title = ev.header.title or f"{convention_title(ev.convention)}: {', '.join(ev.header.players)}"
    with html_tables() as made:
        tables = [
            (_("The sheet and the settlement"), report.table()),
            (_("Deal by deal"), explain_table(explained, explained.deals)),
        ]
    return page(title, drawing, tables, made=made)


def drawn(log: Path, out: Path, *args: str) -> str:
    code, stdout, err = run("sheet", str(log), "-o", str(out) if out.name != "-" else "-", *args)
    assert code == 0, err
    return stdout if out.name == "-" else out.read_text("utf-8")


def line_log(tmp_path: Path, deals: int, seed: int, pool: int, players: int = 3) -> Path:
    log = tmp_path / f"log-{deals}-{seed}.pulya"
    log.write_text("".join(genlog.line_log(deals, seed=seed, pool=pool, players=players)), "utf-8")
    return log


# -- the same bytes as the old way --------------------------------------------------------


@pytest.mark.parametrize(
    ("convention", "players", "deals", "seed"),
    [
        ("sochi", 3, 40, 1),
        ("leningrad", 4, 60, 2),
        ("rostov", 3, 25, 3),
        ("classic", 3, 50, 4),
        ("sochi", 4, 400, 5),
    ],
)
def test_generated_evenings_are_drawn_as_before(
    tmp_path: Path, convention: str, players: int, deals: int, seed: int
) -> None:
    log = tmp_path / "evening.yaml"
    log.write_text(random_log(seed, convention, players, deals, pool=10 * players), "utf-8")
    assert drawn(log, tmp_path / "s.svg") == old_way(log, html=False)
    assert drawn(log, tmp_path / "-", "--numbers") == old_way(log, html=False, numbers=True)
    assert drawn(log, tmp_path / "s.html") == old_way(log, html=True)


@pytest.mark.parametrize(("pool", "players"), [(300, 3), (100_000, 3), (500, 4)])
def test_a_long_line_log_is_drawn_as_before(tmp_path: Path, pool: int, players: int) -> None:
    """6,000 deals: past the first items the fast path shows its hits, after the finish
    (pool 300) and before (100,000); busy cells have more totals than ``SHOWN_AT_MOST``."""
    log = line_log(tmp_path, 6_000, seed=pool, pool=pool, players=players)
    svg = drawn(log, tmp_path / "-")
    assert svg == old_way(log, html=False)
    assert "data-left-out" in svg
    if pool != 300:
        return
    # the whole explain table, as before: every deal the full way
    with (
        mock.patch.object(sheet_cmd, "PAGE_DEALS", 20_000),
        mock.patch.object(play, "ONE_CAUSE_DEALS", 20_000),
    ):
        assert drawn(log, tmp_path / "s.html") == old_way(log, html=True)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs())
def test_the_streamed_totals_are_the_kept_ones(text: str) -> None:
    """On logs with corrections, newcomers, numbered and wrong lines, Classic's bombs: the
    totals shown to ``Marks`` (each step, lines the fold knew among them) are those of
    every deal kept; with room for 5 a cell keeps its last 5 and counts the rest."""
    problems = Problems()
    try:
        ev = play.score_log(read_text(text, "t.pulya", problems=problems), problems, keep=True)
    except PulyaError:
        return
    want = running_marks(ev.sheet.players, ev.results)
    for keep in (10**6, 5):
        marks = Marks(keep)
        problems = Problems()
        with mock.patch.object(play, "ONE_CAUSE_DEALS", 3):
            got = play.score_log(read_text(text, "t.pulya", problems=problems), problems, each=marks)
        assert got.sheet == ev.sheet and got.deals == ev.deals
        kept, earlier = marks.marks()
        assert kept == {k: v[-keep:] for k, v in want.items()}
        assert earlier == {k: len(v) - keep for k, v in want.items() if len(v) > keep}


# -- a log longer than a cell holds --------------------------------------------------------


def test_a_long_log_shows_its_latest_totals_and_how_many_came_before(tmp_path: Path) -> None:
    """With room for 40 totals a cell (and a page table of 30 deals), 3,000 deals."""
    log = line_log(tmp_path, 3_000, seed=11, pool=60)
    ev = play.score_file(str(log), keep=True)
    every = running_marks(ev.sheet.players, ev.results)
    with mock.patch.object(sheet_svg, "SHOWN_AT_MOST", 40), mock.patch.object(sheet_cmd, "PAGE_DEALS", 30):
        svg = drawn(log, tmp_path / "-")
        html = drawn(log, tmp_path / "s.html")
    assert svg.split("?>", 1)[1].lstrip() in html  # the same drawing on the page
    shown = read_back(svg, whole=False)
    want = expected(log)
    for key, values in shown.items():
        all_of_them = [m.value for m in every.get(key, ())]
        assert values == all_of_them[len(all_of_them) - len(values) :], key
        assert (values[-1] if values else 0) == want[key], key  # the true total, always
        left = re.search(
            rf'data-area="{key[0]}" data-player="{key[1]}" data-on="{key[2]}"( data-left-out="(\d+)")?', svg
        )
        assert left is not None
        assert int(left.group(2) or 0) == len(all_of_them) - len(values), key
        if left.group(2):
            assert f"(… {left.group(2)} earlier)" in svg
    assert svg.count("data-left-out") >= 6  # the busy cells
    # the page: the first 30 deals explained, and a heading that says so
    assert "Deal by deal: the first 30 of 3000 deals (pulyacalc explain shows every one)" in html
    assert html.count("<th>after deal ") == 30  # each deal's paper, a real table (issue 28 item 8)
    code, explained, _ = run("explain", str(log))
    first = explained.split("\nDeal 31 (")[0]
    from html import unescape

    heads = [line for line in first.splitlines() if line.startswith("Deal ")]
    assert len(heads) == 30 and all(f"<p>{unescape(h)}</p>" in unescape(html) for h in heads)


# -- the bound ----------------------------------------------------------------------------


class _Empty:
    """A pulya of only its players: the cells' room without any totals."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players

    def cell(self, *key: str) -> tuple[()]:
        return ()

    def before(self, *key: str) -> int:
        return 0


def test_no_cell_holds_more_totals_than_shown_at_most() -> None:
    """The roomiest cell of any sheet (portrait, and the landscape ones of `settle`) at any
    size: its lines' room over the narrowest total ("0." and a last "0"), the first line
    being the caption's."""
    from pulyacalc.render.sheet_layout import lines, sectors, width

    most = 0
    for n in (2, 3, 4):
        for side in (186.0, *range(130, 179, 2)):
            for cell in sheet_svg.cells_of(_Empty(tuple("ABCD"[:n])), sectors(n, 12.0, 16.0, float(side))):
                for size in sheet_svg.SIZES:
                    room = sum(line.room for line in lines(cell.regions, size)[1:])
                    most = max(most, 1 + int((room - width("0", size, bold=True)) / width("0.", size)))
    assert most < sheet_svg.SHOWN_AT_MOST, most


# -- a table that changes -----------------------------------------------------------------


def test_a_table_that_changes_is_drawn_with_every_column() -> None:
    """A newcomer's column was a traceback (his cells were not the header's): now every
    column on the sheet is drawn, a player who joined after the others, as score lists him."""
    log = EXAMPLES / "sochi-join-leave.txt"
    code, svg, err = run("sheet", str(log), "-o", "-")
    assert code == 0 and "Traceback" not in err, err
    cells = read_back(svg)
    want = expected(log)
    assert set(cells) == set(want) and any(p == "Nina" for _, p, _ in want)
    for key, value in want.items():
        assert (cells[key][-1] if cells[key] else 0) == value, key


def test_marks_keep_at_most_their_room() -> None:
    rng = random.Random(5)
    marks = Marks(7)
    players = ("A", "B", "C")
    for number in range(1, 500):
        w = Write("rule", players[rng.randrange(3)], POOL, rng.randint(1, 9))
        writes = DealWrites(None, (w,), ())
        marks(Step(number, number, "A", "played", writes, False, 0, 0, 1, 0, (), False, 0, (), w, None))  # type: ignore[arg-type]
    kept, earlier = marks.marks()
    assert all(len(v) <= 7 for v in kept.values())
    assert sum(len(v) for v in kept.values()) + sum(earlier.values()) == 499


def test_a_typed_sheet_with_long_running_totals_keeps_its_latest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`settle -o`: a paper typed with a running total after each of 500 deals, room for 40."""
    from pulyacalc.cli import output

    monkeypatch.setattr(output, "target", None)  # settle's -o set in this process, undone after
    rows = "".join(
        f"  - {{Anna: {{pool: {i}, mountain: 4}}, Boris: {{whists: {{Anna: {2 * i}}}}}}}\n"
        for i in range(1, 501)
    )
    paper = tmp_path / "paper.yaml"
    paper.write_text(
        "players: [Anna, Boris, Vera]\nconvention: sochi\npool: 600\nsheet:\n"
        "  Anna: {pool: 600, mountain: 4, whists: {Boris: 6}}\n"
        "  Boris: {pool: 600, mountain: 8, whists: {Anna: 1000}}\n"
        "  Vera: {pool: 600, mountain: 2}\nrunning:\n" + rows,
        "utf-8",
    )
    out = tmp_path / "paper.svg"
    with mock.patch.object(sheet_svg, "SHOWN_AT_MOST", 40):
        code, _, err = run("settle", str(paper), "-o", str(out))
    assert code == 0, err
    svg = out.read_text("utf-8")
    cells = read_back(svg, whole=False)
    pool = cells[("pool", "Anna", "")]
    assert pool[-1] == 600 and pool[:-1] == list(range(501 - len(pool) + 1, 501))
    left = re.search(r'data-area="pool" data-player="Anna" data-on="" data-left-out="(\d+)"', svg)
    assert left is not None and int(left.group(1)) + len(pool) == 501
    assert cells[("whists", "Boris", "Anna")][-1] == 1000  # 2 × 500: the last running total is the final one
    assert cells[("mountain", "Anna", "")] == [4]
