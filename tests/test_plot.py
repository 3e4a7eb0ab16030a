"""`season --plot FILE.svg`: each player's cumulative result over the evenings, drawn with
matplotlib (an optional extra).  The picture is looked at as a person sees it — rendered in a
real headless browser — and its numbers come from the season's results; without the extra the
option says how to install it, and without the option matplotlib is never imported."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from browser import screenshot
from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
runner = CliRunner()

#: matplotlib's ten line colours (tab10), the first ten players' lines
TAB10 = [
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
]

PLAYERS = ["Anna", "Boris", "Vera", "Egor", "Gleb", "Dasha", "Zhenya", "Igor", "Kira", "Lev"]


def season(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, ["season", *args, "--no-progress"], prog_name="pulyacalc")
    return r.exit_code, r.stdout, r.stderr


def cyrillic_club(tmp_path: Path) -> Path:
    """Three evenings of a club whose names are Cyrillic; Вера misses the second."""
    club = tmp_path / "club"
    club.mkdir()
    deals = {
        "01-mon": ("Вера Борис Анна", "Вера 6♠ 5, Борис whist 3, Анна pass 2"),
        "02-wed": ("Борис Анна Ёжик", "Борис 7♥ 7, Анна whist 2, Ёжик pass 1"),
        "03-fri": ("Анна Вера Борис", "Анна 6♣ 6, Вера whist 2, Борис whist 2"),
    }
    for name, (players, deal) in deals.items():
        (club / f"{name}.txt").write_text(f"players: {players}\nconvention: sochi\n\n{deal}\n", "utf-8")
    return club


#: the tests that draw need the extra (the test and dev extras bring it)
drawing = pytest.mark.skipif(
    importlib.util.find_spec("matplotlib") is None, reason='the plot extra: pip install "pulyacalc[plot]"'
)


# -- start-up: the extra is never imported without --plot ---------------------------------

PROBE = """
import sys
sys.argv = ["pulyacalc", *sys.argv[1:]]
from pulyacalc.cli.app import main
try:
    main()
except SystemExit:
    pass
print(sorted(m for m in sys.modules if m.split(".")[0] == "matplotlib" or m == "pulyacalc.render.plot"),
      file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    [
        ["score", str(EXAMPLES / "sochi-3p.txt")],
        ["season", str(EXAMPLES / "sochi-3p.txt"), str(EXAMPLES / "rostov-3p.yaml")],
        ["season", "--help"],
        ["stats", str(EXAMPLES / "sochi-3p.txt"), str(EXAMPLES / "rostov-3p.yaml")],
    ],
    ids=["score", "season", "season-help", "stats"],
)
def test_without_plot_matplotlib_is_never_imported(args: list[str]) -> None:
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True)
    assert r.stderr.strip().splitlines()[-1] == "[]"


# -- the option ---------------------------------------------------------------------------


@drawing
def test_plot_writes_the_picture_and_leaves_the_table_as_it_was(tmp_path: Path) -> None:
    svg = tmp_path / "season.svg"
    logs = [str(EXAMPLES / "sochi-3p.txt"), str(EXAMPLES / "rostov-3p.yaml")]
    code, plain, _ = season(*logs)
    assert code == 0
    for fmt in ("table", "json"):
        code, out, err = season(*logs, "-f", fmt, "--plot", str(svg))
        assert code == 0, err
        assert out == (plain if fmt == "table" else season(*logs, "-f", "json")[1])
    text = svg.read_text("utf-8")
    assert text.startswith("<?xml") and "<svg" in text and text.rstrip().endswith("</svg>")
    # no temporary file is left beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["season.svg"]


def drawn_texts(svg: str) -> list[str]:
    """The texts matplotlib drew (it writes each beside its glyphs as a comment)."""
    return [t.strip() for t in re.findall(r"<!-- (.*?) -->", svg)]


