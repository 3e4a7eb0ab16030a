"""The line format (INTERFACE.md "A log in the line format", docs/format.md): ``key: value`` header
lines, then one deal per line as comma-separated clauses, read as a stream::

    12. Anna 6♠ 7, Boris whist 2, Vera pass 1, dealer Dan   # a note

Errors point at the column of the bad token; the happy path is dictionary look-ups and ``str.split``.
Logs repeat the same few thousand lines: ``LineDeals`` parses each distinct text once (a ``DealText``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import chain

from pulyacalc.core.errors import Loc, Problem, Problems, ReadError
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.model import (
    CALL_SPELLINGS,
    CARDS_HINT,
    CONCEDE_SPELLINGS,
    CONTRACT_SPELLINGS,
    CORRECTION_WORDS,
    DARK_SPELLINGS,
    MISERE_SPELLINGS,
    SEAT_WORDS,
    UNDERTRICK_SPELLINGS,
    Call,
    Card,
    Contract,
    ContractError,
    Correction,
    Deal,
    Header,
    Log,
    Play,
    Raspasy,
    SeatChange,
    Unreadable,
    _close,
    contract_key,
    relaid,
)
from pulyacalc.logs.header import HEADER_ALIASES, HeaderBuilder, match_player
from pulyacalc.logs.seat import parse_seat_line, starts_with
from pulyacalc.yamlsource import MAX_LINE_CHARS, Node, parse_yaml

#: ``key: value`` (the key is a word, dotted for convention keys: ``whist.on_failure``)
_HEADER_RE = re.compile(r"^\s*([^\W\d][\w.\-]*)\s*:(.*)$")
#: an optional deal number: ``12.``, ``12)``, ``12:`` or ``12`` followed by a space
_NUMBER_RE = re.compile(r"^\s*(\d+)(?:[.):]\s*|\s+)")
#: a word of a deal line's clauses, or the comma between two
_TOKEN_RE = re.compile(r"[^\s,]+|,")

RASPASY_WORDS = frozenset({"raspasy", "распасы", "распас", "распасовка", "rasp", "raspasovka"})
TALON_WORDS = frozenset({"talon", "прикуп", "прикупа"})
DEALER_WORDS = frozenset({"dealer", "сдаёт", "сдает", "сдающий", "сдавал"})

_DIGITS = frozenset("0123456789")
#: distinct deal texts the line reader remembers, emptied when full (flat memory)
PARSE_CACHE_SIZE = 50_000


def _strip_comment(line: str) -> tuple[str, str | None]:
    """The text before ``#`` and the note after it (None when there is none, or it is blank)."""
    i = line.find("#")
    return (line, None) if i < 0 else (line[:i], line[i + 1 :].strip() or None)


def header_key(text: str) -> tuple[str, int, str, int] | None:
    """``key: value`` → (key, key column, value, value column), columns 1-based."""
    m = _HEADER_RE.match(text)
    if m is None or m.group(2).lstrip().startswith("//"):
        return None
    raw = m.group(2)
    return m.group(1), m.start(1) + 1, raw.strip(), m.start(2) + len(raw) - len(raw.lstrip()) + 1


def _is_header_key(key: str) -> bool:
    return key.casefold() in HEADER_ALIASES or "." in key


def parse_stream(
    lines: Iterable[str], file: str, problems: Problems, cache: dict[str, DealText] | None = None
) -> Log:
    """Read the header eagerly; the deals are read lazily (``LineDeals``)."""
    it = iter(lines)
    builder = HeaderBuilder(file, problems)
    header_lines: dict[int, str] = {}
    number = 0
    pending: tuple[int, str] | None = None
    before = len(problems)
    for number, raw in enumerate(it, 1):
        if number == 1:
            raw = raw.lstrip("\ufeff")
        line = raw.rstrip("\r\n")
        if len(line) > MAX_LINE_CHARS:
            # a header line too (a 50 MB 'players:' line would take gigabytes to split)
            problems.add(Loc(file, number, 1), f"line is over {MAX_LINE_CHARS:,} characters long")
            continue
        text = _strip_comment(line)[0]
        if not text.strip():
            continue
        kv = header_key(text)
        if kv is not None and not _is_header_key(kv[0]) and "players" in builder.values:
            # 'Anna: 6♠ 7' is a deal whose first word is a player, not a header key
            names = tuple(builder.values["players"][0].text.replace(",", " ").strip("[] ").split())
            if match_player(kv[0], names)[0] is not None:
                kv = None
        if kv is None:
            pending = (number, raw)
            break
        header_lines[number] = line
        key, key_col, value, value_col = kv
        key_loc = Loc(file, number, key_col)
        node = _value_node(value, Loc(file, number, value_col), problems)
        if not builder.add(key, key_loc, node, source=line):
            builder.override(key, key_loc, node, in_mapping=False)
    header = builder.build()
    _echo_header(problems, before, header_lines)
    if header is None:
        problems.raise_if_any()
        raise AssertionError("header problems were reported")
    header_ok = len(problems) == before
    deals = LineDeals(it, pending, number, header, problems, {} if cache is None else cache)
    return Log(header, deals, header_ok)


