"""The drawn sheet as one self-contained HTML page: the SVG inline, beside it (under it on a phone) the
tables of ``score`` and ``explain`` as HTML tables.  No script, link, font or picture: it opens offline."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from pulyacalc.render.table import MARK

CSS = (
    "body{margin:0;background:#ececec;color:#1a1a1a;font-family:DejaVu Sans,Verdana,Arial,sans-serif}"
    "main{display:flex;flex-wrap:wrap;gap:16px;padding:16px;align-items:flex-start}"
    ".page{background:#fff;box-shadow:0 1px 4px #0003;flex:0 1 210mm;max-width:100%}"
    ".page svg{display:block;width:100%;height:auto}"
    ".tables{flex:1 1 520px;min-width:0;max-width:100%}"
    "h1{font-size:18px;margin:0 0 8px}h2{font-size:15px;margin:16px 0 6px}"
    "p{margin:4px 0;font-size:13px;overflow-wrap:anywhere}"
    ".t{overflow-x:auto;max-width:100%;margin:6px 0}"
    "table{border-collapse:collapse;background:#fff;font-size:12px;box-shadow:0 1px 4px #0002}"
    "th,td{padding:2px 8px;text-align:left;vertical-align:top}th{border-bottom:1px solid #999}"
    "td.n,th.n{text-align:right;white-space:nowrap}"
    "@media (max-width:600px){main{padding:6px;gap:8px}.tables{flex-basis:100%}}"
    "@page{size:A4;margin:0}"
    "@media print{body{background:#fff}main{display:block;padding:0}.page{box-shadow:none}"
    ".page svg{width:210mm;height:297mm}.tables{break-before:page;padding:10mm}table{box-shadow:none}}"
)


def html_text(text: str, made: Sequence[str] = ()) -> str:
    """A command's text as HTML: each table marked in it in its place, each other line a paragraph."""
    out = []
    for line in text.splitlines():
        found = MARK.fullmatch(line.strip())
        if found is not None and int(found.group(1)) < len(made):
            out.append(f'<div class="t">{made[int(found.group(1))]}</div>')
        elif line.strip():
            out.append(f"<p>{escape(line.strip())}</p>")
    return "\n".join(out)


def page(
    title: str, svg: str, tables: list[tuple[str, str]], refresh: int = 0, *, made: Sequence[str] = ()
) -> str:
    """The page: ``svg`` and the ``tables`` beside it (each a heading and a command's text, ``made``: its
    tables' HTML); ``refresh``: reloaded every so many seconds."""
    body = svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg
    again = f'<meta http-equiv="refresh" content="{refresh}">\n' if refresh else ""
    shown = "".join(f"<h2>{escape(head)}</h2>\n{html_text(text, made)}\n" for head, text in tables)
    return (
        '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"{again}<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        f'<div class="page">\n{body}</div>\n<div class="tables">\n<h1>{escape(title)}</h1>\n{shown}'
        "</div>\n</main>\n</body>\n</html>\n"
    )
