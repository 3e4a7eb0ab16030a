"""`explain` as a view: each entry of the chosen deals with its rule and arithmetic, the paper after each
deal, its ledger row; in flat memory, each distinct set of writes drawn once, a player's cells if changed."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from pulyacalc.core.amounts import num
from pulyacalc.core.i18n import N_, NP_, _, current, pgettext, tr
from pulyacalc.core.remembered import Remembered
from pulyacalc.logs.words import ENGLISH, Words, spoken
from pulyacalc.render.formats import Made, Spool, delimited_line, dumps, members
from pulyacalc.render.table import grid
from pulyacalc.render.view import (
    SCHEMA_VERSION,
    Spent,
    convention_title,
    counted,
    fraction_text,
    jnum,
    sheet_head,
    sheet_json,
    sheet_row,
    show,
    twins,
)
from pulyacalc.reports.explain import deal_text, explained, place, talon_taker, whole

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Iterable, Iterator

    from pulyacalc.convention.schema import Convention
    from pulyacalc.core.sheet import Sheet
    from pulyacalc.reports.explain import DealExplained, Explained, Explanation, Stream
    from pulyacalc.scoring.fold import DealResult, DealWrites


def entry_json(x: Explained) -> dict[str, Any]:
    e = x.entry
    return {
        "deal": e.deal,
        "rule": e.rule,
        "section": x.rule.section,
        "kodeks": x.rule.kodeks,
        "player": e.player,
        "area": e.area,
        "on": e.on,
        "amount": jnum(e.amount),
        "amount_exact": fraction_text(e.amount),
        "why": e.why,
        "text": x.text,
    }


def bombs_json(r: Any) -> dict[str, Any]:
    """Classic's bombs on a deal (RULES.md 2.10), additive: only on a deal that earned or played one."""
    out: dict[str, Any] = {}
    if r.bombs_earned:
        out["bombs_earned"] = {p: b for p, b in r.bombs_earned}
    if r.bomb != 1:
        out["bomb"] = {"coefficient": r.bomb, "used_up": r.bomb_spent}
    return out


def bombs_text(r: Any) -> str | None:
    """What a deal did with bombs (RULES.md 2.10), or None."""
    said = []
    if r.bombs_earned:
        earned = ", ".join(f"{p} ×{b}" for p, b in r.bombs_earned)
        said.append(
            _("bombs earned (dark raspasy, level {level}): {earned}").format(level=r.dark, earned=earned)
        )
    if r.bomb != 1:
        won = _("{who} played on a bomb ×{bomb} and won: it is used up")
        lost = _("{who} played on a bomb ×{bomb} and lost: it stays")
        said.append((won if r.bomb_spent else lost).format(who=getattr(r.deal, "declarer", ""), bomb=r.bomb))
    return "; ".join(said) or None


def deal_head_json(r: DealResult, where: str, line: str) -> dict[str, Any]:
    """A deal's JSON up to its entries."""
    return dict(
        deal=r.number, where=where, dealer=r.dealer, kind=r.kind, line=line, after_finish=r.after_finish
    )


def explain_table(explanation: Explanation, deals: tuple[DealExplained, ...]) -> str:
    """An explanation's table of ``deals`` (sheet's deal-by-deal part; explain streams)."""
    ev = explanation.evening
    out = [table_head(ev.convention, ev.header.players, ev.target, counted(ev.deals, "deal"))]
    drawer = TableDeals(out.append)
    for d in deals:  # (the deals in a row: each redraws the cells it changed)
        drawer.draw(d.result, d.running, drawn_table(d))  # type: ignore[arg-type]
    return "".join(out)


def table_head(conv: Convention, players: tuple[str, ...], target: int, deals: str) -> str:
    """The table's first line and the empty line after it."""
    pool = _("pool to {target}").format(target=target)
    return f"{convention_title(conv)}, {counted(len(players), 'player')}, {pool}, {deals}\n"


def deal_head(r: DealResult, line: str) -> str:
    """A deal's first line in the table: its number, place, dealer and line."""
    flags = []
    if r.raspasy_run > 1:
        flags.append(_("raspasy no. {n} in a row").format(n=r.raspasy_run))
    if r.after_finish:
        flags.append(_("after the pulya was finished"))
    extra = f" ({'; '.join(flags)})" if flags else ""
    where = str(r.deal.loc)
    if r.kind in _NOT_DEALS:  # not a deal: a correction (RULES.md 2.9) or a table change (6.3)
        after = _("after deal {n}").format(n=r.number) if r.number else _("before the first deal")
        if r.kind == "correction":
            return _("Correction {after} ({where}): {line}").format(after=after, where=where, line=line)
        return _("Table change {after} ({where}): {line}").format(after=after, where=where, line=line)
    deal = _("Deal {n} ({where}), dealer {dealer}: {line}")
    return deal.format(n=r.number, where=where, dealer=r.dealer, line=line) + extra


