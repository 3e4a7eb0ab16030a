"""One header module (issue 8 item 4): the same header mistake gets the same message at the
same place in a YAML log, a line log (where the mistake can be written there) and a paper
sheet; only "the log" / "the sheet" may differ.  And the table in logs/header.py is the
one place a header key is spelt."""

from __future__ import annotations

import pytest

from pulyacalc.core.errors import Problems, PulyaError
from pulyacalc.core.model import Header
from pulyacalc.logs import header as header_module
from pulyacalc.logs.header import HEADER, HEADER_ALIASES, HEADER_KEYS, LOG_KEYS, SHEET_KEYS, header_values
from pulyacalc.logs.lines import parse_stream
from pulyacalc.logs.sheet_file import parse_sheet
from pulyacalc.logs.write import write_lines, write_yaml
from pulyacalc.logs.yaml_log import parse as parse_yaml_log

#: a found problem: (line, column, message, hint)
Found = tuple[int, int, str, str]

SHEET_ROWS = (
    "sheet:\n"
    "  Anna: {pool: 0, mountain: 0, whists: {Boris: 0, Vera: 0}}\n"
    "  Boris: {pool: 0, mountain: 0, whists: {Anna: 0, Vera: 0}}\n"
    "  Vera: {pool: 0, mountain: 0, whists: {Anna: 0, Boris: 0}}\n"
)


def _found(problems: Problems, error: PulyaError | None) -> list[Found]:
    items = list(problems.items) + (list(error.problems) if error is not None else [])
    out = {(p.loc.line or 0, p.loc.column or 0, p.message, p.hint) for p in items}
    return sorted(out)


def yaml_log(head: str) -> list[Found]:
    problems = Problems()
    try:
        parse_yaml_log(head + "deals: []\n", "t.yaml", problems)
    except PulyaError as e:
        return _found(problems, e)
    return _found(problems, None)


def line_log(head: str) -> list[Found]:
    problems = Problems()
    try:
        log = parse_stream(
            (head + "Anna 6♠ 7, Boris whist 2, Vera pass 1\n").splitlines(True), "t.txt", problems
        )
        list(log.deals)
    except PulyaError as e:
        return _found(problems, e)
    return _found(problems, None)


def sheet(head: str) -> list[Found]:
    try:
        parse_sheet(head + SHEET_ROWS, "t.yaml")
    except PulyaError as e:
        return [
            (ln, col, msg.replace("the sheet", "the log"), hint)
            for ln, col, msg, hint in _found(Problems(), e)
        ]
    return []


P = "players: Anna Boris Vera\n"
ALLOWED_LOG = (
    "allowed: players, dealer, dummy, convention, pool, rounding, date, title, place, deals, overrides"
)

MISTAKES = [
    # (what, header text, every problem (line, column, message, hint), the line log writes it too)
    (
        "unknown override key",
        P + "overrides:\n  whist.on_failre: gentleman\n",
        [
            (
                3,
                3,
                "unknown convention key 'whist.on_failre' under overrides",
                "did you mean 'whist.on_failure'? convention keys are like 'whist.on_failure' "
                "(see conventions/sochi.yaml)",
            )
        ],
        False,
    ),
    (
        "overrides not a mapping",
        P + "overrides: 5\n",
        [(2, 12, "overrides: expected a mapping of convention keys", "")],
        False,
    ),
    (
        "bad rounding",
        P + "rounding: sometimes\n",
        [(2, 11, "rounding: expected one of exact, kodeks, nearest, kodeks_separate, got 'sometimes'", "")],
        True,
    ),
    (
        "unknown player as dealer",
        P + "dealer: Xenia\n",
        [(2, 9, "the dealer 'Xenia' is not a player", "players: Anna, Boris, Vera")],
        True,
    ),
    (
        "dealer misspelt",
        P + "dealer: Vra\n",
        [(2, 9, "the dealer 'Vra' is not a player", "did you mean Vera?")],
        True,
    ),
    (
        "duplicate player",
        "players: Anna Boris Anna\n",
        [(1, 21, "player 'Anna' is listed twice", "")],
        True,
    ),
    (
        "six players",
        "players: Anna Boris Vera Gleb Dima Elena\n",
        [
            (
                1,
                10,
                "Preferans is played by 2 to 5 players, the log names 6",
                "list the players clockwise, e.g. 'players: Anna Boris Vera'",
            )
        ],
        True,
    ),
    (
        "a header key twice (in Russian the second time)",
        P + "dealer: Vera\nсдаёт: Anna\n",
        [(3, 1, "header 'сдаёт' is given twice, first at line 2, column 1", "keep one of them")],
        True,
    ),
    (
        "bad pool",
        P + "pool: 6:4\n",
        [(2, 7, "pool (the target): expected a whole number, got '6:4'", "")],
        True,
    ),
    (
        "unknown top-level key",
        P + "dealr: Vera\n",
        [(2, 1, "unknown key 'dealr' in the log", "did you mean 'dealer'? " + ALLOWED_LOG)],
        False,
    ),
]


