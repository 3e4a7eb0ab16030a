"""The header every input shares, read the same way from a YAML log, a line log and a paper sheet
(the same mistake, the same message).  This is the one place for a header key: one row of :data:`HEADER`."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from pulyacalc.convention.load import load, outside_allowed
from pulyacalc.convention.schema import ROUNDINGS, SCHEMA, Convention
from pulyacalc.core.errors import Loc, Problems, did_you_mean, has_unsafe, quoted
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.kinds import DummyHand, Rounding
from pulyacalc.core.model import Header
from pulyacalc.yamlsource import Node, as_int, as_str, words


@dataclass(frozen=True, slots=True)
class HeaderKey:
    """One header key: a row of :data:`HEADER`."""

    #: the key as written in canonical logs, and the ``Header`` field it fills
    key: str
    #: other spellings (Russian), matched ignoring case like the key itself
    aliases: tuple[str, ...]
    #: the value from its node, or None when it was refused (the problem is reported)
    read: Callable[[Node, HeaderBuilder], Any]
    #: the value when the key is not written (the writers leave a default out)
    default: Any = None


#: the table sizes pulyacalc scores (core/seating.py): 2 with a dummy, 3, 4, 5 (K1.2)
MIN_PLAYERS, MAX_PLAYERS = 2, 5
_UNKNOWN = N_("{what}: unknown player {text!r}")
_PLAYER_COUNT = N_("Preferans is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, {doc} names {len}")


def _players(node: Node, b: HeaderBuilder) -> tuple[str, ...] | None:
    """2 to 5 names, clockwise, each once, none starting with a digit."""
    p = b.problems
    names = words(node)
    players = tuple(n for n, _ in names)
    before = len(p)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        limits = {"MIN_PLAYERS": MIN_PLAYERS, "MAX_PLAYERS": MAX_PLAYERS}
        message = M_(_PLAYER_COUNT, **limits, doc=b.doc, len=len(players))
        p.add(node.loc, message, M_("list the players clockwise, e.g. 'players: Anna Boris Vera'"))
    seen: set[str] = set()
    for name, loc in names:
        if name.casefold() in seen:
            p.add(loc, M_("player {name!r} is listed twice", name=name))
        seen.add(name.casefold())
        if (fault := name_fault(name)) is not None:
            p.add(loc, fault)
    return players if len(p) == before else None


#: what a name cannot hold: the line format could not write it back, or would read it as more than one name
_NOT_IN_NAME = re.compile(r"[,;:#\[\]]")


@lru_cache(maxsize=1024)  # (a season names the same players evening after evening)
def name_fault(name: str) -> str | None:
    """Why ``name`` cannot be a player's (in the header or joining), or None."""
    if name[:1].isdigit() or not name:
        return M_("a player's name cannot start with a digit: {name}", name=quoted(name))
    if has_unsafe(name):  # an escape sequence or a bidi control would reach every table
        return M_("a player's name cannot hold control or bidi characters: {name}", name=quoted(name))
    if _NOT_IN_NAME.search(name):
        return M_("a player's name cannot hold , ; : # [ or ]: {name}", name=quoted(name))
    return mixed_letters(name)


def player_named(
    node: Node, players: tuple[str, ...], problems: Problems, what: str, unknown: str = _UNKNOWN
) -> str | None:
    """The player a text value names (``match_player``), or None with ``unknown`` reported."""
    text = as_str(node, problems, what)
    if text is None:
        return None
    name, hint = match_player(text, players)
    if name is None:
        problems.add(node.loc, M_(unknown, what=what, text=text), hint)
    return name


def _dealer(node: Node, b: HeaderBuilder) -> str | None:
    return player_named(node, b.players, b.problems, "dealer", N_("the dealer {text!r} is not a player"))


#: the dummy's hand as people write it (seed 001: «на какой руке будет находиться болван»)
DUMMY_SPELLINGS: dict[str, DummyHand] = {
    **dict.fromkeys(("first", "1", "первая", "первой"), "first"),
    **dict.fromkeys(("second", "2", "вторая", "второй"), "second"),
}


def _dummy(node: Node, b: HeaderBuilder) -> DummyHand | None:
    """The hand the dummy sits on, counted from the dealer's left (2 players only)."""
    text = node.text.strip().casefold() if node.kind == "scalar" else ""
    if len(b.players) != 2:
        two = M_("a dummy («болван») sits only at a table of two, and {len} play here", len=len(b.players))
        b.problems.add(node.loc, two, M_("leave 'dummy' out, or list two players"))
        return None
    hand = DUMMY_SPELLINGS.get(text)
    if hand is None:
        got = M_("dummy: expected first or second (the hand), got {describe}", describe=node.describe())
        b.problems.add(node.loc, got)
    return hand


