"""`season` reads a new set of players' evenings under stand-in names (``play.Memos.stand_ins``)
so that a league shares the fold's answers as a club does: the season must be the very same —
standings, each evening's result and digest, duplicates, and every problem's words — as read
under the players' own names, whatever the names and however a log spells them."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pulyacalc.core.errors import PulyaError
from pulyacalc.play import Memos
from pulyacalc.reports.season import Season, score_season

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import genlog  # noqa: E402

#: names a league may seat: plain ones, Russian ones, ones a reader's word spells, a prefix of
#: another, ones that differ only in case
NAMES = (
    "Anna",
    "Ann",
    "Boris",
    "Vera",
    "Дима",
    "Gleb",
    "dealer",
    "Pass",
    "Lena",
    "lena2",
    "A1",
    "Талон",
    "Kostya",
)


def _spelled(line: str, names: tuple[str, ...], how: str, rng: random.Random) -> str:
    """A line with its names written as a hand might: as they are, in lower case, shortened."""
    if how == "exact" or line.startswith("#"):
        return line
    out = []
    for word in line.split(" "):
        bare = word.rstrip(",")
        if bare in names and rng.random() < 0.5:
            bare = bare.lower() if how == "lower" else bare[: rng.randint(1, len(bare))]
        out.append(bare + word[len(word.rstrip(",")) :])
    return " ".join(out)


def _evening(names: tuple[str, ...], seed: int, how: str, noted: bool) -> str:
    rng = random.Random(seed)
    lines = list(genlog.deals(rng, names, 12))
    if noted:
        lines = [f"{ln}  # {rng.choice(names)} deals" for ln in lines]
    body = "\n".join(_spelled(ln, names, how, rng) for ln in lines)
    return f"players: {' '.join(names)}\nconvention: sochi\npool: 10\n\n{body}\n"


def _season(tmp: Path, texts: list[str], stand_ins: bool, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as m:
        if not stand_ins:
            m.setattr(Memos, "stand_ins", lambda self, log: (log, {}))
        try:
            s = score_season([str(tmp)], keep_going=True)
        except PulyaError as e:
            return [str(p) for p in e.problems]
    assert isinstance(s, Season)
    return s, [(f, [str(p) for p in ps]) for f, ps in s.failed]


evenings = st.lists(
    st.tuples(
        st.lists(st.sampled_from(NAMES), min_size=3, max_size=4, unique=True),
        st.integers(0, 10**6),
        st.sampled_from(("exact", "exact", "lower", "short")),
        st.booleans(),
    ),
    min_size=1,
    max_size=6,
)


@given(drawn=evenings, rng=st.randoms(use_true_random=False))
def test_a_season_under_stand_ins_is_the_season_under_the_players_names(
    drawn: list[tuple[list[str], int, str, bool]],
    rng: random.Random,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    monkeypatch = pytest.MonkeyPatch()
    tmp = tmp_path_factory.mktemp("season")
    texts = [_evening(tuple(names), seed, how, noted) for names, seed, how, noted in drawn]
    texts += [rng.choice(texts)]  # an evening twice: a duplicate, however it is spelled
    for i, text in enumerate(texts):
        (tmp / f"e{i:02}.txt").write_text(text, "utf-8")
    assert _season(tmp, texts, True, monkeypatch) == _season(tmp, texts, False, monkeypatch)


def test_a_league_is_read_under_stand_ins_and_a_club_under_its_own_names(tmp_path: Path) -> None:
    """The first set of players keeps its names; a new set is stood in; a log that names a
    player otherwise than exactly is read again under the names, and its digest is the same."""
    for i, names in enumerate(
        (("Anna", "Boris", "Vera"), ("Gleb", "Дима", "Lena"), ("Anna", "Boris", "Vera"))
    ):
        (tmp_path / f"e{i}.txt").write_text(_evening(names, i, "exact", False), "utf-8")
    head, body = _evening(("Gleb", "Дима", "Lena"), 1, "exact", False).split("\n\n")
    short = head + "\n\n" + body.replace("Gleb ", "Gl ")  # the same evening, a name shortened
    (tmp_path / "e3.txt").write_text(short, "utf-8")
    seen = []
    original = Memos.stand_ins

    def watched(self: Memos, log: object) -> object:
        out = original(self, log)  # type: ignore[arg-type]
        seen.append(sorted(out[1].values()))
        return out

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Memos, "stand_ins", watched)
        s = score_season([str(tmp_path)])
    assert seen == [[], ["Gleb", "Lena", "Дима"], [], ["Gleb", "Lena", "Дима"]]
    assert s.duplicates == ((str(tmp_path / "e3.txt"), str(tmp_path / "e1.txt")),)
    assert [e.players for e in s.evenings][1] == ("Gleb", "Дима", "Lena")