#: what a result that is not a deal is called under its paper
_NOT_DEALS = {
    "correction": N_("after the correction"),
    "join": N_("after the join"),
    "leave": N_("after the leave"),
}
#: the rules' ids as the table names them in another language (JSON and CSV keep the English id)
RULE_NAMES = {
    "unplayed": NP_("rule", "unplayed"),
    "half-whist": NP_("rule", "half-whist"),
    "made": NP_("rule", "made"),
    "remise": NP_("rule", "remise"),
    "whists": NP_("rule", "whists"),
    "consolation": NP_("rule", "consolation"),
    "gentleman": NP_("rule", "gentleman"),
    "returned-whist": NP_("rule", "returned-whist"),
    "dealer-consolation": NP_("rule", "dealer-consolation"),
    "shortfall": NP_("rule", "shortfall"),
    "misere-made": NP_("rule", "misere-made"),
    "misere-remise": NP_("rule", "misere-remise"),
    "raspasy-mountain": NP_("rule", "raspasy-mountain"),
    "raspasy-whists": NP_("rule", "raspasy-whists"),
    "zero-trick": NP_("rule", "zero-trick"),
    "pool": NP_("rule", "pool"),
    "help": NP_("rule", "help"),
    "help-whists": NP_("rule", "help-whists"),
    "written-off": NP_("rule", "written-off"),
    "premium": NP_("rule", "premium"),
    "concede": NP_("rule", "concede"),
    "correction": NP_("rule", "correction"),
}


def rule_name(rule: str) -> str:
    """The rule's id in the explain table: itself in English, its name in another language."""
    return rule if current() == "en" else pgettext("rule", rule)  # (an id not in RULE_NAMES: itself)


def _why(x: Explained) -> str:
    """The entry's arithmetic and reason in the chosen language (English: its ``text`` after ``: ``)."""
    if current() == "en":
        return x.text.split(": ", 1)[1] if ": " in x.text else ""
    return tr(whole(x.entry)).strip()


def sentence_shown(x: Explained) -> str:
    """The entry's sentence (``Vera whists on Boris +12: 3 tricks × 4 = 12``) in the chosen language."""
    if current() == "en":
        return x.text
    e = x.entry
    lead = f"{e.player} {tr(place(e))} {'+' if e.amount > 0 else ''}{num(e.amount)}"
    why = _why(x)
    return f"{lead}: {why}" if why else lead


def entry_row(x: Explained) -> list[Any]:
    """An entry as a CSV row (the order of ``ROW_HEAD``)."""
    e = x.entry
    return [e.deal, e.rule, x.rule.section, e.player, e.area, e.on or "", fraction_text(e.amount), e.why]


ROW_HEAD = ["deal", "rule", "section", "player", "area", "on", "amount", "why"]


@dataclass
class Drawn:
    """A deal's writes drawn in one format, cut where the deal's number goes (``number.join(pieces)``)."""

    #: the table's lines after the deal's first but for its bombs: its entries, its moves
    entries: str = ""
    moves: str = ""
    #: JSON: the flat entries (each after ``,``); JSON Lines, CSV, TSV: their lines
    flat: tuple[str, ...] = ("",)
    #: JSON: the deal's members from its entries to its paper, and after it
    nested: tuple[str, ...] = ("",)
    tail: str = ""


def drawn_writes(d: DealExplained, fmt: str, piece: Callable[[Explained], tuple[str, str]]) -> Drawn:
    """:class:`Drawn` of a deal's writes in ``fmt`` (``,``/``\\t``: CSV/TSV); ``piece``: an entry's."""
    if fmt == "table":
        return drawn_table(d)
    cuts = [piece(x) for x in d.entries]
    return _drawn_json(d, cuts) if fmt == "json" else Drawn(flat=_cut_lines(cuts))


