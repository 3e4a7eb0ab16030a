"""`pulyacalc season LOG...`: many evenings at once → standings per player."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer

from pulyacalc.cli.options import (
    ConventionOpt,
    Format,
    FormatOpt,
    InputFormatOpt,
    MaxYamlBytesOpt,
    PriceOpt,
    RoundingOpt,
    parse_price,
)
from pulyacalc.cli.runtime import emit, reports_problems

if TYPE_CHECKING:
    from pulyacalc.season import Season

SCHEMA_VERSION = 1


@reports_problems
def season(
    logs: Annotated[
        list[str],
        typer.Argument(
            metavar="LOG|DIR...",
            help="Log files, or directories searched for logs (*.yaml *.yml *.txt *.log *.pulya).",
        ),
    ],
    convention: ConventionOpt = None,
    format: FormatOpt = Format.table,
    whist_price: PriceOpt = None,
    rounding: RoundingOpt = None,
    input_format: InputFormatOpt = None,
    max_yaml_bytes: MaxYamlBytesOpt = None,
    progress: Annotated[
        bool,
        typer.Option(
            "--progress/--no-progress",
            help="Show a progress bar on standard error (only on a terminal, only after a moment).",
        ),
    ] = True,
) -> None:
    """Standings over many evenings: evenings played, total, average, best and worst per player."""
    from pulyacalc.season import score_season

    price = parse_price(whist_price)
    bar = ProgressBar(sys.stderr) if progress else None
    skipped: list[tuple[str, str]] = []
    try:
        result = score_season(
            logs,
            convention=convention,
            rounding=rounding.value if rounding else None,
            input_format=input_format.value if input_format else None,
            max_yaml_bytes=max_yaml_bytes,
            price=price,
            progress=bar.update if bar is not None else None,
            skipped=skipped,
        )
    finally:
        if bar is not None:
            bar.close()
        for path, why in skipped:
            print(f"pulyacalc: skipped {path}: {why}", file=sys.stderr)
    emit(render_season(format, result))


class ProgressBar:
    """A one-line bar on a terminal's standard error, shown only once the work has taken
    more than ``delay`` seconds, redrawn at most ten times a second, erased at the end.
    Nothing is written when standard error is not a terminal (pipelines, logs)."""

    def __init__(self, stream: TextIO, delay: float = 0.5, width: int = 30) -> None:
        self.stream = stream
        self.delay = delay
        self.width = width
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False
        try:
            self.enabled = stream.isatty()
        except (AttributeError, ValueError):
            self.enabled = False

    def update(self, done: int, total: int, name: str) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        filled = self.width * done // max(total, 1)
        label = name if len(name) <= 40 else "…" + name[-39:]
        line = f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {label}"
        self._write(line.ljust(self.width + 60))
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self._write("\r" + " " * (self.width + 60) + "\r")
            self.shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False


def render_season(format: Format, s: Season) -> str:
    import csv
    import io
    import json

    if format is Format.json:
        return json.dumps(season_json(s), ensure_ascii=False, indent=2) + "\n"
    if format is Format.jsonl:
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in standing_rows(s))
    if format in (Format.csv, Format.tsv):
        buf = io.StringIO()
        w = csv.writer(buf, delimiter="," if format is Format.csv else "\t", lineterminator="\n")
        head = ["rank", "player", "evenings", "total", "average", "best", "best_evening", "worst"]
        head.append("worst_evening")
        if s.whist_price is not None:
            head.append("money")
        w.writerow(head)
        for row in _table_rows(s, people=False):
            w.writerow(row)
        return buf.getvalue()
    return season_table(s)


def season_json(s: Season) -> dict[str, Any]:
    from pulyacalc.render.report import fraction_text, jnum

    doc: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "evenings": [
            {
                "file": e.source,
                "players": list(e.players),
                "convention": e.convention,
                "pool_target": e.pool_target,
                "rounding": e.rounding,
                "deals": e.deals,
                "finished": e.finished,
                "result": {p: jnum(e.result[p]) for p in e.players},
                "result_exact": {p: fraction_text(e.result[p]) for p in e.players},
                **({"money": {p: float(e.money[p]) for p in e.players}} if e.money is not None else {}),
            }
            for e in s.evenings
        ],
        "standings": [{k: v for k, v in row.items() if k != "schema_version"} for row in standing_rows(s)],
        "deals": s.deals,
    }
    if s.whist_price is not None:
        doc["whist_price"] = float(s.whist_price)
    return doc


def standing_rows(s: Season) -> list[dict[str, Any]]:
    from pulyacalc.render.report import fraction_text, jnum

    rows = []
    for rank, st in enumerate(s.standings, 1):
        row: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "rank": rank,
            "player": st.player,
            "evenings": st.evenings,
            "total": jnum(st.total),
            "total_exact": fraction_text(st.total),
            "average": jnum(st.average),
            "average_exact": fraction_text(st.average),
            "best": jnum(st.best),
            "best_evening": st.best_evening,
            "worst": jnum(st.worst),
            "worst_evening": st.worst_evening,
        }
        if st.money is not None:
            row["money"] = float(st.money)
        rows.append(row)
    return rows


def _table_rows(s: Season, people: bool) -> list[list[str | int]]:
    from pulyacalc.render.report import show

    rows: list[list[str | int]] = []
    for rank, st in enumerate(s.standings, 1):
        row: list[str | int] = [rank, st.player, st.evenings, show(st.total), show(st.average)]
        if people:
            row += [show(st.best), show(st.worst)]
        else:
            row += [show(st.best), st.best_evening, show(st.worst), st.worst_evening]
        if st.money is not None:
            row.append(show(st.money))
        rows.append(row)
    return rows


def season_table(s: Season) -> str:
    from tabulate import tabulate

    price = f", whist price {s.whist_price}" if s.whist_price is not None else ""
    lines = [f"Season: {len(s.evenings)} evenings, {s.deals} deals{price}; results in whists", ""]
    head = ["#", "player", "evenings", "total", "average", "best", "worst"]
    if s.whist_price is not None:
        head.append("money")
    lines.append(
        tabulate(
            _table_rows(s, people=True),
            headers=head,
            tablefmt="simple",
            colalign=("right", "left", *["right"] * (len(head) - 2)),
        )
    )
    return "\n".join(lines) + "\n"
