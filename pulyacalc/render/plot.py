"""Each player's cumulative result over a season (and the rating) drawn with matplotlib, imported only in
:func:`draw`, never pyplot; the same input gives the same SVG bytes whatever the matplotlibrc (``RC``)."""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, Literal

from pulyacalc.core.i18n import _, pgettext
from pulyacalc.render.view import counted, show

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from pulyacalc.core.amounts import Amount
    from pulyacalc.reports.season import Season
    from pulyacalc.reports.stats import Stats

PlotFormat = Literal["svg", "png"]

#: the suffixes --plot writes, and the format each one means
PLOT_SUFFIXES: dict[str, PlotFormat] = {".svg": "svg", ".png": "png"}

#: more evenings than this: numbered ticks chosen by matplotlib instead of one per evening
NAMED_TICKS = 15
#: a longer evening name is cut on its tick
TICK_CHARS = 24
#: the legend gets another column every this many players
LEGEND_ROWS = 22

#: ten colours, then the same colours dashed, dotted, ...: every player has his own line
STYLES = ("-", "--", ":", "-.")

#: fixed settings over matplotlib's defaults (never the user's matplotlibrc)
RC: dict[str, Any] = {
    "svg.hashsalt": "pulyacalc",  # clip-path and glyph ids from a fixed salt: same input, same bytes
    "svg.fonttype": "path",  # glyphs as paths: legible without the viewer having the font
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],  # ships with matplotlib; has Cyrillic
    "font.size": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.linewidth": 1.8,
    "lines.markersize": 4.5,
}


@dataclass(frozen=True)
class Line:
    """One player's line: a value at each of some evenings (0 is "before the first")."""

    label: str
    xs: tuple[int, ...]
    ys: tuple[float, ...]
    marked: tuple[int, ...]  # (the indexes into xs of the evenings he played)
    style: int = 0  # (his colour and dash, the same in every panel)


@dataclass(frozen=True)
class Panel:
    ylabel: str
    lines: tuple[Line, ...]
    zero: bool = True  # (results sum to zero; a rating has no zero)


@dataclass(frozen=True)
class Picture:
    title: str
    evenings: tuple[str, ...]  # (evening i, from 1, is evenings[i - 1])
    panels: tuple[Panel, ...]


def evening_names(sources: Sequence[str]) -> tuple[str, ...]:
    """Short names for the evenings' ticks: each file's path from their common folder, no suffix."""
    paths = [PurePath(s) for s in sources]
    try:
        common = PurePath(os.path.commonpath([p.parent for p in paths])) if paths else PurePath()
    except ValueError:  # absolute and relative paths mixed, or different drives
        common = PurePath()
    rels = [p.relative_to(common) if p.is_relative_to(common) else p for p in paths]
    return tuple(rel.with_suffix("").as_posix() if rel.suffix else rel.as_posix() for rel in rels)


def panel(
    ylabel: str,
    after: Mapping[str, Mapping[int, float]],
    evenings: int,
    legend: Sequence[tuple[str, str]],
    styles: Mapping[str, int],
    zero: bool = True,
) -> Panel:
    """A line per player of ``legend`` through his value after each evening he played, from 0 before."""
    lines: list[Line] = []
    for player, label in legend:
        values = after.get(player, {})
        if not values:
            continue
        first = min(values)
        xs, ys, marked = [first - 1], [0.0], []
        for i in range(first, evenings + 1):
            if i in values:
                marked.append(len(xs))
            xs.append(i)
            ys.append(values[i] if i in values else ys[-1])
        lines.append(Line(label, tuple(xs), tuple(ys), tuple(marked), styles.get(player, len(lines))))
    return Panel(ylabel, tuple(lines), zero)


def running_totals(results: Sequence[Mapping[str, Amount]]) -> dict[str, dict[int, float]]:
    """Each player's total after each evening he played (``results[i]``: evening i+1), added exactly."""
    totals: dict[str, Fraction] = {}
    after: dict[str, dict[int, float]] = {}
    for i, result in enumerate(results, 1):
        for p, r in result.items():
            totals[p] = totals.get(p, Fraction(0)) + Fraction(r)
            after.setdefault(p, {})[i] = float(totals[p])
    return after