def _pool(node: Node, b: HeaderBuilder) -> int | None:
    return as_int(node, b.problems, M_("pool (the target)"), low=1, high=100_000)


def _rounding(node: Node, b: HeaderBuilder) -> Rounding | None:
    text = node.text.strip() if node.kind == "scalar" else ""
    if text not in ROUNDINGS:
        choices, got = ", ".join(ROUNDINGS), node.describe()
        message = M_("rounding: expected one of {join}, got {describe}", join=choices, describe=got)
        b.problems.add(node.loc, message)
        return None
    return cast(Rounding, text)


def _text(what: str) -> Callable[[Node, HeaderBuilder], str | None]:
    """A metadata key's reader: any text, kept as written."""

    def read(node: Node, b: HeaderBuilder) -> str | None:
        text = as_str(node, b.problems, what)
        if text is not None and has_unsafe(text):
            b.problems.add(node.loc, f"{what}: cannot hold control or bidi characters: {quoted(text)}")
            return None
        return text

    return read


#: every header key, in the order the writers put them (``players`` first: the others are checked against it)
HEADER: tuple[HeaderKey, ...] = (
    HeaderKey("players", ("игроки",), _players),
    HeaderKey("dealer", ("сдаёт", "сдает", "сдающий"), _dealer),
    HeaderKey("dummy", ("болван",), _dummy),
    HeaderKey("convention", ("конвенция",), lambda n, b: as_str(n, b.problems, "convention"), "sochi"),
    HeaderKey("pool", ("пуля",), _pool),
    HeaderKey("rounding", ("округление",), _rounding),
    HeaderKey("date", ("дата",), _text("date")),
    HeaderKey("title", ("название",), _text("title")),
    HeaderKey("place", ("место",), _text("place")),
)
HEADER_KEYS = tuple(row.key for row in HEADER)
#: every spelling of a header key, case-folded → the key
HEADER_ALIASES: dict[str, str] = {
    spelling.casefold(): row.key for row in HEADER for spelling in (row.key, *row.aliases)
}
#: the top-level keys of a YAML log and of a paper sheet
LOG_KEYS = (*HEADER_KEYS, "deals", "overrides")
SHEET_KEYS = (*HEADER_KEYS, "sheet", "running", "overrides")
#: the Russian spellings of the sections of a YAML log or sheet, case-folded → the key
SECTION_ALIASES = {"сдачи": "deals", "изменения": "overrides", "лист": "sheet", "по ходу": "running"}
#: each header key and section as a Russian log writes it (``typed_as``, ``words.RUSSIAN``)
RUSSIAN_KEYS = {row.key: row.aliases[0] for row in HEADER if row.aliases}
RUSSIAN_KEYS.update((key, word) for word, key in SECTION_ALIASES.items())


def typed_as(word: str, keys: tuple[str, ...]) -> tuple[str, ...]:
    """``keys`` named in ``word``'s alphabet (Russian for a Cyrillic word: ``конвенциа`` → ``конвенция``)."""
    if not any("\u0400" <= c <= "\u04ff" for c in word):
        return keys
    return tuple(RUSSIAN_KEYS.get(k, k) for k in keys)


def header_values(header: Header) -> Iterator[tuple[str, Any]]:
    """The keys a canonical log writes after ``players``: not default, or written."""
    for row in HEADER[1:]:
        value = getattr(header, row.key)
        if value is not None and (value != row.default or row.key in header.locs):
            yield row.key, value


#: Latin letters that look Cyrillic, and their twins: ``Aня`` (a Latin A) looks right and is another name
_LATIN_LOOKS = "AaBCcEeHKMOoPpTXxy"
_CYRILLIC_LOOKS = "АаВСсЕеНКМОоРрТХху"
_LOOKALIKE = dict(zip(_LATIN_LOOKS + _CYRILLIC_LOOKS, _CYRILLIC_LOOKS + _LATIN_LOOKS, strict=True))