def _value_node(value: str, loc: Loc, problems: Problems) -> Node:
    """A header value: plain text, or a YAML flow list/mapping (``{6: 2, 7: 4}``)."""
    if not value.startswith("{"):
        return Node("scalar", loc, text=value, null=not value)
    try:
        node = parse_yaml(value, loc.file)
    except ReadError as e:
        for p in e.problems:
            problems.add(_shift(p.loc, loc), p.message, p.hint)
        return Node("scalar", loc, text=value)
    return _relocate(node, loc)


def _shift(inner: Loc, at: Loc) -> Loc:
    return Loc(at.file, at.line, at.column + max(inner.column, 1) - 1)


def _relocate(node: Node, at: Loc) -> Node:
    items = tuple(_relocate(n, at) for n in node.items)
    pairs = tuple((_relocate(k, at), _relocate(v, at)) for k, v in node.pairs)
    return node._replace(loc=_shift(node.loc, at), items=items, pairs=pairs)


def _echo_header(problems: Problems, before: int, lines: dict[int, str]) -> None:
    """Header problems of a line log echo their line with a caret under the word."""
    items = problems.items
    for i, p in enumerate(items[before:], before):
        line = lines.get(p.loc.line)
        if line is not None and not p.source and p.loc.column:
            items[i] = replace(p, source=line, width=token_width(line, p.loc.column, ",#:"))


def token_width(line: str, column: int, stops: str = ",#") -> int:
    """Width of the word at ``column`` (1-based): up to a space or one of ``stops``."""
    return max(1, len(re.split(f"[\\s{re.escape(stops)}]", line[column - 1 :], maxsplit=1)[0]))


@dataclass(slots=True, eq=False)
class LineDeals:
    """The deals of a line log, read lazily.  The fold reads the raw ``lines`` itself, hands
    each line it does not know to ``one`` and makes a known one's deal with ``again``."""

    lines: Iterator[str]
    pending: tuple[int, str] | None
    #: the number of the last line read before ``lines`` (the header's)
    number: int
    header: Header
    problems: Problems
    #: deal text → its successful parse; shared by logs with the same players (``season``)
    cache: dict[str, DealText] = field(default_factory=dict)
    #: deals counted so far (for the deal numbers)
    count: int = 0
    #: written deal number minus ``count``: a skipped or doubled number is one problem, not one per line after
    shift: int = 0
    #: the last line ``one`` read had no deal number (so it reads the same anywhere)
    plain: bool = False
    #: some of it was read (by iterating, or by the fold from its raw lines)
    started: bool = False
    #: unnumbered unreadable line → its problems, told again unread (suggestions on every line take minutes)
    bad: dict[str, list[Problem]] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Deal | Correction | SeatChange | Unreadable]:
        one = self.one
        self.started = True
        pending, self.pending = self.pending, None
        number = self.number
        for number, raw in chain(
            [] if pending is None else [pending], enumerate(self.lines, self.number + 1)
        ):
            d = one(number, raw)
            if d is not None:
                yield d
        self.number = number

    def again(self, lineno: int, raw: str, template: Hashable) -> Deal:
        """The deal of a line the fold knew, made anew from its ``template``; nothing is counted."""
        assert isinstance(template, DealText)
        file = self.header.source
        line = raw.rstrip("\r\n")
        return template.deal(_strip_comment(line)[1], file, lineno, 1, line)

    def one(self, lineno: int, raw: str) -> Deal | Correction | SeatChange | Unreadable | None:
        """The line read: a deal, a correction, a seat change, an Unreadable, or None."""
        file = self.header.source
        players = self.header.players
        cache = self.cache
        problems = self.problems
        self.plain = False
        line = raw.rstrip("\r\n")
        t = cache.get(line)
        if t is not None and ":" not in line:
            # the common case: a deal seen before, no number or note (keys never look numbered), no header ':'
            self.count += 1
            self.plain = True
            return t.deal(None, file, lineno, 1, line)
        bad = self.bad.get(line)
        if bad is not None:
            self.count += 1
            problems.again(bad, lineno)
            return Unreadable(Loc(file, lineno, 1))
        if len(line) > MAX_LINE_CHARS:
            # the reader cuts a longer line (logs/read._chain): its length is not known
            too_long = M_("line is over {most} characters long", most=f"{MAX_LINE_CHARS:,}")
            problems.add(Loc(file, lineno, 1), too_long)
            self.count += 1
            return Unreadable(Loc(file, lineno, 1))
        text, note = _strip_comment(line)
        if not text or text.isspace():
            return None
        if ":" in text and _header_out_of_place(text, line, lineno, self.header, problems):
            return None
        self.count += 1
        # the cache's key is the text after its deal number (a wrong one is reported by _parse)
        m = _number(text)
        start = 0 if m is None else m.end()
        written = None if m is None else _whole_number(m.group(1))
        expected = self.count + self.shift
        t = cache.get(text[start:] if start else text) if m is None or written == expected else None
        if t is None:
            if starts_with(text, players, SEAT_WORDS):
                # a seat change (RULES.md 6.3): no number, no turn; a newcomer's name reads from here on
                self.count -= 1
                seat = parse_seat_line(line, Loc(file, lineno, 1), players, problems)
                if seat is not None and seat.change == "join" and seat.player not in players:
                    self.header = replace(self.header, players=(*players, seat.player))
                    self.cache.clear()
                    self.bad.clear()
                return seat
            if starts_with(text, players, CORRECTION_WORDS, numbered=True):
                # RULES.md 2.9: not a deal (no number, no turn; skipped if bad); never cached, so checked here
                from pulyacalc.logs.correction import parse_correction_line  # only when one is there

                self.count -= 1
                return parse_correction_line(line, Loc(file, lineno, 1), players, problems)
            read = self._read_new(text, line, lineno, m is None, written, expected)
            if read is None:
                # an unreadable line keeps its place, so the dealer rotation after it stays right
                return Unreadable(Loc(file, lineno, 1))
            t, start = read
        self.plain = m is None
        return t.deal(note, file, lineno, 1 + start, line)

    def _read_new(
        self, text: str, line: str, lineno: int, unnumbered: bool, written: int | None, expected: int
    ) -> tuple[DealText, int] | None:
        """A text not in the cache, read and cached; None when it has a problem (kept in ``bad``
        when unnumbered).  A wrong deal number resynchronises the numbers after it."""
        problems, count = self.problems, self.count
        kept, reported = len(problems.items), len(problems)
        read = _parse(
            text, Loc(self.header.source, lineno, 1), self.header.players, problems, line, expected, count
        )
        if read is None and unnumbered and len(problems.items) - kept == len(problems) - reported:
            if len(self.bad) >= PARSE_CACHE_SIZE:
                self.bad.clear()
            self.bad[line] = problems.items[kept:]
        if written is not None and written != expected:
            self.shift = written - count  # resynchronise: later numbers follow this one
        if read is not None:
            t, start = read
            key = text[start:] if start else text
            if unnumbered or _number(key) is None:  # a key that looks numbered would skip the number check
                if len(self.cache) >= PARSE_CACHE_SIZE:
                    self.cache.clear()
                self.cache[key] = t
        return read


