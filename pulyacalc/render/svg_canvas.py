"""Writing SVG by hand: coordinates the same text every time, every text escaped and fitted to its room."""

from __future__ import annotations

from xml.sax.saxutils import escape

from pulyacalc.core.errors import shown
from pulyacalc.render.sheet_layout import Polygon, width


def f(x: float) -> str:
    """A coordinate: two decimals, no ``-0.00``."""
    s = f"{x:.2f}"
    return "0.00" if s == "-0.00" else s


def fitted(text: str, size: float, room: float, least: float = 2.0) -> tuple[str, float]:
    """``text`` at the largest size down to ``least`` that fits ``room``, else cut with an ellipsis."""
    em = width(text, 1.0)  # width(text, size) is em * size, the same float
    while em * size > room and size > least:
        size = max(least, size - 0.2)
    if em * size <= room:
        return text, size
    # the longest start (a character at least) that fits with "…": width()'s own running sum
    ellipsis, sum_k, k = width("…", 1.0), 0.0, 1
    for i, ch in enumerate(text[:-1]):
        sum_k += width(ch, 1.0)
        if (sum_k + ellipsis) * size > room:
            break
        k = i + 1
    return text[:k].rstrip() + "…", size


class Canvas:
    """The SVG being written: parts in order."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, part: str) -> None:
        self.parts.append(part)

    def text(self, x: float, y: float, text: str, size: float, *, anchor: str = "start", cls: str = "",
             bold: bool = False, rotate: int = 0, title: str = "") -> None:  # fmt: skip
        attrs = f'x="{f(x)}" y="{f(y)}" font-size="{f(size)}"'
        if anchor != "start":
            attrs += f' text-anchor="{anchor}"'
        if cls:
            attrs += f' class="{cls}"'
        if bold:
            attrs += ' font-weight="bold"'
        if rotate:
            attrs += f' transform="rotate({rotate} {f(x)} {f(y)})"'
        # (a control character is no XML: shown as '?', as every echoed text is)
        said = f"<title>{escape(shown(title, 0))}</title>" if title and title != text else ""
        self.add(f"<text {attrs}>{escape(shown(text, 0))}{said}</text>")

    def poly(self, points: Polygon, fill: str) -> None:
        pts = " ".join(f"{f(x)},{f(y)}" for x, y in points)
        self.add(f'<polygon points="{pts}" fill="{fill}" stroke="none"/>')

    def line(self, a: tuple[float, float], b: tuple[float, float], cls: str = "rule") -> None:
        self.add(f'<line x1="{f(a[0])}" y1="{f(a[1])}" x2="{f(b[0])}" y2="{f(b[1])}" class="{cls}"/>')
