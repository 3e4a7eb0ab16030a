"""A plain, straightforward scorer: the yardstick of issue 30, not a second pulyacalc.

It reads the line log format as `bench/genlog.py` writes it, applies the Sochi rules of
docs/RULES.md (3 players: 2.1–2.5, 2.7, 2.8 and the settlement of §3) with exact
Fractions, and caches nothing.  It is complete only for the bench's deals: one
convention, three players, no corrections, no seat changes, no checks.

    python bench/plain.py LOG|DIR ...     # each player's total over the logs, as JSON

The bench (`bench/run.py club`) times it against `pulyacalc season` on the same files and
asserts that both give the same totals, so the comparison is honest.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

PRICE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}  # price = whist = remise = consolation = short
OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
MISERE = 10
PROGRESSION = (1, 2, 3)
HELP_WHISTS = 10
POINT_IN_WHISTS = 10


class Sheet:
    """One evening's paper: pools, mountains, whists written on each other player."""

    def __init__(self, players: list[str], target: int) -> None:
        self.players = players
        self.target = target
        self.pool = dict.fromkeys(players, Fraction(0))
        self.mountain = dict.fromkeys(players, Fraction(0))
        self.whists = {p: dict.fromkeys(players, Fraction(0)) for p in players}

    def pool_points(self, who: str, points: Fraction) -> None:
        """2.8: into his pool up to the target, the rest helps, what is left off his mountain."""
        room = self.target - self.pool[who]
        mine = min(points, max(room, Fraction(0)))
        self.pool[who] += mine
        points -= mine
        at = self.players.index(who)
        order = [self.players[(at + k) % len(self.players)] for k in range(1, len(self.players))]
        while points > 0:
            open_ = [p for p in order if self.pool[p] < self.target]
            if not open_:
                self.mountain[who] -= points
                return
            helped = max(open_, key=lambda p: (self.pool[p], -order.index(p)))
            given = min(points, self.target - self.pool[helped])
            self.pool[helped] += given
            self.whists[who][helped] += HELP_WHISTS * given
            points -= given

    def result(self) -> dict[str, Fraction]:
        """§3, exact: mountain equivalents, their average, whists written minus written on."""
        g = {p: self.mountain[p] + (self.target - self.pool[p]) for p in self.players}
        avg = sum(g.values(), Fraction(0)) / len(self.players)
        return {
            p: POINT_IN_WHISTS * (avg - g[p])
            + sum(self.whists[p].values(), Fraction(0))
            - sum(self.whists[q][p] for q in self.players)
            for p in self.players
        }


def clauses(line: str) -> list[list[str]]:
    return [c.split() for c in line.split(",")]


def raspasy(sheet: Sheet, calls: list[list[str]], first_hand: int, step: int) -> None:
    """2.5 with 2.7's progression: the amnesty, the mountain, the zero-trick bonus."""
    v = Fraction(PROGRESSION[min(step, len(PROGRESSION) - 1)])
    tricks = {c[0]: int(c[2]) for c in calls}
    least = min(tricks.values())
    for p, t in tricks.items():
        sheet.mountain[p] += v * (t - least)
    n = len(sheet.players)
    for k in range(n):
        p = sheet.players[(first_hand + k) % n]
        if tricks[p] == 0:
            sheet.pool_points(p, v)


def contract(sheet: Sheet, calls: list[list[str]]) -> None:
    """2.1–2.3 (greedy whist, `side`, `split` on 6–7 and `second` on 8–10)."""
    decl, bid = calls[0][0], calls[0][1]
    level = int(bid[:-2] if bid.endswith("NT") else bid[:-1])
    price = Fraction(PRICE[level])
    n = len(sheet.players)
    at = sheet.players.index(decl)
    first, second = sheet.players[(at + 1) % n], sheet.players[(at + 2) % n]
    says = {c[0]: c[1] for c in calls[1:]}
    counts = {c[0]: int(c[2]) for c in calls[1:] if len(c) > 2}
    whisters = [p for p in (first, second) if says[p] == "whist"]
    if not whisters:
        sheet.pool_points(decl, price)
        if says[second] == "half":
            sheet.whists[second][decl] += price * OBLIGATION[level] / 2
        return
    taken = int(calls[0][2])
    side, short = 10 - taken, max(0, level - taken)
    oblig = OBLIGATION[level]
    if len(whisters) == 2:
        for w in whisters:
            sheet.whists[w][decl] += price * (counts[w] + short)
        if not short and side < oblig:
            if level <= 7:
                for w in whisters:
                    if counts[w] < Fraction(oblig, 2):
                        sheet.mountain[w] += price * (Fraction(oblig, 2) - counts[w])
            else:
                sheet.mountain[second] += price * (oblig - side)
    else:
        (w,) = whisters
        passer = first if w == second else second
        sheet.whists[w][decl] += price * (side + short)
        sheet.whists[passer][decl] += price * short
        if not short and side < oblig:
            sheet.mountain[w] += price * (oblig - side)
    if short:
        sheet.mountain[decl] += price * short
    else:
        sheet.pool_points(decl, price)


def score(text: str) -> dict[str, Fraction]:
    """One evening's results, in whists."""
    players: list[str] = []
    target = 20
    sheet: Sheet | None = None
    deal = run = 0
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if sheet is None and ":" in line:
            key, value = line.split(":", 1)
            if key == "players":
                players = value.split()
            elif key == "pool":
                target = int(value)
            continue
        if sheet is None:
            sheet = Sheet(players, target)
        calls = clauses(line)
        first_hand = deal % len(players)  # the last listed player deals first
        deal += 1
        if calls[0][1] == "pass":
            raspasy(sheet, calls, first_hand, run)
            run += 1
            continue
        run = 0
        if calls[0][1] == "misere":
            tricks = int(calls[0][2])
            if tricks:
                sheet.mountain[calls[0][0]] += MISERE * tricks
            else:
                sheet.pool_points(calls[0][0], Fraction(MISERE))
            continue
        contract(sheet, calls)
    return (sheet or Sheet(players, target)).result()


def files(args: list[str]) -> list[Path]:
    out: list[Path] = []
    for a in map(Path, args):
        out += sorted(a.glob("*.pulya")) if a.is_dir() else [a]
    return out


def totals(args: list[str]) -> dict[str, Fraction]:
    total: dict[str, Fraction] = {}
    for path in files(args):
        for p, r in score(path.read_text(encoding="utf-8")).items():
            total[p] = total.get(p, Fraction(0)) + r
    return total


if __name__ == "__main__":
    json.dump({p: str(t) for p, t in totals(sys.argv[1:]).items()}, sys.stdout, indent=1)
    sys.stdout.write("\n")
