"""Checking a log beyond its syntax: everything wrong or suspicious, each located.

``run_log`` scores a log without stopping at the first refused deal and notes each deal's
findings as it is scored (in flat memory: a 500,000-deal log is checked in the memory
``score`` needs); with ``keep`` (``check --against``, which compares the paper after each
deal) it also keeps each deal's result and the paper after it.  ``check_log`` looks at that
run:

* ``rule`` / ``read`` — deals the table refuses (tricks that do not add up, …);
* ``dealer-in-play`` — the 4-player dealer bids, whists or takes tricks;
* ``after-finish`` — deals played after the pulya was finished (RULES.md 2.8);
* ``raspasy-exit`` — a contract below the exit after raspasy (``raspasy.exit``, 2.7);
* ``shortfall-forbidden`` — a whister ends short on a level where the convention forbids
  it (``whist.shortfall_forbidden``, e.g. a ten that is only «checked», K note 39);
* ``pool-target`` — a target no evening could reach (even a made ten every deal would
  take more than ``MAX_EVENING_DEALS`` deals);
* ``strange-override`` — a convention key the log overrides to a value far from every
  built-in convention's (or one that contradicts itself);
* ``correction`` — each correction written by hand (RULES.md 2.9), with its reason, so that
  a reviewer sees every manual change.  A notice, not a fault (``NOTICES``): the log is
  still clean, and ``check`` still exits 0, when it is all there is.

Every rule reads convention keys; none asks a convention's name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pulyacalc.convention.load import builtin_names, load
from pulyacalc.convention.schema import LEVELS, SCHEMA, Convention
from pulyacalc.core.amounts import exact, num
from pulyacalc.core.errors import Loc, Problem, Problems, PulyaError
from pulyacalc.core.i18n import M_, tr
from pulyacalc.core.kinds import FindingCode
from pulyacalc.core.model import Correction, Header
from pulyacalc.core.sheet import SheetView
from pulyacalc.scoring.fold import DealResult

#: a very long evening: more deals than this is not an evening any more
MAX_EVENING_DEALS = 200
#: findings listed for a reviewer that do not make a log unclean
NOTICES: frozenset[FindingCode] = frozenset({"correction"})


def faults(findings: list[Finding]) -> list[Finding]:
    """The findings that make a log unclean (all but the ``NOTICES``)."""
    return [f for f in findings if f.code not in NOTICES]


@dataclass(frozen=True)
class Finding:
    loc: Loc
    code: FindingCode
    message: str
    hint: str = ""

    def format(self) -> str:
        """As a person reads it, in the chosen language."""
        text = f"{self.loc}: {tr(self.message)}"
        return f"{text}; {tr(self.hint)}" if self.hint else text


@dataclass
class Run:
    """A log scored deal by deal, refused deals reported instead of stopping."""

    header: Header
    convention: Convention
    target: int
    #: each scored deal's result (``keep`` only)
    results: list[DealResult] = field(default_factory=list)
    #: the paper after each scored deal, by deal number (``keep`` only)
    after: dict[int, SheetView] = field(default_factory=dict)
    #: what the deals themselves are found to have (every run)
    deal_findings: list[Finding] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    sheet: SheetView | None = None
    finished: bool = False
    deals: int = 0


def run_log(
    path: str, *, convention: str | None = None, input_format: str | None = None, keep: bool = False
) -> Run:
    """Read and score a log; a header that cannot be read, or a convention that does not
    load, raises PulyaError.  Every other problem is in the run (a finding, not a stop).
    ``keep``: keep every deal's result and the paper after it (``reconcile`` needs them)."""
    from pulyacalc.evening import play_one_cause
    from pulyacalc.logs.header import convention_for
    from pulyacalc.logs.read import read_log

    problems = Problems()
    log = read_log(path, input_format, problems)
    # not evening.load_convention: a convention that does not load is reported alone, and
    # a header with problems is still played (they are findings like any other)
    conv = convention_for(log.header, convention)
    found: list[Finding] = []
    # a wrong first dealer is one finding, not one per deal (evening.play_one_cause)
    if keep:
        ev = play_one_cause(log, conv, problems, running=True)
        for r in ev.results:
            found.extend(_deal_findings(r, conv))
    else:
        ev = play_one_cause(log, conv, problems, each=lambda r: found.extend(_deal_findings(r, conv)))
    after = {r.number: paper for r, paper in zip(ev.results, ev.running, strict=True)}
    return Run(
        log.header,
        conv,
        ev.target,
        results=list(ev.results),
        after=after,
        deal_findings=found,
        problems=list(problems.items),
        sheet=ev.sheet,
        finished=ev.finished,
        deals=ev.deals,
    )


