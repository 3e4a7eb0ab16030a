"""The message catalogs: extract the template, update the Russian catalog, compile it.

    python tools/i18n.py update     # sources -> pulyacalc/locale/pulyacalc.pot -> ru .po (merged) -> .mo
    python tools/i18n.py compile    # ru .po -> .mo only (after translating)
    python tools/i18n.py missing    # msgids of the sources with no Russian yet (exit 1 if any)

Needs Babel (the ``dev`` and ``test`` extras); the package itself reads the compiled ``.mo``
with the standard library's gettext only.  What is extracted: every ``_()``, ``N_()``, ``M_()``,
``ngettext()`` and ``pgettext()`` in ``pulyacalc/``, and the docstring of every command function
in ``pulyacalc/cli/commands/`` (the one named as its module, or decorated ``@….command``:
Typer shows it as the command's help).  ``tests/test_i18n.py``
fails when the committed ``.mo`` is not the compiled ``.po``.
"""

from __future__ import annotations

import ast
import inspect
import io
import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pulyacalc"
LOCALE = PACKAGE / "locale"
POT = LOCALE / "pulyacalc.pot"
LANGS = ("ru",)
KEYWORDS = {
    "_": None,
    "N_": None,
    "M_": None,
    "MN_": (1, 2),
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "NP_": ((1, "c"), 2),
}
#: fixed, so that an unchanged template is an unchanged file
DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "pulyacalc.po"


def mo_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "pulyacalc.mo"


def docstrings() -> Iterator[tuple[str, int, str]]:
    """The help of every command: the docstrings of the command functions in cli/commands."""
    for path in sorted((PACKAGE / "cli" / "commands").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            commanded = any(
                isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "command"
                for d in getattr(node, "decorator_list", [])
            )
            if isinstance(node, ast.FunctionDef) and (node.name == path.stem or commanded):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    # as click shows it: cleaned, cut at \f
                    yield str(path.relative_to(ROOT)), node.lineno, inspect.cleandoc(doc).split("\f")[0]


def schema_texts() -> Iterator[tuple[str, int, str]]:
    """The convention keys' meanings and sources (the rows of ``SCHEMA``) and the sources and
    names of their contested readings, which convention/schema.py makes Texts."""
    from pulyacalc.convention.schema import SCHEMA

    where = str((PACKAGE / "convention" / "schema.py").relative_to(ROOT))
    for row in SCHEMA.values():
        yield where, 0, str(row.doc)
        yield where, 0, str(row.source)
        for source in row.contested.sources.values() if row.contested else ():
            yield where, 0, str(source)
        for name in row.contested.names.values() if row.contested else ():
            yield where, 0, str(name)


def template() -> Catalog:
    """Every message of the sources, as a catalog with no translations."""
    cat = Catalog(project="pulyacalc", version="", creation_date=DATE, fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE),
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("i18n:",),
        strip_comment_tags=True,
    ):
        where = f"pulyacalc/{filename}"
        if isinstance(message, tuple):
            if not all(message):
                continue
            cat.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
        elif message:
            cat.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    for where, lineno, doc in (*docstrings(), *schema_texts()):
        cat.add(doc, None, [(where, lineno)])
    return cat


def dump_po(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=True, include_lineno=False, omit_header=False)
    return buf.getvalue()


def compiled(lang: str) -> bytes:
    """The ``.mo`` the ``.po`` of ``lang`` compiles to (fuzzy entries left out)."""
    with po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def update() -> None:
    pot = template()
    POT.parent.mkdir(parents=True, exist_ok=True)
    POT.write_bytes(dump_po(pot))
    for lang in LANGS:
        path = po_path(lang)
        if path.exists():
            cat = read(lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            cat = Catalog(locale=lang, project="pulyacalc", version="", creation_date=DATE)
        cat.update(pot, no_fuzzy_matching=True, update_header_comment=False)
        cat.revision_date = DATE
        cat.creation_date = DATE
        cat.fuzzy = False
        cat.language_team = "Russian"
        cat.last_translator = "pulyacalc"
        path.write_bytes(dump_po(cat))
    compile_all()


def compile_all() -> None:
    for lang in LANGS:
        mo_path(lang).write_bytes(compiled(lang))


def missing(lang: str = "ru") -> list[str]:
    """The messages of the sources that ``lang`` does not translate."""
    cat = read(lang)
    out = []
    for msg in template():
        if not msg.id:
            continue
        have = cat.get(msg.id, context=msg.context)
        strings = have.string if have is not None else None
        if have is None or have.fuzzy or not strings or (isinstance(strings, tuple) and not all(strings)):
            out.append(msg.id if isinstance(msg.id, str) else msg.id[0])
    return out


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "update"
    if what == "update":
        update()
    elif what == "compile":
        compile_all()
    elif what == "missing":
        left = missing()
        for m in left:
            print(m)
        return 1 if left else 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
