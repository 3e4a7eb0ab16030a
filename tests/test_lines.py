"""The line log: tables of good lines (what they read as) and bad lines (exact message and
column), the docs' examples against their YAML twins, Russian against English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import Loc, Problems, PulyaError
from pulyacalc.core.model import Call, Contract, Play, Raspasy, Suit
from pulyacalc.logs.lines import parse_deal_line
from pulyacalc.logs.read import detect_format, read_text
from pulyacalc.logs.write import deal_key
from pulyacalc.play import score_file

ROOT = Path(__file__).resolve().parent.parent
P3 = ("Anna", "Boris", "Vera")
P4 = ("Anna", "Boris", "Vera", "Dan")
runner = CliRunner()


def read(line: str, players: tuple[str, ...] = P3, number: int | None = None) -> tuple[object, list[str]]:
    problems = Problems()
    deal = parse_deal_line(line, Loc("f", 1, 1), players, problems, source=line, expected_number=number)
    return deal, [f"{p.loc.column}: {p.message}" + (f"; {p.hint}" if p.hint else "") for p in problems.items]


S, C, D, H, NT = Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.NO_TRUMP
W, PS, HF = Call.WHIST, Call.PASS, Call.HALF

GOOD = [
    # line, expected deal
    (
        "Anna 6♠ 7, Boris whist 2, Vera pass 1",
        Play("Anna", Contract(6, S), {"Boris": W, "Vera": PS}, {"Anna": 7, "Boris": 2, "Vera": 1}),
    ),
    (
        "anna 6s 7, BORIS whist 2, v pass 1",
        Play("Anna", Contract(6, S), {"Boris": W, "Vera": PS}, {"Anna": 7, "Boris": 2, "Vera": 1}),
    ),
    (
        "An 6п 7, Bo вист 2, Ve пас 1",
        Play("Anna", Contract(6, S), {"Boris": W, "Vera": PS}, {"Anna": 7, "Boris": 2, "Vera": 1}),
    ),
    (
        "Anna 6 пик 7, Boris вист 2, Vera пас 1",
        Play("Anna", Contract(6, S), {"Boris": W, "Vera": PS}, {"Anna": 7, "Boris": 2, "Vera": 1}),
    ),
    ("Anna 6 пики 7, Boris whist", Play("Anna", Contract(6, S), {"Boris": W}, {"Anna": 7})),
    ("Boris 7NT, Vera pass, Anna pass", Play("Boris", Contract(7, NT), {"Vera": PS, "Anna": PS}, {})),
    ("Boris 7 БК, Vera пас, Anna пас", Play("Boris", Contract(7, NT), {"Vera": PS, "Anna": PS}, {})),
    ("Boris 7бк, Vera pass, Anna pass", Play("Boris", Contract(7, NT), {"Vera": PS, "Anna": PS}, {})),
    (
        "Boris 10h 10, Vera whist 0, Anna pass",
        Play("Boris", Contract(10, H), {"Vera": W, "Anna": PS}, {"Boris": 10, "Vera": 0}),
    ),
    ("Boris 8 червы 8, Vera whist", Play("Boris", Contract(8, H), {"Vera": W}, {"Boris": 8})),
    ("Boris 9 трефы 9, Vera whist", Play("Boris", Contract(9, C), {"Vera": W}, {"Boris": 9})),
    ("Boris 6 бубны 6, Vera whist", Play("Boris", Contract(6, D), {"Vera": W}, {"Boris": 6})),
    ("Boris 6♦️ 6, Vera whist", Play("Boris", Contract(6, D), {"Vera": W}, {"Boris": 6})),
    ("Vera 6♣, Anna pass, Boris half", Play("Vera", Contract(6, C), {"Anna": PS, "Boris": HF}, {})),
    ("Vera 6т, Anna пас, Boris полвиста", Play("Vera", Contract(6, C), {"Anna": PS, "Boris": HF}, {})),
    ("Vera misere 1", Play("Vera", Contract.misere(), {}, {"Vera": 1})),
    ("Vera misère 0", Play("Vera", Contract.misere(), {}, {"Vera": 0})),
    (
        "Vera мизер 0, Anna 4, Boris 6",
        Play("Vera", Contract.misere(), {}, {"Vera": 0, "Anna": 4, "Boris": 6}),
    ),
    ("Anna: 6♠ 7, Boris: whist 2", Play("Anna", Contract(6, S), {"Boris": W}, {"Anna": 7, "Boris": 2})),
    ("Anna pass 4, Boris pass 1, Vera pass 5", Raspasy({"Anna": 4, "Boris": 1, "Vera": 5})),
    ("raspasy Anna 4, Boris 1, Vera 5", Raspasy({"Anna": 4, "Boris": 1, "Vera": 5})),
    ("распасы: Anna 4, Boris 1, Vera 5", Raspasy({"Anna": 4, "Boris": 1, "Vera": 5})),
    ("Raspasy Anna 4, Boris pass 1, Vera 5", Raspasy({"Anna": 4, "Boris": 1, "Vera": 5})),
    (
        "1. Anna 6♠ 7, Boris whist 2, Vera pass 1",
        Play("Anna", Contract(6, S), {"Boris": W, "Vera": PS}, {"Anna": 7, "Boris": 2, "Vera": 1}),
    ),
    (
        "Anna 6♠, Boris pass, Vera pass, dealer Boris",
        Play("Anna", Contract(6, S), {"Boris": PS, "Vera": PS}, {}, dealer="Boris"),
    ),
    (
        "сдаёт vera, Anna 6♠, Boris pass, Vera pass",
        Play("Anna", Contract(6, S), {"Boris": PS, "Vera": PS}, {}, dealer="Vera"),
    ),
]

GOOD4 = [
    (
        "Anna pass 4, Boris pass 1, Vera pass 5, Dan talon 0",
        Raspasy({"Anna": 4, "Boris": 1, "Vera": 5, "Dan": 0}),
    ),
    ("raspasy Anna 4, Boris 1, Vera 4, Dan 1", Raspasy({"Anna": 4, "Boris": 1, "Vera": 4, "Dan": 1})),
    (
        "Anna пас 4, Boris пас 1, Vera пас 4, Dan прикуп 1",
        Raspasy({"Anna": 4, "Boris": 1, "Vera": 4, "Dan": 1}),
    ),
]


@pytest.mark.parametrize(("line", "want"), GOOD, ids=[g[0] for g in GOOD])
def test_good_lines(line: str, want: Play | Raspasy) -> None:
    deal, problems = read(line, number=1)
    assert problems == []
    assert deal is not None
    assert deal_key(deal) == deal_key(want)


@pytest.mark.parametrize(("line", "want"), GOOD4, ids=[g[0] for g in GOOD4])
def test_good_lines_four_players(line: str, want: Raspasy) -> None:
    deal, problems = read(line, P4)
    assert problems == []
    assert deal is not None and deal_key(deal) == deal_key(want)


BAD = [
    # line, [column: message] of every problem
    (
        "Anna 6x 7, Boris whist 2, Vera pass 1",
        ["6: unknown suit 'x' in '6x'; x is ч on the Russian layout: 6♥?"],
    ),
    ("Anna 6♠ 7, Bors whist 2, Vera pass 1", ["12: unknown player 'Bors'; did you mean Boris?"]),
    ("Anna 6♠ 7, B whist 2, Vera pass 1", []),  # 'B' is a unique prefix of Boris
    ("Anna 6♠ 7, Xenia whist 2", ["12: unknown player 'Xenia'; players: Anna, Boris, Vera"]),
    ("Anna 5♠ 7, Boris whist", ["6: no contract '5♠': the level is 6, 7, 8, 9 or 10"]),
    ("Anna 11♠ 7, Boris whist", ["6: no contract '11♠': the level is 6, 7, 8, 9 or 10"]),
    ("Anna 6 7, Boris whist", ["6: the contract '6' needs a suit; e.g. 6♠, 6s or 6NT"]),
    ("Anna 6♠ 7, Boris wist 2", ["18: unknown call 'wist'; did you mean 'whist'?"]),
    ("Anna 6♠ 7, Boris whist 2, Vera pas 1", []),
    ("Anna 6♠ 7, Boris whist 12", ["24: 12 is not a number of tricks; a count is 0..10"]),
    (
        "Anna 6♠ 7, Boris",
        ["17: what did Boris say?; add a call: a contract like 6♠, whist, pass, half or misere"],
    ),
    ("Anna 6♠ 7,, Boris whist", ["11: an empty clause between commas; remove the extra comma"]),
    ("Anna 6♠ 7, Anna whist", ["12: Anna is named twice in one deal; one clause per player"]),
    (
        "Anna 6♠ 7, Boris 7♠ 7",
        ["18: a second contract in one deal (Anna already declared 6♠); one declarer per deal"],
    ),
    (
        "Boris whist 2, Vera pass 1",
        ["7: Boris whists, but nobody declared a contract; the declarer's clause is like 'Anna 6♠ 7'"],
    ),
    (
        "Anna 4, Boris 1, Vera 5",
        [
            "1: Anna: tricks without a call, and no contract in this deal; a contract needs a suit, like 7♠; "
            "on raspasy write 'Anna pass 4' or start the line with 'raspasy'"
        ],
    ),
    (
        "Anna pass 4, Boris pass, Vera pass 5",
        ["24: everyone passed, so this is raspasy: give Boris's tricks; e.g. 'Boris pass 3'"],
    ),
    (
        "raspasy Anna 6♠ 7, Boris whist 2, Vera pass 1",
        ["1: a deal with a contract (Anna 6♠) is not raspasy; drop the word, or the contract"],
    ),
    (
        "Anna 6♠ 7, Boris whist 2, Vera talon 1",
        ["32: talon tricks are written only on raspasy; the dealer takes no tricks in a contract"],
    ),
    (
        "Anna pass 4, Boris pass 1, Vera talon",
        ["38: how many tricks did Vera take from the talon?; e.g. 'Vera talon 1'"],
    ),
    ("Anna 6♠, dealer Xenia", ["17: the dealer 'Xenia' is not a player; players: Anna, Boris, Vera"]),
    ("Anna 6♠, dealer", ["10: write the dealer as 'dealer NAME'"]),
    (
        "3. Anna 6♠ 7, Boris whist",
        ["1: deal number 3, but this is deal 2; fix the number, or look for a missing or extra deal above"],
    ),
    (
        "Anna 6♠ 7, Bors wist 2, Vera pass 11",
        [
            "12: unknown player 'Bors'; did you mean Boris?",
            "35: 11 is not a number of tricks; a count is 0..10",
        ],
    ),
]


@pytest.mark.parametrize(("line", "want"), BAD, ids=[b[0] for b in BAD])
def test_bad_lines(line: str, want: list[str]) -> None:
    deal, problems = read(line, number=2)
    assert problems == want
    assert (deal is None) == bool(want)


def test_ambiguous_prefix() -> None:
    _, problems = read("Al 6♠ 7, Ann whist 2", ("Anna", "Anton", "Alla"))
    assert problems == []  # 'Al' can only be Alla, 'Ann' only Anna
    _, problems = read("An 6♠ 7", ("Anna", "Anton", "Alla"))
    assert problems == ["1: unknown player 'An'; 'An' could be Anna or Anton: write more letters"]


def test_caret_echo_under_the_bad_word() -> None:
    problems = Problems()
    line = "Anna 6♠ 7, Bors whist 2, Vera pass 1"
    parse_deal_line(line, Loc("e.txt", 4, 1), P3, problems, source=line)
    assert problems.items[0].format() == (
        "e.txt:4:12: unknown player 'Bors'; did you mean Boris?\n"
        "    Anna 6♠ 7, Bors whist 2, Vera pass 1\n"
        "               ^^^^"
    )


# -- whole files ----------------------------------------------------------------------------


def problems_of(text: str, name: str = "t.txt") -> list[str]:
    """Every problem of a log (read + rules), as 'LINE:COLUMN: message' plus the caret line."""
    path = Path(_tmp) / name
    path.write_bytes(text.encode("utf-8"))
    try:
        score_file(str(path))
    except PulyaError as e:
        out = []
        for p in e.problems:
            caret = p.format().split("\n")[2].strip() if p.source else "-"
            out.append(f"{p.loc.line}:{p.loc.column}: {p.message} [{caret}]")
        return out
    return []


_tmp = ""


@pytest.fixture(autouse=True)
def _tmpdir(tmp_path: Path) -> None:
    global _tmp
    _tmp = str(tmp_path)


HEAD = "players: Anna Boris Vera\n"

BAD_FILES = [
    # rule problems are located at the right word of the line, with a caret
    (
        HEAD + "Anna 6♠ 7, Boris whist 2, Vera pass 2\n",
        ["2:1: tricks add up to 11, more than 10 [" + "^" * 37 + "]"],
    ),
    (
        HEAD + "Anna 6♠ 7, Boris whist 2, Vera whist 2\n",
        ["2:1: tricks add up to 11, more than 10 [" + "^" * 38 + "]"],
    ),
    (
        HEAD + "Anna 6♠ 6, Boris whist 2, Vera pass 1\n",
        ["2:1: tricks add up to 9, not 10 [" + "^" * 37 + "]"],
    ),
    (
        HEAD + "Anna pass 4, Boris pass 1, Vera pass 4\n",
        ["2:1: raspasy tricks add up to 9, not 10 [" + "^" * 38 + "]"],
    ),
    (HEAD + "Anna 8♠ 8, Boris pass, Vera half\n", ["2:29: half-whist is not allowed on 8♠ (K3.8.7) [^^^^]"]),
    (
        HEAD + "Anna 6♠ 6, Boris half, Vera pass\n",
        ["2:18: only the second defender may go half-whist, after the first defender passed (K3.8.7) [^^^^]"],
    ),
    (HEAD + "Anna 6♠, Boris whist, Vera pass\n", ["2:8: the declarer Anna's tricks are missing [^]"]),
    (HEAD + "Vera misere\n", ["2:12: the misère needs Vera's tricks [^]"]),
    (
        HEAD + "Anna 6♠ 7, Boris pass 2, Vera pass 1\n",
        ["2:1: both defenders passed: 6♠ is not played, so no tricks are written [" + "^" * 36 + "]"],
    ),
    (
        HEAD + "Anna 6♠ 7, Vera whist\n",
        ["2:1: Boris must whist, pass or go half-whist on 6♠ [" + "^" * 21 + "]"],
    ),
    (
        HEAD + "Anna pass 4, Boris pass 1, Vera talon 5\n",
        ["2:33: Vera plays this deal: only the 4-player dealer, who sits out, takes talon tricks [^^^^^]"],
    ),
    (
        "players: Anna Boris Vera Dan\nDan 6♠ 7, Anna whist 2, Boris pass 1\n",
        ["2:1: Dan deals this deal and sits out: the 4-player dealer does not bid [^^^]"],
    ),
    (
        "players: Anna Boris Vera Dan\nAnna pass 4, Boris pass 1, Vera pass 2, Dan talon 3\n",
        ["2:51: Dan deals this deal and sits out: from the talon he can take at most 2 tricks, not 3 [^]"],
    ),
    # header problems point at the key or value and echo the line
    (
        "players: Anna Boris Vera\nwhist.on_failre: gentleman\nAnna 6♠, Boris pass, Vera pass\n",
        ["2:1: unknown header key 'whist.on_failre' [^^^^^^^^^^^^^^^]"],
    ),
    (
        "players: Anna Boris Vera\ndealr: Vera\nAnna 6♠, Boris pass, Vera pass\n",
        ["2:1: unknown header key 'dealr' [^^^^^]"],
    ),
    ("players: Anna Boris Vera\ndealer: Xenia\n", ["2:9: the dealer 'Xenia' is not a player [^^^^^]"]),
    (
        "players: Anna Boris Vera Gleb Dima Elena\n",
        ["1:10: Preferans is played by 2 to 5 players, the log names 6 [^^^^]"],
    ),
    (
        "players: Anna Boris Vera\ndealer: Vera\ndealer: Anna\n",
        ["3:1: header 'dealer' is given twice, first at line 2, column 1 [^^^^^^]"],
    ),
    (
        HEAD + "Anna 6♠, Boris pass, Vera pass\npool: 20\n",
        ["3:1: header lines go before the first deal [^^^^]"],
    ),
    # every problem of the file at once, rule and reading problems together
    (
        HEAD + "1. Anna 6♠ 7, Boris whist 2, Vera pass 1\n3. Boris 7NT, Vera pass, Anna pass\n"
        "Anna 6♠ 7, Bors whist 2\n",
        ["3:1: deal number 3, but this is deal 2 [^]", "4:12: unknown player 'Bors' [^^^^]"],
    ),
]


@pytest.mark.parametrize(("text", "want"), BAD_FILES, ids=[str(i) for i in range(len(BAD_FILES))])
def test_bad_files(text: str, want: list[str]) -> None:
    assert problems_of(text) == want


def test_windows_line_endings_and_bom() -> None:
    text = "\ufeffplayers: Anna Boris Vera\r\n\r\nAnna 6♠ 7, Boris whist 2, Vera pass 1\r\nAnna 6x\r\n"
    assert problems_of(text) == ["4:6: unknown suit 'x' in '6x' [^^]"]
    good = text.replace("Anna 6x\r\n", "")
    assert problems_of(good) == []


def test_note_and_comment() -> None:
    log = read_text(HEAD + "# only a comment\nAnna 6♠ 7, Boris whist 2, Vera pass 1  # Boris # misplayed\n")
    (deal,) = list(log.deals)
    assert deal.note == "Boris # misplayed"


def test_line_logs_stream() -> None:
    lines = iter([HEAD] + ["Anna 6♠, Boris pass, Vera pass\n"] * 5)
    from pulyacalc.logs.lines import parse_stream

    log = parse_stream(lines, "s.txt", Problems())
    deals = iter(log.deals)
    next(deals)
    assert len(list(lines)) == 4  # the stream was read one deal at a time


@pytest.mark.parametrize(
    ("name", "text", "fmt"),
    [
        ("x.yaml", "players: Anna Boris Vera\n", "yaml"),
        ("x.txt", "players: [Anna, Boris, Vera]\n", "lines"),
        ("-", "players: [Anna, Boris, Vera]\nAnna 6♠, Boris pass, Vera pass\n", "lines"),
        ("-", "players: [Anna, Boris, Vera]\ndeals:\n  - raspasy: {Anna: 4}\n", "yaml"),
        ("-", "# c\nplayers:\n  - Anna\n", "yaml"),
        ("-", "players: A B C\nA: 6♠ 7, B: whist 2\n", "lines"),
    ],
)
def test_detect_format(name: str, text: str, fmt: str) -> None:
    assert detect_format(name, text) == fmt


# -- twins ------------------------------------------------------------------------------------


def doc_examples(path: Path) -> dict[str, dict[str, str]]:
    text = path.read_text(encoding="utf-8")
    out: dict[str, dict[str, str]] = {}
    for m in re.finditer(r"```(lines|yaml) example=(\w+)\n(.*?)```", text, re.S):
        out.setdefault(m.group(2), {})[m.group(1)] = m.group(3)
    return out


EXAMPLES = doc_examples(ROOT / "docs" / "format.md")


def score_json(text: str, name: str) -> str:
    path = Path(_tmp) / name
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["score", str(path), "-f", "json"], prog_name="pulyacalc")
    assert result.exit_code == 0, result.output
    return result.stdout


def test_docs_have_examples() -> None:
    assert set(EXAMPLES) >= {"interface", "overrides", "four", "russian"}
    assert all(set(v) == {"lines", "yaml"} for v in EXAMPLES.values())


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_docs_examples_score_like_their_yaml_twins(name: str) -> None:
    pair = EXAMPLES[name]
    assert score_json(pair["lines"], "a.txt") == score_json(pair["yaml"], "a.yaml")


def test_overrides_change_the_score() -> None:
    pair = EXAMPLES["overrides"]
    plain = "\n".join(line for line in pair["lines"].splitlines() if "." not in line.split(":")[0])
    assert score_json(plain, "p.txt") != score_json(pair["lines"], "o.txt")


INTERFACE_LINES = """# comments start with #
players: Anna Boris Vera
dealer: Vera
convention: sochi
pool: 20

