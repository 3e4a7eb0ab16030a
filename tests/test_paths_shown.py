"""A log and its convention printed the same way (issue #10 item 15): the convention file
a log names is shown joined to the log's path as the user typed it (``./club/ev.txt``
names ``./club/club.yaml``; ``../club/ev.txt`` names ``../club/club.yaml``), and a ``-c``
path as typed, in titles and in messages alike; never made absolute or relative to the
working directory behind the user's back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app

LOG = "players: Anna Boris Vera\nconvention: {conv}\n\nAnna 6♠, Boris pass, Vera pass\n"
#: a house convention with no title: the title line names it by its path
HOUSE = "extends: sochi\nname: club\nwhist:\n  on_failure: gentleman\n"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, ["--lang", "en", *args], prog_name="pulyacalc")
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp/club/{ev.txt, club.yaml, bad.ev.txt, bad.yaml, chain.ev.txt, chain.yaml}, and tmp/work."""
    d = tmp_path / "club"
    d.mkdir()
    (tmp_path / "work").mkdir()
    (d / "club.yaml").write_text(HOUSE, encoding="utf-8")
    (d / "ev.txt").write_text(LOG.format(conv="club.yaml"), encoding="utf-8")
    (d / "bad.yaml").write_text(HOUSE.replace("on_failure", "on_failur"), encoding="utf-8")
    (d / "bad.ev.txt").write_text(LOG.format(conv="bad.yaml"), encoding="utf-8")
    (d / "chain.yaml").write_text("extends: bad.yaml\nname: chain\n", encoding="utf-8")
    (d / "chain.ev.txt").write_text(LOG.format(conv="chain.yaml"), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path


@pytest.mark.parametrize("where", ["../club", "./../club", "{abs}", "../work/../club"])
def test_the_title_names_the_convention_beside_the_log_as_typed(club: Path, where: str) -> None:
    where = where.format(abs=club / "club")
    code, out, err = run("score", f"{where}/ev.txt")
    assert code == 0, err
    assert out.startswith(f"{where}/club.yaml, 3 players"), out.splitlines()[0]


def test_from_the_logs_own_directory(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(club)
    for log in ("club/ev.txt", "./club/ev.txt"):
        assert run("score", log)[1].startswith(f"{os.path.dirname(log)}/club.yaml, ")
    monkeypatch.chdir(club / "club")
    assert run("score", "ev.txt")[1].startswith("club.yaml, ")


@pytest.mark.parametrize("typed", ["../club/club.yaml", "./../club/club.yaml", "{abs}"])
def test_a_convention_given_with_c_is_shown_as_typed(club: Path, typed: str) -> None:
    typed = typed.format(abs=club / "club" / "club.yaml")
    code, out, err = run("score", "../club/ev.txt", "-c", typed)
    assert code == 0, err
    assert out.startswith(f"{typed}, 3 players")
    code, _, err = run("score", "../club/ev.txt", "-c", typed.replace("club.yaml", "bad.yaml"))
    assert code == 1
    assert err.startswith(typed.replace("club.yaml", "bad.yaml") + ":4:3: unknown convention key")


@pytest.mark.parametrize("log", ["./../club/{}", "../club/{}", "{abs}"])
def test_messages_name_the_convention_as_the_log_is_named(club: Path, log: str) -> None:
    """A problem in the convention file (or in one it extends) is located in it, spelled
    from the log's path as typed, as the log's own problems are."""
    for name, conv in (("bad.ev.txt", "bad.yaml"), ("chain.ev.txt", "bad.yaml")):
        typed = log.format(name, abs=club / "club" / name)
        code, _, err = run("score", typed)
        assert code == 1
        want = os.path.join(os.path.dirname(typed), conv)
        assert err.startswith(f"{want}:4:3: unknown convention key 'whist.on_failur'"), err


def test_a_missing_convention_is_looked_for_beside_the_log_as_typed(club: Path) -> None:
    (club / "club" / "gone.ev.txt").write_text(LOG.format(conv="gone.yaml"), encoding="utf-8")
    code, _, err = run("score", "./../club/gone.ev.txt")
    assert code == 1
    assert err.startswith("./../club/gone.ev.txt:2:")
    assert "looked for next to the log: ./../club/gone.yaml" in err
