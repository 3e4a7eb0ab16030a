"""The fuzz and limits suite's inputs and what each command must make of them (issue 11):
bench/hostile.py's INPUTS made small (or just past the limit each is about), the hostile
inputs only a small file needs (keys twice, numbers past bounds, sheets, tags), and hostile
convention files.

What a command must do with a file: exit 0 with a result when the file is good; else
exit 1 with located problems, the first at the file as it was typed (``FILE:LINE[:COL]:``,
or ``FILE:`` for the few that concern the whole file); usage (exit 2) only for a bad
option.  Every command of ``pulyacalc --help`` is here (a test compares the lists).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import hostile  # noqa: E402

#: the commands that read a log (settle: a sheet), as run on one ({log}; {out}: a scratch name)
READERS = {
    "score": ["score", "{log}"],
    "settle": ["settle", "{log}"],
    "explain": ["explain", "{log}"],
    "ledger": ["ledger", "{log}"],
    "sheet": ["sheet", "{log}", "-o", "{out}.svg"],
    "check": ["check", "{log}"],
    "compare": ["compare", "{log}"],
    "dispute": ["dispute", "{log}", "--deal", "1"],
    "convert": ["convert", "{log}", "--to", "yaml"],
    "season": ["season", "{log}"],
    "stats": ["stats", "{log}"],
    "play": ["play", "{log}"],
}
#: the commands that read no log, as run when all is well
OTHERS = {
    "new": ["new", "-p", "Anna Boris Vera"],
    "prices": ["prices"],
    "conventions": ["conventions", "show", "sochi"],
}
COMMANDS = READERS | OTHERS

#: the bench's inputs are made this big here (default 3,000 bytes): each just past its limit
#: (a line of 10,000 characters, one that never ends within 1,000,000, 4,300 digits)
SIZES = {
    "one line, no newline": 1_100_000,
    "a players: line without end": 60_000,
    "a comment without end": 20_000,
    "a number of many digits": 5_000,
    "a deal with a huge count": 5_000,
    "YAML a long scalar": 9_000,  # a player's name of 9,000 characters: drawn, tabled, echoed
}
#: the bench's inputs that are good logs ("empty": no deals, so no deal 1 to dispute)
GOOD = {
    "a long log": "good",
    "CR line ends only": "good",
    "YAML a long scalar": "empty",
    "YAML many deals": "good",
    "YAML a sheet with running totals": "sheet",  # settle's input; every log reader refuses it
}

LOG = "players: [Anna, Boris, Vera]\n"
DEAL = "Anna 6♠ 7, Boris whist 2, Vera pass 1"
ROWS = "  Boris: {pool: 0, mountain: 0, whists: {}}\n  Vera: {pool: 0, mountain: 0, whists: {}}\n"


def _sheet(anna: str, rows: str = ROWS) -> bytes:
    return f"{LOG}sheet:\n  Anna: {anna}\n{rows}".encode()


#: name -> (suffix, content, kind): "log" a bad log, "good" one, "sheet" a good sheet, "bad sheet"
EXTRA: dict[str, tuple[str, bytes, str]] = {
    "deals: twice": (".yaml", f"{LOG}deals:\n  - {DEAL}\ndeals:\n  - {DEAL}\n".encode(), "log"),
    "declarer: twice": (
        ".yaml",
        f"{LOG}deals:\n  - {{declarer: Anna, declarer: Boris, contract: 6♠}}\n".encode(),
        "log",
    ),
    "a header key twice": (
        ".txt",
        f"players: Anna Boris Vera\npool: 10\nпуля: 20\n\n{DEAL}\n".encode(),
        "log",
    ),
    "an override twice": (
        ".txt",
        f"players: Anna Boris Vera\nwhist.on_failure: greedy\nwhist.on_failure: gentleman\n\n{DEAL}\n".encode(),
        "log",
    ),
    "a pool past its bound": (".yaml", f"{LOG}pool: 100001\ndeals: []\n".encode(), "log"),
    "a pool of 1/0": (".yaml", f"{LOG}pool: 1/0\ndeals: []\n".encode(), "log"),
    "tricks of 1e400": (".txt", "players: Anna Boris Vera\n\nAnna 6♠ 1e400, Boris pass\n".encode(), "log"),
    "a deal number of 5,000 digits": (
        ".txt",
        f"players: Anna Boris Vera\n\n{'9' * 5000}. {DEAL}\n".encode(),
        "log",
    ),
    "a YAML tag": (
        ".yaml",
        f"{LOG}pool: !!python/object/apply:os.system ['echo hi']\ndeals: []\n".encode(),
        "log",
    ),
    "a scalar alias": (".yaml", f"{LOG}title: &t hello\nplace: *t\ndeals: []\n".encode(), "log"),
    "an escape in the title": (
        ".txt",
        f"players: Anna Boris Vera\ntitle: x\x1b[2Jy\n\n{DEAL}\n".encode(),
        "log",
    ),
    "a bidi control in a name": (".yaml", "players: [Anna, Bo\u202eris, Vera]\ndeals: []\n".encode(), "log"),
    "CRLF, a BOM and no last newline": (
        ".txt",
        f"\ufeffplayers: Anna Boris Vera\r\n\r\n{DEAL}".encode(),
        "good",
    ),
    "an empty file": (".txt", b"", "log"),
    "a convention name past NAME_MAX": (
        ".txt",
        f"players: Anna Boris Vera\nconvention: {'n' * 300}\n\n{DEAL}\n".encode(),
        "bad convention",
    ),
    "a sheet at the bounds": (
        ".yaml",
        _sheet("{pool: 0, mountain: 1000000000, whists: {Boris: 1/1000000}}"),
        "sheet",
    ),
    "a sheet of 1/0": (".yaml", _sheet("{pool: 0, mountain: 1/0, whists: {}}"), "bad sheet"),
    "a sheet past 10^26": (
        ".yaml",
        _sheet("{pool: 0, mountain: 1" + "0" * 26 + ", whists: {}}"),
        "bad sheet",
    ),
    "a sheet of 1e400": (".yaml", _sheet("{pool: 0, mountain: 1e400, whists: {}}"), "bad sheet"),
    "a sheet of 1e308": (".yaml", _sheet("{pool: 0, mountain: 1e308, whists: {}}"), "bad sheet"),
    "a sheet of 5,000 digits": (
        ".yaml",
        _sheet("{pool: 0, mountain: " + "7" * 5000 + ", whists: {}}"),
        "bad sheet",
    ),
    "a sheet row twice": (
        ".yaml",
        _sheet("{pool: 0, mountain: 0, whists: {}}", ROWS + "  anna: {pool: 1, mountain: 0, whists: {}}\n"),
        "bad sheet",
    ),
}


BIG = "9" * 5000
GOOD_LOG = "players: Anna Boris Vera\nconvention: sochi\n\nAnna 6♠ 7, Boris whist 2, Vera pass 1\n"
GOOD_SHEET = "players: [A, B, C]\nsheet:\n" + "".join(
    f"  {p}: {{pool: 0, mountain: 0, whists: {{}}}}\n" for p in "ABC"
)
BAD_UTF8 = b"players: Anna Boris Vera\n\nAnna 6\xff 7, Boris pass, Vera pass\n"
#: name -> a convention file's content, each refused at its place
CONVENTIONS: dict[str, bytes] = {
    "aliases": b"extends: sochi\npool: &p {target: 10}\nmisere: *p\n",
    "extends twice": b"extends: sochi\nextends: leningrad\n",
    "set twice": b"extends: sochi\nwhist: {on_failure: greedy}\nwhist.on_failure: gentleman\n",
    "1/0": b"extends: sochi\npool:\n  point_in_mountain: 1/0\n",
    "5,000 digits": b"extends: sochi\npool:\n  point_in_mountain: " + BIG.encode() + b"\n",
    "NUL": b"extends: sochi\n\0\0\0\n",
    "bad UTF-8": b"extends: sochi\ntitle: \xff\xfe\n",
    "a tag": b"extends: sochi\ntitle: !!python/name:os.system\n",
    "a bidi title": "extends: sochi\ntitle: x\u202ey\n".encode(),
    "a cycle": b"extends: cycle2.yaml\n",
    "a chain of 9": b"extends: chain1.yaml\n",
}


def inputs() -> dict[str, tuple[str, bytes, str]]:
    """Every hostile input: name -> (suffix, content, kind)."""
    out = {
        name: (suffix, make(SIZES.get(name, 3000)), GOOD.get(name, "log"))
        for name, (suffix, make) in hostile.INPUTS.items()
    }
    return out | EXTRA


def expected(kind: str, command: str) -> set[int]:
    """The exit statuses ``command`` may end with on an input of ``kind``."""
    if command == "settle":
        return {0} if kind == "sheet" else {1}
    if kind == "bad convention":  # compare plays every built-in, convert reads no convention
        return {0} if command in ("compare", "convert") else {1}
    if kind not in ("good", "empty"):
        return {1}
    if command == "dispute" and kind == "empty":
        return {2}  # usage: --deal 1 names no deal
    return {0, 1} if command == "check" else {0}  # check: 1 when it finds something


LOCATED = r"(:\d+(:\d+)?)?: \S"
#: what no line written for a person may hold: C0/C1 controls but tab, bidi controls
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def located(path: str, text: str, whole_file: bool = False) -> bool:
    """Does ``text`` start with a problem located in ``path`` (as typed)?"""
    where = LOCATED if whole_file else r":\d+(:\d+)?: \S"
    return re.match(re.escape(path) + where, text) is not None
