"""The drawn pulya for sharing (issue 28 item 8): ``-o x.png`` and ``x.pdf`` from the same SVG
(cairosvg, the optional picture extra), a clear message with the install line without it."""

from __future__ import annotations

import json
import os
import sys
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    from pulyacalc.core.i18n import use

    use("en")
    r = runner.invoke(app, list(args), prog_name="pulyacalc", env={"PULYACALC_LANG": "en"})
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG\r\n\x1a\n"), (".pdf", b"%PDF-")])
@pytest.mark.parametrize(
    "args", [["sheet", str(EXAMPLES / "sochi-5p.txt")], ["settle", str(EXAMPLES / "sheet.yaml")]]
)
def test_png_and_pdf_are_the_drawing(tmp_path: Path, args: list[str], suffix: str, magic: bytes) -> None:
    try:  # cairosvg loads the system's cairo library (libcairo2) as it is imported
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as e:
        if os.environ.get("PULYACALC_REQUIRE_BROWSER"):  # CI installs it and must draw
            raise
        pytest.skip(f"the picture extra or the cairo library is missing: {e}")
    out = tmp_path / f"pulya{suffix}"
    code, stdout, err = run(*args, "-o", str(out))
    assert code == 0 and stdout == "", err
    data = out.read_bytes()
    assert data.startswith(magic) and len(data) > 10_000
    if suffix == ".png":  # an A4 page at 150 dpi: portrait for sheet, landscape beside the stages
        wide, high = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert (wide, high) == ((1240, 1754) if args[0] == "sheet" else (1754, 1240))


def test_without_cairosvg_the_message_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # (import cairosvg raises ImportError)
    out = tmp_path / "pulya.png"
    code, stdout, err = run("sheet", str(EXAMPLES / "sochi-3p.txt"), "-o", str(out))
    assert code == 1 and "pip install 'pulyacalc[picture]'" in err and "libcairo2" in err
    assert "Traceback" not in err and not out.exists()
    code, _, err = run("sheet", str(EXAMPLES / "sochi-3p.txt"), "-o", str(tmp_path / "x.gif"))
    assert code == 2 and "FILE.png or FILE.pdf" in err


def test_who_joined_or_left_is_marked_on_the_sheet_and_said_in_the_title() -> None:
    import xml.etree.ElementTree as ET

    log = str(EXAMPLES / "sochi-join-leave.txt")
    said = ("Nina joined after deal 3", "Lena left after deal 5")
    code, out, err = run("score", log)
    assert code == 0 and out.splitlines()[0].startswith(
        "Сочинка (Sochi), 4 players, pool to 10, 8 deals; Nina joined after deal 3, Lena left after deal 5 — "
    ), err
    code, svg, err = run("sheet", log, "-o", "-")
    root = ET.fromstring(svg.encode("utf-8"))
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert all(s in texts for s in said)
    code, svg, err = run("sheet", str(EXAMPLES / "sochi-3p.txt"), "-o", "-")
    assert "joined" not in svg and "left after" not in svg


# -- the page in a real browser at a desktop's and a phone's width -----------------------------

