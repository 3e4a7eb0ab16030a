"""RULES.md 2.8 as a pure function: where pool points go once a pool may be closed.

``place`` is the only rule that reads the paper (how full each pool is), so it is not
remembered with the rest of a deal (``scoring/rules.py``): the fold calls it for each
pool write of each deal, with the pools as they stand.  ``settled`` says when ``place``
no longer reads them — its answer is then the same for every paper of that class — and
only then does the fold remember ``place``'s answer per write (tests/test_pool.py holds
``place`` to ``settled``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pulyacalc.convention.schema import Convention
from pulyacalc.core.amounts import Amount, exact, num
from pulyacalc.core.i18n import M_
from pulyacalc.core.sheet import MOUNTAIN, POOL, WHISTS, Write

#: the classes of papers under which ``place``'s answer for a write is fixed (``settled``)
Settled = Literal["own pool", "all closed", "playing", "finished"]


def settled(
    write: Write, pools: Mapping[str, Amount], target: int, conv: Convention, after_finish: bool
) -> Settled | None:
    """The class of ``pools`` under which ``place(write, pools, …)`` reads no pool, or None
    while it does: with help, all of it fits into his own open pool (``place``'s first
    branch), or every pool is closed (nothing to fill or help, all written off); without
    help ``place`` reads no pool at all, only whether the pulya was finished before."""
    if not conv.help:
        return "finished" if after_finish else "playing"
    room = target - pools[write.player]
    if write.on is None and room > 0 and write.amount < room:
        return "own pool"
    if all(v >= target for v in pools.values()):
        return "all closed"
    return None


def place(
    write: Write,
    pools: Mapping[str, Amount],
    target: int,
    conv: Convention,
    after_finish: bool,
    clockwise: Mapping[str, tuple[str, ...]],
) -> list[Write]:
    """Points for ``write.player``'s pool: into it up to the target, then help, then off the
    mountain.

    ``pools``: each player's pool before this write; ``after_finish``: the pulya was finished
    before this deal; ``clockwise``: for each player, the others clockwise from him (whom a
    closed pool helps first)."""
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
        why=write.why,
        left=num(left),
        ratio=num(ratio),
    )
    return Write("written-off", me, MOUNTAIN, -off, why=why)


def _help(
    write: Write,
    pools: Mapping[str, Amount],
    target: int,
    conv: Convention,
    clockwise: Mapping[str, tuple[str, ...]],
) -> list[Write]:
    """With help: close one's own pool, help the fullest open pool clockwise (and write
    whists on him for it), and write off what nobody can take."""
    me, left, why = write.player, write.amount, write.why
    out: list[Write] = []
    room = target - pools[me]
    if room > 0:
        mine = min(room, left)
        out.append(
            Write(
                write.rule,
                me,
                POOL,
                mine,
                why=why if mine == left else M_("{why}; {n} close the pool", why=why, n=num(mine)),
            )
        )
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
        out.append(
            Write(
                "help",
                helped,
                POOL,
                amount,
                why=M_(
                    "{why}; {player}'s pool is closed: {n} help {helped}",
                    why=why,
                    player=me,
                    n=num(amount),
                    helped=helped,
                ),
            )
        )
        out.append(
            Write(
                "help-whists",
                me,
                WHISTS,
                exact(amount * per),
                helped,
                why=M_("helped {helped} with {n}: {n} × {per}", helped=helped, n=num(amount), per=num(per)),
            )
        )
        after[helped] = exact(after[helped] + amount)
        left = exact(left - amount)
    if left > 0:
        ratio = conv.pool_point_in_mountain
        off = exact(left * ratio)
        times = f" × {num(ratio)}" if ratio != 1 else ""
        why = M_(
            "{why}; every pool is closed: {left}{times} written off {player}'s mountain",
            why=why,
            left=num(left),
            times=times,
            player=me,
        )
        out.append(Write("written-off", me, MOUNTAIN, -off, why=why))
    return out
