"""Small helpers for the rule tests: score a log given as text, look at entries, settle.

Expected numbers in the tests are worked out by hand from RULES.md and the Code; these
helpers only run the library.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hypothesis import settings

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount
from pulyacalc.core.errors import Problems, PulyaError
from pulyacalc.core.sheet import Entry, SheetView
from pulyacalc.logs.read import read_text
from pulyacalc.play import Evening, score_log
from pulyacalc.scoring.fold import DealResult
from pulyacalc.scoring.settlement import Settlement, settle

#: the paper sheet of INTERFACE.md (kodeks rounding: A 62, B -101, C 39)
INTERFACE_SHEET = """players: [A, B, C]
convention: sochi
pool: 20
rounding: kodeks
sheet:
  A: {pool: 14, mountain: 12, whists: {B: 12, C: 0}}
  B: {pool: 8,  mountain: 26, whists: {A: 22, C: 0}}
  C: {pool: 0,  mountain: 6,  whists: {A: 22, B: 4}}
"""


def score_text(text: str, name: str = "<text>", *, input_format: str | None = None, **how: Any) -> Evening:
    """A log given as text, scored as ``score`` scores a file (``name`` locates its problems)."""
    problems = Problems()
    return score_log(read_text(text, name, input_format, problems), problems, **how)


@dataclass
class Run:
    sheet: SheetView
    results: list[DealResult]
    conv: Convention
    target: int
    finished: bool

    def settle(self, rounding: str | None = None, **kw: Any) -> Settlement:
        return settle(self.sheet, self.conv, self.target, rounding, **kw)

    def entries(self, deal: int | None = None) -> list[Entry]:
        """Entries of deal number ``deal`` (1-based; default: the last deal)."""
        res = self.results[-1] if deal is None else next(r for r in self.results if r.number == deal)
        return list(res.entries)

    def written(self, deal: int | None = None) -> set[tuple[str, str, Amount, str | None]]:
        """The deal's entries as (player, area, amount, on) — what lands on the paper."""
        return {(e.player, e.area, e.amount, e.on) for e in self.entries(deal)}


def log_text(
    convention: str,
    players: Iterable[str],
    deals: Iterable[str],
    *,
    pool: int | None = None,
    dealer: str | None = None,
    extra: Iterable[str] = (),
) -> str:
    """A line-format log."""
    lines = [f"players: {' '.join(players)}", f"convention: {convention}"]
    if pool is not None:
        lines.append(f"pool: {pool}")
    if dealer is not None:
        lines.append(f"dealer: {dealer}")
    lines.extend(extra)
    lines.append("")
    lines.extend(deals)
    return "\n".join(lines) + "\n"


def run_text(text: str, name: str = "t.txt") -> Run:
    """Score a log text as ``pulyacalc score`` does; raises PulyaError with every problem."""
    ev = score_text(text, name, keep=True)
    return Run(ev.sheet, list(ev.results), ev.convention, ev.target, ev.finished)


def run(
    convention: str,
    players: Iterable[str],
    *deals: str,
    pool: int | None = None,
    dealer: str | None = None,
    extra: Iterable[str] = (),
) -> Run:
    return run_text(log_text(convention, players, deals, pool=pool, dealer=dealer, extra=extra))


def problems_of(text: str, name: str = "t.txt") -> list[str]:
    """Every problem reported for a log, formatted; [] when it scores."""
    try:
        run_text(text, name)
    except PulyaError as e:
        return [p.format() for p in e.problems]
    return []


def frac(x: Any) -> Fraction:
    """'-302/3', 12, '7.5' → Fraction."""
    return Fraction(str(x))


def reference_markdown() -> str:
    """The text of docs/conventions.md, as tools/conventions_reference.py makes it (a tool,
    not part of the package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "tools" / "conventions_reference.py"
    spec = importlib.util.spec_from_file_location("conventions_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text: str = module.reference_markdown()
    return text


def examples(ci: int, least: int = 10) -> int:
    """How many examples a property test draws (or seeds a seeded one runs): ``ci`` under
    the ``ci`` profile (.ci/run), as many fewer as the profile loaded draws (tests/conftest.py:
    a fifth), but at least ``least``."""
    return max(least, ci * settings.default.max_examples // 100)