def drawn_table(d: DealExplained) -> Drawn:
    """A deal's lines in the table after its first but for its bombs: its entries, its moves."""
    rows = []
    for x in d.entries:
        e = x.entry
        amount = f"+{num(e.amount)}" if e.amount > 0 else num(e.amount)
        rule = f"{rule_name(e.rule)} §{x.rule.section} {x.rule.kodeks}"
        rows.append([e.player, tr(place(e)), amount, _why(x), rule])
    if rows:
        table = grid(rows, tablefmt="plain", colalign=("left", "left", "right", "left", "left"), margin=2)
        entries = "\n".join("  " + line for line in table.splitlines())
    else:
        entries = "  " + _("(nothing is written)")
    moves = ", ".join(f"{p} {'+' if v > 0 else ''}{show(v)}" for p, v in d.ledger.items())
    return Drawn(entries, "  " + _("moves the results: {moves}").format(moves=moves))


def _cut_lines(cuts: list[tuple[str, str]]) -> tuple[str, ...]:
    """Texts each cut at its number (before, after), one after another, cut so."""
    out = [""]
    for before, after in cuts:
        out[-1] += before
        out.append(after)
    return tuple(out)


def entry_piece(x: Explained, fmt: str) -> tuple[str, str]:
    """An entry as ``fmt`` writes it (JSON: among the flat entries, two deep), cut at its deal's number."""
    if fmt not in ("json", "jsonl"):
        return "", fmt + delimited_line(entry_row(x)[1:], fmt)  # the row but its first cell
    # its texts as plain strings (a ``Text`` would go to the slower ``json.dumps``)
    doc = {k: str(v) if isinstance(v, str) else v for k, v in entry_json(x).items() if k != "deal"}
    if fmt == "json":
        return '{\n      "deal": ', "," + members(doc, 2) + "\n    }"
    import json

    head = json.dumps({"schema_version": SCHEMA_VERSION}, ensure_ascii=False)
    return head[:-1] + ', "deal": ', ", " + json.dumps(doc, ensure_ascii=False)[1:] + "\n"


def _drawn_json(d: DealExplained, cuts: list[tuple[str, str]]) -> Drawn:
    flat = _cut_lines([(",\n    " + before, after) for before, after in cuts])
    nested = [piece.replace("\n", "\n    ") for piece in flat]
    nested[0] = ',\n      "entries": ' + ("[" + nested[0][1:] if cuts else "[]")
    nested[-1] += ("\n      ]" if cuts else "") + ',\n      "running": '
    tail = "," + members(twins("ledger", d.ledger), 2) + "\n    }"
    return Drawn(flat=flat, nested=tuple(nested), tail=tail)


#: distinct sets of writes whose drawings a stream keeps (forgotten all at once when full)
WRITES_SIZE = 20_000


@dataclass
class ExplainStream:
    """``explain`` of a whole log in flat memory, spooled until the log is spent; ``--deal N``: N alone."""

    stream: Stream
    #: deals (and corrections) shown so far (none: ``--deal N`` is past the log's end)
    shown: int = 0
    #: told the line each deal ends on (the command line's progress bar)
    progress: Callable[[int], None] | None = None

    def _play(self, fmt: str, draw: Callable[[DealResult, Sheet, Drawn], None]) -> None:
        """Play the stream, drawing each deal shown with its writes' drawings in ``fmt``."""
        upto, conv = self.stream.upto, self.stream.convention
        # an entry's piece made once per write, a deal's drawings once per set of writes (the fold's object)
        pieces = Remembered(lambda _, x: entry_piece(x, fmt))

        def piece(x: Explained) -> tuple[str, str]:
            return pieces.made(_WRITE(x.entry), x)

        writes = Remembered(
            lambda w, r, sheet: drawn_writes(explained(r, sheet, conv), fmt, piece), size=WRITES_SIZE
        )
        players: tuple[str, ...] = ()

        def each(r: DealResult, sheet: Sheet, written: DealWrites) -> None:
            nonlocal players
            if sheet.players != players:  # what the writes move depends on who plays
                players = sheet.players
                writes.clear()
            if upto is not None and r.number != upto:
                draw(r, sheet, _SKIPPED)
                return
            self.shown += 1
            draw(r, sheet, writes.made(written, r, sheet))

        self.stream.play(each, self.progress)

    def table(self) -> Spent:
        s = self.stream
        spool = Spool()
        try:
            self._play("table", TableDeals(spool.write).draw)
        except BaseException:
            spool.file.close()
            raise
        deals = _("deal {n} of the log").format(n=s.upto) if s.upto is not None else counted(s.count, "deal")
        return Spent(chain([table_head(s.convention, s.header.players, s.target, deals)], spool.pieces()))

    def document(self) -> dict[str, Any]:
        """The entries, then the deals, then the paper after the last: each array spooled."""
        entries, deals = Spool(), Spool()
        drawer = JsonDeals(entries.write, deals.write)
        self._play("json", drawer.draw)
        s = self.stream

        def array(spool: Spool, n: int) -> Made:
            return Made(lambda fmt: chain(spool.pieces(), ["\n  ]" if n else "[]"]))

        return {
            "schema_version": SCHEMA_VERSION,
            "players": list(s.header.players),
            "convention": s.convention.name,
            "pool_target": s.target,
            "entries": array(entries, drawer.entries),
            "deals": array(deals, drawer.deals),
            "sheet": sheet_json(s.sheet),  # type: ignore[arg-type]  # a Sheet reads as its view
        }

    def records(self) -> Made:
        """JSON Lines: a record per entry of each deal shown."""
        return Made(self._lines)

    def rows(self) -> tuple[list[str], Made]:
        """CSV or TSV: the header and a row per entry of each deal shown."""
        return ROW_HEAD, Made(self._lines)

    def _lines(self, fmt: str) -> Iterator[str]:
        """The text of each entry's line (JSON Lines, CSV or TSV)."""
        spool = Spool()

        def draw(r: DealResult, sheet: Sheet, drawn: Drawn) -> None:
            if len(drawn.flat) > 1:  # (a deal that wrote nothing has no line)
                spool.write(str(r.number).join(drawn.flat))

        self._play({"csv": ",", "tsv": "\t"}.get(fmt, fmt), draw)
        yield from spool.pieces()


