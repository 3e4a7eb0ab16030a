"""The drawn sheet as SVG on one A4 page, the settlement under it (``sheet``) or the stages beside it
(``settle``); plain strings: the same pulya, the same bytes (what a program reads: docs/INTERFACE.md)."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import accumulate
from math import dist
from xml.sax.saxutils import escape, quoteattr

from pulyacalc.core.amounts import num
from pulyacalc.core.i18n import _, ngettext
from pulyacalc.core.sheet import MOUNTAIN, POOL, WHISTS
from pulyacalc.render.sheet_layout import (
    CIRCLE,
    LEADING,
    POOL_TO,
    WHISTS_TO,
    Line,
    Polygon,
    Sector,
    flow,
    lerp,
    lines,
    sectors,
    slice_of,
    width,
    window,
)
from pulyacalc.render.sheet_text import MONO, settlement_block, stages_block, stages_lines, stages_size
from pulyacalc.render.svg_canvas import Canvas, f, fitted
from pulyacalc.render.view import convention_title, counted, table_changes
from pulyacalc.reports.pulya import Mark, Pulya

#: lines of text, the first one used, and each used line's token indices
Placed = tuple[list[Line], int, list[list[int]]]
#: a total as written: its text, deal number, whether the last, width
Token = tuple[str, str, bool, float]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
#: the entries' font sizes tried, largest first (mm); the whole sheet takes the largest that fits
SIZES = (4.4, 4.2, 4.0, 3.8, 3.6, 3.4, 3.2, 3.0, 2.8, 2.6, 2.4, 2.2, 2.0)
#: more totals than any cell holds at any size (test_sheet_stream.py): a long log keeps this many per cell
SHOWN_AT_MOST = 2_000
CAPTION = 2.4
#: the tint of each area (the paper is white; a screen reads the bands faster tinted)
TINT = {WHISTS: "#f4f6fb", POOL: "#eef7ee", MOUNTAIN: "#fbefec"}
STYLE = (
    f"text{{font-family:{FONT};fill:#1a1a1a}}.mono{{font-family:{MONO};white-space:pre}}"
    ".caption{fill:#6b6b6b;font-style:italic}.deal{fill:#8a5a00}"
    ".rule{stroke:#333;stroke-width:0.35;fill:none}.thin{stroke:#666;stroke-width:0.2;fill:none}"
)


@dataclass
class Cell:
    """One cell of the paper to write: where, its caption, its latest totals after ``earlier`` not kept."""

    area: str
    player: str
    on: str
    regions: list[Polygon]
    marks: tuple[Mark, ...]
    earlier: int = 0
    #: per ``numbers``: each total's token at size 1 and the widths' sums from it on, measured once
    _measured: dict[bool, tuple[list[Token], list[float]]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.earlier + len(self.marks)

    def measured(self, numbers: bool) -> tuple[list[Token], list[float]]:
        if numbers not in self._measured:
            last = len(self.marks) - 1
            items: list[Token] = []
            for i, m in enumerate(self.marks):
                text = num(m.value) + ("" if i == last else ".")
                deal = str(m.deal) if numbers and m.deal else ""
                em = width(text, 1.0, bold=i == last) + (width(deal, 0.6) + 0.1 if deal else 0.0)
                items.append((text, deal, i == last, em))
            # after[i]: the widths from total i on, summed from the last as they were
            after = [*accumulate((t[3] for t in reversed(items)), initial=0.0)][::-1]
            self._measured[numbers] = (items, after)
        return self._measured[numbers]

    def tokens(self, size: float, numbers: bool, start: int = 0) -> list[Token]:
        """(text, deal number, last, width) per total from ``start``; a first ``…`` when some are left out."""
        items = self.measured(numbers)[0]
        out = [("….", "", False, width("….", size))] if start else []
        return out + [(text, deal, last, em * size) for text, deal, last, em in items[start - self.earlier :]]

    def placement(self, size: float, numbers: bool, start: int = 0) -> Placed | None:
        """Where the totals from ``start`` go: centred in one region, else from the top (None: no fit)."""
        if start < self.earlier:
            return None
        need = (self.measured(numbers)[1][start - self.earlier] + (width("….", 1.0) if start else 0.0)) * size
        if need > sum(line.room for line in lines(self.regions, size)[1:]):
            return None  # more than all the lines together hold: no need to try them
        widths = [t[3] for t in self.tokens(size, numbers, start)]
        # the first line of the room is the caption's, never the totals'
        for region in self.regions:
            room = lines([region], size)
            found = window(widths, room[1:])
            if found is not None:
                return room, found[0] + 1, found[1]
        room = lines(self.regions, size)
        placed = flow(widths, room[1:])
        return None if placed is None else (room, 1, placed)


def cells_of(pulya: Pulya, layout: tuple[Sector, ...]) -> list[Cell]:
    """The cells of each sector, with the regions they are written in."""
    players = pulya.players
    out: list[Cell] = []
    for sector in layout:
        p = players[sector.seat]
        regions: dict[tuple[str, str], list[Polygon]] = {
            (POOL, ""): [pc.band(WHISTS_TO, POOL_TO) for pc in sector.pieces],
            (MOUNTAIN, ""): [pc.band(POOL_TO, 1 - CIRCLE) for pc in sector.pieces],
        }
        for piece, k, m, seat in sector.columns:
            column = slice_of(sector.pieces[piece].band(0, WHISTS_TO), k, m)
            regions.setdefault((WHISTS, players[seat]), []).append(column)
        for (area, q), where in regions.items():
            out.append(Cell(area, p, q, where, pulya.cell(area, p, q), pulya.before(area, p, q)))
    return out


def write_cell(cv: Canvas, cell: Cell, size: float, numbers: bool) -> None:
    named = {POOL: _("pool"), MOUNTAIN: _("mountain")}
    caption = named.get(cell.area) or _("on {player}").format(player=cell.on)
    start = 0
    found = cell.placement(size, numbers)
    if found is None and cell.total > 1:
        # the fewest earliest totals that must give way to an ellipsis, found by halving
        fit = range(1, cell.total - 1)
        start = 1 + bisect_left(fit, True, key=lambda k: cell.placement(size, numbers, k) is not None)
        found = cell.placement(size, numbers, start)
    if found is None:  # not even the last total fits: it is written anyway, over the lines
        room = lines(cell.regions, size) or [Line(0, 0, 0)]
        found = room, 0, [list(range(len(cell.tokens(size, numbers, start))))]
    room, first, placed = found
    tokens = cell.tokens(size, numbers, start)
    attrs = f"data-area={quoteattr(cell.area)} data-player={quoteattr(cell.player)}"
    attrs += f" data-on={quoteattr(cell.on)}"
    title = caption
    if start:  # how many totals the … stands for: a person reads it in the caption
        attrs += f' data-left-out="{start}"'
        title = _("{caption} (… {n} earlier)").format(caption=caption, n=start)
    cv.add(f'<g class="cell" {attrs}>')
    if room and room[0].room > 0:
        top = room[min(first, len(room) - 1)]
        y = top.y - size * LEADING * 0.8 if placed and placed[0] else top.y
        label, tiny = fitted(title, CAPTION, top.room, least=1.6)
        if label != title:  # no room for the count: the caption as it is, the count in its title
            label, tiny = fitted(caption, CAPTION, top.room, least=1.6)
        cv.text(top.x + top.room / 2, y, label, tiny, anchor="middle", cls="caption", title=title)
    for line, idx in zip(room[first:], placed, strict=False):
        if not idx:
            continue
        inner = ""
        for i in idx:
            text, deal, last = tokens[i][:3]
            value, dot = (text[:-1], ".") if text.endswith(".") else (text, "")
            shown = f'<tspan font-weight="bold">{escape(value)}</tspan>' if last else escape(value)
            if deal:
                sup = f'font-size="{f(size * 0.6)}" baseline-shift="super"'
                shown += f'<tspan class="deal" {sup}>{deal}</tspan>'
            inner += shown + dot
        x = f(line.x + line.room / 2)
        at = f'x="{x}" y="{f(line.y)}" font-size="{f(size)}" text-anchor="middle"'
        cv.add(f'<text class="entries" {at}>{inner}</text>')
    cv.add("</g>")


def draw_paper(cv: Canvas, pulya: Pulya, x0: float, y0: float, side: float, numbers: bool) -> None:
    """The square, its bands and sectors, every cell, the names round it and the circle."""
    n = len(pulya.players)
    layout = sectors(n, x0, y0, side)
    c = (x0 + side / 2, y0 + side / 2)
    for sector in layout:
        for piece in sector.pieces:
            cv.poly(piece.band(0, WHISTS_TO), TINT[WHISTS])
            cv.poly(piece.band(WHISTS_TO, POOL_TO), TINT[POOL])
            cv.poly(piece.band(POOL_TO, 1), TINT[MOUNTAIN])
    half = side / 2
    for share in (0, WHISTS_TO, POOL_TO):  # the edge, then the bands' inner edges
        d = share * half
        box = f'x="{f(x0 + d)}" y="{f(y0 + d)}" width="{f(side - 2 * d)}" height="{f(side - 2 * d)}"'
        cv.add(f'<rect {box} class="{"thin" if share else "rule"}"/>')
    # the sectors' borders: from the circle to each point of the edge two sectors share
    owned = [dict.fromkeys(pt for pc in sector.pieces for pt in (pc.a, pc.b)) for sector in layout]
    edge = dict.fromkeys(pt for points in owned for pt in points)
    for end in (pt for pt in edge if sum(pt in points for points in owned) > 1):
        cv.line(lerp(c, end, CIRCLE), end)
    for sector in layout:
        for index, k, m, _seat in sector.columns:
            band = sector.pieces[index].band(0, WHISTS_TO)
            for j in range(1, m) if k == 0 else ():
                a0, b0, b1, a1 = band
                cv.line(lerp(a0, b0, j / m), lerp(a1, b1, j / m), "thin")
        if n == 3 and len(sector.pieces) == 2:  # the side players of three: a side and half the top
            corner = sector.pieces[0].a
            cv.line(corner, lerp(corner, c, WHISTS_TO), "thin")
        if n == 5:  # a share that turns a corner: its whist columns part there
            for piece in sector.pieces[1:]:
                cv.line(piece.a, lerp(piece.a, c, WHISTS_TO), "thin")
    cells = cells_of(pulya, layout)
    # the largest size at which every cell holds all its totals (the smallest size else)
    fits = (size for size in SIZES if all(c.placement(size, numbers) is not None for c in cells))
    size = next(fits, SIZES[-1])
    for cell in cells:
        write_cell(cv, cell, size, numbers)
    draw_names(cv, pulya, layout, x0, y0, side)
    draw_circle(cv, pulya, c, CIRCLE * half)


def draw_names(
    cv: Canvas, pulya: Pulya, layout: tuple[Sector, ...], x0: float, y0: float, side: float
) -> None:
    """Each player's name outside his edge of the square (of five, outside his longest piece)."""
    players = pulya.players
    n = len(players)
    mid = (x0 + side / 2, y0 + side / 2)
    bottom, left = (mid[0], y0 + side + 5.2, 0), (x0 - 1.6, mid[1], -90)
    top, right = (mid[0], y0 - 1.8, 0), (x0 + side + 1.6, mid[1], 90)
    if n == 5:
        places, rooms = [], []
        for sector in layout:
            (ax, ay), (bx, by) = max(((pc.a, pc.b) for pc in sector.pieces), key=lambda ab: dist(*ab))
            x, y = (ax + bx) / 2, (ay + by) / 2
            at = {y0 + side: bottom, x0: left, y0: top}.get(y if ay == by else x, right)
            places.append((x, at[1], 0) if ay == by else (at[0], y, at[2]))
            rooms.append(dist((ax, ay), (bx, by)) * 0.9)
    else:
        places = {2: [bottom, top], 3: [bottom, left, right], 4: [bottom, left, top, right]}[n]
        rooms = [side * 0.9] * n
    for p, (x, y, rot), room in zip(players, places, rooms, strict=True):
        text, size = fitted(p, 4.4, room, least=3.0)
        cv.text(x, y, text, size, anchor="middle", bold=True, rotate=rot, title=p)
        said = "; ".join(table_changes(pulya.changes, p))
        if said:  # who joined or left, and when: under his name, further out
            dx, dy = {-90: (-4.6, 0.0), 90: (4.6, 0.0)}.get(rot, (0.0, -4.6 if y < y0 else 3.4))
            shown, small = fitted(said, CAPTION, room, least=1.6)
            cv.text(x + dx, y + dy, shown, small, anchor="middle", cls="caption", rotate=rot, title=said)


