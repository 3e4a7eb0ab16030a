"""Writing a named file (issue 11 item 6): every ``-o`` goes through the one writer,
``pulyacalc.cli.output.replaced``, which writes through a symbolic link, refuses a FIFO,
a device or a directory, keeps the file's permissions and hard links, and takes ``-`` for
standard output; ``convert -o`` takes its format from the name or refuses a name that
says the other format."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "sochi-3p.txt"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args), prog_name="pulyacalc")
    return r.exit_code, r.stdout, r.stderr


def converted(to: str) -> str:
    code, out, err = run("convert", str(EXAMPLE), "--to", to)
    assert (code, err) == (0, "")
    return out


@pytest.mark.parametrize("command", [["convert", "--to", "yaml"], ["score"]])
def test_a_symbolic_link_is_written_through_and_kept(tmp_path: Path, command: list[str]) -> None:
    target = tmp_path / "real.yaml"
    target.write_text("old\n", "utf-8")
    link = tmp_path / "link.yaml"
    link.symlink_to(target.name)
    code, _, err = run(command[0], str(EXAMPLE), *command[1:], "-o", str(link))
    assert (code, err) == (0, "")
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text("utf-8") != "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.yaml", "real.yaml"]  # nothing left


def test_a_dangling_link_makes_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.yaml"
    link.symlink_to("made.yaml")
    assert run("convert", str(EXAMPLE), "-o", str(link))[0] == 0
    assert link.is_symlink() and (tmp_path / "made.yaml").read_text("utf-8") == converted("yaml")


def test_a_device_or_a_directory_is_refused(tmp_path: Path) -> None:
    code, _, err = run("score", str(EXAMPLE), "-o", str(tmp_path))
    assert code == 2 and "is a directory" in err
    # a device of our own (never /dev/null: a writer with the bug would replace it for everyone)
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (AttributeError, OSError):
        pytest.skip("cannot make a device node here (needs root)")
    code, _, err = run("convert", str(EXAMPLE), "--to", "lines", "-o", str(device))
    assert code == 2 and f"{device}: is a device" in err
    assert stat.S_ISCHR(device.stat().st_mode)


def test_permissions_are_kept(tmp_path: Path) -> None:
    out = tmp_path / "out.yaml"
    out.write_text("old\n", "utf-8")
    out.chmod(0o640)
    assert run("convert", str(EXAMPLE), "-o", str(out))[0] == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert out.read_text("utf-8") == converted("yaml")


def test_hard_links_are_kept_and_all_show_the_new_content(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old and rather longer than the new content will be\n" * 200, "utf-8")
    other = tmp_path / "other.txt"
    os.link(out, other)
    inode = out.stat().st_ino
    assert run("convert", str(EXAMPLE), "--to", "lines", "-o", str(out))[0] == 0
    assert out.stat().st_ino == inode and out.stat().st_nlink == 2
    assert other.read_text("utf-8") == out.read_text("utf-8") == converted("lines")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.txt", "out.txt"]


def test_a_failed_log_leaves_a_hard_linked_file_as_it_was(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("players: Anna Boris Vera\nAnna 6♠ 7, Bors whist 2\n", "utf-8")
    out = tmp_path / "out.yaml"
    out.write_text("old\n", "utf-8")
    os.link(out, tmp_path / "other.yaml")
    assert run("convert", str(bad), "-o", str(out))[0] == 1
    assert out.read_text("utf-8") == "old\n"


def test_dash_is_standard_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # given back after the test: the next file's relative paths
    code, out, _ = run("convert", str(EXAMPLE), "--to", "lines", "-o", "-")
    assert code == 0 and out == converted("lines")
    assert not (tmp_path / "-").exists()


def test_dash_is_all_or_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("players: Anna Boris Vera\nAnna 6♠ 7, Boris whist 2, Vera pass 1\nAnna 6x\n", "utf-8")
    code, out, err = run("convert", str(bad), "--to", "lines", "-o", "-")
    assert code == 1 and out == "" and f"{bad}:3:" in err


@pytest.mark.parametrize(
    ("name", "to"), [("b.yaml", "yaml"), ("b.YML", "yaml"), ("b.pulya", "lines"), ("b.txt", "lines")]
)
def test_the_name_says_the_format_when_to_is_left_out(tmp_path: Path, name: str, to: str) -> None:
    out = tmp_path / name
    assert run("convert", str(EXAMPLE), "-o", str(out))[0] == 0
    assert out.read_text("utf-8") == converted(to)


@pytest.mark.parametrize(("name", "to"), [("b.yaml", "lines"), ("b.txt", "yaml"), ("b.lines", "yaml")])
def test_a_name_that_says_the_other_format_is_refused(tmp_path: Path, name: str, to: str) -> None:
    out = tmp_path / name
    out.write_text("old\n", "utf-8")
    code, _, err = run("convert", str(EXAMPLE), "--to", to, "-o", str(out))
    assert code == 2 and "Invalid value for '-o'" in err and f"but --to says {to}" in err
    assert out.read_text("utf-8") == "old\n"


def test_without_to_a_name_that_says_nothing_is_usage(tmp_path: Path) -> None:
    code, _, err = run("convert", str(EXAMPLE))
    assert code == 2 and "'--to'" in err
    code, _, err = run("convert", str(EXAMPLE), "-o", str(tmp_path / "b.out"))
    assert code == 2 and "'--to'" in err
    # a name that says nothing takes either format when --to says which
    assert run("convert", str(EXAMPLE), "--to", "yaml", "-o", str(tmp_path / "b.out"))[0] == 0


# -- issue 31 items 2-4, 13, 20 and issue 28 items 1-2 ---------------------------------------


def test_an_interrupted_output_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole output goes through one temporary file: a run stopped after its first piece
    leaves the old file, and no temporary file (it once appended the rest to the file)."""
    from pulyacalc.cli import output

    real = output.write

    def cut(text: str) -> None:
        real(text)
        raise KeyboardInterrupt

    monkeypatch.setattr(output, "write", cut)
    out = tmp_path / "out.txt"
    out.write_text("old\n", "utf-8")
    for command in ("explain", "ledger"):
        assert run(command, str(EXAMPLE), "-o", str(out))[0] == 130
        assert out.read_text("utf-8") == "old\n"
        assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_dev_stdout_is_the_open_descriptor(tmp_path: Path) -> None:
    """`-o /dev/stdout >> results.txt` appends, as `>>` says, never replaces results.txt."""
    import subprocess
    import sys

    results = tmp_path / "results.txt"
    results.write_text("earlier\n", "utf-8")
    for name in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"):
        line = f"{sys.executable} -m pulyacalc score {EXAMPLE} -o {name} >> {results}"
        assert subprocess.run(["sh", "-c", line], timeout=60).returncode == 0
    text = results.read_text("utf-8")
    assert text.startswith("earlier\n") and text.count("Sochi") == 3


