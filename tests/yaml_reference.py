"""The YAML reader as it was before the one-pass reader (tests/test_yaml_one_pass.py): the
document's events read once to refuse anchors, then composed by PyYAML, then the composed
nodes converted into located ``Node``s.  Kept to compare the one-pass reader with."""

from __future__ import annotations

import re
from typing import Any

import yaml

from pulyacalc.core.errors import MAX_SHOWN_PER_FILE, Loc, Problem, Problems, ReadError, shown
from pulyacalc.core.i18n import M_
from pulyacalc.yamlsource import (
    _LONG_LINE,
    _PLAIN_TAGS,
    MAX_DEPTH,
    MAX_LINE_CHARS,
    Node,
    _loader,
    _loc,
    quoted,
)

MAX_YAML_BYTES = 20 * 1024 * 1024


def _convert(
    file: str, node: Any, seen: set[int], depth: int, problems: Problems, unique: bool = True
) -> Node:

    loc = _loc(file, node.start_mark)
    if depth > MAX_DEPTH:
        raise ReadError(
            [Problem(loc, M_("the document is nested deeper than {MAX_DEPTH} levels", MAX_DEPTH=MAX_DEPTH))]
        )
    if node.tag not in _PLAIN_TAGS:  # !!binary too (issue 31 item 19)
        problems.add(loc, M_("YAML tag {tag!r} is not allowed", tag=node.tag), M_("write plain values"))
    if isinstance(node, yaml.ScalarNode):
        style = node.style
        return Node(
            "scalar",
            loc,
            text=node.value,
            quoted=style in ("'", '"', "|", ">"),
            null=node.tag == "tag:yaml.org,2002:null",
        )
    if id(node) in seen:
        raise ReadError([Problem(loc, M_("YAML aliases (*name) are not supported; write the value out"))])
    seen.add(id(node))
    if isinstance(node, yaml.SequenceNode):
        return Node(
            "seq", loc, items=tuple(_convert(file, n, seen, depth + 1, problems, unique) for n in node.value)
        )
    assert isinstance(node, yaml.MappingNode)
    pairs = []
    #: each plain key's first place: a key given twice is an error at both places (YAML
    #: says keys are unique; a reader that kept the last would drop the first silently)
    first: dict[str, Loc] = {}
    for k, v in node.value:
        if k.tag == "tag:yaml.org,2002:merge":
            problems.add(_loc(file, k.start_mark), M_("YAML merge keys (<<) are not supported"))
            continue
        key = _convert(file, k, seen, depth + 1, problems, unique)
        if unique and key.kind == "scalar":
            name = key.text.strip()
            if name in first:
                problems.add(
                    key.loc,
                    M_(
                        "the key {quoted} is given twice in one mapping, first at {place}",
                        quoted=quoted(name),
                        place=first[name].place(),
                    ),
                    M_("keep one of them"),
                    width=max(1, len(name)),
                )
            else:
                first[name] = key.loc
        pairs.append((key, _convert(file, v, seen, depth + 1, problems, unique)))
    return Node("map", loc, pairs=tuple(pairs))


def old_parse_yaml(
    text: str, file: str, *, max_bytes: int = MAX_YAML_BYTES, unique_keys: bool = True
) -> Node:
    """Compose one YAML document into located nodes, or raise ReadError.  A key given
    twice in one mapping is an error unless ``unique_keys`` is False (for a reader that
    names its own duplicates, in words of its own)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise ReadError(
            [
                Problem(
                    Loc(file),
                    M_(
                        "the YAML document is {size:,} bytes, over the limit of {max_bytes:,}",
                        size=size,
                        max_bytes=max_bytes,
                    ),
                    M_("split the log, use the line format (no size limit), or raise --max-yaml-bytes"),
                )
            ]
        )
    long_line = re.search(_LONG_LINE, text, re.MULTILINE) if len(text) > MAX_LINE_CHARS else None
    if long_line is not None:
        number = text.count("\n", 0, long_line.start()) + 1
        end = text.find("\n", long_line.start())
        length = (len(text) if end < 0 else end) - long_line.start()
        raise ReadError(
            [
                Problem(
                    Loc(file, number, 1),
                    M_(
                        "line {number} is {length} characters long, over {most}",
                        number=number,
                        length=f"{length:,}",
                        most=f"{MAX_LINE_CHARS:,}",
                    ),
                )
            ]
        )
    if text.startswith("\ufeff"):
        text = text[1:]

    problems = Problems(limit=MAX_SHOWN_PER_FILE)
    _refuse_anchors(text, file, problems)
    try:
        raw = yaml.compose(text, Loader=_loader())
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        what = e.problem or e.context or "cannot read the YAML"
        raise ReadError([Problem(_loc(file, mark), M_("YAML syntax: {what}", what=what))]) from None
    except yaml.reader.ReaderError as e:
        # a character YAML does not allow (NUL, other control characters): locate it
        at = max(0, min(e.position, len(text)))
        row = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        what = f"U+{e.character:04X}" if isinstance(e.character, int) else repr(e.character)
        raise ReadError(
            [
                Problem(
                    Loc(file, row, col),
                    M_("the character {what} is not allowed in YAML", what=what),
                    M_("remove it"),
                )
            ]
        ) from None
    except yaml.YAMLError as e:
        raise ReadError([Problem(Loc(file, 1), M_("YAML: {e}", e=e))]) from None
    except RecursionError:
        raise ReadError([Problem(Loc(file), M_("the document is nested too deeply"))]) from None
    if raw is None:
        return Node("map", Loc(file, 1, 1))
    try:
        node = _convert(file, raw, set(), 0, problems, unique_keys)
    except RecursionError:
        raise ReadError([Problem(Loc(file), M_("the document is nested too deeply"))]) from None
    problems.raise_if_any()
    return node


def _refuse_anchors(text: str, file: str, problems: Problems) -> None:
    """Refuse every anchor (``&name``) and alias (``*name``), each at its place, before the
    document is composed: an alias repeats a value (a 149 KB log could expand into
    millions of values, or a long scalar echoed by each of its problems), and a log has
    nothing to share.  Only the events are read, never expanded."""
    if "&" not in text and "*" not in text:
        return  # neither can be written without its sign: the common case costs one scan
    stopped: Loc | None = None
    try:
        for event in yaml.parse(text, Loader=_loader()):
            anchor: str | None = getattr(event, "anchor", None)
            if not anchor:
                continue
            if len(problems) >= MAX_SHOWN_PER_FILE:
                # enough to show: the rest are not looked for (a file of millions of
                # aliases is refused in the time it takes to find the first hundred)
                stopped = _loc(file, event.start_mark)
                break
            if isinstance(event, yaml.AliasEvent):
                problems.add(
                    _loc(file, event.start_mark),
                    M_("YAML aliases (*{shown}) are not supported", shown=shown(anchor)),
                    M_("write the value out"),
                )
            else:
                problems.add(
                    _loc(file, event.start_mark),
                    M_("YAML anchors (&{shown}) are not supported", shown=shown(anchor)),
                    M_("write the value out where it is used; anchors and aliases are refused"),
                )
    except (yaml.YAMLError, RecursionError):
        pass  # composing reports the syntax error, located
    if stopped is not None:
        more = M_("and more anchors and aliases from line {line} on, not shown", line=stopped.line)
        raise ReadError([*problems.items, Problem(Loc(file), more, M_("remove them all"))])
    problems.raise_if_any()
