"""Benchmark: cold start, throughput, explain and ledger against score, season, streams and
hostile inputs of `pulyacalc`, with the issues' targets (docs/performance.md).

    python bench/run.py                 # every section (a few minutes)
    python bench/run.py cold throughput # some sections
    python bench/run.py --check         # … and exit 1 when a target is missed
    python bench/run.py --deals 200000 --repeat 9

It writes its logs itself, deterministically (bench/genlog.py, fixed seeds), into a
temporary directory.  Random deals: genlog draws every deal (contract, tricks, whists,
raspasy), so a log repeats lines only as real archives do — about 5,000 distinct lines
per 100,000 deals — never a handful of lines over and over.

Each section is a function ``(Bench) -> missed targets`` in ``SECTIONS``; a section of
its own (say, memory peaks of explain and check) is one more entry.  Timings are medians
of runs taken back to back and interleaved, as wall time and as the CPU time of the child
(user + system: steadier on a shared machine).

Children run with bytecode writing allowed (PYTHONDONTWRITEBYTECODE, if set, is dropped
from their environment) and each cold-start command is run once unmeasured first, so the
.pyc files exist, as `pip install` leaves them: the figures are what users get, not a
start that compiles every module from source.

* cold: `pulyacalc score` of a 60-deal evening against the floor set by importing the
  required dependencies (`python -c 'import typer, yaml, tabulate, fractions'`), and a bare
  `python -c pass`; target: within 1.15× the floor.
* throughput: `pulyacalc score -f json` of the big log against reading and splitting the
  same file (each line into clauses and words); target: within 3×, and memory that does not
  grow with the log (peak at most 1.5× that of a log a tenth the size); `check -f json` of
  the big log against `score -f json` of it, target: within 1.3× (CPU time: `check` exits
  1 on this log, whose pool of 100,000 is a finding).
* commands: `explain -f json` and `ledger -f json` of a 100,000-deal line log
  (`--commands-deals`) against `score -f json` of it; targets: within 5× and 3× (wall time).
* comments: `score -f json` of that log with a comment on every deal against it without
  them; target: within 1.2× (CPU time).
* season: `pulyacalc season` of 1,000 evenings of 60 deals (one club: the same players and
  convention), as a figure; with ``--before CMD`` (a pulyacalc from before issue 13, say
  commit a05abfa installed in a virtualenv of its own) against it, interleaved, with both
  standings compared (JSON); target: at least 2× faster in CPU time.
* club: `pulyacalc season` of 1,000 evenings of 60 deals, each evening different (one club:
  the same three players) against the plain scorer (bench/plain.py: the line format, the
  rules with Fractions, no cache) on the same files, both giving the same totals (asserted);
  target: within 1.5× (CPU time).  The same season as a league (new players every evening)
  against the club, target within 1.3×; and a league of 2,000 evenings, peak memory
  at most 100 MB.
* streams (bench/streams.py): peak memory of `explain` (table, JSON, JSON Lines, CSV),
  `check` and `check --against` on a 500,000-deal log (`--streams-deals`), and of `check`
  of a log played long past its finish, against `score`'s on the same log; target: within
  2×; and the CPU time of each, target 1 s per MB of the log.
* hostile (bench/hostile.py): every command on every hostile input near 20 MB
  (`--hostile-size`): the worst CPU time per MB of input and the worst memory; target: 1 s
  per MB (1 s for an input under a MB), 500 MB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genlog  # noqa: E402

#: one run in a fresh child: wall seconds, CPU seconds (user + system) and peak memory (KiB)
CHILD = """
import resource, subprocess, sys, time
t = time.perf_counter()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
took = time.perf_counter() - t
if r.returncode:
    sys.exit(r.stderr.decode(errors="replace"))
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(took, u.ru_utime + u.ru_stime, u.ru_maxrss)
"""

#: one run of a command that may exit 1 (``check`` on a log with findings): its answer
CHILD_CHECK = CHILD.replace("if r.returncode:", "if r.returncode not in (0, 1):")

#: the most ``check -f json`` may take of ``score -f json`` on the big log (CPU time)
CHECK_TO_SCORE = 1.3

#: reading and splitting a log: the floor of any line-log reader in Python
SPLIT = """
import sys
n = 0
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        for clause in line.split(","):
            n += len(clause.split())