def season_picture(season: Season) -> Picture:
    """``season --plot``: the cumulative result, players in the standings' order."""
    n = len(season.evenings)
    title = _("Season: {evenings}, {deals} — each player's result so far")
    legend = [(st.player, f"{st.player}  {show(st.total)}") for st in season.standings]
    totals = running_totals([e.result for e in season.evenings])
    styles = {p: i for i, (p, _label) in enumerate(legend)}
    title = title.format(evenings=counted(n, "evening"), deals=counted(season.deals, "deal"))
    panels = (panel(_("cumulative result, whists"), totals, n, legend, styles),)
    return Picture(title, evening_names([e.source for e in season.evenings]), panels)


def stats_picture(stats: Stats) -> Picture:
    """``stats --plot``: the cumulative result (as ``season --plot``) over the rating after each evening."""
    n = len(stats.evenings)
    title = _("Club: {evenings}, {deals} — results and rating")
    by_total = sorted(stats.players, key=lambda p: (-p.standing.total, p.player))
    styles = {p.player: i for i, p in enumerate(by_total)}
    totals = {p.player: {pt.number: float(pt.total) for pt in p.series} for p in stats.players}
    ratings = {p.player: {pt.number: pt.rating.ordinal for pt in p.series} for p in stats.players}
    results = [(p.player, f"{p.player}  {show(p.standing.total)}") for p in by_total]
    rated = [(p.player, f"{p.player}  {p.rating.ordinal:.1f}") for p in stats.players]
    title = title.format(evenings=counted(n, "evening"), deals=counted(stats.deals, "deal"))
    panels = (
        panel(_("cumulative result, whists"), totals, n, results, styles),
        panel(_("rating (openskill, μ − 3σ)"), ratings, n, rated, styles, zero=False),
    )
    return Picture(title, evening_names([e.source for e in stats.evenings]), panels)


def draw(picture: Picture, fmt: PlotFormat = "svg") -> bytes:
    """The picture as SVG (deterministic) or PNG bytes.  Raises ImportError without matplotlib."""
    from matplotlib.figure import Figure
    from matplotlib.style import context

    # matplotlib's defaults and ours, restored afterwards; its warnings (200-character names) kept in
    with context(RC, after_reset=True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        n = max((len(p.lines) for p in picture.panels), default=0)
        columns = 1 + max(n - 1, 0) // LEGEND_ROWS
        height = 5.0 + 3.5 * (len(picture.panels) - 1)
        fig = Figure(figsize=(10.0 + 1.6 * (columns - 1), height), layout="constrained")
        axes = fig.subplots(len(picture.panels), 1, sharex=True, squeeze=False)[:, 0]
        fig.suptitle(picture.title, fontsize=12, parse_math=False)
        for ax, shown in zip(axes, picture.panels, strict=True):
            _draw_panel(ax, shown, columns)
        _evening_ticks(axes[-1], picture.evenings)
        out = io.BytesIO()
        # savefig picks the SVG (or Agg) canvas for the format: no pyplot, no GUI backend
        if fmt == "svg":
            fig.savefig(out, format="svg", metadata={"Date": None, "Title": picture.title})
        else:
            fig.savefig(out, format="png", dpi=120)
        return out.getvalue()


def _draw_panel(ax: Axes, shown: Panel, columns: int) -> None:
    if shown.zero:
        ax.axhline(0, color="0.45", linewidth=0.9, zorder=1)
    for line in shown.lines:
        ax.plot(
            line.xs,
            line.ys,
            label=line.label,
            color=f"C{line.style % 10}",
            linestyle=STYLES[line.style // 10 % len(STYLES)],
            marker="o",
            markevery=list(line.marked),
            zorder=2,
        )
    ax.set_ylabel(shown.ylabel)
    if shown.lines:
        # beside the plot, not on it: the lines stay visible however many players there are
        legend = ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), ncols=columns, frameon=False)
        for text in legend.get_texts():  # names drawn as written: a "$" is no mathtext ($\bad$ crashed)
            text.set_parse_math(False)


def _evening_ticks(ax: Axes, evenings: Sequence[str]) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.set_xlabel(pgettext("plot", "evening"))
    ax.set_xlim(-0.2, len(evenings) + 0.2)
    if len(evenings) <= NAMED_TICKS:
        names = [n if len(n) <= TICK_CHARS else n[: TICK_CHARS - 1] + "…" for n in evenings]
        labels = [pgettext("plot", "start"), *names]  # file names drawn as written: a "$" is no mathtext
        ax.set_xticks(range(len(evenings) + 1), labels, rotation=30, ha="right", parse_math=False)
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
