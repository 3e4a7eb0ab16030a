"""Loading a convention: a built-in or a file, ``extends:``, a log's overrides, checked against the schema."""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

from pulyacalc.convention.schema import LEVELS, SCHEMA, SECTIONS, TOP_KEYS, Convention
from pulyacalc.core.errors import Loc, Problem, Problems, ReadError, has_unsafe, quoted
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.kinds import KODEKS_ROUNDINGS, Rounding
from pulyacalc.core.model import _close
from pulyacalc.yamlsource import Node, as_str, parse_yaml, read_yaml_file, words


@cache
def builtin_dir() -> Path:
    """Where the built-in conventions live, found once (``season`` loads one for every evening)."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "conventions"
    return packaged if packaged.is_dir() else package.parent / "conventions"


def builtin_names() -> list[str]:
    return sorted(p.stem for p in builtin_dir().glob("*.yaml"))


_ORDER = ("sochi", "leningrad", "rostov", "classic", "gusarik")


def ordered_names() -> list[str]:
    """The built-in conventions, in the order of RULES.md §4 (then the others by name)."""
    names = builtin_names()
    return [n for n in _ORDER if n in names] + [n for n in names if n not in _ORDER]


def _suggest(word: str, options: list[str] | tuple[str, ...]) -> str:
    close = _close(word, list(options))
    return M_("did you mean {name!r}?", name=close) if close else ""


def suggest_name(ref: str, names: list[str]) -> str:
    """The nearest built-in name or alias to a mistyped one (compared folded), or ''."""
    aliases = [a for a in builtin_aliases() if not a.isascii()] if not ref.isascii() else []
    return _suggest(folded(ref), [*names, *aliases])


def is_name(ref: str) -> bool:
    """A built-in name rather than a path: no directory and no .yaml ending."""
    return os.sep not in ref and "/" not in ref and not ref.lower().endswith((".yaml", ".yml"))


def folded(name: str) -> str:
    """A name as names are compared: any case, «ё» as «е» (Russian is typed both ways)."""
    return name.casefold().replace("ё", "е")


@cache
def builtin_aliases() -> dict[str, str]:
    """Every other name of a built-in (its file's ``aliases:``: «сочинка» …), folded → its name."""
    return {folded(alias): name for name in builtin_names() for alias in load(name).aliases}


def builtin_name(ref: str) -> str | None:
    """The built-in a name stands for — its own name in any case, or one of its aliases — or None."""
    # os.path.isfile: a name too long for a file name (ENAMETOOLONG) is no built-in's either
    if os.path.isfile(builtin_dir() / f"{ref.lower()}.yaml"):
        return ref.lower()
    return builtin_aliases().get(folded(ref))


def given_path(ref: str, relative_to: str | None = None) -> str | None:
    """The file a reference names, spelled as messages print it (not a ``Path``: it drops ``./``)."""
    if is_name(ref):
        name = builtin_name(ref) if ref else None
        return str(builtin_dir() / f"{name}.yaml") if name else None
    if not os.path.isabs(ref) and relative_to and relative_to not in ("-", "<stdin>", "<text>"):
        beside = os.path.join(os.path.dirname(relative_to), ref)  # as the user gave the log
        if os.path.isfile(beside):
            return beside
    return ref if os.path.isfile(ref) else None


def _not_found(ref: str, relative_to: str | None, loc: Loc, beside: str = M_("the log")) -> Problem:
    """A reference that names nothing: an unknown built-in name, or a file not where it was looked for."""
    if is_name(ref):
        names = builtin_names()
        listed = M_("built-in conventions: {names}; or give a path to a file", names=", ".join(names))
        hint = suggest_name(ref, names) or listed
        return Problem(loc, M_("unknown convention {ref!r}", ref=ref), hint)
    path, here = Path(ref), str(Path.cwd() / ref)
    if path.is_absolute():
        where = M_("looked for {path}", path=str(path))
    elif relative_to in ("-", "<stdin>"):
        where = M_("the log is on standard input: looked for it in the current directory: {path}", path=here)
    elif relative_to:
        path_there = os.path.join(os.path.dirname(relative_to), ref)
        where = M_("looked for next to {beside}: {path}", beside=beside, path=path_there)
    else:
        where = M_("looked for in the current directory: {path}", path=here)
    hint = M_("give the convention file's path, or a built-in name")
    return Problem(loc, M_("no such file {ref!r} ({where})", ref=ref, where=where), hint)


_cache: dict[tuple[str, Path | None], Convention] = {}
#: ``--allow-outside`` was given: a convention file a log names may be anywhere
outside_allowed: ContextVar[bool] = ContextVar("outside_allowed", default=False)
#: a convention extends at most this many files in a chain (three is usual)
MAX_EXTENDS = 8


def load(
    ref: str,
    *,
    relative_to: str | None = None,
    ref_loc: Loc | None = None,
    overrides: Node | None = None,
    pool: int | None = None,
    rounding: Rounding | None = None,
    within: Path | None = None,
) -> Convention:
    """Load a convention by name or path, apply a log's overrides, check it all.  ``within``: the directory
    all files read are in, built-ins aside (a log may not make pulyacalc read any file and show its keys)."""
    path = given_path(ref, relative_to)
    if path is None:
        raise ReadError([_not_found(ref, relative_to, ref_loc or Loc(ref))])
    _confined(Path(path), within, ref, ref_loc or Loc(ref))
    # a built-in extends only built-ins, by name: where it may be read from does not change it
    key = (path, None if Path(path).parent == builtin_dir() else within)
    if overrides is not None:
        layers = _layers(path, set(), within)
        base = _build([*layers, overrides], path, own=len(layers) - 1)
    elif key in _cache:
        base = _cache[key]
    else:
        base = _cache[key] = pre_built(path) or _build(_layers(path, set(), within), path, own=-1)
    if pool is not None:
        base = replace(base, pool_target=pool)
    if rounding is not None:
        base = replace(base, rounding=rounding)
    return base


#: a node as data (convention/builtin.py): (kind, line, column, text, items, pairs, quoted, null)
Tree = tuple[str, int, int, str, tuple["Tree", ...], tuple[tuple["Tree", "Tree"], ...], bool, bool]


def _fresh(table: Mapping[str, tuple[Any, ...]], path: Path) -> Any:
    """What ``table`` (builtin.py, built.py) holds for the built-in at ``path``, unless it changed since."""
    import zlib

    pre = table.get(path.stem)
    try:
        return pre[1] if pre is not None and zlib.crc32(path.read_bytes()) == pre[0] else None
    except OSError:
        return None


def pre_parsed(path: Path) -> Node | None:
    """The pre-parsed tree of the built-in convention at ``path``, located in ``path``."""
    from pulyacalc.convention.builtin import TREES

    tree = _fresh(TREES, path)
    return None if tree is None else _node(tree, str(path))


def pre_built(path: str) -> Convention | None:
    """The built-in convention at ``path`` pre-built (convention/built.py: no nodes made at start-up)."""
    file = Path(path)
    if file.parent != builtin_dir():
        return None
    from pulyacalc.convention.built import BUILT

    values = _fresh(BUILT, file)
    return None if values is None else Convention(source=path, **values)


def _node(t: Tree, file: str) -> Node:
    kind, line, column, text, items, pairs, quoted, null = t
    kids = tuple(_node(i, file) for i in items)
    pairs_read = tuple((_node(k, file), _node(v, file)) for k, v in pairs)
    return Node(kind, Loc(file, line, column), text, kids, pairs_read, quoted, null)  # type: ignore[arg-type]


def read_nodes(path: str) -> Node:
    """A convention file's nodes: a built-in one pre-parsed (tools/pregen.py), any other read and parsed."""
    pre = pre_parsed(Path(path)) if Path(path).parent == builtin_dir() else None
    return pre if pre is not None else parse_yaml(read_yaml_file(path, "the convention"), path)


def _confined(path: Path, within: Path | None, ref: str, loc: Loc) -> None:
    """Refuse ``path``, which ``ref`` names, unless it is in the tree ``within`` (links followed) or
    no tree is given or ``ref`` names a built-in; before it is read."""
    if within is not None and not is_name(ref) and not path.resolve().is_relative_to(within):
        hint = (
            "a log may name a convention file in its own directory or below it; "
            "if you trust this log, give --allow-outside (or name the file with -c)"
        )
        _refuse(loc, f"the convention file {quoted(ref)} is outside the log's directory", hint)


def _refuse(loc: Loc, message: str, hint: str = "") -> NoReturn:
    raise ReadError([Problem(loc, message, hint)])


def _layers(path: str, seen: set[Path], within: Path | None = None, at: Loc | None = None) -> list[Node]:
    """The file and the files it extends, base first; ``at``: the ``extends:`` that names it."""
    real = Path(path).resolve()
    where = at or Loc(path)
    if real in seen:
        _refuse(where, M_("a convention extends itself (a cycle of extends:)"))
    if len(seen) >= MAX_EXTENDS:
        long = M_("a chain of extends: is more than {n} conventions long", n=MAX_EXTENDS)
        _refuse(where, long, M_("extend a built-in convention directly"))
    seen.add(real)
    node = read_nodes(path)
    if node.kind != "map":
        _refuse(node.loc, M_("a convention file is a mapping of keys (name:, pool:, …)"))
    for k, v in node.pairs:
        if k.text == "extends":
            p = Problems()
            ref = as_str(v, p, "extends")
            p.raise_if_any()
            assert ref is not None
            parent = given_path(ref, path)
            if parent is None:
                missing = _not_found(ref, path, v.loc, M_("the convention file"))
                what = M_("an unknown convention") if is_name(ref) else M_("a convention that is not there:")
                message = missing.message.replace("unknown convention", "").replace("no such file", "")
                raise ReadError([replace(missing, message=f"extends {what}{message}")])
            _confined(Path(parent), within, ref, v.loc)
            return [*_layers(parent, seen, within, v.loc), node]
    return [node]


def _flatten(node: Node, p: Problems, prefix: str = "") -> dict[str, Node]:
    """A mapping node → {dotted key: value node}, nested or dotted, every key checked against the schema."""
    out: dict[str, Node] = {}
    for k, v in node.pairs:
        name = k.text.strip()
        full = f"{prefix}{name}"
        if not prefix and name in TOP_KEYS:
            continue
        if full in out:
            # 'whist: {on_failure: …}' and 'whist.on_failure: …' in one file: which wins is chance
            place = out[full].loc.place()
            twice = M_("{quoted} is set twice, first at {place}", quoted=quoted(full), place=place)
            p.add(k.loc, twice, M_("keep one of them"))
        elif full in SCHEMA:
            out[full] = v
        elif full in SECTIONS and v.kind == "map":
            out.update(_flatten(v, p, full + "."))
        else:
            if prefix:
                allowed = options = sorted(s.split(".", 1)[1] for s in SCHEMA if s.startswith(prefix))
            else:
                allowed, options = [*TOP_KEYS, *SECTIONS], [*TOP_KEYS, *SECTIONS, *SCHEMA]
            hint = _suggest(name, options)
            msg = M_("unknown convention key {full!r}", full=full)
            if full in SECTIONS:
                msg = M_("{full!r} is a section: expected a mapping of its keys", full=full)
            p.add(k.loc, msg, (hint + "; " if hint else "") + f"allowed here: {', '.join(allowed)}")
    return out


def _build(layers: list[Node], path: str, own: int) -> Convention:
    """The convention from its layers (base first); ``own``: the layer whose ``aliases:`` count."""
    p = Problems()
    aliases = _aliases(layers[own], p)
    merged: dict[str, Node] = {}
    layer_of: dict[str, int] = {}
    name = title = Path(path).stem
    for index, layer in enumerate(layers):
        for key, value in _flatten(layer, p).items():
            layer_of[key] = index
            if SCHEMA[key].parse.per_level and key in merged and value.kind == "map":
                # only the levels named are overridden; mypy 1.15-2.4 segfaults (endless recursion on Node's
                # tuple types) on one comprehension over (*a.pairs, *b.pairs)
                old = {k.text.strip(): (k, v) for k, v in merged[key].pairs}
                old.update((k.text.strip(), (k, v)) for k, v in value.pairs)
                merged[key] = Node("map", value.loc, pairs=tuple(old.values()))
            else:
                merged[key] = value
        for k, v in layer.pairs:
            if k.text == "title" and v.kind == "scalar" and has_unsafe(v.text):
                # the title heads every report: an escape sequence would reach the terminal
                unsafe = N_("{key}: cannot hold control or bidi characters: {text}")
                p.add(v.loc, M_(unsafe, key="title", text=quoted(v.text)))
            elif k.text == "title" and v.kind == "scalar":
                title = v.text
    values: dict[str, Any] = {}
    for key, spec in SCHEMA.items():
        node = merged.get(key)
        if node is None:
            hint = M_("{doc}; or start the file with 'extends: sochi'", doc=spec.doc)
            # at line 1, where the hint says to add extends:
            p.add(Loc(path, 1), M_("the convention does not set {key!r}", key=key), hint)
            continue
        before = len(p)
        value = spec.parse(node, p, key)
        # a level whose value was refused is not also reported as missing
        if value is not None and len(p) == before and spec.parse.per_level and set(value) != set(LEVELS):
            missing = ", ".join(str(x) for x in LEVELS if x not in value)
            every = M_("{key}: every level 6..10 needs a value; missing {join}", key=key, join=missing)
            p.add(node.loc, every)
        values[spec.field] = value
    p.raise_if_any()
    conv = Convention(name=name, title=title, source=path, aliases=aliases, **values)
    _check_sense(conv, merged, layer_of, p)
    p.raise_if_any()
    return conv


def _aliases(layer: Node, p: Problems) -> tuple[str, ...]:
    """A file's ``aliases:``: other names of it, as a list or space-separated words."""
    for k, v in layer.pairs:
        if k.text == "aliases":
            if v.kind == "map" or (v.kind == "seq" and any(n.kind != "scalar" for n in v.items)):
                p.add(v.loc, M_("aliases: expected a list of names, got {describe}", describe=v.describe()))
                return ()
            return tuple(alias for alias, _ in words(v))
    return ()


def _check_sense(conv: Convention, nodes: dict[str, Node], layer_of: dict[str, int], p: Problems) -> None:
    """Values that are well-typed but cannot work."""
    if conv.rounding in KODEKS_ROUNDINGS and conv.pool_point_in_mountain != int(conv.pool_point_in_mountain):
        whole = M_("{rounding} rounding needs whole mountain points per pool point", rounding=conv.rounding)
        p.add(nodes["settlement.rounding"].loc, whole)
    if conv.rounding in KODEKS_ROUNDINGS and conv.mountain_divisor == "opponents":
        # a multiple of 3 divides evenly among 3 players, not among 2 opponents
        key = max("settlement.rounding", "settlement.mountain_divisor", key=lambda k: layer_of[k])
        with_opponents = N_("{rounding} rounding cannot go with settlement.mountain_divisor: opponents")
        hint = M_(
            "its multiple of 3 divides a mountain among the 3 players; use rounding exact or "
            "nearest, or mountain_divisor players"
        )
        p.add(nodes[key].loc, M_(with_opponents, rounding=conv.rounding), hint)
    for level in conv.half_whist_levels:
        if conv.obligation[level] % 2:
            # point at whichever of the two keys was set last (by the log, or a house file)
            key = max("whist.obligation", "whist.half_whist_levels", key=lambda k: layer_of[k])
            value = conv.obligation[level]
            odd = N_("half-whist on {level} needs an even obligation, it is {value}")
            p.add(nodes[key].loc, M_(odd, level=level, value=value), kind="read")
