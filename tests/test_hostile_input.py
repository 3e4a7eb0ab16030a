"""Hostile and careless input (issue #11): keys given twice, YAML anchors and aliases of
any kind, numbers past every sane bound, files that never end or never break a line,
and values that would echo terminal escapes.  Each is a located message, exit 1 for a
file and exit 2 naming the option for an option, at once; never a traceback, never a
value silently dropped.
"""

from __future__ import annotations

import re
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
    err = refused(p, at=tmp_path / "c8.yaml")
    assert "a chain of extends: is more than 8 conventions long" in err


def test_an_extends_cycle_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    p = write(tmp_path, "d.yaml", f"{LOG}convention: a.yaml\ndeals: []\n")
    assert "a cycle of extends:" in refused(p, at=tmp_path / "a.yaml")


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
    assert "and 2,901 more anchors and aliases not shown" in err


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