@drawing
def test_every_player_is_named_in_the_legend_with_his_total(tmp_path: Path) -> None:
    club = cyrillic_club(tmp_path)
    svg = tmp_path / "club.svg"
    code, out, err = season(str(club), "--plot", str(svg), "-f", "json")
    assert code == 0, err
    import json

    standings = json.loads(out)["standings"]
    texts = drawn_texts(svg.read_text("utf-8"))
    for st in standings:
        from fractions import Fraction

        from pulyacalc.core.amounts import mixed

        shown = mixed(Fraction(st["total_exact"]))  # as the tables write it: 30⅔
        assert f"{st['player']}  {shown}" in texts, (st, texts)
    assert {"Вера", "Борис", "Анна", "Ёжик"} == {st["player"] for st in standings}
    # the evenings by name, the axes and the title
    assert {"start", "01-mon", "02-wed", "03-fri", "evening", "cumulative result, whists"} <= set(texts)
    assert any(t.startswith("Season: 3 evenings, 3 deals") for t in texts)


@drawing
def test_the_svg_is_the_same_bytes_for_the_same_season(tmp_path: Path) -> None:
    """Run in two processes: ids and hashes must not depend on the process or the clock."""
    club = cyrillic_club(tmp_path)
    outs = []
    for i in range(2):
        out = tmp_path / f"run{i}.svg"
        subprocess.run(
            [sys.executable, "-m", "pulyacalc", "season", str(club), "--plot", str(out)],
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(i + 1)},
        )
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert b"<dc:date>" not in outs[0]


@drawing
def test_the_picture_does_not_depend_on_the_users_matplotlib_settings(tmp_path: Path) -> None:
    import matplotlib

    from pulyacalc.render.plot import draw, season_picture
    from pulyacalc.reports.season import score_season

    picture = season_picture(score_season([str(cyrillic_club(tmp_path))]))
    before = draw(picture)
    with matplotlib.rc_context({"lines.linewidth": 9.0, "font.size": 30, "svg.hashsalt": None}):
        assert draw(picture) == before
        assert matplotlib.rcParams["lines.linewidth"] == 9.0  # and the caller's are left alone


@drawing
def test_a_png_when_the_file_says_so(tmp_path: Path) -> None:
    png = tmp_path / "season.PNG"
    code, _, err = season(str(EXAMPLES / "sochi-3p.txt"), "--plot", str(png))
    assert code == 0, err
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("-", "the picture goes to a file"),
        ("season.pdf", "name the file FILE.svg or FILE.png"),
        ("season", "name the file FILE.svg or FILE.png"),
        ("no/such/dir/season.svg", "no such directory no/such/dir"),
    ],
)
def test_a_wrong_plot_file_is_a_usage_error(value: str, says: str) -> None:
    code, out, err = season(str(EXAMPLES / "sochi-3p.txt"), "--plot", value)
    assert code == 2
    assert "'--plot'" in err and says in err
    assert out == ""


def test_no_picture_and_no_table_when_a_log_is_wrong(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("players: A B C\n\nA 6♠ 5, B whist 3, C pass 9\n", "utf-8")
    svg = tmp_path / "season.svg"
    svg.write_text("the old picture", "utf-8")
    code, out, err = season(str(EXAMPLES / "sochi-3p.txt"), str(bad), "--plot", str(svg))
    assert code == 1 and out == ""
    assert f"{bad}:" in err and "Traceback" not in err
    assert svg.read_text("utf-8") == "the old picture"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "season.svg"]


@drawing
def test_a_picture_that_cannot_be_written_is_a_message(tmp_path: Path) -> None:
    target = tmp_path / "taken.svg"
    target.mkdir()  # a directory where the file should go: refused at the option, before any work
    code, out, err = season(str(EXAMPLES / "sochi-3p.txt"), "--plot", str(target))
    assert code == 2 and out == ""
    assert "'--plot'" in err and f"{target}: is a directory" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.svg"]


