"""The settlement on the drawn sheet's page: under the sheet a small table and the payments; beside a
typed sheet (``settle``), its stages as ``settle`` prints them."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

from pulyacalc.core.i18n import _
from pulyacalc.render.sheet_layout import width
from pulyacalc.render.svg_canvas import Canvas, fitted
from pulyacalc.render.view import bombs_text, rounding_name, show, signed
from pulyacalc.reports.pulya import Pulya

MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"


def settlement_rows(pulya: Pulya) -> tuple[list[str], list[list[str]]]:
    """The head and a row per player of the table under the sheet."""
    s, sheet = pulya.settlement, pulya.sheet
    head = ["", _("pool"), _("mountain"), _("mountain result"), _("whist result"), _("result")]
    changes: list[Mapping[str, Any]] = [s.mountain_result, s.whist_result, s.result]
    if s.money is not None:
        head.append(_("money"))
        changes.append(s.money)
    paper = {p: [p, show(sheet.pool[p]), show(sheet.mountain[p])] for p in pulya.players}
    return head, [[*row, *(signed(x[p]) for x in changes)] for p, row in paper.items()]


def settlement_block(cv: Canvas, pulya: Pulya, x: float, y: float, w: float, h: float) -> None:
    """The settlement under the sheet, fitted into the box at (x, y)."""
    s = pulya.settlement
    head, rows = settlement_rows(pulya)
    note = _("average mountain {average} (after the amnesty of {amnesty}); rounding {rounding}")
    notes = [
        note.format(average=show(s.average), amnesty=show(s.amnesty), rounding=rounding_name(s.rounding))
    ]
    if pulya.bombs is not None:
        notes.append(bombs_text(pulya.players, pulya.bombs))
    if pulya.finished is False:
        notes.append(_("the pulya is not finished: missing pool points go to the mountain"))
    pay = _("{payer} pays {payee} {amount}")
    pays = [pay.format(payer=a, payee=b, amount=show(m)) for a, b, m in s.payments]
    size = 3.4
    while size > 2.2:
        names = min(max(width(r[0], size, bold=True) for r in rows) + size, w * 0.42)
        cols = [max(width(r[i], size) for r in [head, *rows]) + size * 1.6 for i in range(1, len(head))]
        two = all(width(pay, size * 0.9) <= w / 2 - 2 for pay in pays)
        lines = 2 + len(rows) + len(notes) + ((len(pays) + 1) // 2 if two else len(pays))
        if names + sum(cols) <= w and lines * size * 1.45 <= h:
            break
        size = round(size - 0.2, 1)
    step = size * 1.45
    cv.text(x, y, _("Settlement"), size * 1.1, bold=True)
    y += step * 1.2
    ends = [*accumulate(cols, initial=x + names)][1:]  # where each column's numbers end
    for end, title in zip(ends, head[1:], strict=True):
        cv.text(end, y, title, size * 0.85, anchor="end", cls="caption")
    for row in rows:
        y += step
        shown, small = fitted(row[0], size, names - 1, least=2.0)
        cv.text(x, y, shown, small, bold=True, title=row[0])
        for i, (end, cell) in enumerate(zip(ends, row[1:], strict=True)):
            cv.text(end, y, cell, size, anchor="end", bold=i == len(row) - 2)
    for note in notes:
        y += step
        text, small = fitted(note, size * 0.85, w, least=2.0)
        cv.text(x, y, text, small, cls="caption", title=note)
    per = 2 if two else 1  # payments side by side when they are short enough
    for i in range(0, len(pays), per):
        y += step
        for j, pay in enumerate(pays[i : i + per]):
            text, small = fitted(pay, size * 0.9, w / per - 2, least=2.0)
            cv.text(x + j * w / per, y, text, small, title=pay)


def stages_lines(stages: str) -> tuple[list[str], int]:
    """``settle``'s stages as the lines drawn (prose wrapped to the tables' width) and that width."""
    raw = stages.rstrip("\n").split("\n")
    table = tabular(raw)
    cols = max([60, *(len(t) for t, is_table in zip(raw, table, strict=True) if is_table)])
    out: list[str] = []
    for t, is_table in zip(raw, table, strict=True):
        if len(t) <= cols or is_table:
            out.append(t)
        else:
            out += textwrap.wrap(t, cols, subsequent_indent="   ")
    return out, cols


def stages_size(out: list[str], cols: int, w: float, h: float) -> float:
    """The largest size (at most 3.2) at which the lines fit a box ``w`` by ``h``."""
    rows = sum(1.0 if t.strip() else 0.5 for t in out)  # an empty line takes half a line
    return min(w / (cols * 0.62), h / (rows * 1.25), 3.2)


def stages_block(cv: Canvas, stages: str, x: float, y: float, w: float, h: float) -> None:
    """``settle``'s stages in a fixed-width font, the size the largest at which they fit the box."""
    out, cols = stages_lines(stages)
    size = stages_size(out, cols, w, h)
    cv.add('<g xml:space="preserve">')
    for t in out:
        y += size * 1.25 * (1.0 if t.strip() else 0.5)
        if t.strip():
            cv.text(x, y, t, size, cls="mono", bold=t[:1].isdigit())
    cv.add("</g>")


def tabular(raw: list[str]) -> list[bool]:
    """Which lines are a table's (head, rule of dashes, rows: not to be wrapped); the others are prose."""
    rules = [bool(t.strip()) and set(t.strip()) <= {"-", " "} for t in raw] + [False]
    out: list[bool] = []
    inside = False
    for i, t in enumerate(raw):
        inside = (inside or rules[i]) and bool(t.strip())
        out.append(inside or rules[i + 1])  # a line over a rule is a table's head
    return out
