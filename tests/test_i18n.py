"""Russian for everything a person reads (issue 12 item 3): the catalogs, ``--lang``,
``PULYACALC_LANG`` and the locale variables, machine formats the same in both languages."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pulyacalc.core import i18n

ROOT = Path(__file__).resolve().parent.parent
LOG = "examples/sochi-3p.txt"


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def in_process(args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """The program's commands run in this process (as the other command tests run them),
    from the repository's root: the exit status, standard output and error.  For what the
    language changes in a command's output; how the language is chosen, and the program's
    own streams, are what the real processes below are for."""
    from typer.testing import CliRunner

    from pulyacalc.cli.app import app

    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(app, args, prog_name="pulyacalc")
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout, r.stderr


def run(
    args: list[str], env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """The program in a clean environment: no PULYACALC_LANG and no locale unless given."""
    full = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PULYACALC_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "PYTHONIOENCODING")
    }
    full["PYTHONUTF8"] = "1"
    full.update(env or {})
    code = "import sys; sys.argv = ['pulyacalc', *sys.argv[1:]]; from pulyacalc.cli.app import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=full,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )


# --- the catalogs ---------------------------------------------------------------------------


def test_the_committed_mo_is_the_compiled_po() -> None:
    tool = _tool()
    assert tool.mo_path("ru").read_bytes() == tool.compiled("ru"), (
        "pulyacalc/locale/ru/LC_MESSAGES/pulyacalc.mo is stale: run `python tools/i18n.py compile`"
    )


FIELD = re.compile(r"\{[^{}]*\}|%\(?\w*\)?[sdrf]")
#: Latin words a Russian translation may keep: names of formats, keys, options, variables,
#: conventions' file names and the Code's citations (K4.2.12)
LATIN_ALLOWED = {
    # formats, programs, options' values
    "json",
    "jsonl",
    "csv",
    "tsv",
    "yaml",
    "yml",
    "svg",
    "html",
    "png",
    "txt",
    "utf",
    # encodings by their codec and their own name (--encoding cp1251, «Windows-1251»)
    "cp",
    "Windows",
    "stdin",
    "stdout",
    "pip",
    "install",
    "matplotlib",
    "openskill",
    "Plackett",
    "Luce",
    "pulyacalc",
    "pulya",
    "ru",
    "en",
    "exact",
    "nearest",
    "opponents",
    "players",
    "kodeks",
    "kodeks_separate",
    "true",
    "false",
    "own",
    "table",
    "lines",
    "settle",
    "PULYACALC_LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_MESSAGES",
    "LANG",
    # the built-in conventions' names and the Code's abbreviations
    "sochi",
    "leningrad",
    "rostov",
    "classic",
    "gusarik",
    "piter",
    "Sochi",
    "K",
    "NT",
    "G",
    "x",
    # log and sheet keys and words a translation quotes so that a person can type them
    "settlement",
    "mountain_divisor",
    "extends",
    "sheet",
    "deals",
    "overrides",
    "convention",
    "pool",
    "mountain",
    "whists",
    "rounding",
    "dealer",
    "pass",
    "whist",
    "half",
    "misere",
    "raspasy",
    "talon",
    "tricks",
    "running",
    "aliases",
    "correction",
    "defenders",
    "declarer",
    "contract",
    "note",
    "reason",
    # commands and the values of convention keys, typed as they are
    "score",
    "explain",
    "check",
    "show",
    "diff",
    "conventions",
    "dark",
    "factor",
    "greedy",
    "gentleman",
    "side",
    "split",
    "second",
    "both",
    "stay",
    "restart",
    "slides",
    "stays",
    "any",
    "played",
    "FIFO",
    # metavariables and the example players of the docs; the seed texts' names (seed 001)
    "seed",
    "dummy",
    "first",
    "redeal",
    "next",
    "previous",
    "third",
    "FILE",
    "LOG",
    "N",
    "NAME",
    "PATH",
    "M",
    "GB",
    "MB",
    "Anna",
    "Boris",
    "Vera",
    # card codes (As = ace of spades, Kh = king of hearts)
    "As",
    "Kh",
}


def _latin_words(text: str) -> list[str]:
    # fields, option names (--whist-price), keys (raspasy.amnesty), citations (K4.2.12), quoted
    # log examples ('A 6♠ 7'), file names (sheet.yaml) and URLs are not words of the sentence
    text = FIELD.sub(" ", text)
    text = re.sub(r"pulyacalc( [a-z-]+)+", " ", text)  # a command to type
    text = re.sub(r"`[^`]*`|'[^']*'|\"[^\"]*\"|«[^»]*»", " ", text)
    text = re.sub(r"-{1,2}[\w-]+|\b\w+[._/:=]\w[\w./:=-]*|\b[A-Z]\d[\d.]*\w*", " ", text)
    # single letters: card and suit codes (A♠, s c d h), example players (A, B, C)
    text = re.sub(r"\b[A-Za-z]\b", " ", text)
    allowed = {w.lower() for w in LATIN_ALLOWED}
    return [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() not in allowed]


def test_every_catalog_entry_is_translated_keeping_its_fields() -> None:
    cat = _tool().read("ru")
    problems = []
    for msg in cat:
        if not msg.id:
            continue
        ids = [msg.id] if isinstance(msg.id, str) else list(msg.id)
        strings = [msg.string] if isinstance(msg.string, str) else list(msg.string)
        if msg.fuzzy or not all(s.strip() for s in strings):
            problems.append(f"untranslated: {ids[0]!r}")
            continue
        want = sorted(set(FIELD.findall(ids[-1])))
        for s in strings:
            got = sorted(set(FIELD.findall(s)))
            # a plural form may leave out {n} ("одна сдача"); never add or rename a field
            if not set(got) <= set(want) or (len(strings) == 1 and got != want):
                problems.append(f"fields differ: {ids[0]!r}: {want} vs {s!r}: {got}")
            left = _latin_words(s)
            if left:
                problems.append(f"English left in {s!r}: {left}")
    assert not problems, "\n".join(problems)


def test_russian_plural_forms() -> None:
    from pulyacalc.render.view import counted

    i18n.use("ru")
    assert [counted(n, "deal") for n in (1, 2, 5, 11, 21, 22, 25, 112)] == [
        "1 сдача",
        "2 сдачи",
        "5 сдач",
        "11 сдач",
        "21 сдача",
        "22 сдачи",
        "25 сдач",
        "112 сдач",
    ]
    i18n.use("en")
    assert [counted(n, "deal") for n in (1, 2)] == ["1 deal", "2 deals"]


# --- choosing the language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),
        ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),
        ({"LC_MESSAGES": "ru_RU.UTF-8"}, "ru"),
        ({"LANGUAGE": "ru:en", "LANG": "en_US.UTF-8"}, "ru"),
        ({"LANGUAGE": "de:ru"}, "ru"),
        ({"PULYACALC_LANG": "en", "LANG": "ru_RU.UTF-8"}, "en"),
        ({"PULYACALC_LANG": "ru", "LANG": "en_US.UTF-8"}, "ru"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_the_language_from_the_environment(
    env: dict[str, str], lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("PULYACALC_LANG", *i18n.LOCALE_VARS):
        monkeypatch.delenv(var, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    i18n.use()
    assert i18n.current() == lang
    i18n.use("en" if lang == "ru" else "ru")  # the option outranks the environment
    assert i18n.current() != lang


def test_english_reads_no_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    import gettext

    def refuse(*args: Any, **kw: Any) -> Any:
        raise AssertionError("English opened a catalog")

    monkeypatch.setattr(gettext, "translation", refuse)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    i18n.use("en")
    assert i18n._("pool") == "pool"
    i18n.use()
    assert i18n._("pool") == "pool"


def test_lang_ru_and_the_locale_print_russian() -> None:
    by_locale = run(["score", LOG, "--whist-price", "0.5"], {"LANG": "ru_RU.UTF-8"})
    assert by_locale.returncode == 0, by_locale.stderr
    out = by_locale.stdout
    for word in (
        "лист",
        "пуля",
        "гора",
        "висты → Boris",
        "расчёт",
        "итог",
        "деньги",
        "30 сдач",
        "пуля закрыта",
    ):
        assert word in out
    assert "Vera платит 76.00 → Anna" in out and "платежи:" in out
    assert "pool" not in out and "pays" not in out
    for args in (
        ["--lang", "ru", "score", LOG, "--whist-price", "0.5"],
        ["score", "--lang=ru", LOG, "--whist-price", "0.5"],
    ):
        r = run(args, {"LANG": "en_US.UTF-8"})
        assert r.returncode == 0, r.stderr
        assert r.stdout == out
    assert run(["score", LOG], {"PULYACALC_LANG": "ru", "LANG": "en_US.UTF-8"}).stdout.startswith(
        "Сочинка (Sochi), 3 игрока"
    )
    english = run(["--lang", "en", "score", LOG], {"LANG": "ru_RU.UTF-8"})
    assert english.stdout.startswith("Сочинка (Sochi), 3 players, pool to 20, 30 deals")


def test_errors_in_russian() -> None:
    r = run(
        ["score", "-", "--lang", "ru"], stdin="players: A B C\n\n1. A 6♠ 7, Bx whist 2, C pass 1\n2. A 6q 7\n"
    )
    assert r.returncode == 1
    assert "<stdin>:3:12: неизвестный игрок 'Bx'; может быть, B?" in r.stderr
    assert "неизвестная масть 'q' в '6q'; масти:" in r.stderr
    assert r.stderr.rstrip().endswith("pulyacalc: 2 ошибки")
    english = run(["score", "-"], stdin="players: A B C\n\n1. A 6♠ 7, Bx whist 2, C pass 1\n")
    assert "unknown player 'Bx'; did you mean B?" in english.stderr
    usage = run(["score", LOG, "-f", "xml"], {"LANG": "ru_RU.UTF-8"})
    assert usage.returncode == 2
    assert "Ошибка: Недопустимое значение '-f' / '--format'" in usage.stderr
    assert "Запуск: pulyacalc score" in usage.stderr
    assert "Error" not in usage.stderr and "Usage" not in usage.stderr


def test_a_bad_lang_is_usage_named() -> None:
    for args in (["--lang", "de", "score", LOG], ["score", LOG, "--lang", "xx"]):
        r = run(args)
        assert r.returncode == 2
        assert "'--lang'" in r.stderr and "'de'" in r.stderr or "'xx'" in r.stderr
    r = run(["score", LOG], {"PULYACALC_LANG": "klingon"})
    assert r.returncode == 2 and "PULYACALC_LANG='klingon'" in r.stderr


MACHINE = [
    ["score", LOG, "--whist-price", "0.5"],
    ["settle", "examples/sheet.yaml"],
    ["explain", LOG],
    ["ledger", LOG],
    ["check", LOG],
    ["compare", LOG],
    ["prices"],
    ["season", "examples"],
    ["stats", "examples"],
]


# every command's JSON; the other machine formats of the commands whose rows carry text
FORMATS = [(args, "json") for args in MACHINE] + [
    (args, fmt)
    for args in MACHINE
    if args[0] in ("score", "explain", "prices")
    for fmt in ("jsonl", "csv", "tsv")
]


@pytest.mark.parametrize(("args", "fmt"), FORMATS, ids=lambda a: a if isinstance(a, str) else a[0])
def test_machine_formats_are_the_same_bytes_in_both_languages(
    args: list[str], fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    en = in_process([*args, "-f", fmt, "--lang", "en"], monkeypatch)
    ru = in_process([*args, "-f", fmt, "--lang", "ru"], monkeypatch)
    assert en[:2] == ru[:2]
    assert en[1] or args[0] == "check"  # a clean check writes no finding


@pytest.mark.parametrize("encoding", ["cp1251", "cp866", "ascii"])
def test_a_russian_usage_error_under_a_narrow_encoding_does_not_crash(encoding: str) -> None:
    """Usage in Russian where standard error's encoding lacks characters (every command's
    output in Russian is run on such consoles, and into pipes, by tests/test_encodings.py)."""
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.argv = ['pulyacalc', *sys.argv[1:]]; from pulyacalc.cli.app import main; main()",
            *["--lang", "ru", "score", LOG, "-f", "xml"],
        ],
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if k != "PYTHONUTF8"}, "PYTHONIOENCODING": encoding},
        capture_output=True,
        check=False,
    )
    assert b"Traceback" not in r.stderr, r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2


# --- no English left under --lang ru ------------------------------------------------------

#: common English words: three of them in a row (outside quotes, names and keys) is a
#: sentence nobody translated
ENGLISH = set(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "from",
        "with",
        "without",
        "and",
        "or",
        "but",
        "not",
        "no",
        "nor",
        "is",
        "are",
        "was",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "as",
        "than",
        "then",
        "so",
        "if",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "how",
        "each",
        "every",
        "all",
        "any",
        "both",
        "one",
        "two",
        "three",
        "more",
        "most",
        "only",
        "also",
        "there",
        "here",
        "he",
        "his",
        "him",
        "they",
        "them",
        "their",
        "you",
        "your",
        "we",
        "our",
        "can",
        "cannot",
        "must",
        "may",
        "should",
        "would",
        "will",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "write",
        "written",
        "give",
        "given",
        "take",
        "takes",
        "took",
        "show",
        "shows",
        "shown",
        "print",
        "use",
        "used",
        "read",
        "reads",
        "run",
        "deal",
        "deals",
        "player",
        "players",
        "pool",
        "mountain",
        "whist",
        "whists",
        "result",
        "results",
        "settlement",
        "sheet",
        "table",
        "log",
        "file",
        "files",
        "line",
        "lines",
        "price",
        "made",
        "failed",
        "passed",
        "pass",
        "tricks",
        "trick",
        "contract",
        "declarer",
        "dealer",
        "sits",
        "out",
        "standard",
        "output",
        "input",
        "option",
        "options",
        "value",
        "error",
        "usage",
        "try",
        "help",
        "message",
        "exit",
        "convention",
        "conventions",
        "key",
        "keys",
        "evening",
        "evenings",
        "season",
        "rating",
        "number",
        "name",
        "names",
        "after",
        "before",
        "per",
        "over",
        "under",
        "up",
        "down",
        "into",
        "off",
        "same",
        "other",
        "others",
        "first",
        "second",
        "last",
        "next",
        "new",
        "see",
        "like",
        "e",
        "g",
        "is",
    ]
)


def _english_runs(text: str) -> list[str]:
    text = re.sub(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|«[^»\n]*»", " ", text)  # quoted: names, log text
    text = re.sub(r"pulyacalc( [a-z-]+)+", " ", text)  # a command to type
    found = []
    for line in text.splitlines():
        words = re.findall(r"[A-Za-z]+|[^\sA-Za-z]+", line)
        run: list[str] = []
        for w in words:
            if w.lower() in ENGLISH:
                run.append(w)
                if len(run) >= 3:
                    found.append(f"{' '.join(run)!r} in {line.strip()!r}")
                    run = []
            elif not re.fullmatch(r"[,.;:]", w):
                run = []
    return found


SWEEP = [
    ["score", LOG, "--whist-price", "0.5"],
    ["score", "examples/leningrad-4p.yaml", "--rounding", "nearest"],
    ["settle", "examples/sheet.yaml", "--whist-price", "1"],
    ["explain", LOG],
    ["explain", "examples/leningrad-4p.yaml"],
    ["ledger", LOG, "--whist-price", "0.5"],
    ["check", LOG],
    ["check", "docs/examples/mistakes.txt"],
    ["compare", LOG, "--whist-price", "1"],
    ["prices"],
    ["prices", "-n", "4"],
    ["season", "examples"],
    ["stats", "examples"],
    ["new", "--players", "Anna Boris Vera"],
    ["conventions", "list"],
    ["conventions", "show", "sochi"],
    ["conventions", "diff", "sochi", "leningrad"],
    ["check", LOG, "--against", "docs/examples/paper-wrong.yaml"],
    ["score", "examples/classic-3p.txt"],
    ["explain", "examples/classic-3p.txt"],
    ["prices", "-c", "classic"],
    ["dispute", LOG, "--deal", "3"],
    ["dispute", LOG, "--deal", "9"],
    ["score", "docs/examples/mistakes.txt"],
    ["score", "docs/examples/typo.txt"],
    ["score", LOG, "-f", "xml"],
    ["score", LOG, "--whist-price", "abc"],
    ["score", LOG, "--bogus"],
    ["score"],
    ["scor"],
    ["explain", LOG, "--deal", "999"],
    ["--help"],
    *[[c, "--help"] for c in ("new", "score", "settle", "explain", "ledger", "check", "compare")],
    *[[c, "--help"] for c in ("dispute", "convert", "prices", "season", "stats", "sheet")],
    ["conventions", "--help"],
    ["conventions", "list", "--help"],
]


def test_no_english_sentence_left_under_lang_ru(monkeypatch: pytest.MonkeyPatch) -> None:
    left = []
    for args in SWEEP:
        _, out, err = in_process(["--lang", "ru", *args], monkeypatch)
        assert "Traceback" not in err, err
        for where, text in (("stdout", out), ("stderr", err)):
            left += [f"{' '.join(args)} ({where}): {x}" for x in _english_runs(text)]
    assert not left, "\n".join(left)
