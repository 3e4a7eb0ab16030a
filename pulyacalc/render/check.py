"""`check` as a view: the findings about a log (and, with ``--against``, where a paper sheet
and the log differ), one per line, each located."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pulyacalc.core.i18n import _, ngettext
from pulyacalc.render.view import SCHEMA_VERSION, counted

if TYPE_CHECKING:
    from pulyacalc.checks import Finding


@dataclass(frozen=True)
class CheckView:
    deals: int
    findings: list[Finding]
    #: with ``--against``: the sheet's name and the first deal where sheet and log part
    parting: int | None = None
    against: str | None = None

    def records(self) -> list[dict[str, Any]]:
        """One object per finding, each with ``schema_version`` as every JSON Lines object."""
        return [{"schema_version": SCHEMA_VERSION, **f} for f in self.items()]

    def items(self) -> list[dict[str, Any]]:
        """The findings as the document lists them."""
        return [
            {
                "where": str(f.loc),
                "file": f.loc.file,
                "line": f.loc.line,
                "column": f.loc.column,
                "code": f.code,
                "message": f.message,
                "hint": f.hint,
            }
            for f in self.findings
        ]

    def document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "ok": not self.faults(),
            "deals": self.deals,
            "findings": self.items(),
        }
        if self.against is not None:
            doc["against"] = self.against
            doc["parting_deal"] = self.parting
        return doc

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        head = ["file", "line", "column", "code", "message", "hint"]
        return head, [[r[k] for k in head] for r in self.items()]

    def faults(self) -> list[Finding]:
        """The findings that make the log unclean: all but the notices (corrections)."""
        from pulyacalc.checks import faults

        return faults(self.findings)

    def table(self) -> str:
        findings, deals = self.findings, self.deals
        lines = [f"{f.format()} [{f.code}]" for f in findings]
        bad = len(self.faults())
        fixed = len(findings) - bad
        # corrections are counted, so that a reviewer sees them, but are no fault (RULES.md 2.9)
        by_hand = (
            " "
            + ngettext(
                "and {n} correction written by hand", "and {n} corrections written by hand", fixed
            ).format(n=fixed)
            if fixed
            else ""
        )
        if bad:
            lines.append(
                _("{findings} in {deals}").format(
                    findings=counted(bad, "finding"), deals=counted(deals, "deal")
                )
                + by_hand
            )
        else:
            agree = " " + _("and the sheet agrees with the log") if self.against is not None else ""
            lines.append(
                _("clean: {deals}{by_hand}, nothing wrong or suspicious{agree}").format(
                    deals=counted(deals, "deal"), by_hand=by_hand, agree=agree
                )
            )
        return "\n".join(lines) + "\n"
