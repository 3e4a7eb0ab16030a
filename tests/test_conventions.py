"""Convention files (RULES.md §4 as data): a house file extending a built-in, located
refusals of unknown keys and wrong types, missing keys, extends cycles."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.load import load
from pulyacalc.convention.schema import SCHEMA
from pulyacalc.core.errors import PulyaError
from pulyacalc.play import score_file

LOG = """players: [A, B, C]
convention: ./house.yaml
deals:
  - A 6♠ 5, B whist 3, C pass 2
  - A pass 4, B pass 3, C pass 3
"""


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), prog_name="pulyacalc")


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def test_builtins_differ_where_rules_md_says(tmp_path: Path) -> None:
    s, le, r = load("sochi"), load("leningrad"), load("rostov")
    assert (s.whist_on_failure, le.whist_on_failure, r.whist_on_failure) == (
        "greedy",
        "gentleman",
        "gentleman",
    )
    assert (s.pool_point_in_mountain, le.pool_point_in_mountain, r.pool_point_in_mountain) == (1, 2, 1)
    assert (s.help, le.help, r.help) == (True, False, True)
    assert dict(r.consolation_per_trick) == dict.fromkeys((6, 7, 8, 9, 10), 10)
    assert dict(le.whist_per_trick) == {6: 4, 7: 8, 8: 12, 9: 16, 10: 20}
    assert [s.progression(i) for i in (1, 2, 3, 4, 5)] == [1, 2, 3, 3, 3]
    assert [r.progression(i) for i in (1, 2, 3)] == [1, 1, 1]
    assert (s.raspasy_amnesty, le.raspasy_amnesty, r.raspasy_amnesty) == (True, True, False)
    assert [le.exit_level(i) for i in (1, 2, 3, 4)] == [6, 7, 7, 7]


def test_house_file_extends_sochi_from_a_log(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "house.yaml",
        "extends: sochi\ntitle: House\nwhist:\n  on_failure: gentleman\nraspasy:\n  trick_value: 2\n",
    )
    log = _write(tmp_path, "evening.yaml", LOG)
    ev = score_file(str(log))
    assert ev.convention.title == "House"
    assert ev.convention.whist_on_failure == "gentleman"
    assert ev.convention.remise_per_trick == load("sochi").remise_per_trick  # inherited
    # 6♠ failed by one, gentleman: (10 + 2 + 2) / 2 = 7 each; raspasy 4/3/3 at 2 a trick
    assert ev.sheet.whists["B"]["A"] == 7 and ev.sheet.whists["C"]["A"] == 7
    assert ev.sheet.mountain == {"A": 2 + 2, "B": 0, "C": 0}


def test_house_file_overrides_one_level_only(tmp_path: Path) -> None:
    _write(tmp_path, "house.yaml", "extends: sochi\ncontracts:\n  price: {6: 3}\n")
    conv = load(str(tmp_path / "house.yaml"))
    assert dict(conv.price) == {6: 3, 7: 4, 8: 6, 9: 8, 10: 10}


def test_house_file_extends_a_file_relative_to_itself(tmp_path: Path) -> None:
    sub = tmp_path / "conv"
    sub.mkdir()
    _write(sub, "base.yaml", "extends: rostov\nmisere:\n  price: 12\n")
    _write(tmp_path, "house.yaml", "extends: conv/base.yaml\nwhist:\n  on_failure: greedy\n")
    conv = load(str(tmp_path / "house.yaml"))
    assert (conv.misere_price, conv.whist_on_failure, conv.raspasy_scoring) == (12, "greedy", "whists")


def test_unknown_key_and_wrong_types_are_located(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "house.yaml",
        "extends: sochi\nwhist:\n  on_failur: gentleman\npool:\n  help: maybe\nraspasy:\n  scoring: sideways\n",
    )
    log = _write(tmp_path, "evening.yaml", LOG)
    res = invoke("score", str(log))
    assert res.exit_code == 1
    err = res.stderr
    assert "house.yaml:3:3: unknown convention key 'whist.on_failur'" in err
    assert "did you mean 'on_failure'" in err and "allowed here:" in err
    assert "house.yaml:5:9: pool.help: expected true or false" in err
    assert "house.yaml:7:12: raspasy.scoring: expected one of mountain, whists" in err
    assert "Traceback" not in res.output
    assert res.stdout == ""


def test_unknown_section_lists_the_allowed_sections(tmp_path: Path) -> None:
    _write(tmp_path, "house.yaml", "extends: sochi\nraspassy:\n  amnesty: false\n")
    with pytest.raises(PulyaError) as e:
        load(str(tmp_path / "house.yaml"))
    text = str(e.value)
    assert "house.yaml:2:1: unknown convention key 'raspassy'" in text
    assert "did you mean 'raspasy'" in text


def test_missing_keys_without_extends(tmp_path: Path) -> None:
    _write(tmp_path, "bare.yaml", "name: bare\npool:\n  target: 10\n")
    with pytest.raises(PulyaError) as e:
        load(str(tmp_path / "bare.yaml"))
    missing = [p.message for p in e.value.problems]
    assert "the convention does not set 'pool.help'" in missing
    assert "the convention does not set 'pool.target'" not in missing
    assert len(missing) == len(SCHEMA) - 1
    assert all("extends: sochi" in p.hint for p in e.value.problems)


def test_extends_cycle(tmp_path: Path) -> None:
    _write(tmp_path, "a.yaml", "extends: b.yaml\n")
    _write(tmp_path, "b.yaml", "extends: ./a.yaml\n")
    log = _write(tmp_path, "evening.yaml", LOG.replace("./house.yaml", "./a.yaml"))
    res = invoke("score", str(log))
    assert res.exit_code == 1
    assert "cycle of extends" in res.stderr
    assert "Traceback" not in res.output


def test_extends_an_unknown_builtin(tmp_path: Path) -> None:
    _write(tmp_path, "house.yaml", "extends: sochy\n")
    with pytest.raises(PulyaError) as e:
        load(str(tmp_path / "house.yaml"))
    assert "house.yaml:1:10: extends an unknown convention 'sochy'" in str(e.value)
    assert "did you mean 'sochi'" in str(e.value)


def test_log_override_of_a_convention_key(tmp_path: Path) -> None:
    log = _write(
        tmp_path,
        "evening.yaml",
        "players: [A, B, C]\nconvention: leningrad\noverrides:\n  raspasy.amnesty: false\n"
        "deals:\n  - A pass 4, B pass 3, C pass 3\n",
    )
    ev = score_file(str(log))
    assert ev.sheet.mountain == {"A": 8, "B": 6, "C": 6}


def test_unknown_log_override_is_refused(tmp_path: Path) -> None:
    log = _write(
        tmp_path,
        "evening.yaml",
        "players: [A, B, C]\noverrides:\n  raspasy.amnsty: false\ndeals:\n  - A pass 4, B pass 3, C pass 3\n",
    )
    res = invoke("score", str(log))
    assert res.exit_code == 1
    assert "evening.yaml:3:3: unknown convention key 'raspasy.amnsty' under overrides" in res.stderr
    assert "did you mean 'raspasy.amnesty'" in res.stderr


def test_unknown_convention_name() -> None:
    res = CliRunner().invoke(
        app,
        ["score", "-", "-c", "leningrd"],
        input="players: A B C\n\nA 6s, B pass, C pass\n",
        prog_name="pulyacalc",
    )
    assert res.exit_code == 2
    assert "unknown convention 'leningrd'" in res.stderr and "did you mean 'leningrad'" in res.stderr
