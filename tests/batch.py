"""Many command lines run in-process, in a child process of their own, each under a
watchdog: the fuzz and limits suite's runner (tests/test_fuzz_limits.py).

In-process because a fresh interpreter per case costs 0.15 s and the click command built
once costs nothing (Typer's CliRunner rebuilds all 13 commands on every call: 16 ms);
in a child because a case that hangs must be killed, not waited for: each case has
``LIMIT`` seconds, after which ``faulthandler`` ends the child and the case is reported as
killed.  The limit tells a hang from a slow start on a busy machine (the first import of
matplotlib there can take ten seconds); how fast each command is, per megabyte of its
input, is the benchmark's to say (bench/hostile.py).  The child takes the
cases as JSON lines on standard input and answers each with a JSON line.

    python tests/batch.py < cases.jsonl     # what run_batch does
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import traceback
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

#: seconds one case may run before it is killed (a hang is a failure, never a wait)
LIMIT = 30.0


@dataclass(frozen=True)
class Outcome:
    code: int | str  # the exit status, or "killed" when the watchdog ended it
    stdout: str = ""
    stderr: str = ""
    crash: str = ""  # an exception that escaped the command, with its traceback


@cache
def command() -> Any:
    import typer.main

    from pulyacalc.cli.app import app

    return typer.main.get_command(app)


def invoke(args: Sequence[str], cwd: str | None = None, stdin: str | None = None) -> Outcome:
    """One command line, in this process, as Typer's CliRunner runs it (with the command
    built once)."""
    from typer.testing import CliRunner

    runner = CliRunner()
    before = os.getcwd()
    if cwd:
        os.chdir(cwd)
    try:
        with runner.isolation(input=stdin) as (out, err, _):
            code: int | str = 0
            crash = ""
            try:
                command().main(args=list(args), prog_name="pulyacalc")
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except Exception:
                code, crash = 1, traceback.format_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
            return Outcome(code, out.getvalue().decode("utf-8", "replace"), err.getvalue().decode(), crash)
    finally:
        os.chdir(before)


def _feed(fifo: str, data: bytes) -> None:
    """A writer at the other end of a FIFO (a daemon: a command that never opens it leaves
    it waiting, harmlessly)."""

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(data)

    threading.Thread(target=write, daemon=True).start()


def child() -> None:
    import faulthandler

    results = os.fdopen(os.dup(1), "w", encoding="utf-8")
    for line in sys.stdin:
        case = json.loads(line)
        print(json.dumps({"start": case["id"]}), file=results, flush=True)
        if case.get("fifo"):
            _feed(os.path.join(case.get("cwd") or ".", case["fifo"]), case["feed"].encode("latin-1"))
        faulthandler.dump_traceback_later(LIMIT, exit=True)
        got = invoke(case["args"], case.get("cwd"), case.get("stdin"))
        faulthandler.cancel_dump_traceback_later()
        print(json.dumps({"id": case["id"], **got.__dict__}), file=results, flush=True)


def _run_some(cases: list[dict[str, Any]]) -> dict[str, Outcome]:
    done: dict[str, Outcome] = {}
    while len(done) < len(cases):
        todo = [c for c in cases if c["id"] not in done]
        r = subprocess.run(
            [sys.executable, str(Path(__file__))],
            input="".join(json.dumps(c) + "\n" for c in todo),
            capture_output=True,
            text=True,
            timeout=LIMIT * len(todo) + 60,
        )
        started = None
        for line in r.stdout.splitlines():
            got = json.loads(line)
            if "start" in got:
                started = got["start"]
            else:
                key = got.pop("id")
                done[key] = Outcome(**got)
        if len(done) < len(cases):  # the watchdog ended the case that had started
            assert started is not None and started not in done, r.stderr[-3000:]
            done[started] = Outcome("killed", stderr=r.stderr[-3000:])
    return done


def run_batch(cases: Iterable[dict[str, Any]], workers: int = 2) -> dict[str, Outcome]:
    """Every case ({"id", "args", and "cwd", "stdin", "fifo" + "feed" if wanted}) run in
    ``workers`` children at once; their outcomes by id."""
    todo = list(cases)
    assert len({c["id"] for c in todo}) == len(todo), "two cases with one id"
    shares = [todo[i::workers] for i in range(workers)]
    with ThreadPoolExecutor(workers) as pool:
        parts = list(pool.map(_run_some, shares))
    return {k: v for part in parts for k, v in part.items()}


if __name__ == "__main__":
    child()
