"""`check` as a view: the findings about a log (``--against``: where a paper sheet differs), one per line,
each located; each shape streams them, counted as they go (a 500,000-deal log in flat memory)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pulyacalc.core.i18n import _, ngettext
from pulyacalc.render.formats import Later
from pulyacalc.render.view import SCHEMA_VERSION, counted
from pulyacalc.reports.check import NOTICES, Finding

#: the columns of ``-f csv`` / ``-f tsv``
HEAD = ["file", "line", "column", "code", "message", "hint"]


@dataclass
class CheckView:
    deals: int
    #: a list, or an iterator that finds them (``deals`` and ``parting`` are read after it)
    findings: Iterable[Finding]
    #: with ``--against``: the sheet's name and the first deal where sheet and log part
    parting: int | None = None
    against: str | None = None
    #: the findings written so far that make the log unclean, and the notices (corrections)
    bad: int = 0
    notices: int = 0

    def _counted(self) -> Iterator[Finding]:
        self.bad = self.notices = 0
        for f in self.findings:
            notice = f.code in NOTICES
            self.notices += notice
            self.bad += not notice
            yield f

    def records(self) -> Iterator[dict[str, Any]]:
        """One object per finding, each with ``schema_version`` as every JSON Lines object."""
        return ({"schema_version": SCHEMA_VERSION, **item(f)} for f in self._counted())

    def document(self) -> dict[str, Any]:
        """The findings streamed; whether the log is clean and its deals known after them."""
        doc: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "ok": Later(lambda: not self.bad),
            "deals": Later(lambda: self.deals),
            "findings": map(item, self._counted()),
        }
        if self.against is not None:
            doc["against"] = self.against
            doc["parting_deal"] = Later(lambda: self.parting)
        return doc

    def rows(self) -> tuple[list[str], Iterator[list[Any]]]:
        return HEAD, ([r[k] for k in HEAD] for r in map(item, self._counted()))

    def table(self) -> Iterator[str]:
        for f in self._counted():
            yield f"{f.format()} [{f.code}]\n"
        yield self.summary() + "\n"

    def summary(self) -> str:
        """The last line of the table: the findings counted, in how many deals."""
        bad, fixed, deals = self.bad, self.notices, self.deals
        # corrections are counted, so that a reviewer sees them, but are no fault (RULES.md 2.9)
        by_hand = ngettext("and {n} correction written by hand", "and {n} corrections written by hand", fixed)
        by_hand = " " + by_hand.format(n=fixed) if fixed else ""
        if bad:
            found = counted(bad, "finding")
            return _("{findings} in {deals}").format(findings=found, deals=counted(deals, "deal")) + by_hand
        agree = " " + _("and the sheet agrees with the log") if self.against is not None else ""
        clean = _("clean: {deals}{by_hand}, nothing wrong or suspicious{agree}")
        return clean.format(deals=counted(deals, "deal"), by_hand=by_hand, agree=agree)


def item(f: Finding) -> dict[str, Any]:
    """A finding as the document lists it; a range of deals (``check.merged``) adds its ends and count."""
    out: dict[str, Any] = {
        "where": str(f.loc),
        "file": f.loc.file,
        "line": f.loc.line,
        "column": f.loc.column,
        "code": f.code,
        "message": f.message,
        "hint": f.hint,
    }
    if f.last_deal is not None:
        out.update(deal=f.deal, last_deal=f.last_deal, count=f.count)
    return out
