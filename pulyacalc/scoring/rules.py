"""RULES.md 2.1–2.7 and 2.10 as pure functions: what a resolved deal writes before its pool
points are placed (2.8 is ``scoring/pool.py``).

``written`` reads nothing but its arguments, so ``scoring/fold.py`` remembers its answer keyed on
exactly them (a test holds the signatures here and in ``resolve`` to that key): a rule that needs
more input says so in its signature."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import lru_cache, partial
from typing import NamedTuple

from pulyacalc.convention.schema import ONCE_CLOSED, Convention, LoneWhisterMade, TwoWhistersShortfall
from pulyacalc.core.amounts import Amount, down, exact, half, num, tricks, undertricks
from pulyacalc.core.i18n import M_, N_, Text, made
from pulyacalc.core.kinds import Area, DealKind
from pulyacalc.core.model import Card, Play, Rank
from pulyacalc.core.seating import Seats
from pulyacalc.core.sheet import MOUNTAIN, POOL, WHISTS, Write
from pulyacalc.scoring.resolve import Resolved


class Written(NamedTuple):
    kind: DealKind
    #: writes outside the pool, in the order the rules make them
    others: tuple[Write, ...]
    #: pool points, placed last (2.8) in rule order, ``once_closed`` shortfalls (which read a pool) first
    pool: tuple[Write, ...]
    #: this deal ends a run of raspasy (``raspasy.run_ends_on``, 2.7); False for raspasy
    ends_run: bool
    #: the declarer won (made or not whisted), using up his bomb in play (K note 29); False for raspasy
    won: bool = False


class Worked(Text):
    """A reason as JSON's ``why`` has it (``3 tricks × 4``); explain shows ``whole`` (``… = 12``)."""

    _whole: Text | tuple[str, Amount]  # (its template, the amount) until read: ``score`` never reads it

    @property
    def whole(self) -> Text:
        w = self._whole
        if isinstance(w, tuple):
            template, amount = w
            w = self._whole = M_(template, **self.fields, result=num(-amount if amount < 0 else amount))
        return w

    def __reduce__(self) -> tuple[object, ...]:
        # pickled (season caches) as what it is, its whole arithmetic too
        return (worked, (Text(self.template, self.fields, self.plural, str(self)), self.whole))


def worked(why: Text, whole: Text | tuple[str, Amount]) -> Worked:
    """``why`` with its whole arithmetic ``whole`` (or its template and amount)."""
    out = made(Worked, str(why), why.template, why.fields, why.plural)
    out._whole = whole
    return out


def worked_out(why: str, whole: str, amount: Amount, /, **fields: object) -> Worked:
    """``why`` (a Text, or a template of ``fields``) and ``whole``, its template with ``{result}``."""
    if isinstance(why, Text):
        return worked(why, (whole, amount))
    # ``worked(M_(why, **fields), …)`` made at once: a deal seen first makes several
    out = made(Worked, why.format_map(fields) if fields else why, why, fields)
    out._whole = (whole, amount)
    return out


#: one rule of 2.1–2.6: (resolved deal, convention, raspasy run, dark level) -> its writes
Rule = Callable[[Resolved, Convention, int, int], Iterator[Write]]


def written(resolved: Resolved, conv: Convention, run: int, bomb: int = 1, dark: int = 0) -> Written:
    """The kind of ``resolved`` and what it writes (2.1–2.7), pool points apart.  ``run``: a
    raspasy's place in its run (0 for other deals); ``bomb`` 1: none; ``dark``: K3.3.19 а."""
    others: list[Write] = []
    pool: list[Write] = []
    writes = [*_BY_KIND[resolved.kind](resolved, conv, run, dark), *_premium(resolved, conv)]
    coef, how = _coefficient(resolved, conv, bomb)
    # ``once_closed`` shortfalls lead the pool points: placed on the paper as before the deal (pool.place)
    placed = resolved.kind == "played" and conv.shortfall_per_trick[resolved.level] == ONCE_CLOSED
    short: list[Write] = []
    for w in writes:
        if coef != 1:
            w = _times(w, coef, how)
        if placed and w.rule == "shortfall":
            short.append(w)
        else:
            (pool if w.area == POOL else others).append(w)
    return Written(resolved.kind, tuple(others), (*short, *pool), _ends_run(resolved, conv), _won(resolved))


