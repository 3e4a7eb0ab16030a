"""``json.dumps(doc, ensure_ascii=False, indent=2)``'s very text, faster (with an indent the library encodes
in Python, issue 11); anything else is left to ``json.dumps`` (tests/test_jsontext.py)."""

from __future__ import annotations

from collections.abc import Callable
from math import isfinite
from typing import Any

_SCALARS: dict[Any, str] = {True: "true", False: "false", None: "null"}


def dumps(doc: Any) -> str:
    import json  # only for this format (start-up time)
    from json.encoder import encode_basestring

    out: list[str] = []
    if _write(doc, "\n", out, encode_basestring):
        return "".join(out)
    return json.dumps(doc, ensure_ascii=False, indent=2)


def _write(value: Any, nl: str, out: list[str], encode_basestring: Callable[[str], str]) -> bool:
    """``value`` appended to ``out`` (``nl``: a line break and its indent); False: left to ``json.dumps``."""
    kind = type(value)
    if kind is str:
        out.append(encode_basestring(value))
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float and isfinite(value):  # NaN and the infinities: left to json.dumps
        out.append(float.__repr__(value))
    elif kind is bool or value is None:
        out.append(_SCALARS[value])
    elif kind is dict:
        if not value:
            out.append("{}")
            return True
        inner, sep = nl + "  ", "{"
        for k, v in value.items():
            if type(k) is not str:
                return False
            out.append(sep + inner + encode_basestring(k) + ": ")
            sep = ","
            if not _write(v, inner, out, encode_basestring):
                return False
        out.append(nl + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return True
        inner, sep = nl + "  ", "["
        for v in value:
            out.append(sep + inner)
            sep = ","
            if not _write(v, inner, out, encode_basestring):
                return False
        out.append(nl + "]")
    else:
        return False
    return True
