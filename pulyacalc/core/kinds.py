"""Closed sets of the domain as ``Literal`` types, each written once (run-time code: ``get_args``)."""

from __future__ import annotations

from typing import Literal

#: what a deal was, once resolved (RULES.md §2)
DealKind = Literal["unplayed", "half", "played", "misere", "raspasy", "conceded"]

#: a change of the table between deals (RULES.md 6.3): a player joins or leaves
SeatChangeKind = Literal["join", "leave"]

#: what the scorer's result is about: a deal, a correction or a change of the table
ResultKind = Literal[DealKind, "correction", SeatChangeKind]

#: where an entry is written on the paper
Area = Literal["pool", "mountain", "whists"]

#: rules that write entries (core/rulebook.py ties each to RULES.md and the Code); nested Literals are flat
RuleId = Literal[
    Literal["unplayed", "half-whist", "made", "remise", "whists", "consolation", "gentleman"],
    Literal["returned-whist", "dealer-consolation", "shortfall", "misere-made", "misere-remise"],
    Literal["raspasy-mountain", "raspasy-whists", "zero-trick", "pool", "help", "help-whists", "written-off"],
    Literal["premium", "concede", "correction", "join"],
]

#: "read": the input cannot be read (syntax, spelling, types); "rule": it reads but is not allowed
ProblemKind = Literal["read", "rule"]

#: what ``check`` calls a finding (docs/commands.md); a problem's code is set where it is found
FindingCode = Literal[
    Literal["read", "rule", "dealer-in-play", "after-finish", "raspasy-exit", "compulsory-raspasy"],
    Literal["shortfall-forbidden", "pool-target", "strange-override", "sheet-players", "sheet-cell"],
    Literal["sheet-running", "parting-deal", "correction"],
]

#: settlement rounding (RULES.md §3)
Rounding = Literal["exact", "kodeks", "nearest", "kodeks_separate"]

#: the roundings that move mountains to a multiple of 3 (K4.2.12)
KODEKS_ROUNDINGS: tuple[Rounding, ...] = ("kodeks", "kodeks_separate")

#: with 5 players, who sits out with the dealer (``table.five_second_out``)
SecondOut = Literal["next", "previous", "third"]

#: with 2 players, the hand the dummy («болван») sits on, counted from the dealer's left
DummyHand = Literal["first", "second"]

#: 2 players: how the lone whister whists (``table.two_whist``)
TwoWhist = Literal["two_hands", "own_cards"]

#: 2 players: what two passes lead to (``table.two_all_pass``)
TwoAllPass = Literal["raspasy", "redeal", "varenik"]

#: a composed YAML node (yamlsource)
NodeKind = Literal["scalar", "seq", "map"]