#: a deal's writes as a cache key: each entry but for its deal's number
_WRITE = attrgetter("rule", "player", "area", "amount", "on", "why")
#: what a deal not shown is drawn with (nothing: only its paper is followed)
_SKIPPED = Drawn()


class Texts(dict[Any, str]):
    """Each amount's text, remembered: ``texts[x]``, a dict's own lookup (the quickest: the paper's cells)."""

    def __init__(self, show: Callable[[Any], str]) -> None:
        super().__init__()
        self.show = show

    def __missing__(self, x: Any) -> str:
        if len(self) >= WRITES_SIZE:  # (bounded: a long log's running totals)
            self.clear()
        text = self[x] = self.show(x)
        return text


class Cells:
    """Each player's cells on the paper, drawn again only for a player a deal wrote for (``changed``)."""

    def __init__(self, show: Callable[[Any], str]) -> None:
        self.text = Texts(show)
        self.rows: dict[str, Any] = {}
        self.players: tuple[str, ...] = ()
        #: the players whose cells changed since they were last drawn
        self.stale: set[str] = set()

    def changed(self, r: DealResult, sheet: Sheet) -> bool:
        """The players whose cells the deal changed made stale (everyone's); whether the table changed."""
        table = sheet.players != self.players
        if table:
            self.players = sheet.players
            self.rows.clear()
        self.stale |= set(sheet.players) if table else {e.player for e in r.entries}
        return table


