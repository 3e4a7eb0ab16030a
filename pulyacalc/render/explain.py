"""`explain` as a view: every entry of the chosen deals with its rule and arithmetic, and
the running sheet after each deal, and the deal's ledger row (what it moves each result by).
JSON carries the entries flat and per deal (each deal with its ``ledger``); JSONL and CSV/TSV
one entry per line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pulyacalc.core.i18n import N_, NP_, _, current, pgettext, tr
from pulyacalc.render.view import (
    SCHEMA_VERSION,
    convention_title,
    counted,
    fraction_text,
    jnum,
    sheet_head,
    sheet_json,
    sheet_row,
    show,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pulyacalc.convention.schema import Convention
    from pulyacalc.core.sheet import SheetView
    from pulyacalc.explain import DealExplained, Explained, Explanation, Stream


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
    """Classic's bombs on a deal (RULES.md 2.10), as additive fields: only on a deal that
    earned a bomb, or was played on one."""
    out: dict[str, Any] = {}
    if r.bombs_earned:
        out["bombs_earned"] = {p: b for p, b in r.bombs_earned}
    if r.bomb != 1:
        out["bomb"] = {"coefficient": r.bomb, "used_up": r.bomb_spent}
    return out


def bombs_text(r: Any) -> str | None:
    """What a deal did with bombs (RULES.md 2.10), or None."""
    from pulyacalc.core.i18n import _

    said = []
    if r.bombs_earned:
        earned = ", ".join(f"{p} ×{b}" for p, b in r.bombs_earned)
        said.append(
            _("bombs earned (dark raspasy, level {level}): {earned}").format(level=r.dark, earned=earned)
        )
    if r.bomb != 1:
        who = getattr(r.deal, "declarer", "")
        if r.bomb_spent:
            said.append(
                _("{who} played on a bomb ×{bomb} and won: it is used up").format(who=who, bomb=r.bomb)
            )
        else:
            said.append(_("{who} played on a bomb ×{bomb} and lost: it stays").format(who=who, bomb=r.bomb))
    return "; ".join(said) or None


def deal_json(d: DealExplained) -> dict[str, Any]:
    r = d.result
    return {
        **bombs_json(r),
        **deal_head_json(r.number, d.where, r.dealer, r.kind, d.line, r.after_finish),
        **deal_tail_json(d.entries, sheet_json(d.running), d.ledger),
    }


def deal_head_json(
    number: int, where: str, dealer: str, kind: str, line: str, after_finish: bool
) -> dict[str, Any]:
    """A deal's JSON up to its entries."""
    return {
        "deal": number,
        "where": where,
        "dealer": dealer,
        "kind": kind,
        "line": line,
        "after_finish": after_finish,
    }


def deal_tail_json(entries: tuple[Explained, ...], running: Any, ledger: dict[str, Any]) -> dict[str, Any]:
    """A deal's JSON from its entries on (``running``: the paper after it, as JSON has it)."""
    return {
        "entries": [entry_json(x) for x in entries],
        "running": running,
        "ledger": {p: jnum(v) for p, v in ledger.items()},
        "ledger_exact": {p: fraction_text(v) for p, v in ledger.items()},
    }


@dataclass(frozen=True)
class ExplainView:
    """An explanation, showing ``deals`` (all of them, or the one asked with ``--deal``)."""

    explanation: Explanation
    deals: tuple[DealExplained, ...]

    def document(self) -> dict[str, Any]:
        ev, deals = self.explanation.evening, self.deals
        return {
            "schema_version": SCHEMA_VERSION,
            "players": list(ev.sheet.players),  # a newcomer included (RULES.md 6.3)
            "convention": ev.convention.name,
            "pool_target": ev.target,
            "entries": [entry_json(x) for d in deals for x in d.entries],
            "deals": [deal_json(d) for d in deals],
            "sheet": sheet_json(deals[-1].running if deals else ev.sheet),
        }

    def records(self) -> list[dict[str, Any]]:
        return [{"schema_version": SCHEMA_VERSION, **entry_json(x)} for d in self.deals for x in d.entries]

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        return ROW_HEAD, [entry_row(x) for d in self.deals for x in d.entries]

    def table(self) -> str:
        ev = self.explanation.evening
        players = ev.header.players
        head = table_head(ev.convention, players, ev.target, counted(ev.deals, "deal"))
        return head + "".join(deal_block(d, players) for d in self.deals)


def table_head(conv: Convention, players: tuple[str, ...], target: int, deals: str) -> str:
    """The table's first line and the empty line after it."""
    pool = _("pool to {target}").format(target=target)
    return f"{convention_title(conv)}, {counted(len(players), 'player')}, {pool}, {deals}\n"


def deal_block(d: DealExplained, players: tuple[str, ...]) -> str:
    """One deal of the table: an empty line, its line, its entries, its moves, the paper."""
    r = d.result
    players = d.running.players  # a newcomer has his column from his join on (RULES.md 6.3)
    first = _(_NOT_DEALS[r.kind]) if r.kind in _NOT_DEALS else _("after deal {n}").format(n=r.number)
    rows = [[f"  {p}", *sheet_row(d.running, p)] for p in players]
    return deal_top(d) + "\n" + paper(rows, ["  " + first, *sheet_head(players)]) + "\n"