"""

FLOOR = "import typer, yaml, tabulate, fractions"


@dataclass
class Run:
    wall: float
    cpu: float
    rss: int  # KiB


def measured(cmd: list[str]) -> Run:
    child = CHILD_CHECK if "check" in cmd else CHILD
    out = subprocess.run([sys.executable, "-c", child, *cmd], capture_output=True, text=True, check=True)
    wall, cpu, rss = out.stdout.split()
    return Run(float(wall), float(cpu), int(rss))


def medians(cmds: dict[str, list[str]], repeat: int) -> dict[str, Run]:
    """Each command ``repeat`` times, interleaved (a, b, c, a, b, c …): medians."""
    runs: dict[str, list[Run]] = {k: [] for k in cmds}
    for _ in range(repeat):
        for k, c in cmds.items():
            runs[k].append(measured(c))
    return {
        k: Run(
            statistics.median(r.wall for r in rs),
            statistics.median(r.cpu for r in rs),
            max(r.rss for r in rs),
        )
        for k, rs in runs.items()
    }


def pulyacalc() -> list[str]:
    exe = Path(sys.executable).parent / "pulyacalc"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("pulyacalc")
    return [found] if found else [sys.executable, "-m", "pulyacalc"]


@dataclass
class Bench:
    tmp: Path
    cmd: list[str]
    deals: int
    repeat: int
    commands_deals: int = 100_000
    streams_deals: int = 500_000
    hostile_size: int = 19_000_000
    #: the command of a pulyacalc to compare season with (``--before``)
    before: list[str] = field(default_factory=list)
    logs: dict[str, Path] = field(default_factory=dict)

    def log(self, name: str, count: int, pool: int = 20, seed: int = 1) -> Path:
        """A line log of ``count`` random deals (written once)."""
        if name not in self.logs:
            path = self.tmp / f"{name}.pulya"
            with path.open("w", encoding="utf-8") as f:
                f.writelines(genlog.line_log(count, seed=seed, pool=pool))
            self.logs[name] = path
        return self.logs[name]


def line(label: str, r: Run, base: Run | None = None, note: str = "") -> None:
    ratio = f"  = {r.wall / base.wall:4.2f}× wall, {r.cpu / base.cpu:4.2f}× CPU" if base else ""
    print(f"  {label:34} {r.wall * 1000:9.1f} ms wall {r.cpu * 1000:9.1f} ms CPU{ratio}{note}")


def cold(b: Bench) -> list[str]:
    evening = b.log("evening", 60)
    cmds = {
        "bare": [sys.executable, "-c", "pass"],
        "floor": [sys.executable, "-c", FLOOR],
        "score": [*b.cmd, "score", str(evening)],
        "json": [*b.cmd, "score", str(evening), "-f", "json"],
    }
    for c in cmds.values():  # warm-up: writes the .pyc files (bytecode is on, see main)
        subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    m = medians(cmds, b.repeat)
    ratio = m["score"].wall / m["floor"].wall
    ok = ratio <= 1.15
    print(f"cold start (medians of {b.repeat}, interleaved; bytecode on, after one warm-up run each)")
    line("python -c pass", m["bare"])
    line(f"python -c '{FLOOR}'", m["floor"], m["bare"])
    line(
        "pulyacalc score (60 deals)",
        m["score"],
        m["floor"],
        f"  (target ≤ 1.15× the floor: {'ok' if ok else 'MISSED'})",
    )
    line("pulyacalc score -f json", m["json"], m["floor"])
    return [] if ok else ["cold start"]


def throughput(b: Bench) -> list[str]:
    big = b.log("big", b.deals, pool=100_000)
    tenth = b.log("tenth", max(1, b.deals // 10), pool=100_000)
    with big.open(encoding="utf-8") as f:
        distinct = len(set(f))
    repeat = max(1, min(3, b.repeat))
    m = medians(
        {
            "split": [sys.executable, "-c", SPLIT, str(big)],
            "tenth": [*b.cmd, "score", str(tenth), "-f", "json"],
            "big": [*b.cmd, "score", str(big), "-f", "json"],
            "check": [*b.cmd, "check", str(big), "-f", "json"],
        },
        repeat,
    )
    ratio = m["big"].wall / m["split"].wall
    ok_t = ratio <= 3
    ok_m = m["big"].rss <= 1.5 * m["tenth"].rss
    print(
        f"throughput: {b.deals:,} random deals ({distinct:,} distinct lines, "
        f"{big.stat().st_size / 2**20:.1f} MiB; medians of {repeat})"
    )
    line("read and split the file", m["split"])
    line(
        f"score -f json, {b.deals // 10:,} deals", m["tenth"], None, f"  peak {m['tenth'].rss / 1024:.1f} MiB"
    )
    line(
        f"score -f json, {b.deals:,} deals",
        m["big"],
        m["split"],
        f"  peak {m['big'].rss / 1024:.1f} MiB  ({b.deals / m['big'].wall:,.0f} deals/s)",
    )
    ok_c = m["check"].cpu <= CHECK_TO_SCORE * m["big"].cpu
    line(
        f"check -f json, {b.deals:,} deals",
        m["check"],
        m["big"],
        f"  (target ≤ {CHECK_TO_SCORE:g}× score's CPU time: {'ok' if ok_c else 'MISSED'})",
    )
    print(
        f"  target ≤ 3× reading and splitting: {'ok' if ok_t else 'MISSED'}; "
        f"memory flat (≤ 1.5× the tenth's peak): {'ok' if ok_m else 'MISSED'}"
    )
    return ([] if ok_t else ["throughput"]) + ([] if ok_m else ["memory"]) + ([] if ok_c else ["check"])


#: the commands held to ``score -f json`` on the same log, and the most each may take
#: (medians of wall time, as a multiple of score's)
HELD_TO_SCORE = {"explain -f json": 5.0, "ledger -f json": 3.0}


def commands(b: Bench) -> list[str]:
    """explain and ledger on a 100,000-deal line log against score on it."""
    log = b.log("commands", b.commands_deals, pool=100_000)
    cmds = {"score -f json": [*b.cmd, "score", str(log), "-f", "json"]}
    cmds |= {name: [*b.cmd, *name.split()[:1], str(log), *name.split()[1:]] for name in HELD_TO_SCORE}
    repeat = max(1, min(5, b.repeat))
    m = medians(cmds, repeat)
    base = m["score -f json"]
    print(
        f"commands: {b.commands_deals:,} random deals ({log.stat().st_size / 2**20:.1f} MiB; "
        f"medians of {repeat}, interleaved)"
    )
    line("score -f json", base)
    missed = []
    for name, most in HELD_TO_SCORE.items():
        ok = m[name].wall <= most * base.wall
        line(name, m[name], base, f"  (target ≤ {most:g}× score's: {'ok' if ok else 'MISSED'})")
        if not ok:
            missed.append(name)
    return missed


#: a log with a comment on every deal, against the same log without them (issue 30)
COMMENTS_TARGET = 1.2


def comments(b: Bench) -> list[str]:
    """``score -f json`` of a 100,000-deal log with a comment on every deal (each its own,
    as a log kept at the table has them) against the same log without comments."""
    bare = b.log("commands", b.commands_deals, pool=100_000)
    noted = b.tmp / "comments.pulya"
    if not noted.exists():
        with bare.open(encoding="utf-8") as f, noted.open("w", encoding="utf-8") as out:
            for n, raw in enumerate(f):
                text = raw.rstrip("\n")
                deal = text and not text.startswith("#") and ":" not in text
                out.write(f"{text}  # {n} Vera closes the pool\n" if deal else raw)
    logs = {"bare": bare, "noted": noted}
    cmds = {name: [*b.cmd, "score", str(log), "-f", "json"] for name, log in logs.items()}
    m = medians(cmds, max(1, min(5, b.repeat)))
    ok = m["noted"].cpu <= COMMENTS_TARGET * m["bare"].cpu
    print(f"comments: {b.commands_deals:,} random deals, a comment on every deal")
    line("score -f json, no comments", m["bare"])
    verdict = f"  (target ≤ {COMMENTS_TARGET:g}× CPU: {'ok' if ok else 'MISSED'})"
    line("score -f json, comments", m["noted"], m["bare"], verdict)
    return [] if ok else ["comments"]


def season(b: Bench) -> list[str]:
    club = b.tmp / "club"
    if not club.is_dir():
        club.mkdir()
        for i in range(1000):
            with (club / f"e{i:04}.pulya").open("w", encoding="utf-8") as f:
                f.writelines(genlog.line_log(60, seed=i + 1, pool=20))
    cmds = {"season": [*b.cmd, "season", str(club)]}
    if b.before:
        cmds["before"] = [*b.before, "season", str(club)]
    m = medians(cmds, max(1, min(3, b.repeat)))
    print("season: 1,000 evenings of 60 random deals, one club")
    if not b.before:
        line("pulyacalc season", m["season"], None, f"  ({60_000 / m['season'].wall:,.0f} deals/s)")
        return []
    line(f"before: {' '.join(b.before)} season", m["before"])
    faster = m["before"].cpu / m["season"].cpu
    ok = faster >= 2
    now, then = (subprocess.run([*c, "-f", "json"], capture_output=True, check=True) for c in cmds.values())
    same = now.stdout == then.stdout
    line(
        "pulyacalc season",
        m["season"],
        None,
        f"  {m['before'].wall / m['season'].wall:4.2f}× faster in wall time, {faster:4.2f}× in CPU time",
    )
    print(
        f"  target ≥ 2× faster than before (CPU time): {'ok' if ok else 'MISSED'}; "
        f"standings (-f json) {'the same' if same else 'DIFFERENT'}"
    )
    return ([] if ok else ["season"]) + ([] if same else ["season standings"])


#: issue 30: a club season within this of the plain scorer (bench/plain.py), a league within
#: this of the club (CPU time), and a league's peak memory at 2,000 evenings (MiB)
CLUB_TO_PLAIN, LEAGUE_TO_CLUB, LEAGUE_MIB = 1.5, 1.3, 100


def evenings(b: Bench, name: str, count: int, league: bool) -> Path:
    """``count`` evenings of 60 random deals, each different: one club (the same three
    players) or a league (three players never seen before, every evening)."""
    where = b.tmp / name
    if not where.is_dir():
        where.mkdir()
        for i in range(count):
            names = tuple(f"{n}{i}" for n in genlog.NAMES[:3]) if league else ()
            with (where / f"e{i:04}.pulya").open("w", encoding="utf-8") as f:
                f.writelines(genlog.line_log(60, seed=i + 1, pool=20, names=names))
    return where


def club(b: Bench) -> list[str]:
    """Issue 30: `season` of a club and of a league against the plain scorer, which must
    give the same totals (asserted: the comparison is honest), and a league's memory."""
    import json
    from fractions import Fraction

    club, league = evenings(b, "club", 1000, False), evenings(b, "league", 1000, True)
    plain = Path(__file__).resolve().parent / "plain.py"
    for where in (club, league):
        mine = json.loads(subprocess.run([sys.executable, str(plain), str(where)], capture_output=True,
                                         check=True).stdout)  # fmt: skip
        out = subprocess.run([*b.cmd, "season", "-f", "json", str(where)], capture_output=True, check=True)
        theirs = {s["player"]: s["total_exact"] for s in json.loads(out.stdout)["standings"]}
        same = {p: Fraction(t) for p, t in mine.items()} == {p: Fraction(t) for p, t in theirs.items()}
        assert same, f"the plain scorer and pulyacalc season disagree on {where.name}"
    cmds = {
        "plain": [sys.executable, str(plain), str(club)],
        "club": [*b.cmd, "season", str(club)],
        "league": [*b.cmd, "season", str(league)],
    }
    m = medians(cmds, max(3, min(5, b.repeat)))
    big = measured([*b.cmd, "season", str(evenings(b, "league2000", 2000, True))])
    to_plain, to_club = m["club"].cpu / m["plain"].cpu, m["league"].cpu / m["club"].cpu
    mib = big.rss / 1024
    print("club: 1,000 evenings of 60 deals (the same totals as the plain scorer, asserted)")
    line("plain scorer (bench/plain.py)", m["plain"])
    ok1, ok2, ok3 = to_plain <= CLUB_TO_PLAIN, to_club <= LEAGUE_TO_CLUB, mib <= LEAGUE_MIB
    line(
        "season, one club",
        m["club"],
        m["plain"],
        f"  (target ≤ {CLUB_TO_PLAIN:g}× CPU: {'ok' if ok1 else 'MISSED'})",
    )
    line(
        "season, a league",
        m["league"],
        m["club"],
        f"  (target ≤ {LEAGUE_TO_CLUB:g}× CPU: {'ok' if ok2 else 'MISSED'})",
    )
    print(f"  season, a league of 2,000 evenings: peak {mib:.1f} MiB (target ≤ {LEAGUE_MIB} MB: "
          f"{'ok' if ok3 else 'MISSED'})")  # fmt: skip
    return [n for n, ok in (("club", ok1), ("league", ok2), ("league memory", ok3)) if not ok]