def seating(r: Resolved, seats: Seats | None = None) -> tuple[object, ...]:
    """All ``written`` reads of ``r.seats`` (a raspasy's order: the zero-trick bonus), so the scorer shares
    writes across dealers (tests/test_scoring_pure.py); ``seats``: another table's (``r`` dealt there)."""
    s = r.seats if seats is None else seats
    talon = r.kind != "raspasy" and _play(r).talon  # the dealer writes the premium (K3.4.11)
    return (s.sits_out, s.sitters, s.dummy, s.active if r.kind == "raspasy" else None, talon and s.dealer)


def _coefficient(r: Resolved, c: Convention, bomb: int) -> tuple[int, str]:
    """What multiplies a game (RULES.md 2.10): the declarer's bomb in play (K note 29) and
    ``dark.factor`` for a game bid «втёмную» (K3.3.19 б); they multiply (K note 31)."""
    if r.kind == "raspasy":
        return 1, ""
    parts = [M_("bomb ×{bomb}", bomb=bomb)] if bomb != 1 else []
    coef = bomb
    if _play(r).dark:
        coef *= c.dark_factor
        parts.append(M_("dark ×{factor}", factor=c.dark_factor))
    if len(parts) == 2:
        return coef, M_("{a} × {b}", a=parts[0], b=parts[1])
    return coef, parts[0] if parts else ""


def _times(w: Write, coef: int, how: str) -> Write:
    """``w`` multiplied by ``coef``, its arithmetic finished first."""
    amount = exact(w.amount * coef)
    whole = w.why.whole if isinstance(w.why, Worked) else w.why
    english = f"{whole}; × {coef} ({how}) = {num(amount)}"
    times = N_("{why}; × {coef} ({how}) = {amount}")
    why = M_(times, why=w.why, coef=coef, how=how, amount=num(amount)).spelled(english)
    if not isinstance(w.why, Worked):
        return w._replace(amount=amount, why=why)
    # the first step keeps its own result in every language: «3 взятки × 4 = 12; × 2 (бомба ×2) = 24»
    shown = M_(times, why=w.why.whole, coef=coef, how=how, amount=num(amount)).spelled(english)
    return w._replace(amount=amount, why=worked(why, shown))


def _won(r: Resolved) -> bool:
    """Made, or not whisted (K note 29: a won game uses up the bomb, a lost one keeps it)."""
    if r.kind in ("unplayed", "half"):
        return True
    if r.kind == "played":
        return r.taken >= r.level
    return r.kind == "misere" and r.taken == 0


def _play(r: Resolved) -> Play:
    assert isinstance(r.deal, Play)
    return r.deal


# -- 2.1, 2.2: a contract not played ------------------------------------------------------


def _unplayed(r: Resolved, c: Convention, run: int, dark: int) -> Iterator[Write]:
    price = c.price[r.level]
    why = M_("{contract} not whisted: price {price}", contract=_play(r).contract, price=num(price))
    yield Write("unplayed", r.declarer, POOL, price, why=why)


def _half_whist(r: Resolved, c: Convention, run: int, dark: int) -> Iterator[Write]:
    price, per, need = c.price[r.level], c.whist_per_trick[r.level], c.obligation[r.level]
    contract = _play(r).contract
    why = M_("{contract} half-whisted, not played: price {price}", contract=contract, price=num(price))
    yield Write("unplayed", r.declarer, POOL, price, why=why)
    taken = Fraction(need, 2)
    amount = exact(per * taken)
    said = N_("half of the obligation {need}: {taken} × {per} = {amount}")
    why = M_(said, need=need, taken=num(exact(taken)), per=num(per), amount=num(amount))
    yield Write("half-whist", r.whisters[0], WHISTS, amount, r.declarer, why=why)


# -- 2.3: a contract played -------------------------------------------------------------------


