"""Scoring: a pure fold over deals.  Each deal becomes entries — who writes how much,
where, under which rule (``rulebook``) and with what arithmetic — and the entries are
added to the sheet.  Rendering and settlement only read the result.

RULES.md §2 section by section: ``_unplayed`` 2.1, ``_half_whist`` 2.2, ``_played`` 2.3,
``_misere`` 2.4, ``_raspasy_mountain`` 2.5, ``_raspasy_whists`` 2.6, progression 2.7 in
``Scorer.feed``, pool closing and help 2.8 in ``_place``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact, half, num, tricks, undertricks
from pulyacalc.core.errors import Problems
from pulyacalc.core.model import Deal, Header, Play, Raspasy, Unreadable
from pulyacalc.core.seating import Seats
from pulyacalc.core.sheet import MOUNTAIN, POOL, WHISTS, Entry, Sheet, SheetView
from pulyacalc.scoring.resolve import Resolved, resolve


@dataclass(frozen=True, slots=True)
class DealResult:
    number: int
    deal: Deal
    dealer: str
    kind: str
    entries: tuple[Entry, ...]
    #: the pool was finished before this deal (RULES.md 2.8)
    after_finish: bool
    #: consecutive raspasy count at this deal (1 = first of a run; 0 for other deals)
    raspasy_run: int
    #: the raspasy run this contract ended (for checking the exit, 2.7)
    after_raspasy: int


#: (rule, player, area, amount, on, why): an Entry without its deal number
EntryFields = tuple[str, str, str, Amount, "str | None", str]
#: what a deal writes before its pool points are placed: its kind, the fields of its entries
#: outside the pool, and of its pool points (placed last, 2.8)
Written = tuple[str, tuple[EntryFields, ...], tuple[EntryFields, ...]]

#: how many (deal text, dealer, raspasy run) results ``Scorer`` remembers; it forgets them
#: all when full, so that memory stays flat however long the log is
WRITTEN_CACHE_SIZE = 50_000


class Scorer:
    """The fold: ``feed`` one deal at a time; ``sheet`` holds the running totals.

    Deals that break a rule are reported into ``problems`` and not scored.

    What a deal writes before its pool points are placed (2.1–2.6, and 2.7's multiplier)
    depends only on the deal as written, this deal's dealer and, on raspasy, the run of
    raspasy it is in; only the placing (2.8) depends on the sheet.  Deals read from the
    same text share a ``template`` (the line reader's parse cache), so for them ``feed``
    remembers the first such deal's kind and entries per (template, dealer, run) and
    reuses them, with the deal's own number.  A deal that breaks a rule is never
    remembered: each one is checked, and reported at its own line.
    """

    def __init__(
        self,
        header: Header,
        conv: Convention,
        problems: Problems | None = None,
        start: SheetView | None = None,
    ) -> None:
        """``start``: the paper the first deal is written on (empty by default)."""
        self.players = header.players
        self.conv = conv
        self.target = header.pool if header.pool is not None else conv.pool_target
        self.sheet = Sheet(header.players, start)
        self.problems = problems if problems is not None else Problems()
        self.dealer = header.dealer if header.dealer is not None else header.players[-1]
        self.run = 0
        self.count = 0
        n = len(self.players)
        #: the other players, clockwise from each
        self._clockwise = {
            p: tuple(self.players[(i + k) % n] for k in range(1, n)) for i, p in enumerate(self.players)
        }
        #: one Seats per dealer, made once, with the next deal's dealer
        self._seats: dict[str, tuple[Seats, str]] = {}
        #: (template, dealer, raspasy run) → (kind, entries' fields); see the class docstring
        self._written: dict[tuple[Hashable, str, int], Written] = {}
        #: one copy of each distinct value in ``_written``, and of each entry in them
        self._same_written: dict[Written, Written] = {}
        self._same_fields: dict[EntryFields, EntryFields] = {}

    @property
    def finished(self) -> bool:
        """The pulya is finished when the pools add up to players × target (RULES.md 2.8)."""
        return sum(self.sheet.pool.values()) >= len(self.players) * self.target

    def feed(self, deal: Deal | Unreadable) -> DealResult | None:
        self.count += 1
        if isinstance(deal, Unreadable):
            # its problems are reported by the reader; it still takes its turn to deal
            self.dealer = self._clockwise_from(self.dealer)[0]
            return None
        if deal.dealer is not None:
            self.dealer = deal.dealer
        dealer = self.dealer
        seated = self._seats.get(dealer)
        if seated is None:
            seats = Seats(self.players, dealer)
            seated = self._seats[dealer] = (seats, seats.next_dealer())
        seats, self.dealer = seated
        # 2.7: the raspasy run this deal is in, if it is raspasy
        run = self.run + 1 if isinstance(deal, Raspasy) else 0
        key = None if deal.template is None else (deal.template, dealer, run)
        written = None if key is None else self._written.get(key)
        res = None
        if written is None:
            res = resolve(deal, seats, self.conv, self.problems)
            if res is None:
                return None
        after_finish = self.finished
        after_raspasy, self.run = self.run, run
        if res is not None:
            written = self._write(res)
            if key is not None:
                if len(self._written) >= WRITTEN_CACHE_SIZE:
                    self._written.clear()
                    self._same_written.clear()
                    self._same_fields.clear()
                self._written[key] = written
        assert written is not None
        kind, others, pool = written
        n = self.count
        apply = self.sheet.apply
        placed = [Entry(n, *f) for f in others]
        for e in placed:
            apply(e)
        # pool points go in last, in seating order from first hand (2.8)
        for f in pool:
            for p in self._place(Entry(n, *f), after_finish):
                apply(p)
                placed.append(p)
        return DealResult(n, deal, seats.dealer, kind, tuple(placed), after_finish, run, after_raspasy)

    def _write(self, res: Resolved) -> Written:
        """What a resolved deal writes before placing (2.1–2.6): its kind and its entries'
        fields (without the deal number).  Equal fields are shared (many deals write the
        same entry), which keeps the cache small."""
        same = self._same_fields
        others: list[EntryFields] = []
        pool: list[EntryFields] = []
        for e in self._entries(res):
            f: EntryFields = (e.rule, e.player, e.area, e.amount, e.on, e.why)
            (pool if e.area == POOL else others).append(same.setdefault(f, f))
        written: Written = (res.kind, tuple(others), tuple(pool))
        return self._same_written.setdefault(written, written)

    def feed_all(self, deals: Iterable[Deal | Unreadable]) -> Iterator[DealResult]:
        feed = self.feed
        for d in deals:
            r = feed(d)
            if r is not None:
                yield r

    # -- 2.1 .. 2.6: what a deal is worth ----------------------------------------------

    def _entries(self, r: Resolved) -> Iterator[Entry]:
        if r.kind == "unplayed":
            yield from self._unplayed(r)
        elif r.kind == "half":
            yield from self._half_whist(r)
        elif r.kind == "played":
            yield from self._played(r)
        elif r.kind == "misere":
            yield from self._misere(r)
        elif self.conv.raspasy_scoring == "mountain":
            yield from self._raspasy_mountain(r)
        else:
            yield from self._raspasy_whists(r)

    def _unplayed(self, r: Resolved) -> Iterator[Entry]:
        c = self.conv
        deal = r.deal
        assert isinstance(deal, Play)
        yield Entry(
            self.count,
            "unplayed",
            r.declarer,
            POOL,
            c.price[r.level],
            why=f"{deal.contract} not whisted: price {num(c.price[r.level])}",
        )

    def _half_whist(self, r: Resolved) -> Iterator[Entry]:
        c, n, L = self.conv, self.count, r.level
        deal = r.deal
        assert isinstance(deal, Play)
        yield Entry(
            n,
            "unplayed",
            r.declarer,
            POOL,
            c.price[L],
            why=f"{deal.contract} half-whisted, not played: price {num(c.price[L])}",
        )
        tricks = Fraction(c.obligation[L], 2)
        amount = exact(c.whist_per_trick[L] * tricks)
        yield Entry(
            n,
            "half-whist",
            r.whisters[0],
            WHISTS,
            amount,
            r.declarer,
            why=f"half of the obligation {c.obligation[L]}: {num(exact(tricks))} × "
            f"{num(c.whist_per_trick[L])} = {num(amount)}",
        )

    def _played(self, r: Resolved) -> Iterator[Entry]:
        c, n, L, t = self.conv, self.count, r.level, r.taken
        deal = r.deal
        assert isinstance(deal, Play)
        k = max(0, L - t)
        d = 10 - t
        w, cons = c.whist_per_trick[L], c.consolation_per_trick[L]
        decl = r.declarer
        if k == 0:
            yield Entry(
                n,
                "made",
                decl,
                POOL,
                c.price[L],
                why=f"{deal.contract} made with {t}: price {num(c.price[L])}",
            )
        else:
            yield Entry(
                n,
                "remise",
                decl,
                MOUNTAIN,
                exact(c.remise_per_trick[L] * k),
                why=f"{deal.contract} without {k}: {k} × {num(c.remise_per_trick[L])}",
            )
        own = dict(r.tricks)
        if len(r.whisters) == 2:
            for wh in r.whisters:
                if own[wh]:
                    yield Entry(
                        n, "whists", wh, WHISTS, exact(w * own[wh]), decl, why=f"{tricks(own[wh])} × {num(w)}"
                    )
                if k:
                    yield Entry(
                        n,
                        "consolation",
                        wh,
                        WHISTS,
                        exact(cons * k),
                        decl,
                        why=f"{undertricks(k)} × {num(cons)}",
                    )
        else:
            wh = r.whisters[0]
            passer = next(x for x in r.defenders if x != wh)
            if k == 0:
                if d:
                    yield Entry(
                        n,
                        "whists",
                        wh,
                        WHISTS,
                        exact(w * d),
                        decl,
                        why=f"{tricks(d)} × {num(w)} (the whister takes the passer's too)",
                    )
            elif c.whist_on_failure == "greedy":
                if d:
                    yield Entry(n, "whists", wh, WHISTS, exact(w * d), decl, why=f"{tricks(d)} × {num(w)}")
                yield Entry(
                    n, "consolation", wh, WHISTS, exact(cons * k), decl, why=f"{undertricks(k)} × {num(cons)}"
                )
                if c.consolation_by_passer:
                    yield Entry(
                        n,
                        "consolation",
                        passer,
                        WHISTS,
                        exact(cons * k),
                        decl,
                        why=f"{undertricks(k)} × {num(cons)} (greedy whist: the passer "
                        "writes only consolation)",
                    )
            else:
                writers = 2 if c.consolation_by_passer else 1
                total = exact(w * d + writers * cons * k)
                share = half(total)
                why = (
                    f"({tricks(d)} × {num(w)} + {writers} × {undertricks(k)} × {num(cons)}) / 2 "
                    f"= {num(total)} / 2"
                )
                yield Entry(n, "gentleman", wh, WHISTS, share, decl, why=why)
                yield Entry(n, "gentleman", passer, WHISTS, share, decl, why=why)
        dealer = r.seats.sits_out
        if k and dealer is not None and c.consolation_by_dealer:
            yield Entry(
                n,
                "dealer-consolation",
                dealer,
                WHISTS,
                exact(cons * k),
                decl,
                why=f"{undertricks(k)} × {num(cons)} (the dealer writes consolation too)",
            )
        if k == 0:
            yield from self._shortfall(r, d, own)

    def _shortfall(self, r: Resolved, d: int, own: dict[str, int]) -> Iterator[Entry]:
        c, n, L = self.conv, self.count, r.level
        need = c.obligation[L]
        short = c.shortfall_per_trick[L]
        if len(r.whisters) == 1:
            wh = r.whisters[0]
            if d < need:
                yield Entry(
                    n,
                    "shortfall",
                    wh,
                    MOUNTAIN,
                    exact(short * (need - d)),
                    why=f"took {d} of the obligation {need}: {need - d} × {num(short)}",
                )
            return
        together = sum(own.values())
        if together >= need:
            return
        if c.two_whisters_shortfall[L] == "split":
            each = Fraction(need, 2)
            for wh in r.whisters:
                if own[wh] < each:
                    miss = exact(each - own[wh])
                    yield Entry(
                        n,
                        "shortfall",
                        wh,
                        MOUNTAIN,
                        exact(short * miss),
                        why=f"took {own[wh]} of his half {num(exact(each))} of the "
                        f"obligation {need}: {num(miss)} × {num(short)}",
                    )
        else:
            second = r.defenders[1]
            miss = need - together
            yield Entry(
                n,
                "shortfall",
                second,
                MOUNTAIN,
                exact(short * miss),
                why=f"the whisters took {together} of {need}; the second defender answers: "
                f"{miss} × {num(short)}",
            )

    def _misere(self, r: Resolved) -> Iterator[Entry]:
        c, n = self.conv, self.count
        if r.taken == 0:
            yield Entry(
                n,
                "misere-made",
                r.declarer,
                POOL,
                c.misere_price,
                why=f"misère made: price {num(c.misere_price)}",
            )
        else:
            yield Entry(
                n,
                "misere-remise",
                r.declarer,
                MOUNTAIN,
                exact(c.misere_remise_per_trick * r.taken),
                why=f"misère with {tricks(r.taken)}: {r.taken} × {num(c.misere_remise_per_trick)}",
            )

    def _raspasy_mountain(self, r: Resolved) -> Iterator[Entry]:
        c, n = self.conv, self.count
        mult = c.progression(self.run)
        v = exact(c.raspasy_trick_value * mult)
        counts = dict(r.tricks)
        a = min(counts.values()) if c.raspasy_amnesty else 0
        step = f"raspasy no. {self.run} in a row, {num(c.raspasy_trick_value)} × {mult} = {num(v)} a trick"
        for p, t in r.tricks:
            if t - a:
                amn = f" − amnesty {a}" if a else ""
                yield Entry(
                    n,
                    "raspasy-mountain",
                    p,
                    MOUNTAIN,
                    exact(v * (t - a)),
                    why=f"({tricks(t)}{amn}) × {num(v)}; {step}",
                )
        yield from self._zero_trick(r, v, counts)

    def _raspasy_whists(self, r: Resolved) -> Iterator[Entry]:
        c, n = self.conv, self.count
        mult = c.progression(self.run)
        v = exact(c.raspasy_trick_value * mult)
        counts = {p: t for p, t in r.tricks if p != r.seats.sits_out}
        low = min(counts.values())
        writers = [p for p in counts if counts[p] == low]
        if len(writers) < len(counts):
            for wr in writers:
                for p, t in counts.items():
                    if p in writers or not t:
                        continue
                    amount = exact(Fraction(v * t, len(writers)))
                    split = f" / {len(writers)} (tied for the fewest)" if len(writers) > 1 else ""
                    yield Entry(
                        n, "raspasy-whists", wr, WHISTS, amount, p, why=f"{p} took {t}: {t} × {num(v)}{split}"
                    )
        counts_all = dict(r.tricks)
        if r.seats.sits_out is not None:
            counts_all.setdefault(r.seats.sits_out, 0)
        yield from self._zero_trick(r, v, counts_all)

    def _zero_trick(self, r: Resolved, v: Amount, counts: dict[str, int]) -> Iterator[Entry]:
        c, n = self.conv, self.count
        bonus: Amount
        if isinstance(c.raspasy_zero_trick_bonus, str):  # "trick": one trick's value
            bonus = exact(Fraction(v) / Fraction(c.pool_point_in_mountain))
            why = f"no trick: one trick's value {num(v)}"
            if c.pool_point_in_mountain != 1:
                why += f" / {num(c.pool_point_in_mountain)} mountain points a pool point = {num(bonus)}"
        else:
            bonus = c.raspasy_zero_trick_bonus
            why = f"no trick: {num(bonus)} into the pool"
        order = list(r.seats.active)
        if r.seats.sits_out is not None:
            order.append(r.seats.sits_out)
        for p in order:
            if p in counts and counts[p] == 0 and bonus:
                yield Entry(n, "zero-trick", p, POOL, bonus, why=why)

    # -- 2.8: pool closing and help --------------------------------------------------------

    def _place(self, e: Entry, after_finish: bool) -> list[Entry]:
        """Points for ``e.player``'s pool: into it up to the target, then help, then off the mountain."""
        c, target = self.conv, self.target
        me, left = e.player, e.amount
        room = target - self.sheet.pool[me]
        if e.on is None and (room > 0 and left < room if c.help else not after_finish):
            # the common case: all of it goes into his own pool, written as it is
            return [e]
        ratio = c.pool_point_in_mountain
        out: list[Entry] = []
        if not c.help:
            if not after_finish:
                out.append(Entry(e.deal, e.rule, me, POOL, left, why=e.why))
            else:
                off = exact(left * ratio)
                out.append(
                    Entry(
                        e.deal,
                        "written-off",
                        me,
                        MOUNTAIN,
                        -off,
                        why=f"{e.why}; the pulya is finished: {num(left)} × {num(ratio)} off the mountain",
                    )
                )
            return out
        if room > 0:
            mine = min(room, left)
            out.append(
                Entry(
                    e.deal,
                    e.rule,
                    me,
                    POOL,
                    mine,
                    why=e.why if mine == left else f"{e.why}; {num(mine)} close the pool",
                )
            )
            left = exact(left - mine)
        pools = dict(self.sheet.pool)  # a working copy: each help changes who is helped next
        while left > 0:
            others = [p for p in self._clockwise[me] if pools[p] < target]
            if not others:
                break
            best = max(pools[p] for p in others)
            helped = next(p for p in others if pools[p] == best)
            amount = min(left, target - pools[helped])
            per = c.help_whists_per_point
            out.append(
                Entry(
                    e.deal,
                    "help",
                    helped,
                    POOL,
                    amount,
                    why=f"{e.why}; {me}'s pool is closed: {num(amount)} help {helped}",
                )
            )
            out.append(
                Entry(
                    e.deal,
                    "help-whists",
                    me,
                    WHISTS,
                    exact(amount * per),
                    helped,
                    why=f"helped {helped} with {num(amount)}: {num(amount)} × {num(per)}",
                )
            )
            pools[helped] = exact(pools[helped] + amount)
            left = exact(left - amount)
        if left > 0:
            off = exact(left * ratio)
            times = f" × {num(ratio)}" if ratio != 1 else ""
            out.append(
                Entry(
                    e.deal,
                    "written-off",
                    me,
                    MOUNTAIN,
                    -off,
                    why=f"{e.why}; every pool is closed: {num(left)}{times} written off {me}'s mountain",
                )
            )
        return out

    def _clockwise_from(self, me: str) -> tuple[str, ...]:
        """The other players, clockwise from ``me``."""
        return self._clockwise[me]


def score(
    header: Header, conv: Convention, deals: Iterable[Deal | Unreadable], problems: Problems | None = None
) -> tuple[SheetView, list[DealResult]]:
    """Score a whole log; returns the final sheet and each deal's result."""
    scorer = Scorer(header, conv, problems)
    results = list(scorer.feed_all(deals))
    return scorer.sheet.view(), results
