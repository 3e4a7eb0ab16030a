"""Checking a log beyond its syntax: everything wrong or suspicious, each located.

``Checking`` scores a log past refused deals, handing on each finding once nothing can come before it
(flat memory, as ``score``); ``follow`` (``check --against``) sees each deal's result.
Codes: docs/commands.md; every rule reads convention keys, none asks a convention's name."""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import pairwise
from typing import Any, Protocol

from pulyacalc.convention.load import builtin_names, load
from pulyacalc.convention.schema import LEVELS, SCHEMA, Convention
from pulyacalc.core.amounts import exact, num
from pulyacalc.core.errors import MAX_SHOWN_PER_FILE, Loc, Problems, PulyaError, shown, too_many
from pulyacalc.core.i18n import M_, tr
from pulyacalc.core.kinds import FindingCode
from pulyacalc.core.model import Correction, Deal, Header, Play, Raspasy, SeatChange
from pulyacalc.core.sheet import SheetView
from pulyacalc.scoring.fold import LINES_CACHE_SIZE, DealResult, DealWrites, Line, Step

#: a very long evening: more deals than this is not an evening any more
MAX_EVENING_DEALS = 200
#: this many or more consecutive deals played after the finish are one finding with the range, not one each
AFTER_FINISH_RANGE = 3
#: findings listed for a reviewer that do not make a log unclean
NOTICES: frozenset[FindingCode] = frozenset({"correction"})


@dataclass(frozen=True)
class Finding:
    loc: Loc
    code: FindingCode
    message: str
    hint: str = ""
    #: the deal it is about (after-finish: consecutive ones are merged, ``merged``)
    deal: int | None = None
    #: a range of deals (``merged``): the last of them, and how many
    last_deal: int | None = None
    count: int = 1

    def format(self) -> str:
        """As a person reads it, in the chosen language."""
        text = f"{self.loc}: {tr(self.message)}"
        return f"{text}; {tr(self.hint)}" if self.hint else text


class Follower(Protocol):
    """Shown each deal's result as ``Checking`` scores it (``reconcile.Running``)."""

    def __call__(self, r: DealResult) -> None: ...


#: deals ``Checking._findings`` keeps what they were found to have of; emptied when full
KNOWN_SIZE = 20_000


