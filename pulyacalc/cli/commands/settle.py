"""`pulyacalc settle SHEET`: settle a finished paper sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.commands.sheet import is_drawing, write_drawing
from pulyacalc.cli.runtime import emit, fail
from pulyacalc.core.errors import shown
from pulyacalc.core.i18n import N_, _
from pulyacalc.render.formats import render

if TYPE_CHECKING:
    from pulyacalc.logs.sheet_file import PaperSheet
    from pulyacalc.render.settle import SettleReport

SHEET_HELP = N_(
    "The paper sheet as YAML (see INTERFACE.md; keys in Russian too, a cell as its entries 2.4.10), "
    "or - for stdin."
)


@opts.command(*opts.but("input_format"))
def settle(
    sheet: Annotated[str, typer.Argument(metavar="SHEET", help=SHEET_HELP)],
    run: opts.Run,
) -> None:
    """Settle a paper sheet: pools to the mountain, amnesty, average mountain, whists, total.
    With -o FILE.svg (or FILE.html) the paper is drawn, with the stages beside it."""
    from pulyacalc.logs.header import convention_for
    from pulyacalc.logs.sheet_file import read_sheet
    from pulyacalc.render.settle import SettleReport
    from pulyacalc.scoring.settlement import settle as do_settle

    price = run.price
    paper = read_sheet(sheet, run.max_yaml_bytes)
    conv = convention_for(paper.header, run.convention)
    target = paper.header.pool if paper.header.pool is not None else conv.pool_target
    result = do_settle(paper.sheet, conv, target, run.rounding or conv.rounding, price)
    report = SettleReport(conv, target, paper.sheet, result)
    if is_drawing(run.output):
        if run.format != opts.TABLE.value:
            message = _("{file} is a drawing: -f names a table's format, leave it out")
            raise opts.usage(message.format(file=shown(run.output, 0)), "-f")
        draw_paper(paper, report, run.output)
        return
    emit(render(report, run.format))


def draw_paper(paper: PaperSheet, report: SettleReport, output: str) -> None:
    """``-o FILE.svg`` (or ``.html``): the paper it came from, the stages beside it."""
    from pulyacalc.render.sheet_html import page
    from pulyacalc.render.sheet_svg import SHOWN_AT_MOST, svg
    from pulyacalc.render.table import html_tables
    from pulyacalc.reports.pulya import from_paper

    n = len(paper.header.players)
    if n not in (2, 3, 4, 5):
        raise fail(_("the drawn sheet is for 2 to 5 players; this sheet has {n}").format(n=n))
    pulya = from_paper(paper, report.convention, report.target, report.settlement, SHOWN_AT_MOST)
    stages = report.table()
    drawing = svg(pulya, stages=stages)
    title = paper.header.title or stages.split("\n", 1)[0]
    with html_tables() as made:  # the page's stages: real tables, the notes as paragraphs
        marked = report.table()
    write_drawing(output, drawing, page(title, drawing, [(_("The settlement"), marked)], made=made))


EXAMPLES = N_(
    "pulyacalc settle examples/leningrad-50-sheet.yaml\n"
    "pulyacalc settle sheet.yaml -o paper.svg  # the paper drawn with its stages"
)
