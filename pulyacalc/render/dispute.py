"""`dispute` as a view: for one deal, each contested key that matters, each reading side by side: every
player's result and change under it, the clause it rests on, and the deal's entries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pulyacalc.core.i18n import _, ngettext, tr
from pulyacalc.render.aligned import tabulated
from pulyacalc.render.explain import entry_json, sentence_shown
from pulyacalc.render.view import SCHEMA_VERSION, decimal, fraction_text, jnum, show, signed

if TYPE_CHECKING:
    from pulyacalc.reports.dispute import Dispute, Disputed, Reading


def reading_name(k: Disputed, r: Reading) -> str:
    """The reading as a player names it (``greedy whist``), in the chosen language."""
    return tr(k.key.contested.name(r.value)) if k.key.contested else r.text


def changes(k: Disputed) -> bool:
    """Does the key change anything: a result over the evening, or what this deal moves?"""
    own = next((r.moves for r in k.readings if r.own), None)
    return any(r.settlement is None or any(r.change.values()) or r.moves != own for r in k.readings)


def reading_json(r: Reading, players: tuple[str, ...], k: Disputed) -> dict[str, Any]:
    d: dict[str, Any] = {
        "value": r.text,
        "name": reading_name(k, r),
        "source": r.source,
        "own": r.own,
        "override": r.override,
        "refused": [{"where": str(p.loc), "message": p.message, "hint": p.hint} for p in r.refused],
        "entries": [entry_json(x) for x in r.entries],
    }
    s = r.settlement
    if s is not None:
        shown = (("result", s.result, s.exact), ("change", r.change, r.change_exact))
        for name, near, exact in (*shown, ("deal_moves", r.moves, r.moves)):
            d[name] = {p: jnum(near[p]) for p in players}
            d[f"{name}_exact"] = {p: fraction_text(exact[p]) for p in players}
    return d


def key_json(k: Disputed, players: tuple[str, ...]) -> dict[str, Any]:
    level = {"level": k.level} if k.level is not None else {}
    readings = [reading_json(r, players, k) for r in k.readings]
    head = {"key": k.key.name, "ru": k.key.ru, "doc": k.key.doc, **level}
    return {**head, "changes": changes(k), "readings": readings}


@dataclass(frozen=True)
class DisputeView:
    dispute: Dispute

    @property
    def players(self) -> tuple[str, ...]:
        return self.dispute.settlement.players  # the table as it ended: a newcomer too

    def document(self) -> dict[str, Any]:
        d, r, players = self.dispute, self.dispute.result, self.players
        deal = {"number": r.number, "where": d.where, "dealer": r.dealer, "kind": r.kind, "line": d.line}
        return {
            "schema_version": SCHEMA_VERSION,
            "players": list(players),
            "convention": d.evening.convention.name,
            "deal": deal,
            "settlement": {p: jnum(d.settlement.result[p]) for p in players},
            "settlement_exact": {p: fraction_text(d.settlement.exact[p]) for p in players},
            "contested": [key_json(k, players) for k in d.keys],
        }

    def records(self) -> list[dict[str, Any]]:
        players, number = self.players, self.dispute.result.number
        out = []
        for k in self.dispute.keys:
            level = {"level": k.level} if k.level is not None else {}
            head = {"schema_version": SCHEMA_VERSION, "deal": number, "key": k.key.name, **level}
            out += [head | reading_json(r, players, k) for r in k.readings]
        return out

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        players, number = self.players, self.dispute.result.number
        head = ["deal", "key", "level", "value", "own", "source", *[f"result_{p}" for p in players]]
        head += [*[f"change_{p}" for p in players], "refused"]
        rows: list[list[Any]] = []
        for k in self.dispute.keys:
            for r in k.readings:
                s = r.settlement
                results = [decimal(s.result[p]) if s else "" for p in players]
                changes = [decimal(r.change[p]) if s else "" for p in players]
                refused = "; ".join(f"{p.loc}: {p.message}" for p in r.refused)
                level = "" if k.level is None else k.level
                own = "true" if r.own else "false"
                rows.append([number, k.key.name, level, r.text, own, r.source, *results, *changes, refused])
        return head, rows

    def table(self) -> str:
        d = self.dispute
        r, name = d.result, d.evening.convention.name
        title = _("Deal {n} ({where}), dealer {dealer}: {line}")
        out = [title.format(n=r.number, where=d.where, dealer=r.dealer, line=tr(d.line))]
        if not d.keys:
            nothing = _(
                "Nothing is contested on this deal under {name}: "
                "no key that tables read differently matters for a deal like it."
            )
            return "\n".join([*out, nothing.format(name=name)]) + "\n"
        under = _(
            "Under {name}; * marks the log's own reading.  Each reading: the whole\n"
            "evening scored with that key in the header, every player's final result in whists\n"
            "(its change against the log's own: every deal the key matters for counts)."
        )
        out.append(under.format(name=name))
        for k in d.keys:
            out += ["", *self._key(k)] if changes(k) else []
        same = [f"{k.key.name} ({' / '.join(reading_name(k, r) for r in k.readings)})" for k in d.keys]
        same = [text for text, k in zip(same, d.keys, strict=True) if not changes(k)]
        if same:
            also = _("Also contested, the same results under every reading: {keys}")
            out += ["", also.format(keys="; ".join(same))]
        return "\n".join(out) + "\n"

    def _key(self, k: Disputed) -> list[str]:
        players = self.players
        at = " " + _("on {level}").format(level=k.level) if k.level is not None else ""
        out = [f"{k.key.name}{at} — {k.key.ru}", f"  {tr(k.key.doc)}", ""]
        rows = []
        for r in k.readings:
            s = r.settlement
            if s is None:
                cells = [_("refused")] * len(players)
            else:
                cells = [show(s.result[p]) + ("" if r.own else f" ({signed(r.change[p])})") for p in players]
            rows.append([reading_name(k, r) + (" *" if r.own else ""), *cells])
        # the CSV's names: value, result_<player> (the change beside it in brackets)
        table = tabulated(rows, [_("value"), *[_("result {player}").format(player=p) for p in players]])
        out += [*("  " + line for line in table.splitlines())]
        out += ["  " + _("in brackets: the change over the evening against the log's own reading (*)"), ""]
        for r in k.readings:
            header = _("in the header: {override}").format(override=r.override)
            out.append(f"  {reading_name(k, r)}{' *' if r.own else ''} — {tr(r.source)}; {header}")
            if r.refused:
                first, more = r.refused[0], len(r.refused) - 1
                rest = ngettext("(and {n} more problem)", "(and {n} more problems)", more).format(n=more)
                refused = _("refused: {where}: {message}").format(where=first.loc, message=tr(first.message))
                out.append("    " + refused + (" " + rest if more else ""))
            elif not r.entries:
                out.append("    " + _("(nothing is written)"))
            else:
                out += [f"    {sentence_shown(x)}" for x in r.entries]
            if r.moves:
                moves = ", ".join(f"{p} {signed(v)}" for p, v in r.moves.items())
                out.append("    " + _("this deal moves the results: {moves}").format(moves=moves))
        return out
