"""A season: evenings scored as ``score`` would, added up per person (a name, or as an aliases file says)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from pulyacalc.core.amounts import Amount, exact
from pulyacalc.core.errors import Loc, Problem, Problems, PulyaError, ReadError, RuleError
from pulyacalc.core.i18n import M_
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Correction, Deal, Log, Play, Raspasy, SeatChange
from pulyacalc.core.remembered import Remembered

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pulyacalc.logs.aliases import Aliases
    from pulyacalc.play import Evening, How, Memos
    from pulyacalc.scoring.fold import Line, LineSource, Step
    from pulyacalc.scoring.settlement import Settlement

#: each stand-in's name and its player's, as a deal's digest bytes write them
Names = tuple[tuple[bytes, bytes], ...]

#: file names a directory is searched for (the same suffixes the format detection knows)
LOG_SUFFIXES = (".yaml", ".yml", ".txt", ".log", ".pulya", ".lines")


@dataclass(frozen=True)
class EveningResult:
    """One evening of the season, as ``score`` settles it."""

    source: str
    players: tuple[str, ...]
    convention: str
    pool_target: int
    rounding: Rounding
    deals: int
    finished: bool
    #: each player's result in whists under the evening's rounding (sums to 0)
    result: dict[str, Amount]
    #: the result to the cent when a whist price was given (sums to 0)
    money: dict[str, Decimal] | None = None
    #: the log's metadata header keys (None when not written)
    date: str | None = None
    title: str | None = None
    place: str | None = None
    #: a digest of the players and every deal (logs.write.deal_key): same digest, same evening
    digest: str = ""


@dataclass(frozen=True)
class Standing:
    """One player's line in the season table."""

    player: str
    evenings: int
    total: Amount
    average: Amount
    best: Amount
    best_evening: str
    worst: Amount
    worst_evening: str
    money: Decimal | None = None


@dataclass(frozen=True)
class Season:
    evenings: tuple[EveningResult, ...]
    standings: tuple[Standing, ...]
    whist_price: Decimal | None = None
    #: with ``keep_going``: each evening left out, with its problems
    failed: tuple[tuple[str, tuple[Problem, ...]], ...] = ()
    #: (file, earlier file) when a file holds the same evening as an earlier one
    duplicates: tuple[tuple[str, str], ...] = ()

    @property
    def deals(self) -> int:
        return sum(e.deals for e in self.evenings)


def not_a_log(path: Path) -> str:
    """Why a file is not a log ('' if it may be): clubs keep conventions and paper sheets beside logs."""
    try:
        keys = top_keys(path)
    except (OSError, UnicodeDecodeError):
        # not UTF-8: a log in the wrong encoding, which reading reports, not a file to leave out
        return ""
    if "deals" in keys or "players" in keys or "игроки" in keys:
        if "sheet" in keys and "deals" not in keys:
            return M_("a paper sheet (settle it with pulyacalc settle)")
        return ""
    if keys & {"extends", "contracts", "whist", "raspasy", "misere", "pool", "settlement"}:
        return M_("a convention file")
    return M_("no 'players:' line")


#: bytes of non-comment, non-blank lines read for top-level keys (comment lines are read past, uncounted)
HEAD_BYTES = 65536


def top_keys(path: Path) -> set[str]:
    """The top-level ``key:`` words of a file's head, case-folded; a line of megabytes is never held."""
    from pulyacalc.yamlsource import MAX_LINE_CHARS

    keys: set[str] = set()
    seen = 0
    first = True
    with path.open("rb") as f:
        head = f.read(HEAD_BYTES)
        if len(head) < HEAD_BYTES and max(map(len, head.split(b"\n"))) <= MAX_LINE_CHARS:
            # the whole file, every line read as the loop below reads it, at once (an evening)
            return _key_lines(head.decode("utf-8-sig"))
        f.seek(0)
        while seen < HEAD_BYTES:
            raw = f.readline(MAX_LINE_CHARS + 1)
            if not raw:
                break
            if not raw.endswith(b"\n") and len(raw) > MAX_LINE_CHARS:
                while raw and not raw.endswith(b"\n"):  # too long to be a key line: skip it
                    raw = f.readline(65536)
                seen += MAX_LINE_CHARS
                continue
            line = raw.decode("utf-8-sig" if first else "utf-8")
            first = False
            if line.strip()[:1] in ("", "#"):  # a blank line or a comment
                continue
            seen += len(raw)
            if line[:1].isalpha() and ":" in line:
                keys.add(line.split(":", 1)[0].strip().casefold())
    return keys