def stream_memory(b: Bench) -> list[str]:
    if not b.streams_deals:
        return []
    import streams  # bench/streams.py: explain and check against score

    return streams.report(b.cmd, b.streams_deals, b.tmp)


def hostile_worst(b: Bench) -> list[str]:
    """The worst time and memory of any command on the hostile inputs (bench/hostile.py)."""
    if not b.hostile_size:
        return []
    import hostile  # bench/hostile.py: the worst time and memory on hostile inputs

    return hostile.report(b.cmd, b.hostile_size, b.tmp)


#: the sections, in the order they run; each returns the targets it missed
SECTIONS: dict[str, Callable[[Bench], list[str]]] = {
    "cold": cold,
    "throughput": throughput,
    "commands": commands,
    "comments": comments,
    "season": season,
    "club": club,
    "streams": stream_memory,
    "hostile": hostile_worst,
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sections", nargs="*", help=f"sections to run: {', '.join(SECTIONS)} (default: all)")
    ap.add_argument("--deals", type=int, default=1_000_000, help="deals in the big log (default 1,000,000)")
    ap.add_argument("--repeat", type=int, default=15, help="runs for each cold-start median (default 15)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument(
        "--commands-deals",
        type=int,
        default=100_000,
        help="deals in the log explain and ledger are held to score on (default 100,000)",
    )
    ap.add_argument(
        "--streams-deals",
        type=int,
        default=500_000,
        help="deals in the log of the streaming section (bench/streams.py; 0 leaves it out)",
    )
    ap.add_argument(
        "--hostile-size",
        type=int,
        default=19_000_000,
        help="bytes of each hostile input of the worst-case section (bench/hostile.py; 0 leaves it out)",
    )
    ap.add_argument(
        "--before",
        default="",
        help="a pulyacalc from before issue 13 (a command, split at spaces) to measure season against",
    )
    a = ap.parse_args()
    unknown = [s for s in a.sections if s not in SECTIONS]
    if unknown:
        ap.error(f"no section {', '.join(unknown)}: choose from {', '.join(SECTIONS)}")
    # Every child (streams and hostile too) may write bytecode, as an installed package has
    # it: with PYTHONDONTWRITEBYTECODE an editable install compiles ~100 modules at each start.
    dropped = os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None
    cmd = pulyacalc()
    print(f"pulyacalc: {' '.join(cmd)}")
    if dropped:
        print("bytecode:  PYTHONDONTWRITEBYTECODE dropped for the children (.pyc written, as installed)")
    print(f"python:    {sys.version.split()[0]}\n")
    missed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="pulyacalc-bench-") as tmp:
        b = Bench(
            Path(tmp),
            cmd,
            a.deals,
            a.repeat,
            a.commands_deals,
            a.streams_deals,
            a.hostile_size,
            a.before.split(),
        )
        for name in a.sections or SECTIONS:
            missed += SECTIONS[name](b)
            print()
    if missed:
        print(f"missed: {', '.join(missed)}")
    return 1 if missed and a.check else 0


if __name__ == "__main__":
    sys.exit(main())
