"""Reconciling a paper sheet with a log: every cell where they differ, and the first deal where they part.

With the paper's running totals (``running:``), the first checkpoint that differs after one that agreed
brackets the deal where they part; the deals between that wrote the differing cells are named."""

from __future__ import annotations

from dataclasses import dataclass

from pulyacalc.core.amounts import Amount, num
from pulyacalc.core.errors import Loc
from pulyacalc.core.i18n import M_, MN_, N_
from pulyacalc.core.sheet import Entry, Sheet, SheetView
from pulyacalc.logs.sheet_file import PaperSheet
from pulyacalc.reports.check import Checking, Finding
from pulyacalc.reports.pulya import cells, changes, value
from pulyacalc.scoring.fold import DealResult

Cell = tuple[str, ...]
#: the deals a differing cell's hint names (then "…")
WRITES = 8


@dataclass(frozen=True)
class Difference:
    loc: Loc
    cell: Cell
    paper: Amount
    log: Amount
    #: None for the final sheet, else the deal number of a running checkpoint
    deal: int | None = None


def cell_label(cell: Cell) -> str:
    if cell[0] == "whists":
        return M_("{player}'s whists on {on}", player=cell[1], on=cell[2])
    if cell[0] == "pool":
        return M_("{player}'s pool", player=cell[1])
    return M_("{player}'s mountain", player=cell[1])  # a sheet's cells: pool, mountain, whists


def all_cells(players: tuple[str, ...]) -> list[Cell]:
    """Every cell of the paper as a sheet file names it: (pool, A), (whists, A, B), …"""
    return [key if key[2] else key[:2] for key in cells(players)]


@dataclass(frozen=True)
class Reconciliation:
    #: the deal where paper and log part (exactly known), or None
    parting_deal: int | None
    findings: list[Finding]


class Running:
    """The log's papers at the paper's running totals, shown each result by ``Checking``; only
    the results since the last checkpoint that agreed are held, until the first that differs."""

    def __init__(self, paper: PaperSheet, sheet: Sheet) -> None:
        self.paper, self.sheet = paper, sheet
        self.points = sorted(paper.running)
        self.at = set(self.points)
        self.next = 0  # the first checkpoint not compared yet
        self.last: int | None = None  # the last result's number
        self.scored = 0  # distinct numbers of the results (as many as deals scored)
        self.view: SheetView | None = None  # the paper after the checkpoint being passed
        self.held: list[DealResult] = []  # the results since the last checkpoint that agreed
        self.previous = 0  # that checkpoint
        #: the checkpoints not yet reached, the first that differs, and the results since
        self.missing: list[int] = []
        self.first: tuple[int, list[Difference], list[int], list[DealResult]] | None = None
        #: each cell's first ``WRITES`` deals that wrote to it (deal, amount), and how many did
        self.writes: dict[Cell, list[tuple[int, Amount]]] = {}
        self.wrote: dict[Cell, int] = {}
        #: a cell the paper writes as entries: the log's totals as it changes (total, deal, place)
        self.steps: dict[Cell, list[tuple[Amount, int, Loc]]] = {c: [] for c in paper.entries}

    def __call__(self, r: DealResult) -> None:
        n = r.number
        if n != self.last:
            self.passed(n)
            self.last, self.scored = n, self.scored + 1
        if n in self.at:
            self.view = self.sheet.view()
        if self.first is None and self.next < len(self.points):
            self.held.append(r)
        self.count(r)

    def count(self, r: DealResult) -> None:
        """What ``r`` wrote to each cell; a cell written as entries: its new total."""
        for key, x in changes(r.entries):
            cell: Cell = key if key[2] else key[:2]
            self.wrote[cell] = self.wrote.get(cell, 0) + 1
            if len(w := self.writes.setdefault(cell, [])) < WRITES:
                w.append((r.number, x))
            steps = self.steps.get(cell)
            if steps is not None and len(steps) <= len(self.paper.entries[cell]):
                total = value(self.sheet, key)
                if not steps or steps[-1][0] != total:
                    steps.append((total, r.number, r.deal.loc))

    def passed(self, upto: int | None) -> None:
        """Compare every checkpoint before deal ``upto`` (None: all of them)."""
        points, running, players = self.points, self.paper.running, self.paper.sheet.players
        while self.next < len(points) and (upto is None or points[self.next] < upto):
            n = points[self.next]
            self.next += 1
            if n != self.last or self.view is None:
                self.missing.append(n)
                continue
            rows, cells, _ = running[n]
            after, self.view = self.view, None
            here = [
                Difference(cells[c], c, value(rows, c), value(after, c), n)
                for c in all_cells(players)
                if c in cells and value(rows, c) != value(after, c)
            ]
            if here and self.first is None:
                held = [r for r in self.held if self.previous < r.number <= n]
                span = list(dict.fromkeys(r.number for r in held))
                self.first = (n, here, span, held)
            elif not here:
                self.previous = n
            self.held = [r for r in self.held if r.number > n] if self.first is None else []


