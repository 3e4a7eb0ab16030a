"""A finished paper sheet (INTERFACE.md "A finished paper sheet").  Its header is read as a
YAML log's is (``header.read_top``), so a mistake in it gets the same message."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from pulyacalc.core.amounts import Amount, num
from pulyacalc.core.errors import Loc, Problems, did_you_mean, quoted
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.model import Header
from pulyacalc.core.sheet import Sheet, SheetView
from pulyacalc.logs.header import SHEET_KEYS, HeaderBuilder, match_player, read_top
from pulyacalc.logs.read import open_input, read_whole, refused
from pulyacalc.yamlsource import MAX_YAML_BYTES, Node, as_int, as_number, parse_yaml

ROW_KEYS = ("pool", "mountain", "whists")
#: a row's columns as a Russian sheet names them (case-folded, ``е`` for ``ё``)
ROW_WORDS = {"пуля": "pool", "гора": "mountain", "висты": "whists", "вист": "whists"}
#: a final cell written as its running entries (``2.3.5.9``): each entry and its place
Entries = dict[tuple[str, ...], tuple[tuple[Amount, Loc], ...]]
#: where each cell was written: ("pool", player) / ("whists", writer, on) → Loc
Cells = dict[tuple[str, ...], Loc]


@dataclass(frozen=True)
class PaperSheet:
    header: Header
    sheet: SheetView
    cells: Cells = field(default_factory=dict)
    #: optional running totals: deal number → SheetView (cells not given are None-free copies)
    running: dict[int, tuple[SheetView, Cells, Loc]] = field(default_factory=dict)
    entries: Entries = field(default_factory=dict)


def read_sheet(path: str, max_bytes: int | None = None) -> PaperSheet:
    stream, name = open_input(path)
    limit = max_bytes or MAX_YAML_BYTES
    text = read_whole(stream, "", path, name, limit, M_("raise --max-yaml-bytes"))
    return parse_sheet(text, name, max_bytes=limit)


def parse_sheet(text: str, file: str, *, max_bytes: int | None = None) -> PaperSheet:
    p = Problems()
    root = parse_yaml(text, file, max_bytes=max_bytes or MAX_YAML_BYTES)
    if root.kind != "map":
        raise refused(root.loc, M_("a sheet is a mapping: players:, sheet:, …"))
    builder = HeaderBuilder(file, p, doc=M_("the sheet"))
    sections = read_top(root, builder, SHEET_KEYS)
    sheet_node, running_node = sections.get("sheet"), sections.get("running")
    header = builder.build()
    if header is None or sheet_node is None:
        if sheet_node is None:
            example = M_("sheet: {A: {pool: 14, mountain: 12, whists: {B: 12, C: 0}}, …}")
            p.add(Loc(file, 1, 1), M_("the sheet has no 'sheet:' section"), example)
        p.raise_if_any()
        raise AssertionError
    entries: Entries = {}
    view, cells = _rows(sheet_node, header, p, complete=True, entries=entries)
    running: dict[int, tuple[SheetView, Cells, Loc]] = {}
    if running_node is not None:
        if running_node.kind == "seq":
            # a list: the i-th item is the paper after deal i (an empty item skips a deal)
            for i, item in enumerate(running_node.items, start=1):
                if not item.null:
                    running[i] = (*_rows(item, header, p, complete=False), item.loc)
        elif running_node.kind != "map":
            what = M_("running: expected a mapping of deal number → rows, or a list (one item per deal)")
            p.add(running_node.loc, what)
        else:
            for k, v in running_node.pairs:
                n = as_int(k, p, M_("running: deal number"), low=1)
                rows, rcells = _rows(v, header, p, complete=False)
                if n is not None:
                    running[n] = (rows, rcells, k.loc)
    p.raise_if_any()
    return PaperSheet(header, view, cells, running, entries)


def _rows(
    node: Node, header: Header, p: Problems, complete: bool, entries: Entries | None = None
) -> tuple[SheetView, Cells]:
    players = header.players
    view = Sheet(players).view()  # an empty paper
    cells: Cells = {}
    if node.kind != "map":
        p.add(node.loc, M_("expected a mapping of players to {pool:, mountain:, whists:}"))
        return view, cells
    seen: dict[str, Loc] = {}
    for k, v in node.pairs:
        who, hint = match_player(k.text.strip(), players)
        if who is None:
            p.add(k.loc, M_("unknown player {quoted}", quoted=quoted(k.text.strip())), hint)
            continue
        if who in seen:
            # 'Anna' and 'anna' are one row: the second would silently replace the first
            twice = M_("the row of {who} is given twice, first at {place}", who=who, place=seen[who].place())
            p.add(k.loc, twice, M_("keep one of them"))
            continue
        seen[who] = k.loc
        if v.kind != "map":
            p.add(v.loc, M_("{who}: expected {{pool: N, mountain: N, whists: {{…}}}}", who=who))
            continue
        _row(who, v, view, cells, p, {} if entries is None else entries)
    if complete:
        for who in players:
            if who not in seen:
                p.add(node.loc, M_("the sheet has no row for {who}", who=who))
    return view, cells


def _row(who: str, node: Node, view: SheetView, cells: Cells, p: Problems, entries: Entries) -> None:
    """``who``'s row (``{pool: N, mountain: N, whists: {…}}``) into ``view``, places into ``cells``."""
    for rk, rv in node.pairs:
        word = rk.text.strip()
        key = ROW_WORDS.get(word.casefold().replace("ё", "е"), word)
        if key in ("pool", "mountain"):  # a mountain may be below zero after write-offs (K4.1.1)
            what = M_("{who}'s pool", who=who) if key == "pool" else M_("{who}'s mountain", who=who)
            x = _cell(rv, p, what, key == "pool", entries, (key, who))
            if x is not None:
                (view.pool if key == "pool" else view.mountain)[who] = x
                cells[(key, who)] = rv.loc
        elif key == "whists":
            _whists(who, rv, view, cells, p, entries)
        else:
            close = [] if p.full else difflib.get_close_matches(word, [*ROW_KEYS, *ROW_WORDS], n=1)
            did = did_you_mean(close[0] if close else None)
            columns = M_("{did}columns: pool, mountain, whists", did=did)
            p.add(rk.loc, M_("unknown column {key!r}", key=word), columns)