def test_a_read_only_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old\n", "utf-8")
    out.chmod(0o444)
    code, _, err = run("score", str(EXAMPLE), "-o", str(out))
    assert code == 2 and "'-o'" in err and "read-only" in err
    assert out.read_text("utf-8") == "old\n"


def test_a_name_of_255_characters_is_written(tmp_path: Path) -> None:
    out = tmp_path / ("n" * 251 + ".txt")
    assert run("score", str(EXAMPLE), "-o", str(out))[0] == 0
    assert out.read_text("utf-8") == run("score", str(EXAMPLE))[1]


@pytest.mark.parametrize(
    "args",
    [
        ["score", "lo\ng\u202e.txt"],  # a newline would split FILE:LINE:COL
        ["score", str(EXAMPLE), "--fo\u202eo\x1b[2J"],  # an unknown option's name
        ["score", str(EXAMPLE), "-o", "x\x1b[2J.csv", "-f", "json"],  # -o's usage error
        ["season", str(EXAMPLE), "--plot", "x\u202e\x1b[2J.gif"],  # --plot's
        ["season", "{tmp}"],  # the "skipped" note of a file in a folder
    ],
)
def test_paths_are_echoed_safe(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "a\x1b[2J\u202e.txt").write_text("not a log\n", "utf-8")
    (tmp_path / "log.txt").write_text(EXAMPLE.read_text("utf-8"), "utf-8")
    _, _, err = run(*(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert err and not any(c in err for c in "\x1b\u202e") and "\n" not in err.split(":")[0], err


def test_new_keeps_a_file_with_text_and_force_replaces_it(tmp_path: Path) -> None:
    log = tmp_path / "evening.txt"
    log.write_text("players: Anna Boris Vera\nAnna 6♠ 7, Boris whist 2, Vera pass 1\n", "utf-8")
    code, _, err = run("new", "-p", "A B C", "-o", str(log))
    assert code == 2 and "--force" in err and "Anna 6♠" in log.read_text("utf-8")
    assert run("new", "-p", "A B C", "-o", str(log), "--force")[0] == 0
    assert "players: A B C" in log.read_text("utf-8")
    empty = tmp_path / "empty.txt"
    empty.touch()
    assert run("new", "-p", "A B C", "-o", str(empty))[0] == 0


def test_a_log_or_a_sheet_is_replaced_only_with_force(tmp_path: Path) -> None:
    typed = tmp_path / "other.txt"
    typed.write_text("игроки: Аня Боря Вера\n", "utf-8")
    code, _, err = run("score", str(EXAMPLE), "-o", str(typed))
    assert code == 2 and "'-o'" in err and "--force" in err
    assert run("score", str(EXAMPLE), "-o", str(typed), "--force")[0] == 0
    assert typed.read_text("utf-8") == run("score", str(EXAMPLE))[1]
    report = tmp_path / "report.txt"  # a report is replaced as it always was
    report.write_text(run("explain", str(EXAMPLE))[1], "utf-8")
    assert run("score", str(EXAMPLE), "-o", str(report))[0] == 0


REPORTS = {
    "score": ["score", str(EXAMPLE)],
    "settle": ["settle", str(ROOT / "examples" / "sheet.yaml")],
    "explain": ["explain", str(EXAMPLE)],
    "ledger": ["ledger", str(EXAMPLE)],
    "season": ["season", str(EXAMPLE)],
    "stats": ["stats", str(EXAMPLE)],
    "compare": ["compare", str(EXAMPLE)],
    "prices": ["prices"],
    "check": ["check", str(EXAMPLE)],
    "dispute": ["dispute", str(EXAMPLE), "--deal", "1"],
    "conventions": ["conventions", "show", "sochi"],
}


@pytest.mark.parametrize("command", REPORTS)
def test_the_extension_says_the_format(tmp_path: Path, command: str) -> None:
    args = REPORTS[command]
    for suffix, fmt in ((".csv", "csv"), (".json", "json")):
        out = tmp_path / f"out{suffix}"
        code, _, err = run(*args, "-o", str(out))
        assert code == 0, err
        assert out.read_text("utf-8") == run(*args, "-f", fmt)[1]
    code, _, err = run(*args, "-o", str(tmp_path / "x.csv"), "-f", "json")
    assert code == 2 and "'-o'" in err and "-f says json" in err


@pytest.mark.parametrize(
    ("suffix", "fmt"), [(".tsv", "tsv"), (".jsonl", "jsonl"), (".txt", "table"), (".out", "table")]
)
def test_every_extension(tmp_path: Path, suffix: str, fmt: str) -> None:
    out = tmp_path / f"out{suffix}"
    assert run("score", str(EXAMPLE), "-o", str(out))[0] == 0
    assert out.read_text("utf-8") == run("score", str(EXAMPLE), "-f", fmt)[1]
    # -f wins over a name that says nothing
    assert run("score", str(EXAMPLE), "-o", str(tmp_path / "x.out"), "-f", "csv")[0] == 0
