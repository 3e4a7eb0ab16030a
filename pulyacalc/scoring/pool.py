"""RULES.md 2.8 as a pure function: where pool points go once a pool may be closed.

``place`` is the only rule that reads the paper (how full each pool is).  ``settled`` (per
write) and ``settled_deal`` (a deal's pool writes in turn) say when it no longer reads it;
only then does the fold remember its answer (tests/test_pool.py holds ``place`` to them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pulyacalc.convention.schema import ONCE_CLOSED, Convention
from pulyacalc.core.amounts import Amount, exact, half, num
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.sheet import MOUNTAIN, POOL, WHISTS, Write
from pulyacalc.scoring.rules import Worked, worked, worked_out

#: the classes of papers under which ``place``'s answer for a write is fixed (``settled``);
#: "own closed": a shortfall's whister's pool is closed (``once_closed``)
Settled = Literal["own pool", "all closed", "playing", "finished", "own closed"]
#: each player's pool; for each player, the others clockwise from him
Pools = Mapping[str, Amount]
Clockwise = Mapping[str, tuple[str, ...]]


def settled(write: Write, pools: Pools, target: int, conv: Convention, after_finish: bool) -> Settled | None:
    """The class of ``pools`` under which ``place(write, pools, …)`` reads no pool, or None
    while it does: with help, all of it fits into his own open pool; else ``settled_paper``.
    A shortfall (``once_closed``) reads only whether its whister's pool is closed."""
    if write.area == MOUNTAIN:
        return "own closed" if pools[write.player] >= target else "own pool"
    if conv.help and _fits(write, pools[write.player], target):
        return "own pool"
    return settled_paper(pools, target, conv, after_finish)


def _fits(write: Write, pool: Amount, target: int) -> bool:
    """All of ``write`` fits its player's open pool, now at ``pool`` (``place``'s first branch, with help)."""
    room = target - pool
    return write.on is None and room > 0 and write.amount < room


def settled_paper(pools: Pools, target: int, conv: Convention, after_finish: bool) -> Settled | None:
    """The class of ``pools`` under which ``place`` reads no pool whatever the write, and which
    placing keeps for the rest of the deal: without help, or with every pool closed."""
    if not conv.help:
        if ONCE_CLOSED in conv.shortfall_per_trick.values():
            return None  # a shortfall reads its whister's pool (and a deal may reopen one)
        return "finished" if after_finish else "playing"
    return "all closed" if min(pools.values()) >= target else None


def settled_deal(
    pool: tuple[Write, ...], pools: Pools, target: int, paper: Settled | None, conv: Convention
) -> Settled | None:
    """The one class under which ``place`` reads no pool for any of a deal's pool writes, each
    placed in turn, or None; ``paper`` is ``settled_paper`` of ``pools``."""
    if paper is not None or not conv.help:
        return paper
    if len(pool) == 1:
        return "own pool" if _fits(pool[0], pools[pool[0].player], target) else None
    after = dict(pools)
    for w in pool:
        if w.area != POOL or not _fits(w, after[w.player], target):
            return None
        after[w.player] += w.amount  # placed as it is
    return "own pool"


def place(
    write: Write, pools: Pools, target: int, conv: Convention, after_finish: bool, clockwise: Clockwise
) -> list[Write]:
    """Points for ``write.player``'s pool: into it up to the target, then help (the others ``clockwise``
    from him), then off the mountain.  A shortfall (``once_closed``): half, or all once his pool is closed."""
    me, left = write.player, write.amount
    if write.area == MOUNTAIN:
        return [_shortfall(write, pools[me] >= target)]
    room = target - pools[me]
    if write.on is None and (room > 0 and left < room if conv.help else not after_finish):
        # the common case: all of it goes into his own pool, written as it is
        return [write]
    if not conv.help:
        return [_no_help(write, conv, after_finish, len(clockwise[me]) + 1)]
    return _help(write, pools, target, conv, clockwise)


