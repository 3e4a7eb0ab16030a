"""The aliases file (`season --aliases FILE`): one person however the logs spelled her.

The reader's refusals, each located and all reported together; the matching rules (the
exact spelling, then ignoring case, else the name as written); and the season with the
file: rows merged, a person seated twice refused at the log's players: line, and no file
meaning today's output.
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import Loc, Problems, ReadError
from pulyacalc.logs.aliases import Aliases, read_aliases, read_aliases_text
from pulyacalc.reports.season import score_season

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def problems_of(text: str) -> list[str]:
    with pytest.raises(ReadError) as e:
        read_aliases_text(text, "al.yaml")
    return [f"{p.loc}: {p.message}" for p in e.value.problems]


# -- reading ---------------------------------------------------------------------------


def test_a_list_or_a_single_spelling() -> None:
    a = read_aliases_text("Вера: [Vera, V, вера]\nБорис: Boris\n", "al.yaml")
    assert a.people == ("Вера", "Борис")
    assert a.person("V") == "Вера"
    assert a.person("Boris") == "Борис"
    assert len(a) == 2


def test_yaml_pitfalls_are_read_as_the_text_written() -> None:
    # YAML 1.1 would make No False and Off False; here they are names
    a = read_aliases_text("No: [Off, 'n']\nYes: y\n", "al.yaml")
    assert a.people == ("No", "Yes")
    assert a.person("off") == "No"
    assert a.person("y") == "Yes"


def test_names_that_are_numbers_are_refused_as_a_log_refuses_them() -> None:
    # 012 would be 10 and 6:4 would be 364 to a YAML loader; a log cannot name a player
    # with a leading digit, so a spelling like that could never match: refused, located
    assert problems_of("Вера: [012, 6:4, '7']\n42: [x]\n") == [
        "al.yaml:1:8: a spelling cannot start with a digit: '012'",
        "al.yaml:1:13: a spelling cannot start with a digit: '6:4'",
        "al.yaml:1:18: a spelling cannot start with a digit: '7'",
        "al.yaml:2:1: a person's name cannot start with a digit: '42'",
    ]


def test_every_problem_of_the_file_at_once_each_located() -> None:
    text = (
        "Вера: [Vera, V]\n"  # 1
        "Гена: [Gena, v]\n"  # 2: v is V ignoring case, Вера's already
        "Борис: [Boris, вера]\n"  # 3: вера is Вера's own name
        "Zed:\n"  # 4: nothing
        "Yan: []\n"  # 5: an empty list
        "Ann: [Anna, [A]]\n"  # 6: a list inside
        "Kim: {a: b}\n"  # 7: a mapping
        "Lev: ['', 'Le v']\n"  # 8: an empty name, two words
        "Вера: [Verochka]\n"  # 9: listed twice
        "Gena: [G]\n"  # 10: another person's spelling as a person's name
        "'': [Q]\n"  # 11: an empty person
    )
    assert problems_of(text) == [
        "al.yaml:2:14: 'v' (a spelling of 'Гена') already means 'Вера' (given at al.yaml:1:14); "
        "a name must mean one person",
        "al.yaml:3:16: 'вера' (a spelling of 'Борис') already means 'Вера' (whose name it is); "
        "a name must mean one person",
        "al.yaml:4:5: expected a name or a list of names, got nothing",
        "al.yaml:5:6: 'Yan' has no spellings (an empty list)",
        "al.yaml:6:13: a spelling: expected a name, got a list",
        "al.yaml:7:6: expected a name or a list of names, got a mapping",
        "al.yaml:8:7: a spelling: expected a name, got an empty one",
        "al.yaml:8:11: a spelling is one word as a log writes a player (no spaces, commas or brackets): 'Le v'",
        "al.yaml:9:1: 'Вера' is listed twice (also at al.yaml:1:1)",
        "al.yaml:10:1: 'Gena' (a person's name) already means 'Гена' (given at al.yaml:2:8); "
        "a name must mean one person",
        "al.yaml:11:1: a person's name: expected a name, got an empty one",
    ]


def test_a_spelling_given_before_the_person_it_names() -> None:
    assert problems_of("Вера: [Boris]\nBoris: [B]\n") == [
        "al.yaml:2:1: 'Boris' (a person's name) already means 'Вера' (given at al.yaml:1:8); "
        "a name must mean one person"
    ]


def test_a_person_written_among_her_own_spellings_is_fine() -> None:
    a = read_aliases_text("Вера: [Вера, вера, Vera, Vera]\n", "al.yaml")
    assert a.person("ВЕРА") == "Вера"


def test_the_problem_echoes_its_line_with_a_caret() -> None:
    with pytest.raises(ReadError) as e:
        read_aliases_text("Вера: [Vera]\nГена: [Vera]\n", "al.yaml")
    assert e.value.problems[0].format().endswith("\n    Гена: [Vera]\n           ^^^^")


@pytest.mark.parametrize(
    ("text", "got"), [("- Vera\n- V\n", "a list"), ("Vera\n", "'Vera'"), ("Vera V\n", "'Vera V'")]
)
def test_not_a_mapping(text: str, got: str) -> None:
    assert problems_of(text) == [
        f"al.yaml:1:1: an aliases file is a mapping of each person to the spellings of the name, got {got}"
    ]


def test_an_empty_file_has_no_aliases() -> None:
    a = read_aliases_text("# nobody yet\n", "al.yaml")
    assert a.people == ()
    assert a.person("Vera") == "Vera"


def test_yaml_syntax_is_located() -> None:
    assert problems_of("Вера: [Vera\n") == ["al.yaml:2:1: YAML syntax: did not find expected ',' or ']'"]


def test_files_that_cannot_be_read(tmp_path: Path) -> None:
    for path, message in [
        (tmp_path / "none.yaml", "no such aliases file"),
        (tmp_path, "is a directory, not an aliases file"),
    ]:
        with pytest.raises(ReadError) as e:
            read_aliases(str(path))
        assert [(p.loc, p.message) for p in e.value.problems] == [(Loc(str(path)), message)]
    latin = tmp_path / "latin1.yaml"
    latin.write_bytes("Vera: [V]\nLéa: [L]\n".encode("latin-1"))
    with pytest.raises(ReadError) as e:
        read_aliases(str(latin))
    assert str(e.value.problems[0].loc) == f"{latin}:2:2"
    assert "not UTF-8" in e.value.problems[0].message


def test_read_from_a_path_with_a_bom(tmp_path: Path) -> None:
    f = tmp_path / "al.yaml"
    f.write_text("\ufeffВера: [Vera]\n", "utf-8")
    assert read_aliases(str(f)).person("vera") == "Вера"


# -- matching --------------------------------------------------------------------------


def test_exact_then_ignoring_case_else_as_written() -> None:
    a = read_aliases_text("Вера: [Vera, V]\nStraße: [Strasse]\n", "al.yaml")
    assert a.person("Vera") == "Вера"
    assert a.person("VERA") == "Вера"
    assert a.person("вЕРА") == "Вера"
    assert a.person("v") == "Вера"
    # casefold, not lower: ß is ss
    assert a.person("STRASSE") == "Straße"
    assert a.person("Verа") == "Verа"  # a Cyrillic а: not in the file, kept
    assert a.person("Петя") == "Петя"
    assert "vera" in a and "Петя" not in a
    # no prefixes across evenings: 'Ver' is not Vera
    assert a.person("Ver") == "Ver"


def test_no_aliases_keeps_every_name() -> None:
    assert Aliases().person("Vera") == "Vera"


def test_a_table_seating_one_person_twice() -> None:
    a = read_aliases_text("Вера: [Vera, V]\n", "al.yaml")
    problems = Problems()
    assert a.table(("Vera", "Boris", "Gena"), Loc("mon.txt", 1, 1), problems) == {
        "Vera": "Вера",
        "Boris": "Boris",
        "Gena": "Gena",
    }
    assert not problems
    assert a.table(("V", "Boris", "вера"), Loc("tue.txt", 1, 1), problems) is None
    assert [(str(p.loc), p.message) for p in problems.items] == [
        (
            "tue.txt:1:1",
            "'V' and 'вера' are both 'Вера' in the aliases file al.yaml, "
            "and one person cannot sit twice at one table",
        )
    ]


NAME = st.text(st.characters(whitelist_categories=("Lu", "Ll")), min_size=1, max_size=6)


@given(st.lists(st.lists(NAME, min_size=1, max_size=4), min_size=1, max_size=5))
def test_every_spelling_in_any_case_is_its_person(people: list[list[str]]) -> None:
    # names unique ignoring case across the whole file, so that the file is valid
    seen: set[str] = set()
    entries: list[tuple[str, list[str]]] = []
    for names in people:
        fresh = [n for n in names if n.casefold() not in seen and n.casefold() == n.casefold().strip()]
        seen.update(n.casefold() for n in fresh)
        if len(fresh) >= 2:
            entries.append((fresh[0], fresh[1:]))
    text = "".join(
        f"{json.dumps(p, ensure_ascii=False)}: {json.dumps(s, ensure_ascii=False)}\n" for p, s in entries
    )
    a = read_aliases_text(text, "al.yaml")
    for person, spellings in entries:
        for s in [person, *spellings]:
            assert a.person(s) == person
            assert a.person(s.upper()) == person or s.upper().casefold() != s.casefold()
            assert a.person(s.casefold()) == person


# -- the season ------------------------------------------------------------------------


def club(tmp_path: Path) -> Path:
    """Two evenings where Вера is written 'Вера', then 'vera'."""
    (tmp_path / "mon.txt").write_text(
        "players: Вера Boris Gena\n\nВера 6♠ 5, Boris whist 3, Gena pass 2\n", "utf-8"
    )
    (tmp_path / "tue.txt").write_text(
        "players: vera Boris Gena\n\nvera 7♠ 7, Boris whist 2, Gena pass 1\n", "utf-8"
    )
    return tmp_path


def season_json(*args: str) -> dict[str, object]:
    r = runner.invoke(app, ["season", *args, "-f", "json"], prog_name="pulyacalc")
    assert r.exit_code == 0, r.output
    doc: dict[str, object] = json.loads(r.stdout)
    return doc


def test_season_with_aliases_merges_the_rows(tmp_path: Path) -> None:
    d = club(tmp_path)
    (d / "al.yaml").write_text("Вера: [Vera]\n", "utf-8")
    without = season_json(str(d / "mon.txt"), str(d / "tue.txt"))
    rows = {s["player"]: s for s in without["standings"]}  # type: ignore[attr-defined]
    assert set(rows) == {"Вера", "vera", "Boris", "Gena"}
    doc = season_json(str(d / "mon.txt"), str(d / "tue.txt"), "--aliases", str(d / "al.yaml"))
    merged = {s["player"]: s for s in doc["standings"]}  # type: ignore[attr-defined]
    assert set(merged) == {"Вера", "Boris", "Gena"}
    assert merged["Вера"]["evenings"] == 2
    total = Fraction(rows["Вера"]["total_exact"]) + Fraction(rows["vera"]["total_exact"])
    assert Fraction(merged["Вера"]["total_exact"]) == total
    assert merged["Вера"]["best_evening"] == str(d / "tue.txt")
    assert merged["Boris"] == {**rows["Boris"], "rank": merged["Boris"]["rank"]}
    # each evening is written with the persons' names too
    evenings = doc["evenings"]  # type: ignore[index]
    assert [e["players"] for e in evenings] == [["Вера", "Boris", "Gena"]] * 2  # type: ignore[index]
    assert set(evenings[1]["result"]) == {"Вера", "Boris", "Gena"}  # type: ignore[index]


def test_season_with_aliases_and_money(tmp_path: Path) -> None:
    d = club(tmp_path)
    (d / "al.yaml").write_text("Вера: [Vera]\n", "utf-8")
    s = score_season([str(d)], price=Decimal("0.5"), aliases=read_aliases(str(d / "al.yaml")))
    assert [e.money is not None and set(e.money) for e in s.evenings] == [{"Вера", "Boris", "Gena"}] * 2
    assert sum(st.money or 0 for st in s.standings) == 0


def test_one_person_twice_at_a_table_is_reported_with_every_other_problem(tmp_path: Path) -> None:
    d = club(tmp_path)
    (d / "al.yaml").write_text("Вера: [Vera, V]\n", "utf-8")
    # V and Vera are one person; the same log and another have a deal that cannot be read
    (d / "wed.txt").write_text(
        "# a club evening\nplayers: V Boris Vera\n\nV 6♠ 6, Boris whist 3, Vera pass x\n"
    )
    (d / "thu.txt").write_text(
        "players: Вера Boris Gena\n\nВера 6♠ 5, Boris whisst 3, Gena pass 2\n", "utf-8"
    )
    r = runner.invoke(app, ["season", str(d), "--aliases", str(d / "al.yaml")], prog_name="pulyacalc")
    assert r.exit_code == 1
    assert r.stdout == ""
    assert (
        f"{d / 'wed.txt'}:2:1: 'V' and 'Vera' are both 'Вера' in the aliases file {d / 'al.yaml'}, "
        "and one person cannot sit twice at one table" in r.stderr
    )
    assert f"{d / 'wed.txt'}:4:" in r.stderr
    assert f"{d / 'thu.txt'}:3:" in r.stderr
    # without the file they are three people and only the deals are wrong
    r = runner.invoke(app, ["season", str(d)], prog_name="pulyacalc")
    assert r.exit_code == 1
    assert "cannot sit twice" not in r.stderr


def test_a_bad_aliases_file_stops_the_season_before_any_log(tmp_path: Path) -> None:
    d = club(tmp_path)
    (d / "al.yaml").write_text("Вера: [Vera]\nГена: [vera]\n", "utf-8")
    r = runner.invoke(
        app, ["season", str(d / "mon.txt"), "--aliases", str(d / "al.yaml")], prog_name="pulyacalc"
    )
    assert r.exit_code == 1
    assert r.stderr.startswith(f"{d / 'al.yaml'}:2:8: 'vera' (a spelling of 'Гена') already means 'Вера'")
    assert r.stdout == ""


def test_a_missing_aliases_file_is_a_problem_of_the_input(tmp_path: Path) -> None:
    d = club(tmp_path)
    r = runner.invoke(app, ["season", str(d), "--aliases", str(d / "none.yaml")], prog_name="pulyacalc")
    assert r.exit_code == 1
    assert r.stderr == f"{d / 'none.yaml'}: no such aliases file; check the path given to --aliases\n"


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl", "csv", "tsv"])
def test_aliases_naming_nobody_at_the_tables_change_nothing(tmp_path: Path, fmt: str) -> None:
    # the examples' players are Anna, Boris, Vera, Gleb…: nobody here
    (tmp_path / "al.yaml").write_text("Пётр: [Petya, P]\n", "utf-8")
    examples = str(ROOT / "examples")
    args = ["season", examples, "-f", fmt, "--whist-price", "0.5"]
    plain = runner.invoke(app, args, prog_name="pulyacalc")
    named = runner.invoke(app, [*args, "--aliases", str(tmp_path / "al.yaml")], prog_name="pulyacalc")
    assert plain.exit_code == named.exit_code == 0
    assert plain.stdout == named.stdout


def test_aliases_default_is_off() -> None:
    assert Aliases().person("x") == "x"
