"""`pulyacalc sheet` and `settle -o FILE.svg`: the pulya drawn as players draw it.

Read as a person and as a program would: the running entries are read back from the SVG's
text and must be the fold's own totals (the last one each cell's value in `score -f json`),
the page is rendered in a real headless browser (a screenshot that is not blank, every name
and result in its DOM), and the golden files in tests/golden/ make any change to the drawing
a visible diff.  Regenerate them after a deliberate change with

    PULYACALC_REGENERATE=1 python -m pytest tests/test_sheet_drawing.py

and look at the diff (and at the pictures) before committing it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
from browser import dom, screenshot
from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()

LOGS = {"3p": EXAMPLES / "sochi-3p.txt", "4p": EXAMPLES / "leningrad-4p.yaml"}


def run(*args: str) -> tuple[int, str, str]:
    """The command in English whatever language an earlier test chose (the golden files are
    the English page; what a person reads in Russian is the i18n tests' business)."""
    from pulyacalc.core.i18n import use

    use("en")
    r = runner.invoke(app, list(args), prog_name="pulyacalc", env={"PULYACALC_LANG": "en"})
    return r.exit_code, r.stdout, r.stderr


def _text(el: ET.Element) -> str:
    """An element's text without its deal numbers (``<tspan class="deal">``)."""
    out = el.text or ""
    for child in el:
        if child.get("class") != "deal":
            out += _text(child)
        out += child.tail or ""
    return out


def read_back(svg: str, whole: bool = True) -> dict[tuple[str, str, str], list[Fraction]]:
    """Each cell's running totals as its text shows them: (area, player, on) → values; with
    ``whole`` every total must be there, else a leading ``…`` (totals left out) is dropped."""
    root = ET.fromstring(svg.encode("utf-8"))
    cells: dict[tuple[str, str, str], list[Fraction]] = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "cell":
            continue
        key = (g.get("data-area", ""), g.get("data-player", ""), g.get("data-on", ""))
        written = "".join(_text(t) for t in g.iter(f"{SVG}text") if t.get("class") == "entries")
        values = [v for v in written.split(".") if v]
        if not whole and values[:1] == ["…"]:
            values = values[1:]
        assert "…" not in values, key
        cells[key] = [Fraction(v) for v in values]
    return cells


def expected(log: Path) -> dict[tuple[str, str, str], Fraction]:
    code, out, err = run("score", str(log), "-f", "json")
    assert code == 0, err
    sheet = json.loads(out)["sheet"]
    want: dict[tuple[str, str, str], Fraction] = {}
    for p, row in sheet.items():
        want[("pool", p, "")] = Fraction(row["pool"])
        want[("mountain", p, "")] = Fraction(row["mountain"])
        for q, v in row["whists"].items():
            want[("whists", p, q)] = Fraction(v)
    return want


OTHERS = {
    "rostov": "rostov-3p.yaml",
    "classic": "classic-3p.txt",
    "2p": "gusarik-2p.txt",
    "5p": "sochi-5p.txt",
}


@pytest.mark.parametrize("numbers", [False, True], ids=["plain", "numbers"])
@pytest.mark.parametrize("layout", [*sorted(LOGS), *OTHERS])
def test_the_entries_read_back_are_the_score(layout: str, numbers: bool) -> None:
    log = LOGS.get(layout, EXAMPLES / OTHERS.get(layout, ""))
    code, svg, err = run("sheet", str(log), "-o", "-", *(["--numbers"] if numbers else []))
    assert code == 0, err
    cells = read_back(svg)
    want = expected(log)
    assert set(cells) == set(want)  # every cell of the paper is drawn, and only those
    for key, value in want.items():
        written = cells[key]
        # JSON gives a fraction with two decimals: the drawing writes it exact (7/2)
        assert abs((written[-1] if written else 0) - value) <= Fraction(1, 200), key
        # a new total only where it changed (a mountain may come back to a value it had)
        assert all(a != b for a, b in zip([Fraction(0), *written], written, strict=False)), key


def test_the_running_totals_are_the_explained_papers_after_each_deal() -> None:
    """Each total is the cell's value after some deal in `explain -f json`, in deal order."""
    log = LOGS["3p"]
    code, out, err = run("explain", str(log), "-f", "json")
    assert code == 0, err
    papers = [d["running"] for d in json.loads(out)["deals"]]
    code, svg, err = run("sheet", str(log), "-o", "-")
    cells = read_back(svg)
    for (area, p, on), written in cells.items():
        seen = [Fraction(pp[p][area] if area != "whists" else pp[p]["whists"][on]) for pp in papers]
        changes = [v for i, v in enumerate(seen) if v != (seen[i - 1] if i else 0)]
        assert written == changes, (area, p, on)


@pytest.mark.parametrize("layout", sorted(LOGS))
def test_numbers_put_beside_each_total_the_deal_that_wrote_it(layout: str) -> None:
    log = LOGS[layout]
    code, svg, _ = run("sheet", str(log), "-o", "-", "--numbers")
    code, out, _ = run("explain", str(log), "-f", "json")
    deals = json.loads(out)["deals"]
    root = ET.fromstring(svg.encode("utf-8"))
    checked = 0
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "cell":
            continue
        area, p, on = g.get("data-area", ""), g.get("data-player", ""), g.get("data-on", "")
        shown = [int(t.text or "") for t in g.iter(f"{SVG}tspan") if t.get("class") == "deal"]
        values = [d["running"][p][area] if area != "whists" else d["running"][p]["whists"][on] for d in deals]
        wrote = [d["deal"] for i, d in enumerate(deals) if values[i] != (values[i - 1] if i else 0)]
        assert shown == wrote, (area, p, on)
        checked += len(shown)
    assert checked > 40
    # Anna's first pool entry is deal 1 (6♠ not whisted), as the log's comment says
    if layout == "3p":
        assert '2<tspan class="deal"' in svg and 'baseline-shift="super">1</tspan>' in svg


LONG_NAMES = ("Александра-Константиновна", "Бо", "Вероника-Виктория-Преображенская-Задунайская")


def long_evening(tmp_path: Path, times: int = 5) -> Path:
    """The Sochi evening ``times`` over, pool to 20 × times, with names short and very long."""
    deals = [
        line.split("#")[0].strip()
        for line in (LOGS["3p"]).read_text("utf-8").splitlines()
        if line[:4] in ("Anna", "Bori", "Vera")
    ]
    text = "\n".join(deals * times)
    for old, new in zip(("Anna", "Boris", "Vera"), LONG_NAMES, strict=True):
        text = text.replace(old, new)
    head = (
        f"players: {' '.join(LONG_NAMES)}\ndealer: {LONG_NAMES[2]}\nconvention: sochi\npool: {20 * times}\n"
    )
    log = tmp_path / "long.txt"
    log.write_text(head + "date: 2026-11-30\n\n" + text + "\n", "utf-8")
    return log


@pytest.mark.parametrize("times", [5, 40])
def test_a_long_evening_keeps_its_latest_totals_and_long_names(tmp_path: Path, times: int) -> None:
    log = long_evening(tmp_path, times)
    code, svg, err = run("sheet", str(log), "-o", "-", "--numbers")
    assert code == 0, err
    code, out, _ = run("explain", str(log), "-f", "json")
    papers = [d["running"] for d in json.loads(out)["deals"]]
    for (area, p, on), written in read_back(svg, whole=False).items():
        seen = [Fraction(pp[p][area] if area != "whists" else pp[p]["whists"][on]) for pp in papers]
        changes = [v for i, v in enumerate(seen) if v != (seen[i - 1] if i else 0)]
        assert written and written == changes[len(changes) - len(written) :], (area, p, on)
    # 1,200 deals are more than a page holds: the earliest totals give way to a `…`
    assert ("…." in svg) == (times == 40)
    root = ET.fromstring(svg.encode("utf-8"))
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    for name in LONG_NAMES:
        assert name in texts, name  # whole, at its edge of the sheet
    assert "2026-11-30" in texts


# -- golden files: any change to the drawing is a visible diff ------------------------------


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("sheet-2p.svg", ["sheet", str(EXAMPLES / "gusarik-2p.txt"), "-o", "-", "--numbers"]),
        ("sheet-3p.svg", ["sheet", str(LOGS["3p"]), "-o", "-"]),
        ("sheet-4p.svg", ["sheet", str(LOGS["4p"]), "-o", "-", "--numbers", "--whist-price", "0.5"]),
        ("sheet-5p.svg", ["sheet", str(EXAMPLES / "sochi-5p.txt"), "-o", "-", "--numbers"]),
        ("settle-3p.svg", ["settle", str(EXAMPLES / "sheet.yaml"), "-o", "{out}"]),
        ("settle-4p.svg", ["settle", str(EXAMPLES / "leningrad-50-sheet.yaml"), "-o", "{out}"]),
    ],
)
def test_the_drawing_is_its_golden_file(tmp_path: Path, name: str, args: list[str]) -> None:
    out = tmp_path / name
    code, stdout, err = run(*[a.replace("{out}", str(out)) for a in args])
    assert code == 0, err
    drawn = out.read_text("utf-8") if out.exists() else stdout
    golden = GOLDEN / name
    if os.environ.get("PULYACALC_REGENERATE"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(drawn, "utf-8")
    assert drawn == golden.read_text("utf-8"), (
        f"the drawing changed: PULYACALC_REGENERATE=1 to accept ({name})"
    )


def test_the_same_log_gives_the_same_bytes(tmp_path: Path) -> None:
    """Two processes, two hash seeds: nothing in the file depends on the run."""
    outs = []
    for i in range(2):
        out = tmp_path / f"run{i}.html"
        subprocess.run(
            [sys.executable, "-m", "pulyacalc", "sheet", str(LOGS["4p"]), "-o", str(out)],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": str(i + 1)},
        )
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


# -- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["-o", "s.gif"], "name the file FILE.svg, FILE.html, FILE.png or FILE.pdf"),
        (["-o", "no/such/dir/s.svg"], "no such directory"),
        ([], "Missing option"),
    ],
)
def test_a_wrong_output_is_a_usage_error(args: list[str], says: str) -> None:
    code, out, err = run("sheet", str(LOGS["3p"]), *args)
    assert code == 2 and out == ""
    assert says in err