def _shortfall(write: Write, closed: bool) -> Write:
    """A shortfall under ``once_closed``: half the remise while the whister's pool is open, the
    whole once it is ``closed`` (K3.8.12, K3.8.11), said after the rule's reason and its whole."""
    amount = exact(write.amount * 2) if closed else write.amount
    why, whole = write.why, write.why.whole if isinstance(write.why, Worked) else write.why
    said = shown = N_("{why} (half the remise: his pool is open, K3.8.12)")
    if closed:
        said = N_("{why}; his pool is closed: the whole remise, × 2 (K3.8.11)")
        shown = N_("{why}; his pool is closed: the whole remise, × 2 = {amount} (K3.8.11)")
    text = worked(M_(said, why=why), M_(shown, why=whole, amount=num(amount)))
    return write._replace(amount=amount, why=text)


def _written_off(left: Amount, conv: Convention, players: int) -> tuple[Amount, bool]:
    """Pool points nobody can take, in mountain points off their owner's mountain, and
    whether halved: with the indivisible mountain of two only half (K4.1.1 в)."""
    off = exact(left * conv.pool_point_in_mountain)
    halved = players == 2 and conv.mountain_divisor == "opponents"
    return (half(off) if halved else off), halved


def _no_help(write: Write, conv: Convention, after_finish: bool, players: int) -> Write:
    """Without help: into one's own pool, or off the mountain once the pulya is finished."""
    me, left = write.player, write.amount
    if not after_finish:
        return Write(write.rule, me, POOL, left, why=write.why)
    off, halved = _written_off(left, conv, players)
    said = N_("{why}; the pulya is finished: {left} × {ratio} off the mountain")
    if halved:
        said = N_(
            "{why}; the pulya is finished: {left} × {ratio} / 2 off the mountain "
            "(half: the indivisible mountain, K4.1.1 в)"
        )
    why = M_(said, why=write.why, left=num(left), ratio=num(conv.pool_point_in_mountain))
    return Write("written-off", me, MOUNTAIN, -off, why=why)


def _help(write: Write, pools: Pools, target: int, conv: Convention, clockwise: Clockwise) -> list[Write]:
    """With help: close one's own pool, help the fullest open pool clockwise (and write
    whists on him for it), and write off what nobody can take."""
    me, left, why = write.player, write.amount, write.why
    out: list[Write] = []
    room = target - pools[me]
    if room > 0:
        mine = min(room, left)
        closing = why if mine == left else M_("{why}; {n} close the pool", why=why, n=num(mine))
        out.append(Write(write.rule, me, POOL, mine, why=closing))
        left = exact(left - mine)
    after = dict(pools)  # a working copy: each help changes who is helped next
    per = conv.help_whists_per_point
    while left > 0:
        others = [p for p in clockwise[me] if after[p] < target]
        if not others:
            break
        best = max(after[p] for p in others)
        helped = next(p for p in others if after[p] == best)
        amount = min(left, target - after[helped])
        n = num(amount)
        helps = N_("{why}; {player}'s pool is closed: {n} help {helped}")
        out.append(Write("help", helped, POOL, amount, why=M_(helps, why=why, player=me, n=n, helped=helped)))
        whists = exact(amount * per)
        said = N_("helped {helped} with {n}: {n} × {per}")
        whole = N_("helped {helped} with {n}: {n} × {per} = {result}")
        arithmetic = worked_out(said, whole, whists, helped=helped, n=n, per=num(per))
        out.append(Write("help-whists", me, WHISTS, whists, helped, why=arithmetic))
        after[helped] = exact(after[helped] + amount)
        left = exact(left - amount)
    if left > 0:
        off, halved = _written_off(left, conv, len(clockwise[me]) + 1)
        ratio = conv.pool_point_in_mountain
        times = f" × {num(ratio)}" if ratio != 1 else ""
        why = M_(_OFF_WHY[halved], why=why, left=num(left), times=times, player=me)
        out.append(Write("written-off", me, MOUNTAIN, -off, why=why))
    return out


#: pool points written off: all of them, or half with the indivisible mountain of two
_OFF_WHY = (
    N_("{why}; every pool is closed: {left}{times} written off {player}'s mountain"),
    N_(
        "{why}; every pool is closed: {left}{times} / 2 written off {player}'s mountain "
        "(half: the indivisible mountain, K4.1.1 в)"
    ),
)