def _played(r: Resolved, c: Convention, run: int, dark: int) -> Iterator[Write]:
    L, t = r.level, r.taken
    contract = _play(r).contract
    k = max(0, L - t)
    if k == 0:
        why = M_("{contract} made with {t}: price {price}", contract=contract, t=t, price=num(c.price[L]))
        yield Write("made", r.declarer, POOL, c.price[L], why=why)
    else:
        per, fields = c.remise_per_trick[L], {"contract": contract, "down": down(k), "k": k}
        whole = N_("{contract} {down}: {k} × {per} = {result}")
        why = worked_out(N_("{contract} {down}: {k} × {per}"), whole, exact(per * k), **fields, per=num(per))
        yield Write("remise", r.declarer, MOUNTAIN, exact(per * k), why=why)
    own = dict(r.tricks)
    if len(r.whisters) == 2:
        yield from _two_whisters(r, c, k, own)
    else:
        yield from _one_whister(r, c, k)
    yield from _dealer_consolation(r, c, k)
    if k == 0 and not (L == 10 and c.whist_ten_checked):  # a checked ten has no obligation
        yield from _shortfall(r, c, 10 - t, own)


def _two_whisters(r: Resolved, c: Convention, k: int, own: dict[str, int]) -> Iterator[Write]:
    w, cons = c.whist_per_trick[r.level], c.consolation_per_trick[r.level]
    for wh in r.whisters:
        if own[wh]:
            yield Write("whists", wh, WHISTS, exact(w * own[wh]), r.declarer, why=_whists(own[wh], w))
        if k:
            yield Write("consolation", wh, WHISTS, exact(cons * k), r.declarer, why=_consolation(k, cons))


@lru_cache(maxsize=1024)  # (pure: a deal seen first mostly writes what another wrote)
def _whists(
    n: int, per: Amount, why: str = N_("{tricks} × {per}"), whole: str = "", amount: Amount | None = None
) -> Worked:
    """Whists for ``n`` tricks at ``per`` (or ``amount``, a share of them) and the whole
    arithmetic: ``why`` and ``whole`` are a rule's own templates of ``tricks`` and ``per``."""
    amount = exact(per * n) if amount is None else amount
    return worked_out(why, whole or N_("{tricks} × {per} = {result}"), amount, tricks=tricks(n), per=num(per))


@lru_cache(maxsize=1024)
def _consolation(k: int, cons: Amount, why: str = N_("{undertricks} × {per}"), whole: str = "") -> Worked:
    """Consolation for ``k`` undertricks at ``cons`` a trick, and its whole arithmetic (``why``
    and ``whole``: a rule's own templates, both of ``undertricks`` and ``per``)."""
    whole = whole or N_("{undertricks} × {per} = {result}")
    return worked_out(why, whole, exact(cons * k), undertricks=undertricks(k), per=num(cons))


def _one_whister(r: Resolved, c: Convention, k: int) -> Iterator[Write]:
    """One whister and a passer: a made contract as ``whist.lone_whister_made`` says, a
    failed one the greedy or the gentleman whist (K3.8.13, K3.8.14)."""
    if r.whisters[0] in r.seats.sitters:
        yield from _returned(r, c, k)
        return
    if r.seats.dummy or (k and c.whist_on_failure == "greedy"):
        yield from _greedy(r, c, k)
        return
    w, cons = c.whist_per_trick[r.level], c.consolation_per_trick[r.level]
    decl, d, wh = r.declarer, 10 - r.taken, r.whisters[0]
    passer = next(x for x in r.defenders if x != wh)
    if k == 0:
        made = c.lone_whister_made
        split = made == "split"
        n = r.lone_own if made == "own" else d
        assert n is not None  # resolve refuses a made deal without it under 'own'
        amount = half(exact(w * n)) if split else exact(w * n)
        why = _whists(n, w, *_LONE_MADE[made], amount)
        for p in ((wh, passer) if split else (wh,)) if n else ():
            yield Write("whists", p, WHISTS, amount, decl, why=why)
        return
    writers = 2 if c.consolation_by_passer else 1
    total = exact(w * d + writers * cons * k)
    said = N_("({tricks} × {per} + {writers} × {undertricks} × {cons}) / 2 = {total} / 2")
    whole = N_("({tricks} × {per} + {writers} × {undertricks} × {cons}) / 2 = {total} / 2 = {result}")
    fields = {"tricks": tricks(d), "per": num(w), "writers": writers, "undertricks": undertricks(k)}
    why = worked_out(said, whole, half(total), **fields, cons=num(cons), total=num(total))
    for p in (wh, passer):
        yield Write("gentleman", p, WHISTS, half(total), decl, why=why)


