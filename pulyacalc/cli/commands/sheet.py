"""`pulyacalc sheet LOG -o FILE.svg`: the pulya drawn as players draw it (SVG, or an HTML page)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, TypeGuard

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli import output as shared
from pulyacalc.cli.progress import log_progress
from pulyacalc.cli.runtime import emit, fail
from pulyacalc.core.errors import shown
from pulyacalc.core.i18n import N_, _, ngettext
from pulyacalc.render.view import convention_title

#: what ``-o`` may name: the suffix says what is written (``-``: SVG on standard output)
SUFFIXES = (".svg", ".html", ".png", ".pdf")
#: a PNG's resolution: an A4 page 1240 pixels wide, sharp enough to read on a phone
DPI = 150
#: the deals the page's explain table shows at most: a real evening's all of them; a longer
#: log its first so many, and a heading that says so (``explain`` shows every one)
PAGE_DEALS = 2_000


def is_drawing(value: str | None) -> TypeGuard[str]:
    """Whether ``-o`` names a drawing (FILE.svg, .html, .png or .pdf)."""
    return value is not None and Path(value).suffix.lower() in SUFFIXES


def checked_drawing(value: str | None) -> str | None:
    """``-o`` of a drawing: FILE.svg, .html, .png, .pdf or -, in a folder that exists (usage, exit 2)."""
    shared.target = None  # the drawing is written here; what is emitted goes to standard output
    if value is None or value == "-":
        return value
    misnamed = _(
        "{file}: name the file FILE.svg, FILE.html, FILE.png or FILE.pdf (or - for SVG on standard output)"
    )
    return shared.drawing_file(value, SUFFIXES, misnamed.format(file=shown(value, 0)))


DRAWING_HELP = N_(
    "Where the drawing goes: FILE.svg, FILE.html (the sheet with the score and explain tables, one "
    "self-contained page), FILE.png or FILE.pdf (the same drawing, to send round; needs the picture "
    "extra) or - (SVG on standard output)."
)
DrawingOpt = Annotated[
    str, typer.Option("-o", "--output", metavar="FILE.svg", callback=checked_drawing, help=DRAWING_HELP)
]


def write_drawing(output: str, svg: str, html: str | None = None) -> None:
    """The SVG (or, for FILE.html, the page) to standard output or written all or nothing."""
    if output == "-":
        emit(svg)
        return
    suffix = Path(output).suffix.lower()
    binary = suffix in (".png", ".pdf")
    data = picture(svg, suffix) if binary else html if html is not None and suffix == ".html" else svg
    with shared.replaced(output, binary=binary) as f:
        f.write(data)


def picture(svg: str, suffix: str) -> bytes:
    """The SVG as PNG or PDF, by cairosvg (the optional picture extra, imported only here):
    the same drawing, no second drawer."""
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError):  # OSError: the cairo library itself is missing
        says = _(
            "writing {kind} needs cairosvg: pip install 'pulyacalc[picture]' "
            "(on Debian or Ubuntu also: apt-get install libcairo2); or write FILE.svg"
        )
        raise fail(says.format(kind=suffix[1:].upper())) from None
    convert = cairosvg.svg2png if suffix == ".png" else cairosvg.svg2pdf
    return bytes(convert(bytestring=svg.encode("utf-8"), dpi=DPI))


@opts.command(*opts.but("format", "output", "quiet"))
def sheet(
    log: opts.LogArg,
    output: DrawingOpt,
    numbers: Annotated[
        bool, typer.Option("--numbers", "-n", help=N_("Write each entry's deal number beside it, small."))
    ] = False,
    *,
    run: opts.Run,
) -> None:
    """Draw the sheet as players draw it (пуля, гора, висты): each player's sector with the
    running entries, the convention in the circle, the settlement under it; one A4 page."""
    html = output != "-" and Path(output).suffix.lower() == ".html"
    write_drawing(output, *drawn(log, run.reading, run.price, numbers, html=html))


def drawn(
    log: str,
    reading: dict[str, Any],
    price: Decimal | None,
    numbers: bool = False,
    *,
    html: bool = False,
    last: int = 0,
    refresh: int = 0,
) -> tuple[str, str | None]:
    """The SVG of ``log`` and, if ``html``, the page with it and the tables (``last``: only the
    last so many deals; ``refresh``: the page reloads itself every so many seconds)."""
    from pulyacalc.play import score_file
    from pulyacalc.render.sheet_svg import SHOWN_AT_MOST, svg
    from pulyacalc.reports.pulya import Marks, traced

    # each cell's latest totals, streamed: no log is too long to draw
    marks = Marks(SHOWN_AT_MOST)
    with log_progress(log) as progress:
        first = PAGE_DEALS if html else 0  # the page's explain table: the paper after each deal
        ev = score_file(log, **reading, each=marks, progress=progress, first=first)
    n = len(ev.sheet.players)  # a player who joined has his column too (RULES.md 6.3)
    if n not in (2, 3, 4, 5):
        raise fail(_("{log}: the drawn sheet is for 2 to 5 players; this log has {n}").format(log=log, n=n))
    pulya = traced(ev, *marks.marks(), price)
    drawing = svg(pulya, numbers)
    if not html:
        return drawing, None
    from pulyacalc.render.explain import explain_table
    from pulyacalc.render.report import Report
    from pulyacalc.render.sheet_html import page
    from pulyacalc.render.table import html_tables
    from pulyacalc.reports.explain import explain

    explained = explain(ev)
    title = ev.header.title or f"{convention_title(ev.convention)}: {', '.join(ev.header.players)}"
    deals = _("Deal by deal")
    shown_deals = explained.deals[-last:] if last else explained.deals
    if last and len(shown_deals) < len(explained.deals):
        deals = ngettext("The last deal", "The last {n} deals", last).format(n=last)
    elif len(ev.results) < marks.seen:
        shown = ev.results[-1].number if ev.results else 0
        deals = ngettext(
            "Deal by deal: the first {shown} of {n} deal (pulyacalc explain shows every one)",
            "Deal by deal: the first {shown} of {n} deals (pulyacalc explain shows every one)",
            ev.deals,
        ).format(shown=shown, n=ev.deals)
    with html_tables() as made:  # the tables as HTML tables, the notes as paragraphs
        # the table `score` prints, bombs and all
        settled = (pulya.settlement, ev.deals, ev.finished, pulya.bombs, ev.changes)
        sheet_table = Report(ev.convention, ev.target, ev.sheet, *settled).table()
        tables = [
            (_("The sheet and the settlement"), sheet_table),
            (deals, explain_table(explained, shown_deals)),
        ]
    return drawing, page(title, drawing, tables, refresh, made=made)


EXAMPLES = N_(
    "pulyacalc sheet examples/sochi-3p.txt -o pulya.svg\n"
    "pulyacalc sheet evening.txt -o pulya.html  # with the score and explain tables"
)
