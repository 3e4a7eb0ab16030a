"""Explaining an evening entry by entry: who writes how much, where, and why.

Each ``Entry`` becomes an ``Explained``: the entry, its rule and a sentence to check with a pencil; each deal
carries the paper after it and its ledger row.  Entries are the scorer's: they sum to ``score``'s sheet."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from pulyacalc.core.amounts import Amount, num
from pulyacalc.core.errors import Problems, shown
from pulyacalc.core.i18n import M_, Text
from pulyacalc.core.model import Correction, Deal, Play, Raspasy, SeatChange, Unreadable
from pulyacalc.core.rulebook import RULEBOOK, Rule
from pulyacalc.core.sheet import MOUNTAIN, POOL, Entry, Sheet, SheetView
from pulyacalc.logs.words import ENGLISH, Words, spoken
from pulyacalc.play import Evening, load_convention, play, score_file
from pulyacalc.scoring.fold import DealResult, DealWrites, Step
from pulyacalc.scoring.rules import Worked

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from pulyacalc.convention.schema import Convention
    from pulyacalc.core.model import Header, Log
    from pulyacalc.reports.season import ScoreOptions


@dataclass(frozen=True)
class Explained:
    entry: Entry
    rule: Rule
    #: "Vera whists on Boris: 3 tricks × 4 = 12"
    text: str


@dataclass(frozen=True)
class DealExplained:
    result: DealResult
    #: the deal as one line of the line format
    line: str
    #: where the deal is written in the log (FILE:LINE)
    where: str
    entries: tuple[Explained, ...]
    #: the paper after this deal
    running: SheetView
    #: what the deal moved each player's exact result by (its ledger row, RULES.md §3.8)
    ledger: dict[str, Amount]


@dataclass(frozen=True)
class Explanation:
    evening: Evening
    deals: tuple[DealExplained, ...]


def deal_text(
    deal: Deal | Correction | SeatChange, words: Words = ENGLISH, talon_by: str | None = None
) -> str:
    """A deal as one line of the line format in ``words``: ``Anna 6♠ 7, Boris whist 2, Vera
    pass 1``; ``talon_by``: the dealer who sits out and takes a raspasy's talon (4 players+)."""
    if isinstance(deal, SeatChange):
        from pulyacalc.logs.seat import seat_line

        return seat_line(deal, note=False, words=words)
    if isinstance(deal, Correction):
        from pulyacalc.logs.correction import correction_line

        # its reason as text a table may echo
        return shown(correction_line(deal, note=False, words=words), 0)
    if isinstance(deal, Raspasy):
        passed, passes = set(deal.dark), words.call("pass")
        said = (
            f"{p} {words.talon if p == talon_by else passes}{f' {words.dark}' if p in passed else ''} {t}"
            for p, t in deal.tricks.items()
        )
        return ", ".join(said) + f" ({words.raspasy})"
    assert isinstance(deal, Play)
    dark = f"{words.dark} " if deal.dark else ""
    concede = f" {words.concede}" if deal.concede else ""
    # the declarer, the defenders who called, the others: each one's words, then his tricks if written
    clauses = [(deal.declarer, f"{dark}{words.contract(deal.contract)}{concede}")]
    clauses += [(who, words.call(call)) for who, call in deal.calls.items()]
    clauses += [(who, "") for who in deal.tricks if who != deal.declarer and who not in deal.calls]
    parts = [" ".join(x for x in (who, word, str(deal.tricks.get(who, ""))) if x) for who, word in clauses]
    if deal.talon:  # written as convert writes it (logs/write.deal_line)
        parts.append(f"{words.talon_cards} " + " ".join(str(c) for c in deal.talon))
    return ", ".join(parts)


def talon_taker(deal: object, dealer: str, seats: int) -> str | None:
    """The dealer who takes a raspasy's talon tricks: at 4 players and more he sits out."""
    return dealer if seats >= 4 and isinstance(deal, Raspasy) and dealer in deal.tricks else None


class DealLine(Text):
    """A deal's line kept for later: English as a ``str`` (JSON, CSV), else the chosen language (``tr``)."""

    deal: Deal | Correction | SeatChange
    talon_by: str | None

    @classmethod
    def of(cls, deal: Deal | Correction | SeatChange, talon_by: str | None = None) -> DealLine:
        self = cls("", english=deal_text(deal, ENGLISH, talon_by))
        self.deal, self.talon_by = deal, talon_by
        return self

    def translated(self) -> str:
        return deal_text(self.deal, spoken(), self.talon_by)


def place(e: Entry) -> str:
    """Where an entry is written: 'pool', 'mountain', 'whists on Boris'."""
    if e.area == POOL:
        return M_("pool")
    if e.area == MOUNTAIN:
        return M_("mountain")
    return M_("whists on {player}", player=e.on)


def sentence(e: Entry) -> str:
    """'Vera whists on Boris +12: 3 tricks × 4 = 12' — the entry with its whole arithmetic."""
    lead = f"{e.player} {place(e)} {'+' if e.amount > 0 else ''}{num(e.amount)}"  # (the place's English)
    why = str(whole(e)).strip()
    return f"{lead}: {why}" if why else lead


