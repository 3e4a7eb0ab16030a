"""Every command as a real process with its standard streams in each state a shell or a
pipeline can leave them in (issue 11 item 5), for tests/test_fuzz_limits.py: standard
output full, closed, or a pipe nobody reads any more; standard error closed, or a pipe
nobody reads, while there is a problem to report.  Each ends with the command's own
status and one plain message, never a traceback (the processes run side by side, each
with a timeout)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hostile_cases import COMMANDS, READERS, ROOT

PROGRAM = [sys.executable, "-m", "pulyacalc"]
ENV = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
GOOD = {"settle": "examples/sheet.yaml"}
#: the commands that read no file, given a bad option instead: usage, exit 2
BAD_OTHERS = {
    "new": ["new", "-p", "Anna"],
    "prices": ["prices", "-n", "9"],
    "conventions": ["conventions", "show", "nothere"],
}
WRITE_FAILED = b"pulyacalc: cannot write to standard output: "


def good(command: str, tmp: Path) -> list[str]:
    """``command`` on its own copy of an example, writing to standard output (``play`` locks
    its log, and the states run side by side: on one file, one would find it open)."""
    if command not in READERS:
        return COMMANDS[command]
    example = ROOT / GOOD.get(command, "examples/sochi-3p.txt")
    log = tmp / command / example.name
    log.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(example, log)
    args = [a.replace("{log}", str(log)) for a in COMMANDS[command]]
    return [*args[: args.index("-o")], "-o", "-"] if "-o" in args else args


def bad(command: str, tmp: Path) -> tuple[list[str], int]:
    """``command`` with something to report, and the status it must end with."""
    if command in BAD_OTHERS:
        return BAD_OTHERS[command], 2
    log = tmp / "bad.txt"
    log.write_text("Anna 6x 7\n", "utf-8")  # no players: a problem for check too (not a finding)
    return [a.replace("{log}", str(log)).replace("{out}", str(tmp / "out")) for a in COMMANDS[command]], 1


def _shell(args: list[str], redirect: str) -> subprocess.CompletedProcess[bytes]:
    line = f"{shlex.join([*PROGRAM, *args])} {redirect}"
    return subprocess.run(["sh", "-c", line], capture_output=True, timeout=60, env=ENV, cwd=ROOT)


def _gone(args: list[str], which: str) -> subprocess.CompletedProcess[bytes]:
    """A pipe on standard output (or error) whose reader has gone before a byte is written."""
    read, write = os.pipe()
    os.close(read)
    try:
        pipes = (
            {"stdout": write, "stderr": subprocess.PIPE}
            if which == "stdout"
            else {"stdout": subprocess.PIPE, "stderr": write}
        )
        return subprocess.run([*PROGRAM, *args], timeout=60, env=ENV, cwd=ROOT, **pipes)  # type: ignore[call-overload, no-any-return]
    finally:
        os.close(write)


def stdout_full(command: str, tmp: Path) -> str | None:
    r = _shell(good(command, tmp), "> /dev/full")
    ok = r.returncode == 1 and r.stderr == WRITE_FAILED + b"No space left on device\n"
    return None if ok else f"exit {r.returncode}, stderr {r.stderr[-600:]!r}"


def stdout_closed(command: str, tmp: Path) -> str | None:
    r = _shell(good(command, tmp), ">&-")
    ok = r.returncode == 1 and r.stderr == WRITE_FAILED + b"Bad file descriptor\n"
    return None if ok else f"exit {r.returncode}, stderr {r.stderr[-600:]!r}"


def stdout_reader_gone(command: str, tmp: Path) -> str | None:
    r = _gone(good(command, tmp), "stdout")  # as `| head -0`: quietly, with the command's status
    return (
        None if (r.returncode, r.stderr) == (0, b"") else f"exit {r.returncode}, stderr {r.stderr[-600:]!r}"
    )


def stderr_closed(command: str, tmp: Path) -> str | None:
    args, want = bad(command, tmp)
    r = _shell(args, "2>&-")  # the problems are lost, never written into the data
    return (
        None if (r.returncode, r.stdout) == (want, b"") else f"exit {r.returncode}, stdout {r.stdout[:600]!r}"
    )


def stderr_reader_gone(command: str, tmp: Path) -> str | None:
    args, want = bad(command, tmp)
    r = _gone(args, "stderr")
    return (
        None if (r.returncode, r.stdout) == (want, b"") else f"exit {r.returncode}, stdout {r.stdout[:600]!r}"
    )


STREAMS = {
    "stdout full": stdout_full,
    "stdout closed": stdout_closed,
    "stdout reader gone": stdout_reader_gone,
    "stderr closed": stderr_closed,
    "stderr reader gone": stderr_reader_gone,
}


def run_streams(state: str, tmp: Path) -> dict[str, str | None]:
    """Every command in ``state``, four at a time: what went wrong with each (None: nothing)."""
    with ThreadPoolExecutor(4) as pool:
        done = pool.map(lambda c: (c, STREAMS[state](c, tmp)), COMMANDS)
        return dict(done)
