"""The fuzz and limits suite's cases per command (tests/test_fuzz_limits.py): options past
their bounds, ``-o`` at what must never be replaced, a FIFO whose writer sends bad UTF-8,
paths as typed, a log's convention outside its tree, hostile convention files.

Every case runs in one scratch directory (:func:`prepare` writes it) with relative paths,
so that a message naming a file must name it as typed; each option a command has is
found in the command itself (a new command or option is covered when it appears).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from batch import command as root
from hostile_cases import BAD_UTF8, BIG, COMMANDS, CONVENTIONS, GOOD_LOG, GOOD_SHEET, READERS

LONG = "n" * 300  # past NAME_MAX
#: option -> values past its bound (docs/format.md "Limits"): usage, exit 2, naming it
BOUNDS = {
    "--whist-price": ["1e400", "1e99999999", "NaN", "-1", BIG],
    "--max-yaml-bytes": ["99999999999999999999999G", "2G", BIG],
    "--deal": [BIG, "1e400", "0"],
    "--players": [BIG, "Anna Boris V\x1b[2Jx", "Anna \u202eBoris Vera"],
}


def slug(name: str) -> str:
    return re.sub(r"\W+", "-", name)


@cache
def options(command: str) -> frozenset[str]:
    """Every option name ``command`` takes (``conventions``: its ``show``)."""
    cmd = root().commands[command]
    if command == "conventions":
        cmd = cmd._loaded.commands["show"]
    return frozenset(o for p in cmd.params for o in p.opts)


@dataclass
class Case:
    args: list[str]
    want: int
    first: str = ""  # the first problem line starts with this
    has: str = ""  # the problems (stderr; check: stdout too) hold this
    fifo: tuple[str, bytes] | None = None
    never: tuple[str, ...] = field(default=())  # in no output
    whole_file: bool = False  # the first problem may concern the whole file (FILE: …)


def on(command: str, log: str, output: bool = True) -> list[str]:
    """``command`` as run on ``log`` (without its ``-o``: ``output`` False)."""
    args = [a.replace("{log}", log).replace("{out}", f"out-{command}") for a in COMMANDS[command]]
    return args if output or "-o" not in args else args[: args.index("-o")]


def bounds() -> dict[str, Case]:
    return {
        f"{c} {opt}={v[:12]!r}": Case([*on(c, "good.txt"), opt, v], 2, has=f"'{opt}'")
        for c in COMMANDS
        for opt, values in BOUNDS.items()
        if opt in options(c)
        for v in values
    }


def long_names() -> dict[str, Case]:
    """A name past NAME_MAX (ENAMETOOLONG) as the log, -c, --plot, sheet's -o: said, not a crash."""
    out = {c: Case(on(c, LONG), 1, first=LONG, whole_file=True) for c in READERS}
    for c in COMMANDS:
        for opt, name in (("-c", LONG), ("--plot", f"{LONG}/x.svg"), ("-o", f"{LONG}/x.svg")):
            if opt in options(c) and (opt != "-o" or c == "sheet"):  # sheet's -o: a folder that exists
                out[f"{c} {opt}"] = Case([*on(c, "good.txt", output=False), opt, name], 2, has=f"'{opt}'")
    return out


def targets() -> dict[str, Case]:
    """-o (and --plot) at a FIFO, a device, a symbolic link (.svg: what sheet and --plot take)."""
    out = {}
    for c in COMMANDS:
        for opt in ("-o", "--plot"):
            if opt in options(c):
                args = on(c, "good-sheet.yaml" if c == "settle" else "good.txt", output=False)
                out[f"{c} {opt} FIFO"] = Case([*args, opt, "pipe.svg"], 2, has="is a FIFO")
                out[f"{c} {opt} device"] = Case([*args, opt, "device.svg"], 2, has="is a device")
                force = ["--force"] if c == "new" else []  # new keeps any file with text
                out[f"{c} {opt} link"] = Case([*args, *force, opt, f"link-{c}{opt}.svg"], 0)
    return out