def _key_lines(text: str) -> set[str]:
    """Each line's case-folded key (letter-led, up to its first colon); colon to colon: quicker than regex."""
    keys = set()
    at = text.find(":")
    while at >= 0:
        key = text[text.rfind("\n", 0, at) + 1 : at]
        if key[:1].isalpha():
            keys.add(key.strip().casefold())
        end = text.find("\n", at)
        at = -1 if end < 0 else text.find(":", end)
    return keys


def collect(paths: Iterable[str], skipped: list[tuple[str, str]] | None = None) -> list[str]:
    """Log files named: files as given, directories searched (sorted), deduplicated; non-logs: ``skipped``."""
    out: dict[str, str] = {}  # resolved path → the file as named first
    problems: list[Problem] = []
    for given in paths:
        if given == "-":
            problems.append(Problem(Loc(given), M_("a season reads files, not standard input")))
            continue
        # os.path: False, not ENAMETOOLONG, for a name too long
        if os.path.isdir(given):
            files: list[str] = []
            for candidate in sorted(Path(given).rglob("*")):
                if not candidate.is_file() or candidate.suffix.lower() not in LOG_SUFFIXES:
                    continue
                why = not_a_log(candidate)
                if not why:
                    files.append(str(candidate))
                elif skipped is not None:
                    skipped.append((str(candidate), why))
            if not files:
                looked = M_("no logs in this directory (looked for {join})", join=" ".join(LOG_SUFFIXES))
                problems.append(Problem(Loc(given), looked))
        elif os.path.exists(given):
            files = [given]
        else:
            problems.append(Problem(Loc(given), M_("no such file or directory")))
            continue
        for f in files:
            out.setdefault(os.path.realpath(f), f)
    if problems:
        raise ReadError(problems)
    return list(out.values())


class Club:
    """Shared by a season's evenings (club logs repeat lines): fold caches, parses, digests (``keyed``)."""

    def __init__(self) -> None:
        from pulyacalc.play import Memos

        self.memos = Memos()
        self.parses: dict[tuple[str, ...], dict[str, Any]] = {}
        self.keys = Remembered(lambda _, deal: keyed(deal()), size=KEYED_SIZE)

    def parse_cache(self, players: tuple[str, ...], new: dict[str, Any]) -> dict[str, Any]:
        """The line reader's parses for ``players`` (else ``new``); LRU past ``play.MEMOS_KEPT`` sets."""
        from pulyacalc.play import MEMOS_KEPT

        parses = self.parses
        cache = parses.pop(players, new)  # put back last: the most recently used
        parses[players] = cache
        if len(parses) > MEMOS_KEPT:
            del parses[next(iter(parses))]
        return cache

    def digest(self, parts: list[bytes | Line]) -> How:
        """``play``'s ``each`` and ``each_known``: each deal put in ``parts``, a known line as
        its ``Line`` (worked out by ``hashed``; it makes no step), any other as its ``keyed`` bytes."""
        keys, known = self.keys, self.keys.get

        def each(step: Step) -> None:
            item = step.item
            if isinstance(item, Play | Raspasy) and item.template is not None:
                key = (item.template, item.note)
                parts.append(known(key) or keys.made(key, step.deal))
            else:
                parts.append(keyed(step.deal()))

        return {"each": each, "each_known": parts.append}

    def hashed(self, parts: list[bytes | Line], reader: LineSource | None, names: Names) -> str:
        """The digest of an evening's ``parts``: a known line's bytes worked out once per parse
        (its deal made by ``reader``), each stand-in's name put back (``names``)."""
        import hashlib

        keys, known = self.keys, self.keys.get

        def made(line: Line) -> bytes:
            assert reader is not None
            return keys.made((line.template, None), partial(reader.again, 0, line.raw, line.template))

        # (a line known by the fold has no comment; kept by its parse: a Line keeps its fold cache)
        data = [p if isinstance(p, bytes) else known((p.template, None)) or made(p) for p in parts]
        for stand_in, name in names:  # a stand-in sorts as its player (``play.Memos.stand_ins``)
            data[1:] = [d.replace(stand_in, name) for d in data[1:]]
        return hashlib.sha256(b"".join(data)).hexdigest()


