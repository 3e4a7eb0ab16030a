"""Safe, located YAML: nodes built from the parser's events in one pass, each with its
``FILE:LINE:COLUMN``, and typed access.  Not ``yaml.safe_load``: YAML 1.1 turns ``6:4`` into 364."""

from __future__ import annotations

import gc
import re
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from pulyacalc.core.errors import (
    MAX_SHOWN_PER_FILE,
    Loc,
    Problem,
    Problems,
    ReadError,
    not_utf8,
    opened,
    os_reason,
    quoted,
    shown,
)
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.kinds import NodeKind

#: larger YAML is refused: it is read whole, a ~200-byte node per 2 bytes written (docs/format.md "Limits")
MAX_YAML_BYTES = 2 * 1024 * 1024
#: the hint to a YAML log over the limit (``parse_yaml``, and the reader that stops reading it)
YAML_TOO_LONG = N_(
    "YAML is read whole: keep a log this long in the line format, which has no "
    "size limit (once: pulyacalc convert LOG --to lines --max-yaml-bytes N -o "
    "LOG.pulya), or raise --max-yaml-bytes"
)
MAX_LINE_CHARS = 10_000
MAX_DEPTH = 64
#: a line over MAX_LINE_CHARS (from its start: a line starts after '\n' or at the text's start)
_LONG_LINE = rf"^[^\n]{{{MAX_LINE_CHARS + 1}}}"


class Node(NamedTuple):
    """A YAML node with its place (a NamedTuple: a YAML log is a node a value, quickest to make)."""

    kind: NodeKind
    loc: Loc
    text: str = ""
    items: tuple[Node, ...] = ()
    pairs: tuple[tuple[Node, Node], ...] = ()
    #: quoted scalars are always strings
    quoted: bool = False
    #: the scalar was empty/null (``key:`` with nothing after it, or ``~``/``null``)
    null: bool = False

    def describe(self) -> str:
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        return "nothing" if self.null else quoted(self.text)


def _loc(file: str, mark: Any) -> Loc:
    return Loc(file) if mark is None else Loc(file, mark.line + 1, mark.column + 1)


_TAG = "tag:yaml.org,2002:"
_STR, _NULL, _MERGE = _TAG + "str", _TAG + "null", _TAG + "merge"
_SEQ, _MAP = _TAG + "seq", _TAG + "map"
#: the tags a node may carry; any other written is refused
_PLAIN_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp", "seq", "map", "merge")}
#: how a quoted or block scalar is written: always a string
_QUOTED_STYLES = frozenset(("'", '"', "|", ">"))


def _compose(text: str, file: str, unique: bool) -> Node:
    """The document's events built into located ``Node``s in one pass, each refusal at its place."""
    import yaml

    made = _loader()
    composer = _Composer(file, unique, "&" in text or "*" in text, set(made.yaml_implicit_resolvers))
    loader = None
    try:
        loader = made(text)  # the pure-Python reader checks every character here
        composer.read(loader)
    except yaml.YAMLError as e:
        if composer.failed is None:  # (a second document found first stays the problem)
            composer.failed = _syntax_problem(e, text, file)
    except RecursionError:
        composer.failed = Problem(Loc(file), M_("the document is nested too deeply"))
    finally:
        if loader is not None:
            loader.dispose()
    return composer.document()


