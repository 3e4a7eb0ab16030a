"""Where things go on the drawn sheet: a sector per player banded from the edge in (whists, pool, mountain),
the lines of text in them, upright, widths estimated from DejaVu Sans (the widest font the page names)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

Point = tuple[float, float]
Polygon = tuple[Point, ...]

#: the bands, as a share of the distance from the edge to the centre
WHISTS_TO = 0.36
POOL_TO = 0.59
#: the circle's radius, as a share of that distance
CIRCLE = 0.22
#: line height, as a share of the font size
LEADING = 1.3
#: room kept between text and a line of the drawing
PAD = 1.1


#: the advances (ems) of the narrow characters; digits and small letters take 0.64
_NARROW = dict.fromkeys(".,:;'|!il ", 0.34) | dict.fromkeys("-/()[]·", 0.4)


def width(text: str, size: float, bold: bool = False) -> float:
    """The estimated width of ``text`` at ``size`` (DejaVu Sans advances, rounded up)."""
    em = 0.0
    for ch in text:
        if ch in _NARROW:
            em += _NARROW[ch]
        else:
            em += 0.64 if ch.isdigit() or ch.islower() else 0.78 if ch.isupper() else 1.0
    return em * size * (1.1 if bold else 1.0)


def lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


@dataclass(frozen=True)
class Piece:
    """A triangle of the sheet: apex at the centre, outer edge from ``a`` to ``b``."""

    centre: Point
    a: Point
    b: Point

    def band(self, d0: float, d1: float) -> Polygon:
        """The trapezoid between the shares ``d0`` and ``d1`` of the way in from the edge."""
        c = self.centre
        return (lerp(self.a, c, d0), lerp(self.b, c, d0), lerp(self.b, c, d1), lerp(self.a, c, d1))


def slice_of(band: Polygon, k: int, m: int) -> Polygon:
    """The k-th of m equal slices of a band, from its ``a`` end."""
    a0, b0, b1, a1 = band
    t0, t1 = k / m, (k + 1) / m
    return (lerp(a0, b0, t0), lerp(a0, b0, t1), lerp(a1, b1, t1), lerp(a1, b1, t0))


@dataclass(frozen=True)
class Sector:
    """One player's part of the sheet: its pieces (text flows through them in order) and its whist
    columns: (piece, slice, of slices, the opponent's seat), an opponent's flowing in order."""

    seat: int
    pieces: tuple[Piece, ...]
    columns: tuple[tuple[int, int, int, int], ...]


def sectors(n: int, x0: float, y0: float, side: float) -> tuple[Sector, ...]:
    """The sectors for ``n`` players (2 to 5) in the square at (x0, y0); seat 0 at the bottom, clockwise."""
    if n == 5:
        return _around(n, x0, y0, side)
    tl, tr, br, bl = (x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)
    c = (x0 + side / 2, y0 + side / 2)
    if n == 4:
        return (
            Sector(0, (Piece(c, bl, br),), ((0, 0, 3, 1), (0, 1, 3, 2), (0, 2, 3, 3))),
            Sector(1, (Piece(c, tl, bl),), ((0, 0, 3, 2), (0, 1, 3, 3), (0, 2, 3, 0))),
            Sector(2, (Piece(c, tl, tr),), ((0, 0, 3, 1), (0, 1, 3, 0), (0, 2, 3, 3))),
            Sector(3, (Piece(c, tr, br),), ((0, 0, 3, 2), (0, 1, 3, 1), (0, 2, 3, 0))),
        )
    if n == 3:
        tm = (x0 + side / 2, y0)
        return (
            Sector(0, (Piece(c, bl, br),), ((0, 0, 2, 1), (0, 1, 2, 2))),
            Sector(1, (Piece(c, tl, bl), Piece(c, tl, tm)), ((0, 0, 1, 0), (1, 0, 1, 2))),
            Sector(2, (Piece(c, tr, br), Piece(c, tm, tr)), ((0, 0, 1, 0), (1, 0, 1, 1))),
        )
    if n == 2:
        ml, mr = (x0, y0 + side / 2), (x0 + side, y0 + side / 2)
        # the whist column on the other runs through all three pieces of his half
        on = [tuple((piece, 0, 1, other) for piece in range(3)) for other in (1, 0)]
        return (
            Sector(0, (Piece(c, bl, br), Piece(c, ml, bl), Piece(c, br, mr)), on[0]),
            Sector(1, (Piece(c, tl, tr), Piece(c, tl, ml), Piece(c, mr, tr)), on[1]),
        )
    raise ValueError(f"a drawn sheet is for 2 to 5 players, not {n}")


def _edge(p: float, x0: float, y0: float, side: float) -> Point:
    """The point ``p`` of the way round the edge clockwise as players sit, from the bottom right corner."""
    k, t = divmod(round(p % (4 * side), 6), side)  # (rounded: a share's end is its neighbour's start)
    return [(x0 + side - t, y0 + side), (x0, y0 + side - t), (x0 + t, y0), (x0 + side, y0 + t)][int(k)]


def _around(n: int, x0: float, y0: float, side: float) -> tuple[Sector, ...]:
    """Equal shares of the edge, seat 0's centred at the bottom; the whist columns go to pieces by length."""
    c, share = (x0 + side / 2, y0 + side / 2), 4 * side / n
    out = []
    for seat in range(n):
        start = side / 2 + (seat - 0.5) * share
        cuts = [start, *(k * side for k in range(9) if start < k * side < start + share), start + share]
        pieces = [
            (b - a, Piece(c, _edge(a, x0, y0, side), _edge(b, x0, y0, side))) for a, b in pairwise(cuts)
        ]
        counts = [0] * len(pieces)
        for _ in range(n - 1):  # each column to the piece that gives it the widest slice
            i = max(range(len(pieces)), key=lambda i: pieces[i][0] / (counts[i] + 1))
            counts[i] += 1
        on = iter((seat - j) % n for j in range(1, n))
        columns = tuple((i, k, m, next(on)) for i, m in enumerate(counts) for k in range(m))
        out.append(Sector(seat, tuple(pc for _, pc in pieces), columns))
    return tuple(out)


def span(poly: Polygon, y: float) -> tuple[float, float] | None:
    """Where the horizontal line at ``y`` crosses a convex polygon (None: it does not)."""
    xs: list[float] = []
    for i, (ax, ay) in enumerate(poly):
        bx, by = poly[(i + 1) % len(poly)]
        if ay == by:
            if ay == y:
                xs += [ax, bx]
        elif min(ay, by) <= y <= max(ay, by):
            xs.append(ax + (bx - ax) * (y - ay) / (by - ay))
    return (min(xs), max(xs)) if xs else None


@dataclass(frozen=True)
class Line:
    """A line of text: its left end, baseline and the room it has."""

    x: float
    y: float
    room: float


def lines(polys: Sequence[Polygon], size: float) -> list[Line]:
    """The lines of text of ``size`` that fit in the polygons, in order."""
    out: list[Line] = []
    step = size * LEADING
    for poly in polys:
        ys = [p[1] for p in poly]
        top = min(ys) + PAD
        while top + step <= max(ys) - PAD:
            a, b = span(poly, top + 1e-9), span(poly, top + step - 1e-9)
            if a is not None and b is not None:
                left, right = max(a[0], b[0]) + PAD, min(a[1], b[1]) - PAD
                if right - left >= size * 2:
                    out.append(Line(left, top + step * 0.78, right - left))
            top += step
    return out


def flow(tokens: Sequence[float], room: Sequence[Line]) -> list[list[int]] | None:
    """Tokens of the given widths into the lines, each a list of their indices (None: no fit)."""
    out: list[list[int]] = []
    at = 0
    for line in room:
        if at == len(tokens):
            break
        used, here = 0.0, list[int]()
        while at < len(tokens) and (not here or used + tokens[at] <= line.room):
            if not here and tokens[at] > line.room and len(out) < len(room) - 1:
                break  # too wide for this line: try the next (a wider one, further out)
            used += tokens[at]
            here.append(at)
            at += 1
        out.append(here)
    return out if at == len(tokens) else None


def window(widths: Sequence[float], room: Sequence[Line]) -> tuple[int, list[list[int]]] | None:
    """The fewest lines centred in ``room`` that hold the tokens: (first line, :func:`flow`'s), or None."""
    for k in range(1, len(room) + 1):
        start = (len(room) - k) // 2
        placed = flow(widths, room[start : start + k])
        if placed is not None:
            return start, placed
    return None