#: digest bytes ``Club`` keeps (a league's deals are ever new)
KEYED_SIZE = 20_000


class ScoreOptions(TypedDict, total=False):
    """How a log is read and scored: ``score``'s options."""

    convention: str | None
    rounding: Rounding | None
    input_format: str | None
    max_yaml_bytes: int | None


class Source(ScoreOptions, total=False):
    """How each log of a season is read and scored, and the persons ``aliases`` makes its players."""

    aliases: Aliases | None


def played(
    path: str,
    source: Source,
    shown: Callable[[Log, Mapping[str, str]], How],
    price: Decimal | None = None,
    memos: Memos | None = None,
) -> tuple[Evening, Settlement, dict[str, str]]:
    """One log scored and settled, each step shown to what ``shown`` makes of the log played (under stand-in
    names when ``memos`` has them, with each stand-in's player), and who each player is; raises PulyaError."""
    from pulyacalc.logs.read import read_log
    from pulyacalc.play import score_log, settle_evening

    for stand_in in (memos is not None, False):
        # score_file's two steps: a person seated twice is reported with the other problems
        problems = Problems()
        log = read_log(
            path, source.get("input_format"), problems, max_yaml_bytes=source.get("max_yaml_bytes")
        )
        seats, aliases = {}, source.get("aliases")
        if aliases is not None and log.header_ok:
            where = log.header.locs.get("players") or Loc(log.header.source, 1)
            seats = aliases.table(log.header.players, where, problems) or {}
        log, back = memos.stand_ins(log) if memos is not None and stand_in else (log, {})
        conv, rounding = source.get("convention"), source.get("rounding")
        try:
            ev = score_log(log, problems, convention=conv, rounding=rounding, memos=memos, **shown(log, back))
            settled = settle_evening(ev, price)
        except PulyaError:
            if back:  # a line naming a player otherwise than exactly: read again under their names
                continue
            raise
        # a newcomer (RULES.md 6.3) is not in the header's table: he is himself
        named = {p: back.get(p, p) for p in ev.sheet.players}
        return ev, settled, {p: seats.get(name, name) for p, name in named.items()}
    raise AssertionError("the second reading has no stand-ins")


def raise_all(problems: list[Problem]) -> None:
    """Every problem of every log at once (a RuleError when each is a rule's)."""
    raise (RuleError if all(p.kind == "rule" for p in problems) else ReadError)(problems)


def score_evening(
    path: str, club: Club, *, price: Decimal | None = None, **source: Unpack[Source]
) -> EveningResult:
    """Score and settle one log, its players named as persons (``club``: what earlier evenings made)."""
    from pulyacalc.logs.lines import LineDeals

    parts: list[bytes | Line] = []  # each deal's, in order (hashed at the end)
    read: tuple[LineSource | None, Names] = (None, ())

    def shown(log: Log, back: Mapping[str, str]) -> How:
        nonlocal read
        parts.clear()  # anew when the log is read again under its own names
        parts.append(repr(sorted(back.get(p, p) for p in log.header.players)).encode())
        if type(log.deals) is LineDeals:  # the parse of each text, shared with earlier logs
            log.deals.cache = club.parse_cache(log.header.players, log.deals.cache)
        names = tuple((repr(s)[1:-1].encode(), p.encode()) for s, p in back.items())  # as repr writes them
        read = (log.deals if type(log.deals) is LineDeals else None, names)
        return club.digest(parts)  # each deal put in parts as it is scored

    ev, s, who = played(path, source, shown, price, club.memos)
    return evening_result(ev, s, who, club.hashed(parts, *read))