def reconcile(run: Checking, running: Running, sheet_name: str) -> Reconciliation:
    """The paper of ``running`` against the log's final sheet (``run``, checked to its end)
    and its papers at the paper's running totals (``running``, fed every deal before them)."""
    paper = running.paper
    players = run.log.header.players
    if set(paper.sheet.players) != set(players):
        loc = paper.header.locs.get("players", Loc(sheet_name, 1))
        on_paper, in_log = ", ".join(paper.sheet.players), ", ".join(players)
        msg = M_("the sheet's players ({join}) are not the log's ({join2})", join=on_paper, join2=in_log)
        return Reconciliation(None, [Finding(loc, "sheet-players", msg)])
    assert run.sheet is not None
    diffs = [
        Difference(paper.cells.get(c, Loc(sheet_name, 0)), c, value(paper.sheet, c), value(run.sheet, c))
        for c in all_cells(players)
        if value(paper.sheet, c) != value(run.sheet, c)
    ]
    # running totals: the first checkpoint that differs
    running.passed(None)
    findings = _missing_checkpoints(running)
    parting: int | None = None
    suspects: list[int] = []
    kept: list[DealResult] = []
    if running.first is not None:
        _, here, span, kept = running.first
        diffs.extend(here)
        touched = [r.number for r in kept if any(_touches(e, d.cell) for e in r.entries for d in here)]
        suspects = touched or span
        if len(span) == 1:
            parting = span[0]
        elif len(touched) == 1:
            parting = touched[0]
    findings += [_cell_finding(d, running) for d in diffs]
    findings += _parting_findings(parting, suspects, kept)
    parted, first = _entry_findings(running)
    findings += parted
    if parting is None and not suspects and first is not None:
        parting = first[0]
        at = M_("the paper and the log part at deal {parting}", parting=parting)
        why = M_("the paper's entries agree before it and differ after it")
        findings.append(Finding(first[1], "parting-deal", at, why))
    return Reconciliation(parting, findings)


def _missing_checkpoints(running: Running) -> list[Finding]:
    """Running totals given after a deal the log does not score."""
    after = N_("running totals after deal {n}, but the log scores {len} deals (the last is deal {scored})")
    scored, last = running.scored, running.last or 0
    return [
        Finding(running.paper.running[n][2], "sheet-running", M_(after, n=n, len=scored, scored=last))
        for n in running.missing
    ]


def _cell_finding(d: Difference, running: Running) -> Finding:
    """A cell where the paper and the log differ, with the deals that wrote to it."""
    where: str = M_("on the final sheet") if d.deal is None else M_("after deal {n}", n=d.deal)
    label = cell_label(d.cell)
    kept = running.writes.get(d.cell, [])
    wrote = [(n, x) for n, x in kept if d.deal is None or n <= d.deal]
    more = " …" if running.wrote.get(d.cell, 0) > len(kept) == len(wrote) else ""
    deals = ", ".join(f"{n} ({'+' if x > 0 else ''}{num(x)})" for n, x in wrote) + more
    gap = num(d.paper - d.log if d.paper > d.log else d.log - d.paper)
    more = N_("the paper has {gap} more") if d.paper > d.log else N_("the paper has {gap} less")
    which = M_("the deals that wrote to {label}: {deals}", label=label, deals=deals) if wrote else ""
    which = which or M_("no deal wrote to {label}", label=label)
    template = N_("{label} {where}: the paper says {num}, the log gives {num2}")
    says = M_(template, label=label, where=where, num=num(d.paper), num2=num(d.log))
    return Finding(d.loc, "sheet-cell", says, M_("{side}; {which}", side=M_(more, gap=gap), which=which))


def _entry_findings(running: Running) -> tuple[list[Finding], tuple[int, Loc] | None]:
    """Each entries cell (``2.3.5.9``) where paper and log part, and the earliest deal where one does."""
    findings: list[Finding] = []
    first: tuple[int, Loc] | None = None
    for cell, steps in running.steps.items():
        paper = running.paper.entries[cell]
        i = next((i for i, (v, _) in enumerate(paper) if i >= len(steps) or steps[i][0] != v), len(paper))
        if i == len(paper) == len(steps):
            continue
        args: dict[str, object] = {"label": cell_label(cell), "k": i + 1, "count": len(steps)}
        if i < len(steps):
            x, n, loc = steps[i]
            args |= {"log": num(x), "n": n}
            first = (n, loc) if first is None or n < first[0] else first
        if i < len(paper):
            args["paper"] = num(paper[i][0])
        if i < len(paper) and i < len(steps):
            told = N_("{label}: the paper's entry {k} is {paper}, the log's is {log}, written at deal {n}")
        elif i < len(paper):
            told = N_("{label}: the paper's entry {k} ({paper}) is not in the log, which writes {count}")
        else:
            told = N_("{label}: the log writes {log} at deal {n} after the paper's last entry")
        at = paper[min(i, len(paper) - 1)][1]
        agree = MN_("the entry before it agrees", "the {n} entries before it agree", i, n=i) if i else ""
        findings.append(Finding(at, "sheet-running", M_(told, **args), agree))
    return findings, first


def _parting_findings(parting: int | None, suspects: list[int], kept: list[DealResult]) -> list[Finding]:
    """The deal where the paper and the log part, or the deals it is one of."""
    # a correction has the number of the deal before it (RULES.md 2.9): the deal is meant
    results = {r.number: r for r in kept if r.kind != "correction"}
    if parting is not None:
        at = M_("the paper and the log part at deal {parting}", parting=parting)
        why = M_("the running totals agree before it and differ after it")
        return [Finding(results[parting].deal.loc, "parting-deal", at, why)]
    if suspects:
        where = ", ".join(f"{n} ({results[n].deal.loc})" for n in suspects)
        at = M_("the paper and the log part at one of the deals {where}", where=where)
        how = M_("add running totals for these deals to the sheet to pinpoint it")
        return [Finding(results[suspects[0]].deal.loc, "parting-deal", at, how)]
    return []


def _touches(e: Entry, cell: Cell) -> bool:
    return e.area == cell[0] and e.player == cell[1] and (e.area != "whists" or e.on == cell[2])