def _returned(r: Resolved, c: Convention, k: int) -> Iterator[Write]:
    """A player out returned the whist (K3.8.8): he writes the side's tricks, and on a failure
    the defenders' consolation too; they write nothing (seed 001: «все висты записывает себе»)."""
    w, cons = c.whist_per_trick[r.level], c.consolation_per_trick[r.level]
    decl, d, wh = r.declarer, 10 - r.taken, r.whisters[0]
    if d:
        why = _whists(d, w, *_RETURNED_WHY)
        yield Write("returned-whist", wh, WHISTS, exact(w * d), decl, why=why)
    if k:
        writers = 2 if c.consolation_by_passer else 1
        said = N_("{writers} × {undertricks} × {per} (the defenders' consolation, written by him)")
        whole = N_(
            "{writers} × {undertricks} × {per} = {result} (the defenders' consolation, written by him)"
        )
        amount = exact(writers * cons * k)
        why = worked_out(said, whole, amount, writers=writers, undertricks=undertricks(k), per=num(cons))
        yield Write("returned-whist", wh, WHISTS, amount, decl, why=why)


#: the returned whist's tricks: the reason and its whole arithmetic
_RETURNED_WHY = (
    N_("{tricks} × {per} (he returned the whist: the side's tricks)"),
    N_("{tricks} × {per} = {result} (he returned the whist: the side's tricks)"),
)


def _greedy(r: Resolved, c: Convention, k: int) -> Iterator[Write]:
    """The greedy whist: the whister writes the side's tricks and consolation, the passer only
    consolation; with 2 players the whister writes the dummy's consolation too (seed 001)."""
    w, cons = c.whist_per_trick[r.level], c.consolation_per_trick[r.level]
    decl, d, wh = r.declarer, 10 - r.taken, r.whisters[0]
    if d and r.seats.dummy:
        said: str = M_("{tricks} × {num} (his and the dummy's)", tricks=tricks(d), num=num(w))
        why = worked_out(said, N_("{tricks} × {num} = {result} (his and the dummy's)"), exact(w * d))
        yield Write("whists", wh, WHISTS, exact(w * d), decl, why=why)
    elif d:
        yield Write("whists", wh, WHISTS, exact(w * d), decl, why=_whists(d, w))
    if k:
        yield Write("consolation", wh, WHISTS, exact(cons * k), decl, why=_consolation(k, cons))
    if k and r.seats.dummy:
        said = N_("{undertricks} × {num} (for the dummy: the whister writes it)")
        whole = N_("{undertricks} × {num} = {result} (for the dummy: the whister writes it)")
        why = worked_out(said, whole, exact(cons * k), undertricks=undertricks(k), num=num(cons))
        yield Write("consolation", wh, WHISTS, exact(cons * k), decl, why=why)
    elif k and c.consolation_by_passer:
        said = N_("{undertricks} × {per} (greedy whist: the passer writes only consolation)")
        whole = N_("{undertricks} × {per} = {result} (greedy whist: the passer writes only consolation)")
        why = _consolation(k, cons, said, whole)
        passer = next(x for x in r.defenders if x != wh)
        yield Write("consolation", passer, WHISTS, exact(cons * k), decl, why=why)


#: one whister, the contract made (``whist.lone_whister_made``): the reason and its whole arithmetic
_LONE_MADE: dict[LoneWhisterMade, tuple[str, str]] = {
    "side": (
        N_("{tricks} × {per} (the whister takes the passer's too)"),
        N_("{tricks} × {per} = {result} (the whister takes the passer's too)"),
    ),
    "own": (
        N_("{tricks} × {per} (his own; the passer's are not written)"),
        N_("{tricks} × {per} = {result} (his own; the passer's are not written)"),
    ),
    "split": (
        N_("{tricks} × {per} / 2 (the side's tricks in halves)"),
        N_("{tricks} × {per} / 2 = {result} (the side's tricks in halves)"),
    ),
}


