"""Hostile inputs of a chosen size (issue 11, issue 26): the files the fuzz and limits suite
(tests/test_fuzz_limits.py) feeds every command, small, and the worst case the benchmark
knows, near 20 MB.  The bound is per megabyte: every command on every input within 1 s per
MB of the input (an input under a megabyte: 1 s, the start-up being most of it) and 500 MB
of memory.  (It was 10 s for any input under 20 MB, which a second process was kept for.)

A YAML document is read whole, so YAML has a size limit (yamlsource.MAX_YAML_BYTES, 2 MiB):
the YAML inputs near 20 MB are refused at once, as they should be, and each YAML input is
also run just under the limit (its name ends "at the limit"), the largest YAML any command
reads by default: the worst case that is actually read.

    python bench/hostile.py                 # every input near 20 MB, every command: the worst
    python bench/hostile.py --size 2000000  # smaller
    python bench/hostile.py --each --input YAML --command check   # every run, some of them

Each run is one fresh child (CPU time, the steadier on a shared machine, and max RSS),
killed after a minute.

Besides every command on every input (COMMANDS), the inputs a real archive is (BIG: the long
line log, and YAML just under its limit) go to every command with the options and the
environments that change how it computes (VARIANTS): each format, running totals, money,
Russian, a width to fit (COLUMNS, a pseudo-terminal) and standard input.  ``--quick``
leaves the variants out.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import genlog  # noqa: E402

from pulyacalc.yamlsource import MAX_YAML_BYTES  # noqa: E402

#: the bound on time: seconds per megabyte of input (an input under a megabyte: one second)
SECONDS_PER_MB = 1.0
#: the bound on memory, MiB
MOST_MIB = 500


def allowance(size: int) -> float:
    """The most seconds any command may take on an input of ``size`` bytes."""
    return SECONDS_PER_MB * max(1.0, size / 10**6)


HEAD = "players: Anna Boris Vera\n\n"
DEAL = "Anna 6♠ 7, Boris whist 2, Vera pass 1\n"


def _deals(size: int) -> bytes:
    text = "".join(genlog.line_log(max(1, size // 36), seed=7, pool=100_000))
    return text.encode()[:size].rsplit(b"\n", 1)[0] + b"\n"


NAMES = ("Anna", "Boris", "Vera")


def _sheet(size: int) -> bytes:
    # a paper sheet with a running total after every deal (settle, sheet, check --against)
    out = ["players: [Anna, Boris, Vera]\nconvention: sochi\npool: 100000\nsheet:\n"]
    for p, o in zip(NAMES, NAMES[1:] + NAMES[:1], strict=True):
        out.append(f"  {p}: {{pool: 2, mountain: 4, whists: {{{o}: 6}}}}\n")
    out.append("running:\n")
    row = "  - {Anna: {pool: %d, mountain: 4}, Boris: {pool: 6, whists: {Anna: %d}}}\n"
    out += [row % (i, i) for i in range(max(1, size // len(row)))]
    return "".join(out).encode()


def _aliases(size: int) -> bytes:
    # a billion laughs: each list names the one before it ten times
    out = ["players: [Anna, Boris, Vera]\n", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"]
    k = 1
    while sum(map(len, out)) < size and k < 40:
        out.append(f"a{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 10)}]\n")
        k += 1
    out.append("deals: []\n")
    return "".join(out).encode()


def _tiny(size: int) -> bytes:
    # the most nodes a byte: a list of one-letter values (each a deal that cannot be read)
    line = "x," * 4000 + "\n"
    return (
        "players: [Anna, Boris, Vera]\ndeals: [\n" + line * max(0, size // len(line) - 1) + "x]\n"
    ).encode()


#: name -> (file suffix, the file's bytes for a size): each a way an input was seen to hurt
INPUTS: dict[str, tuple[str, Callable[[int], bytes]]] = {
    "a long log": (".pulya", _deals),
    "one line, no newline": (".pulya", lambda n: HEAD.encode() + b"A" * n),
    "NUL bytes": (".pulya", lambda n: b"\0" * n),
    "a players: line without end": (".pulya", lambda n: b"players: " + b"Anna " * (n // 5) + b"\n"),
    "a comment without end": (".pulya", lambda n: HEAD.encode() + b"# " + b"x" * n + b"\n" + DEAL.encode()),
    "every line wrong": (".pulya", lambda n: HEAD.encode() + b"Anna 6x 7, Bob whist\n" * (n // 21)),
    "a number of many digits": (".pulya", lambda n: b"players: Anna Boris Vera\npool: " + b"9" * n + b"\n"),
    "a deal with a huge count": (
        ".pulya",
        lambda n: HEAD.encode() + b"Anna 6\xe2\x99\xa0 " + b"7" * n + b"\n",
    ),
    "bad UTF-8": (".pulya", lambda n: HEAD.encode() + bytes(range(128, 256)) * (n // 128)),
    "CR line ends only": (".pulya", lambda n: (HEAD + DEAL * (n // 40)).replace("\n", "\r").encode()),
    "YAML aliases": (".yaml", _aliases),
    "YAML nested deep": (
        ".yaml",
        lambda n: b"players: [Anna, Boris, Vera]\ndeals: " + b"[" * (n // 2) + b"\n",
    ),
    "YAML a long scalar": (".yaml", lambda n: b"players: [Anna, Boris, " + b"V" * n + b"]\ndeals: []\n"),
    "YAML many keys": (
        ".yaml",
        lambda n: b"players: [Anna, Boris, Vera]\n" + b"".join(b"k%d: 1\n" % i for i in range(n // 10)),
    ),
    "YAML many deals": (
        ".yaml",
        lambda n: genlog.yaml_log(max(1, n // 42), seed=3, pool=100_000).encode(),
    ),
    "YAML a sheet with running totals": (".yaml", _sheet),
    "YAML tiny values": (".yaml", _tiny),
    "control and bidi characters": (
        ".pulya",
        lambda n: (
            "players: A\x1b[31m \u202eB C\x07\n\n"
            + "A\x1b[31m 6♠ 7, \u202eB whist 2, C\x07 pass 1\n" * (n // 50)
        ).encode(),
    ),
}

#: the commands every input is given to, as arguments after the program ({log}: its path;
#: {svg}, {html}: an output file in the temporary directory; {sheet}: a small paper
#: sheet, for check --against; the input itself is the sheet of settle)
COMMANDS = [
    ["score", "{log}", "-f", "json"],
    ["explain", "{log}", "-f", "json"],
    ["explain", "{log}"],
    ["check", "{log}"],
    ["check", "{log}", "-f", "jsonl"],
    ["check", "{log}", "--against", "{sheet}"],
    ["convert", "{log}", "--to", "yaml"],
    ["convert", "{log}", "--to", "lines"],
    ["ledger", "{log}"],
    ["season", "{log}"],
    ["stats", "{log}"],
    ["sheet", "{log}", "-o", "{svg}"],
    ["sheet", "{log}", "-o", "{html}"],
    ["dispute", "{log}", "-d", "1"],
    ["compare", "{log}"],
    ["settle", "{log}"],
    ["settle", "{log}", "-o", "{svg}"],
]

#: the inputs that are what a real archive is: the variants run on these
BIG = ("a long log", "YAML many deals at the limit", "YAML a sheet with running totals at the limit")

#: each command again with the options and environments that change how it computes; a
#: word ``NAME=VALUE`` first sets an environment variable, ``<`` reads the input from
#: standard input (its path then ``-``; season and stats read files only), ``[pty]``
#: writes to a pseudo-terminal 100 wide (timed by the command's CPU: ``measured``)
VARIANTS = [
    ["score", "{log}", "-f", "csv"],
    ["score", "{log}", "--whist-price", "0.5", "--rounding", "kodeks"],
    ["score", "{log}", "--lang", "ru"],
    ["<", "score", "-"],
    ["explain", "{log}", "-f", "jsonl"],
    ["explain", "{log}", "-f", "csv"],
    ["explain", "{log}", "-f", "tsv"],
    ["explain", "{log}", "--lang", "ru"],
    ["explain", "{log}", "--lang", "ru", "-f", "json"],
    ["explain", "{log}", "--rounding", "nearest"],
    ["COLUMNS=40", "explain", "{log}"],
    ["COLUMNS=100", "explain", "{log}"],
    ["COLUMNS=100", "explain", "{log}", "-f", "json"],
    ["[pty]", "explain", "{log}"],
    ["<", "explain", "-", "-f", "json"],
    ["check", "{log}", "-f", "csv"],
    ["COLUMNS=40", "check", "{log}"],
    ["<", "check", "-"],
    ["ledger", "{log}", "--running"],
    ["ledger", "{log}", "--whist-price", "0.5"],
    ["ledger", "{log}", "--running", "--whist-price", "0.33", "-f", "json"],
    ["ledger", "{log}", "--running", "--whist-price", "0.33"],
    ["ledger", "{log}", "-f", "jsonl"],
    ["ledger", "{log}", "-f", "json"],
    ["ledger", "{log}", "-f", "csv"],
    ["ledger", "{log}", "-f", "tsv"],
    ["ledger", "{log}", "--rounding", "kodeks"],
    ["ledger", "{log}", "--lang", "ru"],
    ["COLUMNS=40", "ledger", "{log}"],
    ["COLUMNS=100", "ledger", "{log}", "--running"],
    ["[pty]", "ledger", "{log}"],
    ["<", "ledger", "-"],
    ["season", "{log}", "-f", "json", "--whist-price", "0.5"],
    ["season", "{log}", "--plot", "{svg}"],
    ["stats", "{log}", "-f", "json"],
    ["stats", "{log}", "-p", "Anna"],
    ["stats", "{log}", "--plot", "{svg}"],
    ["sheet", "{log}", "-o", "{svg}", "-n"],
    ["sheet", "{log}", "-o", "{html}", "--whist-price", "0.5", "--lang", "ru"],
    ["<", "sheet", "-", "-o", "{svg}"],
    ["dispute", "{log}", "-d", "1", "-f", "json", "--whist-price", "0.5"],
    ["COLUMNS=40", "dispute", "{log}", "-d", "1"],
    ["compare", "{log}", "-c", "sochi", "-c", "leningrad", "-c", "rostov"],
    ["compare", "{log}", "-f", "json", "--whist-price", "0.5"],
    ["COLUMNS=40", "compare", "{log}"],
    ["convert", "{log}", "--to", "yaml", "-o", "{yaml}"],
    ["convert", "{log}", "--to", "lines", "--lang", "ru"],
    ["<", "convert", "-", "--to", "yaml"],
    ["settle", "{log}", "-f", "json", "--whist-price", "0.5"],
]

#: the sheet given to ``check --against``
SMALL_SHEET = """players: [Anna, Boris, Vera]
sheet:
  Anna:  {pool: 20, mountain: 12, whists: {Boris: 56, Vera: 78}}
  Boris: {pool: 20, mountain: 38, whists: {Anna: 34, Vera: 50}}
  Vera:  {pool: 20, mountain: 39, whists: {Anna: 10, Boris: 66}}