def _header_out_of_place(text: str, line: str, lineno: int, header: Header, problems: Problems) -> bool:
    """Is ``text`` a header line after the first deal?  It is reported (True)."""
    kv = header_key(text)
    if kv is None or not _is_header_key(kv[0]) or match_player(kv[0], header.players)[0] is not None:
        return False
    dealer = HEADER_ALIASES.get(kv[0].casefold()) == "dealer"
    hint = M_(_MOVE_DEALER) if dealer else M_("move it to the top of the log")
    at = Loc(header.source, lineno, kv[1])
    problems.add(at, M_("header lines go before the first deal"), hint, source=line, width=len(kv[0]))
    return True


def _is_count(tok: str) -> bool:
    return tok[0] in _DIGITS and tok.isascii() and tok.isdigit()


#: a part's offset in :attr:`DealText.parts` meaning "the deal as a whole" (see LineLocs)
WHOLE = -1


@dataclass(slots=True, eq=False)
class DealText:
    """What a deal line says after its number, without where it was: shared by every line with
    the same text and compared by identity (``Deal.template``), so it never changes."""

    declarer: str | None
    contract: Contract | None
    calls: dict[str, Call]
    tricks: dict[str, int]
    dealer: str | None
    #: each part's offset from the start of the clauses, or WHOLE for the deal as a whole ("calls", "tricks")
    parts: dict[str, int]
    #: offset of the first clause: where the deal as a whole starts
    body_at: int
    #: the talon's cards (``talon cards A♠ K♠``) and «без трёх» (``Anna 7♠ concede``)
    talon: tuple[Card, ...] = ()
    concede: bool = False
    #: who said «втёмную» (K3.3.19): the declarer of a dark game, or the dark passers of a raspasy
    dark: tuple[str, ...] = ()

    def deal(
        self, note: str | None, file: str, lineno: int, base: int, source: str, shared: bool = True
    ) -> Deal:
        """The deal on line ``lineno``, clauses from column ``base``; ``shared``: it becomes the template."""
        template = self if shared else None
        loc = Loc(file, lineno, base + self.body_at)
        locs = LineLocs(self.parts, file, lineno, base, loc)
        declarer, contract = self.declarer, self.contract
        if contract is None:
            return Raspasy(self.tricks, self.dealer, note, loc, locs, source, template, self.dark)
        assert declarer is not None
        return Play(
            declarer,
            contract,
            self.calls,
            self.tricks,
            self.dealer,
            note,
            loc,
            locs,
            source,
            template,
            talon=self.talon,
            concede=self.concede,
            dark=bool(self.dark),
        )