def paper(rows: list[list[str]], head: list[str]) -> str:
    """The paper after a deal, indented under it: ``rows`` a player's name and his cells
    (:func:`pulyacalc.render.view.sheet_row`), ``head`` what is over them."""
    from pulyacalc.render.table import grid

    drawn = grid(rows, head, ("left", *["right"] * (len(head) - 1)), "simple", None, margin=2)
    return "  " + drawn.replace("\n", "\n  ")


def deal_top(d: DealExplained) -> str:
    """A deal of the table but for its paper: an empty line, its line, its entries, its moves."""
    r = d.result
    head = deal_head(r.kind, r.number, d.where, r.dealer, d.line, r.raspasy_run, r.after_finish)
    bombs = bombs_text(r) if r.kind not in ("correction", "join", "leave") else None
    return "\n".join(["", head, *deal_body(d.entries, d.ledger, bombs)])


def deal_head(
    kind: str, number: int | str, where: str, dealer: str, line: str, run: int, after_finish: bool
) -> str:
    """A deal's first line in the table: its number, place, dealer and line (``number`` a
    text: a stand-in for it, render/explain_fast.py)."""
    flags = []
    if run > 1:
        flags.append(_("raspasy no. {n} in a row").format(n=run))
    if after_finish:
        flags.append(_("after the pulya was finished"))
    extra = f" ({'; '.join(flags)})" if flags else ""
    if kind == "correction":  # not a deal (RULES.md 2.9): after the deal it follows
        after = _("after deal {n}").format(n=number) if number else _("before the first deal")
        return _("Correction {after} ({where}): {line}").format(after=after, where=where, line=line)
    if kind in ("join", "leave"):  # not a deal (RULES.md 6.3): the table changes
        after = _("after deal {n}").format(n=number) if number else _("before the first deal")
        return _("Table change {after} ({where}): {line}").format(after=after, where=where, line=line)
    return (
        _("Deal {n} ({where}), dealer {dealer}: {line}").format(
            n=number, where=where, dealer=dealer, line=line
        )
        + extra
    )


def deal_body(entries: tuple[Explained, ...], ledger: dict[str, Any], bombs: str | None) -> list[str]:
    """A deal's lines in the table after its first: its entries, its bombs, its moves."""
    from pulyacalc.core.amounts import num
    from pulyacalc.explain import place
    from pulyacalc.render.table import grid

    out: list[str] = []
    rows = []
    for x in entries:
        e = x.entry
        amount = num(e.amount)
        rows.append(
            [
                e.player,
                tr(place(e)),
                f"+{amount}" if e.amount > 0 else amount,
                _why(x),
                f"{rule_name(e.rule)} §{x.rule.section} {x.rule.kodeks}",
            ]
        )
    if rows:
        table = grid(
            rows,
            tablefmt="plain",
            colalign=("left", "left", "right", "left", "left"),
            margin=2,
        )
        out.extend("  " + line for line in table.splitlines())
    else:
        out.append("  " + _("(nothing is written)"))
    if bombs:
        out.append(f"  {bombs}")
    moves = ", ".join(f"{p} {'+' if v > 0 else ''}{show(v)}" for p, v in ledger.items())
    out.append("  " + _("moves the results: {moves}").format(moves=moves))
    return out


