"""`pulyacalc stats`: counts a test recomputes from the logs themselves, head-to-head that
is antisymmetric and adds up to the results, a rating that is deterministic and ranks a
player who always wins first, one player's page, every format, every problem at once."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from logs_gen import random_log
from test_output_shapes import check, documented
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.core.model import Call, Play, Raspasy, SeatChange
from pulyacalc.core.seating import Vacated, change_table
from pulyacalc.logs.read import read_log
from pulyacalc.reports.rating import ranks
from pulyacalc.reports.season import collect, score_season
from pulyacalc.reports.stats import LEVELS, Stats, pairs, score_stats, streak

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, ["stats", "--no-progress", *args], prog_name="pulyacalc")
    return r.exit_code, r.stdout, r.stderr


# -- the counts, recomputed from the deals as written ------------------------------------


def recount(paths: list[str]) -> dict[str, Counter[str]]:
    """Each player's counts from the logs' deals as read, with the dealer rotation worked
    out here: nothing of the scorer or of stats is used."""
    out: dict[str, Counter[str]] = {}
    for path in collect(paths):
        log = read_log(path)
        players = log.header.players
        n = len(players)
        dealer = log.header.dealer or players[-1]
        for p in players:
            out.setdefault(p, Counter())["evenings"] += 1
        vacated: Vacated = None
        for deal in log.deals:
            if isinstance(deal, SeatChange):  # the table changes (RULES.md 6.3)
                players, dealer, vacated = change_table(players, dealer, vacated, deal.change, deal.player)
                n = len(players)
                if deal.change == "join":
                    out.setdefault(deal.player, Counter())["evenings"] += 1
                continue
            vacated = None
            assert isinstance(deal, (Play, Raspasy)), deal
            if deal.dealer is not None:
                dealer = deal.dealer
            nxt = players[(players.index(dealer) + 1) % n]
            # 4: the dealer sits out; 5: he and the next dealer (every built-in: next, K1.2)
            out_now = {dealer} if n == 4 else {dealer, nxt} if n == 5 else set()
            dealer = nxt
            active = [p for p in players if p not in out_now]
            for p in active:
                out[p]["deals"] += 1
            if isinstance(deal, Raspasy):
                for p in active:
                    out[p]["raspasy"] += 1
                    out[p]["raspasy_tricks"] += deal.tricks[p]
                continue
            c = out[deal.declarer]
            if deal.contract.is_misere:
                c["misere"] += 1
                c["misere_made"] += deal.tricks[deal.declarer] == 0
                continue
            level = deal.contract.level
            played = Call.WHIST in deal.calls.values()
            c[f"declared_{level}"] += 1
            c[f"made_{level}"] += not played or deal.tricks[deal.declarer] >= level
            for p, call in deal.calls.items():
                out[p]["whists"] += call is Call.WHIST
                out[p]["half_whists"] += call is Call.HALF
    return out


def counted(stats: Stats) -> dict[str, Counter[str]]:
    """The same counts as stats gives them."""
    out = {}
    for p in stats.players:
        c: Counter[str] = Counter(
            evenings=p.standing.evenings,
            deals=p.deals,
            raspasy=p.raspasy,
            raspasy_tricks=p.raspasy_tricks,
            misere=p.misere.declared,
            misere_made=p.misere.made,
            whists=p.whists.declared,
            half_whists=p.half_whists,
        )
        for lv in LEVELS:
            c[f"declared_{lv}"] = p.contracts[lv].declared
            c[f"made_{lv}"] = p.contracts[lv].made
        out[p.player] = +c  # zero counts dropped, as in the recount
    return out


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of generated evenings: three and four players, three conventions."""
    d = tmp_path_factory.mktemp("club")
    for seed in range(12):
        players = 4 if seed % 3 == 0 else 3
        convention = ("sochi", "leningrad", "rostov")[seed % 3]
        text = random_log(seed, convention, players=players, deals=30 + seed, pool=10)
        (d / f"{seed:02}.yaml").write_text(text, encoding="utf-8")
    return d


