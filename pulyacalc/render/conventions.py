"""`conventions list | show | diff` as views (docs/output.md): ``show``'s table is the convention as a YAML
file, its JSON the same values by section, a value everywhere as ``Key.show`` gives it (``"1/2"``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pulyacalc.convention.dump import flow, sections, shown
from pulyacalc.core.i18n import _, ngettext, tr
from pulyacalc.render.view import SCHEMA_VERSION, WIDTH, versioned

if TYPE_CHECKING:
    from pulyacalc.convention.schema import Convention, Key
    from pulyacalc.reports.conventions import BuiltIn, Diff, Shown


def _about(row: Key) -> dict[str, str]:
    return {"meaning": row.doc, "russian": row.ru, "source": row.source}


def _head(conv: Convention) -> dict[str, str]:
    return {"name": conv.name, "title": conv.title, "source": conv.source}


@dataclass(frozen=True)
class ListView:
    conventions: list[BuiltIn]

    def records(self) -> list[dict[str, Any]]:
        return versioned(self.document()["conventions"])

    def document(self) -> dict[str, Any]:
        listed = [
            {"name": c.name, "title": c.title, "file": c.file, "description": c.description}
            for c in self.conventions
        ]
        return {"schema_version": SCHEMA_VERSION, "conventions": listed}

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        head = ["name", "title", "file", "description"]
        return head, [[r[h] for h in head] for r in self.document()["conventions"]]

    def table(self) -> str:
        from pulyacalc.render.table import grid

        body = [[c.name, c.title] for c in self.conventions]  # (where it is installed: -f json)
        text = grid(body, [_("name"), _("title")])
        more = _("Show one: pulyacalc conventions show NAME; compare two: pulyacalc conventions diff A B.")
        return f"{text}\n\n{more}\n"


@dataclass(frozen=True)
class ShowView:
    shown: Shown

    def records(self) -> list[dict[str, Any]]:
        conv = self.shown.convention
        keys = [row for rows in sections().values() for row in rows]
        return versioned({"key": row.name, "value": shown(conv, row), **_about(row)} for row in keys)

    def document(self) -> dict[str, Any]:
        conv = self.shown.convention
        values: dict[str, Any] = {}
        for section, rows in sections().items():
            target = values.setdefault(section, {}) if section else values
            for row in rows:
                target[row.name[len(section) + 1 :] if section else row.name] = shown(conv, row)
        return {"schema_version": SCHEMA_VERSION, **_head(conv), "convention": values}

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        head = ["key", "value", "meaning", "russian", "source"]
        return head, [[flow(r[h]) if h == "value" else r[h] for h in head] for r in self.records()]

    def table(self) -> str:
        return self.shown.yaml


@dataclass(frozen=True)
class DiffView:
    diff: Diff

    def records(self) -> list[dict[str, Any]]:
        return versioned(self.document()["differences"])

    def document(self) -> dict[str, Any]:
        d = self.diff
        found = [{"key": x.row.name, "a": x.a, "b": x.b, **_about(x.row)} for x in d.differences]
        return {"schema_version": SCHEMA_VERSION, "a": _head(d.a), "b": _head(d.b), "differences": found}

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        head = ["key", "a", "b", "meaning"]
        return head, [[x.row.name, flow(x.a), flow(x.b), x.row.doc] for x in self.diff.differences]

    def table(self) -> str:
        import textwrap

        from pulyacalc.render.table import grid

        d = self.diff
        a, b = (d.ref_a, d.ref_b) if d.ref_a != d.ref_b else ("A", "B")
        title = _("{a} «{a_title}» and {b} «{b_title}»")
        title = title.format(a=a, a_title=d.a.title, b=b, b_title=d.b.title)
        n = len(d.differences)
        if not n:
            return _("{title} agree on every key.").format(title=title) + "\n"
        body = [[x.row.name, flow(x.a), flow(x.b), tr(x.row.doc)] for x in d.differences]
        # a meaning may be long: wrapped, not a wide line
        text = grid(body, [_("key"), a, b, _("meaning")], maxcolwidths=[None, None, None, 50])
        keys = ngettext("{n} key differs", "{n} keys differ", n).format(n=n)
        width = WIDTH[0]
        drawn = [max(len(h) + 2, *(len(r[i]) for r in body)) for i, h in enumerate([_("key"), a, b])]
        if width is not None and sum(drawn) + 6 + min(50, max(len(r[3]) for r in body)) > width:
            # too wide: the values side by side, the meanings listed under them
            half = max(8, (width - drawn[0] - 4) // 2)
            text = grid([row[:3] for row in body], [_("key"), a, b], maxcolwidths=[None, half, half])
            meanings = [textwrap.fill(f"{row[0]}: {row[3]}", width, subsequent_indent="  ") for row in body]
            text += "\n\n" + "\n".join(meanings)
        return f"{title}: {keys}\n\n{text}\n"
