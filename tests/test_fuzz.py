"""Fuzz: thousands of mutated and random logs, sheets and convention files.

Every run must end in a result (exit 0, valid output) or in located problems (exit 1,
every line of standard error ``FILE:LINE[:COL]: …``, a caret echo line indented by four
spaces, or the ``pulyacalc: N problems`` summary) — never a traceback, never a hang.

Deterministic (fixed seeds) and bounded, so it runs in CI: PULYACALC_FUZZ_COUNT changes
the number of cases per test (default 1,000), PULYACALC_FUZZ_SEED the seed.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import genlog  # noqa: E402

COUNT = int(os.environ.get("PULYACALC_FUZZ_COUNT", "1000"))
SEED = int(os.environ.get("PULYACALC_FUZZ_SEED", "20240607"))
#: one run may take at most this long (the slowest CI machine, with margin)
TIME_BOUND = 5.0

runner = CliRunner()
LOCATED = re.compile(r"^.+?:\d+(:\d+)?: .+")
SUMMARY = re.compile(r"^pulyacalc: \d+ problems$")

ALPHABET = list("0123456789 ,:#-[]{}'\"&*!|>%@`\t\n") + [
    "♠", "♣", "♦", "♥", "NT", "misere", "whist", "pass", "half", "пас", "вист", "\ufeff",
    "\x00", "\r", "é", "Anna", "Boris", "Vera", "Dan", "raspasy", "talon", "dealer:", "players:",
    "pool:", "convention:", "rounding:", "10", "11", "-1", "99999999999999999999", "~", "null",
]  # fmt: skip


def mutate(rng: random.Random, text: str, rounds: int) -> str:
    for _ in range(rounds):
        op = rng.randrange(9)
        i = rng.randrange(len(text) + 1) if text else 0
        if op == 0 and text:  # delete a stretch
            text = text[:i] + text[i + rng.randint(1, 8) :]
        elif op == 1:  # insert a token
            text = text[:i] + rng.choice(ALPHABET) + text[i:]
        elif op in (2, 3):  # change a number
            nums = list(re.finditer(r"\d+", text))
            if nums:
                m = rng.choice(nums)
                new = str(rng.choice([0, 1, 2, 5, 7, 9, 10, 11, 12, 100, 10**6, -3]))
                text = text[: m.start()] + new + text[m.end() :]
        elif op == 4:  # duplicate, drop or swap lines
            lines = text.splitlines(keepends=True)
            if len(lines) > 1:
                a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                choice = rng.randrange(3)
                if choice == 0:
                    lines.insert(a, lines[b])
                elif choice == 1:
                    del lines[a]
                else:
                    lines[a], lines[b] = lines[b], lines[a]
                text = "".join(lines)
        elif op == 5:  # swap two words
            words = list(re.finditer(r"\S+", text))
            if len(words) > 1:
                x, y = sorted(rng.sample(words, 2), key=lambda m: m.start())
                text = text[: x.start()] + y.group() + text[x.end() : y.start()] + x.group() + text[y.end() :]
        elif op == 6:  # truncate
            text = text[:i]
        elif op == 7:  # replace a name
            text = text.replace(rng.choice(["Anna", "Boris", "Vera"]), rng.choice(["anna", "Bo", "X", ""]), 1)
        else:  # random bytes-ish characters
            text = (
                text[:i] + "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randint(1, 4))) + text[i:]
            )
    return text


def check_run(args: list[str], what: str) -> None:
    t = time.perf_counter()
    r = runner.invoke(app, args, prog_name="pulyacalc")
    took = time.perf_counter() - t
    assert took < TIME_BOUND, f"{what}: took {took:.1f} s"
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise AssertionError(f"{what}: {r.exception!r}") from r.exception
    assert "Traceback" not in r.stderr, f"{what}: {r.stderr}"
    if r.exit_code == 0 or (args[0] == "check" and r.exit_code == 1 and r.stdout):
        # a result; `check` reports its findings as data and exits 1 when it has some
        if r.exit_code == 0:
            # nothing but score's note on deals played after the finish (docs/commands.md)
            note = r.stderr.startswith("pulyacalc: ") and "after the pulya was finished" in r.stderr
            assert r.stderr == "" or (args[0] == "score" and note), f"{what}: {r.stderr}"
        fmt = args[args.index("-f") + 1] if "-f" in args else "table"
        out = r.stdout
        assert out.endswith("\n")
        if fmt == "json":
            json.loads(out)
        elif fmt == "jsonl":
            for line in out.splitlines():
                assert isinstance(json.loads(line), dict)
        elif fmt in ("csv", "tsv"):
            rows = list(csv.reader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
            assert len({len(row) for row in rows}) == 1, f"{what}: ragged {fmt}"
        return
    if "--rounding" in args and "Invalid value for '--rounding'" in r.output:
        assert r.exit_code == 2, what  # a rounding the table cannot settle: usage (issue 10 item 6)
        return
    assert r.exit_code == 1, f"{what}: exit {r.exit_code}: {r.output}"
    assert r.stdout == "", f"{what}: data on stdout with exit 1"
    lines = r.stderr.rstrip("\n").split("\n")
    assert lines, f"{what}: exit 1 with nothing on stderr"
    assert LOCATED.match(lines[0]), f"{what}: first line not located: {lines[0]!r}"
    for line in lines:
        ok = LOCATED.match(line) or SUMMARY.match(line) or line.startswith("    ")
        assert ok, f"{what}: unlocated stderr line {line!r}\n{r.stderr}"


def seeds_for(name: str) -> list[str]:
    rng = random.Random(f"{SEED}-{name}")
    out = []
    for k in range(12):
        players = rng.choice((3, 4))
        conv = rng.choice(("sochi", "leningrad", "rostov"))
        n = rng.randint(1, 30)
        if k % 2:
            out.append(
                "".join(genlog.line_log(n, seed=k, players=players, convention=conv, pool=rng.randint(1, 30)))
            )
        else:
            out.append(genlog.yaml_log(n, seed=k, players=players, convention=conv, pool=rng.randint(1, 30)))
    return out


FORMATS = ["table", "json", "jsonl", "csv", "tsv"]


def test_mutated_logs(tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-logs")
    bases = seeds_for("logs")
    for k in range(COUNT):
        base = rng.choice(bases)
        text = mutate(rng, base, rng.choice((1, 1, 2, 3, 6, 20)))
        suffix = rng.choice((".yaml", ".pulya", ".txt", ""))
        p = tmp_path / f"log{k % 7}{suffix}"
        p.write_text(text, encoding="utf-8", errors="surrogatepass")
        args = ["score", str(p), "-f", rng.choice(FORMATS)]
        if rng.random() < 0.2:
            args += ["--rounding", rng.choice(("exact", "kodeks", "nearest"))]
        if rng.random() < 0.2:
            args += ["--whist-price", rng.choice(("0.5", "1", "0.01", "3"))]
        check_run(args, f"case {k}: {args}\n--- log ---\n{text[:2000]}")


def test_random_logs(tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-random")
    for k in range(COUNT // 4):
        n = rng.randint(0, 40)
        text = "".join(rng.choice(ALPHABET) + rng.choice(("", " ", " ", "\n")) for _ in range(n))
        if rng.random() < 0.5:
            text = "players: Anna Boris Vera\n" + text
        p = tmp_path / f"r{k % 5}{rng.choice(('.yaml', '.pulya', ''))}"
        p.write_bytes(text.encode("utf-8", "surrogatepass"))
        check_run(["score", str(p), "-f", rng.choice(FORMATS)], f"random {k}: {text!r}")


def test_invalid_utf8_and_binary_input(tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-bytes")
    base = "".join(genlog.line_log(10, seed=3)).encode()
    for k in range(50):
        data = bytearray(base)
        for _ in range(rng.randint(1, 5)):
            data.insert(rng.randrange(len(data)), rng.randrange(256))
        p = tmp_path / f"b{k % 3}{rng.choice(('.yaml', '.pulya'))}"
        p.write_bytes(bytes(data))
        check_run(["score", str(p)], f"bytes {k}: {bytes(data)[:200]!r}")


def test_mutated_convention_files(tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-conv")
    builtins = [
        (ROOT / "conventions" / f"{n}.yaml").read_text(encoding="utf-8")
        for n in ("sochi", "leningrad", "rostov")
    ]
    logs = seeds_for("conv")
    for k in range(COUNT // 4):
        conv = mutate(rng, rng.choice(builtins), rng.choice((1, 2, 4)))
        c = tmp_path / f"house{k % 3}.yaml"
        c.write_text(conv, encoding="utf-8", errors="surrogatepass")
        log = tmp_path / f"ev{k % 3}{rng.choice(('.yaml', '.pulya'))}"
        text = rng.choice(logs)
        log.write_text(text, encoding="utf-8")
        check_run(["score", str(log), "-c", str(c), "-f", rng.choice(FORMATS)], f"convention {k}:\n{conv}")


def test_mutated_sheets(tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-sheets")
    base = (
        "players: [A, B, C]\nconvention: sochi\npool: 20\nrounding: kodeks\nsheet:\n"
        "  A: {pool: 14, mountain: 12, whists: {B: 12, C: 0}}\n"
        "  B: {pool: 8,  mountain: 26, whists: {A: 22, C: 0}}\n"
        "  C: {pool: 0,  mountain: 6,  whists: {A: 22, B: 4}}\n"
    )
    for k in range(COUNT // 4):
        text = mutate(rng, base, rng.choice((1, 2, 3, 5)))
        p = tmp_path / f"sheet{k % 3}.yaml"
        p.write_text(text, encoding="utf-8", errors="surrogatepass")
        args = ["settle", str(p), "-f", rng.choice(FORMATS)]
        if rng.random() < 0.3:
            args += ["--rounding", rng.choice(("exact", "kodeks", "nearest"))]
        check_run(args, f"sheet {k}:\n{text}")


@pytest.mark.parametrize("command", ["explain", "check", "season"])
def test_other_commands_on_mutated_logs(tmp_path: Path, command: str) -> None:
    rng = random.Random(f"{SEED}-{command}")
    bases = seeds_for(command)
    for k in range(COUNT // 10):
        text = mutate(rng, rng.choice(bases), rng.choice((1, 2, 4)))
        p = tmp_path / f"x{k % 3}{rng.choice(('.yaml', '.pulya'))}"
        p.write_text(text, encoding="utf-8", errors="surrogatepass")
        fmt = rng.choice(["table", "json", "jsonl"])
        check_run([command, str(p), "-f", fmt], f"{command} {k}:\n{text}")