def _dealer_consolation(r: Resolved, c: Convention, k: int) -> Iterator[Write]:
    """The dealer who sits out writes consolation (K3.8.1.2); with 5 players the second
    player out too, as ``table.second_out_consolation`` says (seed 001)."""
    dealer = r.seats.sits_out
    if not (k and dealer is not None and c.consolation_by_dealer):
        return
    cons = c.consolation_per_trick[r.level]
    seconds = r.seats.sitters[1:] if c.second_out_consolation else ()
    for p in (dealer, *seconds):
        why = _consolation(k, cons, *_DEALER_WHY[p != dealer])
        yield Write("dealer-consolation", p, WHISTS, exact(cons * k), r.declarer, why=why)


#: the consolation of the dealer and of the second player out: the reason, its whole arithmetic
_DEALER_WHY = (
    (
        N_("{undertricks} × {per} (the dealer writes consolation too)"),
        N_("{undertricks} × {per} = {result} (the dealer writes consolation too)"),
    ),
    (
        N_("{undertricks} × {per} (the second player out writes consolation too)"),
        N_("{undertricks} × {per} = {result} (the second player out writes consolation too)"),
    ),
)


def _shortfall(r: Resolved, c: Convention, d: int, own: dict[str, int]) -> Iterator[Write]:
    """A made contract whose whister (or whisters) answer for tricks short of the obligation:
    one whister for the side's tricks; two as ``whist.two_whisters_shortfall`` reads it."""
    need, per = c.obligation[r.level], c.shortfall_per_trick[r.level]
    # once_closed: half the remise, doubled by pool.place once the whister's pool is closed
    short = half(c.remise_per_trick[r.level]) if isinstance(per, str) else per
    if r.seats.dummy and c.two_whist == "own_cards":
        need = 2 if r.level == 6 else 1  # seed 001: 2 on a six, 1 on a seven or higher
    if len(r.whisters) == 2:
        yield from _TWO_SHORT[c.two_whisters_shortfall[r.level]](r, need, short, own)
    elif d < need:
        said = N_("took {d} of the obligation {need}: {miss} × {per}")
        whole = N_("took {d} of the obligation {need}: {miss} × {per} = {result}")
        amount = exact(short * (need - d))
        why = worked_out(said, whole, amount, d=d, need=need, miss=need - d, per=num(short))
        yield Write("shortfall", r.whisters[0], MOUNTAIN, amount, why=why)


#: each whister short of his half of the obligation, the pair's shortfall capping it or not
_SPLIT_WHY = {
    False: (
        N_("took {own} of his half {half} of the obligation {need}: {miss} × {per}"),
        N_("took {own} of his half {half} of the obligation {need}: {miss} × {per} = {result}"),
    ),
    True: (
        N_(
            "took {own} of his half {half} of the obligation {need}, the pair lacked {lacked}: {miss} × {per}"
        ),
        N_(
            "took {own} of his half {half} of the obligation {need}, "
            "the pair lacked {lacked}: {miss} × {per} = {result}"
        ),
    ),
}


def _split(
    r: Resolved, need: int, short: Amount, own: dict[str, int], capped: bool = False
) -> Iterator[Write]:
    together = sum(own.values())
    if together >= need:
        return
    each = Fraction(need, 2)
    for wh in r.whisters:
        if own[wh] >= each:
            continue
        miss = exact(min(each - own[wh], Fraction(need - together)) if capped else each - own[wh])
        fields = {"own": own[wh], "half": num(exact(each)), "need": need, "lacked": need - together}
        why = worked_out(*_SPLIT_WHY[capped], exact(short * miss), **fields, miss=num(miss), per=num(short))
        yield Write("shortfall", wh, MOUNTAIN, exact(short * miss), why=why)