def draw_circle(cv: Canvas, pulya: Pulya, c: tuple[float, float], r: float) -> None:
    """The centre: the convention, the pool's target, the date."""
    cv.add(f'<circle cx="{f(c[0])}" cy="{f(c[1])}" r="{f(r)}" fill="#ffffff" class="rule"/>')
    pool = _("pool to {target}").format(target=pulya.target)
    rows = [(pulya.convention.title, 3.0, True), (pool, 3.6, True)]
    if pulya.header.date:
        rows.append((pulya.header.date, 2.8, False))
    if pulya.deals is not None:
        rows.append((counted(pulya.deals, "deal"), 2.4, False))
    y = c[1] - sum(s * LEADING for _t, s, _b in rows) / 2
    for text, size, bold in rows:
        y += size * LEADING
        base = y - size * 0.3
        dy = max(abs(base - c[1]), abs(base - size - c[1]))
        chord = 2 * max(0.0, r * r - dy * dy) ** 0.5 - 2
        shown, small = fitted(text, size, chord, least=1.8)
        cv.text(c[0], base, shown, small, anchor="middle", bold=bold, title=text)


def beside(stages: str) -> float:
    """The side of the sheet on a landscape page: the largest (to 178) leaving the stages beside it 2.6."""
    out, cols = stages_lines(stages)

    def size(side: int) -> float:
        return stages_size(out, cols, 297.0 - 10 - side - 14, 178)

    want = min(2.6, size(130))
    return float(next(side for side in range(178, 129, -2) if size(side) >= want - 1e-9))


