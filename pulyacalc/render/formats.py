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
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    # for the type only: the command line reads this table at start-up, nothing more
    from collections.abc import Iterable

    from pulyacalc.render.view import StreamView, View

    Writer = Callable[[View], str]


def dumps(doc: Any) -> str:
    """The one JSON spelling of a document: UTF-8 as it is, indented by two."""
    import json  # only for this format (start-up time)

    return json.dumps(doc, ensure_ascii=False, indent=2)


def nested(value: Any, depth: int) -> str:
    """``dumps(value)`` as it reads ``depth`` levels deep in an indented document: a piece
    of :func:`dumps`'s text written on its own (a JSON text has no raw newline in a string,
    so each line break is a line of the layout)."""
    return dumps(value).replace("\n", "\n" + "  " * depth)


def write_table(view: View) -> str:
    return view.table()


def write_json(view: View) -> str:
    return dumps(view.document()) + "\n"


def write_jsonl(view: View) -> str:
    import json  # only for this format (start-up time)

    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in view.records())


def delimited(view: View, delimiter: str) -> str:
    """The header and the rows, one line each (through the package's only csv writer)."""
    import io

    head, rows = view.rows()
    buf = io.StringIO()
    write_delimited(head, rows, buf, delimiter)
    return buf.getvalue()


def write_delimited(head: list[str], rows: Iterable[list[Any]], out: TextIO, delimiter: str) -> None:
    """The header and the rows onto ``out``, row by row as they come."""
    import csv  # only for these formats (start-up time)

    w = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    w.writerow(head)
    w.writerows(rows)


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


def write_to(view: StreamView, fmt: str, out: TextIO) -> None:
    """The streaming view written in ``fmt`` onto ``out`` piece by piece, in the same bytes
    as :func:`render`, in flat memory whatever the format."""
    if fmt == "table":
        for chunk in view.table_chunks():
            out.write(chunk)
    elif fmt == "json":
        for chunk in view.json_chunks():
            out.write(chunk)
    elif fmt == "jsonl":
        import json  # only for this format (start-up time)

        for record in view.records_iter():
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    elif fmt in ("csv", "tsv"):
        head, rows = view.rows_iter()
        write_delimited(head, rows, out, "," if fmt == "csv" else "\t")
    else:
        out.write(render(view, fmt))
