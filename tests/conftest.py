"""Collect the readable rule cases in tests/cases/*.yaml (OpenFisca style).

Each file is a list of cases::

    - name: 6♦ made, whisters 2 and 1 (K3.8.6)
      convention: sochi              # built-in name; default sochi
      players: [A, B, C]             # clockwise
      dealer: C                      # optional; default the last player
      dummy: second                  # optional (2 players): the dummy's hand
      pool: 20                       # optional pool target
      overrides: {raspasy.amnesty: false}   # optional convention keys, as in a log
      deals:                         # line-format strings or YAML-log mappings
        - A 6♦ 7, B whist 2, C whist 1
      expect:
        sheet:                       # only the cells given are compared
          A: {pool: 2, mountain: 0}
          B: {whists: {A: 4}}
        deal:                        # every entry of the last deal, in any order
          - A pool 2                 #   PLAYER AREA AMOUNT [on PLAYER]
          - B whists 4 on A
        finished: true
        settlement: {A: 1, B: 2, C: -3}   # exact results (fractions as "7/3")
        rounding: nearest                  # optional: settle with this rounding
        error: [text, text]          # the log is refused; each text appears in a message

Every case becomes one test item; a failure reads ``FILE: CASE: message``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, settings

from pulyacalc.core.errors import PulyaError
from pulyacalc.scoring.settlement import SettlementError

CASE_KEYS = {
    "name",
    "convention",
    "players",
    "dealer",
    "pool",
    "rounding",
    "dummy",
    "overrides",
    "deals",
    "expect",
    "doc",
}
EXPECT_KEYS = {"sheet", "deal", "finished", "settlement", "rounding", "error"}


# Tests read English whatever the developer's locale: PULYACALC_LANG outranks LANGUAGE, LC_ALL,
# LC_MESSAGES and LANG (subprocesses inherit it).  A test that wants Russian passes --lang ru,
# or an environment without PULYACALC_LANG (tests/test_i18n.py).
os.environ["PULYACALC_LANG"] = "en"

# The program the tests start as a process (hundreds of them) starts as installed, from its
# bytecode: with PYTHONDONTWRITEBYTECODE set (some sandboxes set it) every child would
# compile every module it imports from source, a third of its start.  Only the children see
# this; this process's own setting was read when it started.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# Tables as wide as they come, as in a pipe, unless a test sets a width: a terminal's COLUMNS,
# or the 80 pytest-xdist's workers are given, would fit them (console.setup, and every child).
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)

# Property tests draw few examples in a developer's run and many in CI: .ci/run exports
# PULYACALC_HYPOTHESIS=ci.  A test that states its own count asks helpers.examples(n): n in
# CI, a fifth of it (at least 10) here.  No deadline: a shared machine is slow at times.
settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("PULYACALC_HYPOTHESIS", "dev"))


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    """Each test starts in English, whatever the one before it chose in this process."""
    from pulyacalc.core import i18n

    i18n.use("en")
    yield
    i18n.use("en")


class CaseFailure(Exception):
    pass


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".yaml" and file_path.parent.name == "cases":
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        data = yaml.safe_load(self.path.read_text(encoding="utf-8"))
        if not isinstance(data, list):
            raise CaseFailure(f"{self.path.name}: expected a list of cases")
        seen: set[str] = set()
        for i, case in enumerate(data, 1):
            if not isinstance(case, dict) or "name" not in case:
                raise CaseFailure(f"{self.path.name}: case {i} has no name")
            name = str(case["name"])
            if name in seen:
                raise CaseFailure(f"{self.path.name}: case name {name!r} is used twice")
            seen.add(name)
            yield CaseItem.from_parent(self, name=name, case=case)


def _num(x: Any) -> Fraction:
    return Fraction(str(x))


def _log_yaml(case: dict[str, Any]) -> str:
    log: dict[str, Any] = {"players": case["players"]}
    for key in ("dealer", "dummy", "pool", "rounding", "overrides"):
        if key in case:
            log[key] = case[key]
    log["convention"] = case.get("convention", "sochi")
    log["deals"] = case["deals"]
    return yaml.safe_dump(log, allow_unicode=True, sort_keys=False)


def _parse_entry(text: str) -> tuple[str, str, Fraction, str | None]:
    words = text.split()
    if len(words) == 3:
        return words[0], words[1], _num(words[2]), None
    if len(words) == 5 and words[3] == "on":
        return words[0], words[1], _num(words[2]), words[4]
    raise CaseFailure(f"cannot read the expected entry {text!r}: write 'PLAYER AREA AMOUNT [on PLAYER]'")


class CaseItem(pytest.Item):
    def __init__(self, *, case: dict[str, Any], **kw: Any) -> None:
        super().__init__(**kw)
        self.case = case

    def runtest(self) -> None:
        from helpers import run_text

        case = self.case
        unknown = set(case) - CASE_KEYS
        if unknown:
            raise CaseFailure(f"unknown case keys {sorted(unknown)}; allowed: {sorted(CASE_KEYS)}")
        expect = case.get("expect") or {}
        unknown = set(expect) - EXPECT_KEYS
        if unknown:
            raise CaseFailure(f"unknown expect keys {sorted(unknown)}; allowed: {sorted(EXPECT_KEYS)}")
        if not expect:
            raise CaseFailure("the case expects nothing")
        text = _log_yaml(case)
        try:
            result = run_text(text, "case.yaml")
        except PulyaError as e:
            messages = "\n".join(p.format() for p in e.problems)
            if "error" not in expect:
                raise CaseFailure(f"the log was refused:\n{messages}") from None
            for want in expect["error"]:
                if want not in messages:
                    raise CaseFailure(f"expected a message with {want!r}, got:\n{messages}") from None
            return
        if "error" in expect:
            raise CaseFailure(f"expected the log to be refused ({expect['error']}), but it scored")
        sheet = result.sheet
        for player, cells in (expect.get("sheet") or {}).items():
            if player not in sheet.players:
                raise CaseFailure(f"no player {player!r} on the sheet")
            for area, want in cells.items():
                if area == "whists":
                    for on, w in want.items():
                        got = sheet.whists[player][on]
                        if got != _num(w):
                            raise CaseFailure(f"{player} whists on {on}: expected {w}, got {got}")
                elif area in ("pool", "mountain"):
                    got = getattr(sheet, area)[player]
                    if got != _num(want):
                        raise CaseFailure(f"{player} {area}: expected {want}, got {got}")
                else:
                    raise CaseFailure(f"unknown sheet area {area!r}")
        if "deal" in expect:
            want_entries = sorted((_parse_entry(t) for t in expect["deal"]), key=repr)
            got_entries = sorted(
                ((e.player, e.area, Fraction(e.amount), e.on) for e in result.entries()), key=repr
            )
            if want_entries != got_entries:
                show = "\n".join(
                    f"  {e.player} {e.area} {e.amount}{' on ' + e.on if e.on else ''} ({e.rule})"
                    for e in result.entries()
                )
                raise CaseFailure(f"the last deal wrote:\n{show}\nexpected: {expect['deal']}")
        if "finished" in expect and result.finished != expect["finished"]:
            raise CaseFailure(f"finished: expected {expect['finished']}, got {result.finished}")
        if "settlement" in expect:
            try:
                s = result.settle(expect.get("rounding"))
            except SettlementError as e:
                raise CaseFailure(f"settlement refused: {e}") from None
            for player, want in expect["settlement"].items():
                if s.result[player] != _num(want):
                    raise CaseFailure(f"settlement of {player}: expected {want}, got {s.result[player]}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return f"{self.path.name}: {self.name}: {excinfo.value}"
        return f"{self.path.name}: {self.name}: {excinfo.type.__name__}: {excinfo.value}"

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"{self.path.name}: {self.name}"