def letter_slip(word: str, name: str) -> str | None:
    """When ``word`` is ``name`` but for letters from the other alphabet that look the same:
    which letter, from which alphabet, and the name (``the first letter is Latin A``)."""
    if len(word) != len(name) or word == name:
        return None
    odd = [i for i, (a, b) in enumerate(zip(word, name, strict=True)) if a != b]
    if any(_LOOKALIKE.get(word[i]) != name[i] for i in odd):
        return None
    i = odd[0]
    script = M_("Latin") if word[i].isascii() else M_("Cyrillic")
    said = {"script": script, "letter": word[i], "name": name}
    if i == 0:
        return M_("the first letter is {script} {letter}; the name is {name}", **said)
    return M_("letter {n} is {script} {letter}; the name is {name}", n=i + 1, **said)


def mixed_letters(name: str) -> str | None:
    """A name written in one alphabet but for a few letters from the other that look the same
    (``Aня``): which letter, and the name meant; None for a name in one alphabet."""
    latin = sum(c.isascii() and c.isalpha() for c in name)
    cyrillic = sum("\u0400" <= c <= "\u04ff" for c in name)
    if not latin or not cyrillic:
        return None
    few_latin = latin <= cyrillic  # the letters of the alphabet used less are the slips
    meant = "".join(_LOOKALIKE.get(c, c) if c.isalpha() and c.isascii() == few_latin else c for c in name)
    return letter_slip(name, meant)


def either(names: list[str]) -> str:
    """``A or B or C`` in the language it is shown in."""
    if len(names) == 1:
        return names[0]
    return M_("{names} or {name}", names=either(names[:-1]), name=names[-1])


def match_player(word: str, players: tuple[str, ...]) -> tuple[str | None, str]:
    """A written name → (the player or None, a hint): exact, ignoring case, a unique prefix."""
    if word in players:
        return word, ""
    low = word.casefold()
    same = [p for p in players if p.casefold() == low]
    if len(same) == 1:
        return same[0], ""
    pre = [p for p in players if p.casefold().startswith(low)]
    if len(pre) == 1:
        return pre[0], ""
    if len(pre) > 1:
        return None, M_("{word!r} could be {names}: write more letters", word=word, names=either(pre))
    slip = next((said for p in players if (said := letter_slip(word, p)) is not None), None)
    if slip is not None:
        return None, slip
    close = difflib.get_close_matches(word, list(players), n=1, cutoff=0.5)
    if close:
        return None, M_("did you mean {name}?", name=close[0])
    return None, M_("players: {join}", join=", ".join(players))


_CONVENTION_KEYS = N_("{did}convention keys are like 'whist.on_failure' (see conventions/sochi.yaml)")
_HEADER_KEYS = N_("{did}header keys: {keys}, or a convention key like 'whist.on_failure'")


