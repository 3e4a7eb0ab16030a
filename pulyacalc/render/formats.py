"""The format table: every output format by name, with the one function that writes it
(sqlite-utils style: a report hands its shapes to one place that writes them).

A view (:class:`pulyacalc.render.view.View`) gives four shapes; each writer here turns one
of them into text.  ``render(view, fmt)`` looks the format up in :data:`FORMATS`.  A new
format is one module in ``render/`` with a ``write(view) -> str`` and one entry in
:data:`FORMATS` (the command line's ``--format`` choices are the table's names); json, csv
and tabulate are imported by the writer that needs them, never at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # for the type only: the command line reads this table at start-up, nothing more
    from pulyacalc.render.view import View

    Writer = Callable[[View], str]


def dumps(doc: Any) -> str:
    """The one JSON spelling of a document: UTF-8 as it is, indented by two."""
    import json  # only for this format (start-up time)

    return json.dumps(doc, ensure_ascii=False, indent=2)


def write_table(view: View) -> str:
    return view.table()


def write_json(view: View) -> str:
    return dumps(view.document()) + "\n"


def write_jsonl(view: View) -> str:
    import json  # only for this format (start-up time)

    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in view.records())


def delimited(view: View, delimiter: str) -> str:
    """The header and the rows, one line each (the package's only csv writer)."""
    import csv  # only for these formats (start-up time)
    import io

    head, rows = view.rows()
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    w.writerow(head)
    w.writerows(rows)
    return buf.getvalue()


def write_csv(view: View) -> str:
    return delimited(view, ",")


def write_tsv(view: View) -> str:
    return delimited(view, "\t")


#: every output format: its name (as given to ``-f``) and its writer; ``table`` is the default
FORMATS: dict[str, Writer] = {
    "table": write_table,
    "json": write_json,
    "jsonl": write_jsonl,
    "csv": write_csv,
    "tsv": write_tsv,
}


def render(view: View, fmt: str) -> str:
    """The view written in the format named ``fmt`` (a name of :data:`FORMATS`)."""
    return FORMATS[fmt](view)
