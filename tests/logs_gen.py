"""Generators of random evenings for tests that must hold for any log: legal YAML logs
(``random_log``), and line logs as hand-kept ones are, faults and all (``faults``, the
hypothesis strategy ``logs``)."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from pulyacalc.convention.load import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import genlog  # noqa: E402

NAMES = ("Anna", "Boris", "Vera", "Gleb")
#: the built-in conventions ``logs`` draws from
CONVENTIONS = ("sochi", "leningrad", "rostov", "classic")


def random_log(
    seed: int, convention: str = "sochi", players: int = 3, deals: int = 40, pool: int = 10
) -> str:
    rnd = random.Random(seed)
    conv = load(convention)
    names = NAMES[:players]
    dealer = players - 1
    lines = [
        f"players: [{', '.join(names)}]",
        f"convention: {convention}",
        f"pool: {pool}",
        "deals:",
    ]
    for _ in range(deals):
        order = [names[(dealer + 1 + k) % players] for k in range(players)]
        active = order if players == 3 else order[:3]
        out = None if players == 3 else order[3]
        kind = rnd.choice(["play", "play", "play", "raspasy", "misere", "unplayed", "half"])
        if kind == "raspasy":
            talon = rnd.randint(0, 2) if out is not None and conv.raspasy_talon_to_dealer else 0
            rest = 10 - talon
            a = rnd.randint(0, rest)
            b = rnd.randint(0, rest - a)
            counts = {active[0]: a, active[1]: b, active[2]: rest - a - b}
            if out is not None and conv.raspasy_talon_to_dealer:
                counts[out] = talon
            body = ", ".join(f"{k}: {v}" for k, v in counts.items())
            lines.append(f"  - raspasy: {{{body}}}")
        else:
            i = rnd.randrange(3)
            decl = active[i]
            first, second = active[(i + 1) % 3], active[(i + 2) % 3]
            if kind == "misere":
                lines.append(
                    f"  - {{declarer: {decl}, contract: misere, tricks: {{{decl}: {rnd.choice([0, 0, 1, 2])}}}}}"
                )
            else:
                level = rnd.choice([6, 6, 6, 7, 7, 8, 9, 10])
                suit = rnd.choice("scdh")
                if kind == "half" and level in conv.half_whist_levels:
                    calls = {first: "pass", second: "half"}
                    lines.append(
                        f"  - {{declarer: {decl}, contract: {level}{suit}, defenders: {{{first}: pass, {second}: half}}}}"
                    )
                    dealer = (dealer + 1) % players
                    continue
                if kind in ("unplayed", "half"):
                    lines.append(
                        f"  - {{declarer: {decl}, contract: {level}{suit}, defenders: {{{first}: pass, {second}: pass}}}}"
                    )
                    dealer = (dealer + 1) % players
                    continue
                calls = rnd.choice([("whist", "pass"), ("pass", "whist"), ("whist", "whist")])
                taken = rnd.choice(
                    [level, level, level + 1 if level < 10 else level, max(0, level - 1), max(0, level - 2)]
                )
                tricks = {decl: taken}
                if calls == ("whist", "whist"):
                    x = rnd.randint(0, 10 - taken)
                    tricks[first] = x
                    tricks[second] = 10 - taken - x
                body = ", ".join(f"{k}: {v}" for k, v in tricks.items())
                lines.append(
                    f"  - {{declarer: {decl}, contract: {level}{suit}, "
                    f"defenders: {{{first}: {calls[0]}, {second}: {calls[1]}}}, tricks: {{{body}}}}}"
                )
        dealer = (dealer + 1) % players
    return "\n".join(lines) + "\n"


def faults(rng: random.Random, lines: list[str], players: tuple[str, ...]) -> list[str]:
    """The deal lines with a few of the things a hand-kept log has."""
    out = list(lines)
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(out) + 1)
        what = rng.randrange(11)
        if what == 0:
            out.insert(i, "\n")
        elif what == 1:
            out.insert(i, "# a comment\n")
        elif what == 2:
            p, q = rng.sample(players, 2)
            out.insert(i, f'correction {p} whists on {q} {rng.randint(-9, 9)} "by agreement"\n')
        elif what == 3:
            out.insert(i, f'correction {rng.choice(players)} pool {rng.randint(1, 30)} "missed"\n')
        elif what == 4 and i < len(out):
            out[i] = out[i].rstrip("\n") + "  # a note\n"
        elif what == 5 and i < len(out):
            out[i] = f"{rng.randint(1, len(out))}. {out[i]}"
        elif what == 6:
            out.insert(i, f"{rng.choice(players)} 6♠ 11, nonsense\n")
        elif what == 7 and i < len(out):
            out[i] = out[i].rstrip("\n") + f", dealer {rng.choice(players)}\n"
        elif what in (8, 9):
            # Classic's dark passes and bids (RULES.md 2.10): a bomb is state the fast
            # path does not key on, so it steps aside while one is held
            for j in range(i, len(out)):
                if what == 8 and "whist" not in out[j] and " pass " in out[j] and "misere" not in out[j]:
                    out[j] = out[j].replace(" pass ", " pass dark ", 1)
                    break
                if what == 9 and " whist " in out[j]:
                    name, rest = out[j].split(" ", 1)
                    out[j] = f"{name} dark {rest}"
                    break
        elif what == 10:
            out.insert(i, "join Eve\n")  # RULES.md 6.3: the newcomer's column is made from the paper
    if rng.random() < 0.3 and out:
        j, k = rng.randrange(len(out)), rng.randrange(len(out))
        out[j], out[k] = out[k], out[j]
    return out


@st.composite
def logs(draw: Any) -> str:
    convention = draw(st.sampled_from(CONVENTIONS))
    n = draw(st.sampled_from((3, 4)))
    pool = draw(st.sampled_from((5, 10, 20, 40)))
    deals = draw(st.integers(2, 150))
    seed = draw(st.integers(0, 10_000))
    text = list(genlog.line_log(deals, seed=seed, players=n, convention=convention, pool=pool))
    head, body = text[:5], text[5:]
    if draw(st.booleans()):
        # what a tired scorer writes: the same few lines over and over (many hits)
        few = body[: max(1, len(body) // 8)]
        rng = random.Random(seed)
        body = [rng.choice(few) for _ in body]
    if draw(st.booleans()) or convention == "classic":
        body = faults(random.Random(seed + 1), body, genlog.NAMES[:n])
    if draw(st.booleans()) and body:
        body[-1] = body[-1].rstrip("\n")  # no newline at the end
    return "".join(head + body)