def _cell(
    node: Node, p: Problems, what: str, grows: bool, entries: Entries, cell: tuple[str, ...]
) -> Amount | None:
    """A cell: a number, or its running entries (``2.3.5.9``) whose last is the total; each
    entry must be one the paper can write after the one before: a pool and whists only grow,
    a mountain changes (it falls when pool points go off it)."""
    # ``2.3.5.9``, ``5.9.`` or ``5 9`` (one dot alone is a decimal point: ``5.9`` is a number)
    text = node.text
    t = text.strip()
    if node.kind != "scalar" or node.null or not (t.count(".") > 1 or t.endswith(".") or " " in t):
        return as_number(node, p, what)
    run: list[tuple[Amount, Loc]] = []
    for m in re.finditer(r"[^.\s]+", text):
        at = node.loc.column + node.quoted + m.start()
        loc = node.loc._replace(column=at) if node.loc.column else node.loc
        x = as_number(Node("scalar", loc, m.group()), p, what)
        if x is None:
            return None
        if run and (x <= run[-1][0] if grows else x == run[-1][0]):
            before = num(run[-1][0])
            p.add(
                loc,
                M_("{what}: the entry {x} after {before} does not grow", what=what, x=num(x), before=before)
                if grows
                else M_("{what}: the entry {x} repeats the one before", what=what, x=num(x)),
                M_("each running entry is the new total after a deal; the last is the cell's total"),
            )
            return None
        run.append((x, loc))
    if len(run) > 1:  # ``66.``: one entry, the total
        entries[cell] = tuple(run)
    return run[-1][0] if run else as_number(node, p, what)


_WHISTS_TWICE = N_("{who}'s whists on {on} are given twice, first at {place}")


def _whists(who: str, node: Node, view: SheetView, cells: Cells, p: Problems, entries: Entries) -> None:
    """``who``'s whists on each opponent (``{B: 12}``) read into ``view``."""
    if node.kind != "map":
        p.add(node.loc, M_("{who}'s whists: expected a mapping of opponents, like {{B: 12}}", who=who))
        return
    for wk, wv in node.pairs:
        written = wk.text.strip()
        on, hint = match_player(written, view.players)
        if on is None or on == who:
            not_one = M_("{who}'s whists on {strip!r}: not an opponent", who=who, strip=written)
            p.add(wk.loc, not_one, hint or "a player writes whists on the others")
            continue
        first = cells.get(("whists", who, on))
        if first is not None:
            p.add(wk.loc, M_(_WHISTS_TWICE, who=who, on=on, place=first.place()), M_("keep one of them"))
            continue
        x = _cell(wv, p, M_("{who}'s whists on {on}", who=who, on=on), True, entries, ("whists", who, on))
        if x is not None:
            view.whists[who][on] = x
            cells[("whists", who, on)] = wv.loc