@pytest.mark.parametrize("command", ["season", "stats"])
def test_without_the_extra_plot_says_how_to_install_it(tmp_path: Path, command: str) -> None:
    svg = tmp_path / "season.svg"
    probe = (
        "import sys\n"
        "sys.modules['matplotlib'] = None  # as if the extra were not installed\n"
        "from pulyacalc.cli.app import main\n"
        f"sys.argv = ['pulyacalc', {command!r}, {str(EXAMPLES / 'sochi-3p.txt')!r}, '--plot', {str(svg)!r}]\n"
        "main()\n"
    )
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stdout == ""
    assert 'pip install "pulyacalc[plot]"' in r.stderr and "--plot needs matplotlib" in r.stderr
    assert "Traceback" not in r.stderr
    assert not svg.exists()


# -- the numbers ---------------------------------------------------------------------------


@drawing
def test_each_line_is_the_running_total_and_ends_at_the_standing(tmp_path: Path) -> None:
    from pulyacalc.render.plot import season_picture
    from pulyacalc.reports.season import score_season

    s = score_season([str(cyrillic_club(tmp_path))])
    (panel,) = season_picture(s).panels
    by_name = {line.label.split("  ")[0]: line for line in panel.lines}
    assert list(by_name) == [st.player for st in s.standings]  # the legend in standings order
    results = [e.result for e in s.evenings]
    for st in s.standings:
        line = by_name[st.player]
        first = next(i for i, r in enumerate(results, 1) if st.player in r)
        assert line.xs == tuple(range(first - 1, len(results) + 1))
        assert line.ys[0] == 0  # from 0, just before his first evening
        total = Fraction(0)
        for x, y in zip(line.xs[1:], line.ys[1:], strict=True):
            total += Fraction(results[x - 1].get(st.player, 0))
            assert y == float(total)
        assert line.ys[-1] == float(st.total)
        # a marker on each evening he played, none on those he missed
        assert [line.xs[i] for i in line.marked] == [i for i, r in enumerate(results, 1) if st.player in r]
    вера = by_name["Вера"]
    assert вера.ys[2] == вера.ys[1]  # level through the evening she missed


def test_evening_names_are_paths_from_the_shared_folder() -> None:
    from pulyacalc.render.plot import evening_names

    assert evening_names(["club/2024/a.txt", "club/2024/b.yaml", "club/old/c.txt"]) == (
        "2024/a",
        "2024/b",
        "old/c",
    )
    assert evening_names(["mon.txt"]) == ("mon",)


# -- stats --plot: the results over the rating ---------------------------------------------


def stats(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, ["stats", *args, "--no-progress"], prog_name="pulyacalc")
    return r.exit_code, r.stdout, r.stderr


@drawing
def test_stats_draws_the_results_over_the_rating(tmp_path: Path) -> None:
    svg = tmp_path / "club.svg"
    club = cyrillic_club(tmp_path)
    code, out, err = stats(str(club), "--plot", str(svg))
    assert code == 0, err
    assert out == stats(str(club))[1]  # the table as without --plot
    texts = drawn_texts(svg.read_text("utf-8"))
    assert {"cumulative result, whists", "rating (openskill, μ − 3σ)"} <= set(texts)
    assert any(t.startswith("Club: 3 evenings, 3 deals") for t in texts)
    for name in ("Вера", "Борис", "Анна", "Ёжик"):
        assert sum(t.startswith(f"{name}  ") for t in texts) == 2, name  # in both legends


