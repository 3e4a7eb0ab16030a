"""Standard output and error on any terminal: UTF-8 into files and pipes, and on a console
whose encoding lacks a character (cp866, cp1251, ASCII) a plain stand-in (× → x, ♠ → s)
instead of a UnicodeEncodeError.  Only :mod:`codecs` and :mod:`sys` are imported: every start."""

from __future__ import annotations

import codecs
import sys
from typing import TextIO

#: symbols pulyacalc prints and their stand-ins where the console cannot show them
SYMBOLS = dict(zip("×·−–—♠♣♦♥«»“”„‘’→≥≤", 'x.---scdh"""""\'\'>><', strict=True))
SYMBOLS |= {"…": "...", "\u00a0": " ", "\u2009": " ", "\u202f": " "}
# vulgar fractions after a whole part (46⅔ → 46 2/3); tables ask for the ASCII spelling
# themselves on such a console (setup), so these are for any other text
SYMBOLS |= {"½": " 1/2", "⅓": " 1/3", "⅔": " 2/3", "¼": " 1/4", "¾": " 3/4", "⅕": " 1/5", "⅖": " 2/5"}
SYMBOLS |= {"⅗": " 3/5", "⅘": " 4/5", "⅙": " 1/6", "⅚": " 5/6", "⅐": " 1/7", "⅛": " 1/8", "⅜": " 3/8"}
SYMBOLS |= {"⅝": " 5/8", "⅞": " 7/8", "⅑": " 1/9", "⅒": " 1/10"}

#: Cyrillic letters in Latin (GOST-like, readable), for a console without Cyrillic at all
CYRILLIC = dict(zip("абвгдеёзийклмнопрстуфыэъь", "abvgdeeziyklmnoprstufye''", strict=True))
CYRILLIC |= {"ж": "zh", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ю": "yu", "я": "ya"}

#: the name under which :func:`_degrade_error` is registered as a codec error handler
ERRORS = "pulyacalc-degrade"


def stand_in(char: str, one_for_one: bool = False) -> str:
    """An ASCII stand-in for ``char``; with ``one_for_one`` exactly one character (so that an
    echoed line keeps its caret's column), else the most readable one ('...' for '…')."""
    text = SYMBOLS.get(char)
    if text is None:
        lower = char.lower()
        latin = CYRILLIC.get(lower)
        if latin is None:
            return "?"
        text = latin.capitalize() if lower != char else latin
    return text[:1] if one_for_one else text


def degrade(text: str, encoding: str, one_for_one: bool = False) -> str:
    """``text`` with each character ``encoding`` cannot write replaced by its stand-in;
    characters the encoding has (Cyrillic in cp866 and cp1251) are kept."""
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    except LookupError:
        encoding = "ascii"
    out = []
    for c in text:
        try:
            c.encode(encoding)
            out.append(c)
        except UnicodeEncodeError:
            out.append(stand_in(c, one_for_one))
    return "".join(out)


def fit(text: str, stream: TextIO) -> str:
    """``text`` as ``stream`` can write it, one character for one: for an error's echoed line
    and its caret (a stream set up by :func:`setup` would otherwise lengthen '…' to '...')."""
    return degrade(text, getattr(stream, "encoding", None) or "utf-8", one_for_one=True)


def _degrade_error(e: UnicodeError) -> tuple[str, int]:
    if not isinstance(e, UnicodeEncodeError):
        raise e
    return "".join(stand_in(c) for c in e.object[e.start : e.end]), e.end


#: ASCII, under the name :func:`_ascii_by_our_name` finds it by
ASCII = "pulyacalc-ascii"


def _ascii_by_our_name(name: str) -> codecs.CodecInfo | None:
    """A codec search function: ASCII's codec named :data:`ASCII` (its lookup name
    ``pulyacalc_ascii``, hyphen or underscore), None for any other name."""
    if name.replace("-", "_") != "pulyacalc_ascii":
        return None
    a = codecs.lookup("ascii")  # the tuple: encode, decode, stream reader and writer
    return codecs.CodecInfo(*a, a.incrementalencoder, a.incrementaldecoder, name=ASCII)


def is_console(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def table_width() -> int | None:
    """The width tables are fitted to: ``COLUMNS`` when set (a pipe too), else the
    terminal's when standard output is one; None (as wide as they come) when piped."""
    import os

    columns = os.environ.get("COLUMNS", "").strip()
    if columns:
        return int(columns) if columns.isdigit() and int(columns) > 0 else None
    if not is_console(sys.stdout):
        return None
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns or None
    except (OSError, ValueError, AttributeError):
        return None


def setup() -> None:
    """Make standard output and error safe to write anything to: a file or a pipe gets UTF-8
    whatever the locale says; a console keeps its encoding and degrades what it cannot show."""
    codecs.register_error(ERRORS, _degrade_error)
    width = table_width()
    if width is not None:
        from pulyacalc.render.view import use_width

        use_width(width)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:  # replaced by an embedding program: leave it alone
            continue
        try:
            if is_console(stream):
                if codecs.lookup(stream.encoding).name == "ascii":
                    # the same ASCII under a name of its own: Typer's click takes a stream
                    # named ASCII for misconfigured and writes --help and usage errors
                    # around it in UTF-8 (garbled on this console), not through ERRORS
                    codecs.register(_ascii_by_our_name)
                    reconfigure(encoding=ASCII, errors=ERRORS)
                else:
                    reconfigure(errors=ERRORS)
                if stream is sys.stdout and degrade("⅓⅔½", stream.encoding) != "⅓⅔½":
                    # the tables' own spelling (46 2/3), so that their columns stay aligned
                    from pulyacalc.render.view import use_glyphs

                    use_glyphs(False)
            elif codecs.lookup(stream.encoding).name != "utf-8":
                # the stream's own errors: surrogateescape keeps undecodable file names
                reconfigure(encoding="utf-8", errors=stream.errors)
        except (OSError, ValueError, LookupError):
            continue