@pytest.mark.parametrize(
    ("head", "want", "lines_too"), [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES]
)
def test_same_mistake_same_message_same_place(head: str, want: list[Found], lines_too: bool) -> None:
    assert yaml_log(head) == want
    sheet_want = [
        (ln, col, msg, hint.replace(ALLOWED_LOG, "allowed: " + ", ".join(SHEET_KEYS)))
        for ln, col, msg, hint in want
    ]
    assert sheet(head) == sheet_want
    if lines_too:
        assert line_log(head) == want


def test_the_line_log_names_its_own_mistakes_at_the_same_place() -> None:
    """A line log has no ``overrides:`` and no sections: an unknown key there may be a
    convention key, so it is an "unknown header key", but at the key all the same."""
    got = line_log(P + "dealr: Vera\nwhist.on_failre: gentleman\n")
    assert [(ln, col, msg) for ln, col, msg, _ in got] == [
        (2, 1, "unknown header key 'dealr'"),
        (3, 1, "unknown header key 'whist.on_failre'"),
    ]


def test_no_players() -> None:
    head = "dealer: Anna\n"
    hint = "start with 'players: Anna Boris Vera' (2 to 5 names, clockwise)"
    assert yaml_log(head) == [(1, 1, "the log does not say who plays", hint)]
    assert line_log(head) == [(1, 1, "the log does not say who plays", hint)]
    with pytest.raises(PulyaError) as e:
        parse_sheet(head + SHEET_ROWS, "t.yaml")
    assert [(p.message, p.hint) for p in e.value.problems] == [("the sheet does not say who plays", hint)]


def test_russian_header_keys_in_every_input() -> None:
    head = "игроки: Anna Boris Vera\nсдаёт: Boris\nконвенция: rostov\nпуля: 20\nокругление: exact\n"
    problems = Problems()
    logs = [
        parse_yaml_log(head + "deals: []\n", "t.yaml", problems).header,
        parse_stream(head.splitlines(True), "t.txt", problems).header,
        parse_sheet(head + SHEET_ROWS, "t.yaml").header,
    ]
    assert not problems
    for h in logs:
        assert (h.players, h.dealer, h.convention, h.pool, h.rounding) == (
            ("Anna", "Boris", "Vera"),
            "Boris",
            "rostov",
            20,
            "exact",
        )


def test_overrides_are_kept_alike() -> None:
    problems = Problems()
    y = parse_yaml_log(
        P + "overrides:\n  whist.on_failure: gentleman\ndeals: []\n", "t.yaml", problems
    ).header
    s = parse_sheet(P + "overrides:\n  whist.on_failure: gentleman\n" + SHEET_ROWS, "t.yaml").header
    ln = parse_stream((P + "whist.on_failure: gentleman\n").splitlines(True), "t.txt", problems).header
    assert not problems
    for h in (y, s, ln):
        assert [(k, v.text) for k, v in h.overrides] == [("whist.on_failure", "gentleman")]


def test_the_table_is_the_one_place() -> None:
    """Every name derived from the rows of HEADER: keys, aliases, the YAML keys, the writers."""
    assert HEADER_KEYS == (
        "players",
        "dealer",
        "dummy",
        "convention",
        "pool",
        "rounding",
        "date",
        "title",
        "place",
    )
    assert tuple(row.key for row in HEADER) == HEADER_KEYS
    assert (*HEADER_KEYS, "deals", "overrides") == LOG_KEYS
    assert (*HEADER_KEYS, "sheet", "running", "overrides") == SHEET_KEYS
    for row in HEADER:
        assert row.key in Header.__dataclass_fields__
        for spelling in (row.key, *row.aliases):
            assert HEADER_ALIASES[spelling.casefold()] == row.key
    assert len(HEADER_ALIASES) == sum(1 + len(row.aliases) for row in HEADER)
    assert header_module.__doc__ is not None and "the one place for a header key" in header_module.__doc__


def test_the_writers_follow_the_table() -> None:
    from pulyacalc.core.model import Log

    h = Header(("Anna", "Boris", "Vera"), dealer="Vera", convention="rostov", pool=20, rounding="kodeks")
    assert list(header_values(h)) == [
        ("dealer", "Vera"),
        ("convention", "rostov"),
        ("pool", 20),
        ("rounding", "kodeks"),
    ]
    # the default convention is written only when the log wrote it
    assert list(header_values(Header(("Anna", "Boris", "Vera")))) == []
    lines = "".join(write_lines(Log(h, [])))
    assert (
        lines == "players: Anna Boris Vera\ndealer: Vera\nconvention: rostov\npool: 20\nrounding: kodeks\n\n"
    )
    yaml = "".join(write_yaml(Log(h, [])))
    assert yaml.splitlines()[:5] == [
        "players: [Anna, Boris, Vera]",
        "dealer: Vera",
        "convention: rostov",
        "pool: 20",
        "rounding: kodeks",
    ]
