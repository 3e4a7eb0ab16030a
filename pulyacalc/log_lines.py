"""The line format (INTERFACE.md "A log in the line format", docs/format.md): header lines
``key: value`` and then one deal per line as comma-separated clauses
``PLAYER CALL [TRICKS]``.  Line logs are read as a stream, one deal at a time.

Errors point at the column of the bad token and echo the line with a caret.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from .errors import Loc, Problems
from .logread import HEADER_KEYS, HeaderBuilder, match_player
from .model import (
    CALL_SPELLINGS,
    MISERE_SPELLINGS,
    Call,
    Contract,
    Deal,
    Header,
    Log,
    Play,
    Raspasy,
)
from .yamlsource import MAX_LINE_CHARS, Node

_HEADER_RE = re.compile(r"^\s*([A-Za-z_][\w.\-]*)\s*:(.*)$")
_NUMBER_RE = re.compile(r"^(\s*)(\d+)\s*[.)]\s+")
_TOKEN_RE = re.compile(r"\S+")
RASPASY_WORDS = frozenset({"raspasy", "распасы", "распас", "распасовка", "rasp"})
TALON_WORDS = frozenset({"talon", "прикуп"})


def _strip_comment(line: str) -> str:
    i = line.find("#")
    return line if i < 0 else line[:i]


def is_header_line(text: str) -> re.Match[str] | None:
    m = _HEADER_RE.match(text)
    if m and not m.group(2).strip().startswith("//"):
        return m
    return None


def parse_stream(lines: Iterable[str], file: str, problems: Problems) -> Log:
    """Read the header eagerly, then return a Log whose deals are read lazily."""
    it = iter(lines)
    values: dict[str, tuple[Node, Loc]] = {}
    overrides: list[tuple[str, Node]] = []
    number = 0
    pending: tuple[int, str] | None = None
    for raw in it:
        number += 1
        if number == 1:
            raw = raw.lstrip("\ufeff")
        text = _strip_comment(raw.rstrip("\r\n"))
        if not text.strip():
            continue
        m = is_header_line(text)
        if m is None:
            pending = (number, raw)
            break
        key = m.group(1)
        value = m.group(2).strip()
        col = m.start(2) + (len(m.group(2)) - len(m.group(2).lstrip())) + 1
        node = Node("scalar", Loc(file, number, col), text=value, null=not value)
        if key in HEADER_KEYS:
            if key in values:
                problems.add(Loc(file, number, m.start(1) + 1), f"header {key!r} is given twice")
            values[key] = (node, Loc(file, number, m.start(1) + 1))
        else:
            overrides.append((key, node))
    header = HeaderBuilder(file, problems).build(values, overrides, Loc(file, 1, 1))
    if header is None:
        problems.raise_if_any()
        raise AssertionError("header problems were reported")
    return Log(header, _deals(it, pending, number, header, problems))


def _deals(
    it: Iterator[str], pending: tuple[int, str] | None, number: int, header: Header, problems: Problems
) -> Iterator[Deal]:
    file = header.source
    count = 0

    def one(lineno: int, raw: str) -> Deal | None:
        nonlocal count
        line = raw.rstrip("\r\n")
        if len(line) > MAX_LINE_CHARS:
            problems.add(
                Loc(file, lineno, 1), f"line is {len(line):,} characters long, over {MAX_LINE_CHARS:,}"
            )
            count += 1
            return None
        text = _strip_comment(line)
        if not text.strip():
            return None
        if is_header_line(text):
            problems.add(
                Loc(file, lineno, 1),
                "header lines go before the first deal",
                "move it to the top of the log",
                source=line,
                width=len(text.split(":")[0].strip()) or 1,
            )
            return None
        count += 1
        return parse_deal_line(
            text, Loc(file, lineno, 1), header.players, problems, source=line, expected_number=count
        )

    if pending is not None:
        d = one(*pending)
        if d is not None:
            yield d
    for raw in it:
        number += 1
        d = one(number, raw)
        if d is not None:
            yield d


class _Clause:
    __slots__ = ("tokens", "start", "text")

    def __init__(self, text: str, start: int) -> None:
        self.text = text
        self.start = start  # 0-based offset in the line
        self.tokens = [(m.group(0), start + m.start()) for m in _TOKEN_RE.finditer(text)]


def parse_deal_line(
    text: str,
    loc: Loc,
    players: tuple[str, ...],
    problems: Problems,
    *,
    source: str = "",
    expected_number: int | None = None,
) -> Deal | None:
    """One deal line → a Play or Raspasy; problems are located at ``loc`` + column."""
    before = len(problems)
    base = loc.column or 1

    def err(offset: int, message: str, hint: str = "", width: int = 1) -> None:
        problems.add(loc.at_column(base + offset), message, hint, source=source, width=width)

    body_start = 0
    m = _NUMBER_RE.match(text)
    if m:
        written = int(m.group(2))
        if expected_number is not None and written != expected_number:
            err(
                m.start(2),
                f"deal number {written}, but this is deal {expected_number}",
                "fix the number or the missing/extra deal above",
                width=len(m.group(2)),
            )
        body_start = m.end()
    body = text[body_start:]
    lead = _TOKEN_RE.match(body.lstrip())
    raspasy_word = False
    if lead and lead.group(0).lower().rstrip(":") in RASPASY_WORDS:
        raspasy_word = True
        skip = body.index(lead.group(0)) + len(lead.group(0))
        body_start += skip
        body = text[body_start:]
    clauses: list[_Clause] = []
    offset = body_start
    for part in body.split(","):
        clauses.append(_Clause(part, offset))
        offset += len(part) + 1
    if all(not c.tokens for c in clauses):
        err(body_start, "an empty deal", "write clauses like 'Anna 6♠ 7, Boris whist 2, Vera pass 1'")
        return None

    declarer: str | None = None
    contract: Contract | None = None
    calls: dict[str, Call] = {}
    tricks: dict[str, int] = {}
    locs: dict[str, Loc] = {"tricks": loc.at_column(base + body_start)}
    passes_without_tricks: list[tuple[str, int]] = []
    raspasy_like = True
    for clause in clauses:
        toks = clause.tokens
        if not toks:
            err(clause.start, "an empty clause between commas", "remove the extra comma")
            continue
        name_tok, name_at = toks[0]
        who, hint = match_player(name_tok, players)
        if who is None:
            err(name_at - 0, f"unknown player {name_tok!r}", hint, width=len(name_tok))
            continue
        rest = toks[1:]
        count: int | None = None
        if rest and rest[-1][0].isdigit() and (len(rest) >= 2 or raspasy_word or _is_count_only(rest)):
            count_tok, count_at = rest[-1]
            if not count_tok.isdigit() or not 0 <= int(count_tok) <= 10:
                err(
                    count_at,
                    f"{count_tok!r} is not a number of tricks",
                    "a count is 0..10",
                    width=len(count_tok),
                )
                continue
            count = int(count_tok)
            rest = rest[:-1]
        if not rest:
            if raspasy_word and count is not None:
                _put(tricks, locs, who, count, loc.at_column(base + name_at), err, name_at)
                continue
            err(
                name_at + len(name_tok),
                f"what did {who} say?",
                "add a call: a contract like 6♠, whist, pass, half or misere",
            )
            continue
        word = " ".join(t for t, _ in rest)
        word_at = rest[0][1]
        low = word.lower()
        call = CALL_SPELLINGS.get(low)
        if call is not None or low in RASPASY_WORDS or low in TALON_WORDS:
            if call is Call.WHIST or call is Call.HALF:
                raspasy_like = False
            if call is not None:
                if who in calls:
                    err(name_at, f"{who} is named twice", width=len(name_tok))
                calls[who] = call
                locs[f"call:{who}"] = loc.at_column(base + name_at)
            if count is not None:
                _put(tricks, locs, who, count, loc.at_column(base + name_at), err, name_at)
            elif call is Call.PASS:
                passes_without_tricks.append((who, name_at))
            continue
        try:
            parsed = Contract.parse(word.replace(" ", ""))
        except ValueError as e:
            err(word_at, str(e), _call_hint(low), width=len(word))
            continue
        raspasy_like = False
        if contract is not None:
            err(
                word_at,
                f"a second contract in one deal ({declarer} already declared {contract})",
                width=len(word),
            )
            continue
        declarer, contract = who, parsed
        locs["declarer"] = loc.at_column(base + name_at)
        locs["contract"] = loc.at_column(base + word_at)
        if count is not None:
            _put(tricks, locs, who, count, loc.at_column(base + name_at), err, name_at)
    if len(problems) != before:
        return None
    if contract is None:
        if not raspasy_like:
            err(
                body_start,
                "whist without a contract: who declared what?",
                "e.g. 'Anna 6♠ 7, Boris whist 2, Vera pass 1'",
            )
            return None
        if passes_without_tricks:
            who, at = passes_without_tricks[0]
            err(at, f"everyone passed, so this is raspasy: give {who}'s tricks", f"e.g. '{who} pass 3'")
            return None
        calls_on_raspasy = [n for n in calls if calls[n] is not Call.PASS]
        if calls_on_raspasy:
            err(body_start, "raspasy is all passes")
            return None
        return Raspasy(tricks, None, None, loc.at_column(base + body_start), locs)
    assert declarer is not None
    if raspasy_word:
        err(0, "a deal with a contract is not raspasy")
        return None
    locs["calls"] = loc.at_column(base + body_start)
    return Play(declarer, contract, calls, tricks, None, None, loc.at_column(base + body_start), locs)


def _is_count_only(rest: list[tuple[str, int]]) -> bool:
    return len(rest) == 1 and rest[0][0].isdigit()


def _put(
    tricks: dict[str, int],
    locs: dict[str, Loc],
    who: str,
    count: int,
    at: Loc,
    err: Callable[..., None],
    name_at: int,
) -> None:
    if who in tricks:
        err(name_at, f"{who}'s tricks are given twice")
        return
    tricks[who] = count
    locs[f"tricks:{who}"] = at


def _call_hint(word: str) -> str:
    import difflib

    options = [*CALL_SPELLINGS, *MISERE_SPELLINGS, "6♠", "7NT"]
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    if word[:1].isdigit():
        return ""
    return "a call is a contract (6♠, 7NT, misere), whist, pass or half"
