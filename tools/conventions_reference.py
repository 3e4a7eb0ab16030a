"""docs/conventions.md, generated from the schema rows: every key with its meaning, Russian
name, source, what a value looks like and its value in each built-in convention.

Regenerate with ``python tools/conventions_reference.py > docs/conventions.md``;
tests/test_schema.py fails when the committed file and the rows disagree.  A tool, not
part of the package: nothing pulyacalc runs needs it.
"""

from __future__ import annotations

from typing import Any

from pulyacalc.convention.load import load, ordered_names
from pulyacalc.convention.schema import SCHEMA

_INTRO = """\
# Convention keys

Generated from the rows of `pulyacalc/convention/schema.py` by
`python tools/conventions_reference.py > docs/conventions.md`; do not edit by hand
(`tests/test_schema.py` fails when this file and the rows disagree).

A convention is YAML (`conventions/*.yaml`): every key below is set in every built-in; a
house file `extends:` one and overrides a few keys, and a log may override keys too
(docs/format.md).  A key is written nested (`whist: {on_failure: gentleman}`) or dotted
(`whist.on_failure: gentleman`).

*Source*: `K3.8.6` is a clause of the Preferans Code of 1996 («Кодекс преферанса»), `K note 39`
one of its footnotes; RULES.md is docs/RULES.md; a *house agreement* is a choice the Code
leaves to the players.  *Value*: a table by level (`6..10 →`) is written
`{6: 2, 7: 4, 8: 6, 9: 8, 10: 10}` and shown below as its values for 6, 7, 8, 9, 10.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _value(shown: Any) -> str:
    """A value as Key.show gives it, written short for a table cell."""
    if isinstance(shown, dict):
        return " ".join(_value(v) for _, v in sorted(shown.items()))
    if isinstance(shown, list):
        return "[" + ", ".join(_value(v) for v in shown) + "]"
    if isinstance(shown, bool):
        return "true" if shown else "false"
    return str(shown)


def reference_markdown() -> str:
    """The text of docs/conventions.md."""
    names = ordered_names()
    convs = [load(n) for n in names]
    head = ["key", "meaning", "Russian", "source", "value", *names]
    lines = [_INTRO, "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for key, row in SCHEMA.items():
        cells = [f"`{key}`", row.doc, row.ru, row.source, row.parse.describe()]
        cells += [_value(row.show(getattr(c, row.field))) for c in convs]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys

    sys.stdout.write(reference_markdown())
