"""Conventions are data: every number and choice of RULES.md §4 under a named key, one row of
``SCHEMA``: its ``Convention`` field (with its parser) and its line of ``_TEXTS``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar, Literal, NamedTuple, cast, get_args

from pulyacalc.core.amounts import Amount
from pulyacalc.core.errors import Problems
from pulyacalc.core.i18n import M_, N_, Text
from pulyacalc.core.kinds import Rounding, SecondOut, TwoAllPass, TwoWhist
from pulyacalc.yamlsource import Node, as_bool, as_int, as_number

LEVELS = (6, 7, 8, 9, 10)

# the choices of each key that is one of a closed set of words (their meanings: ``_TEXTS``)
WhistOnFailure = Literal["greedy", "gentleman"]  # whist.on_failure
RaspasyScoring = Literal["mountain", "whists"]  # raspasy.scoring
TwoWhistersShortfall = Literal["split", "second", "split_capped", "both", "second_alone"]
LoneWhisterMade = Literal["side", "own", "split"]  # whist.lone_whister_made
ZeroTrickWord = Literal["trick", "price"]  # raspasy.zero_trick_bonus, or a number
ZeroTrickBonus = ZeroTrickWord | Amount
ZeroTrickBonusArea = Literal["pool", "mountain"]  # raspasy.zero_trick_bonus_area
RunEndsOn = Literal["any", "played", "whisted_made"]  # raspasy.run_ends_on
MountainDivisor = Literal["players", "opponents"]  # settlement.mountain_divisor
PremiumBy = Literal["dealer", "opponents"]  # premium.by
DealerAfterRaspasy = Literal["slides", "stays"]  # raspasy.dealer_after
AfterCap = Literal["stay", "restart"]  # bombs.after_cap
TwoHalfWhist = Literal["after_dummy", "any_hand"]  # table.two_half_whist
#: whist.shortfall_per_trick, a level's word (K3.8.11, K3.8.12: Classic)
OnceClosed = Literal["once_closed"]
ONCE_CLOSED: OnceClosed = "once_closed"
Shortfall = Amount | OnceClosed

ROUNDINGS: tuple[str, ...] = get_args(Rounding)


# -- parsers: each reads one value from its node and reports what is wrong ----------------
class Parser:
    """Reads a value from a node, adding located problems to ``p``; ``None`` when refused."""

    __slots__ = ()

    #: a table by contract level: a later layer overrides only the levels it names
    per_level: ClassVar[bool] = False

    def __call__(self, node: Node, p: Problems, what: str) -> Any:
        raise NotImplementedError

    @property
    def choices(self) -> tuple[str, ...]:
        """The allowed words, when the value is one of a closed set."""
        return ()

    def describe(self) -> str:
        """What a value looks like, for docs/conventions.md."""
        raise NotImplementedError


class Int(Parser):
    __slots__ = ("low", "high")

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def __call__(self, node: Node, p: Problems, what: str) -> int | None:
        return as_int(node, p, what, low=self.low, high=self.high)

    def describe(self) -> str:
        return f"whole number {self.low}..{self.high:{',' if self.high >= 10_000 else ''}}"


class Number(Parser):
    """An exact number (``2``, ``0.5``, ``1/2``); not negative unless ``signed``; not 0 if it ``divides``."""

    __slots__ = ("signed", "divides")

    def __init__(self, signed: bool = False, divides: bool = False) -> None:
        self.signed, self.divides = signed, divides

    def __call__(self, node: Node, p: Problems, what: str) -> Amount | None:
        n: Amount | None = as_number(node, p, what)
        if n is not None and n < 0 and not self.signed:
            p.add(node.loc, M_("{what}: must not be negative", what=what))
            return None
        if n == 0 and self.divides:
            p.add(node.loc, M_("{what}: must be more than 0 (points are divided by it)", what=what))
            return None
        return n

    def describe(self) -> str:
        return "number > 0" if self.divides else "number" if self.signed else "number ≥ 0"


class NumberOrClosed(Number):
    """A number, or the word ``once_closed`` (``whist.shortfall_per_trick``)."""

    __slots__ = ()

    def __call__(self, node: Node, p: Problems, what: str) -> Shortfall | None:  # type: ignore[override]
        if node.kind == "scalar" and node.text.strip() == ONCE_CLOSED:
            return ONCE_CLOSED
        return super().__call__(node, p, what)

    def describe(self) -> str:
        return f"number / {ONCE_CLOSED}"


class Flag(Parser):
    """``true`` or ``false`` (``yes`` / ``no``, ``on`` / ``off``)."""

    def __call__(self, node: Node, p: Problems, what: str) -> bool | None:
        return as_bool(node, p, what)

    def describe(self) -> str:
        return "true / false"


class Choice(Parser):
    """One word of a ``Literal`` type."""

    __slots__ = ("literal",)

    def __init__(self, literal: Any) -> None:
        self.literal = literal

    @property
    def choices(self) -> tuple[str, ...]:
        return get_args(self.literal)

    def __call__(self, node: Node, p: Problems, what: str) -> str | None:
        text = node.text.strip() if node.kind == "scalar" else ""
        if text not in self.choices:
            join, got = ", ".join(self.choices), node.describe()
            msg = M_("{what}: expected one of {join}, got {describe}", what=what, join=join, describe=got)
            p.add(node.loc, msg)
            return None
        return text

    def describe(self) -> str:
        return " / ".join(self.choices)


class TrickOrNumber(Parser):
    """A word of ``ZeroTrickWord`` (``trick``, ``price``: one trick's value) or a number."""

    def __call__(self, node: Node, p: Problems, what: str) -> ZeroTrickBonus | None:
        text = node.text.strip() if node.kind == "scalar" else ""
        if text in get_args(ZeroTrickWord):
            return text  # type: ignore[return-value]
        before = len(p.items)
        n: Amount | None = as_number(node, p, what + " ('trick' or a number)")
        if n is None and len(p.items) > before:
            # the message stays as it was; the hint names every word
            p.items[-1] = replace(p.items[-1], hint=f"or one of {', '.join(get_args(ZeroTrickWord))}")
        return n

    def describe(self) -> str:
        return " / ".join(get_args(ZeroTrickWord)) + " / number"


class Levels(Parser):
    """A table by contract level, ``{6: 2, 7: 4, 8: 6, 9: 8, 10: 10}``, each value read by ``item``."""

    __slots__ = ("item",)
    per_level: ClassVar[bool] = True

    def __init__(self, item: Parser) -> None:
        self.item = item

    @property
    def choices(self) -> tuple[str, ...]:
        return self.item.choices

    def __call__(self, node: Node, p: Problems, what: str) -> dict[int, Any] | None:
        if node.kind != "map":
            levels = N_(
                "{what}: expected a mapping of levels like {{6: 2, 7: 4, 8: 6, 9: 8, 10: 10}}, got {describe}"
            )
            p.add(node.loc, M_(levels, what=what, describe=node.describe()))
            return None
        out: dict[int, Any] = {}
        for k, v in node.pairs:
            level = as_int(k, p, M_("{what}: level", what=what), low=6, high=10)
            value = self.item(v, p, M_("{what} for {text}", what=what, text=k.text))
            if level is not None and value is not None:
                out[level] = value
        return out

    def describe(self) -> str:
        return f"6..10 → {self.item.describe()}"


class IntList(Parser):
    """Whole numbers ``low..high`` in a list (``[1, 2, 3]``, ``1 2 3``); a set, maybe empty, if ``empty``."""

    __slots__ = ("low", "high", "empty")

    def __init__(self, low: int = 6, high: int = 10, *, empty: bool = False) -> None:
        self.low, self.high, self.empty = low, high, empty

    def __call__(self, node: Node, p: Problems, what: str) -> frozenset[int] | tuple[int, ...] | None:
        items = _list_items(node)
        if items is None:
            expected = N_("{what}: expected a list like [1, 2, 3], got {describe}")
            p.add(node.loc, M_(expected, what=what, describe=node.describe()))
            return None
        values = [as_int(n, p, what, low=self.low, high=self.high) for n in items]
        if any(v is None for v in values):
            return None
        if self.empty:
            return frozenset(v for v in values if v is not None)
        if not values:
            p.add(node.loc, M_("{what}: the list must not be empty", what=what))
            return None
        return tuple(v for v in values if v is not None)

    def describe(self) -> str:
        if self.low == 6:  # contract levels
            return "list of levels 6..10" + (", may be empty" if self.empty else "")
        return f"list of whole numbers {self.low}..{self.high}"


def _list_items(node: Node) -> tuple[Node, ...] | None:
    if node.kind == "seq":
        return node.items
    if node.kind == "scalar" and not node.null:
        # "1 2 3" or "1, 2, 3" as written in a line-log header
        parts = node.text.strip().removeprefix("[").removesuffix("]").replace(",", " ").split()
        return tuple(Node("scalar", node.loc, text=x) for x in parts)
    return None


@dataclass(frozen=True)
class Convention:
    """A complete, checked convention; each key's field carries its parser (``metadata["parse"]``)."""

    name: str
    title: str
    source: str
    # pool («пуля»)
    pool_target: int = field(metadata={"parse": Int(1, 100_000)})
    pool_point_in_mountain: Amount = field(metadata={"parse": Number(divides=True)})
    help: bool = field(metadata={"parse": Flag()})
    help_whists_per_point: Amount = field(metadata={"parse": Number()})
    # units
    mountain_point_in_whists: Amount = field(metadata={"parse": Number()})
    # contracts 6..10
    price: Mapping[int, Amount] = field(metadata={"parse": Levels(Number(signed=True))})
    whist_per_trick: Mapping[int, Amount] = field(metadata={"parse": Levels(Number(signed=True))})
    remise_per_trick: Mapping[int, Amount] = field(metadata={"parse": Levels(Number(signed=True))})
    consolation_per_trick: Mapping[int, Amount] = field(metadata={"parse": Levels(Number(signed=True))})
    concede_three: bool = field(metadata={"parse": Flag()})
    # misère
    misere_price: Amount = field(metadata={"parse": Number()})
    misere_remise_per_trick: Amount = field(metadata={"parse": Number()})
    # whist
    obligation: Mapping[int, int] = field(metadata={"parse": Levels(Int(0, 10))})
    shortfall_per_trick: Mapping[int, Shortfall] = field(
        metadata={"parse": Levels(NumberOrClosed(signed=True))}
    )
    two_whisters_shortfall: Mapping[int, TwoWhistersShortfall] = field(
        metadata={"parse": Levels(Choice(TwoWhistersShortfall))}
    )
    half_whist_levels: frozenset[int] = field(metadata={"parse": IntList(empty=True)})
    shortfall_forbidden: frozenset[int] = field(metadata={"parse": IntList(empty=True)})
    whist_on_failure: WhistOnFailure = field(metadata={"parse": Choice(WhistOnFailure)})
    lone_whister_made: LoneWhisterMade = field(metadata={"parse": Choice(LoneWhisterMade)})
    consolation_by_passer: bool = field(metadata={"parse": Flag()})
    consolation_by_dealer: bool = field(metadata={"parse": Flag()})
    whist_stalingrad: bool = field(metadata={"parse": Flag()})
    whist_ten_checked: bool = field(metadata={"parse": Flag()})
    # raspasy
    raspasy_scoring: RaspasyScoring = field(metadata={"parse": Choice(RaspasyScoring)})
    raspasy_trick_value: Amount = field(metadata={"parse": Number()})
    raspasy_progression: tuple[int, ...] = field(metadata={"parse": IntList(0, 1000)})
    raspasy_amnesty: bool = field(metadata={"parse": Flag()})
    raspasy_zero_trick_bonus: ZeroTrickBonus = field(metadata={"parse": TrickOrNumber()})
    raspasy_zero_trick_bonus_area: ZeroTrickBonusArea = field(metadata={"parse": Choice(ZeroTrickBonusArea)})
    raspasy_zero_trick_bonus_dealer: bool = field(metadata={"parse": Flag()})
    raspasy_run_ends_on: RunEndsOn = field(metadata={"parse": Choice(RunEndsOn)})
    raspasy_talon_to_dealer: bool = field(metadata={"parse": Flag()})
    raspasy_exit: tuple[int, ...] = field(metadata={"parse": IntList()})
    raspasy_dealer_after: DealerAfterRaspasy = field(metadata={"parse": Choice(DealerAfterRaspasy)})
    # Classic: dark bids and passes, bombs (K3.3.19, K3.7.7, K3.7.9)
    dark_factor: int = field(metadata={"parse": Int(1, 10)})
    bombs_cap: int = field(metadata={"parse": Int(0, 20)})
    bombs_after_cap: AfterCap = field(metadata={"parse": Choice(AfterCap)})
    bombs_dealer: bool = field(metadata={"parse": Flag()})
    bombs_second_out: bool = field(metadata={"parse": Flag()})
    bombs_opening: int = field(metadata={"parse": Int(0, 30)})
    bombs_exit_step: bool = field(metadata={"parse": Flag()})
    # settlement
    rounding: Rounding = field(metadata={"parse": Choice(Rounding)})
    mountain_divisor: MountainDivisor = field(metadata={"parse": Choice(MountainDivisor)})
    # the talon premium (K3.4.11)
    premium_enabled: bool = field(metadata={"parse": Flag()})
    premium_by: PremiumBy = field(metadata={"parse": Choice(PremiumBy)})
    premium_on_concede: bool = field(metadata={"parse": Flag()})
    # tables other than 3 and 4 players
    five_second_out: SecondOut = field(metadata={"parse": Choice(SecondOut)})
    second_out_consolation: bool = field(metadata={"parse": Flag()})
    two_whist: TwoWhist = field(metadata={"parse": Choice(TwoWhist)})
    two_all_pass: TwoAllPass = field(metadata={"parse": Choice(TwoAllPass)})
    two_pass_back: bool = field(metadata={"parse": Flag()})
    two_half_whist: TwoHalfWhist = field(metadata={"parse": Choice(TwoHalfWhist)})
    #: other names a built-in is found by (``aliases:``, e.g. «сочинка»; any case, ё or е)
    aliases: tuple[str, ...] = ()

    def progression(self, run: int) -> int:
        """Multiplier of the ``run``-th raspasy in a row (1-based); the last one repeats."""
        return self.raspasy_progression[min(run, len(self.raspasy_progression)) - 1]

    def exit_level(self, run: int) -> int:
        """Lowest contract allowed after the ``run``-th raspasy in a row."""
        return self.raspasy_exit[min(run, len(self.raspasy_exit)) - 1]

    def dark_level(self, before: int) -> int:
        """The level of a dark raspasy (1: single …) after ``before`` in a row, capped (K3.3.19 а)."""
        level, cap = before + 1, self.bombs_cap
        if cap and level > cap:
            level = cap if self.bombs_after_cap == "stay" else (level - 1) % cap + 1
        return level

    def bomb(self, level: int) -> int:
        """The coefficient of a bomb (and the raspasy price) at ``level`` (2, 4, 8 …; K3.3.19 а)."""
        return int(self.dark_factor**level)


# -- disputed readings: where tables read a key differently (``pulyacalc dispute``) ---------
#: the deal situations a contested key matters for (their predicates: reports/dispute.py ``SITUATIONS``)
Situation = Literal[
    "one-whister-failed",  # one whister and a passer, the contract failed
    "one-whister-made",  # one whister and a passer, the contract made, the defending side took a trick
    "two-whisters-short",  # two whisters, the contract made, the pair or the second whister short
    "dealer-consoles",  # 4 players, a whisted contract failed: the dealer may write consolation
    "zero-trick",  # raspasy on which someone (the 4-player dealer included) took no trick
    "dealer-zero-trick",  # raspasy with 4 players, the dealer's talon took no trick
    # raspasy after a raspasy and deals that some readings let the run go on through (one
    # passed out, half-whisted, failed, a misère), or such a deal after a raspasy
    "run-goes-on",
    "talon-premium",  # 2 or 3 players, the talon premium written: the dealer holds cards
    "conceded-premium",  # the declarer left «без трёх» with tricks in the talon, the talon premium on
    "five-dark-raspasy",  # 5 players, a raspasy after a dark pass: the second player out may earn a bomb
    "two-half-whist",  # 2 players, a half-whist («за свои»)
]


class Contested(NamedTuple):
    """Where tables read a key differently: its choices (a new one is a reading at once), then others."""

    when: tuple[Situation, ...]
    sources: Mapping[Any, Text]
    #: each reading as a player names it (``greedy whist``), translated where shown
    names: Mapping[Any, Text] = {}

    def name(self, value: Any) -> str:
        return self.names.get(value) or str(value)

    def readings(self, key: Key) -> tuple[tuple[Any, str], ...]:
        """Each value tables use, with its source, the key's own choices first."""
        values = list(key.choices)
        values += [v for v in self.sources if v not in values]
        return tuple((v, self.sources.get(v, f"docs/RULES.md, {key.name}")) for v in values)


# -- the schema: one row per key ------------------------------------------------------------
class Key(NamedTuple):
    """One convention key (``contested``: where tables read it differently, for ``dispute``)."""

    name: str
    field: str
    parse: Parser
    doc: Text
    ru: str
    source: Text
    contested: Contested | None

    @property
    def choices(self) -> tuple[str, ...]:
        return self.parse.choices

    def show(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: _plain(v) for k, v in value.items()}
        if isinstance(value, frozenset):
            return sorted(value)
        if isinstance(value, tuple):
            return list(value)
        return _plain(value)


def _plain(v: Any) -> Any:
    return str(v) if isinstance(v, Fraction) else v


#: each key's line: ``name | Russian name | source | meaning``; indented lines after it are joined on
_TEXTS = """\
pool.target | пулька до … очков | K4.2.2 | default pool target per player
pool.point_in_mountain | очко пули в горе («вдвойне» в ленинградке) | K4.2.3.3 |
    one pool point in mountain points (1; Leningrad 2)
pool.help | помощь | K4.2.3, K4.2.3.3 | points over a closed pool help an opponent (K4.2.3)
pool.help_whists_per_point | висты за очко помощи | K4.2.3 | whists the helper writes per point of help
mountain.point_in_whists | очко горы в вистах | K4.2.14 | one mountain point in whists (10)
contracts.price | цена контракта | K2.2.2, K4.2.1 | pool points for a made contract, 6..10
contracts.whist_per_trick | висты за взятку | K3.8.1.1, K note 53 | whists per defender trick
contracts.remise_per_trick | ремиз (в гору за недобранную взятку) | K4.2.1 |
    mountain per undertrick of the declarer
contracts.consolation_per_trick | консоляция | K3.8.1.2, K note 54 |
    whists per undertrick, per writer («консоляция»)
contracts.concede_three | без трёх без вистов (уйти без трёх) | K3.5.4, K note 40; true: a house agreement |
    the declarer may leave «без трёх» after the talon, without play: he writes the remise for three
    undertricks, nobody writes anything else (K note 40; K3.5.4 rejects it)
misere.price | цена мизера | K2.2.2 | pool points for a made misère
misere.remise_per_trick | ремиз на мизере (за каждую взятку) | RULES.md §2 (misère), §4 |
    mountain per trick taken on a misère
whist.obligation | обязательные взятки вистующих | K3.8.2 | tricks the defence must take, 6..10
whist.shortfall_per_trick | недобор на висте: ответственный / полуответственный вист | K3.8.1.3, K3.8.11,
    K3.8.12 | mountain per trick a whister is short; 'once_closed': half the remise until the whister's own
    pool is closed, then the whole remise (K3.8.11, K3.8.12: Classic)
whist.two_whisters_shortfall | кто из двух вистующих отвечает за недобор | K3.8.6, K note 59; split_capped,
    both, second_alone: house agreements |
    with two whisters: 'split' (each answers for half the obligation) or 'second' (the second defender
    answers) (K3.8.6); 'split_capped' (half, never more than the pair lacked), 'both' (each answers for what
    the pair lacked), 'second_alone' (the second answers for the obligation by himself)
whist.half_whist_levels | полвиста | K3.8.7, K3.8.8.1 | contracts on which half-whist is allowed (K3.8.7)
whist.shortfall_forbidden | десятерная «проверяется» | house agreement (K note 39) |
    contracts on which a whister may not end short (e.g. [10] where the ten is only «checked», K note 39);
    validation only: `check` reports such deals
whist.on_failure | жлобский / джентльменский вист | K3.8.13, K3.8.14 |
    one whister and a passer, contract failed: greedy (K3.8.13) or gentleman (K3.8.14)
whist.lone_whister_made | висты за сыгранную игру при одном вистующем: за обе руки / за свои / пополам |
    K3.8.5; own, split: house agreements (split as K3.8.14 on a failure) |
    one whister, contract made: 'side' (he writes the whole side's tricks, K3.8.5), 'own' (only his own
    tricks; the passer writes nothing) or 'split' (the side's tricks in halves, whister and passer)
whist.consolation_by_passer | консоляцию пишет пасующий | K3.8.1.2, K3.8.13 |
    the passer writes consolation on a failed contract
whist.consolation_by_dealer | консоляцию пишет сдающий | K3.8.1.2 |
    the 4-player dealer writes consolation (K3.8.1.2)
whist.stalingrad | сталинград (6♠ вистуется обязательно) | K3.8.9, K note 61; true: a house agreement |
    6♠ must be whisted by both defenders; a log where one passes or goes half-whist is refused (K3.8.9 and K
    note 61 reject the rule)
whist.ten_checked | десятерная проверяется | K3.5.3, K note 39; true: a house agreement |
    the ten is only «checked»: whists are written as usual, but the defence has no obligation on 10, so no
    whister is ever short on it (K3.5.3 rejects it)
raspasy.scoring | распасовка в гору / на висты | K3.7.2, K3.7.2.1, K3.7.2.2 |
    raspasy written into the mountain (K3.7.2.1) or as whists (K3.7.2.2)
raspasy.trick_value | цена взятки на распасовке | K3.7.2.1, K note 45, K3.7.2.2 |
    value of one raspasy trick: mountain points, or whists when scoring is whists
raspasy.progression | прогрессия на распасовке | K3.7.4, K3.7.4.3 |
    multipliers of consecutive raspasy; the last repeats
raspasy.amnesty | амнистия на распасовке | K3.7.3, K note 46 |
    subtract the fewest tricks taken from everyone (K3.7.3)
raspasy.zero_trick_bonus | ноль взяток на распасовке — в пулю | K3.7.2.1, K3.7.2.2 |
    pool points for taking no trick: 'trick' (one trick's value v in mountain points, as pool points: v /
    pool.point_in_mountain), 'price' (v pool points) or a number
raspasy.zero_trick_bonus_area | ноль взяток на распасовке — в пулю или из горы | K3.7.2.1; 'mountain': house
    agreement | where the zero-trick bonus goes: 'pool' (K3.7.2.1; help as for any pool points) or 'mountain'
    (the same pool points × pool.point_in_mountain taken off the mountain; no help)
raspasy.zero_trick_bonus_dealer | сдающий пишет за ноль взяток | K3.7.6.2; 'false': house agreement |
    the 4-player dealer whose talon took no trick gets the zero-trick bonus (K3.7.6.2)
raspasy.talon_to_dealer | сдающий открывает прикуп на распасовке | K3.7.6.1, K3.7.6.2 |
    with 4 players the dealer plays the talon and his tricks count (K3.7.6.1)
raspasy.exit | выход из распасовки | K3.7.8 | lowest contract after the n-th raspasy in a row; last repeats
raspasy.run_ends_on | до какой игры идёт прогрессия распасовок | house agreement (K3.7.4: «несколько раз
    подряд») | which deal ends a run of raspasy (progression, exit): 'any' other deal, a 'played' one (a
    misère, or a contract with a whist; not one passed out or half-whisted), or only a 'whisted_made' contract
raspasy.dealer_after | распасовка скользящая / сдатчик остаётся прежним | K3.7.7, K note 49 |
    who deals after a raspasy: 'slides' (the next player clockwise, K3.7.7) or 'stays' (the same dealer again,
    as Classic plays it so that first hand may keep passing «втёмную»)
dark.factor | коэффициент тёмной игры и бомбы (удвоение) | K3.3.19 а, б, K note 31 | the coefficient of a game
    bid «втёмную» (its win and its loss), and the ratio of the dark raspasy and bombs: a raspasy after a dark
    pass goes at factor × the price, after a second in a row at factor², and the bomb earned is worth the same
    (2, 4, 8 …); 1: play «втёмную» changes nothing written (K3.3.19: it is played only by prior agreement)
bombs.cap | предел бомб (одинарные, двойные, тройные) | K3.3.19 а («предел … по предварительной
    договорённости») | the highest level of dark raspasy in a row, by agreement: 1 single bombs only, 2 up to
    double, 3 up to triple …; 0: no cap
bombs.after_cap | после предела: остаётся / снова с одинарной | K3.3.19 а; restart: the ёлочка as tables draw
    it |
    a dark raspasy past the cap: 'stay' (at the cap) or 'restart' (a single bomb again: 1, 2, 3, 1, 2, 3 …)
bombs.dealer | сдатчик получает бомбу | K3.3.19 а |
    with 4 players the dealer, who sits out, earns a bomb on a dark raspasy too (K3.3.19 а)
bombs.second_out | второй сидящий получает бомбу (впятером) | K3.3.19 а «не получает бомбу только игрок,
    сказавший пас в светлую» (true); false: K3.3.19 а names only the dealer «при игре вчетвером» | with 5
    players the second player out earns a bomb on a dark raspasy too, as the dealer does with bombs.dealer
bombs.opening | обязательные распасы (круги бомб) в начале пули | K3.7.9, K note 50 |
    compulsory raspasy deals at the start of the pulya: every player counts as passing «втёмную», so each
    earns a bomb a deal (K3.7.9); 0: none
bombs.exit_step | выход из тёмной распасовки: семерная, из двойной — восьмерная | K3.3.19 а, K3.7.7 |
    the exit from a dark raspasy rises with its level: after a single one the lowest game is a seven, after a
    double an eight … (6 + level; checked by `check`, as raspasy.exit); the compulsory raspasy, where nobody
    bids (bombs.opening), set no such exit
settlement.rounding | округление при расчёте пули | K4.2.12; RULES.md §3; kodeks_separate: a reading of
    K4.2.12 (RULES.md §3.9) | exact | kodeks (K4.2.12) | nearest | kodeks_separate (the pools and the
    mountains each moved to a multiple of 3)
settlement.mountain_divisor | делитель горы: на всех игроков / на противников | K4.2.14; opponents: an app's
    reading, not the Code (RULES.md §3.10) | each mountain divided among 'players' (all at the table, its
    owner included: K4.2.14) or 'opponents' (n − 1; departs from the Code)
premium.enabled | консоляция за прикуп (за туза в прикупе) | K3.4.11, K note 36; true: a house agreement |
    the talon premium: for tricks the talon gave the declarer (its cards as the log gives them) consolation is
    written on him, as for undertricks of his contract (K3.4.11)
premium.by | кто пишет консоляцию за прикуп | K3.4.11, K note 36 (the dealer); opponents: a house agreement
    for 3 players | who writes the talon premium: 'dealer' (the dealer, K3.4.11: with 4 and 5 players he sits
    out; with 2 and 3 he holds cards, and writes nothing when he is the declarer) or 'opponents' (3 players
    only: the two others, half each)
premium.on_concede | консоляция за прикуп и при «без трёх» | K note 40 (false); seed 001 «не зависит от того,
    сел или сыграл» (true) | the talon premium is written on a declarer who left «без трёх»
    (contracts.concede_three) too; false: he writes only the remise (K note 40: «вистующие не пишут ничего»)
table.five_second_out | кто сидит вторым при игре впятером | K1.2 «сдающий и ожидающий очереди сдавать»
    (next); seed 001 «выходящим становится каждый из игроков по очереди после своей сдачи» (previous); K3.2.10
    «играют оба левых соседа сдающего и его правый сосед» (third) | with 5 players, who sits out with the
    dealer: 'next' (the player after him, who deals next), 'previous' (the one who dealt last) or 'third' (his
    third neighbour on the left: both left neighbours and the right one play)
table.second_out_consolation | консоляцию пишет и второй сидящий (впятером) | seed 001: «права выходящего
    аналогичны правам сдатчика»; false: K3.8.1.2 names the dealer (RULES.md §6) | with 5 players, the second
    player out writes consolation as the dealer does (when whist.consolation_by_dealer is true)
table.two_whist | вист на двух руках / на своих картах (гусарик) | seed 001: «вистовать на своих картах,
    обязуясь взять в этом случае на шестерной две, на семерной и более – одну взятку, или вистовать на двух
    руках с обычными правилами» (RULES.md §6) | with 2 players, the lone whister's obligation: 'two_hands' (he
    opens the dummy's cards and plays both hands: whist.obligation) or 'own_cards' (he whists on his own
    cards: 2 tricks on a six, 1 on a seven or higher)
table.two_all_pass | при двух пасах: распасы / пересдача / с вареником | seed 001: «в распасах болван не
    участвует»; «при двух пасах производится пересдача»; «с вареником»; K3.7.6.4 (RULES.md §6) |
    with 2 players, what two passes lead to: 'raspasy' (played without the dummy, the talon unopened),
    'redeal' (no play: a raspasy in the log is refused) or 'varenik' («с вареником»: raspasy after the talon
    is exchanged; scored as raspasy)
table.two_pass_back | первый пасующий может вернуть свой пас | seed 001: «первый пасующий после паса второго
    игрока имеет право возвратить свой пас» (RULES.md §6) |
    with 2 players, the first to pass may take his pass back after the other's pass and name a game without
    bidding (the bidding only: nothing on the sheet changes)
table.two_half_whist | уйти «за свои» вдвоём: после болвана / с любой руки | K3.8.7 (after_dummy: only the
    second defender); any_hand: seed 001 names no seat («если он вистует, а не уходит „за свои"») |
    with 2 players, when the opponent may go half-whist («за свои»): 'after_dummy' (only when the dummy
    speaks first and passes, K3.8.7) or 'any_hand' (from either hand)
"""

#: the keys tables read differently: ``key | situations``, then a line a reading (see ``_contested``)
_CONTESTED = """\
whist.two_whisters_shortfall | two-whisters-short
    split (each whister his half): K3.8.6: each whister answers for half the obligation (the Code on 6 and 7)
    second (the second whister): K3.8.6, K note 59: the second whister answers (the Code on 8, 9 and 10)
    split_capped (halves, at most what the pair lacked):
        a house agreement (docs/RULES.md, whist.two_whisters_shortfall)
    both (each whister in full): a house agreement (docs/RULES.md, whist.two_whisters_shortfall)
    second_alone (the second whister, for his own tricks):
        a house agreement (docs/RULES.md, whist.two_whisters_shortfall)
whist.on_failure | one-whister-failed
    greedy (greedy whist): K3.8.13: greedy whist («жлобский», Sochi)
    gentleman (gentleman whist): K3.8.14: gentleman whist («джентльменский», Leningrad)
whist.lone_whister_made | one-whister-made
    side (for both hands): K3.8.5: the lone whister plays both hands and answers alone
    own (for his own tricks): a house agreement (docs/RULES.md, whist.lone_whister_made)
    split (in halves): a house agreement: in halves, as K3.8.14 on a failure
whist.consolation_by_passer | one-whister-failed
    true (yes, the passer consoles): K3.8.1.2 (consolation is usually written by all), K3.8.13
    false (no, only the whister): a house agreement (K3.8.1.2 says «обычно», usually)
whist.consolation_by_dealer | dealer-consoles
    true (yes, the dealer consoles): K3.8.1.2: consolation is usually written by all, the dealer included
    false (no, not the dealer): a house agreement (K3.8.1.2 says «обычно», usually)
raspasy.zero_trick_bonus | zero-trick
    trick (a trick's value):
        K3.7.2.1 «стоимость одной взятки» as mountain points in pool points (RULES.md 2.5)
    price (a trick's price in pool points): K3.7.2.1 «стоимость одной взятки» read literally: v pool points
    1 (one point): K3.7.2.2: one point (Rostov)
raspasy.zero_trick_bonus_area | zero-trick
    pool (into the pool): K3.7.2.1: «пишет в пульку»
    mountain (off the mountain): a house agreement (docs/RULES.md, raspasy.zero_trick_bonus_area)
raspasy.zero_trick_bonus_dealer | dealer-zero-trick
    true (yes, the dealer writes one): K3.7.6.2: the dealer writes one into the pool for no trick
    false (no, not the dealer): a house agreement (docs/RULES.md, raspasy.zero_trick_bonus_dealer)
premium.by | talon-premium
    dealer (the dealer):
        K3.4.11: «сдающий … пишет на разыгрывающего консоляцию»; nothing when he is the declarer
    opponents (the two others, half each): a house agreement for 3 players: the two others, half each
premium.on_concede | conceded-premium
    false (no premium on «без трёх»): K note 40: «вистующие не пишут ничего», only the remise
    true (the premium on «без трёх» too):
        seed 001: the premium «не зависит от того, сел или сыграл игрок, взявший прикуп»
bombs.second_out | five-dark-raspasy
    false (only the dealer): K3.3.19 а: «сдатчик (при игре вчетвером) … также получает бомбу»: only the dealer
    true (the second out too): K3.3.19 а: «не получает бомбу только игрок, сказавший пас в светлую»
table.two_half_whist | two-half-whist
    after_dummy (after the dummy only):
        K3.8.7: only the second defender goes half-whist, after the dummy's pass
    any_hand (from any hand): seed 001: the opponent «уходит „за свои"», no seat named
raspasy.run_ends_on | run-goes-on
    any (any other deal): K3.7.4 «несколько раз подряд»: any other deal ends the run
    played (a deal somebody plays): a house agreement (docs/RULES.md, raspasy.run_ends_on)
    whisted_made (a contract made against a whist): a house agreement (docs/RULES.md, raspasy.run_ends_on)
"""


def _joined(text: str, indent: int) -> list[str]:
    """The lines of ``text``, each indented by ``indent`` or more joined on to the one before."""
    lines: list[str] = []
    for line in text.splitlines():
        joins = line.startswith(" " * indent)
        lines[-1:] = [lines[-1] + " " + line.strip()] if joins else [*lines[-1:], line]
    return lines


def _contested() -> dict[str, Contested]:
    """``_CONTESTED`` read: each key's situations and the sources of its readings."""
    rows: dict[str, tuple[str, dict[Any, Text], dict[Any, Text]]] = {}
    name = ""
    for line in _joined(_CONTESTED, 8):  # a reading's source may go on, indented deeper
        if line.startswith(" "):
            # ``VALUE (a player's words for it): SOURCE``
            value, _, source = line.strip().partition(": ")
            value, _, words = value.partition(" (")
            read = {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value)
            rows[name][1][read] = Text(source)
            rows[name][2][read] = Text(words.removesuffix(")"))
        else:
            name, _, when = line.partition(" | ")
            rows[name] = (when, {}, {})
    return {
        k: Contested(cast(tuple[Situation, ...], tuple(when.split())), sources, names)
        for k, (when, sources, names) in rows.items()
    }


def _rows() -> dict[str, Key]:
    """The schema made of ``_TEXTS``, ``_CONTESTED`` and the parsers of Convention's fields: a
    key's field is ``section_leaf`` when there is one, else the leaf (``pool.help``: ``help``)."""
    fields = Convention.__dataclass_fields__
    contested = _contested()
    rows: dict[str, Key] = {}
    for line in _joined(_TEXTS, 1):
        name, ru, source, doc = line.split(" | ", 3)
        joined = name.replace(".", "_")
        f = fields[joined if joined in fields else name.rpartition(".")[2]]
        rows[name] = Key(name, f.name, f.metadata["parse"], Text(doc), ru, Text(source), contested.get(name))
    assert len(rows) == sum(1 for f in fields.values() if f.metadata), "a line of _TEXTS a parsed field"
    return rows


SCHEMA: dict[str, Key] = _rows()

TOP_KEYS = ("name", "title", "aliases", "description", "references", "extends")
SECTIONS = sorted({k.split(".")[0] for k in SCHEMA})