def fifos() -> dict[str, Case]:
    # read once, so the bad byte is at the file, not at a line (docs/format.md "Limits");
    # .txt read as a line log, .yaml as YAML
    return {
        f"{c}{ext}": Case(
            on(c, f"feed-{c}{ext}"),
            1,
            first=f"feed-{c}{ext}: not UTF-8",
            fifo=(f"feed-{c}{ext}", BAD_UTF8),
            whole_file=True,
        )
        for c in READERS
        for ext in (".txt", ".yaml")
    }


def typed() -> dict[str, Case]:
    """A log named with ../, and a convention in a folder below the log's."""
    out = {}
    for c in READERS:
        bad = "club/../club/bad-sheet.yaml" if c == "settle" else "club/../club/bad.txt"
        out[f"{c} log"] = Case(on(c, bad), 1, first=f"{bad}:3:")
        reads = c not in ("compare", "convert")  # compare plays every built-in; convert reads none
        house = {"settle": "club/house-sheet.yaml", "play": "club/house.txt"}.get(c, "club/house.yaml")
        out[f"{c} convention"] = Case(
            on(c, house), 1 if reads else 0, first="club/sub/house.yaml:2:1: " if reads else ""
        )
    return out


def outside() -> dict[str, Case]:
    """A log naming ../secret/keys.yaml: refused (nothing of it shown), read with --allow-outside."""
    out = {}
    for c in READERS:
        log = {"settle": "club/out-sheet.yaml", "play": "club/out.txt"}.get(c, "club/out.yaml")
        reads = c not in ("compare", "convert")
        out[f"{c}"] = Case(
            on(c, log), int(reads), has="outside the log's directory" if reads else "", never=("hunter2",)
        )
        if "--allow-outside" in options(c):
            out[f"{c} --allow-outside"] = Case(
                [*on(c, log), "--allow-outside"], 1, has="unknown convention key 'password'"
            )
    return out


def conventions() -> dict[str, Case]:
    """Hostile convention files named by -c (conventions: show), every one refused at its place."""
    out = {}
    for c in [c for c in COMMANDS if "-c" in options(c)] + ["conventions"]:
        for name in CONVENTIONS:
            path = f"conv/{slug(name)}.yaml"
            if c == "conventions":
                args = ["conventions", "show", path]
            else:
                args = [*on(c, "good-sheet.yaml" if c == "settle" else "good.txt"), "-c", path]
            # new reads the file too, before it prints a log that names it
            out[f"{c} {name}"] = Case(args, 1, first="conv/")
    return out


HOUSE = "extends: sochi\n"


def own_files() -> dict[str, str]:
    """The files the ``own_inputs`` cases read (each left as it was): a log per command (a
    sheet for settle; named .svg for sheet, whose -o is a drawing), a house convention, an
    aliases file, a paper, a folder's log."""
    files: dict[str, str] = {"own-against.yaml": GOOD_SHEET, "house-conventions.yaml": HOUSE}
    for c in COMMANDS:
        ext = ".yaml" if c == "settle" else ".svg" if c == "sheet" else ".txt"
        files[f"own-{c}{ext}"] = GOOD_SHEET if c == "settle" else GOOD_LOG
        files[f"house-{c}.yaml"] = HOUSE
        files[f"named-{c}.txt"] = GOOD_LOG.replace("sochi", f"house-{c}.yaml")
        files[f"own-aliases-{c}.yaml"] = "Anna: [Anya]\n"
        files[f"dir-{c}/a.txt"] = GOOD_LOG
    return files


