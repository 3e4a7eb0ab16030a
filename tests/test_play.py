"""`pulyacalc play LOG` (issue 29): an evening typed at the table, each line checked as `score`
checks the log with it appended and on the disk before anything is shown."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import build

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PULYACALC_LANG": "en", "COLUMNS": "150"}
HEAD = "players: Anna Boris Vera\nconvention: leningrad\npool: 10\n\n"


def run(*args: str, stdin: str = "") -> Any:
    return CliRunner().invoke(build(), list(args), input=stdin, prog_name="pulyacalc")


def score(log: Path) -> str:
    r = run("score", str(log))
    assert r.exit_code == 0, r.output
    return str(r.stdout)


def test_a_scripted_evening_in_english(tmp_path: Path) -> None:
    log = tmp_path / "evening.txt"
    script = (
        "Anna Boris Vera\nleningrad\n10\n"
        "Boris 6♠ 6, Vera whist 3, Anna pass 2\n"  # 11 tricks: refused, not written
        "Boris 6♠ 6, Vera whist 3, Anna pass 1\n"
        "Vera misere 0\n"
        "Anna 7NT, Boris pass, Vera pass\n"
        "undo\n"
        "fix 1\nBoris 6♠ 7, Vera whist 2, Anna pass 1\nVera miscounted\n"
        "join Dan\nexplain 2\nledger\nexplain 9\n"
    )
    r = run("play", str(log), stdin=script)
    assert r.exit_code == 1  # two lines were refused: a script can tell
    assert "evening.txt:5:1: tricks add up to 11, more than 10" in r.stderr
    assert "explain N: N is a deal's number, from 1 to 2" in r.stderr
    assert "Vera mountain +0" not in r.stdout and "Vera pool +" in r.stdout  # a clean misère
    assert "Deal 2 (" in r.stdout  # explain 2 as `explain --deal 2` prints it
    text = log.read_text("utf-8")
    assert "# undone: Anna 7NT, Boris pass, Vera pass\n" in text  # nothing deleted
    corrections = [x for x in text.splitlines() if x.startswith("correction ")]
    assert corrections and all(
        '"deal 1 is Boris 6♠ 7, Vera whist 2, Anna pass 1: Vera miscounted"' in x for x in corrections
    )
    assert text.rstrip().endswith("join Dan")
    assert not (tmp_path / "evening.txt.lock").exists()
    # the corrections write what deal 1 typed right writes: the same sheet
    hand = tmp_path / "hand.txt"
    hand.write_text(HEAD + "Boris 6♠ 7, Vera whist 2, Anna pass 1\nVera misere 0\njoin Dan\n", "utf-8")
    assert run("check", str(log)).exit_code == 0
    assert _sheet(score(log)) == _sheet(score(hand))


def _sheet(shown: str) -> list[str]:
    # the sheet and the settlement: what a correction changes is its own line in the title
    return shown.splitlines()[1:]


def test_a_scripted_evening_in_russian(tmp_path: Path) -> None:
    log = tmp_path / "вечер.txt"
    script = (
        "Аня Боря Вера\nсочи\n\n"
        "Аня 6п 7, Боря вист 2, Вера пас 1\n"
        "распасы Аня 4, Боря 3, Вера 4\n"  # 11 tricks
        "распасы Аня 4, Боря 3, Вера 3\n"
        "отмена\nлист\nконец\n"
    )
    r = run("--lang", "ru", "play", str(log), stdin=script)
    assert r.exit_code == 1
    assert "взятки на распасах в сумме 11, а не 10" in r.stderr
    assert "отменено: распасы Аня 4, Боря 3, Вера 3" in r.stdout
    assert "сохранён" in r.stdout and "изменение" in r.stdout
    text = log.read_text("utf-8")
    assert text.startswith("игроки: Аня Боря Вера\nконвенция: сочи\n")
    assert "# отменено: распасы Аня 4, Боря 3, Вера 3\n" in text


def test_a_log_that_does_not_read_clean_is_not_played(tmp_path: Path) -> None:
    log = tmp_path / "bad.txt"
    log.write_text(HEAD + "Boris 6♠ 6, Vera whist 3, Anna pass 2\n", "utf-8")
    r = run("play", str(log), stdin="Vera misere 0\n")
    assert r.exit_code == 1 and "bad.txt:5:1: tricks add up to 11" in r.stderr
    assert log.read_text("utf-8").count("\n") == 5
    assert not (tmp_path / "bad.txt.lock").exists()


def test_a_yaml_log_a_fifo_and_standard_input_are_refused_leaving_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """play appends to a line log: a YAML one is refused at the file with the line that
    converts it, a FIFO (nothing to append to) too, and '-' is usage (stdin brings commands)."""
    (tmp_path / "e.yaml").write_text("players: [Anna, Boris, Vera]\ndeals: []\n", "utf-8")
    os.mkfifo(tmp_path / "f.txt")
    monkeypatch.chdir(tmp_path)
    r = run("play", "e.yaml")
    assert r.exit_code == 1
    assert r.stderr.startswith("e.yaml: play writes line logs, not YAML; convert it first: ")
    assert r.stderr.endswith("pulyacalc convert e.yaml --to lines -o e.txt\n")
    threading.Thread(target=lambda: Path("f.txt").write_text(HEAD, "utf-8"), daemon=True).start()
    r = run("play", "f.txt")
    assert r.exit_code == 1 and r.stderr.startswith("f.txt: not a regular file"), r.stderr
    r = run("play", "-")
    assert r.exit_code == 2 and "'LOG': play keeps its log in a file" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.yaml", "f.txt"]


def test_a_second_session_is_refused_and_a_dead_ones_lock_taken_over(tmp_path: Path) -> None:
    log = tmp_path / "e.txt"
    log.write_text(HEAD, "utf-8")
    lock = tmp_path / "e.txt.lock"
    other = subprocess.Popen(["sleep", "30"])
    try:
        lock.write_text(f"{other.pid}\n")
        r = run("play", str(log), stdin="Vera misere 0\n")
        assert r.exit_code == 1
        assert f"is open in another play session (process {other.pid})" in r.stderr
        assert lock.exists() and log.read_text("utf-8") == HEAD
    finally:
        other.kill()
        other.wait()
    r = run("play", str(log), stdin="Vera misere 0\n")  # its process is gone: the lock is stale
    assert r.exit_code == 0 and log.read_text("utf-8") == HEAD + "Vera misere 0\n"
    assert not lock.exists()


def _confirmed(p: subprocess.Popen[str]) -> str:
    """The session's output up to the new sheet's last row (the deal is on the disk by then)."""
    assert p.stdout is not None
    read = []
    while not (read and "moved" in read[-1]):
        read.append(p.stdout.readline())
        assert read[-1], "play ended before the deal was confirmed"
    while not read[-1].startswith("Vera "):
        read.append(p.stdout.readline())
    return "".join(read)


def test_sigkill_after_each_deal_loses_nothing_confirmed(tmp_path: Path) -> None:
    log = tmp_path / "e.txt"
    log.write_text(HEAD, "utf-8")
    deals = [
        "Boris 6♠ 7, Vera whist 2, Anna pass 1",
        "Vera misere 0",
        "raspasy Anna 4, Boris 3, Vera 3",
        "Anna 7♥, Boris pass, Vera pass",
    ]
    done = 0
    for group in ([deals[0]], [deals[1]], deals[2:]):
        p = subprocess.Popen(
            [sys.executable, "-m", "pulyacalc", "play", str(log)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        assert p.stdin is not None
        stuck = threading.Timer(20, p.kill)  # a session that never confirms fails, not hangs
        stuck.start()
        for deal in group:
            if done == 3:  # another program writes the log meanwhile: the session reads it again
                with open(log, "a", encoding="utf-8") as f:
                    f.write("# a note from another program\n")
            p.stdin.write(deal + "\n")
            p.stdin.flush()
            shown = _confirmed(p)
            assert ("e.txt changed on disk: read again" in shown) == (done == 3)
            done += 1
        stuck.cancel()
        p.send_signal(signal.SIGKILL)  # the lock stays behind, its process dead
        p.communicate(timeout=10)
        lines = [x for x in log.read_text("utf-8").splitlines() if x and not x.startswith("#")]
        assert lines[3:] == deals[:done]
    assert run("check", str(log)).exit_code == 0


def test_an_evening_typed_at_a_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("prompt_toolkit")
    env = {**ENV, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm"}
    c = pexpect.spawn(
        sys.executable,
        ["-m", "pulyacalc", "play", "e.txt"],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=10,
        dimensions=(40, 160),
    )
    try:
        c.expect("players, 2 to 5")
        c.sendline("Anna Boris Vera")
        c.expect("convention")
        c.send("len\t")
        c.expect("leningrad")  # completed (prompt_toolkit completes as it can: wait for it)
        c.send("\r")
        c.expect("pool")
        c.sendline("10")
        c.expect("deal 1 · Vera deals")
        c.send("Bo\t")
        c.expect("Boris")
        c.send(" 6♠ 7, Vera whist 2, Anna pass 2\r")
        c.expect("e.txt:5:1: tricks add up to 11, more than 10")
        c.send("\x081\r")  # the line is still in the editor: its last 2 made 1
        c.expect("moved")
        c.expect("deal 2 · Anna deals")
        c.sendline("Vera misere 0")
        c.expect("deal 3 · Boris deals")
        c.sendline("Anna 7NT, Boris pass, Vera pass")
        c.expect("deal 4")
        c.sendline("undo")
        c.expect("taken back: Anna 7NT")
        c.expect("deal 3 · Boris deals")
        c.sendline("fix 1")
        c.expect("deal 1 as it should be")
        c.send("\x15Boris 6♠ 6, Vera whist 3, Anna pass 1\r")  # Ctrl-U: the old line cleared
        c.expect("the reason")
        c.sendline("Vera miscounted")
        c.expect("deal 3 · Boris deals")
        c.sendline("end")
        c.expect("draw the sheet")
        c.sendline("pulya.svg")
        c.expect("e.txt is kept")
        c.expect(pexpect.EOF)
    finally:
        c.close()
    assert c.exitstatus == 0
    text = (tmp_path / "e.txt").read_text("utf-8")
    assert text.startswith(HEAD + "Boris 6♠ 7, Vera whist 2, Anna pass 1\nVera misere 0\n# undone: Anna 7NT")
    assert "<svg" in (tmp_path / "pulya.svg").read_text("utf-8")
    hand = tmp_path / "hand.txt"
    hand.write_text(HEAD + "Boris 6♠ 6, Vera whist 3, Anna pass 1\nVera misere 0\n", "utf-8")
    assert _sheet(score(tmp_path / "e.txt")) == _sheet(score(hand))


def test_the_table_watches_on_127_0_0_1(tmp_path: Path) -> None:
    pytest.importorskip("pulyacalc.cli.serve")
    from urllib.request import urlopen

    log = tmp_path / "e.txt"
    log.write_text(HEAD, "utf-8")
    p = subprocess.Popen(
        [sys.executable, "-m", "pulyacalc", "play", str(log), "--serve", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    assert p.stdin is not None and p.stdout is not None
    stuck = threading.Timer(20, p.kill)
    stuck.start()
    try:
        url = p.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        with urlopen(url, timeout=5) as r:
            assert "Anna" in r.read().decode("utf-8") and r.status == 200
        p.stdin.write("Vera misere 0\n")
        p.stdin.flush()
        _confirmed(p)
        with urlopen(url, timeout=5) as r:  # published before the deal was shown
            assert "misère" in r.read().decode("utf-8")
        p.stdin.close()
        assert p.wait(timeout=10) == 0
    finally:
        stuck.cancel()
        p.kill()
        p.wait()
        p.stdout.close()
        if p.stderr is not None:
            p.stderr.close()


def test_a_terminal_without_prompt_toolkit_gets_plain_lines_and_a_hint(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    hide = tmp_path / "hide" / "prompt_toolkit"
    hide.mkdir(parents=True)
    (hide / "__init__.py").write_text("raise ImportError('not installed')\n")
    log = tmp_path / "e.txt"
    log.write_text(HEAD, "utf-8")
    env = {**ENV, "PYTHONPATH": f"{hide.parent}{os.pathsep}{ROOT}"}
    c = pexpect.spawn(
        sys.executable, ["-m", "pulyacalc", "play", str(log)], env=env, encoding="utf-8", timeout=10
    )
    try:
        c.expect(r"pip install 'pulyacalc\[play\]'")
        c.expect("deal 1 · Vera deals> ")
        c.sendline("Vera misere 0")
        c.expect("moved")
        c.expect("deal 2 · Anna deals> ")
        c.sendeof()
        c.expect(pexpect.EOF)
    finally:
        c.close()
    assert c.exitstatus == 0 and log.read_text("utf-8") == HEAD + "Vera misere 0\n"