class _Composer:
    """What ``_compose`` keeps while it reads a document's events."""

    def __init__(self, file: str, unique: bool, anchored: bool, first_chars: set[str | None]) -> None:
        self.file, self.unique, self.anchored = file, unique, anchored
        # a plain scalar's tag hangs on its first character, unless a resolver looks at every value
        self.first_chars = first_chars
        self.every = None in first_chars
        self.resolve: Any = None
        self.scalar_node: Any = None
        self.problems = Problems(limit=MAX_SHOWN_PER_FILE)
        self.anchors = Problems(limit=MAX_SHOWN_PER_FILE)
        #: the open collections: (a mapping?, its place, its children, each plain key's first place)
        self.stack: list[tuple[bool, Loc, list[Node], dict[str, Loc]]] = []
        self.root: Node | None = None
        #: building stops at the first anchor, at the node nested too deeply, at a 2nd document
        self.building = True
        self.too_deep: Problem | None = None
        #: the syntax error, or the second document
        self.failed: Problem | None = None
        self.stopped: Loc | None = None
        #: complete nodes still to pass over (a merge key and its value), collections open in them
        self.skip = self.nest = self.documents = 0
        self.tags: dict[str, str] = {}

    def read(self, loader: Any) -> None:
        import yaml

        get = loader.get_event
        self.resolve = loader.resolve
        self.scalar_node = yaml.ScalarNode
        scalar_e, seq_e, alias_e = yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.AliasEvent
        map_e, seq_end, map_end = yaml.MappingStartEvent, yaml.SequenceEndEvent, yaml.MappingEndEvent
        document_start, stream_end = yaml.DocumentStartEvent, yaml.StreamEndEvent
        start, end = self.start, self.end
        while True:
            event = get()
            cls = type(event)
            if cls is scalar_e or cls is seq_e or cls is map_e or cls is alias_e:
                start(event, cls is not scalar_e, cls is map_e, cls is alias_e)
                if self.stopped is not None:
                    break
            elif cls is seq_end or cls is map_end:
                end()
            elif cls is document_start:
                self.documents += 1
                if self.documents == 2:  # PyYAML's composer stops here; anchors are still looked for
                    another = M_("YAML syntax: {what}", what="but found another document")
                    self.failed, self.building = Problem(_loc(self.file, event.start_mark), another), False
                    if not self.anchored:
                        break
            elif cls is stream_end:
                break

    def start(self, event: Any, opens: bool, is_map: bool, alias: bool) -> None:
        """A node begins: a scalar is placed, a collection opened, or the event passed over or refused."""
        if event.anchor:  # an alias's anchor is the name it repeats
            if len(self.anchors) >= MAX_SHOWN_PER_FILE:
                self.stopped = _loc(self.file, event.start_mark)
                return
            _refuse_anchor(event, alias, self.anchors, self.file)
            self.building = False
            return
        if not self.building:
            return
        if self.skip:
            self.nest += opens
            self.skip -= not opens and self.nest == 0
            return
        mark = event.start_mark
        loc = Loc(self.file, mark.line + 1, mark.column + 1)
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.implicit_tag(event, opens, is_map)
        stack = self.stack
        if tag == _MERGE and stack and stack[-1][0] and not len(stack[-1][2]) % 2:
            self.problems.add(loc, M_("YAML merge keys (<<) are not supported"))
            self.skip, self.nest = (2, 1) if opens else (1, 0)  # the key and its value
            return
        if len(stack) > MAX_DEPTH:
            deeper = M_("the document is nested deeper than {MAX_DEPTH} levels", MAX_DEPTH=MAX_DEPTH)
            self.too_deep = Problem(loc, deeper)
            self.building = False
            return
        if tag not in _PLAIN_TAGS:
            self.problems.add(loc, M_("YAML tag {tag!r} is not allowed", tag=tag), M_("write plain values"))
        if opens:
            stack.append((is_map, loc, [], {}))
            return
        # positional: keywords cost a third more, and a document is a node a value
        self.place(Node("scalar", loc, event.value, (), (), event.style in _QUOTED_STYLES, tag == _NULL))

    def implicit_tag(self, event: Any, opens: bool, is_map: bool) -> str:
        """The tag PyYAML's resolver gives a node written without one."""
        if opens:
            return _MAP if is_map else _SEQ
        if event.implicit[0] and (self.every or event.value[:1] in self.first_chars):
            tag = self.tags.get(event.value)
            if tag is None:
                tag = self.resolve(self.scalar_node, event.value, event.implicit)
                if len(self.tags) < 4096:  # numbers and words repeat: each resolved once
                    self.tags[event.value] = tag
            return tag
        return _STR

    def end(self) -> None:
        """The end of a collection: its node placed (unless passed over)."""
        if not self.building:
            return
        if self.skip:
            self.nest -= 1
            self.skip -= self.nest == 0
            return
        is_map, loc, children, _ = self.stack.pop()
        if is_map:
            pairs = iter(children)
            self.place(Node("map", loc, "", (), tuple(zip(pairs, pairs, strict=False))))
        else:
            self.place(Node("seq", loc, "", tuple(children)))

    def place(self, node: Node) -> None:
        """A complete node: its collection's child (or the document)."""
        if not self.stack:
            self.root = node
            return
        is_map, _, children, first = self.stack[-1]
        if is_map and self.unique and not len(children) % 2 and node.kind == "scalar":
            name = node.text.strip()
            if name in first:
                twice = N_("the key {quoted} is given twice in one mapping, first at {place}")
                said = M_(twice, quoted=quoted(name), place=first[name].place())
                self.problems.add(node.loc, said, M_("keep one of them"), width=max(1, len(name)))
            else:
                first[name] = node.loc
        children.append(node)

    def document(self) -> Node:
        """The root node, or a ReadError, first of: anchors, syntax error/2nd document, too deep, the rest."""
        file = self.file
        if self.stopped is not None:
            # enough to show: the rest are not looked for (millions of aliases refused at once)
            more = M_("and more anchors and aliases from line {line} on, not shown", line=self.stopped.line)
            raise ReadError([*self.anchors.items, Problem(Loc(file), more, M_("remove them all"))])
        self.anchors.raise_if_any()
        first = self.failed or self.too_deep
        if first is not None:
            raise ReadError([first])
        self.problems.raise_if_any()
        return self.root if self.root is not None else Node("map", Loc(file, 1, 1))