def own_inputs() -> dict[str, Case]:
    """Issue 31 item 1: every -o (and --plot) at every input its command reads, by path, by
    hard link, by symbolic link, and the convention a log names: usage (exit 2), the file kept."""
    out: dict[str, Case] = {}
    reads = "this command reads it"
    for c in COMMANDS:
        opts = options(c)
        if "-o" not in opts:
            continue
        log = next((f for f in own_files() if f.startswith(f"own-{c}.")), "")
        if c in READERS:
            base = on(c, log, output=False)
            for how in ("own", "hard", "link"):
                out[f"{c} -o the log ({how})"] = Case(
                    [*base, "-o", log.replace("own-", f"{how}-")], 2, has=reads
                )
            if c not in ("compare", "convert", "settle", "sheet"):  # they read no convention a log names
                named = [*on(c, f"named-{c}.txt", output=False), "-o", f"house-{c}.yaml"]
                out[f"{c} -o the convention the log names"] = Case(named, 2, has=reads)
        if "-c" in opts and c not in ("sheet", "conventions"):
            base = on(c, "good-sheet.yaml" if c == "settle" else "good.txt", output=False)
            out[f"{c} -o -c's file"] = Case(
                [*base, "-c", f"house-{c}.yaml", "-o", f"house-{c}.yaml"], 2, has=reads
            )
        if "--aliases" in opts:
            aliases = f"own-aliases-{c}.yaml"
            out[f"{c} -o --aliases"] = Case(
                [c, "good.txt", "--aliases", aliases, "-o", aliases], 2, has=reads
            )
            out[f"{c} -o a folder's log"] = Case([c, f"dir-{c}", "-o", f"dir-{c}/a.txt"], 2, has=reads)
            out[f"{c} -o a folder's log --force"] = Case(
                [c, f"dir-{c}", "-o", f"dir-{c}/a.txt", "--force"], 2, has=reads
            )
            out[f"{c} --plot the log"] = Case([c, "own-sheet.svg", "--plot", "own-sheet.svg"], 2, has=reads)
            twice = [c, "good.txt", "--plot", f"twice-{c}.svg", "-o", f"twice-{c}.svg"]
            out[f"{c} --plot and -o one file"] = Case(
                twice, 2, has="named by --plot too", never=("Traceback",)
            )
    out["check -o --against"] = Case(
        ["check", "good.txt", "--against", "own-against.yaml", "-o", "own-against.yaml"], 2, has=reads
    )
    show = ["conventions", "show", "house-conventions.yaml", "-o", "house-conventions.yaml"]
    out["conventions show -o its file"] = Case(show, 2, has=reads)
    out["new -o a log"] = Case(["new", "-p", "Anna Boris Vera", "-o", "own-score.txt"], 2, has="--force")
    return out


FAMILIES = {
    f.__name__: f for f in (bounds, long_names, targets, fifos, typed, outside, conventions, own_inputs)
}