@dataclass(slots=True, eq=False, repr=False)
class LineLocs(Mapping[str, Loc]):
    """The ``locs`` of a deal line (a line or a YAML log's), a Loc made only when a part is asked
    for (an error).  Parts about the whole deal are the deal's own ``loc`` (``table._echo`` checks ``is``)."""

    _parts: dict[str, int]
    _file: str
    _line: int
    _base: int
    _whole: Loc

    def __getitem__(self, part: str) -> Loc:
        offset = self._parts[part]
        return self._whole if offset == WHOLE else Loc(self._file, self._line, self._base + offset)

    def __iter__(self) -> Iterator[str]:
        return iter(self._parts)

    def __len__(self) -> int:
        return len(self._parts)

    def __repr__(self) -> str:
        return repr(dict(self))


def _whole_number(digits: str) -> int | None:
    """``int(digits)``; None past a thousand digits (``int`` refuses over 4,300)."""
    return int(digits) if len(digits) <= 1000 else None


def _number(text: str) -> re.Match[str] | None:
    """The deal number written at the start of ``text`` (``12.``, ``12)``, ``12:``, ``12``)."""
    if text[:1].isdigit() or (text[:1].isspace() and text.lstrip()[:1].isdigit()):
        return _NUMBER_RE.match(text)
    return None


def parse_deal_line(
    text: str,
    loc: Loc,
    players: tuple[str, ...],
    problems: Problems,
    *,
    source: str = "",
    expected_number: int | None = None,
    cache: dict[str, tuple[DealText, int]] | None = None,
) -> Deal | None:
    """One deal line (without its comment) → a Play or Raspasy.  ``cache``: a YAML log's texts."""
    read = None if cache is None else cache.get(text)
    if read is None:
        read = _parse(text, loc, players, problems, source, expected_number)
        if read is None:
            return None
        if cache is not None and expected_number is None:
            if len(cache) >= PARSE_CACHE_SIZE:
                cache.clear()
            cache[text] = read
    t, start = read
    shared = cache is not None and expected_number is None
    return t.deal(None, loc.file, loc.line, (loc.column or 1) + start, source, shared)


def _parse(
    text: str,
    loc: Loc,
    players: tuple[str, ...],
    problems: Problems,
    source: str,
    expected_number: int | None,
    counted: int | None = None,
) -> tuple[DealText, int] | None:
    """The deal number and the clauses (where they start in ``text``), or None on a problem."""
    before = len(problems)
    base = loc.column or 1
    file, lineno = loc.file, loc.line
    body_start = 0
    m = _number(text)
    if m:
        written = _whole_number(m.group(1))
        if expected_number is not None and written != expected_number:
            shown = m.group(1) if written is None else written
            message = _M8 if counted is None or counted == expected_number else _M9
            wrong = M_(message, shown=shown, expected_number=expected_number)
            fix = M_("fix the number, or look for a missing or extra deal above")
            problems.add(
                Loc(file, lineno, base + m.start(1)), wrong, fix, source=source, width=len(m.group(1))
            )
        body_start = m.end()

    def err(offset: int, message: str, hint: str = "", width: int = 1) -> None:
        """A problem at ``offset`` from the start of the clauses."""
        problems.add(Loc(file, lineno, base + body_start + offset), message, hint, source=source, width=width)

    t = _clauses(text[body_start:] if body_start else text, players, err, problems, before)
    return None if t is None else (t, body_start)


#: the longer messages of the line parser (marked here, filled there)
_M1 = N_("a second contract in one deal ({declarer} already declared {contract})")
_M2 = N_("a deal with a contract ({declarer} {contract}) is not raspasy")
_M3 = N_("only the declarer concedes «без трёх»: {declarer}, who declared {contract}")
_M4 = N_("{who} is named twice in one deal")
_M6 = N_("how many tricks did {who} take from the talon?")
_M7 = N_("the talon's cards are given for a contract, and this deal has none")
_M8 = N_("deal number {shown}, but this is deal {expected_number}")
_M9 = N_("deal number {shown}, but the numbers above make this {expected_number}")
_MOVE_DEALER = N_(
    "move it to the top of the log; to change one deal's dealer add ', dealer NAME' to its line"
)
_DOWN_DEFENDER = N_("undertricks are the declarer's: {declarer} declared {contract}")
_DOWN_TOO_MANY = N_("{n} down on {contract}: {declarer} cannot take fewer than no tricks")
_BARE_TRICKS = N_(
    "a contract needs a suit, like 7♠; on raspasy write '{who} pass {tricks}' or "
    "start the line with 'raspasy'"
)
_DARK_PASS = N_("on raspasy «втёмную» goes with a pass: '{who} pass dark {get}'")
_WRITE_COMMA = N_("write '{prev}, {tok}'; a clause is a name, a call and tricks, like 'Anna 6♠ 7'")


#: a clause's words (or the rest of them), each with its offset from the start of the clauses
Tokens = list[tuple[str, int]]
#: reports a problem at an offset from the start of the clauses: ``err(offset, message, hint="", width=1)``
Err = Callable[..., None]