def _refuse_anchor(event: Any, alias: bool, anchors: Problems, file: str) -> None:
    """Anchors and aliases refused in place: an alias can make millions of values; a log shares nothing."""
    name = shown(event.anchor)
    if alias:
        why = M_("YAML aliases (*{shown}) are not supported", shown=name), M_("write the value out")
    else:
        hint = M_("write the value out where it is used; anchors and aliases are refused")
        why = M_("YAML anchors (&{shown}) are not supported", shown=name), hint
    anchors.add(_loc(file, event.start_mark), *why)


def _syntax_problem(e: Any, text: str, file: str) -> Problem:
    import yaml

    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        what = e.problem or e.context or "cannot read the YAML"
        return Problem(_loc(file, mark), M_("YAML syntax: {what}", what=what))
    if isinstance(e, yaml.reader.ReaderError):
        # a character YAML does not allow (NUL, other control characters): locate it
        at = max(0, min(e.position, len(text)))
        row = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        what = f"U+{e.character:04X}" if isinstance(e.character, int) else repr(e.character)
        bad = M_("the character {what} is not allowed in YAML", what=what)
        return Problem(Loc(file, row, col), bad, M_("remove it"))
    return Problem(Loc(file, 1), M_("YAML: {e}", e=e))


@cache
def _loader() -> Any:
    """The safe loader, PyYAML imported on the first YAML read (a line log never needs it)."""
    import yaml

    class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        pass

    return _Loader