def evening_result(ev: Evening, s: Settlement, who: Mapping[str, str], digest: str = "") -> EveningResult:
    """A scored and settled evening as the season holds it, its players named as persons."""
    h = ev.header
    money = {who[p]: m for p, m in s.money.items()} if s.money is not None else None
    players = tuple(who[p] for p in ev.sheet.players)
    result = {who[p]: r for p, r in s.result.items()}
    settled = (ev.convention.name, ev.target, s.rounding, ev.deals, ev.finished, result, money)
    return EveningResult(h.source, players, *settled, h.date, h.title, h.place, digest)


def score_season(
    paths: Iterable[str],
    *,
    price: Decimal | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    skipped: list[tuple[str, str]] | None = None,
    keep_going: bool = False,
    **source: Unpack[Source],
) -> Season:
    """Score every log and make the standings; ``progress(done, total, file)`` after each
    evening.  ``keep_going``: a bad evening is left out (``Season.failed``), unless all are."""
    files = collect(paths, skipped)
    club = Club()
    evenings: list[EveningResult] = []
    problems: list[Problem] = []
    failed: list[tuple[str, tuple[Problem, ...]]] = []
    for i, f in enumerate(files, 1):
        try:
            evenings.append(score_evening(f, club, price=price, **source))
        except PulyaError as e:
            problems.extend(e.problems)
            failed.append((f, tuple(e.problems)))
        if progress is not None:
            progress(i, len(files), f)
    if problems and (not keep_going or not evenings):
        raise_all(problems)
    table = standings(evenings, price is not None)
    return Season(tuple(evenings), table, price, tuple(failed), duplicates(evenings))


def keyed(deal: Deal | Correction | SeatChange) -> bytes:
    """What a deal adds to its evening's digest (``EveningResult.digest``)."""
    from pulyacalc.logs.write import deal_key  # (only a season digests: start-up of the others)

    return repr(deal_key(deal)).encode()


def duplicates(evenings: Iterable[EveningResult]) -> tuple[tuple[str, str], ...]:
    """(file, the earlier file) for each evening with the same players and deals as an earlier one."""
    first: dict[str, str] = {}
    out: list[tuple[str, str]] = []
    for ev in evenings:
        if not ev.digest or not ev.deals:
            continue
        if ev.digest in first:
            out.append((ev.source, first[ev.digest]))
        else:
            first[ev.digest] = ev.source
    return tuple(out)


def standings(evenings: Iterable[EveningResult], money: bool = False) -> tuple[Standing, ...]:
    """Per player: evenings, total, average, best and worst; the best total first, then by name."""
    from pulyacalc.scoring.settlement import MONEY

    results: dict[str, list[tuple[Amount, str]]] = {}
    cash: dict[str, Decimal] = {}
    for ev in evenings:
        for p in ev.players:
            results.setdefault(p, []).append((ev.result[p], ev.source))
            if ev.money is not None:
                cash[p] = MONEY.add(cash.get(p, Decimal(0)), ev.money[p])
    rows = []
    for p, rs in results.items():
        total = sum((Fraction(r) for r, _ in rs), Fraction(0))
        best = max(rs, key=lambda x: x[0])
        worst = min(rs, key=lambda x: x[0])
        owed = cash.get(p, Decimal(0)) if money else None
        rows.append(Standing(p, len(rs), exact(total), exact(total / len(rs)), *best, *worst, owed))
    rows.sort(key=lambda s: (-s.total, s.player))
    return tuple(rows)