@dataclass(slots=True, eq=False)
class _Said:
    """What the clauses of one deal line said, clause by clause, for the shape checks."""

    text: str
    players: tuple[str, ...]
    err: Err
    #: where a leading ``raspasy`` was written (-1: it was not), and its width
    raspasy_at: int
    raspasy_width: int
    body_at: int
    declarer: str | None = None
    contract: Contract | None = None
    contract_end: int = 0
    calls: dict[str, Call] = field(default_factory=dict)
    tricks: dict[str, int] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    dealer: str | None = None
    #: where each part was written (offsets, or WHOLE)
    locs: dict[str, int] = field(default_factory=dict)
    #: clauses that say tricks and no call: (player, offset of the name)
    bare: list[tuple[str, int]] = field(default_factory=list)
    #: passes without tricks: (player, offset after the clause)
    passes_without_tricks: list[tuple[str, int]] = field(default_factory=list)
    whist_at: list[tuple[str, int]] = field(default_factory=list)
    talon_at: list[int] = field(default_factory=list)
    #: the talon's cards (``talon cards A♠ K♠``); who conceded «без трёх», and where
    cards: tuple[Card, ...] | None = None
    concede: tuple[str, int] | None = None
    #: undertricks written after a contract ('Anna 6♠ -1'): (player, how many, offset)
    unders: list[tuple[str, int, int]] = field(default_factory=list)


def _clauses(
    text: str, players: tuple[str, ...], err: Err, problems: Problems, before: int
) -> DealText | None:
    """The clauses after the deal number; None when a problem was reported."""
    clauses, starts, raspasy_at, raspasy_width = _split_clauses(text, players)
    if all(not c for c in clauses):
        err(0, M_("an empty deal"), M_("write clauses like 'Anna 6♠ 7, Boris whist 2, Vera pass 1'"))
        return None
    said = _Said(text, players, err, raspasy_at, raspasy_width, clauses[0][0][1] if clauses[0] else 0)
    for toks, start in zip(clauses, starts, strict=True):
        _clause(said, toks, start)
    if len(problems) != before:
        return None
    # the deal as a whole: rule errors about it underline the whole deal
    if said.contract is None:
        if _raspasy_shape(said):
            return None
        said.locs["tricks"] = WHOLE
    elif _contract_shape(said):
        return None
    else:
        said.locs["calls"] = WHOLE
        said.locs["tricks"] = WHOLE if said.tricks else said.contract_end
    parts = (said.declarer, said.contract, said.calls, said.tricks, said.dealer, said.locs, said.body_at)
    return _dark_said(DealText(*parts, said.cards or (), bool(said.concede)), err)


def _split_clauses(text: str, players: tuple[str, ...]) -> tuple[list[Tokens], list[int], int, int]:
    """Each clause's words with their offsets and its start, and where a leading ``raspasy``
    was (-1: none) and its width; the word is taken out of the first clause."""
    clauses: list[Tokens] = [[]]
    starts = [0]
    clause = clauses[0]
    for m in _TOKEN_RE.finditer(text):  # (one pass: the words, and the commas between clauses)
        word = m.group()
        if word == ",":
            starts.append(m.end())
            clause = []
            clauses.append(clause)
        else:
            clause.append((word, m.start()))
    first = clauses[0]
    if first and first[0][0].rstrip(":").casefold() in RASPASY_WORDS and not _names(first[0][0], players):
        clauses[0] = first[1:]
        if not clauses[0] and len(clauses) > 1:
            clauses.pop(0)
            starts.pop(0)
        return clauses, starts, first[0][1], len(first[0][0])
    return clauses, starts, -1, 0


def _clause(said: _Said, toks: Tokens, start: int) -> None:
    """One clause read into ``said``: ``dealer NAME``, ``talon cards …`` or a player's."""
    err = said.err
    if not toks:
        err(start, M_("an empty clause between commas"), M_("remove the extra comma"))
        return
    name_tok, name_at = toks[0]
    name = name_tok[:-1] if name_tok.endswith(":") and len(name_tok) > 1 else name_tok
    low_name = name.casefold()
    if low_name in DEALER_WORDS and not _names(name, said.players):
        d = _dealer_clause(toks, said.players, said.dealer is not None, err)
        if d is not None:
            said.dealer = d
            said.locs["dealer"] = toks[1][1]
        return
    if low_name in TALON_WORDS and not _names(name, said.players):
        said.cards = _talon_cards(toks, said.cards is not None, err)
        said.locs["talon"] = name_at
        return
    who, hint = match_player(name, said.players)
    if who is None:
        err(name_at, M_("unknown player {name!r}", name=name), hint, width=len(name))
        return
    if who in said.seen:
        err(name_at, M_(_M4, who=who), M_("one clause per player"), width=len(name))
        return
    said.seen.add(who)
    _player_clause(said, who, toks, name_at + len(name_tok))