def _answer(
    r: Resolved,
    need: int,
    short: Amount,
    own: dict[str, int],
    template: str,
    second: bool = False,
    alone: bool = False,
) -> Iterator[Write]:
    """The pair's shortfall taken together, each whister (or the ``second`` defender alone)
    answering for all of it; ``alone``: the second's own tricks count, not the first's."""
    together = own[r.defenders[1]] if alone else sum(own.values())
    if together >= need:
        return
    miss = need - together
    why = M_(template, together=together, own=together, need=need, miss=miss, per=num(short))
    for wh in r.defenders[1:2] if second else r.whisters:
        yield Write("shortfall", wh, MOUNTAIN, exact(short * miss), why=why)


_EACH_ANSWERS = N_("the whisters took {together} of {need}; each answers: {miss} × {per}")
_SECOND_ANSWERS = N_("the whisters took {together} of {need}; the second defender answers: {miss} × {per}")
_SECOND_ALONE = N_(
    "the second defender took {own} of {need} by himself (the first's tricks do not count): {miss} × {per}"
)
#: two whisters, a made contract (``whist.two_whisters_shortfall``): the rule that writes their shortfall
_TWO_SHORT: dict[TwoWhistersShortfall, Callable[[Resolved, int, Amount, dict[str, int]], Iterator[Write]]] = {
    "split": _split,
    "split_capped": partial(_split, capped=True),
    "both": partial(_answer, template=_EACH_ANSWERS),
    "second": partial(_answer, template=_SECOND_ANSWERS, second=True),
    "second_alone": partial(_answer, template=_SECOND_ALONE, second=True, alone=True),
}


# -- 2.4: misère ------------------------------------------------------------------------------


def _misere(r: Resolved, c: Convention, run: int, dark: int) -> Iterator[Write]:
    if r.taken == 0:
        why = M_("misère made: price {price}", price=num(c.misere_price))
        yield Write("misere-made", r.declarer, POOL, c.misere_price, why=why)
    else:
        per = c.misere_remise_per_trick
        said = M_("misère with {tricks}: {n} × {per}", tricks=tricks(r.taken), n=r.taken, per=num(per))
        why = worked_out(said, N_("misère with {tricks}: {n} × {per} = {result}"), exact(per * r.taken))
        yield Write("misere-remise", r.declarer, MOUNTAIN, exact(per * r.taken), why=why)


# -- 2.5, 2.6 (and 2.7's progression): raspasy -----------------------------------------------


def _trick_value(c: Convention, run: int, dark: int) -> tuple[Amount, str]:
    """One raspasy trick's value at this place in the run (2.7), raised by the dark passes
    before it (2.10, K3.3.19 а), and how it came about."""
    mult = c.progression(run)
    raised = c.bomb(dark) if dark else 1
    v = exact(c.raspasy_trick_value * mult * raised)
    fields = {"run": run, "value": num(c.raspasy_trick_value), "mult": mult, "v": num(v)}
    if dark:
        said = N_(
            "raspasy no. {run} in a row, {value} × {mult} × {raised} (dark pass, level {dark}) = {v} a trick"
        )
        return v, M_(said, **fields, raised=raised, dark=dark)
    return v, M_("raspasy no. {run} in a row, {value} × {mult} = {v} a trick", **fields)


#: raspasy tricks into the mountain, with ``raspasy.amnesty`` and without: the reason, its whole arithmetic
_MOUNTAIN_WHY = {
    True: (
        N_("({tricks} − amnesty {a}) × {v}; {step}"),
        N_("({tricks} − amnesty {a}) × {v} = {result}; {step}"),
    ),
    False: (N_("({tricks}) × {v}; {step}"), N_("({tricks}) × {v} = {result}; {step}")),
}
#: a raspasy trick as whists, on the one who took the fewest and on those tied for it
_WHISTS_WHY = {
    False: (N_("{player} took {t}: {t} × {v}"), N_("{player} took {t}: {t} × {v} = {result}")),
    True: (
        N_("{player} took {t}: {t} × {v} / {n} (tied for the fewest)"),
        N_("{player} took {t}: {t} × {v} / {n} = {result} (tied for the fewest)"),
    ),
}


