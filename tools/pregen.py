"""The built-in conventions pre-parsed (start-up): ``conventions/*.yaml`` read into located
nodes at build time and written out as Python data in ``convention/builtin.py`` (no PyYAML
at start-up), and built, as the values of their fields, in ``convention/built.py`` (a log
without overrides needs neither the tree nor checks).  ``load.pre_parsed`` and
``load.pre_built`` read them back.  Regenerate after changing a built-in convention
(tests/test_builtin_pregen.py fails until then): ``python tools/pregen.py``.  A tool, not
part of the package: nothing pulyacalc runs needs it.
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

from pulyacalc.convention.load import Tree
from pulyacalc.yamlsource import Node

_PACKAGE = Path(__file__).resolve().parent.parent / "pulyacalc" / "convention"
TARGET = _PACKAGE / "builtin.py"
BUILT_TARGET = _PACKAGE / "built.py"


def tree(n: Node) -> Tree:
    return (
        n.kind,
        n.loc.line,
        n.loc.column,
        n.text,
        tuple(tree(i) for i in n.items),
        tuple((tree(k), tree(v)) for k, v in n.pairs),
        n.quoted,
        n.null,
    )


def _head(what: str) -> list[str]:
    return [
        f'"""The built-in conventions, {what}: GENERATED from conventions/*.yaml by\n',
        '``python tools/pregen.py``; do not edit."""\n\n',
        "# ruff: noqa: E501\n",
        "# fmt: off\n",
    ]


def render(directory: Path) -> str:
    """The text of ``builtin.py`` for the conventions in ``directory``."""
    from pulyacalc.yamlsource import parse_yaml

    out = [
        *_head("pre-parsed"),
        "TREES: dict[str, tuple] = {  # type: ignore[type-arg]\n",
    ]
    for path in sorted(directory.glob("*.yaml")):
        data = path.read_bytes()
        n = parse_yaml(data.decode("utf-8-sig"), path.name)
        out.append(f"    {path.stem!r}: ({zlib.crc32(data)}, {tree(n)!r}),\n")
    out.append("}\n")
    return "".join(out)


def render_built(directory: Path) -> str:
    """The text of ``built.py`` for the conventions in ``directory``: each one's fields but
    ``source`` (where it is read from), as Python literals."""
    import dataclasses

    from pulyacalc.convention.load import _build
    from pulyacalc.yamlsource import parse_yaml

    out = [
        *_head("built"),
        "from fractions import Fraction  # noqa: F401  (values may be fractions)\n",
        "from typing import Any\n\n",
        "BUILT: dict[str, tuple[int, dict[str, Any]]] = {\n",
    ]
    for path in sorted(directory.glob("*.yaml")):
        data = path.read_bytes()
        conv = _build([parse_yaml(data.decode("utf-8-sig"), str(path))], str(path), 0)
        values = {f.name: getattr(conv, f.name) for f in dataclasses.fields(conv) if f.name != "source"}
        out.append(f"    {path.stem!r}: ({zlib.crc32(data)}, {values!r}),\n")
    out.append("}\n")
    return "".join(out)


def main() -> None:
    from pulyacalc.convention.load import builtin_dir

    TARGET.write_text(render(builtin_dir()), encoding="utf-8")
    BUILT_TARGET.write_text(render_built(builtin_dir()), encoding="utf-8")
    print(f"wrote {TARGET.name}, {BUILT_TARGET.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