@dataclass
class HeaderBuilder:
    """Collects the header keys of one input as its reader meets them; ``build`` checks
    them.  ``doc`` names the input in messages: "the log" or "the sheet"."""

    file: str
    problems: Problems
    doc: str = M_("the log")
    #: header key → (its value, where the key was written)
    values: dict[str, tuple[Node, Loc]] = field(default_factory=dict)
    #: convention keys set: (key, value, where the key was written, from ``overrides:``)
    overrides: list[tuple[str, Node, Loc, bool]] = field(default_factory=list)
    #: the players, once ``build`` has read them (the other keys are checked against them)
    players: tuple[str, ...] = ()

    def add(self, word: str, key_loc: Loc, node: Node, *, source: str = "") -> bool:
        """A header key in any spelling, with its value; False when ``word`` is none."""
        key = HEADER_ALIASES.get(word.casefold())
        if key is None:
            return False
        if key in self.values:
            at = self.values[key][1].place()
            twice = M_("header {quoted} is given twice, first at {place}", quoted=quoted(word), place=at)
            self.problems.add(key_loc, twice, M_("keep one of them"), source=source, width=len(word))
            return True  # the first stays: neither is taken silently over the other
        self.values[key] = (node, key_loc)
        return True

    def override(self, key: str, key_loc: Loc, node: Node, *, in_mapping: bool) -> None:
        """A convention key set in ``overrides:`` or on a line log's header line; checked in ``build``."""
        first = next((at for other, _, at, _ in self.overrides if other == key), None)
        if first is None:
            self.overrides.append((key, node, key_loc, in_mapping))
            return
        twice = M_("{quoted} is set twice, first at {place}", quoted=quoted(key), place=first.place())
        self.problems.add(key_loc, twice, M_("keep one of them"), width=len(key))

    def overrides_node(self, node: Node) -> None:
        """The value of a YAML ``overrides:`` key: a mapping of convention keys."""
        if node.kind != "map":
            self.problems.add(node.loc, M_("overrides: expected a mapping of convention keys"))
            return
        for k, v in node.pairs:
            self.override(k.text.strip(), k.loc, v, in_mapping=True)

    def build(self) -> Header | None:
        """The header (made despite problems), or None when it has no players."""
        if "players" not in self.values:
            start = M_("start with 'players: Anna Boris Vera' (2 to 5 names, clockwise)")
            self.problems.add(Loc(self.file, 1, 1), M_("{doc} does not say who plays", doc=self.doc), start)
            return None
        players = HEADER[0].read(self.values["players"][0], self)
        if players is None:
            return None
        self.players = players
        fields: dict[str, Any] = {}
        for row in HEADER[1:]:
            value = row.read(self.values[row.key][0], self) if row.key in self.values else None
            fields[row.key] = row.default if value is None else value
        known = [
            (key, node) for key, node, loc, in_mapping in self.overrides if self._known(key, loc, in_mapping)
        ]
        locs = {k: loc for k, (_, loc) in self.values.items()}
        return Header(players, overrides=tuple(known), locs=locs, source=self.file, **fields)

    def _known(self, key: str, loc: Loc, in_mapping: bool) -> bool:
        """Is ``key`` a convention key (or a section of them)?  If not, say so at ``loc``."""
        if key in SCHEMA or any(s.startswith(key + ".") for s in SCHEMA):
            return True
        # a line log's header line may be a header key mistyped, too (a Russian one in Russian)
        options = list(SCHEMA) if in_mapping else [*typed_as(key, HEADER_KEYS), *SCHEMA]
        close = [] if self.problems.full else difflib.get_close_matches(key, options, n=1, cutoff=0.6)
        did = did_you_mean(close[0] if close else None)
        if in_mapping:
            message = M_("unknown convention key {key!r} under overrides", key=key)
            hint = M_(_CONVENTION_KEYS, did=did)
        else:
            keys = ", ".join(typed_as(key, HEADER_KEYS))
            message, hint = M_("unknown header key {key!r}", key=key), M_(_HEADER_KEYS, did=did, keys=keys)
        self.problems.add(loc, message, hint)
        return False


def read_top(root: Node, builder: HeaderBuilder, allowed: tuple[str, ...]) -> dict[str, Node]:
    """The top-level mapping of a YAML log or sheet: header keys and ``overrides:`` go to
    ``builder``, the input's own sections (``deals:``, ``sheet:``…) are returned."""
    sections: dict[str, Node] = {}
    for k, v in root.pairs:
        word = k.text.strip()
        key = SECTION_ALIASES.get(word.casefold(), word)
        if key in allowed and key not in HEADER_ALIASES and key != "overrides":
            sections[key] = v
        elif key == "overrides":
            builder.overrides_node(v)
        elif not builder.add(key, k.loc, v):
            message = M_("unknown key {word!r} in {doc}", word=word, doc=builder.doc)
            unknown_key(builder.problems, k.loc, message, word, allowed)
    return sections


def unknown_key(problems: Problems, loc: Loc, message: str, word: str, allowed: tuple[str, ...]) -> None:
    """``message`` at ``loc``, with the closest allowed key and all of them as the hint."""
    allowed = typed_as(word, allowed)
    close = [] if problems.full else difflib.get_close_matches(word, allowed, n=1, cutoff=0.6)
    hint = M_("{did}allowed: {join}", did=did_you_mean(close[0] if close else None), join=", ".join(allowed))
    problems.add(loc, message, hint)


def convention_for(header: Header, override: str | None = None) -> Convention:
    """The convention the log names (or ``override``), with the log's own overrides applied."""
    ref = override or header.convention
    node = None
    if header.overrides:
        pairs = tuple((Node("scalar", value.loc, text=key), value) for key, value in header.overrides)
        node = Node("map", header.overrides[0][1].loc, pairs=pairs)
    relative = header.source if override is None else None
    within = None
    if override is None and not outside_allowed.get():
        # the log's own directory tree (the current directory for standard input)
        stdin = header.source in ("-", "<stdin>", "<text>")
        within = Path.cwd() if stdin else Path(header.source).resolve().parent
    at = header.locs.get("convention")
    pool, rounding = header.pool, header.rounding
    return load(
        ref, relative_to=relative, ref_loc=at, overrides=node, pool=pool, rounding=rounding, within=within
    )
