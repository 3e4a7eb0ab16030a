"""Hostile and careless input (issue #11): keys given twice, YAML anchors and aliases of
any kind, numbers past every sane bound, files that never end or never break a line,
and values that would echo terminal escapes.  Each is a located message, exit 1 for a
file and exit 2 naming the option for an option, at once; never a traceback, never a
value silently dropped.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app

runner = CliRunner()
LOG = "players: [Anna, Boris, Vera]\n"
DEAL = "Anna 6♠ 7, Boris whist 2, Vera pass 1"


def cli(*args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    t = time.perf_counter()
    r = runner.invoke(app, list(args), prog_name="pulyacalc")
    took = time.perf_counter() - t
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert took < 10.0, f"took {took:.1f} s"
    return r.exit_code, r.stdout, r.stderr


def refused(path: Path, *args: str, command: str = "score", at: Path | None = None) -> str:
    """Run ``command`` on ``path``: it must fail with exit 1 and located messages only,
    the first in ``at`` (by default ``path``)."""
    code, out, err = cli(command, str(path), *args)
    assert code == 1, (out, err)
    assert out == ""
    assert err.startswith(str(at or path)), err
    return err


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# -- item 4: a key given twice is an error at both places ---------------------------------


def test_deals_twice_is_an_error_at_both_places(tmp_path: Path) -> None:
    p = write(tmp_path, "d.yaml", f"{LOG}deals:\n  - {DEAL}\ndeals:\n  - {DEAL}\n")
    err = refused(p)
    assert f"{p}:4:1: the key 'deals' is given twice in one mapping, first at line 2, column 1" in err


def test_declarer_twice_is_an_error_at_both_places(tmp_path: Path) -> None:
    deal = (
        "  - declarer: Anna\n    declarer: Boris\n    contract: 6♠\n"
        "    defenders: {Boris: whist, Vera: pass}\n    tricks: {Anna: 6, Boris: 3, Vera: 1}\n"
    )
    p = write(tmp_path, "d.yaml", f"{LOG}deals:\n{deal}")
    err = refused(p)
    assert f"{p}:4:5: the key 'declarer' is given twice in one mapping, first at line 3, column 5" in err


def test_extends_twice_is_an_error_at_both_places(tmp_path: Path) -> None:
    conv = write(tmp_path, "house.yaml", "extends: sochi\nextends: leningrad\n")
    p = write(tmp_path, "d.yaml", f"{LOG}convention: house.yaml\ndeals: []\n")
    err = refused(p, at=conv)
    assert (
        f"{conv.name}:2:1: the key 'extends' is given twice in one mapping, first at line 1, column 1" in err
    )


def test_a_convention_key_nested_and_dotted_is_set_twice(tmp_path: Path) -> None:
    text = "extends: sochi\nwhist: {on_failure: greedy}\nwhist.on_failure: gentleman\n"
    conv = write(tmp_path, "house.yaml", text)
    p = write(tmp_path, "d.yaml", f"{LOG}convention: house.yaml\ndeals: []\n")
    err = refused(p, at=conv)
    assert "house.yaml:3:1: 'whist.on_failure' is set twice, first at line 2, column 21" in err


@pytest.mark.parametrize("second", ["Anna", "anna"])
def test_a_sheet_row_twice_is_an_error_at_both_places(tmp_path: Path, second: str) -> None:
    rows = "".join(f"  {n}: {{pool: 0, mountain: 0, whists: {{}}}}\n" for n in ("Anna", "Boris", "Vera"))
    rows += f"  {second}: {{pool: 10, mountain: 0, whists: {{}}}}\n"
    p = write(tmp_path, "s.yaml", f"{LOG}sheet:\n{rows}")
    err = refused(p, command="settle")
    assert f"{p}:6:3: " in err and "first at line 3, column 3" in err, err


def test_whists_on_one_opponent_twice_in_a_sheet_row(tmp_path: Path) -> None:
    rows = "  Anna: {pool: 0, mountain: 0, whists: {Boris: 2, boris: 4}}\n"
    rows += "".join(f"  {n}: {{pool: 0, mountain: 0, whists: {{}}}}\n" for n in ("Boris", "Vera"))
    p = write(tmp_path, "s.yaml", f"{LOG}sheet:\n{rows}")
    err = refused(p, command="settle")
    assert "Anna's whists on Boris are given twice, first at" in err, err


def test_a_line_log_override_twice_is_an_error_at_both_places(tmp_path: Path) -> None:
    text = f"players: Anna Boris Vera\nwhist.on_failure: greedy\nwhist.on_failure: gentleman\n\n{DEAL}\n"
    p = write(tmp_path, "o.txt", text)
    err = refused(p)
    assert f"{p}:3:1: 'whist.on_failure' is set twice, first at line 2, column 1" in err


def test_a_line_log_header_key_twice_names_the_first_place(tmp_path: Path) -> None:
    p = write(tmp_path, "o.txt", f"players: Anna Boris Vera\npool: 10\nпуля: 20\n\n{DEAL}\n")
    err = refused(p)
    assert f"{p}:3:1: header 'пуля' is given twice, first at line 2, column 1" in err


def test_an_extends_chain_has_a_depth_limit(tmp_path: Path) -> None:
    for i in range(12):
        write(tmp_path, f"c{i}.yaml", f"extends: c{i + 1}.yaml\n" if i < 11 else "extends: sochi\n")
    p = write(tmp_path, "d.yaml", f"{LOG}convention: c0.yaml\ndeals: []\n")
    err = refused(p, at=tmp_path / "c7.yaml")  # at its extends: line
    assert f"{tmp_path / 'c7.yaml'}:1:10: a chain of extends: is more than 8 conventions long" in err


def test_an_extends_cycle_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    p = write(tmp_path, "d.yaml", f"{LOG}convention: a.yaml\ndeals: []\n")
    err = refused(p, at=tmp_path / "b.yaml")  # at the extends: that closes the cycle
    assert f"{tmp_path / 'b.yaml'}:1:10: a convention extends itself (a cycle of extends:)" in err


# -- item 3: anchors and aliases of any kind ----------------------------------------------


def test_a_scalar_alias_is_refused_at_its_place(tmp_path: Path) -> None:
    p = write(tmp_path, "a.yaml", f"{LOG}title: &t hello\nplace: *t\ndeals: []\n")
    err = refused(p)
    assert f"{p}:2:8: YAML anchors (&t) are not supported" in err
    assert f"{p}:3:8: YAML aliases (*t) are not supported" in err


def test_an_unused_anchor_is_refused(tmp_path: Path) -> None:
    p = write(tmp_path, "a.yaml", f"{LOG}deals: &d []\n")
    assert f"{p}:2:8: YAML anchors (&d) are not supported" in refused(p)


def test_a_scalar_alias_flood_stays_small(tmp_path: Path) -> None:
    # one long scalar, aliased as a deal 3,000 times: each would echo it in its problem
    long = "x" * 9000
    text = f"{LOG}title: &t {long}\ndeals:\n" + "  - *t\n" * 3000
    p = write(tmp_path, "flood.yaml", text)
    err = refused(p)
    assert len(err) < 30_000, len(err)
    assert "and more anchors and aliases from line 103 on, not shown" in err


def test_problems_of_one_file_are_capped_and_counted(tmp_path: Path) -> None:
    text = "players: Anna Boris Vera\n\n" + "Anna 6♠ 7, Boris wist 2, Vera pass 1\n" * 500
    p = write(tmp_path, "many.txt", text)
    err = refused(p)
    assert err.count("unknown") + err.count("wist") >= 100
    assert f"{p}: and 400 more problems not shown (500 in all; the first 100 are shown)" in err
    assert len(err) < 100 * 400, len(err)


def located(err: str) -> bool:
    return re.match(r"^\S.*?:\d+(:\d+)?: \S", err) is not None


# -- item 2: numbers past every bound -----------------------------------------------------

BIG = "9" * 5000
SHEET_ROWS = "  Boris: {pool: 0, mountain: 0, whists: {}}\n  Vera: {pool: 0, mountain: 0, whists: {}}\n"


@pytest.mark.parametrize(
    ("value", "want"),
    [
        ("1/0", "'1/0' divides by zero"),
        ("3/000", "'3/000' divides by zero"),
        (BIG, "is out of range, expected at most 1,000,000,000 in size"),
        ("1" + "0" * 26, "is out of range, expected at most 1,000,000,000 in size"),
        ("-1000000001", "is out of range"),
        ("0.0000001", "'0.0000001' is too fine"),
        ("1/3000001", "is too fine"),
    ],
)
def test_a_sheet_number_out_of_bounds_is_located(tmp_path: Path, value: str, want: str) -> None:
    text = f"{LOG}sheet:\n  Anna: {{pool: 0, mountain: {value}, whists: {{}}}}\n{SHEET_ROWS}"
    p = write(tmp_path, "s.yaml", text)
    err = refused(p, command="settle")
    assert err.startswith(f"{p}:3:29: Anna's mountain: "), err
    assert want in err
    assert len(err) < 1000


def test_the_largest_numbers_still_read(tmp_path: Path) -> None:
    text = (
        f"{LOG}sheet:\n  Anna: {{pool: 0, mountain: 1000000000, whists: {{Boris: 1/1000000}}}}\n{SHEET_ROWS}"
    )
    code, out, err = cli("settle", str(write(tmp_path, "s.yaml", text)), "-f", "json")
    assert code == 0, err


@pytest.mark.parametrize(
    ("head", "where", "want"),
    [
        (f"pool: {BIG}", "2:7", "pool (the target): '99999"),
        ("pool: 100001", "2:7", "pool (the target): 100001 is out of range, expected 1..100,000"),
    ],
)
def test_a_header_number_out_of_bounds_is_located(tmp_path: Path, head: str, where: str, want: str) -> None:
    p = write(tmp_path, "h.yaml", f"{LOG}{head}\ndeals: []\n")
    err = refused(p)
    assert err.startswith(f"{p}:{where}: {want}"), err


@pytest.mark.parametrize(
    ("value", "want"),
    [
        ("1/0", "divides by zero"),
        (BIG, "out of range"),
        ("100001", "pool.target: 100001 is out of range, expected 1..100,000"),
    ],
)
def test_a_convention_number_out_of_bounds_is_located(tmp_path: Path, value: str, want: str) -> None:
    key = "target" if value == "100001" else "point_in_mountain"
    conv = write(tmp_path, "house.yaml", f"extends: sochi\npool:\n  {key}: {value}\n")
    p = write(tmp_path, "d.yaml", f"{LOG}convention: house.yaml\ndeals: []\n")
    err = refused(p, at=conv)
    assert want in err, err


def test_a_5000_digit_deal_number_is_located_at_once(tmp_path: Path) -> None:
    p = write(tmp_path, "n.txt", f"players: Anna Boris Vera\n\n{BIG}. {DEAL}\n")
    err = refused(p)
    assert err.startswith(f"{p}:3:1: deal number 99999"), err
    assert len(err.splitlines()[0]) < 300


def usage_error(option: str, *args: str) -> str:
    code, out, err = cli(*args)
    assert code == 2, (out, err)
    assert out == ""
    assert f"'{option}'" in err, err
    return err


@pytest.mark.parametrize(
    ("price", "want"),
    [
        ("1e400", "a number from 0 to 1,000,000"),
        ("1e99999999", "a number from 0 to 1,000,000"),
        ("1000000.01", "a number from 0 to 1,000,000"),
        ("-1", "a number from 0 to 1,000,000"),
        ("NaN", "is not a number"),
        ("Infinity", "is not a number"),
        (BIG, "is not a number"),
        ("0.0000001", "at most 6 decimal places"),
        ("1e-400", "at most 6 decimal places"),
    ],
)
def test_a_whist_price_out_of_bounds_is_usage(price: str, want: str) -> None:
    err = usage_error("--whist-price", "score", "examples/rostov-3p.yaml", f"--whist-price={price}")
    assert want in err


def test_the_largest_whist_price_gives_valid_json() -> None:
    import json

    code, out, err = cli("score", "examples/rostov-3p.yaml", "--whist-price", "1000000", "-f", "json")
    assert code == 0, err
    assert "Infinity" not in out
    json.loads(out)


@pytest.mark.parametrize("size", ["99999999999999999999999G", "2G", BIG, "0", "1.5M"])
def test_a_max_yaml_bytes_out_of_bounds_is_usage(size: str) -> None:
    usage_error("--max-yaml-bytes", "score", "examples/rostov-3p.yaml", f"--max-yaml-bytes={size}")


# -- item 3: reading stays bounded in time and memory -------------------------------------


def run_cli(*args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    """The installed program in a process of its own (a hang is a failure, not a hang)."""
    return subprocess.run(
        [sys.executable, "-m", "pulyacalc", *args], capture_output=True, text=True, timeout=timeout
    )


def test_a_bad_byte_deep_in_a_long_line_is_located(tmp_path: Path) -> None:
    p = tmp_path / "b.txt"
    p.write_bytes(b"players: Anna Boris Vera\n\n" + "é".encode() * 70_000 + b"\xff\n")
    err = refused(p)
    assert err.startswith(f"{p}:3:70001: not UTF-8 text"), err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("fmt", [[], ["--input-format", "lines"], ["--input-format", "yaml"]])
def test_dev_zero_as_a_log_is_refused_at_once(fmt: list[str]) -> None:
    r = run_cli("score", "/dev/zero", *fmt)
    assert r.returncode == 1, r.stderr
    assert r.stderr.startswith("/dev/zero"), r.stderr
    assert "Traceback" not in r.stderr


def test_a_file_without_newlines_is_read_bounded(tmp_path: Path) -> None:
    p = tmp_path / "one.txt"
    p.write_text("players: Anna Boris Vera " + "x" * 5_000_000, encoding="utf-8")
    err = refused(p)
    assert f"{p}:1:1: line 1 does not end within 1,000,000 characters" in err


def test_a_long_line_is_skipped_and_reading_goes_on(tmp_path: Path) -> None:
    p = write(
        tmp_path, "l.txt", f"players: Anna Boris Vera\n\n{'A' * 50_000}\n{DEAL}\nAnna 6♠ 7, Bors whist 2\n"
    )
    err = refused(p)
    assert f"{p}:3:1: line is over 10,000 characters long" in err
    assert f"{p}:5:" in err  # the line after it is read, and its mistake reported too


@pytest.mark.parametrize(
    ("count", "want"),
    [
        (2_000_000, "line 1 does not end within 1,000,000 characters"),  # 17 MB: 4.5 GB to split whole
        (50_000, "line is over 10,000 characters long"),
    ],
)
def test_a_long_header_line_is_refused_without_splitting_it(tmp_path: Path, count: int, want: str) -> None:
    names = " ".join(f"P{i}" for i in range(count))
    p = write(tmp_path, "h.txt", f"players: {names}\n\n{DEAL}\n")
    t = time.perf_counter()
    err = refused(p)
    assert time.perf_counter() - t < 5
    assert f"{p}:1:1: {want}" in err


def test_a_huge_convention_file_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    conv = tmp_path / "house.yaml"
    with conv.open("w", encoding="utf-8") as f:
        f.write("extends: sochi\n")
        f.write("# padding\n" * 2_200_000)
    p = write(tmp_path, "d.yaml", f"{LOG}convention: house.yaml\ndeals: []\n")
    err = refused(p, at=conv)
    assert "the convention is over the limit of 2,097,152 bytes" in err


def test_season_finds_players_after_any_amount_of_comments(tmp_path: Path) -> None:
    logs = tmp_path / "club"
    logs.mkdir()
    comments = "# the evening at Anna's, every deal as called out at the table\n" * 5_000
    (logs / "a.txt").write_text(f"{comments}players: Anna Boris Vera\n\n{DEAL}\n", encoding="utf-8")
    (logs / "b.txt").write_text(f"players: Anna Boris Vera\n\n{DEAL}\n", encoding="utf-8")
    (logs / "house.yaml").write_text(f"{comments}extends: sochi\n", encoding="utf-8")
    code, out, err = cli("season", str(logs), "-f", "json", "--no-progress")
    assert code == 0, err
    import json

    data = json.loads(out)
    assert len(data["evenings"]) == 2, data["evenings"]


# -- item 7: messages -----------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["\x1b", "\u202e", "\x07", "\u2066", "\u200b"])
def test_a_player_name_with_a_control_or_bidi_character_is_refused(tmp_path: Path, bad: str) -> None:
    p = write(tmp_path, "esc.txt", f"players: Anna Bo{bad}ris Vera\n\n{DEAL}\n")
    err = refused(p)
    assert bad not in err
    assert f"{p}:1:15: a player's name cannot hold control or bidi characters: 'Bo?ris'" in err, err


@pytest.mark.parametrize("bad", ["\x1b[31m", "\u202e", "\x07", "\u2066"])
def test_no_control_or_bidi_character_reaches_the_terminal(tmp_path: Path, bad: str) -> None:
    text = f"players: Anna Boris Vera\ntitle: x{bad}y\n\nAnna 6♠ 7, Xe{bad}nia whist 2, Vera pass 1\n"
    p = write(tmp_path, "esc.txt", text)
    err = refused(p)
    assert bad not in err and "\x1b" not in err
    assert f"{p}:2:8: title: cannot hold control or bidi characters" in err, err


def test_an_echoed_path_is_sanitised(tmp_path: Path) -> None:
    p = write(tmp_path, "a\x1b[2Jb.txt", "players: Anna\n")
    code, out, err = cli("score", str(p))
    assert code == 1
    assert "\x1b" not in err and "a?[2Jb.txt:1:10: Preferans is played by" in err, err


def test_paths_are_shown_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "club" / "sub").mkdir(parents=True)
    write(tmp_path / "club" / "sub", "house.yaml", "extends: sochi\nbogus: 1\n")
    write(tmp_path / "club", "d.yaml", f"{LOG}convention: sub/house.yaml\ndeals: []\n")
    code, out, err = cli("score", "club/d.yaml")
    assert code == 1
    assert err.startswith("club/sub/house.yaml:2:1: unknown convention key 'bogus'"), err
    assert str(tmp_path) not in err
    code, out, err = cli("score", "club/d.yaml", "-c", "nothere.yaml")
    assert code == 2 and "no such file 'nothere.yaml' in the current directory" in err
    assert str(tmp_path) not in err


def test_an_os_error_is_said_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from pulyacalc.core.errors import os_reason

    assert os_reason(PermissionError(errno.EACCES, "Permission denied", "x")) == "permission denied"
    assert os_reason(OSError(errno.EIO, "Input/output error")) == "input/output error"
    write(tmp_path, "house.yaml", "extends: sochi\n")
    p = write(tmp_path, "d.yaml", f"{LOG}convention: house.yaml\ndeals: []\n")

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(args[0]))

    monkeypatch.setattr("pulyacalc.yamlsource.open", denied, raising=False)
    err = refused(p, at=tmp_path / "house.yaml")
    assert "cannot read the convention: permission denied" in err
    assert "Errno" not in err


def outside(tmp_path: Path, extends: bool = False) -> tuple[Path, Path]:
    """A log in club/ whose convention (or the file it extends) is in secret/."""
    (tmp_path / "club").mkdir()
    (tmp_path / "secret").mkdir()
    secret = write(tmp_path / "secret", "keys.yaml", "password: hunter2\n")
    if extends:
        write(tmp_path / "club", "house.yaml", "extends: ../secret/keys.yaml\n")
        ref = "house.yaml"
    else:
        ref = "../secret/keys.yaml"
    return write(tmp_path / "club", "d.yaml", f"{LOG}convention: {ref}\ndeals: []\n"), secret


@pytest.mark.parametrize("extends", [False, True])
@pytest.mark.parametrize("command", ["score", "check", "explain", "ledger"])
def test_a_log_may_not_name_a_convention_outside_its_tree(
    tmp_path: Path, extends: bool, command: str
) -> None:
    log, _ = outside(tmp_path, extends)
    code, out, err = cli(command, str(log))
    assert code == 1, err
    assert "is outside the log's directory" in err and "--allow-outside" in err
    assert "password" not in err and "hunter2" not in err + out


def test_allow_outside_lets_it(tmp_path: Path) -> None:
    log, secret = outside(tmp_path)
    code, out, err = cli("score", str(log), "--allow-outside")
    assert code == 1
    assert "unknown convention key 'password'" in err  # read, as asked
    secret.write_text("extends: sochi\n", encoding="utf-8")
    assert cli("score", str(log), "--allow-outside")[0] == 0
    assert cli("score", str(log))[0] == 1  # and the next run without it is refused again


def test_a_symbolic_link_out_of_the_tree_is_outside(tmp_path: Path) -> None:
    log, secret = outside(tmp_path)
    (tmp_path / "club" / "link.yaml").symlink_to(secret)
    log.write_text(f"{LOG}convention: link.yaml\ndeals: []\n", encoding="utf-8")
    code, out, err = cli("score", str(log))
    assert code == 1 and "is outside the log's directory" in err


def test_minus_c_may_name_any_file(tmp_path: Path) -> None:
    log, secret = outside(tmp_path)
    secret.write_text("extends: sochi\n", encoding="utf-8")
    assert cli("score", str(log), "-c", str(secret))[0] == 0