Anna 6♠ 7, Boris whist 2, Vera pass 1
Boris 7NT, Vera pass, Anna pass
Vera misere 1
Anna pass 4, Boris pass 1, Vera pass 5
Boris 6♦ 5, Vera whist 3, Anna pass 2
Vera 6♣, Anna pass, Boris half
"""

RUSSIAN = """игроки: Анна Борис Вера
сдаёт: Вера
пуля: 20
ан 6п 7, бор вист 2, вер пас 1
бор 7 бк, вер пас, ан пас
вер мизер 1
распасы ан 4, бор 1, вер 5
бор 6 бубен 5, вер вист 3, ан пас 2
вер 6т, ан пас, бор полвиста
"""

ENGLISH_WITH_RUSSIAN_NAMES = """players: Анна Борис Вера
dealer: Вера
pool: 20
Анна 6♠ 7, Борис whist 2, Вера pass 1
Борис 7NT, Вера pass, Анна pass
Вера misere 1
Анна pass 4, Борис pass 1, Вера pass 5
Борис 6♦ 5, Вера whist 3, Анна pass 2
Вера 6♣, Анна pass, Борис half
"""


def test_interface_example_is_in_the_docs() -> None:
    assert EXAMPLES["interface"]["lines"] == INTERFACE_LINES


def test_russian_words_and_letters_score_like_english_symbols() -> None:
    assert score_json(RUSSIAN, "ru.txt") == score_json(ENGLISH_WITH_RUSSIAN_NAMES, "en.txt")
    latin = (
        INTERFACE_LINES.replace("6♠", "6s")
        .replace("7NT", "7nt")
        .replace("6♦", "6 d")
        .replace("6♣", "6C")
        .replace("whist", "w")
        .replace("misere", "misère")
    )
    assert score_json(latin, "l.txt") == score_json(INTERFACE_LINES, "i.txt")


def test_cli_reports_every_problem_with_carets_and_no_traceback() -> None:
    path = Path(_tmp) / "bad.txt"
    path.write_text(
        HEAD + "Anna 6♠ 7, Bors whist 2\nVera 6x\nAnna pass 4, Boris pass 1, Vera pass 4\n", encoding="utf-8"
    )
    result = runner.invoke(app, ["score", str(path)], prog_name="pulyacalc")
    assert result.exit_code == 1
    assert result.stdout == ""
    err = result.stderr
    assert "Traceback" not in err
    assert f"{path}:2:12: unknown player 'Bors'; did you mean Boris?\n" in err
    assert "               ^^^^\n" in err
    assert f"{path}:3:6: unknown suit 'x'" in err
    assert "pulyacalc: 3 problems" in err  # the deals that read are checked by the rules too


def test_input_format_forced() -> None:
    path = Path(_tmp) / "log.yaml"
    path.write_text(INTERFACE_LINES, encoding="utf-8")
    bad = runner.invoke(app, ["score", str(path)], prog_name="pulyacalc")
    assert bad.exit_code == 1
    good = runner.invoke(
        app, ["score", str(path), "--input-format", "lines", "-f", "json"], prog_name="pulyacalc"
    )
    assert good.exit_code == 0
    assert good.stdout == score_json(INTERFACE_LINES, "x.txt")


def test_every_part_of_a_deal_line_is_located_at_its_word() -> None:
    """Rule problems point at the part they are about (the contract, a call, tricks)."""
    text = "Anna 6♠ 7, Boris whist 2, Vera pass 1, dealer Vera"
    deal = parse_deal_line(text, Loc("t.txt", 3, 1), ("Anna", "Boris", "Vera"), Problems())
    assert isinstance(deal, Play)
    at = {part: loc.column for part, loc in deal.locs.items()}
    assert at["declarer"] == 1 and at["contract"] == text.index("6♠") + 1
    assert at["call:Boris"] == text.index("whist") + 1 and at["tricks:Boris"] == text.index("2") + 1
    assert at["dealer"] == text.rindex("Vera") + 1
