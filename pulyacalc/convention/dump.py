"""A convention written back as YAML, each key with a comment (``yaml.safe_dump`` cannot)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pulyacalc.convention.schema import SCHEMA, Convention, Key
from pulyacalc.core.i18n import _, tr

#: a word that may stand unquoted in block and flow context alike (no ``,:[]{}#`` or spaces)
_PLAIN = re.compile(r"[\w./+-]+")


def scalar(text: str) -> str:
    """A string as a YAML scalar that reads back as the same text."""
    import yaml  # the YAML reader decides what a plain scalar would be read as

    if _PLAIN.fullmatch(text) and yaml.safe_load(text) == text:
        return text
    import json

    # a JSON string is a YAML double-quoted scalar
    return json.dumps(text, ensure_ascii=False)


def flow(shown: Any) -> str:
    """A value as ``Key.show`` gives it, in YAML flow style on one line: ``{6: 2, 7: 4}``."""
    if isinstance(shown, bool):
        return "true" if shown else "false"
    if shown is None:
        return "null"
    if isinstance(shown, int):
        return str(shown)
    if isinstance(shown, Mapping):
        return "{" + ", ".join(f"{flow(k)}: {flow(v)}" for k, v in shown.items()) + "}"
    if isinstance(shown, list | tuple):
        return "[" + ", ".join(flow(v) for v in shown) + "]"
    return scalar(str(shown))


def shown(conv: Convention, row: Key) -> Any:
    """The value of ``row`` in ``conv`` as plain data (the YAML's value, JSON's too)."""
    return row.show(getattr(conv, row.field))


def sections() -> dict[str, list[Key]]:
    """The rows by section (the first part of the dotted name), in the schema's order."""
    out: dict[str, list[Key]] = {}
    for row in SCHEMA.values():
        out.setdefault(row.name.partition(".")[0], []).append(row)
    return out


def dump(conv: Convention, origin: str) -> str:
    """The whole convention as YAML text; ``origin`` says where it was read from (a comment)."""
    lines = [
        "# " + _("{title}: every key, merged from {origin}.").format(title=conv.title, origin=origin),
        "# " + _("Saved as a file, it is a convention of its own: pulyacalc score LOG -c FILE."),
        f"name: {scalar(conv.name)}",
        f"title: {scalar(conv.title)}",
    ]
    if conv.aliases:
        lines.append(f"aliases: {flow(list(conv.aliases))}")
    for section, rows in sections().items():
        lines += ["", f"{section}:"]
        for row in rows:
            comment = f"{row.ru} — {tr(row.doc)} [{tr(row.source)}]"
            lines.append("  # " + " ".join(comment.split()))  # one line, whatever the row's text holds
            lines.append(f"  {row.name.partition('.')[2]}: {flow(shown(conv, row))}")
    return "\n".join(lines) + "\n"
