"""`pulyacalc convert`: canonical writers both ways; there and back gives the same deals."""

from __future__ import annotations

from pathlib import Path

from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import Problems
from pulyacalc.core.model import Call, Contract, Deal, Header, Log, Play, Raspasy, Suit
from pulyacalc.logs.read import read_text
from pulyacalc.logs.write import deal_key, write_lines, write_yaml

runner = CliRunner()

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

CANONICAL_YAML = """players: [Anna, Boris, Vera]
dealer: Vera
convention: sochi
pool: 20
deals:
  - declarer: Anna
    contract: 6♠
    defenders: {Boris: whist, Vera: pass}
    tricks: {Anna: 7, Boris: 2, Vera: 1}
  - declarer: Boris
    contract: 7NT
    defenders: {Vera: pass, Anna: pass}
  - declarer: Vera
    contract: misere
    tricks: {Vera: 1}
  - raspasy: {Anna: 4, Boris: 1, Vera: 5}
  - declarer: Boris
    contract: 6♦
    defenders: {Vera: whist, Anna: pass}
    tricks: {Boris: 5, Vera: 3, Anna: 2}
  - declarer: Vera
    contract: 6♣
    defenders: {Anna: pass, Boris: half}
"""


def convert(path: Path, to: str, *extra: str) -> tuple[int, str, str]:
    r = runner.invoke(app, ["convert", str(path), "--to", to, *extra], prog_name="pulyacalc")
    return r.exit_code, r.stdout, r.stderr


def test_convert_interface_example_to_yaml_and_back(tmp_path: Path) -> None:
    src = tmp_path / "log.txt"
    src.write_text(INTERFACE_LINES, encoding="utf-8")
    code, out, err = convert(src, "yaml")
    assert (code, err) == (0, "")
    assert out == CANONICAL_YAML
    back = tmp_path / "back.yaml"
    back.write_text(out, encoding="utf-8")
    code, lines, _ = convert(back, "lines")
    assert code == 0
    assert lines == INTERFACE_LINES.replace("# comments start with #\n", "")
    # canonical files are fixed points
    again = tmp_path / "again.txt"
    again.write_text(lines, encoding="utf-8")
    assert convert(again, "lines")[1] == lines
    assert convert(back, "yaml")[1] == out


def test_convert_spellings_to_canonical(tmp_path: Path) -> None:
    src = tmp_path / "ru.txt"
    src.write_text(
        "players: Anna Boris Vera Dan\nwhist.on_failure: gentleman\n\n"
        "1. an 6 пик 6, bo вист 3, ve пас 1   # первая\n"
        "распасы Bo 3, Ve 2, D 4, an 1\n"
        "V 7бк, a пас, b пас, сдаёт dan\n",
        encoding="utf-8",
    )
    code, out, err = convert(src, "lines")
    assert (code, err) == (0, "")
    assert out == (
        "players: Anna Boris Vera Dan\nwhist.on_failure: gentleman\n\n"
        "Anna 6♠ 6, Boris whist 3, Vera pass 1  # первая\n"
        "Boris pass 3, Vera pass 2, Dan pass 4, Anna talon 1\n"
        "Vera 7NT, Anna pass, Boris pass, dealer Dan\n"
    )


def test_convert_reports_problems_and_writes_nothing_with_output(tmp_path: Path) -> None:
    src = tmp_path / "bad.txt"
    src.write_text("players: Anna Boris Vera\nAnna 6♠ 7, Bors whist 2\n", encoding="utf-8")
    out = tmp_path / "out.yaml"
    code, _, err = convert(src, "yaml", "-o", str(out))
    assert code == 1
    assert f"{src}:2:12: unknown player 'Bors'; did you mean Boris?" in err
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [src]
    good = tmp_path / "good.txt"
    good.write_text(INTERFACE_LINES, encoding="utf-8")
    assert convert(good, "yaml", "-o", str(out))[0] == 0
    assert out.read_text(encoding="utf-8") == CANONICAL_YAML


def test_convert_refuses_names_the_line_format_cannot_hold(tmp_path: Path) -> None:
    src = tmp_path / "x.yaml"
    src.write_text('players: ["Anna Maria", Boris, Vera]\ndeals: []\n', encoding="utf-8")
    code, _, err = convert(src, "lines")
    assert code == 1
    assert "the line format cannot write the name 'Anna Maria'" in err


# -- the property: there and back gives the same deals ----------------------------------------

NAMES = st.sampled_from([("Anna", "Boris", "Vera"), ("Аня", "Боря", "Вера", "Дима"), ("a1", "B-2", "c.3")])
CONTRACTS = st.one_of(
    st.just(Contract.misere()),
    st.builds(Contract, st.integers(6, 10), st.sampled_from(list(Suit))),
)
NOTES = st.one_of(
    st.none(), st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20)
)


@st.composite
def deals(draw: st.DrawFn, players: tuple[str, ...]) -> Deal:
    dealer = draw(st.one_of(st.none(), st.sampled_from(players)))
    note = draw(NOTES)
    if note is not None and not note.strip():
        note = None
    if draw(st.booleans()):
        who = draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
        return Raspasy({p: draw(st.integers(0, 10)) for p in who}, dealer, note)
    declarer = draw(st.sampled_from(players))
    others = [p for p in players if p != declarer]
    calls = {
        p: draw(st.sampled_from(list(Call))) for p in draw(st.lists(st.sampled_from(others), unique=True))
    }
    counted = draw(st.lists(st.sampled_from(players), unique=True))
    tricks = {p: draw(st.integers(0, 10)) for p in counted}
    return Play(declarer, draw(CONTRACTS), calls, tricks, dealer, note)


@st.composite
def logs(draw: st.DrawFn) -> Log:
    players = draw(NAMES)
    header = Header(
        players,
        draw(st.one_of(st.none(), st.sampled_from(players))),
        draw(st.sampled_from(["sochi", "leningrad", "rostov"])),
        draw(st.one_of(st.none(), st.integers(1, 100))),
        draw(st.one_of(st.none(), st.sampled_from(["exact", "kodeks", "nearest"]))),
        locs={"convention": None},  # type: ignore[dict-item]
    )
    return Log(header, draw(st.lists(deals(players), max_size=8)))


def reread(text: str, fmt: str) -> Log:
    problems = Problems()
    log = read_text(text, "t", fmt, problems)
    deals_read = list(log.deals)
    assert not problems.items, [p.format() for p in problems.items]
    return Log(log.header, deals_read)


def same(a: Log, b: Log) -> None:
    ha, hb = a.header, b.header
    assert (ha.players, ha.dealer, ha.convention, ha.pool, ha.rounding) == (
        hb.players,
        hb.dealer,
        hb.convention,
        hb.pool,
        hb.rounding,
    )
    assert [deal_key(d) for d in a.deals] == [deal_key(d) for d in b.deals]


@settings(max_examples=examples(150), deadline=None)
@given(logs())
def test_there_and_back_gives_the_same_deals(log: Log) -> None:
    lines = "".join(write_lines(log))
    from_lines = reread(lines, "lines")
    same(log, from_lines)
    yaml_text = "".join(write_yaml(from_lines))
    from_yaml = reread(yaml_text, "yaml")
    same(log, from_yaml)
    # the canonical forms are fixed points of convert
    assert "".join(write_lines(from_yaml)) == lines
    assert "".join(write_yaml(reread(lines, "lines"))) == yaml_text
