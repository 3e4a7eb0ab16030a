"""Russian all through (issue 28 item 3): every command, in the formats people read (table and
text), on every shipped example log and on a few broken inputs, under ``--lang ru``, writes no
Latin word but the few a Russian reader is meant to see as they are (:data:`ALLOWED`, each
with its reason).  json/jsonl/csv/tsv keep English keys and are not read here."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import get_args

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import COMMANDS, app
from pulyacalc.convention.dump import shown
from pulyacalc.convention.load import builtin_names, load
from pulyacalc.convention.schema import SCHEMA
from pulyacalc.core import i18n
from pulyacalc.core.errors import Problems
from pulyacalc.core.kinds import FindingCode, RuleId
from pulyacalc.logs.header import HEADER
from pulyacalc.logs.read import read_log

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands name the shipped examples as a user in the repository does."""
    monkeypatch.chdir(ROOT)


LOGS = sorted(
    str(p.relative_to(ROOT))
    for p in [*(ROOT / "examples").glob("*.txt"), *(ROOT / "examples").glob("*-3p.yaml")]
    + [ROOT / "examples/leningrad-4p.yaml", ROOT / "examples/house-rules/evening.txt"]
)
SHEETS = ["examples/sheet.yaml", "examples/leningrad-50-sheet.yaml"]
BROKEN = {
    # a line log with a wrong name, a word that is not a call, tricks that do not add up
    "broken.txt": "players: Аня Боря Вера\nконвенция: сочи\n\nАня 6♠ 7, Боря вист 2, Вера пас 3\n"
    "Аня 7♠ 7, Бора вист 2, Вера пас 1\nАня 6♠ 6, Боря висть 4, Вера пас\n",
    # a header key misspelt, a sheet that does not add up
    "header.txt": "игроки: Аня Боря Вера\nконвенциа: сочи\n\nАня 6♠ 6, Боря вист 4, Вера пас\n",
    "sheet.yaml": "players: [Аня, Боря, Вера]\nconvention: sochi\npool: 10\nsheet:\n"
    "  Аня: {pool: 12, mountain: x, whists: {Боря: 0, Вера: 0}}\n",
}


def commands(tmp: Path) -> list[list[str]]:
    """Every command and subcommand, on every example it reads."""
    out: list[list[str]] = [
        ["new", "--players", "Аня Боря Вера", "-c", "sochi"],
        ["new", "--players", "Аня Боря Вера Глеб", "-c", "leningrad"],
        ["prices"],
        ["prices", "-c", "leningrad", "-n", "4"],
        ["season", "examples"],
        ["stats", "examples"],
        ["stats", "examples", "--player", "Anna"],
        ["conventions", "list"],
        ["conventions", "show", "sochi"],
        ["conventions", "diff", "sochi", "leningrad"],
        *[["settle", s, "--whist-price", "0.5"] for s in SHEETS],
    ]
    for log in LOGS:
        out += [
            ["score", log, "--whist-price", "1"],
            ["explain", log],
            ["explain", log, "--deal", "4"],
            ["ledger", log, "--running"],
            ["sheet", log, "-o", "-"],
            ["check", log],
            ["compare", log],
            ["dispute", log, "--deal", "3"],
            ["convert", log, "--lang", "ru", "--to", "lines"],
        ]
    for name, text in BROKEN.items():
        path = tmp / name
        path.write_text(text, encoding="utf-8")
        verb = "settle" if name.endswith(".yaml") else "score"
        out += [[verb, str(path)], ["check", str(path)], ["explain", str(path)]]
    return out


def names() -> set[str]:
    """The players' names of every log read (whoever sits at the table, joins included)."""
    found = {"A", "B", "C", "One", "Two", "Three", "Four"}  # the sheets' players
    for log in LOGS:
        parsed = read_log(str(ROOT / log), None, Problems())
        found |= set(parsed.header.players) | {getattr(d, "player", "") for d in parsed.deals}
    return found


def allowed() -> set[str]:
    """Every Latin word a Russian reader is meant to see as it is, and why."""
    words: set[str] = set()
    # what a user types: convention keys and their parts, their choices, the built-ins' names,
    # rule ids (explain's rule column, check's codes), the program and its commands
    for key in SCHEMA.values():
        words |= set(key.name.split(".")) | set(key.choices)
    for name in builtin_names():  # the values a convention file holds (``trick``, ``once_closed``)
        conv = load(name)
        words |= {w for key in SCHEMA.values() for w in re.findall(r"[A-Za-z_]+", str(shown(conv, key)))}
    # a log's header keys and a convention file's own keys (conventions show writes one),
    # and YAML's truth values under them
    words |= {row.key for row in HEADER} | {
        "deals",
        "overrides",
        "name",
        "title",
        "aliases",
        "extends",
        "true",
        "false",
    }
    words |= set(builtin_names()) | set(get_args(RuleId)) | set(get_args(FindingCode))
    words |= {"pulyacalc", *COMMANDS, "conventions", "list", "show", "diff", "lines", "yaml"}
    # a convention's title is data (conventions/*.yaml, the house file): «Сочинка (Sochi)»
    for name in builtin_names():
        words |= set(re.findall(r"[A-Za-z]+", load(name).title))
    words |= {"Thursday", "house", "rules"}  # examples/house-rules/house.yaml's own title
    # the rating's method by its proper name (stats' title)
    words |= {"openskill", "Plackett", "Luce"}
    # symbols in a formula: a trick's price v, the n-th raspasy, (n − 1) opponents
    words |= {"v", "n"}
    return words | names()


