"""`check` as a view: the findings about a log (and, with ``--against``, where a paper sheet
and the log differ), one per line, each located."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pulyacalc.render.view import SCHEMA_VERSION

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
            "ok": not self.findings,
            "deals": self.deals,
            "findings": self.records(),
        }
        if self.against is not None:
            doc["against"] = self.against
            doc["parting_deal"] = self.parting
        return doc

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        head = ["file", "line", "column", "code", "message", "hint"]
        return head, [[r[k] for k in head] for r in self.records()]

    def table(self) -> str:
        findings, deals = self.findings, self.deals
        lines = [f"{f.format()} [{f.code}]" for f in findings]
        if findings:
            lines.append(f"{len(findings)} finding{'s' if len(findings) != 1 else ''} in {deals} deals")
        else:
            agree = " and the sheet agrees with the log" if self.against is not None else ""
            lines.append(f"clean: {deals} deals, nothing wrong or suspicious{agree}")
        return "\n".join(lines) + "\n"