def svg(pulya: Pulya, numbers: bool = False, stages: str | None = None) -> str:
    """The page: portrait with the settlement under the sheet, or landscape with ``stages`` beside it."""
    cv = Canvas()
    if stages is None:
        w, h, x0, y0, side = 210.0, 297.0, 12.0, 16.0, 186.0
    else:
        w, h, x0, y0, side = 297.0, 210.0, 10.0, 16.0, beside(stages)
    n = len(pulya.players)
    line = ngettext(
        "{convention}, {n} player, pool to {target}", "{convention}, {n} players, pool to {target}", n
    )
    head = line.format(convention=convention_title(pulya.convention), n=n, target=pulya.target)
    head += "".join(" · " + x for x in (pulya.header.title, pulya.header.place, pulya.header.date) if x)
    text, size = fitted(head, 3.2, w - 20, least=2.2)
    cv.text(10, 7, text, size, cls="caption", title=head)
    draw_paper(cv, pulya, x0, y0, side, numbers)
    if stages is None:
        settlement_block(cv, pulya, x0, y0 + side + 12, w - 2 * x0, h - (y0 + side + 12) - 6)
    else:
        stages_block(cv, stages, x0 + side + 8, y0, w - (x0 + side + 8) - 6, side)
    head_xml = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" '
        f'height="{h:g}mm" viewBox="0 0 {w:g} {h:g}">\n<style>{STYLE}</style>\n'
        f'<rect x="0" y="0" width="{w:g}" height="{h:g}" fill="#ffffff"/>\n'
    )
    return head_xml + "\n".join(cv.parts) + "\n</svg>\n"