def _raspasy_mountain(r: Resolved, c: Convention, run: int, dark: int) -> Iterator[Write]:
    v, step = _trick_value(c, run, dark)
    counts = dict(r.tricks)
    a = min(counts.values()) if c.raspasy_amnesty else 0
    for p, t in r.tricks:
        if t - a:
            amount = exact(v * (t - a))
            why = worked_out(*_MOUNTAIN_WHY[a > 0], amount, tricks=tricks(t), a=a, v=num(v), step=step)
            yield Write("raspasy-mountain", p, MOUNTAIN, amount, why=why)
    yield from _zero_trick(r, c, v, counts)


def _raspasy_whists(r: Resolved, c: Convention, run: int, dark: int) -> Iterator[Write]:
    v, _ = _trick_value(c, run, dark)
    counts = {p: t for p, t in r.tricks if p != r.seats.sits_out}
    low = min(counts.values())
    writers = [p for p in counts if counts[p] == low]
    n = len(writers)
    for wr in writers if n < len(counts) else ():
        for p, t in counts.items():
            if p not in writers and t:
                amount = exact(Fraction(v * t, n))
                why = worked_out(*_WHISTS_WHY[n > 1], amount, player=p, t=t, v=num(v), n=n)
                yield Write("raspasy-whists", wr, WHISTS, amount, p, why=why)
    counts_all = dict(r.tricks)
    if r.seats.sits_out is not None:
        counts_all.setdefault(r.seats.sits_out, 0)
    yield from _zero_trick(r, c, v, counts_all)


def _zero_trick(r: Resolved, c: Convention, v: Amount, counts: dict[str, int]) -> Iterator[Write]:
    """The bonus for taking no trick (K3.7.2.1, K3.7.2.2): pool points, or the same points
    in mountain points taken off the mountain (``zero_trick_bonus_area``)."""
    bonus, why = _zero_trick_points(c, v)
    if not bonus:
        return
    area: Area = POOL
    amount = bonus
    if c.raspasy_zero_trick_bonus_area == "mountain":
        pim = c.pool_point_in_mountain
        area, amount = MOUNTAIN, exact(-bonus * pim)
        said = N_("{why}, taken off the mountain: {bonus} × {pim} = {amount}")
        why = M_(said, why=why, bonus=num(bonus), pim=num(pim), amount=num(-amount))
    order = list(r.seats.active)
    if r.seats.sits_out is not None and c.raspasy_zero_trick_bonus_dealer:
        order.append(r.seats.sits_out)  # K3.7.6.2: the dealer whose talon took none
    for p in order:
        if p in counts and counts[p] == 0:
            yield Write("zero-trick", p, area, amount, why=why)


#: the zero-trick bonus's reason: one trick's value (``trick``, ``pim`` if 1 pool point is not 1
#: mountain point, ``price``) or a number of pool points (``zero_trick_bonus_area``)
_ZERO_WHY = {
    "trick": N_("no trick: one trick's value {v}"),
    "pim": N_("no trick: one trick's value {v} / {pim} mountain points a pool point = {bonus}"),
    "price": N_("no trick: one trick's value {v} as pool points"),
    "pool": N_("no trick: {bonus} into the pool"),
    "mountain": N_("no trick: {bonus} pool points"),
}


def _zero_trick_points(c: Convention, v: Amount) -> tuple[Amount, str]:
    """The zero-trick bonus in pool points, and how it came about."""
    how, pim = c.raspasy_zero_trick_bonus, c.pool_point_in_mountain
    bonus: Amount
    if how == "trick":
        bonus, key = exact(Fraction(v) / Fraction(pim)), "trick" if pim == 1 else "pim"
    elif how == "price":
        bonus, key = v, "price"
    else:
        bonus, key = how, c.raspasy_zero_trick_bonus_area
    return bonus, M_(_ZERO_WHY[key], v=num(v), pim=num(pim), bonus=num(bonus))


def _raspasy(r: Resolved, c: Convention, run: int, dark: int) -> Iterator[Write]:
    """``raspasy.scoring``: into the mountain (2.5) or as whists (2.6)."""
    return (_raspasy_mountain if c.raspasy_scoring == "mountain" else _raspasy_whists)(r, c, run, dark)


