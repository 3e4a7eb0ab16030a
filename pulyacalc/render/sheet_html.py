"""The drawn sheet as one self-contained HTML page: the SVG inline, and beside it the text
tables of ``score`` and ``explain`` — one file a table can send round after the evening.
No script, no link, no font or picture from anywhere: it opens the same offline."""

from __future__ import annotations

from xml.sax.saxutils import escape

CSS = (
    "body{margin:0;background:#ececec;color:#1a1a1a;font-family:DejaVu Sans,Verdana,Arial,sans-serif}"
    "main{display:flex;flex-wrap:wrap;gap:16px;padding:16px;align-items:flex-start}"
    ".page{background:#fff;box-shadow:0 1px 4px #0003;flex:0 0 auto}"
    ".page svg{display:block;width:210mm;max-width:100%;height:auto}"
    ".tables{flex:1 1 520px;min-width:0}"
    "h1{font-size:18px;margin:0 0 8px}h2{font-size:15px;margin:16px 0 6px}"
    "pre{background:#fff;padding:10px;overflow-x:auto;font-size:12px;line-height:1.35;"
    "font-family:DejaVu Sans Mono,Menlo,Consolas,monospace;box-shadow:0 1px 4px #0002}"
    "@page{size:A4;margin:0}"
    "@media print{body{background:#fff}main{display:block;padding:0}.page{box-shadow:none}"
    ".page svg{width:210mm;height:297mm}.tables{break-before:page;padding:10mm}pre{box-shadow:none}}"
)


def page(title: str, svg: str, tables: list[tuple[str, str]], refresh: int = 0) -> str:
    """The page: ``svg`` (without its XML declaration) and the ``tables`` beside it, each a
    heading and the text a command prints; ``refresh``: reloaded every so many seconds."""
    body = svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg
    again = f'<meta http-equiv="refresh" content="{refresh}">\n' if refresh else ""
    shown = "".join(f"<h2>{escape(head)}</h2>\n<pre>{escape(text)}</pre>\n" for head, text in tables)
    return (
        "<!DOCTYPE html>\n"
        '<html>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"{again}"
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        f'<div class="page">\n{body}</div>\n'
        f'<div class="tables">\n<h1>{escape(title)}</h1>\n'
        f"{shown}"
        "</div>\n</main>\n</body>\n</html>\n"
    )