"""

#: one run in a child: wall time and peak memory (KiB), the exit status, and whether stderr
#: holds a traceback; killed after TIMEOUT seconds.  Its first argument says how: the
#: timeout, the environment to add, the file for standard input, whether to a terminal.
CHILD = """
import json, os, resource, subprocess, sys, threading, time
how = json.loads(sys.argv[1])
env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
env.update(how["env"])
stdin = open(how["stdin"], "rb") if how["stdin"] else subprocess.DEVNULL
out, master = subprocess.DEVNULL, None

def terminal(keep=None):
    import fcntl, pty, struct, termios
    master, out = pty.openpty()
    fcntl.ioctl(out, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    def drain():
        tail = b""
        try:
            while chunk := os.read(master, 1 << 16):
                if keep is not None:  # as written (the terminal ends each line CR LF)
                    chunk = tail + chunk
                    tail = chunk[-1:] if chunk.endswith(b"\\r") else b""
                    keep.write(chunk[: len(chunk) - len(tail)].replace(b"\\r\\n", b"\\n"))
        except OSError:  # the terminal's other end closed: the child has ended
            pass
        if keep is not None:
            keep.write(tail)
    thread = threading.Thread(target=drain, daemon=True)
    thread.start()
    return out, thread

def cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime

kept = None
if how["pty"]:
    import tempfile
    kept = tempfile.TemporaryFile()
    out, drained = terminal(kept)
t = time.perf_counter()
p = subprocess.Popen(sys.argv[2:], stdin=stdin, stdout=out, stderr=subprocess.PIPE, env=env)
if kept is not None:
    os.close(out)
try:
    err = p.communicate(timeout=how["timeout"])[1]
    code, tb = p.returncode, b"Traceback" in err
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
    code, tb = "timeout", False
took, used = time.perf_counter() - t, cpu()
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
# the terminal's own part of the CPU time: the same bytes written to such a terminal by cat
# (the kernel's work on each line for the terminal, charged to whoever writes it)
theirs = 0.0
if kept is not None:
    drained.join(how["timeout"])
    kept.flush()
    again, replayed = terminal()
    subprocess.run(["cat", f"/proc/self/fd/{kept.fileno()}"], stdout=again, pass_fds=(kept.fileno(),))
    os.close(again)
    replayed.join(how["timeout"])
    theirs = cpu() - used
print(took, rss, code, tb, used, theirs)
"""
TIMEOUT = 60.0


def measured(
    cmd: list[str], env: dict[str, str] | None = None, stdin: str = "", tty: bool = False
) -> tuple[float, float, int, str, bool]:
    """The command's CPU seconds (user + system: on a shared machine its wall time says more
    about the others), its wall seconds, peak KiB, the exit status and whether a traceback
    was written.

    Of a run to a terminal the terminal's own part of the CPU time is left out: the kernel
    works on each line written to a terminal (a line's end made \\r\\n, one hand-over each)
    and charges it to the writer, about 4 s for explain's 5 million lines whoever writes
    them.  It is measured by having ``cat`` write the very bytes the command wrote to such
    a terminal; ``TERMINAL`` keeps both figures, and the report prints them."""
    import json
    import subprocess

    how = json.dumps({"timeout": TIMEOUT, "env": env or {}, "stdin": stdin, "pty": tty})
    out = subprocess.run([sys.executable, "-c", CHILD, how, *cmd], capture_output=True, text=True, check=True)
    took, rss, code, tb, cpu, theirs = out.stdout.split()
    TERMINAL[:] = [float(cpu), float(theirs)] if tty else []
    return float(cpu) - float(theirs), float(took), int(rss), code, tb == "True"


#: the last run to a terminal: its CPU seconds, and the terminal's own part of them
TERMINAL: list[float] = []


def how_run(args: list[str]) -> tuple[dict[str, str], bool, bool, list[str]]:
    """A command's words: its environment (``NAME=VALUE`` first), whether it reads standard
    input (``<``) or writes to a terminal (``[pty]``), and its arguments."""
    env: dict[str, str] = {}
    stdin = tty = False
    while args and ("=" in args[0] or args[0] in ("<", "[pty]")):
        if args[0] == "<":
            stdin = True
        elif args[0] == "[pty]":
            tty = True
        else:
            env[args[0].split("=", 1)[0]] = args[0].split("=", 1)[1]
        args = args[1:]
    return env, stdin, tty, args


@dataclass
class Tally:
    """What the runs came to: the worst time per MB, the worst memory, each broken promise."""

    #: (seconds over the run's allowance, seconds, the input's bytes, what ran)
    worst_t: tuple[float, float, int, str] = (0.0, 0.0, 0, "")
    worst_m: tuple[int, str] = (0, "")
    slow: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)

    def add(self, took: float, rss: int, size: int, what: str) -> None:
        share = took / allowance(size)
        if share > self.worst_t[0]:
            self.worst_t = (share, took, size, what)
        if rss > self.worst_m[0]:
            self.worst_m = (rss, what)
        if share > 1:
            self.slow.append(f"{took:.2f} s on {size / 10**6:.1f} MB: {what}")
        if rss > MOST_MIB * 1024:
            self.broken.append(f"{rss / 1024:.1f} MiB: {what}")

    def missed(self) -> list[str]:
        share, took, size, what = self.worst_t
        rss, heaviest = self.worst_m
        print(
            f"             worst time   {took:7.2f} s CPU on {size / 10**6:.1f} MB = {share:.2f}× its bound "
            f"(target ≤ {SECONDS_PER_MB:g} s per MB, 1 s under a MB: {'ok' if share <= 1 else 'MISSED'})"
            f"  {what}"
        )
        print(
            f"             worst memory {rss / 1024:7.1f} MiB  "
            f"(target ≤ {MOST_MIB} MiB: {'ok' if rss <= MOST_MIB * 1024 else 'MISSED'})  {heaviest}"
        )
        for line in self.slow:
            print(f"             over its bound: {line}")
        for line in self.broken:
            print(f"             broken: {line}")
        return (["hostile time"] if share > 1 else []) + self.broken


def sized_inputs(
    chosen: dict[str, tuple[str, Callable[[int], bytes]]], size: int
) -> list[tuple[str, str, bytes]]:
    """Each input of about ``size`` bytes (name, suffix, bytes); each YAML one just under its
    limit too, when ``size`` is past it."""
    runs = [(name, suffix, make(size)[: 20 * 10**6 - 1]) for name, (suffix, make) in chosen.items()]
    for name, (suffix, make) in chosen.items():
        if suffix == ".yaml" and size > MAX_YAML_BYTES:
            # the largest that is read: cut at a line's end, a few lines under the limit
            data = make(MAX_YAML_BYTES)[: MAX_YAML_BYTES - 1000].rsplit(b"\n", 1)[0] + b"\n"
            if name == "YAML tiny values" and not data.endswith(b"]\n"):
                data += b"x]\n"  # the list closed again
            runs.append((f"{name} at the limit", suffix, data))
    return runs


def label(args: list[str]) -> str:
    return " ".join(a for a in args if a != "{log}")


def report(
    cmd: list[str],
    size: int,
    tmp: Path,
    *,
    each: bool = False,
    inputs: str = "",
    commands: str = "",
    skip: str = "",
    quick: bool = False,
) -> list[str]:
    """Every input of about ``size`` bytes to every command (and the BIG ones to every
    variant, unless ``quick``): print the worst time per MB and the worst memory, and each
    run that broke a promise; the targets missed.  ``each``: print every run too;
    ``inputs`` / ``commands``: only those whose name contains it; ``skip``: not the
    commands whose name contains it."""
    chosen = {k: v for k, v in INPUTS.items() if inputs.lower() in k.lower()}

    def wanted(args: list[str]) -> bool:
        return commands in label(args) and not (skip and skip in label(args))

    cmds = [c for c in COMMANDS if wanted(c)]
    variants = [] if quick else [c for c in VARIANTS if wanted(c)]
    print(
        f"hostile      {len(chosen)} inputs of about {size / 2**20:.1f} MiB x {len(cmds)} commands"
        f" (and {len(variants)} variants on those a real archive is)"
    )
    sheet = tmp / "small-sheet.yaml"
    sheet.write_text(SMALL_SHEET, encoding="utf-8")
    tally = Tally()
    for name, suffix, data in sized_inputs(chosen, size):
        path = tmp / f"hostile{suffix}"
        path.write_bytes(data)
        names = {
            "{log}": str(path),
            "{svg}": str(tmp / "out.svg"),
            "{html}": str(tmp / "out.html"),
            "{yaml}": str(tmp / "out.yaml"),
            "{sheet}": str(sheet),
        }
        for args in cmds + (variants if name in BIG else []):
            env, stdin, tty, words = how_run(args)
            argv = [names.get(a, a) for a in words]
            cpu, wall, rss, code, tb = measured([*cmd, *argv], env, str(path) if stdin else "", tty)
            what = f"{label(args)} on {name} (wall {wall:.2f} s)"
            if tty:  # (the CPU time less the terminal's part: ``measured``)
                what += " (CPU {:.2f} s, of which the terminal's {:.2f} s)".format(*TERMINAL)
            if each:
                print(f"             {cpu:7.2f} s {rss / 1024:7.1f} MiB  exit {code:7}  {what}", flush=True)
            tally.add(cpu, rss, len(data), what)
            if tb or code not in ("0", "1", "2"):
                tally.broken.append(f"{what}: {'traceback' if tb else 'exit ' + code}")
        path.unlink()
    return tally.missed()


def main() -> int:
    from run import pulyacalc

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=19_000_000, help="bytes of each input (default 19,000,000)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument("--each", action="store_true", help="print every run, not only the worst")
    ap.add_argument("--input", default="", help="only the inputs whose name contains this")
    ap.add_argument("--command", default="", help="only the commands whose words contain this")
    ap.add_argument("--skip", default="", help="leave out the commands whose words contain this")
    ap.add_argument("--quick", action="store_true", help="leave out the variants (options, widths, stdin)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pulyacalc-bench-") as tmp:
        missed = report(
            pulyacalc(),
            a.size,
            Path(tmp),
            each=a.each,
            inputs=a.input,
            commands=a.command,
            skip=a.skip,
            quick=a.quick,
        )
    if missed:
        print(f"\nmissed: {', '.join(missed)}")
    return 1 if missed and a.check else 0


if __name__ == "__main__":
    sys.exit(main())