def _player_clause(said: _Said, who: str, toks: Tokens, name_end: int) -> None:
    """A player's clause after the name: tricks, undertricks, «без трёх», «втёмную», a call."""
    err, tricks, locs = said.err, said.tricks, said.locs
    rest = toks[1:]
    count: int | None = None
    count_at = 0
    # the last word a count, unless the last two say undertricks ('без 2')
    if rest and _is_count(rest[-1][0]) and _last_words(rest, UNDERTRICK_SPELLINGS)[1] != 2:
        count_tok, count_at = rest[-1]
        count = _whole_number(count_tok)  # None: thousands of digits, surely too many
        rest = rest[:-1]
        if count is None or count > 10:
            not_tricks = M_("{count_tok} is not a number of tricks", count_tok=count_tok)
            err(count_at, not_tricks, M_("a count is 0..10"), width=len(count_tok))
            return
    if len(rest) > 1:  # 'Anna 6♠ -1', '6п без одной': undertricks after the contract
        k = _undertricks(who, rest, count, said.unders, err)
        if k < 0:
            return
        if k:
            rest = rest[:-k]
            tricks[who] = -said.unders[-1][1]  # the clause's place in the order; set with the contract
            locs[f"tricks:{who}"] = said.unders[-1][2]
    if len(rest) > 1:  # 'Anna 7♠ concede', 'Anna 7♠ без трёх'
        n = _last_words(rest, CONCEDE_SPELLINGS)[1]
        if n:
            said.concede, rest = (who, rest[-n][1]), rest[:-n]
    rest = _dark_word(who, rest, locs)  # 'Anna dark 8♠ 8', 'Boris pass dark 3'
    if not rest:
        if count is None:
            add_call = M_("add a call: a contract like 6♠, whist, pass, half or misere")
            err(name_end, M_("what did {who} say?", who=who), add_call)
            return
        said.bare.append((who, toks[0][1]))
    elif not _call(said, who, toks[0][1], rest, count is None):
        return
    if count is not None:
        tricks[who] = count
        locs[f"tricks:{who}"] = count_at


def _call(said: _Said, who: str, name_at: int, rest: Tokens, no_tricks: bool) -> bool:
    """A clause's call: whist, pass, half, talon tricks or a contract; False on a problem."""
    word_at = rest[0][1]
    word = rest[0][0] if len(rest) == 1 else "".join(t for t, _ in rest)
    end = rest[-1][1] + len(rest[-1][0])
    low = word.lower()
    call = CALL_SPELLINGS.get(low)
    if call is not None:
        said.calls[who] = call
        said.locs[f"call:{who}"] = word_at
        if call is not Call.PASS:
            said.whist_at.append((who, word_at))
        elif no_tricks:
            said.passes_without_tricks.append((who, end))
        return True
    if low in TALON_WORDS:
        if no_tricks:
            said.err(end, M_(_M6, who=who), M_("e.g. '{who} talon 1'", who=who))
            return False
        said.talon_at.append(word_at)
        said.locs[f"talon:{who}"] = word_at
        return True
    parsed = CONTRACT_SPELLINGS.get(low)
    if parsed is None:
        if len(rest) > 1 and _missing_comma(rest, said.players, said.err):
            return False
        parsed = _contract_slow(word, word_at, end - word_at, said.err)
        if parsed is None:
            return False
    if said.contract is not None:
        second = M_(_M1, declarer=said.declarer, contract=said.contract)
        said.err(word_at, second, M_("one declarer per deal"), width=end - word_at)
        return False
    said.declarer, said.contract, said.contract_end = who, parsed, end
    said.locs["declarer"] = name_at
    said.locs["contract"] = word_at
    return True


def _contract_shape(said: _Said) -> bool:
    """The checks of a whole deal with a contract, in order: True when one failed."""
    err, declared = said.err, {"declarer": said.declarer, "contract": said.contract}
    if said.raspasy_at >= 0:
        drop = M_("drop the word, or the contract")
        err(said.raspasy_at, M_(_M2, **declared), drop, width=said.raspasy_width)
    elif said.talon_at:
        no_tricks = M_("the dealer takes no tricks in a contract")
        err(said.talon_at[0], M_("talon tricks are written only on raspasy"), no_tricks, width=5)
    elif said.concede is not None and said.concede[0] != said.declarer:
        err(said.concede[1], M_(_M3, **declared))
    else:
        if said.concede is not None:
            said.locs["concede"] = said.concede[1]
        return bool(said.unders) and not _declarer_down(said)
    return True


def _raspasy_shape(said: _Said) -> bool:
    """Checks of a deal with no contract, in order: True when one failed (saying why it is not raspasy)."""
    text, calls, tricks, err, bare = said.text, said.calls, said.tricks, said.err, said.bare
    if said.cards is not None:
        err(said.locs["talon"], M_(_M7), "K3.4.11")
    elif said.concede is not None:
        like = M_("like 'Anna 7♠ concede' (K note 40)")
        err(said.concede[1], M_("«без трёх» is said after a contract"), like)
    elif said.unders:
        like = M_("like 'Anna 6♠ -1': Anna took 5")
        err(said.unders[0][2], M_("undertricks are said after a contract"), like)
    elif said.whist_at:
        who, w_at = said.whist_at[0]
        message = M_("{who} {calls}s, but nobody declared a contract", who=who, calls=calls[who])
        like = M_("the declarer's clause is like 'Anna 6♠ 7'")
        err(w_at, message, like, width=token_width(text, w_at + 1))
    elif bare and said.raspasy_at < 0:
        who, b_at = bare[0]
        message = M_("{who}: tricks without a call, and no contract in this deal", who=who)
        hint = M_(_BARE_TRICKS, who=who, tricks=tricks[who])
        err(b_at, message, hint, width=token_width(text, b_at + 1))
    elif said.passes_without_tricks:
        who, end = said.passes_without_tricks[0]
        message = M_("everyone passed, so this is raspasy: give {who}'s tricks", who=who)
        err(end, message, M_("e.g. '{who} pass 3'", who=who))
    else:
        return False
    return True