class Checking:
    """A log checked deal by deal; iterating yields each finding once, in file order, when none can precede it
    (a short log is held whole: ``play``'s wrong first dealer); then ``deals``, ``finished``, ``sheet``."""

    def __init__(
        self,
        path: str,
        *,
        convention: str | None = None,
        input_format: str | None = None,
        max_yaml_bytes: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        from pulyacalc.logs.header import convention_for
        from pulyacalc.logs.lines import LineDeals
        from pulyacalc.logs.read import read_log
        from pulyacalc.play import Playing

        self.problems = Problems()
        self.log = read_log(path, input_format, self.problems, max_yaml_bytes=max_yaml_bytes)
        # not play.load_convention: a failing convention is reported alone; a faulty header still plays
        self.convention = convention_for(self.log.header, convention)
        self.playing = Playing(self.log, self.convention, self.problems)
        self.scorer = self.playing.scorer
        self.progress = progress
        self.follow: Follower | None = None
        self.deals = 0
        self.finished = False
        self.sheet: SheetView | None = None
        self.window = _Window()
        #: (deal text, raspasy and dark runs before it) → column, findings, writes they read (else None)
        self.known: dict[tuple[str, int, int], tuple[int, tuple[Finding, ...], DealWrites | None]] = {}
        self.line_log = type(self.log.deals) is LineDeals
        self.run = _Run()  # deals read again that find only their being after the finish
        #: the column of each line read again finding only after-finish (``Scorer.unread``, ``_passed``)
        self.columns: dict[Line, int] = {}

    def __iter__(self) -> Iterator[Finding]:
        return merged(self._ordered())

    def _ordered(self) -> Iterator[Finding]:
        from pulyacalc.play import ONE_CAUSE_DEALS, one_cause_steps

        header, conv, scorer, problems = self.log.header, self.convention, self.scorer, self.problems
        window = self.window
        for f in _target_findings(header, conv, scorer.target):
            window.add(f, 2)
        for f in _override_findings(header, conv):
            window.add(f, 3)
        # a short log's refused deals may be one wrong dealer: its problems taken at its end
        steps, look_for_one_cause = one_cause_steps(self.playing, self.progress)
        short = True  # till the fold has read ONE_CAUSE_DEALS items
        follow, heap = self.follow, window.heap
        scorer.owing = follow is None  # nothing reads the sheet before the end
        for step in steps:
            if short and scorer.read >= ONE_CAUSE_DEALS:  # long: no wrong first dealer looked for
                short = False
                if scorer.owing:  # (one or two of a run may not fold: see ``_passed``)
                    scorer.told = AFTER_FINISH_RANGE + 1
                window.problems(problems)
            if scorer.passed:
                yield from self._passed()
            if follow is not None:
                follow(step.result())
            if short:
                for f in self._findings(step):
                    window.add(f, 1)
                continue
            if heap and not problems.items and not problems.more_in:  # what comes before it
                yield from window.before(self._file(step), step.line)
            if self._folded(step):
                continue
            found = self._findings(step)
            if len(found) == 1 and self._folded(step):  # its first read after the finish
                continue
            self.run.close(window)
            for f in found:
                window.add(f, 1)
            if problems.items or problems.more_in:
                window.problems(problems)
            if heap:
                yield from window.before(self._file(step), step.line)
        yield from self._passed()
        self.run.close(window)
        if scorer.read < ONE_CAUSE_DEALS:  # short: all at once, the first shown first in the file, as score's
            look_for_one_cause()
            problems.items.sort(key=lambda p: (p.loc.file, p.loc.line, p.loc.column))
        window.problems(problems)
        yield from window.before(None, 0)
        yield from window.untold()
        self.deals, self.finished, self.sheet = scorer.count, scorer.finished, scorer.sheet.view()

    def _file(self, step: Step) -> str:
        item = step.item
        return self.log.header.source if isinstance(item, Line) else item.loc.file

    def _folded(self, step: Step) -> bool:
        """A line read again after the finish, next in the run (or its first), finding nothing else while
        nothing waits: folded into the run (``_Run.close`` hands it on as ``merged`` would)."""
        item = step.item
        if not step.after_finish or not isinstance(item, Line) or self.window.heap or self.problems.items:
            return False
        n = step.number
        if not self.run.follows(n) or n <= self.convention.bombs_opening:
            return False
        known = self.known.get((item.raw.rstrip("\r\n"), step.after_raspasy, step.after_dark))
        if known is None or known[1] or _other_writes(known[2], step) or self.problems.more_in:
            return False
        self._unread(item if known[2] is None else None, known[0])
        self.run.add(self.log.header.source, n, step.line, known[0])
        return True

    def _unread(self, line: Line | None, column: int) -> None:
        """``line`` found only after-finish: the fold may skip it (``Scorer.unread``; not short/followed)."""
        if line is None or not self.scorer.told:
            return
        unread = self.scorer.unread
        if len(unread) >= LINES_CACHE_SIZE:  # (as many as the fold knows)
            unread.clear()
            self.columns.clear()
        unread.add(line)
        self.columns[line] = column

    def _passed(self) -> Iterator[Finding]:
        """The runs of lines the fold passed making no step (``Scorer.unread``), each deal as
        ``_ordered`` takes a step: the first may not fold (after another run), the rest do."""
        window, file, run = self.window, self.log.header.source, self.run
        for first, count, seen in self.scorer.passed:
            if not window.heap and run.count >= AFTER_FINISH_RANGE and first == run.last + 1:
                run.last, run.count = first + count - 1, run.count + count  # it has all it shows
                continue
            for i, (line, read) in enumerate(seen):
                n, column = first + i, self.columns[read]
                if window.heap:
                    yield from window.before(file, line)
                if not window.heap and run.follows(n):
                    run.add(file, n, line, column)
                    continue
                run.close(window)
                window.add(_after_finish(Loc(file, line, column), n), 1)
                yield from window.before(file, line)
            assert count == len(seen) or (run.count and run.last == first + len(seen) - 1)
            run.last, run.count = first + count - 1, run.count + count - len(seen)
        self.scorer.passed.clear()

    def _findings(self, step: Step) -> list[Finding]:
        """``_deal_findings`` of the step; a line log's deal read again in the same state (and writes, if
        its findings read them) finds what it found before, moved to its line (no result made)."""
        item, conv = step.item, self.convention
        text = item.source if self.line_log and isinstance(item, Play | Raspasy) else None
        if isinstance(item, Line):
            text = item.raw.rstrip("\r\n")
        if text is None or step.number <= conv.bombs_opening:  # (a compulsory raspasy's finding names it)
            return _deal_findings(step, step.deal(), conv)
        key = (text, step.after_raspasy, step.after_dark)
        known = self.known.get(key)
        if known is None or _other_writes(known[2], step):
            deal = step.deal()
            found = _deal_findings(step, deal, conv)
            if len(self.known) >= KNOWN_SIZE:
                self.known.clear()
            read = step.writes if _reads_writes(deal, conv) else None
            others = tuple(f for f in found if f.code != "after-finish")
            self.known[key] = (deal.loc.column, others, read)
            if not others and read is None:
                self._unread(_line_of(step, self.scorer.last_learnt), deal.loc.column)
            return found
        column, others, read = known
        if not others and read is None:
            self._unread(_line_of(step, self.scorer.last_learnt), column)
        file, line = self.log.header.source, step.line
        out = [_after_finish(Loc(file, line, column), step.number)] if step.after_finish else []
        out += [replace(f, loc=Loc(file, line, f.loc.column)) for f in others]
        return out


def _reads_writes(deal: Deal | Correction | SeatChange, conv: Convention) -> bool:
    """``_deal_findings`` of ``deal`` read its writes (its entries: the shortfall rule)."""
    return isinstance(deal, Play) and deal.contract.level in conv.shortfall_forbidden


def _other_writes(read: DealWrites | None, step: Step) -> bool:
    """Findings found with the writes ``read`` (None: they read none) do not hold for ``step``."""
    return read is not None and read is not step.writes


def _line_of(step: Step, learnt: Line | None) -> Line | None:
    """The line of ``step`` to tell ``unread`` when it found nothing but after-finish: a known line, or
    ``learnt``, just learnt from its deal (read again, it makes no step); never a deal with a note."""
    item = step.item
    if isinstance(item, Line):
        return item
    if (
        learnt is not None
        and isinstance(item, Play | Raspasy)
        and item.note is None
        and learnt.template is item.template
        and (learnt.dealer, learnt.run, 0) == (step.dealer, step.after_raspasy, step.after_dark)
    ):
        return learnt
    return None


class _Run:
    """Deals in a row finding only after-finish (``Checking._folded``): first findings, last deal, count."""

    def __init__(self) -> None:
        self.found: list[Finding] = []
        self.last = self.count = 0

    def follows(self, n: int) -> bool:
        """Deal ``n`` may join: the run is empty, or ``n`` is its next deal."""
        return not self.count or n == self.last + 1

    def add(self, file: str, n: int, line: int, column: int) -> None:
        if self.count < AFTER_FINISH_RANGE:
            self.found.append(_after_finish(Loc(file, line, column), n))
        self.last, self.count = n, self.count + 1

    def close(self, window: _Window) -> None:
        """The run into ``window``: each deal, or one range when longer than ``merged`` keeps apart."""
        if self.count:
            as_range = self.count > len(self.found)  # (``found`` keeps the first AFTER_FINISH_RANGE)
            for f in _closed(self.found, self.count, self.last) if as_range else self.found:
                window.add(f, 1)
        self.found, self.count = [], 0


class _Window:
    """Findings waiting their turn: a heap by place, then rank (problems 0, deal 1, target 2, overrides 3)."""

    def __init__(self) -> None:
        self.heap: list[tuple[str, int, int, int, int, Finding]] = []
        self.seq = 0
        #: per file: problems taken and those past ``MAX_SHOWN_PER_FILE`` (only counted); read-problem files
        self.taken: dict[str, int] = {}
        self.hidden: dict[str, int] = {}
        self.read: set[str] = set()

    def add(self, f: Finding, rank: int) -> None:
        heapq.heappush(self.heap, (f.loc.file, f.loc.line, f.loc.column, rank, self.seq, f))
        self.seq += 1

    def problems(self, problems: Problems) -> None:
        """Take and clear all problems (flat memory); past ``MAX_SHOWN_PER_FILE`` in a file, only count."""
        for p in problems.items:
            file = p.loc.file
            n = self.taken[file] = self.taken.get(file, 0) + 1
            if p.kind == "read":
                self.read.add(file)
            if n > MAX_SHOWN_PER_FILE:
                self.hidden[file] = self.hidden.get(file, 0) + 1
                continue
            self.add(Finding(p.loc, p.code, p.message, p.hint), 0)
        problems.items.clear()
        for file, more in problems.more_in.items():  # counted, not kept, by the collector
            self.taken[file] = self.taken.get(file, 0) + more
            self.hidden[file] = self.hidden.get(file, 0) + more
        problems.more_in.clear()
        problems.more = 0

    def untold(self) -> Iterator[Finding]:
        """For each file with problems not shown: how many (after all its findings)."""
        for file, more in self.hidden.items():
            n = self.taken[file]
            p = too_many(file, more, n, n - more, "read" if file in self.read else "rule")
            yield Finding(p.loc, p.code, p.message, p.hint)

    def before(self, file: str | None, line: int) -> Iterator[Finding]:
        """The findings placed before ``line`` of ``file``, in order (every one: None)."""
        heap = self.heap
        while heap and (file is None or (heap[0][0], heap[0][1]) < (file, line)):
            yield heapq.heappop(heap)[-1]


def merged(found: Iterable[Finding]) -> Iterator[Finding]:
    """``found`` with each run of ``AFTER_FINISH_RANGE``+ after-finish deals as one finding with the range."""
    held: list[Finding] = []
    count = last = 0
    for f in found:
        if held and f.code == "after-finish" and f.deal == last + 1:
            count += f.count  # a range already adds all of it
            last = f.deal if f.last_deal is None else f.last_deal
            if len(held) < AFTER_FINISH_RANGE:
                held.append(f)
            continue
        yield from _closed(held, count, last)
        held, count = [], 0
        if f.code == "after-finish" and f.deal is not None:
            held = [f]
            count, last = f.count, f.deal if f.last_deal is None else f.last_deal
        else:
            yield f
    yield from _closed(held, count, last)


def _closed(held: list[Finding], count: int, last: int) -> list[Finding]:
    """A run of after-finish deals: as they are when short, else one finding."""
    if count < AFTER_FINISH_RANGE:
        return held
    first = held[0]
    what = M_(
        "deal {first} and every deal after it to deal {last} ({count:,} deals) are played "
        "after the pulya was finished",
        first=first.deal,
        last=last,
        count=count,
    )
    why = M_("their pool points go off the mountain (RULES.md 2.8); were they meant for a new pulya?")
    return [Finding(first.loc, "after-finish", what, why, first.deal, last, count)]


def _deal_findings(r: Step, deal: Deal | Correction | SeatChange, conv: Convention) -> list[Finding]:
    """What ``deal``, scored as ``r``, breaks; entries are made only if a rule on them is in play (speed)."""
    out: list[Finding] = []
    where = deal.loc
    if isinstance(deal, Correction):
        return [_correction_finding(r.number, deal)]
    if r.after_finish:
        out.append(_after_finish(where, r.number))
    if not isinstance(deal, Play):
        return out
    if r.number <= conv.bombs_opening:
        what = M_(
            "deal {number} has a contract, but the first {bombs_opening} deals are compulsory "
            "raspasy (bombs.opening), in which everyone counts as passing «втёмную»",
            number=r.number,
            bombs_opening=conv.bombs_opening,
        )
        why = M_("K3.7.9; write it as raspasy, or set bombs.opening to the number played")
        out.append(Finding(where, "compulsory-raspasy", what, why))
    low = ""
    if r.after_dark and conv.bombs_exit_step and deal.contract.rank < 6 + r.after_dark:
        low = M_(
            "{contract} after a dark raspasy of level {after_dark}: "
            "the exit is {value} or higher (bombs.exit_step)",
            contract=deal.contract,
            after_dark=r.after_dark,
            value=6 + r.after_dark,
        )
        why = M_("K3.3.19 а, K3.7.7: a dark pass is overcalled by a seven, a double one by an eight")
    elif r.after_raspasy and deal.contract.rank < (need := conv.exit_level(r.after_raspasy)):
        low = M_(
            "{contract} after {after_raspasy} raspasy in a row: the exit is {need} or higher "
            "(raspasy.exit {list})",
            contract=deal.contract,
            after_raspasy=r.after_raspasy,
            need=need,
            list=list(conv.raspasy_exit),
        )
        why = M_("K3.7.8; check the contract, or the deals before it")
    if low:
        out.append(Finding(deal.locs.get("contract", where), "raspasy-exit", low, why))
    if not _reads_writes(deal, conv):
        return out
    for e in r.entries():
        if e.rule == "shortfall":
            what = M_(
                "{player} is short on {contract}, where the convention forbids a whister's "
                "shortfall (whist.shortfall_forbidden {sorted}): {why}",
                player=e.player,
                contract=deal.contract,
                sorted=sorted(conv.shortfall_forbidden),
                why=e.why,
            )
            why = M_("check the tricks; the scorer still writes the shortfall")
            out.append(Finding(deal.locs.get("tricks", where), "shortfall-forbidden", what, why))
    return out


def _after_finish(where: Loc, number: int) -> Finding:
    what = M_("deal {number} is played after the pulya was finished", number=number)
    why = M_("its pool points go off the mountain (RULES.md 2.8); was it meant for a new pulya?")
    return Finding(where, "after-finish", what, why, number)


def _correction_finding(number: int, c: Correction) -> Finding:
    after = f"after deal {number}" if number else "before the first deal"
    area = c.area if c.on is None else f"whists on {c.on}"
    sign = "+" if c.amount > 0 else ""
    what = M_(
        "correction {after}: {player} {area} {sign}{num}: {reason}",
        after=after,
        player=c.player,
        area=area,
        sign=sign,
        num=num(c.amount),
        reason=shown(c.reason, 0),
    )
    why = M_("written by hand, as the table agreed (RULES.md 2.9); no rule checks it")
    return Finding(c.loc, "correction", what, why)


def _target_findings(header: Header, conv: Convention, target: int) -> list[Finding]:
    n = len(header.players)
    best = max([*conv.price.values(), conv.misere_price])
    if best <= 0:
        return []
    least = math.ceil(Fraction(n * target) / Fraction(best))
    if least <= MAX_EVENING_DEALS:
        return []
    what = M_(
        "pool target {target}: no one could reach it in an evening — even a made {max} "
        "every deal would take {least} deals to finish {n} pools",
        target=target,
        max=max(conv.price, key=lambda k: conv.price[k]),
        least=least,
        n=n,
    )
    hint = M_("a pool is usually 10..50; is it {value}?", value=target // 10) if target >= 100 else ""
    return [Finding(header.locs.get("pool", Loc(header.source, 1)), "pool-target", what, hint)]


# -- overrides -----------------------------------------------------------------------------


def _builtin_values(field_name: str) -> list[Any]:
    values = []
    for name in builtin_names():
        with suppress(PulyaError):  # a broken convention file is not this log's problem
            values.append(getattr(load(name), field_name))
    return values


def _list(values: list[Fraction]) -> str:
    return ", ".join(num(exact(x)) for x in sorted(set(values)))


def _far(value: Fraction, known: list[Fraction]) -> bool:
    """Far from every known value: more than twice the largest or under half the smallest."""
    if not known or value in known:
        return False
    low, high = min(known), max(known)
    if value == 0:
        return low > 0
    return value > 2 * high or value < low / 2


def strange(key: str, value: Any, conv: Convention) -> str:
    """Why an overridden value is strange ('' if not), per its parser: numbers, level tables, multipliers."""
    # imported here, not with the module's imports: only this check asks a parser's type
    from pulyacalc.convention.schema import Int, IntList, Levels, Number

    spec = SCHEMA[key]
    parse = spec.parse
    known = _builtin_values(spec.field)
    if isinstance(parse, (Int, Number)):
        nums = [Fraction(x) for x in known]
        if _far(Fraction(value), nums):
            return f"{num(value)} is far from the built-in conventions' {_list(nums)}"
    elif isinstance(parse, Levels) and isinstance(parse.item, (Int, Number)):
        table: Mapping[int, Any] = value
        if any(isinstance(v, str) for v in table.values()):  # a word (once_closed): no number to judge
            return ""
        known = [k for k in known if not any(isinstance(v, str) for v in k.values())]
        for level in LEVELS:
            nums = [Fraction(k[level]) for k in known]
            if _far(Fraction(table[level]), nums):
                return (
                    f"on {level} it is {num(table[level])}, far from the built-in conventions' {_list(nums)}"
                )
        rising = all(all(k[a] <= k[b] for a, b in pairwise(LEVELS)) for k in known)
        if rising and any(table[a] > table[b] for a, b in pairwise(LEVELS)):
            return "a higher contract is worth less than a lower one"
        over = [lv for lv in LEVELS if table[lv] > 10 - lv]
        if isinstance(parse.item, Int) and over:  # a table of trick counts (whist.obligation)
            lv = over[0]
            return f"on {lv} the defence can take at most {10 - lv} tricks when it is made, not {table[lv]}"
        if spec.field == "shortfall_per_trick":
            worse = [lv for lv in LEVELS if table[lv] > conv.remise_per_trick[lv]]
            if worse:
                return f"on {worse[0]} a short whister would pay more than the declarer's remise"
    elif isinstance(parse, IntList) and parse.low == 0:  # multipliers, not levels
        seq = list(value)
        if any(a > b for a, b in pairwise(seq)):
            return "the multipliers go down"
        top = max((max(k) for k in known), default=0)
        if top and max(seq) > 2 * top:
            return f"a multiplier of {max(seq)}, far above the built-in conventions' {top}"
    return ""


def _override_loc(header: Header, key: str) -> Loc:
    for name, node in header.overrides:
        if name == key:
            return node.loc  # type: ignore[no-any-return]
        if key.startswith(name + ".") and getattr(node, "kind", "") == "map":
            rest = key[len(name) + 1 :]
            for k, v in node.pairs:
                if k.text.strip() == rest or rest.startswith(k.text.strip() + "."):
                    return v.loc  # type: ignore[no-any-return]
            return node.loc  # type: ignore[no-any-return]
    return Loc(header.source, 1)


def _override_findings(header: Header, conv: Convention) -> list[Finding]:
    if not header.overrides:
        return []
    try:
        base = load(conv.source, pool=header.pool, rounding=header.rounding)
    except PulyaError:  # the convention loaded once already; reported there if it breaks
        return []
    out = []
    for key, spec in SCHEMA.items():
        value, base_value = getattr(conv, spec.field), getattr(base, spec.field)
        why = strange(key, value, conv) if value != base_value else ""
        if why:
            what = M_("the log overrides {key} to {show}: {why}", key=key, show=spec.show(value), why=why)
            hint = M_("{doc}; {name} has {show}", doc=spec.doc, name=conv.name, show=spec.show(base_value))
            out.append(Finding(_override_loc(header, key), "strange-override", what, hint))
    return out