def check_log(run: Run) -> list[Finding]:
    conv = run.convention
    out: list[Finding] = []
    for p in run.problems:
        out.append(Finding(p.loc, p.code, p.message, p.hint))
    out.extend(run.deal_findings)
    out.extend(_target_findings(run))
    out.extend(_override_findings(run.header, conv))
    return sorted(out, key=lambda f: (f.loc.file, f.loc.line, f.loc.column))


def _deal_findings(r: DealResult, conv: Convention) -> list[Finding]:
    from pulyacalc.core.model import Play

    out: list[Finding] = []
    deal = r.deal
    where = deal.loc
    if isinstance(deal, Correction):
        return [_correction_finding(r, deal)]
    if r.after_finish:
        out.append(
            Finding(
                where,
                "after-finish",
                M_("deal {number} is played after the pulya was finished", number=r.number),
                M_("its pool points go off the mountain (RULES.md 2.8); was it meant for a new pulya?"),
            )
        )
    if not isinstance(deal, Play):
        return out
    if r.number <= conv.bombs_opening:
        out.append(
            Finding(
                where,
                "compulsory-raspasy",
                M_(
                    "deal {number} has a contract, but the first {bombs_opening} deals are compulsory "
                    "raspasy (bombs.opening), in which everyone counts as passing «втёмную»",
                    number=r.number,
                    bombs_opening=conv.bombs_opening,
                ),
                M_("K3.7.9; write it as raspasy, or set bombs.opening to the number played"),
            )
        )
    if r.after_dark and conv.bombs_exit_step and deal.contract.rank < 6 + r.after_dark:
        out.append(
            Finding(
                deal.locs.get("contract", where),
                "raspasy-exit",
                M_(
                    "{contract} after a dark raspasy of level {after_dark}: "
                    "the exit is {value} or higher (bombs.exit_step)",
                    contract=deal.contract,
                    after_dark=r.after_dark,
                    value=6 + r.after_dark,
                ),
                M_("K3.3.19 а, K3.7.7: a dark pass is overcalled by a seven, a double one by an eight"),
            )
        )
    elif r.after_raspasy:
        need = conv.exit_level(r.after_raspasy)
        if deal.contract.rank < need:
            out.append(
                Finding(
                    deal.locs.get("contract", where),
                    "raspasy-exit",
                    M_(
                        "{contract} after {after_raspasy} raspasy in a row: the exit is {need} or higher "
                        "(raspasy.exit {list})",
                        contract=deal.contract,
                        after_raspasy=r.after_raspasy,
                        need=need,
                        list=list(conv.raspasy_exit),
                    ),
                    M_("K3.7.8; check the contract, or the deals before it"),
                )
            )
    level = deal.contract.level
    if level in conv.shortfall_forbidden:
        for e in r.entries:
            if e.rule == "shortfall":
                out.append(
                    Finding(
                        deal.locs.get("tricks", where),
                        "shortfall-forbidden",
                        M_(
                            "{player} is short on {contract}, where the convention forbids a whister's "
                            "shortfall (whist.shortfall_forbidden {sorted}): {why}",
                            player=e.player,
                            contract=deal.contract,
                            sorted=sorted(conv.shortfall_forbidden),
                            why=e.why,
                        ),
                        M_("check the tricks; the scorer still writes the shortfall"),
                    )
                )
    return out


def _correction_finding(r: DealResult, c: Correction) -> Finding:
    after = f"after deal {r.number}" if r.number else "before the first deal"
    area = c.area if c.on is None else f"whists on {c.on}"
    sign = "+" if c.amount > 0 else ""
    return Finding(
        c.loc,
        "correction",
        M_(
            "correction {after}: {player} {area} {sign}{num}: {reason}",
            after=after,
            player=c.player,
            area=area,
            sign=sign,
            num=num(c.amount),
            reason=c.reason,
        ),
        M_("written by hand, as the table agreed (RULES.md 2.9); no rule checks it"),
    )


