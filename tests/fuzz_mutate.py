"""Seeded random fuzzing for tests/test_fuzz_limits.py: the examples' logs, sheets and
convention files, and random evenings (bench/genlog.py), mutated — characters and bytes
flipped, tokens inserted, lines shuffled, dropped or doubled, the file cut short — and given
to a random command in a random format.  Deterministic: PULYACALC_FUZZ_SEED picks the
cases, PULYACALC_FUZZ_COUNT how many (200 by default; .ci/run asks for 1,000, and more
before a release).
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re

from batch import Outcome
from hostile_cases import ROOT, hostile

genlog = hostile.genlog  # bench/genlog.py, as the bench uses it

COUNT = int(os.environ.get("PULYACALC_FUZZ_COUNT", "200"))
SEED = os.environ.get("PULYACALC_FUZZ_SEED", "20240607")
EXAMPLES = ROOT / "examples"
SHEETS = ("sheet.yaml", "leningrad-50-sheet.yaml")
TOKENS = list("0123456789 ,:#-[]{}'\"&*!|>%@`\t\n") + [
    "♠", "♣", "♦", "♥", "NT", "misere", "whist", "pass", "half", "пас", "вист", "\ufeff", "\x00",
    "\r", "é", "Anna", "Boris", "Vera", "Dan", "raspasy", "talon", "dealer:", "players:", "pool:",
    "convention:", "rounding:", "10", "11", "-1", "1/0", "1e400", "9" * 30, "~", "null", "&a", "*a",
    "\x1b[2J", "\u202e", "deals:", "sheet:", "extends: sochi",
]  # fmt: skip
FORMATS = ["table", "json", "jsonl", "csv", "tsv"]
#: the commands a mutated log is given to, with what each may add
RUNS = [["score"], ["score", "--rounding", "exact", "--whist-price", "0.37"], ["explain"], ["check"],
        ["ledger"], ["compare"], ["convert", "--to", "yaml"], ["convert", "--to", "lines"],
        ["dispute", "--deal", "2"], ["season"], ["stats"], ["score", "--rounding", "kodeks"]]  # fmt: skip


def mutate(rng: random.Random, text: str, rounds: int) -> str:
    for _ in range(rounds):
        op = rng.randrange(7)
        i = rng.randrange(len(text) + 1) if text else 0
        lines = text.splitlines(keepends=True)
        if op == 0:  # delete a stretch
            text = text[:i] + text[i + rng.randint(1, 8) :]
        elif op == 1:  # insert a token
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif op == 2 and (nums := list(re.finditer(r"\d+", text))):  # change a number
            m = rng.choice(nums)
            new = str(rng.choice([0, 1, 2, 5, 7, 9, 10, 11, 12, 100, 10**6, -3, 10**30]))
            text = text[: m.start()] + new + text[m.end() :]
        elif op == 3 and len(lines) > 1:  # double, drop or swap lines, or shuffle them all
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            how = rng.randrange(4)
            if how == 0:
                lines.insert(a, lines[b])
            elif how == 1:
                del lines[a]
            elif how == 2:
                lines[a], lines[b] = lines[b], lines[a]
            else:
                rng.shuffle(lines)
            text = "".join(lines)
        elif op == 4:  # cut short
            text = text[:i]
        elif op == 5:  # a name changed
            text = text.replace(rng.choice(["Anna", "Boris", "Vera"]), rng.choice(["anna", "Bo", "X", ""]), 1)
        else:  # any characters
            text = (
                text[:i] + "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randint(1, 4))) + text[i:]
            )
    return text


def flip(rng: random.Random, data: bytes, rounds: int) -> bytes:
    """Bytes flipped, inserted or cut: bad UTF-8, a NUL, a split character."""
    b = bytearray(data)
    for _ in range(rounds):
        i = rng.randrange(len(b) + 1)
        if rng.random() < 0.5 and i < len(b):
            b[i] ^= 1 << rng.randrange(8)
        else:
            b[i:i] = bytes([rng.randrange(256)])
    return bytes(b)


def _seeds(rng: random.Random) -> list[tuple[str, str]]:
    """(suffix, text) of every example log and a dozen random evenings."""
    out = [
        (p.suffix, p.read_text("utf-8"))
        for p in sorted(EXAMPLES.glob("*.*"))
        if p.suffix in (".txt", ".yaml") and p.name not in SHEETS
    ]
    for k in range(12):
        n, players, conv = (
            rng.randint(1, 30),
            rng.choice((3, 4)),
            rng.choice(("sochi", "leningrad", "rostov")),
        )
        pool = rng.randint(1, 30)
        if k % 2:
            out.append(
                (".txt", "".join(genlog.line_log(n, seed=k, players=players, convention=conv, pool=pool)))
            )
        else:
            out.append((".yaml", genlog.yaml_log(n, seed=k, players=players, convention=conv, pool=pool)))
    return out


def fuzz_cases() -> dict[str, tuple[list[str], dict[str, bytes]]]:
    """id -> (the command line, the files it reads: name -> bytes)."""
    rng = random.Random(SEED)
    seeds = _seeds(rng)
    house = (EXAMPLES / "house-rules" / "house.yaml").read_bytes()
    sheets = [(EXAMPLES / s).read_text("utf-8") for s in SHEETS]
    conventions = [
        (ROOT / "conventions" / f"{n}.yaml").read_text("utf-8") for n in ("sochi", "leningrad", "rostov")
    ]
    out: dict[str, tuple[list[str], dict[str, bytes]]] = {}
    for k in range(COUNT):
        name = f"fuzz{k}"
        kind = rng.random()
        suffix, text = rng.choice(seeds)
        files = {"house.yaml": house}
        if kind < 0.6:  # a log, mutated
            data = mutate(rng, text, rng.choice((1, 1, 2, 3, 6, 20))).encode("utf-8", "surrogatepass")
            args = [*rng.choice(RUNS)]
        elif kind < 0.75:  # a log, its bytes flipped
            data, args = flip(rng, text.encode(), rng.randint(1, 5)), [*rng.choice(RUNS)]
        elif kind < 0.85:  # a sheet
            data = mutate(rng, rng.choice(sheets), rng.choice((1, 2, 3, 5))).encode("utf-8", "surrogatepass")
            suffix, args = (
                ".yaml",
                ["settle"] + rng.choice([[], ["--rounding", "exact"], ["--whist-price", "0.5"]]),
            )
        elif kind < 0.95:  # a convention file, with a good log
            conv = mutate(rng, rng.choice(conventions), rng.choice((1, 2, 4))).encode(
                "utf-8", "surrogatepass"
            )
            files[f"{name}-conv.yaml"] = conv
            data, args = text.encode(), [rng.choice(["score", "explain", "check"]), "-c", f"{name}-conv.yaml"]
        else:  # tokens at random
            data = "".join(
                rng.choice(TOKENS) + rng.choice(("", " ", "\n")) for _ in range(rng.randint(0, 40))
            ).encode("utf-8", "surrogatepass")
            args = [*rng.choice(RUNS)]
        files[name + suffix] = data
        cmd = [args[0], name + suffix, *args[1:]]
        if args[0] not in ("convert",):
            cmd += ["-f", rng.choice(FORMATS)]
        out[name] = (cmd, files)
    return out


LOCATED = re.compile(r"^.+?:\d+(:\d+)?: .+")
SUMMARY = re.compile(r"^pulyacalc: (\d+ problems|and \d+ more .*)$")


def judge(args: list[str], o: Outcome) -> None:
    """A result in the format asked for, located problems (exit 1), or usage naming one of
    the options given (exit 2)."""
    if o.code == 2:
        assert re.search(r"Invalid value for '(-\w|--[\w-]+)'", o.stderr) and any(
            f"'{a}'" in o.stderr for a in args if a.startswith("-")
        ), o.stderr
        return
    if o.code == 0 or (args[0] == "check" and o.code == 1 and o.stdout and not o.stderr):
        if o.code == 0:  # notes only: a pulya played past its finish, a file season skipped
            assert all(line.startswith("pulyacalc: ") for line in o.stderr.splitlines()), o.stderr
        fmt = args[args.index("-f") + 1] if "-f" in args else "table"
        assert o.stdout.endswith("\n") or (fmt == "jsonl" and o.stdout == "")  # jsonl: no rows
        if fmt == "json":
            json.loads(o.stdout)
        elif fmt == "jsonl":
            assert all(isinstance(json.loads(line), dict) for line in o.stdout.splitlines())
        elif fmt in ("csv", "tsv"):
            rows = list(csv.reader(io.StringIO(o.stdout), delimiter="," if fmt == "csv" else "\t"))
            assert len({len(row) for row in rows}) == 1, f"ragged {fmt}"
        return
    assert o.code == 1 and o.stdout == "", f"exit {o.code}, stdout {o.stdout[:300]!r}"
    lines = o.stderr.rstrip("\n").split("\n")
    assert LOCATED.match(lines[0]), f"first line not located: {lines[0]!r}"
    for line in lines:
        assert LOCATED.match(line) or SUMMARY.match(line) or line.startswith("    "), f"unlocated: {line!r}"