#: what a result that is not a deal is called under its paper
_NOT_DEALS = {
    "correction": N_("after the correction"),
    "join": N_("after the join"),
    "leave": N_("after the leave"),
}
#: the rules' ids as the table names them in a language other than English (where the id,
#: which JSON and CSV keep, is English); msgctxt "rule" keeps them apart from the same words
RULE_NAMES = {
    "unplayed": NP_("rule", "unplayed"),
    "half-whist": NP_("rule", "half-whist"),
    "made": NP_("rule", "made"),
    "remise": NP_("rule", "remise"),
    "whists": NP_("rule", "whists"),
    "consolation": NP_("rule", "consolation"),
    "gentleman": NP_("rule", "gentleman"),
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
    if current() == "en" or rule not in RULE_NAMES:
        return rule
    return pgettext("rule", rule)


def _why(x: Explained) -> str:
    """The entry's arithmetic and reason, in the chosen language (the English is the tail of
    its sentence, as JSON's ``text`` has it)."""
    if current() == "en":
        return x.text.split(": ", 1)[1] if ": " in x.text else ""
    from pulyacalc.explain import with_result

    e = x.entry
    why = tr(e.why).strip()
    if not why or e.rule == "correction":
        return why
    return with_result(why, -e.amount if e.amount < 0 else e.amount)


def sentence_shown(x: Explained) -> str:
    """The entry's whole sentence (``Vera whists on Boris +12: 3 tricks × 4 = 12``) in the
    chosen language (English: the sentence JSON's ``text`` has)."""
    if current() == "en":
        return x.text
    from pulyacalc.core.amounts import num

    e = x.entry
    amount = num(e.amount)
    lead = f"{e.player} {tr(place_of(e))} {'+' if e.amount > 0 else ''}{amount}"
    why = _why(x)
    return f"{lead}: {why}" if why else lead


def place_of(e: Any) -> str:
    from pulyacalc.explain import place

    return place(e)


def entry_row(x: Explained) -> list[Any]:
    """An entry as a CSV row (the order of ``ROW_HEAD``)."""
    e = x.entry
    return [e.deal, e.rule, x.rule.section, e.player, e.area, e.on or "", fraction_text(e.amount), e.why]


ROW_HEAD = ["deal", "rule", "section", "player", "area", "on", "amount", "why"]


def json_head(s: Stream) -> str:
    """The JSON document's start, up to its ``entries`` list (both ways of drawing it)."""
    from pulyacalc.render.formats import dumps

    head = {
        "schema_version": SCHEMA_VERSION,
        "players": list(s.header.players),
        "convention": s.convention.name,
        "pool_target": s.target,
    }
    return dumps(head).removesuffix("\n}") + ',\n  "entries": '


@dataclass
class ExplainStream:
    """``explain`` of a whole log in flat memory (a streaming view, render/view.StreamView):
    each shape is written deal by deal as the deals are scored.  The table names the log's
    deal count in its first line, known only at the end: the deals are written to a spool
    (memory, then a temporary file past a megabyte) and the first line goes out before it.
    With ``--deal N`` (``stream.upto``) only deal N is shown, and the count reads «deal N
    of the log» (the rest of the log is never read).  JSON is one document, written in
    pieces (:meth:`json_chunks`) in the bytes :meth:`document` would give."""

    stream: Stream
    #: deals (and corrections) shown so far: none after the stream is spent means that
    #: ``--deal N`` is past the log's end
    shown: int = 0

    def _shown(self) -> Iterator[DealExplained]:
        upto = self.stream.upto
        for d in self.stream.deals:
            if upto is None or d.result.number == upto:
                self.shown += 1
                yield d

    def table_chunks(self) -> Iterator[str]:
        import tempfile

        s = self.stream
        players = s.header.players
        with tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8") as spool:
            for d in self._shown():
                spool.write(deal_block(d, players))
            deals = (
                _("deal {n} of the log").format(n=s.upto) if s.upto is not None else counted(s.count, "deal")
            )
            yield table_head(s.convention, players, s.target, deals)
            spool.seek(0)
            while chunk := spool.read(1 << 16):
                yield chunk

    def table(self) -> str:
        return "".join(self.table_chunks())

    def json_chunks(self) -> Iterator[str]:
        """The document of :meth:`document`, in its bytes, deal by deal: each entry goes out
        as its deal is scored, each deal's own object into a spool (a temporary file) that
        follows the entries; the sheet after the last deal ends it."""
        import tempfile

        from pulyacalc.render.formats import nested

        s = self.stream
        yield json_head(s)
        last: DealExplained | None = None
        opened = False
        with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as spool:
            for d in self._shown():
                spool.write(("," if last is not None else "[") + "\n    " + nested(deal_json(d), 2))
                last = d
                for x in d.entries:
                    yield ("," if opened else "[") + "\n    " + nested(entry_json(x), 2)
                    opened = True
            yield ("\n  ]" if opened else "[]") + ',\n  "deals": '
            spool.seek(0)
            while chunk := spool.read(1 << 16):
                yield chunk
        sheet = last.running if last is not None else s.sheet or _empty(s)
        yield (
            ("\n  ]" if last is not None else "[]")
            + ',\n  "sheet": '
            + nested(sheet_json(sheet), 1)
            + "\n}\n"
        )

    def records_iter(self) -> Iterator[dict[str, Any]]:
        for d in self._shown():
            for x in d.entries:
                yield {"schema_version": SCHEMA_VERSION, **entry_json(x)}

    def records(self) -> list[dict[str, Any]]:
        return list(self.records_iter())

    def rows_iter(self) -> tuple[list[str], Iterator[list[Any]]]:
        return ROW_HEAD, (entry_row(x) for d in self._shown() for x in d.entries)

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        head, rows = self.rows_iter()
        return head, list(rows)

    def document(self) -> dict[str, Any]:
        s = self.stream
        deals = list(self._shown())
        sheet = deals[-1].running if deals else s.sheet or _empty(s)
        return {
            "schema_version": SCHEMA_VERSION,
            "players": list(sheet.players),  # a newcomer included (RULES.md 6.3)
            "convention": s.convention.name,
            "pool_target": s.target,
            "entries": [entry_json(x) for d in deals for x in d.entries],
            "deals": [deal_json(d) for d in deals],
            "sheet": sheet_json(sheet),
        }


def fast_format(fmt: str) -> bool:
    """Whether ``explain`` in ``fmt`` may read a line log the fast way (render/explain_fast.py):
    every format, a table fitted to a width too (``COLUMNS``, a terminal)."""
    return fmt in ("table", "json", "jsonl", "csv", "tsv")


def _empty(s: Stream) -> SheetView:
    from pulyacalc.core.sheet import Sheet

    return Sheet(s.header.players).view()