#: measures the page once loaded: every entry line's box (SVG units) with its cell, every
#: text's box and content, and whether the window scrolls sideways
MEASURE = """<script>
const out = {entries: [], texts: [], scroll: document.documentElement.scrollWidth, window: window.innerWidth};
for (const g of document.querySelectorAll("g.cell")) {
  for (const t of g.querySelectorAll("text.entries")) {
    const b = t.getBBox();
    out.entries.push({cell: [g.dataset.area, g.dataset.player, g.dataset.on], box: [b.x, b.y, b.width, b.height]});
  }
}
const svg = document.querySelector("svg");
for (const t of svg.querySelectorAll("text")) {
  // the box in the page's units, turned as the text is (a name at a side)
  const b = t.getBBox(), m = svg.getScreenCTM().inverse().multiply(t.getScreenCTM());
  const ps = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
    .map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
  const xs = ps.map(p => p.x), ys = ps.map(p => p.y);
  const x = Math.min(...xs), y = Math.min(...ys);
  out.texts.push({text: t.textContent, box: [x, y, Math.max(...xs) - x, Math.max(...ys) - y]});
}
parent.postMessage(JSON.stringify(out), "*");
</script>"""
#: the page in a frame as wide as a phone (a headless window is 500 pixels at least), what it
#: measured written where ``--dump-dom`` shows it
FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="{src}" style="width:1200px;height:900px;border:0"></iframe>
<iframe src="{src}" style="width:400px;height:900px;border:0"></iframe>
<script>addEventListener("message", e => {{
  const pre = document.createElement("pre"); pre.className = "measured"; pre.textContent = e.data;
  document.body.appendChild(pre);
}});</script></body></html>"""


def regions(log: Path) -> tuple[tuple[str, ...], dict[tuple[str, str, str], list[Any]]]:
    """The players, and each cell's polygons as the drawing lays them out (portrait page)."""
    from pulyacalc.play import score_file
    from pulyacalc.render.sheet_layout import sectors
    from pulyacalc.render.sheet_svg import SHOWN_AT_MOST, cells_of
    from pulyacalc.reports.pulya import Marks, traced

    marks = Marks(SHOWN_AT_MOST)
    ev = score_file(str(log), each=marks)
    pulya = traced(ev, *marks.marks())
    layout = sectors(len(pulya.players), 12.0, 16.0, 186.0)
    return pulya.players, {(c.area, c.player, c.on): c.regions for c in cells_of(pulya, layout)}


def inside(point: tuple[float, float], poly: Any, slack: float) -> bool:
    """Whether ``point`` is in the convex polygon (or within ``slack`` of its edges)."""
    sides = []
    for (ax, ay), (bx, by) in zip(poly, [*poly[1:], poly[0]], strict=True):
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 or 1.0
        sides.append(((bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)) / length)
    return all(s >= -slack for s in sides) or all(s <= slack for s in sides)


def pages(tmp_path: Path) -> list[tuple[str, Path]]:
    from test_sheet_drawing import long_evening

    logs = [
        ("2p", "gusarik-2p.txt"),
        ("3p", "sochi-3p.txt"),
        ("4p", "leningrad-4p.yaml"),
        ("5p", "sochi-5p.txt"),
        ("join", "sochi-join-leave.txt"),
    ]
    return [(k, EXAMPLES / name) for k, name in logs] + [("long", long_evening(tmp_path, 40))]


@pytest.mark.parametrize("label", ["2p", "3p", "4p", "5p", "join", "long"])
def test_the_page_fits_a_desktop_and_a_phone(tmp_path: Path, label: str) -> None:
    from browser import dom

    log = dict(pages(tmp_path))[label]
    page = tmp_path / f"{label}.html"
    code, _, err = run("sheet", str(log), "-o", str(page), "--numbers")
    assert code == 0, err
    html = page.read_text("utf-8")
    assert "<pre" not in html and html.count("<table>") >= 2  # real tables, not terminal text
    page.write_text(html.replace("</body>", MEASURE + "\n</body>"), "utf-8")
    frame = tmp_path / f"{label}-frames.html"
    frame.write_text(FRAME.format(src=page.name), "utf-8")
    text = dom(frame, size="1700,1000")
    found = [json.loads(unescape(x.split("</pre>", 1)[0])) for x in text.split('<pre class="measured">')[1:]]
    assert sorted(m["window"] for m in found) == [400, 1200]
    players, cells = regions(log)
    for measured in found:
        checked(label, measured, players, cells)


def checked(label: str, measured: dict[str, Any], players: tuple[str, ...], cells: dict[Any, Any]) -> None:
    """Names present, every line of entries in its cell, every text on the page, no scrolling."""
    assert measured["scroll"] <= measured["window"], (label, measured["window"], "scrolls sideways")
    texts = [t["text"] for t in measured["texts"]]
    for name in players:
        assert name in texts, (label, name)
    assert measured["entries"], label
    for entry in measured["entries"]:
        x, y, w, h = entry["box"]
        corners = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
        polys = cells[tuple(entry["cell"])]
        # each line of entries stays in one piece of its cell (half a millimetre of slack)
        assert any(all(inside(c, p, 0.5) for c in corners) for p in polys), (label, entry)
    for t in measured["texts"]:  # and every text on the page
        x, y, w, h = t["box"]
        assert min(x, y) >= -0.5 and x + w <= 210.5 and y + h <= 297.5, (label, t)