def _declarer_down(said: _Said) -> bool:
    """Undertricks become the declarer's tricks in ``tricks``; False on a problem."""
    unders, declarer, contract, err = said.unders, said.declarer, said.contract, said.err
    assert declarer is not None and contract is not None
    # a defender's undertricks first: they are the mistake, not the declarer's
    who, n, at = next((u for u in unders if u[0] != declarer), unders[0])
    if who != declarer:
        message = M_(_DOWN_DEFENDER, declarer=declarer, contract=contract)
        err(at, message, M_("give {who}'s tricks, like '{who} whist 2'", who=who))
    elif contract.is_misere:
        give = M_("give the tricks {declarer} took, like '{declarer} misere 1'", declarer=declarer)
        err(at, M_("a misère is not played down"), give)
    elif said.concede is not None:
        err(at, M_("«без трёх» is conceded without play: no tricks, no undertricks"), M_("write one of them"))
    elif n > contract.level:
        message = M_(_DOWN_TOO_MANY, n=n, contract=contract, declarer=declarer)
        err(at, message, M_("at most {level} down", level=contract.level))
    else:
        said.tricks[declarer] = contract.level - n
        return True
    return False


def _dark_word(who: str, rest: Tokens, locs: dict[str, int]) -> Tokens:
    """A clause's words without a first or last «втёмную» (noted as ``dark:NAME``)."""
    if len(rest) > 1:
        for at in (0, -1):
            if rest[at][0].lower() in DARK_SPELLINGS:
                locs[f"dark:{who}"] = rest[at][1]
                return rest[1:] if at == 0 else rest[:-1]
    return rest


def _dark_said(t: DealText, err: Err) -> DealText | None:
    """Who said «втёмную»: on raspasy each with a pass (K3.3.19 а); in a game only the declarer's
    dark bid scores (б, в), a defender's is refused rather than silently dropped.  None on a problem."""
    dark = [(part[5:], at) for part, at in t.parts.items() if part.startswith("dark:")]
    for who, at in dark:
        if t.declarer is None:
            if t.calls.get(who) is not Call.PASS:
                err(at, M_(_DARK_PASS, who=who, get=t.tricks.get(who, 3)), "K3.3.19 а")
                return None
            continue
        if who == t.declarer:
            t.parts["dark"] = at
            continue
        if t.calls.get(who) is Call.WHIST:
            what = M_("whist «втёмную» (closed cards) changes nothing on the sheet")
        else:
            what = M_("a dark pass scores only when raspasy follows (K3.3.19 а)")
        hint = M_("drop the word")
        if who in t.calls:
            hint = M_("write '{who} {value}'", who=who, value=t.calls[who])
        err(at, f"{who}: {what}", hint)
        return None
    if not dark:
        return t
    return replace(t, dark=(t.declarer,) if t.declarer else tuple(who for who, _ in dark))


def _last_words(rest: Tokens, spellings: Container[str]) -> tuple[str, int]:
    """A clause's last word, or its last two written together (``без 2``), when one of
    ``spellings``: (that spelling, how many words), else ("", 0)."""
    tail = rest[-1][0].lower()
    if tail in spellings:
        return tail, 1
    two = rest[-2][0].lower() + tail if len(rest) > 2 else ""
    return (two, 2) if two in spellings else ("", 0)


def _dealer_clause(toks: Tokens, players: tuple[str, ...], again: bool, err: Err) -> str | None:
    """``dealer NAME``: the dealer, or None when a problem was reported."""
    name_tok, name_at = toks[0]
    if len(toks) != 2:
        if len(toks) < 3 or not _missing_comma(toks[1:], players, err):
            err(name_at, M_("write the dealer as 'dealer NAME'"), width=len(name_tok))
        return None
    d, hint = match_player(toks[1][0], players)
    if d is None:
        word, at = toks[1]
        err(at, M_("the dealer {value!r} is not a player", value=word), hint, width=len(word))
        return None
    if again:
        err(name_at, M_("the dealer is given twice"), width=len(name_tok))
        return None
    return d


def _undertricks(
    who: str, rest: Tokens, count: int | None, unders: list[tuple[str, int, int]], err: Err
) -> int:
    """Undertricks as a clause's last words (``-1``, ``без одной``), added to ``unders``: how
    many words (0: none), or -1 on a problem."""
    said, k = _last_words(rest, UNDERTRICK_SPELLINGS)
    if not k:
        return 0
    n, at = UNDERTRICK_SPELLINGS[said], rest[-k][1]
    if count is not None:
        width = rest[-1][1] + len(rest[-1][0]) - at
        message = M_("{who}'s tricks are given twice: {count} and {n} down", who=who, count=count, n=n)
        err(at, message, M_("write one of them"), width=width)
        return -1
    unders.append((who, n, at))
    return k