def parse_yaml(text: str, file: str, *, max_bytes: int = MAX_YAML_BYTES, unique_keys: bool = True) -> Node:
    """One YAML document as located nodes, or ReadError (``unique_keys`` False: the caller checks)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        over = N_("the YAML document is {size:,} bytes, over the limit of {max_bytes:,}")
        big = M_(over, size=size, max_bytes=max_bytes)
        raise ReadError([Problem(Loc(file), big, M_(YAML_TOO_LONG))])
    # a search, not a list of every line; the expression compiled only when YAML is read
    long_line = re.search(_LONG_LINE, text, re.MULTILINE) if len(text) > MAX_LINE_CHARS else None
    if long_line is not None:
        number = text.count("\n", 0, long_line.start()) + 1
        end = text.find("\n", long_line.start())
        length, most = f"{(len(text) if end < 0 else end) - long_line.start():,}", f"{MAX_LINE_CHARS:,}"
        long = N_("line {number} is {length} characters long, over {most}")
        raise ReadError([Problem(Loc(file, number, 1), M_(long, number=number, length=length, most=most))])
    text = text.removeprefix("\ufeff")
    # the tree holds no cycles: the cyclic collector's passes over it cost more than building it
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _compose(text, file, unique_keys)
    finally:
        if collecting:
            gc.enable()


def read_at_most(f: Any, limit: int) -> str:
    """At most ``limit`` characters of ``f``, in pieces (``f.read(limit)`` sets aside ``limit`` bytes)."""
    pieces: list[str] = []
    got = 0
    while got < limit and (piece := f.read(min(1 << 16, limit - got))):
        pieces.append(piece)
        got += len(piece)
    return "".join(pieces)


def read_yaml_file(path: str, what: str, *, max_bytes: int = MAX_YAML_BYTES) -> str:
    """The text of a YAML file, a huge one refused unread; ``what`` names it ("the convention")."""
    try:
        with opened(open(path, encoding="utf-8-sig")) as f:
            text = read_at_most(f, max_bytes + 1)
    except UnicodeDecodeError as e:
        raise ReadError([not_utf8(path, path, e.reason)]) from None
    except OSError as e:
        raise ReadError([Problem(Loc(path), f"cannot read {what}: {os_reason(e)}")]) from None
    if len(text) > max_bytes:
        over = f"{what} is over the limit of {max_bytes:,} bytes"
        raise ReadError([Problem(Loc(path), over, "is this a YAML file?")])
    return text


# -- typed access ------------------------------------------------------------------------
_INT_RE = re.compile(r"^[+-]?\d+$")
_WHOLE = N_("{what}: expected a whole number, got {describe}")

#: the largest number (in size) any input may write (docs/format.md "Numbers")
MAX_NUMBER = 10**9
#: the largest denominator of a fraction or decimal (six decimal places)
MAX_DENOMINATOR = 10**6
#: a number written with more characters than this is refused unread
MAX_NUMBER_CHARS = 30


def as_int(
    node: Node, problems: Problems, what: str, *, low: int | None = None, high: int | None = None
) -> int | None:
    """A whole number written in decimal (``012`` is twelve) in ``low..high`` (at most ``MAX_NUMBER``)."""
    text = node.text.strip()
    if node.kind != "scalar" or node.null or not _INT_RE.match(text):
        problems.add(node.loc, M_(_WHOLE, what=what, describe=node.describe()))
        return None
    top = MAX_NUMBER if high is None else high
    value = int(text) if len(text) <= MAX_NUMBER_CHARS else None
    if value is None or (low is not None and value < low) or value > top:
        most = f"{top:,}" if top >= 10_000 else str(top)
        rng = f"{low}..{most}" if low is not None else M_("at most {most}", most=most)
        shown_value = quoted(text) if value is None else str(value)
        out = M_("{what}: {value} is out of range, expected {rng}", what=what, value=shown_value, rng=rng)
        problems.add(node.loc, out)
        return None
    return value


_NUMBER_RE = re.compile(r"^[+-]?(\d+(\.\d+)?|\d+/\d+)$")


def as_number(node: Node, problems: Problems, what: str) -> int | Fraction | None:
    """An exact number: ``2``, ``0.5`` or ``1/2`` → int or Fraction, within the limits above."""
    text = node.text.strip()
    if node.kind != "scalar" or node.null or not _NUMBER_RE.match(text):
        expected = N_("{what}: expected a number (like 2, 0.5 or 1/2), got {describe}")
        problems.add(node.loc, M_(expected, what=what, describe=node.describe()))
        return None
    if text.endswith("/0") or (text.rpartition("/")[2].strip("0") == "" and "/" in text):
        problems.add(node.loc, f"{what}: {quoted(text)} divides by zero", "write a number like 2, 0.5 or 1/2")
        return None
    value = Fraction(text) if len(text) <= MAX_NUMBER_CHARS else None
    if value is None or abs(value) > MAX_NUMBER:
        out = f"{what}: {quoted(text)} is out of range, expected at most {MAX_NUMBER:,} in size"
        problems.add(node.loc, out)
        return None
    if value.denominator > MAX_DENOMINATOR:
        hint = f"at most six decimal places (a denominator up to {MAX_DENOMINATOR:,})"
        problems.add(node.loc, f"{what}: {quoted(text)} is too fine", hint)
        return None
    return int(value) if value.denominator == 1 else value


def as_str(node: Node, problems: Problems, what: str) -> str | None:
    if node.kind != "scalar" or node.null or not node.text.strip():
        expected = M_("{what}: expected text, got {describe}", what=what, describe=node.describe())
        problems.add(node.loc, expected)
        return None
    return node.text.strip()


_TRUE = {"true", "yes", "on"}
_FALSE = {"false", "no", "off"}


def as_bool(node: Node, problems: Problems, what: str) -> bool | None:
    text = node.text.strip().lower() if node.kind == "scalar" else ""
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    expected = M_("{what}: expected true or false, got {describe}", what=what, describe=node.describe())
    problems.add(node.loc, expected)
    return None


def words(node: Node) -> list[tuple[str, Loc]]:
    """A list written as a YAML list or as space/comma separated words, with places."""
    if node.kind == "seq":
        return [(n.text.strip(), n.loc) for n in node.items if n.kind == "scalar"]
    if node.kind == "scalar" and not node.null:
        # brackets around the whole list only: one inside a word stays, for the reader to refuse
        inner = re.fullmatch(r"(\s*\[)(.*)\]\s*", node.text, re.S)
        start, text = (inner.end(1), inner.group(2)) if inner else (0, node.text)
        at = node.loc.column + start
        return [(m.group(0), node.loc.at_column(at + m.start())) for m in re.finditer(r"[^\s,]+", text)]
    return []