#: kept as written: a file name or path; the Code and its clauses as docs/RULES.md cites them
#: (K4.2.12, «K, примечание 40»); a card (A♠ K♥: the ranks' letters printed on the cards)
KEPT = re.compile(
    r"(?<![\w-])--?[a-z][\w-]*|\S*[/\\]\S*|\b[\w-]+\.(txt|yaml|md|pulya)\b|\bK(\d[\d.]*)?\b|§[\d.]+|\b(10|[AKQJ2-9])[♠♣♦♥]"
)


def latin(text: str, allow: set[str]) -> set[str]:
    text = re.sub(r"'[^'\n]*'", " ", KEPT.sub(" ", text))  # quoted: what the user typed, as typed
    return {w for w in re.findall(r"[A-Za-z][A-Za-z_]*", text) if w not in allow}


def test_no_latin_word_under_lang_ru(tmp_path: Path) -> None:
    allow, runner, left = allowed(), CliRunner(), []
    for args in commands(tmp_path):
        r = runner.invoke(app, ["--lang", "ru", *args], prog_name="pulyacalc")
        i18n.use("en")
        assert r.exit_code in (0, 1), (args, r.output)
        assert "Traceback" not in r.output
        said = r.output
        if args[0] == "sheet":  # a drawing: what it writes on the paper
            said = "\n".join(re.findall(r">([^<]+)<", re.sub(r"<style>.*?</style>", "", said, flags=re.S)))
        if args[0] == "convert":  # the notes a log's writer wrote are his text
            said = re.sub(r"  #.*", "", said)
        for line in said.splitlines():
            if found := latin(line, allow):
                left.append(f"{' '.join(args[:2])}: {sorted(found)} in {line.strip()[:160]!r}")
    assert not left, "\n".join(dict.fromkeys(left))


#: an evening kept with `play` in Russian: the questions, a deal, a mistake, every command
PLAY_TYPED = (
    "Аня Боря Вера\nсочи\n10\nАня 6♠ 7, Боря вист 2, Вера пас 1\nБоря 7x, Вера пас\n"
    "Боря 7БК, Вера пас, Аня пас\nлист\nобъясни 1\nсчёт\nотмена\nисправить 1\n"
    "Аня 6♠ 8, Боря вист 1, Вера пас 1\nвзятку вернули\nпомощь\nконец\n\n"
)


def test_play_speaks_russian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`play` is a command too: its questions, echoes, messages and commands' output."""
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["--lang", "ru", "play", "r.txt"], input=PLAY_TYPED, prog_name="pulyacalc")
    i18n.use("en")
    assert r.exit_code == 1 and "неизвестная масть 'x'" in r.output, r.output  # the refused line
    assert "отменено: Боря 7БК" in r.output and "поправка" in (tmp_path / "r.txt").read_text("utf-8")
    allow = allowed() | {"x"}  # the suit typed wrong, quoted back
    left = [line for line in r.output.splitlines() if latin(re.sub(r"`[^`]*`", "", line), allow)]
    assert not left, "\n".join(left)


def test_every_command_is_walked(tmp_path: Path) -> None:
    walked = {args[0] for args in commands(tmp_path)} | {"play"}
    assert set(COMMANDS) <= walked, set(COMMANDS) - walked


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="the plot extra")
def test_the_plot_axes_are_russian(tmp_path: Path) -> None:
    svg = tmp_path / "season.svg"
    r = CliRunner().invoke(
        app, ["--lang", "ru", "season", "examples", "--plot", str(svg)], prog_name="pulyacalc"
    )
    i18n.use("en")
    assert r.exit_code == 0, r.output
    # matplotlib writes each text it draws beside its glyphs, as a comment
    drawn = [t.strip() for t in re.findall(r"<!-- (.*?) -->", svg.read_text("utf-8"))]
    assert {"вечер", "начало"} <= set(drawn)
    evenings = {p.stem for p in (ROOT / "examples").rglob("*")}  # the ticks: file names
    assert not [t for t in drawn if t not in evenings and latin(t, allowed())], drawn