def _missing_comma(rest: Tokens, players: tuple[str, ...], err: Err) -> bool:
    """Report a ``;`` between clauses or a missing comma before a name or after a count (True)."""
    # a '.' ending a clause before a name: the Russian layout's '.' is where the English ',' is
    dots = [k for k in range(1, len(rest)) if rest[k - 1][0].endswith(".") and _names(rest[k][0], players)]
    for k in dots:
        tok, at = rest[k - 1]
        err(at + len(tok) - 1, M_("clauses are separated by commas, not '.'"), M_("replace '.' with ','"))
    if dots:
        return True
    for i, (tok, at) in enumerate(rest):
        semi = tok.find(";")
        if semi >= 0:
            err(at + semi, M_("clauses are separated by commas, not ';'"), M_("replace each ';' with ','"))
            return True
        if i and (_names(tok, players) or (i > 1 and _is_count(rest[i - 1][0]))):
            prev, prev_at = rest[i - 1]
            message = M_("clauses are separated by commas: a comma is missing before {tok!r}", tok=tok)
            err(prev_at + len(prev), message, M_(_WRITE_COMMA, prev=prev, tok=tok))
            return True
    return False


def _talon_cards(toks: Tokens, again: bool, err: Err) -> tuple[Card, ...] | None:
    """``talon cards A♠ K♠`` / ``прикуп туз пик``: at most two cards, none twice; None on a problem."""
    word, at = toks[0]
    if again:
        err(at, M_("the talon's cards are given twice"), M_("one talon clause per deal"), width=len(word))
        return None
    words = toks[1:]
    if words and words[0][0].casefold() in ("cards", "карты"):
        words = words[1:]
    if not words:
        example = M_("e.g. 'talon cards A♠ K♠' or 'прикуп туз пик'")
        err(toks[-1][1] + len(toks[-1][0]), M_("which cards were in the talon?"), example)
        return None
    out: list[Card] = []
    i = 0
    while i < len(words):
        tok, tok_at = words[i]
        width = len(tok)
        try:
            card = Card.parse(tok)
        except ValueError:
            card = None
        if card is None and i + 1 < len(words):  # a rank and a suit: 'туз пик'
            try:
                card = Card.parse(tok + words[i + 1][0])
                width = words[i + 1][1] + len(words[i + 1][0]) - tok_at
                i += 1
            except ValueError:
                card = None
        i += 1
        if card is None:
            err(tok_at, M_("unknown card {tok!r}", tok=tok), M_(CARDS_HINT), width=width)
        elif card in out:
            err(tok_at, M_("{card} is given twice: the pack has one of each card", card=card), width=width)
        elif len(out) == 2:
            third = M_("a third card {card}: the talon holds two cards", card=card)
            err(tok_at, third, M_("give at most two"), width=width)
        else:
            out.append(card)
            continue
        return None
    return tuple(out)


#: the words a line reads where a player's name may stand: a player named so may read otherwise
_WORDS = frozenset(
    chain(
        RASPASY_WORDS, TALON_WORDS, DEALER_WORDS, CORRECTION_WORDS, SEAT_WORDS, HEADER_ALIASES, CALL_SPELLINGS
    )
).union(CONTRACT_SPELLINGS, DARK_SPELLINGS, CONCEDE_SPELLINGS)


#: characters that repr quotes or escapes, or that end a name in a line
_QUOTING = frozenset("'\"\\#,:")


def names_read_alike(players: Iterable[str]) -> bool:
    """Would the lines read the same with other names written for ``players``?  So when each starts
    with a letter, is printed as written, spells no word the reader knows and no two differ only in
    case: then a line reads them only where it names them exactly (``play.Memos.stand_ins``)."""
    folded = [p.casefold() for p in players]
    return len(set(folded)) == len(folded) and all(
        p[:1].isalpha() and p.isprintable() and _QUOTING.isdisjoint(p) and f not in _WORDS
        for p, f in zip(players, folded, strict=True)
    )


def _names(word: str, players: tuple[str, ...]) -> bool:
    """Is ``word`` exactly (ignoring case) one of the players' names?"""
    low = word.rstrip(":").casefold()
    return any(p.casefold() == low for p in players)


def _contract_slow(word: str, word_at: int, width: int, err: Err) -> Contract | None:
    """The error path and rare spellings: ``Contract.parse`` says what is wrong with the word."""
    try:
        return Contract.parse(word)
    except ContractError as e:
        if e.levelled:
            err(word_at, e.message, e.hint, width=width)
            return None
    known = [*CALL_SPELLINGS, *MISERE_SPELLINGS, *TALON_WORDS]
    close, other = _close(contract_key(word), known), relaid(word)
    if other in known:
        hint = M_("{typed} is {other} on the Russian layout", typed=word, other=other)
    elif close:
        hint = M_("did you mean {close!r}?", close=close)
    else:
        hint = M_("a call is a contract (6♠, 7NT, misere), whist, pass or half")
    err(word_at, M_("unknown call {word!r}", word=word), hint, width=width)
    return None