class TableDeals:
    """The table's deals, each drawn onto ``write``: its first line, entries, moves, the paper after it."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.cells = Cells(show)
        self.head: list[str] = []
        self.align: tuple[str, ...] = ()
        self.lines = deal_lines(spoken())

    def draw(self, r: DealResult, sheet: Sheet, drawn: Drawn) -> None:
        cells, players = self.cells, sheet.players
        if cells.changed(r, sheet):
            self.head = sheet_head(players)
            self.align = ("left", *["right"] * len(self.head))
        if drawn is _SKIPPED:
            return
        rows = cells.rows
        for p in cells.stale:
            rows[p] = [f"  {p}", *sheet_row(sheet, p, fmt=cells.text.__getitem__)]  # type: ignore[arg-type]
        cells.stale.clear()
        first = _(_NOT_DEALS[r.kind]) if r.kind in _NOT_DEALS else _("after deal {n}").format(n=r.number)
        head = deal_head(r, self.lines(r, len(players)))
        bombs = bombs_text(r) if r.kind not in _NOT_DEALS else None
        paper = grid(
            [rows[p] for p in players], ["  " + first, *self.head], self.align, "simple", None, margin=2
        )
        middle = f"\n  {bombs}\n" if bombs else "\n"
        paper = paper.replace("\n", "\n  ")  # (indented)
        self.write(f"\n{head}\n{drawn.entries}{middle}{drawn.moves}\n  {paper}\n")


def deal_lines(words: Words = ENGLISH) -> Callable[[DealResult, int], str]:
    """:func:`pulyacalc.reports.explain.deal_text`, made once per parsed text (``template``) and taker."""
    known: dict[Hashable, str] = {}

    def line(r: DealResult, seats: int) -> str:
        talon_by = talon_taker(r.deal, r.dealer, seats)
        template = getattr(r.deal, "template", None)
        if template is None:
            return deal_text(r.deal, words, talon_by)
        text = known.get((template, talon_by))
        if text is None:
            if len(known) >= WRITES_SIZE:
                known.clear()
            text = known[template, talon_by] = deal_text(r.deal, words, talon_by)
        return text

    return line


def json_members(pairs: Iterable[tuple[str, str]], depth: int) -> str:
    """An object's members as :func:`members` writes them, from each key and its value's text."""
    from json.encoder import encode_basestring  # how formats.dumps writes a string

    inner = "\n" + "  " * (depth + 1)
    return ",".join([inner + encode_basestring(key) + ": " + text for key, text in pairs])


def json_object(pairs: Iterable[tuple[str, str]], depth: int) -> str:
    """An object as :func:`json_members` writes its members, closed ``depth`` levels deep."""
    return "{" + json_members(pairs, depth) + "\n" + "  " * depth + "}"


def paper_format(sheet: Sheet, p: str) -> str:
    """A ``%`` format of player ``p``'s member of a deal's ``running`` paper, a ``%s`` per cell."""
    whists = json_object(((q.replace("%", "%%"), "%s") for q in sheet.whists[p]), 5)
    own = json_object((("pool", "%s"), ("mountain", "%s"), ("whists", whists)), 4)
    return json_members([(p.replace("%", "%%"), own)], 3)


class JsonDeals:
    """JSON's entries and deals, each drawn onto its own ``write``; a player's paper drawn when changed."""

    def __init__(self, entries: Callable[[str], None], deals: Callable[[str], None]) -> None:
        self.write_entries, self.write_deals = entries, deals
        self.entries = self.deals = False
        self.cells = Cells(lambda v: str(v) if type(v) is int else dumps(jnum(v)))
        self.paper: dict[str, str] = {}  # (each player's member, and its format)
        self.formats: dict[str, str] = {}
        self.heads: dict[tuple[str, bool], str] = {}
        self.lines = deal_lines()

    def draw(self, r: DealResult, sheet: Sheet, drawn: Drawn) -> None:
        if self.cells.changed(r, sheet):  # the table changed: everyone's columns too
            self.formats = {p: paper_format(sheet, p) for p in sheet.players}
        if drawn is _SKIPPED:
            return
        n = str(r.number)
        if drawn.flat[0]:
            flat = n.join(drawn.flat)
            self.write_entries(flat if self.entries else "[" + flat[1:])
            self.entries = True
        shown, stale = self.cells.text, self.cells.stale
        for p in stale:  # the members of the players whose cells changed, drawn again
            cells = (sheet.pool[p], sheet.mountain[p], *sheet.whists[p].values())
            self.paper[p] = self.formats[p] % tuple([str(v) if type(v) is int else shown[v] for v in cells])
        stale.clear()
        paper = ",".join([self.paper[p] for p in sheet.players])
        # (one join: a deal's text is long, and each ``+`` would copy it)
        start = ",\n    {" if self.deals else "[\n    {"
        self.write_deals(
            "".join((start, self._head(r), n.join(drawn.nested), "{", paper, "\n      }", drawn.tail))
        )
        self.deals = True

    def _head(self, r: DealResult) -> str:
        """The deal's members before its entries (its bombs', then :func:`deal_head_json`'s)."""
        from json.encoder import encode_basestring as text

        where, line = str(r.deal.loc), self.lines(r, len(self.cells.players))
        if r.bombs_earned or r.bomb != 1:
            return members({**bombs_json(r), **deal_head_json(r, where, line)}, 2)
        key = (r.kind, r.after_finish)
        fmt = self.heads.get(key)
        if fmt is None:
            doc = deal_head_json(r, where, line)
            pairs = [(k, "%s" if k in _HEAD_HOLES else dumps(v).replace("%", "%%")) for k, v in doc.items()]
            fmt = self.heads[key] = json_members(pairs, 2)
        return fmt % (r.number, text(where), text(r.dealer), text(line))


#: the members of :func:`deal_head_json` that differ from deal to deal, in its order
_HEAD_HOLES = ("deal", "where", "dealer", "line")
