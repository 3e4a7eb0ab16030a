"""Property tests (hypothesis): legal logs for every built-in convention, 3 and 4 players.

* every settlement sums to exactly 0 under every rounding (kodeks only for 3 players);
* raspasy amnesty changes no result (the same log with ``raspasy.amnesty: false``);
* settlement amnesty changes no result (a constant added to every mountain).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import yaml
from helpers import Run, examples, run_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pulyacalc.convention.load import load

CONVENTIONS = ("sochi", "leningrad", "rostov")
SUITS = ("♠", "♣", "♦", "♥", "NT")
SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _split(draw: Any, total: int, parts: int) -> list[int]:
    """``parts`` counts ≥ 0 adding up to ``total``."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


@st.composite
def logs(draw: Any) -> dict[str, Any]:
    convention = draw(st.sampled_from(CONVENTIONS))
    n = draw(st.sampled_from((3, 4)))
    players = ["Anna", "Boris", "Vera", "Gleb"][:n]
    conv = load(convention)
    deals: list[Any] = []
    dealer = n - 1
    for _ in range(draw(st.integers(1, 14))):
        active = [players[(dealer + 1 + k) % n] for k in range(3)]
        kind = draw(st.sampled_from(("unplayed", "half", "one", "two", "misere", "raspasy", "raspasy")))
        if kind == "raspasy":
            talon = draw(st.integers(0, 2)) if n == 4 and conv.raspasy_talon_to_dealer else 0
            counts = _split(draw, 10 - talon, 3)
            tricks = dict(zip(active, counts, strict=True))
            if n == 4 and talon:
                tricks[players[dealer]] = talon
            deals.append({"raspasy": tricks})
        else:
            i = draw(st.integers(0, 2))
            decl = active[i]
            first, second = active[(i + 1) % 3], active[(i + 2) % 3]
            if kind == "misere":
                deals.append(f"{decl} misere {draw(st.integers(0, 10))}")
            else:
                level = draw(st.integers(6, 7) if kind == "half" else st.integers(6, 10))
                contract = f"{level}{draw(st.sampled_from(SUITS))}"
                if kind == "unplayed":
                    deals.append(f"{decl} {contract}, {first} pass, {second} pass")
                elif kind == "half":
                    deals.append(f"{decl} {contract}, {first} pass, {second} half")
                else:
                    t = draw(st.integers(0, 10))
                    if kind == "one":
                        w, p = draw(st.permutations([first, second]))
                        a, b = _split(draw, 10 - t, 2)
                        deals.append(f"{decl} {contract} {t}, {w} whist {a}, {p} pass {b}")
                    else:
                        a, b = _split(draw, 10 - t, 2)
                        deals.append(f"{decl} {contract} {t}, {first} whist {a}, {second} whist {b}")
        dealer = (dealer + 1) % n
    return {
        "players": players,
        "convention": convention,
        "pool": draw(st.integers(2, 14)),
        "deals": deals,
    }


def _score(log: dict[str, Any]) -> Run:
    return run_text(yaml.safe_dump(log, allow_unicode=True, sort_keys=False), "p.yaml")


def _roundings(n: int) -> tuple[str, ...]:
    return ("exact", "nearest", "kodeks") if n == 3 else ("exact", "nearest")


@SETTINGS
@given(logs())
def test_every_settlement_sums_to_zero(log: dict[str, Any]) -> None:
    r = _score(log)
    for rounding in _roundings(len(log["players"])):
        s = r.settle(rounding)
        assert sum(Fraction(v) for v in s.result.values()) == 0, rounding
        assert sum(Fraction(v) for v in s.exact.values()) == 0
        if rounding != "exact":
            assert all(Fraction(v).denominator == 1 for v in s.result.values())


@SETTINGS
@given(logs())
def test_raspasy_amnesty_does_not_change_results(log: dict[str, Any]) -> None:
    with_amnesty = _score(log)
    without = _score({**log, "overrides": {"raspasy.amnesty": False}})
    assert without.conv.raspasy_amnesty is False
    for rounding in _roundings(len(log["players"])):
        assert with_amnesty.settle(rounding).result == without.settle(rounding).result


@SETTINGS
@given(logs(), st.integers(-50, 50))
def test_settlement_amnesty_does_not_change_results(log: dict[str, Any], shift: int) -> None:
    r = _score(log)
    moved = replace(r.sheet, mountain={p: m + shift for p, m in r.sheet.mountain.items()})
    shifted = Run(moved, r.results, r.conv, r.target, r.finished)
    for rounding in _roundings(len(log["players"])):
        assert r.settle(rounding).result == shifted.settle(rounding).result


@SETTINGS
@given(logs())
def test_help_never_overfills_a_pool(log: dict[str, Any]) -> None:
    """With help (Sochi, Rostov) no pool ever passes the target (RULES.md 2.8)."""
    r = _score(log)
    if r.conv.help:
        assert all(v <= r.target for v in r.sheet.pool.values())
        assert r.finished == all(v == r.target for v in r.sheet.pool.values())