def test_the_file_is_written_all_or_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("players: A B C\n\nA 6♠ 5, B whist 3, C pass 9\n", "utf-8")
    svg = tmp_path / "s.svg"
    svg.write_text("the old picture", "utf-8")
    code, out, err = run("sheet", str(bad), "-o", str(svg))
    assert code == 1 and f"{bad}:" in err and "Traceback" not in err
    assert svg.read_text("utf-8") == "the old picture"
    code, out, err = run("sheet", str(LOGS["3p"]), "-o", str(svg))
    assert code == 0 and out == "" and svg.read_text("utf-8").startswith("<?xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "s.svg"]


def test_six_players_are_told_the_sheet_is_for_two_to_five(tmp_path: Path) -> None:
    log = tmp_path / "six.txt"
    log.write_text("players: A B C D E F\n\n", "utf-8")
    code, out, err = run("sheet", str(log), "-o", "-")
    assert code == 1 and "2 to 5 players" in err and out == ""


def test_settle_draws_the_paper_and_keeps_its_table(tmp_path: Path) -> None:
    sheet = EXAMPLES / "sheet.yaml"
    code, table, _ = run("settle", str(sheet))
    svg = tmp_path / "paper.svg"
    code, out, err = run("settle", str(sheet), "-o", str(svg))
    assert code == 0 and out == "", err
    drawn = svg.read_text("utf-8")
    cells = read_back(drawn)
    assert cells[("pool", "A", "")] == [14] and cells[("whists", "C", "B")] == [4]
    assert cells[("whists", "A", "C")] == []  # a 0 on paper is no entry
    root = ET.fromstring(drawn.encode("utf-8"))
    beside = " ".join(t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "mono")
    assert beside.split() == table.split()  # the stages, word for word, beside the paper
    code, out, err = run("settle", str(sheet), "-o", str(tmp_path / "t.txt"))
    assert code == 0 and (tmp_path / "t.txt").read_text("utf-8") == table  # other files: the table
    code, out, err = run("settle", str(sheet), "-o", str(svg), "-f", "json")
    assert code == 2 and "'-f'" in err


@pytest.mark.parametrize("log", [LOGS["3p"], EXAMPLES / "classic-3p.txt"], ids=["sochi", "classic"])
def test_the_page_is_one_file_that_needs_nothing_else(tmp_path: Path, log: Path) -> None:
    page = tmp_path / "pulya.html"
    code, out, err = run("sheet", str(log), "-o", str(page))
    assert code == 0 and out == "", err
    html = page.read_text("utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.count("<svg ") == 1
    lowered = html.lower()
    for outside in ("<script", "<link", "@import", "url(", "src=", "https:"):
        assert outside not in lowered, outside
    assert lowered.count("http:") == 1  # the SVG namespace, which is a name, not a fetch
    score = run("score", str(log))[1]
    explained = run("explain", str(log))[1]
    import re
    from html import unescape

    # the tables' every word in order, as real HTML tables (no terminal text in a <pre>)
    said = " ".join(unescape(re.sub("<[^>]+>", " ", html[html.index("</svg>") :])).split())
    for table in (score, explained):
        assert " ".join(w for w in table.split() if w.strip("-")) in said  # (not the rules)
    assert "<pre" not in html and "<table>" in html
    # Classic's bombs («ёлочка») under the drawn sheet too, as score states them
    bombs = [line for line in score.splitlines() if "ёлочка" in line]
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert all(unescape(b) in unescape(svg) for b in bombs) and bool(bombs) == ("classic" in log.name)


RUNNING_SHEET = """players: [Anna, Boris, Vera]
convention: sochi
pool: 20
sheet:
  Anna:  {pool: 20, mountain: 12, whists: {Boris: 56, Vera: 78}}
  Boris: {pool: 20, mountain: 36, whists: {Anna: 34, Vera: 50}}
  Vera:  {pool: 20, mountain: 39, whists: {Anna: 10, Boris: 66}}
running:
  10: {Anna: {pool: 8, mountain: 4}, Boris: {pool: 6, mountain: 14, whists: {Anna: 12}}}
  20: {Anna: {pool: 16, mountain: 4}}
"""


def test_a_typed_sheet_is_drawn_with_the_running_totals_it_gives(tmp_path: Path) -> None:
    sheet = tmp_path / "paper.yaml"
    sheet.write_text(RUNNING_SHEET, "utf-8")
    page = tmp_path / "paper.html"
    code, out, err = run("settle", str(sheet), "-o", str(page))
    assert code == 0 and out == "", err
    html = page.read_text("utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html
    svg = html[html.index("<svg") : html.index("</svg>") + 6]
    cells = read_back(svg)
    assert cells[("pool", "Anna", "")] == [8, 16, 20]
    assert cells[("mountain", "Anna", "")] == [4, 12]  # the same 4 twice is written once
    assert cells[("whists", "Boris", "Anna")] == [12, 34]
    assert cells[("whists", "Vera", "Boris")] == [66]  # no running total given: the final one


# -- as a person sees it ---------------------------------------------------------------------


def ink(png: Path, below: int) -> float:
    """The share of the screenshot with a channel darker than ``below`` (0–255)."""
    from matplotlib.image import imread

    pixels = imread(str(png))[:, :, :3]
    return float(((pixels * 255).round() < below).any(axis=2).mean())


@pytest.mark.parametrize(
    ("page", "args"),
    [
        ("sheet-3p.svg", ["sheet", str(LOGS["3p"])]),
        ("sheet-4p.html", ["sheet", str(LOGS["4p"]), "--whist-price", "0.5", "--numbers"]),
        ("settle-3p.svg", ["settle", str(EXAMPLES / "sheet.yaml")]),
    ],
)
def test_the_page_renders_in_a_real_browser(tmp_path: Path, page: str, args: list[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / page
    code, _, err = run(*args, "-o", str(out))
    assert code == 0, err
    png = tmp_path / "shot.png"
    landscape = args[0] == "settle"
    screenshot(out, png, "1123,794" if landscape else "794,1123")
    assert ink(png, 250) > 0.25, "the page is (almost) blank: no tinted sheet"
    assert ink(png, 100) > 0.004, "no lines or text to be seen"
    text = dom(out)
    assert "parsererror" not in text and "This page contains the following errors" not in text
    code, doc, _ = run("settle" if landscape else "score", str(Path(args[1])), "-f", "json")
    result = json.loads(doc)
    for player, value in result["settlement"].items():
        assert player in text, player
        shown = f"{value:+.2f}" if isinstance(value, float) else f"{value:+d}" if value else "0"
        assert shown in text, (player, shown)