@drawing
def test_stats_picture_is_the_seasons_results_and_each_players_rating(tmp_path: Path) -> None:
    from pulyacalc.render.plot import season_picture, stats_picture
    from pulyacalc.reports.season import score_season
    from pulyacalc.reports.stats import score_stats

    logs = [str(cyrillic_club(tmp_path)), str(EXAMPLES)]
    club = score_stats(logs)
    results, rating = stats_picture(club).panels
    assert results == season_picture(score_season(logs)).panels[0]
    assert not rating.zero
    style = {line.label.split("  ")[0]: line.style for line in results.lines}
    for line in rating.lines:
        name = line.label.split("  ")[0]
        player = club.player(name)
        assert player is not None
        assert line.style == style[name]  # the same colour in both panels
        assert line.label == f"{name}  {player.rating.ordinal:.1f}"
        after = {pt.number: pt.rating.ordinal for pt in player.series}
        assert [line.xs[i] for i in line.marked] == sorted(after)
        assert [line.ys[i] for i in line.marked] == [after[n] for n in sorted(after)]
        assert line.ys[0] == 0  # a new player's ordinal, just before his first evening
    # the rating's legend is the club's order: best rating first
    assert [line.label.split("  ")[0] for line in rating.lines] == [p.player for p in club.players]


@drawing
def test_stats_player_page_with_a_picture_and_an_unknown_player_without(tmp_path: Path) -> None:
    club = cyrillic_club(tmp_path)
    svg = tmp_path / "club.svg"
    code, _, err = stats(str(club), "--player", "Вера", "--plot", str(svg))
    assert code == 0, err
    assert svg.exists()
    svg.unlink()
    code, out, err = stats(str(club), "--player", "Вероника", "--plot", str(svg))
    assert code == 2 and out == "" and "'--player'" in err
    assert not svg.exists()


# -- as a person sees it -------------------------------------------------------------------


@drawing
@pytest.mark.parametrize("command", [season, stats], ids=["season", "stats"])
def test_the_picture_renders_in_a_real_browser(
    tmp_path: Path, command: Callable[..., tuple[int, str, str]]
) -> None:
    import numpy as np
    from matplotlib.colors import to_rgb
    from matplotlib.image import imread

    svg = tmp_path / "season.svg"
    code, _, err = command(str(EXAMPLES), "--plot", str(svg))
    assert code == 0, err
    texts = drawn_texts(svg.read_text("utf-8"))
    for player in PLAYERS:
        assert any(t.startswith(f"{player}  ") for t in texts), player
    png = tmp_path / "shot.png"
    screenshot(svg, png)
    pixels = imread(str(png))[:, :, :3]  # floats 0..1
    flat = (pixels * 255).round().astype(int).reshape(-1, 3)
    ink = (flat < 235).any(axis=1)
    assert ink.mean() > 0.02, "the page is (almost) blank"
    colours = {tuple(c) for c in flat[ink][:: max(1, int(ink.sum()) // 20000)]}
    assert len(colours) > 50, "too few colours for lines, text and antialiasing"
    # every player's line can be seen: pixels of each line colour (10 players, tab10)
    for hex_colour in TAB10:
        want = np.array([round(c * 255) for c in to_rgb(hex_colour)])
        near = (np.abs(flat - want) <= 12).all(axis=1).sum()
        assert near > 150, f"{hex_colour}: {near} pixels of this line's colour"


@drawing
def test_a_dollar_in_a_name_or_a_file_name_is_drawn_as_written(tmp_path: Path) -> None:
    """Issue 31 item 11: ``$\\bad$`` was read as mathtext and crashed; a 200-character name
    printed matplotlib's UserWarning (with its install path)."""
    club = tmp_path / "club"
    club.mkdir()
    long = "N" * 200
    (club / "e$\\x$1.txt").write_text(
        "players: $\\bad$ Boris Vera\n\n$\\bad$ 6♠ 6, Boris whist 2, Vera pass\n"
    )
    (club / "e2.txt").write_text(f"players: {long} Boris Vera\n\n{long} 6♠ 6, Boris whist 2, Vera pass\n")
    svg = tmp_path / "club.svg"
    code, _, err = season(str(club), "--plot", str(svg))
    assert code == 0 and err == "", err
    texts = drawn_texts(svg.read_text("utf-8"))
    assert any(t.startswith("$\\bad$") for t in texts) and "e$\\x$1" in texts, texts