def _target_findings(run: Run) -> list[Finding]:
    conv, target = run.convention, run.target
    n = len(run.header.players)
    best = max([*conv.price.values(), conv.misere_price])
    if best <= 0:
        return []
    least = math.ceil(Fraction(n * target) / Fraction(best))
    if least <= MAX_EVENING_DEALS:
        return []
    loc = run.header.locs.get("pool", Loc(run.header.source, 1))
    return [
        Finding(
            loc,
            "pool-target",
            M_(
                "pool target {target}: no one could reach it in an evening — even a made {max} "
                "every deal would take {least} deals to finish {n} pools",
                target=target,
                max=max(conv.price, key=lambda k: conv.price[k]),
                least=least,
                n=n,
            ),
            M_("a pool is usually 10..50; is it {value}?", value=target // 10) if target >= 100 else "",
        )
    ]


# -- overrides -----------------------------------------------------------------------------


def _builtin_values(field_name: str) -> list[Any]:
    values = []
    for name in builtin_names():
        try:
            values.append(getattr(load(name), field_name))
        except PulyaError:  # a broken convention file is not this log's problem
            continue
    return values


def _list(values: list[Fraction]) -> str:
    return ", ".join(num(exact(x)) for x in sorted(set(values)))


def _far(value: Fraction, known: list[Fraction]) -> bool:
    """Far from every known value: more than twice the largest or under half the smallest."""
    if not known:
        return False
    low, high = min(known), max(known)
    if value in known:
        return False
    if value == 0:
        return low > 0
    return value > 2 * high or value < low / 2


def strange(key: str, value: Any, conv: Convention) -> str:
    """Why an overridden value is strange ('' if it is not).  What is compared follows the
    key's parser: numbers, level tables of numbers, multipliers; words and flags never are."""
    # imported here, not with the module's imports: only this check asks a parser's type
    from pulyacalc.convention.schema import Int, Levels, Multipliers, Number

    spec = SCHEMA[key]
    parse = spec.parse
    known = _builtin_values(spec.field)
    if isinstance(parse, (Int, Number)):
        nums = [Fraction(x) for x in known]
        if _far(Fraction(value), nums):
            return f"{num(value)} is far from the built-in conventions' {_list(nums)}"
    elif isinstance(parse, Levels) and isinstance(parse.item, (Int, Number)):
        table: Mapping[int, Any] = value
        for level in LEVELS:
            nums = [Fraction(k[level]) for k in known]
            if _far(Fraction(table[level]), nums):
                return (
                    f"on {level} it is {num(table[level])}, far from the built-in conventions' {_list(nums)}"
                )
        rising = all(all(k[a] <= k[b] for a, b in zip(LEVELS, LEVELS[1:], strict=False)) for k in known)
        if rising and any(table[a] > table[b] for a, b in zip(LEVELS, LEVELS[1:], strict=False)):
            return "a higher contract is worth less than a lower one"
        if isinstance(parse.item, Int):  # a table of trick counts (whist.obligation)
            over = [lv for lv in LEVELS if table[lv] > 10 - lv]
            if over:
                lv = over[0]
                return (
                    f"on {lv} the defence can take at most {10 - lv} tricks when it is made, not {table[lv]}"
                )
        if spec.field == "shortfall_per_trick":
            worse = [lv for lv in LEVELS if table[lv] > conv.remise_per_trick[lv]]
            if worse:
                return f"on {worse[0]} a short whister would pay more than the declarer's remise"
    elif isinstance(parse, Multipliers):
        seq = list(value)
        if any(a > b for a, b in zip(seq, seq[1:], strict=False)):
            return "the multipliers go down"
        top = max((max(k) for k in known), default=0)
        if top and max(seq) > 2 * top:
            return f"a multiplier of {max(seq)}, far above the built-in conventions' {top}"
    return ""


def _override_loc(header: Header, key: str) -> Loc:
    for name, node in header.overrides:
        if name == key:
            return node.loc  # type: ignore[no-any-return]
        if key.startswith(name + ".") and getattr(node, "kind", "") == "map":
            rest = key[len(name) + 1 :]
            for k, v in node.pairs:
                if k.text.strip() == rest or rest.startswith(k.text.strip() + "."):
                    return v.loc  # type: ignore[no-any-return]
            return node.loc  # type: ignore[no-any-return]
    return Loc(header.source, 1)


def _override_findings(header: Header, conv: Convention) -> list[Finding]:
    if not header.overrides:
        return []
    try:
        base = load(conv.source, pool=header.pool, rounding=header.rounding)
    except PulyaError:  # the convention loaded once already; reported there if it breaks
        return []
    out = []
    for key, spec in SCHEMA.items():
        value = getattr(conv, spec.field)
        if value == getattr(base, spec.field):
            continue
        why = strange(key, value, conv)
        if why:
            out.append(
                Finding(
                    _override_loc(header, key),
                    "strange-override",
                    M_(
                        "the log overrides {key} to {show}: {why}",
                        key=key,
                        show=SCHEMA[key].show(value),
                        why=why,
                    ),
                    M_(
                        "{doc}; {name} has {show}",
                        doc=spec.doc,
                        name=conv.name,
                        show=SCHEMA[key].show(getattr(base, spec.field)),
                    ),
                )
            )
    return out