def whole(e: Entry) -> str:
    """Why an entry is written: its rule's whole arithmetic (``rules.Worked``), or its reason as it is."""
    return e.why.whole if isinstance(e.why, Worked) else e.why


def explain_entries(result: DealResult) -> tuple[Explained, ...]:
    return tuple(Explained(e, RULEBOOK[e.rule], sentence(e)) for e in result.entries)


def explain(ev: Evening) -> Explanation:
    """Every deal of an evening played with ``running=True``, explained."""
    running = zip(ev.results, ev.running, strict=True)
    return Explanation(ev, tuple(explained(r, paper, ev.convention) for r, paper in running))


@dataclass
class Stream:
    """An explanation read deal by deal in flat memory: :meth:`play` shows each result; nothing is kept."""

    log: Log
    convention: Convention
    #: the log read and the options it is scored under, to score it again with problems
    path: str
    options: ScoreOptions
    #: the deal the log is read up to (``--deal N``), None for the whole log
    upto: int | None = None
    problems: Problems = field(default_factory=Problems)
    #: the paper as the deals played so far left it (everyone on it: a newcomer too)
    sheet: Sheet = field(default_factory=lambda: Sheet(()))
    #: the evening once played (its deals counted, its pool target)
    evening: Evening | None = None

    @property
    def header(self) -> Header:
        return self.log.header

    @property
    def count(self) -> int:
        """The deals read (refused ones included): the log's, or up to ``upto``'s."""
        return self.evening.deals if self.evening is not None else 0

    @property
    def target(self) -> int:
        assert self.evening is not None
        return self.evening.target

    def play(
        self,
        each: Callable[[DealResult, Sheet, DealWrites], object],
        progress: Callable[[int], None] | None = None,
    ) -> None:
        """Score the log, showing ``each`` every result, the paper after it (the same ``Sheet``, updated)
        and its writes (the fold's ``DealWrites``, one object per distinct set); then raise its problems."""
        sheet = self.sheet = Sheet(self.header.players)
        apply = sheet.apply

        def shown(step: Step) -> None:
            r = step.result()
            if r.kind == "join":  # a newcomer has his column from his join on (RULES.md 6.3)
                sheet.add(r.deal.player)  # type: ignore[union-attr]  # a SeatChange
            for e in r.entries:
                apply(e)
            each(r, sheet, step.writes)

        log = self.log
        if self.upto is not None:  # (else the log as it is: the fold reads a line log's raw lines)
            log = replace(log, deals=_upto(log.deals, self.upto, self.problems))
        self.evening = play(log, self.convention, self.problems, each=shown, progress=progress)
        # a wrong first dealer (``play.play_one_cause``): scored again as score does (short logs only)
        from pulyacalc.play import ONE_CAUSE_DEALS, ONE_CAUSE_MIN  # (looked up when called: tests patch it)

        in_play = sum(p.code == "dealer-in-play" for p in self.problems.items)
        one_cause = in_play >= ONE_CAUSE_MIN and self.count < ONE_CAUSE_DEALS
        if one_cause and self.path != "-" and self.upto is None:
            score_file(self.path, **self.options)
        self.problems.raise_if_any()


def explain_stream(path: str, *, upto: int | None = None, **options: Unpack[ScoreOptions]) -> Stream:
    """Header and convention read now (problems raised), deals when played; ``upto``: the last deal read."""
    from pulyacalc.logs.read import read_log

    problems = Problems()
    log = read_log(path, options.get("input_format"), problems, max_yaml_bytes=options.get("max_yaml_bytes"))
    conv = load_convention(log, problems, options.get("convention"), options.get("rounding"))
    if conv is None or not log.header_ok:
        deque(log.deals, maxlen=0)  # every deal's own problems too, all reported at once
        problems.raise_if_any()
    assert conv is not None
    return Stream(log, conv, path, options, upto, problems)


def explained(r: DealResult, paper: Sheet | SheetView, conv: Convention) -> DealExplained:
    """A result explained, on the paper after it (a running ``Sheet``: as it is now)."""
    from pulyacalc.reports.ledger import deal_row  # only here: prices reads deal_text from this module

    if isinstance(paper, Sheet):
        paper = paper.view()
    # its ledger row over everyone on the sheet (RULES.md 6.3)
    row = deal_row(r.entries, paper.players, conv)
    return DealExplained(r, deal_text(r.deal), str(r.deal.loc), explain_entries(r), paper, row)


def _upto(
    deals: Iterable[Deal | Correction | SeatChange | Unreadable], upto: int | None, problems: Problems
) -> Iterator[Deal | Correction | SeatChange | Unreadable]:
    """Items up to deal ``upto`` and its corrections; the line after them is read, its problems dropped."""
    n, before = 0, len(problems.items)
    for d in deals:
        if not isinstance(d, Correction):
            # a seat change is no deal, and one after deal ``upto`` is the next deal's
            seat = isinstance(d, SeatChange)
            n += not seat
            if upto is not None and n + seat > upto:
                del problems.items[before:]
                return
        yield d
        before = len(problems.items)
