"""Classic («классика», RULES.md 2.10): play «втёмную» and bombs (K3.3.19, K3.7.7, K3.7.9,
K notes 29–31).  Every number here is worked by hand from the Code's text.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers import log_text, run_text
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.errors import PulyaError
from pulyacalc.core.model import Play, Raspasy
from pulyacalc.logs.read import read_text

ABC = ("Anna", "Boris", "Vera")
ROOT = Path(__file__).resolve().parents[1]


def classic(*deals: str, pool: int = 100, extra: tuple[str, ...] = (), players: tuple[str, ...] = ABC) -> str:
    return log_text("classic", players, deals, pool=pool, extra=extra)


def test_footnote_31_a_made_eight_on_a_double_bomb_played_dark_writes_48_and_48_a_trick() -> None:
    # K note 31: «игрок на двойной бомбе сказал раз втёмную и сыграл восьмерную игру.
    # Двойная бомба даёт ему коэффициент 4, а тёмная – 2. Он пишет в пулю 48. За каждую
    # взятку вистующие пишут также по 48.»  Anna earns a single bomb (×2) and then a
    # double one (×4) by passing dark twice in a row (K3.3.19 а); a won six uses up the
    # single one (K notes 29, 30), so the dark eight is played on the double bomb.
    text = classic(
        "Anna pass dark 3, Boris pass 4, Vera pass 3",
        "Anna pass dark 2, Boris pass 4, Vera pass 4",
        "Anna 6♠, Boris pass, Vera pass",
        "Anna dark 8♠ 8, Boris whist 2, Vera pass 0",
        extra=("bombs.opening: 0",),
    )
    r = run_text(text)
    last = r.results[-1]
    assert (last.bomb, last.bomb_spent) == (4, True)
    pool = [e for e in last.entries if e.area == "pool"]
    assert [(e.player, e.amount) for e in pool] == [("Anna", 48)]  # 6 × 4 × 2
    (whists,) = [e for e in last.entries if e.area == "whists"]
    assert (whists.player, whists.on, whists.amount) == ("Boris", "Anna", 2 * 48)  # 48 a trick
    assert "× 8 (bomb ×4 × dark ×2) = 48" in pool[0].why
    # the six before it was played on the single bomb: 2 × 2 into the pool
    assert r.written(3) == {("Anna", "pool", 4, None)}
    assert r.results[2].bomb == 2 and r.results[2].bomb_spent


def test_footnote_30_bombs_are_used_in_the_order_earned() -> None:
    # K note 30: three bombs from a series of raspasy; a six failed (double, and double the
    # whists on him), a seven made (double: the first bomb survived the failure), then a
    # misère caught (four times: the seven used up the first bomb, the second is in play).
    # Three compulsory raspasy (bombs.opening 3, K3.7.9) give everyone 2, 4 and 8.
    text = classic(
        "Anna pass 3, Boris pass 4, Vera pass 3",
        "Anna pass 3, Boris pass 4, Vera pass 3",
        "Anna pass 3, Boris pass 4, Vera pass 3",
        "Anna 6♠ 5, Boris whist 3, Vera whist 2",
        "Anna 7♥ 7, Boris whist 2, Vera pass 1",
        "Anna misere 1",
    )
    r = run_text(text)
    assert [e for res in r.results[:3] for e in res.bombs_earned] == [
        *[(p, 2) for p in ABC],
        *[(p, 4) for p in ABC],
        *[(p, 8) for p in ABC],
    ]
    six, seven, misere = r.results[3:]
    assert [(x.bomb, x.bomb_spent) for x in (six, seven, misere)] == [(2, False), (2, True), (4, False)]
    assert ("Anna", "mountain", 4, None) in r.written(4)  # 1 undertrick × 2, doubled
    assert ("Boris", "whists", 3 * 2 * 2, "Anna") in r.written(4)  # the whists doubled
    assert ("Boris", "whists", 1 * 2 * 2, "Anna") in r.written(4)  # and the consolation
    assert ("Anna", "pool", 8, None) in r.written(5)  # 4 × 2
    assert r.written(6) == {("Anna", "mountain", 40, None)}  # 1 × 10 × 4


def test_a_dark_raspasy_doubles_for_everyone_and_only_dark_passers_earn() -> None:
    # K3.3.19 а: the light passer pays the same raised price, but earns no bomb
    text = classic("Anna pass dark 3, Boris pass 4, Vera pass 3", extra=("bombs.opening: 0",))
    r = run_text(text)
    assert r.written() == {("Boris", "mountain", 2, None)}  # (4 − amnesty 3) × 1 × 2
    assert r.results[0].dark == 1 and r.results[0].bombs_earned == (("Anna", 2),)


def test_dark_raspasy_in_a_row_double_again_and_a_light_one_ends_them() -> None:
    deals = [
        "Anna pass dark 3, Boris pass 4, Vera pass 3",
        "Anna pass 3, Boris pass dark 4, Vera pass 3",
        "Anna pass 3, Boris pass 4, Vera pass 3",
        "Anna pass dark 3, Boris pass 4, Vera pass 3",
    ]
    r = run_text(classic(*deals, extra=("bombs.opening: 0",)))
    assert [x.dark for x in r.results] == [1, 2, 0, 1]
    assert [r.sheet.mountain["Boris"]] == [2 + 4 + 1 + 2]
    assert r.results[1].bombs_earned == (("Boris", 4),)


@pytest.mark.parametrize(("after_cap", "levels"), [("stay", [1, 2, 2, 2]), ("restart", [1, 2, 1, 2])])
def test_the_cap_by_agreement(after_cap: str, levels: list[int]) -> None:
    deal = "Anna pass dark 3, Boris pass 4, Vera pass 3"
    text = classic(*[deal] * 4, extra=("bombs.opening: 0", "bombs.cap: 2", f"bombs.after_cap: {after_cap}"))
    r = run_text(text)
    assert [x.dark for x in r.results] == levels
    assert [b for x in r.results for _, b in x.bombs_earned] == [2**n for n in levels]


def test_the_four_player_dealer_earns_a_bomb_with_bombs_dealer() -> None:
    players = ("Anna", "Boris", "Vera", "Dan")
    deal = "Anna pass dark 3, Boris pass 4, Vera pass 3, Dan talon 0"
    on = run_text(classic(deal, players=players, extra=("bombs.opening: 0",)))
    assert on.results[0].bombs_earned == (("Anna", 2), ("Dan", 2))
    off = run_text(classic(deal, players=players, extra=("bombs.opening: 0", "bombs.dealer: false")))
    assert off.results[0].bombs_earned == (("Anna", 2),)
    with pytest.raises(PulyaError, match="sits out: he does not pass «втёмную»"):
        run_text(classic("Anna pass 3, Boris pass 4, Vera pass 3, Dan pass dark 0", players=players))


def test_the_dealer_stays_after_a_raspasy_when_the_convention_says_so() -> None:
    deals = [
        "Anna pass 3, Boris pass 4, Vera pass 3",
        "Anna 6♠, Boris pass, Vera pass",
        "Boris 6♠, Vera pass, Anna pass",
    ]
    stays = run_text(classic(*deals, extra=("bombs.opening: 0",)))
    assert [x.dealer for x in stays.results] == ["Vera", "Vera", "Anna"]
    slides = run_text(classic(*deals, extra=("bombs.opening: 0", "raspasy.dealer_after: slides")))
    assert [x.dealer for x in slides.results] == ["Vera", "Anna", "Boris"]


def test_a_lost_game_keeps_the_bomb_and_an_unwhisted_one_uses_it() -> None:
    text = classic(
        "Anna pass 3, Boris pass 4, Vera pass 3",
        "Anna 6♠ 5, Boris whist 3, Vera pass 2",
        "Anna 6♠, Boris pass, Vera pass",
    )
    r = run_text(text, "t.txt")
    assert [(x.bomb, x.bomb_spent) for x in r.results[1:]] == [(2, False), (2, True)]


def test_under_the_other_built_ins_dark_play_changes_nothing() -> None:
    deals = ["Anna pass dark 3, Boris pass 4, Vera pass 3", "Anna dark 8♠ 8, Boris whist 2, Vera pass 0"]
    for name in ("sochi", "leningrad", "rostov"):
        dark = run_text(log_text(name, ABC, deals))
        light = run_text(log_text(name, ABC, [d.replace("dark ", "") for d in deals]))
        assert dark.sheet == light.sheet
        assert all(x.bomb == 1 and not x.bombs_earned for x in dark.results)


@pytest.mark.parametrize(
    "line",
    [
        "Anna dark 8♠ 8, Boris whist 2, Vera pass 0",
        "Anna втёмную 8♠ 8, Boris whist 2, Vera pass 0",
        "Anna 8♠ темная 8, Boris whist 2, Vera pass 0",
    ],
)
def test_a_dark_game_is_read_in_either_language(line: str) -> None:
    (deal,) = list(read_text(classic(line), "t.txt").deals)
    assert isinstance(deal, Play) and deal.dark and deal.tricks["Anna"] == 8


def test_dark_passes_are_read_in_either_language() -> None:
    (deal,) = list(
        read_text(classic("Anna pass dark 3, Boris пас втёмную 4, Vera dark pass 3"), "t.txt").deals
    )
    assert isinstance(deal, Raspasy) and deal.dark == ("Anna", "Boris", "Vera")


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("Anna 6♠ 6, Boris whist dark 4, Vera pass", "whist «втёмную» (closed cards) changes nothing"),
        ("Anna 6♠ 6, Boris whist 4, Vera pass dark", "a dark pass scores only when raspasy follows"),
    ],
)
def test_a_defenders_dark_call_is_refused(line: str, words: str) -> None:
    with pytest.raises(PulyaError, match=re.escape(words)):
        run_text(classic(line))


# -- the commands: prices, check, convert, score, explain ---------------------------------------


def cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


def test_prices_show_the_dark_games_only_where_dark_play_counts() -> None:
    doc = json.loads(cli("prices", "-c", "classic", "-f", "json").stdout)
    rows = {r["outcome"]: r for r in doc["prices"]}
    plain, dark = rows["8 made"], rows["8 made dark"]
    assert dark["deal"].startswith("declarer dark 8♠ 8")
    # every write of the game doubled, so every seat's gain doubles
    for seat, value in plain["whists_exact"].items():
        assert Fraction(dark["whists_exact"][seat]) == 2 * Fraction(value)
    raspasy, raspasy_dark = rows["raspasy"]["whists_exact"], rows["raspasy dark"]["whists_exact"]
    assert all(Fraction(raspasy_dark[s]) == 2 * Fraction(v) for s, v in raspasy.items())
    sochi = json.loads(cli("prices", "-c", "sochi", "-f", "json").stdout)
    assert not any("dark" in r["outcome"] for r in sochi["prices"])


def test_check_reports_a_contract_among_the_compulsory_raspasy(tmp_path: Path) -> None:
    log = tmp_path / "c.txt"
    log.write_text(
        classic("Anna pass 3, Boris pass 4, Vera pass 3", "Anna 7♠, Boris pass, Vera pass"), "utf-8"
    )
    r = cli("check", str(log), "-f", "json")
    codes = [(f["code"], f["line"]) for f in json.loads(r.stdout)["findings"]]
    assert ("compulsory-raspasy", 6) in codes and r.exit_code == 1
    assert cli("check", str(ROOT / "examples" / "classic-3p.txt")).exit_code == 0


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_convert_round_trips_dark_calls(tmp_path: Path, lang: str) -> None:
    src = ROOT / "examples" / "classic-3p.txt"
    want = cli("score", str(src), "-f", "json").stdout
    yaml_log = tmp_path / "c.yaml"
    yaml_log.write_text(cli("convert", str(src), "--to", "yaml", "--lang", lang).stdout, "utf-8")
    assert "dark: [Vera, Anna]" in yaml_log.read_text("utf-8") and "dark: true" in yaml_log.read_text("utf-8")
    lines = tmp_path / "c.txt"
    lines.write_text(cli("convert", str(yaml_log), "--to", "lines", "--lang", lang).stdout, "utf-8")
    dark = "втёмную" if lang == "ru" else "dark"
    assert f"Vera {dark} 8♠ 8" in lines.read_text("utf-8")
    for path in (yaml_log, lines):
        assert (
            json.loads(cli("score", str(path), "-f", "json").stdout)["settlement"]
            == json.loads(want)["settlement"]
        )


def test_score_shows_the_bombs_and_explain_says_what_each_deal_did() -> None:
    src = str(ROOT / "examples" / "classic-3p.txt")
    table = cli("score", src).stdout
    assert (
        "bombs («ёлочка»), in the order they are used: Anna ×4 ×8 ×4; Boris ×4 ×8; Vera ×4 ×8 ×2 ×4" in table
    )
    sochi = json.loads(cli("score", str(ROOT / "examples" / "sochi-3p.txt"), "-f", "json").stdout)
    assert "bombs" not in sochi  # a convention without bombs: the document as it was
    explained = cli("explain", src, "--deal", "8").stdout
    assert "price 6; × 4 (bomb ×2 × dark ×2) = 24" in explained
    assert "Vera played on a bomb ×2 and won: it is used up" in explained
    doc = json.loads(cli("explain", src, "-f", "json").stdout)
    first, eighth = doc["deals"][0], doc["deals"][7]
    assert first["bombs_earned"] == {"Anna": 2, "Boris": 2, "Vera": 2}
    assert eighth["bomb"] == {"coefficient": 2, "used_up": True} and "bombs_earned" not in eighth


def test_compare_scores_a_classic_evening_under_every_built_in() -> None:
    r = cli("compare", str(ROOT / "examples" / "classic-3p.txt"), "-f", "json")
    assert r.exit_code == 0, r.output
    cols = {c["convention"]: c["settlement"] for c in json.loads(r.stdout)["conventions"]}
    assert cols["classic"] == {"Anna": -293.33, "Boris": -181.33, "Vera": 474.67}  # −880/3, −544/3, 1424/3
    assert len({json.dumps(v) for v in cols.values()}) == len(cols)


@pytest.mark.parametrize(("step", "lines"), [("true", [7]), ("false", [])])
def test_the_exit_from_a_dark_raspasy_rises_with_its_level(
    tmp_path: Path, step: str, lines: list[int]
) -> None:
    # K3.7.7: «выйти из распасовки после паса втёмную можно семерной игрой, а из двойной
    # распасовки – восьмерной»; the compulsory raspasy (nobody bids) set no such exit
    log = tmp_path / "x.txt"
    deals = [
        "Anna pass dark 3, Boris pass 4, Vera pass 3",
        "Anna pass dark 3, Boris pass 4, Vera pass 3",
        "Boris 7♠, Vera pass, Anna pass",  # after a double: an eight at least
        "Anna pass dark 3, Boris pass 4, Vera pass 3",
        "Boris 7♠, Vera pass, Anna pass",  # after a single: a seven will do
    ]
    log.write_text(classic(*deals, extra=("bombs.opening: 0", f"bombs.exit_step: {step}")), "utf-8")
    found = json.loads(cli("check", str(log), "-f", "json").stdout)["findings"]
    assert [f["line"] for f in found if f["code"] == "raspasy-exit"] == [x + 2 for x in lines]
    opening = tmp_path / "o.txt"
    opening.write_text(
        classic(*["Anna pass 3, Boris pass 4, Vera pass 3"] * 3, "Anna 7♠, Boris pass, Vera pass"), "utf-8"
    )
    assert cli("check", str(opening)).exit_code == 0