def prepare(tmp: Path) -> None:
    """Every file the cases name, in ``tmp``."""
    (tmp / "good.txt").write_text(GOOD_LOG, "utf-8")
    (tmp / "good-sheet.yaml").write_text(GOOD_SHEET, "utf-8")
    os.mkfifo(tmp / "pipe.svg")
    try:  # a device of our own, never one of /dev a writer with a bug could replace
        os.mknod(tmp / "device.svg", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except OSError:  # not root: /dev/full, which a writer without root cannot replace
        (tmp / "device.svg").symlink_to("/dev/full")
    for c in COMMANDS:
        for opt in ("-o", "--plot"):
            (tmp / f"real-{c}{opt}.svg").write_text("old\n", "utf-8")
            (tmp / f"link-{c}{opt}.svg").symlink_to(f"real-{c}{opt}.svg")
    for c in READERS:
        for ext in (".txt", ".yaml"):
            os.mkfifo(tmp / f"feed-{c}{ext}")
    for name, text in own_files().items():
        (tmp / name).parent.mkdir(exist_ok=True)
        (tmp / name).write_text(text, "utf-8")
        if name.startswith("own-"):
            os.link(tmp / name, tmp / name.replace("own-", "hard-"))
            (tmp / name.replace("own-", "link-")).symlink_to(name)
    club = tmp / "club"
    (club / "sub").mkdir(parents=True)
    (tmp / "secret").mkdir()
    (tmp / "secret" / "keys.yaml").write_text("password: hunter2\n", "utf-8")
    (club / "sub" / "house.yaml").write_text("extends: sochi\nbogus: 1\n", "utf-8")
    (club / "bad.txt").write_text("players: Anna Boris Vera\n\nAnna 6x 7\n", "utf-8")
    (club / "bad-sheet.yaml").write_text(GOOD_SHEET.replace("A: {pool: 0", "A: {pool: x"), "utf-8")
    for name, ref in (("house", "sub/house.yaml"), ("out", "../secret/keys.yaml")):
        (club / f"{name}.yaml").write_text(f"players: [A, B, C]\nconvention: {ref}\ndeals: []\n", "utf-8")
        (club / f"{name}-sheet.yaml").write_text(f"{GOOD_SHEET}convention: {ref}\n", "utf-8")
        (club / f"{name}.txt").write_text(f"players: A B C\nconvention: {ref}\n\n", "utf-8")  # play's
    conv = tmp / "conv"
    conv.mkdir()
    for name, text in CONVENTIONS.items():
        (conv / f"{slug(name)}.yaml").write_bytes(text)
    (conv / "cycle2.yaml").write_text("extends: a-cycle.yaml\n", "utf-8")
    for i in range(1, 9):
        (conv / f"chain{i}.yaml").write_text(
            f"extends: chain{i + 1}.yaml\n" if i < 8 else "extends: sochi\n", "utf-8"
        )


# -- issue 31: every convention key at 0 and at its bounds, big numbers, names ----------------

#: a Classic evening that reaches every rule a key can change: compulsory and dark raspasy,
#: a dark game on a bomb, a misère, a whisted contract failed, a correction
EVENING = (
    "Anna pass 3, Boris pass 4, Vera pass 3\nAnna pass dark 2, Boris pass dark 5, Vera pass 3\n"
    "Anna dark 8♠ 8, Boris whist 2, Vera pass 0\nBoris misere 1\nVera 7♥ 5, Anna whist 3, Boris pass 2\n"
    'correction Anna mountain 1/3 "agreed"\n'
)


def _values(key: str) -> list[tuple[str, int]]:
    """``key``'s values at 0 and at its bounds, each with the exit it must give."""
    from pulyacalc.convention.schema import SCHEMA, Int, IntList, Levels, Number, TrickOrNumber
    from pulyacalc.yamlsource import MAX_NUMBER

    parse = SCHEMA[key].parse
    item = parse.item if isinstance(parse, Levels) else parse
    if isinstance(item, Int | IntList):
        # (a half-whist on 10, whose obligation is 1, is refused: it needs an even one)
        high = 1 if key == "whist.half_whist_levels" else 0
        values = [
            (str(item.low), 0),
            (str(item.high), high),
            (str(item.high + 1), 1),
            ("0", int(item.low > 0)),
        ]
    elif isinstance(item, Number | TrickOrNumber):
        zero = int(key == "pool.point_in_mountain")  # points are divided by it
        values = [("0", zero), (str(MAX_NUMBER), 0), ("0.000001", 0), (str(MAX_NUMBER + 1), 1)]
    else:
        return []
    if isinstance(parse, Levels):
        return [("{" + ", ".join(f"{lv}: {v}" for lv in range(6, 11)) + "}", want) for v, want in values]
    return values


def keys() -> dict[str, Case]:
    """Every number key at 0 and at its bounds in a Classic log's header: scored (exit 0), or
    refused at its place (exit 1), never a traceback (issue 31 items 9, 10)."""
    from pulyacalc.convention.schema import SCHEMA

    out = {}
    for key in SCHEMA:
        for i, (value, want) in enumerate(_values(key)):
            name = f"key-{slug(key)}-{i}.txt"
            has = name if want else ""
            out[f"{key}: {value[:20]}"] = Case(["score", name, "--whist-price", "1000000"], want, has=has)
    zero = "key-pool-point_in_mountain-0.txt"  # divided by: refused by every command (item 9)
    for argv in (["compare", zero], ["ledger", zero], ["prices", "-c", "conv/zero.yaml"]):
        out[f"pool.point_in_mountain 0: {argv[0]}"] = Case(argv, 1, has="pool.point_in_mountain")
    return out


#: (name, header lines, deals, command, exit, a text of its output) of the big numbers of issue 31
NUMBERS = {
    # item 6: money past 28 digits, exact to the cent
    "money past 28 digits": (
        "convention: classic\ndark.factor: 10\nbombs.cap: 20\nmountain.point_in_whists: 1000000000\n",
        "Anna pass dark 3, Boris pass dark 4, Vera pass dark 3\n" * 20
        + "Anna dark 8♠ 8, Boris whist 2, Vera pass 0\n",
        ["score", "--whist-price", "1"],
        0,
        "37037037037037037396666665866.67",
    ),
    "a correction of 10^32": (
        "",
        "correction Anna mountain 1" + "0" * 32 + ' "x"\n',
        ["score"],
        1,
        "out of range",
    ),
    "a correction with seven decimals": (
        "",
        'correction Anna mountain 0.1234567 "x"\n',
        ["score"],
        1,
        "out of range",
    ),
    "a correction of 4,400 digits": (
        "",
        "correction Anna mountain " + "9" * 4400 + ' "x"\n',
        ["score"],
        1,
        "out of range",
    ),
    "corrections of 1/p": (
        "",
        "".join(
            f'correction Anna mountain 1/{p} "x"\n' for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
        ),
        ["score"],
        1,
        "denominator",
    ),
    "bombs.cap 0, 150 dark raspasy": (
        "convention: classic\nbombs.cap: 0\n",
        "Anna pass dark 3, Boris pass dark 4, Vera pass dark 3\n" * 150,
        ["explain"],
        1,
        "10^30",
    ),
}


def numbers() -> dict[str, Case]:
    """Sums and products past what the renderers took (issue 31 items 6, 10): exact, or refused."""
    out = {}
    for name, (_, _, argv, want, has) in NUMBERS.items():
        for fmt in ("table", "csv") if want == 0 else ("table",):
            file = f"num-{slug(name)}.txt"
            out[f"{name} ({fmt})"] = Case(
                [argv[0], file, *argv[1:], "--format", fmt], want, has=has if want else ""
            )
    return out


ESC, BIDI = "\x1bc", "\u202e"
#: where a name or an echoed text is written: (file name, content), each with ESC c and U+202E
NAMES = {
    "join name (lines)": ("nm-join.txt", f"players: Anna Boris Vera\n\njoin Da{ESC}n{BIDI}x\n"),
    "join name (yaml)": (  # (YAML refuses the characters written raw: escaped, they get through)
        "nm-join.yaml",
        "players: [Anna, Boris, Vera]\ndeals:\n  - {raspasy: {Anna: 3, Boris: 4, Vera: 3}}\n"
        '  - join: "Da\\x1bcn\\u202ex"\n',
    ),
    "correction reason": (
        "nm-reason.txt",
        f'players: Anna Boris Vera\n\ncorrection Anna mountain 2 "re{ESC}a{BIDI}son"\n',
    ),
}


def names() -> dict[str, Case]:
    """Every name field with control and bidi characters: refused or shown with ``?`` (item 12)."""
    out = {}
    for what, (file, _) in NAMES.items():
        for c in ("score", "explain", "ledger", "stats", "check"):
            out[f"{what}: {c}"] = Case([c, file], 0 if "reason" in what else 1, never=(ESC, BIDI))
    out["aliases person: season"] = Case(
        ["season", "good.txt", "--aliases", "nm-aliases.yaml"], 1, never=(ESC, BIDI)
    )
    out["reason: sheet svg"] = Case(["sheet", "nm-reason.txt", "-o", "nm-reason.svg"], 0, never=(ESC, BIDI))
    return out


FAMILIES.update({f.__name__: f for f in (keys, numbers, names)})
_prepare = prepare


def prepare(tmp: Path) -> None:  # type: ignore[no-redef]
    """Every file the cases name, in ``tmp`` (issue 31's files too)."""
    _prepare(tmp)
    for key in keys_of():
        for i, (value, _) in enumerate(_values(key)):
            header = f"players: Anna Boris Vera\ndealer: Vera\nconvention: classic\n{key}: {value}\n\n"
            (tmp / f"key-{slug(key)}-{i}.txt").write_text(header + EVENING, "utf-8")
    for name, (header, deals, *_) in NUMBERS.items():
        text = f"players: Anna Boris Vera\ndealer: Vera\n{header or 'convention: sochi'}\n\n{deals}"
        (tmp / f"num-{slug(name)}.txt").write_text(text, "utf-8")
    for file, text in NAMES.values():
        (tmp / file).write_text(text, "utf-8")
    (tmp / "conv" / "zero.yaml").write_text("extends: sochi\npool:\n  point_in_mountain: 0\n", "utf-8")
    (tmp / "nm-aliases.yaml").write_text('"An\\x1bcna\\u202ex": [Anna]\n', "utf-8")


def keys_of() -> list[str]:
    from pulyacalc.convention.schema import SCHEMA

    return list(SCHEMA)
