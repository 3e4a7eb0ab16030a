"""RULES.md 2.8 as a pure function: where pool points go once a pool may be closed.

``place`` is the only rule that reads the paper (how full each pool is).  ``settled`` (per
write) and ``settled_deal`` (a deal's pool writes in turn) say when it no longer reads it;
only then does the fold remember its answer (tests/test_pool.py holds ``place`` to them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact, num
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.sheet import MOUNTAIN, POOL, WHISTS, Write
from pulyacalc.scoring.rules import worked_out

#: the classes of papers under which ``place``'s answer for a write is fixed (``settled``)
Settled = Literal["own pool", "all closed", "playing", "finished"]
#: each player's pool; for each player, the others clockwise from him
Pools = Mapping[str, Amount]
Clockwise = Mapping[str, tuple[str, ...]]


def settled(write: Write, pools: Pools, target: int, conv: Convention, after_finish: bool) -> Settled | None:
    """The class of ``pools`` under which ``place(write, pools, …)`` reads no pool, or None
    while it does: with help, all of it fits into his own open pool; else ``settled_paper``."""
    if conv.help and _fits(write, pools[write.player], target):
        return "own pool"
    return settled_paper(pools, target, conv, after_finish)


def _fits(write: Write, pool: Amount, target: int) -> bool:
    """All of ``write`` goes into its player's own open pool, now at ``pool`` (``place``'s
    first branch, with help)."""
    room = target - pool
    return write.on is None and room > 0 and write.amount < room


def settled_paper(pools: Pools, target: int, conv: Convention, after_finish: bool) -> Settled | None:
    """The class of ``pools`` under which ``place`` reads no pool whatever the write, and
    which placing keeps for the rest of the deal: without help (only whether the pulya was
    finished before is read), or with every pool closed (nothing to fill or help, all
    written off)."""
    if not conv.help:
        return "finished" if after_finish else "playing"
    return "all closed" if min(pools.values()) >= target else None


def settled_deal(pool: tuple[Write, ...], pools: Pools, target: int, paper: Settled | None) -> Settled | None:
    """The one class under which ``place`` reads no pool for any of a deal's pool writes,
    each placed in turn on the paper the ones before it left, or None; ``paper`` is
    ``settled_paper`` of ``pools`` (with help, when None: each write fits its own pool)."""
    if paper is not None:
        return paper
    if len(pool) == 1:
        return "own pool" if _fits(pool[0], pools[pool[0].player], target) else None
    after = dict(pools)
    for w in pool:
        if not _fits(w, after[w.player], target):
            return None
        after[w.player] += w.amount  # placed as it is
    return "own pool"


def place(
    write: Write, pools: Pools, target: int, conv: Convention, after_finish: bool, clockwise: Clockwise
) -> list[Write]:
    """Points for ``write.player``'s pool: into it up to the target, then help (the others
    ``clockwise`` from him), then off the mountain; ``after_finish``: the pulya was finished
    before this deal."""
    me, left = write.player, write.amount
    room = target - pools[me]
    if write.on is None and (room > 0 and left < room if conv.help else not after_finish):
        # the common case: all of it goes into his own pool, written as it is
        return [write]
    if not conv.help:
        return [_no_help(write, conv, after_finish)]
    return _help(write, pools, target, conv, clockwise)


def _no_help(write: Write, conv: Convention, after_finish: bool) -> Write:
    """Without help: into one's own pool, or off the mountain once the pulya is finished."""
    me, left = write.player, write.amount
    if not after_finish:
        return Write(write.rule, me, POOL, left, why=write.why)
    ratio = conv.pool_point_in_mountain
    off = exact(left * ratio)
    why = M_(
        "{why}; the pulya is finished: {left} × {ratio} off the mountain",
        why=write.why, left=num(left), ratio=num(ratio),
    )  # fmt: skip
    return Write("written-off", me, MOUNTAIN, -off, why=why)


def _help(
    write: Write,
    pools: Pools,
    target: int,
    conv: Convention,
    clockwise: Clockwise,
) -> list[Write]:
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
        helps = M_(
            "{why}; {player}'s pool is closed: {n} help {helped}", why=why, player=me, n=n, helped=helped
        )
        out.append(Write("help", helped, POOL, amount, why=helps))
        whists = exact(amount * per)
        said = M_("helped {helped} with {n}: {n} × {per}", helped=helped, n=n, per=num(per))
        whole = N_("helped {helped} with {n}: {n} × {per} = {result}")
        out.append(Write("help-whists", me, WHISTS, whists, helped, why=worked_out(said, whole, whists)))
        after[helped] = exact(after[helped] + amount)
        left = exact(left - amount)
    if left > 0:
        ratio = conv.pool_point_in_mountain
        off = exact(left * ratio)
        times = f" × {num(ratio)}" if ratio != 1 else ""
        why = M_(
            "{why}; every pool is closed: {left}{times} written off {player}'s mountain",
            why=why, left=num(left), times=times, player=me,
        )  # fmt: skip
        out.append(Write("written-off", me, MOUNTAIN, -off, why=why))
    return out