def test_counts_on_the_examples_are_what_the_logs_say() -> None:
    stats = score_stats([str(EXAMPLES)])
    assert counted(stats) == recount([str(EXAMPLES)])
    assert len(stats.evenings) == 8  # the example evenings, Classic and the tables' included


def test_counts_on_a_directory_of_generated_evenings(club: Path) -> None:
    stats = score_stats([str(club)])
    want = recount([str(club)])
    assert counted(stats) == want
    # the generator makes every kind of deal, so the counts test something
    total = sum(want.values(), Counter())
    assert total["misere"] and total["raspasy"] and total["half_whists"] and total["whists"]
    assert total["made_6"] < total["declared_6"]


def test_results_are_seasons_and_the_deals_are_the_players_own(club: Path) -> None:
    stats = score_stats([str(club)])
    season = score_season([str(club)])
    assert [p.standing for p in sorted(stats.players, key=lambda p: p.player)] == sorted(
        season.standings, key=lambda s: s.player
    )
    for p in stats.players:
        assert p.per_deal == Fraction(p.standing.total) / p.deals
        assert [pt.number for pt in p.series] == sorted(pt.number for pt in p.series)
        assert p.series[-1].total == p.standing.total
        assert p.streak == streak(pt.result for pt in p.series)


def test_shortfall_and_misere_and_levels_on_a_hand_made_evening(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(
        "players: Anna Boris Vera\nconvention: sochi\npool: 20\n\n"
        "Vera 6♦ 7, Anna whist 2, Boris whist 1\n"  # split 2+1 of 4: Boris one short
        "Anna 6♠ 8, Boris whist 1, Vera whist 1\n"  # 1+1: both short
        "Boris 7♥ 7, Vera whist 2, Anna pass 1\n"  # one whister takes 3 of 2: not short
        "Anna misere 1\n"
        "Boris misere 0\n"
        "Vera 8♣ 7, Anna whist 2, Boris pass 1\n"  # eight without one
        "Anna 6♥, Boris pass, Vera half\n",
        "utf-8",
    )
    s = score_stats([str(tmp_path)])
    anna, boris, vera = (s.player(n) for n in ("Anna", "Boris", "Vera"))
    assert anna and boris and vera
    assert (boris.whists.declared, boris.whists.made) == (2, 2)
    assert (vera.whists.declared, vera.whists.made) == (2, 1)
    assert (anna.whists.declared, anna.whists.made) == (2, 0)
    assert (anna.misere.declared, anna.misere.made, boris.misere.made) == (1, 0, 1)
    assert (vera.contracts[8].declared, vera.contracts[8].made) == (1, 0)
    assert (anna.contracts[6].declared, anna.contracts[6].made) == (2, 2)  # half-whisted counts as made
    assert vera.half_whists == 1 and anna.half_whists == 0


# -- head-to-head ------------------------------------------------------------------------


def test_head_to_head_is_antisymmetric_and_adds_up_to_the_results(club: Path) -> None:
    stats = score_stats([str(club), str(EXAMPLES)], rounding="exact")
    h2h = stats.head_to_head
    assert h2h
    for a, row in h2h.items():
        for b, x in row.items():
            assert h2h[b][a] == -x
            assert stats.together[a][b] == stats.together[b][a] > 0
        # under exact rounding a player's row adds up to his total
        me = stats.player(a)
        assert me is not None and sum(row.values()) == me.standing.total


def test_one_evening_pairs_add_up_to_each_exact_result() -> None:
    from pulyacalc.play import score_file, settle_evening

    for log in ("sochi-3p.txt", "leningrad-4p.yaml", "rostov-3p.yaml"):
        s = settle_evening(score_file(str(EXAMPLES / log)))
        net = pairs(s)
        for a in s.players:
            assert sum(net[a].values()) == s.exact[a]
            assert all(net[b][a] == -net[a][b] for b in net[a])


# -- the rating --------------------------------------------------------------------------

WINNER = "players: Anna Boris Vera\nconvention: sochi\npool: 10\n\n{deals}"


def winner_season(d: Path, evenings: int = 5) -> Path:
    """Anna first, Boris second, Vera last, every evening; the sixth evening all equal."""
    for i in range(evenings):
        deals = "Anna 7♠, Boris pass, Vera pass\nBoris 6♣, Vera pass, Anna pass\n"
        (d / f"{i:02}.txt").write_text(WINNER.format(deals=deals), "utf-8")
    return d


def test_a_player_who_always_wins_is_rated_first(tmp_path: Path) -> None:
    stats = score_stats([str(winner_season(tmp_path))])
    assert [p.player for p in stats.players] == ["Anna", "Boris", "Vera"]
    anna, boris, vera = stats.players
    assert anna.rating.ordinal > boris.rating.ordinal > vera.rating.ordinal
    assert anna.rating.mu > 25 > vera.rating.mu
    assert [round(pt.rating.ordinal, 9) for pt in anna.series] == sorted(
        {round(pt.rating.ordinal, 9) for pt in anna.series}
    )
    assert anna.streak == 5 and vera.streak == 0
    assert abs(anna.rating.ordinal - (anna.rating.mu - 3 * anna.rating.sigma)) < 1e-9


def test_equal_results_share_a_place_and_an_equal_rating(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(WINNER.format(deals="Anna 6♠, Boris pass, Vera pass\n"), "utf-8")
    stats = score_stats([str(tmp_path)])
    boris, vera = stats.player("Boris"), stats.player("Vera")
    assert boris and vera and boris.rating == vera.rating
    assert ranks(("A", "B", "C"), {"A": 1, "B": 1, "C": 0}) == [1, 1, 3]
    assert ranks(("A", "B", "C", "D"), {"A": 0, "B": 5, "C": -5, "D": 5}) == [3, 1, 4, 1]


def test_the_rating_is_deterministic(club: Path) -> None:
    first = run(str(club), "-f", "json")
    assert first[0] == 0
    assert run(str(club), "-f", "json") == first
    doc = json.loads(first[1])
    assert "Plackett-Luce" in doc["rating_model"]
    totals = [Fraction(p["total_exact"]) for p in doc["players"]]
    assert totals == sorted(totals, reverse=True)  # ranked by total, as season (issue 28 item 9)


# -- the command: formats, --player, --aliases, problems ---------------------------------

PLAYERS = {"Anna", "Boris", "Vera", "Gleb"}


def test_json_has_every_documented_field(club: Path) -> None:
    code, out, _ = run(str(club), "-f", "json")
    assert code == 0
    doc = json.loads(out)
    check("stats-json", doc, PLAYERS)
    assert doc["deals"] == sum(e["deals"] for e in doc["evenings"])
    assert [p["rank"] for p in doc["players"]] == list(range(1, len(doc["players"]) + 1))
    for p in doc["players"]:
        assert Fraction(p["total_exact"]) == sum(
            Fraction(e["result_exact"][p["player"]]) for e in doc["evenings"] if p["player"] in e["players"]
        )


def test_jsonl_is_one_player_a_line(club: Path) -> None:
    code, out, _ = run(str(club), "-f", "jsonl")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert {r["player"] for r in rows} == PLAYERS
    for r in rows:
        check("stats-jsonl", r, PLAYERS)


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_csv_and_tsv_columns(club: Path, fmt: str) -> None:
    code, out, _ = run(str(club), "-f", fmt)
    assert code == 0
    rows = list(csv.reader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
    assert rows[0] == list(documented("stats-csv"))
    assert len(rows) == 1 + len(PLAYERS) and all(len(r) == len(rows[0]) for r in rows)
    stats = score_stats([str(club)])
    by_name = {r[1]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
    for p in stats.players:
        assert by_name[p.player]["declared_6"] == str(p.contracts[6].declared)
        assert by_name[p.player]["whists_short"] == str(p.whists.made)


def test_table_shows_each_player_and_head_to_head() -> None:
    code, out, err = run(str(EXAMPLES))
    assert code == 0
    assert out.startswith("Stats: 8 evenings, 113 deals")
    assert "Head-to-head" in out and "misère" in out
    assert "skipped" in err and "house.yaml" in err


def test_player_page(club: Path) -> None:
    code, out, _ = run(str(club), "--player", "Vera", "-f", "json")
    assert code == 0
    doc = json.loads(out)
    check("stats-player-json", doc, PLAYERS)
    stats = score_stats([str(club)])
    vera = stats.player("Vera")
    assert vera is not None
    assert doc["player"]["player"] == "Vera" and doc["player"]["evenings"] == vera.standing.evenings
    assert {h["opponent"]: h["net_exact"] for h in doc["head_to_head"]} == {
        q: str(Fraction(x)) for q, x in stats.head_to_head["Vera"].items()
    }
    assert [e["number"] for e in doc["evenings"]] == [pt.number for pt in vera.series]
    code, out, _ = run(str(club), "--player", "Vera")
    assert code == 0 and out.startswith("Vera: rank ")
    code, out, _ = run(str(club), "--player", "Vera", "-f", "csv")
    assert out.splitlines()[0] == "number,file,result,total,mu,sigma,ordinal"
    assert len(out.splitlines()) == 1 + vera.standing.evenings
    code, out, _ = run(str(club), "--player", "Vera", "-f", "jsonl")
    for line in out.splitlines():
        check("stats-player-jsonl", json.loads(line), PLAYERS)


def test_a_player_is_found_without_regard_to_case_as_in_logs(club: Path) -> None:
    code, out, _ = run(str(club), "--player", "vera")
    assert code == 0 and out.startswith("Vera: rank ")


def test_an_unknown_player_is_a_usage_error_with_a_suggestion(club: Path) -> None:
    code, out, err = run(str(club), "--player", "Verra")
    assert code == 2 and out == ""
    assert "'--player'" in err and "no player 'Verra'" in err and "did you mean 'Vera'?" in err
    code, _, err = run(str(club), "--player", "Zoe")
    assert code == 2 and "the players are Anna, Boris, Gleb, Vera" in err


def test_aliases_make_one_person_of_two_spellings(tmp_path: Path) -> None:
    one = WINNER.format(deals="Anna 7♠, Boris pass, Vera pass\n")
    (tmp_path / "1.txt").write_text(one, "utf-8")
    (tmp_path / "2.txt").write_text(one.replace("Vera", "V"), "utf-8")
    aliases = tmp_path / "people.yml"
    aliases.write_text("Вера: [Vera, V]\n", "utf-8")
    code, out, _ = run(str(tmp_path / "1.txt"), str(tmp_path / "2.txt"), "-f", "json")
    assert {p["player"] for p in json.loads(out)["players"]} == {"Anna", "Boris", "Vera", "V"}
    code, out, err = run(
        str(tmp_path / "1.txt"), str(tmp_path / "2.txt"), "-f", "json", "--aliases", str(aliases)
    )
    assert code == 0, err
    doc = json.loads(out)
    vera = next(p for p in doc["players"] if p["player"] == "Вера")
    assert vera["evenings"] == 2 and vera["deals"] == 2
    assert doc["head_to_head"]["Anna"]["Вера"] == -doc["head_to_head"]["Вера"]["Anna"]
    assert doc["together"]["Anna"]["Вера"] == 2


def test_aliases_that_seat_one_person_twice_are_a_problem_with_the_others(tmp_path: Path) -> None:
    (tmp_path / "1.txt").write_text(WINNER.format(deals="Anna 7♠, Boris pass, Vera pass\n"), "utf-8")
    (tmp_path / "2.txt").write_text(WINNER.format(deals="Anna 6x, Boris pass, Vera pass\n"), "utf-8")
    aliases = tmp_path / "people.yml"
    aliases.write_text("Вера: [Vera, Boris]\n", "utf-8")
    code, out, err = run(str(tmp_path / "1.txt"), str(tmp_path / "2.txt"), "--aliases", str(aliases))
    assert code == 1 and out == ""
    assert f"{tmp_path / '1.txt'}:1:" in err and "cannot sit twice" in err
    assert f"{tmp_path / '2.txt'}:5:" in err
    code, _, err = run(str(tmp_path / "1.txt"), "--aliases", str(tmp_path / "none.yml"))
    assert code == 1 and "no such aliases file" in err


def test_every_problem_of_every_log_together(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(WINNER.format(deals="Anna 6♠ 11, Boris whist, Vera pass\n"), "utf-8")
    (tmp_path / "b.txt").write_text(WINNER.format(deals="Anna 6x, Boris pass, Vera pass\n"), "utf-8")
    (tmp_path / "c.txt").write_text(WINNER.format(deals="Anna 6♠, Boris pass, Vera pass\n"), "utf-8")
    code, out, err = run(str(tmp_path))
    assert code == 1 and out == ""
    assert f"{tmp_path / 'a.txt'}:5:" in err and f"{tmp_path / 'b.txt'}:5:" in err
    assert "Traceback" not in err
    code, _, err = run(str(tmp_path / "nothing-here"))
    assert code == 1 and "no such file or directory" in err


def test_score_does_not_import_stats_or_openskill() -> None:
    probe = (
        "import sys; sys.argv = ['pulyacalc', 'score', sys.argv[1]]\n"
        "from pulyacalc.cli.app import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('openskill', 'pulyacalc.reports.stats', 'pulyacalc.reports.rating'))),"
        " file=sys.stderr)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", probe, str(EXAMPLES / "sochi-3p.txt")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert r.stderr.strip().splitlines()[-1] == "[]"


def test_head_to_head_of_many_players_is_the_pairs_that_met(tmp_path: Path) -> None:
    """Issue 31 item 14: 1,000 logs of new players made a 3,000 × 3,000 grid (765 MB);
    past GRID_PLAYERS it is one row per pair that sat together."""
    for i in range(8):
        (tmp_path / f"e{i}.txt").write_text(
            f"players: P{i}a P{i}b P{i}c\n\nP{i}a 6♠ 6, P{i}b whist 2, P{i}c pass\n", "utf-8"
        )
    code, out, err = run(str(tmp_path))
    assert code == 0, err
    pairs_met = out.partition("Head-to-head")[2].partition("\n\n")[2]
    rows = [line.split() for line in pairs_met.splitlines()[2:]]
    assert len(rows) == 8 * 6  # each of 8 evenings: 3 × 2 ordered pairs
    assert ["P0a", "P0b", "1"] in [r[:3] for r in rows]


def test_stats_ranks_as_season_with_the_rating_explained_beside_it(club: Path) -> None:
    """Issue 28 item 9: the order of season's standings, the rating beside the total and
    explained in one line, in the player's language."""
    season = json.loads(CliRunner().invoke(app, ["season", str(club), "-f", "json"]).stdout)
    code, out, _ = run(str(club), "-f", "json")
    doc = json.loads(out)
    assert [p["player"] for p in doc["players"]] == [s["player"] for s in season["standings"]]
    _, table, _ = run(str(club))
    head = next(line for line in table.splitlines() if line.lstrip().startswith("rank"))
    assert head.split()[4:8] == ["total", "ordinal", "mu", "sigma"]
    assert "ordinal: the rating, μ − 3σ" in table and "σ: how unsure it is" in table
    ru = CliRunner().invoke(app, ["--lang", "ru", "stats", str(club)]).stdout
    assert "рейтинг: μ − 3σ" in ru
