"""The aliases file: one person however the logs spelled her (``Вера: [Vera, V]``).  A name is matched
as ``logs.header.match_player`` does, but not by prefix (across evenings a prefix would join strangers)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from pulyacalc.core.errors import Loc, Problems, ReadError, has_unsafe, not_utf8, opened, os_reason, quoted
from pulyacalc.core.i18n import M_, N_
from pulyacalc.logs.read import refused
from pulyacalc.yamlsource import MAX_YAML_BYTES, Node, parse_yaml, read_at_most

#: what a log reads as one player's name: a word without spaces, commas or brackets
_WORD = re.compile(r"[^\s,\[\]]+")

_EXAMPLE = M_("write 'Вера: [Vera, V]'")


@dataclass(frozen=True)
class Aliases:
    """Spellings → persons: ``exact`` as written (own names included), ``folded`` by
    ``casefold()``; neither maps a key to two people."""

    source: str = ""
    #: the persons, in the order of the file
    people: tuple[str, ...] = ()
    exact: Mapping[str, str] = field(default_factory=dict)
    folded: Mapping[str, str] = field(default_factory=dict)

    def person(self, name: str) -> str:
        """The person a name written in a log is; the name itself when it is not in the file."""
        return self.exact.get(name) or self.folded.get(name.casefold(), name)  # a person is never ''

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self.exact or name.casefold() in self.folded)

    def __len__(self) -> int:
        return len(self.people)

    def table(self, players: tuple[str, ...], loc: Loc, problems: Problems) -> dict[str, str] | None:
        """Each player of one log → his person; None, with a problem, when two are one person."""
        seats: dict[str, str] = {}
        by_person: dict[str, str] = {}
        before = len(problems)
        for p in players:
            who = self.person(p)
            if who in by_person:
                both = N_(
                    "{by_person!r} and {p!r} are both {who!r} in the aliases file {source}, and one "
                    "person cannot sit twice at one table"
                )
                fix = M_("take the wrong spelling out of the aliases file, or fix the name in the log")
                problems.add(loc, M_(both, by_person=by_person[who], p=p, who=who, source=self.source), fix)
            by_person.setdefault(who, p)
            seats[p] = who
        return seats if len(problems) == before else None


def read_aliases(path: str) -> Aliases:
    """Read an aliases file; raises ReadError with every problem, each located."""
    try:
        with opened(open(path, encoding="utf-8-sig")) as f:
            text = read_at_most(f, MAX_YAML_BYTES + 1)  # bounded: parse_yaml refuses a longer one
    except FileNotFoundError:
        check = M_("check the path given to --aliases")
        raise refused(Loc(path), M_("no such aliases file"), check) from None
    except IsADirectoryError:
        raise refused(Loc(path), M_("is a directory, not an aliases file")) from None
    except UnicodeDecodeError as e:
        raise ReadError([not_utf8(path, path, e.reason)]) from None
    except OSError as e:
        raise refused(Loc(path), M_("cannot read the aliases file: {reason}", reason=os_reason(e))) from None
    return read_aliases_text(text, path)


def read_aliases_text(text: str, name: str = "<aliases>") -> Aliases:
    """Read aliases given as text (``name`` locates the problems); raises ReadError."""
    root = parse_yaml(text, name, unique_keys=False)  # names its own duplicates
    if root.kind != "map":
        what = N_("an aliases file is a mapping of each person to the spellings of the name, got {describe}")
        raise refused(root.loc, M_(what, describe=root.describe()), _EXAMPLE)
    reader = _Reader(text.lstrip("\ufeff").splitlines(), Problems())
    for key, value in root.pairs:
        reader.entry(key, value)
    reader.problems.raise_if_any()
    return Aliases(name, tuple(reader.people), reader.exact, {k: who for k, (who, _) in reader.where.items()})


class _Reader:
    """Gathers the file's entries, refusing a name that is no player's or means two people."""

    def __init__(self, lines: list[str], problems: Problems) -> None:
        self.lines, self.problems = lines, problems
        self.people: list[str] = []
        self.exact: dict[str, str] = {}
        #: casefolded spelling → (person, where it was written): ``Aliases.folded`` with places
        self.where: dict[str, tuple[str, Loc]] = {}

    def add(self, node: Node, message: str, hint: str = "") -> None:
        """A problem at ``node``, its line echoed with a caret under the value."""
        line = node.loc.line
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        width = len(node.text) if node.kind == "scalar" and node.text and "\n" not in node.text else 1
        self.problems.add(node.loc, message, hint, source=source, width=width)

    def entry(self, key: Node, value: Node) -> None:
        person = self.name(key, "a person's name", one_word=False)
        spellings: list[Node] = []
        if value.kind == "seq":
            spellings = list(value.items)
            if not spellings:
                empty = M_("{text!r} has no spellings (an empty list)", text=key.text)
                self.add(value, empty, _EXAMPLE + ", or remove the line")
        elif value.kind == "scalar" and not value.null:
            spellings = [value]
        else:
            what = value.describe()
            self.add(value, M_("expected a name or a list of names, got {what}", what=what), _EXAMPLE)
        if person is None:
            for s in spellings:
                self.name(s, "a spelling", one_word=True)
            return
        twin = next((p for p in self.people if p.casefold() == person.casefold()), None)
        if twin is not None:
            at = self.where[twin.casefold()][1]
            twice = M_("{person!r} is listed twice (also at {at})", person=person, at=at)
            self.add(key, twice, M_("write all the spellings in one list"))
            return
        self.claim(person, key, person)
        self.people.append(person)
        for s in spellings:
            written = self.name(s, "a spelling", one_word=True)
            if written is not None:
                self.claim(written, s, person)

    def name(self, node: Node, what: str, *, one_word: bool) -> str | None:
        """A name as written, or None with the problem reported."""
        text = node.text.strip()
        hint: str = _EXAMPLE
        if node.kind != "scalar":
            problem = M_("{what}: expected a name, got {describe}", what=what, describe=node.describe())
        elif node.null or not text:
            problem = M_("{what}: expected a name, got an empty one", what=what)
        elif text[:1].isdigit():
            # as a log refuses such a player; a number is never taken for a name
            problem = M_("{what} cannot start with a digit: {text!r}", what=what, text=text)
            hint = M_("a log cannot name a player so; write the name in letters")
        elif has_unsafe(text):  # as a log refuses such a player: it would reach every table
            problem = M_("a player's name cannot hold control or bidi characters: {name}", name=quoted(text))
            hint = ""
        elif one_word and _WORD.fullmatch(text) is None:
            one = N_("{what} is one word as a log writes a player (no spaces, commas or brackets): {text!r}")
            problem, hint = M_(one, what=what, text=text), M_("write several spellings as a list: [Vera, V]")
        else:
            return text
        self.add(node, problem, hint)
        return None

    def claim(self, spelling: str, node: Node, person: str) -> None:
        """``spelling`` means ``person``; refused when it already means someone else."""
        low = spelling.casefold()
        if low in self.where:
            other, at = self.where[low]
            if other != person:
                mine = "a person's name" if spelling == person else f"a spelling of {person!r}"
                theirs = "whose name it is" if other.casefold() == low else f"given at {at}"
                means = N_(
                    "{spelling!r} ({mine}) already means {other!r} ({theirs}); a name must mean one person"
                )
                hint = M_("keep it under one person only (names are matched ignoring case)")
                self.add(node, M_(means, spelling=spelling, mine=mine, other=other, theirs=theirs), hint)
            return
        self.where[low] = (person, node.loc)
        self.exact[spelling] = person
