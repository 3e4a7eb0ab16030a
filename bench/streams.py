"""Peak memory of the commands that stream a long log (issue 11 item 3): `explain` (as a
table, JSON and CSV) and `check` against `score` on the same log; target: each within 2×
of score's peak.  And their time (issue 11: no input under 20 MB runs more than 10 s; the
log here is under that): the CPU time of each (user + system, steadier than wall time on a
shared machine), target 10 s.

    python bench/streams.py --deals 500000      # alone
    python bench/run.py                         # as a section of the whole benchmark

Each command runs once in a fresh child that measures it (wall time, max RSS); `check`
exits 1 here (a pool of 100,000 is a finding), which is its answer, not a failure.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genlog  # noqa: E402

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

#: the most seconds (CPU) any command may take on an input under 20 MB (issue 11)
MOST_SECONDS = 10.0


def measured(cmd: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak memory (KiB) of one run of ``cmd``, in a fresh child."""
    import subprocess

    out = subprocess.run([sys.executable, "-c", CHILD, *cmd], capture_output=True, text=True, check=True)
    took, cpu, rss = out.stdout.split()
    return float(took), float(cpu), int(rss)


#: the commands measured, as arguments after the program; {log} is the log's path
COMMANDS = {
    "score -f json": ["score", "{log}", "-f", "json"],
    "explain": ["explain", "{log}"],
    "explain -f json": ["explain", "{log}", "-f", "json"],
    "explain -f csv": ["explain", "{log}", "-f", "csv"],
    "check": ["check", "{log}"],
}


def report(cmd: list[str], deals: int, tmp: Path) -> list[str]:
    """Print each command's time and peak on a ``deals``-deal log; the targets missed."""
    log = tmp / "streams.pulya"
    with log.open("w", encoding="utf-8") as f:
        f.writelines(genlog.line_log(deals, seed=1, pool=100_000))
    peaks: dict[str, int] = {}
    cpus: dict[str, float] = {}
    slow: list[str] = []
    print(f"streams      {deals:,} deals ({log.stat().st_size / 2**20:.1f} MiB), one run each")
    for name, args in COMMANDS.items():
        took, cpu, rss = measured([*cmd, *(a.replace("{log}", str(log)) for a in args)])
        peaks[name] = rss
        base = peaks["score -f json"]
        verdict = "" if name.startswith("score") else f"  = {rss / base:.2f}× score's (target ≤ 2×)"
        print(f"             {name:16} {took:7.2f} s  cpu {cpu:6.2f} s  peak {rss / 1024:7.1f} MiB{verdict}")
        if cpu > MOST_SECONDS:
            slow.append(f"{name} time")
        cpus[name] = cpu
    worst = max(cpus, key=lambda name: cpus[name])
    print(f"             the slowest: {worst}, {cpus[worst]:.2f} s of CPU (target ≤ {MOST_SECONDS:.0f} s)")
    log.unlink()
    base = peaks["score -f json"]
    return [f"{name} memory" for name, rss in peaks.items() if rss > 2 * base] + slow


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
