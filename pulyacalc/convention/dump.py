"""A convention written back as YAML: every key, nested by section as the built-in files
are written, each with a comment giving its Russian name, meaning and source.

The text is made from the schema rows (``Key.show`` gives each value as plain data), never
from a list of key names, so a new row is written with no edit here.  It is meant to be
saved and used as a convention file: loading it gives the same ``Convention`` (apart from
its name and source, which come from the file's own name and path).

Why not ``yaml.safe_dump``: it cannot interleave comments, and a level table reads best in
flow style on one line, as the built-ins write it.  Scalars are written plain only when a
YAML reader takes them as the same text (``1/2``, ``split``); anything else, a word a YAML
1.1 reader would turn into a boolean (``no``) included, is double-quoted.  The loader reads
every scalar as text (yamlsource), so the quotes never change a value.
"""

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
    """A value as ``Key.show`` gives it (mappings, lists, words, numbers, flags), in YAML
    flow style on one line: ``{6: 2, 7: 4}``, ``[1, 2, 3]``, ``true``, ``1/2``."""
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
    """The rows by section (the first part of the dotted name), in the schema's order;
    a key with no section is under ``""``."""
    out: dict[str, list[Key]] = {}
    for row in SCHEMA.values():
        section = row.name.split(".")[0] if "." in row.name else ""
        out.setdefault(section, []).append(row)
    return out


def _comment(row: Key) -> str:
    text = f"{row.ru} — {tr(row.doc)} [{tr(row.source)}]"
    return "# " + " ".join(text.split())  # one line, whatever the row's text holds


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
        lines.append("")
        indent = "  " if section else ""
        if section:
            lines.append(f"{section}:")
        for row in rows:
            leaf = row.name[len(section) + 1 :] if section else row.name
            lines.append(indent + _comment(row))
            lines.append(f"{indent}{leaf}: {flow(shown(conv, row))}")
    return "\n".join(lines) + "\n"
