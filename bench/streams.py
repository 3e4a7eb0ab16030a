"""Peak memory of the commands that stream a long log (issue 11 item 3, issue 26 item 9):
`explain` (as a table, JSON, JSON Lines and CSV), `check` and `check --against` against
`score` on the same log, and `check` of a log played long after its finish (every deal
after it a finding, merged into one range) against `score` of that log; target: each
within 2× of score's peak.  And their time: the CPU time of each (user + system, steadier
than wall time on a shared machine), target 1 s per MB of the log (bench/hostile.py).

    python bench/streams.py --deals 500000      # alone
    python bench/run.py streams                 # as a section of the whole benchmark

These were tests under ``tracemalloc`` once (tests/test_explain_stream.py,
tests/test_check_stream.py: a minute of the suite); measured here as the peak resident
memory of a real run, which is what a user's machine feels.  Each command runs once in a
fresh child that measures it (wall time, max RSS); `check` exits 1 here (a pool of 100,000
is a finding), which is its answer, not a failure.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genlog  # noqa: E402
from hostile import allowance  # noqa: E402

#: runs the command given as arguments; prints its wall time, its CPU time and its peak
#: memory (KiB); fails on a traceback or an exit status other than 0 or 1
CHILD = """
import resource, subprocess, sys, time
t = time.perf_counter()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
took = time.perf_counter() - t
if r.returncode not in (0, 1) or b"Traceback" in r.stderr:
    sys.exit(r.stderr.decode(errors="replace"))
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(took, u.ru_utime + u.ru_stime, u.ru_maxrss)
"""

#: the most a streaming command's peak may be, as a multiple of score's on the same log
MOST_MEMORY = 2.0


def measured(cmd: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak memory (KiB) of one run of ``cmd``, in a fresh child."""
    import subprocess

    out = subprocess.run([sys.executable, "-c", CHILD, *cmd], capture_output=True, text=True, check=True)
    took, cpu, rss = out.stdout.split()
    return float(took), float(cpu), int(rss)


#: the commands measured on the long log, as arguments after the program; {log} is the
#: log's path, {paper} a paper sheet with running totals after two of its deals; the
#: first is the base the others are held to
COMMANDS = {
    "score -f json": ["score", "{log}", "-f", "json"],
    "explain": ["explain", "{log}"],
    "explain -f json": ["explain", "{log}", "-f", "json"],
    "explain -f jsonl": ["explain", "{log}", "-f", "jsonl"],
    "explain -f csv": ["explain", "{log}", "-f", "csv"],
    "check": ["check", "{log}"],
    "check --against": ["check", "{log}", "--against", "{paper}"],
}

#: the same on a Leningrad log whose pool closes within its first deals: every later deal
#: is played after the finish, one finding each until they are merged into a range
AFTER_FINISH = {
    "score -f json": ["score", "{log}", "-f", "json"],
    "check": ["check", "{log}"],
}

ROWS = "{Anna: {pool: 1}, Boris: {pool: 0}, Vera: {pool: 0}}"


def paper(deals: int) -> str:
    """A paper sheet (wrong, so check compares until the last running total)."""
    running = f"running:\n  3: {ROWS}\n  {max(4, deals // 2)}: {ROWS}\n"
    return f"players: [Anna, Boris, Vera]\nsheet: {ROWS}\n{running}"


def _runs(
    cmd: list[str], title: str, log: Path, commands: dict[str, list[str]], names: dict[str, str]
) -> Iterator[str]:
    """Each of ``commands`` on ``log``: printed, and the targets it missed."""
    size = log.stat().st_size
    most = allowance(size)
    print(f"streams      {title} ({size / 2**20:.1f} MiB), one run each")
    base = 0
    for i, (name, args) in enumerate(commands.items()):
        took, cpu, rss = measured([*cmd, *(names.get(a, a) for a in args)])
        base = base or rss
        verdict = f"  = {rss / base:.2f}× score's (target ≤ {MOST_MEMORY:g}×)" if i else ""
        print(f"             {name:16} {took:7.2f} s  cpu {cpu:6.2f} s  peak {rss / 1024:7.1f} MiB{verdict}")
        if rss > MOST_MEMORY * base:
            yield f"{name} memory ({title})"
        if cpu > most:
            yield f"{name} time ({title})"


def report(cmd: list[str], deals: int, tmp: Path) -> list[str]:
    """Print each command's time and peak on a ``deals``-deal log; the targets missed."""
    log = tmp / "streams.pulya"
    with log.open("w", encoding="utf-8") as f:
        f.writelines(genlog.line_log(deals, seed=1, pool=100_000))
    sheet = tmp / "streams-paper.yaml"
    sheet.write_text(paper(deals), encoding="utf-8")
    missed = list(_runs(cmd, f"{deals:,} deals", log, COMMANDS, {"{log}": str(log), "{paper}": str(sheet)}))
    with log.open("w", encoding="utf-8") as f:
        f.writelines(genlog.line_log(deals, seed=5, pool=10, convention="leningrad"))
    title = f"{deals:,} deals, all but the first few after the finish"
    missed += _runs(cmd, title, log, AFTER_FINISH, {"{log}": str(log)})
    print(f"             time target: CPU ≤ {allowance(10**6):g} s per MB of the log")
    log.unlink()
    return missed


def main() -> int:
    from run import pulyacalc

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=500_000, help="deals in the log (default 500,000)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pulyacalc-bench-") as tmp:
        missed = report(pulyacalc(), a.deals, Path(tmp))
    if missed:
        print(f"\nmissed: {', '.join(missed)}")
    return 1 if missed and a.check else 0


if __name__ == "__main__":
    sys.exit(main())
