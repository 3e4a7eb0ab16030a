"""A generator of legal random evenings (YAML logs) for tests that must hold for any log."""

from __future__ import annotations

import random

from pulyacalc.convention.load import load

NAMES = ("Anna", "Boris", "Vera", "Gleb")


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