def _ends_run(r: Resolved, c: Convention) -> bool:
    """Whether this deal ends a run of raspasy (2.7, ``raspasy.run_ends_on``: ``any`` deal, a
    ``played`` one, or a contract with a whist that was made, ``whisted_made``)."""
    if r.kind == "raspasy":
        return False
    ends_on = c.raspasy_run_ends_on
    if ends_on == "any":
        return True
    if r.kind == "misere":
        return ends_on == "played"
    if r.kind == "played":
        return ends_on == "played" or r.taken >= r.level
    return False  # passed out or half-whisted: not played


# -- named agreements: «без трёх» (K note 40) and the talon premium (K3.4.11) ----------------


def _conceded(r: Resolved, c: Convention, run: int, dark: int) -> Iterator[Write]:
    """«без трёх» (``contracts.concede_three``): the remise for three undertricks at the
    level bid to, and nothing else (K note 40: «вистующие не пишут ничего»)."""
    per = c.remise_per_trick[r.level]
    said = N_("{contract} conceded «без трёх» without play: 3 × {per}")
    whole = N_("{contract} conceded «без трёх» without play: 3 × {per} = {result}")
    why = worked_out(said, whole, exact(per * 3), contract=_play(r).contract, per=num(per))
    yield Write("concede", r.declarer, MOUNTAIN, exact(per * 3), why=why)


def talon_tricks(cards: tuple[Card, ...]) -> tuple[int, str]:
    """The tricks the talon gave the declarer, as K3.4.11 counts them, and what they were."""
    ranks = [c.rank for c in cards]
    one_suit = len(cards) == 2 and cards[0].suit is cards[1].suit
    aces = ranks.count(Rank.ACE)
    if aces == 2:
        return 3, M_("two aces")
    if aces and one_suit and Rank.KING in ranks:
        return 2, M_("an ace and the king of its suit")
    if aces:
        return 1, M_("an ace")
    if one_suit and set(ranks) == {Rank.KING, Rank.QUEEN}:
        return 1, M_("a marriage")
    return 0, ""


#: the deals whose declarer took the talon and declared a game of tricks
_PREMIUM_KINDS: frozenset[DealKind] = frozenset({"unplayed", "half", "played"})
#: … and the one who left «без трёх» after it, under ``premium.on_concede`` (seed 001)
_PREMIUM_CONCEDED: frozenset[DealKind] = _PREMIUM_KINDS | {"conceded"}


def _premium(r: Resolved, c: Convention) -> Iterator[Write]:
    """The talon premium (``premium.enabled``, K3.4.11): consolation of the contract's level per trick the
    talon gave, written on the declarer by ``premium.by``; on «без трёх» as ``premium.on_concede`` says."""
    kinds = _PREMIUM_CONCEDED if c.premium_on_concede else _PREMIUM_KINDS
    if not c.premium_enabled or r.kind not in kinds or not _play(r).talon:
        return
    n, what = talon_tricks(_play(r).talon)
    if not n:
        return
    cons = c.consolation_per_trick[r.level]
    cards = " ".join(str(x) for x in _play(r).talon)
    said = N_("talon {cards}: {what}, {tricks} × {per}")
    why = M_(said, cards=cards, what=what, tricks=tricks(n), per=num(cons))
    if c.premium_by == "dealer":
        if r.seats.dealer == r.declarer:
            return  # the dealer writes it on the declarer, not on himself
        why = worked_out(why, N_("talon {cards}: {what}, {tricks} × {per} = {result}"), exact(cons * n))
        yield Write("premium", r.seats.dealer, WHISTS, exact(cons * n), r.declarer, why=why)
    else:
        share = half(exact(cons * n))
        for p in r.defenders:
            yield Write("premium", p, WHISTS, share, r.declarer, why=M_("{why}, half each", why=why))


_BY_KIND: dict[DealKind, Rule] = {
    "unplayed": _unplayed,
    "half": _half_whist,
    "played": _played,
    "misere": _misere,
    "raspasy": _raspasy,
    "conceded": _conceded,
}
