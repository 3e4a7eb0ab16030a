"""The game's domain as small immutable types that parse and print their own notation (what
is allowed and what it is worth: :mod:`pulyacalc.scoring`); spellings are ``*_SPELLINGS``."""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, Union

from pulyacalc.core.amounts import Amount
from pulyacalc.core.errors import Loc, did_you_mean
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.kinds import Area, DummyHand, Rounding, SeatChangeKind

_T = TypeVar("_T")


def _spellings(table: Mapping[_T, str]) -> dict[str, _T]:
    """Each value's spellings, written as one line of words, as a look-up table."""
    return {word: value for value, words in table.items() for word in words.split()}


class _Word(enum.Enum):
    """A closed set of words, each shown as written (``str(Suit.SPADES)`` is ``♠``)."""

    def __str__(self) -> str:
        return str(self.value)


class Suit(_Word):
    SPADES = "♠"
    CLUBS = "♣"
    DIAMONDS = "♦"
    HEARTS = "♥"
    NO_TRUMP = "NT"


#: every spelling of a suit, folded to lower case (Cyrillic "с" is a Latin "c" typed in Russian)
SUIT_SPELLINGS: dict[str, Suit] = _spellings(
    {
        Suit.SPADES: "♠ s п пик пики ♤ spades spade пика вини",
        Suit.CLUBS: "♣ c т треф трефы ♧ clubs club трефа крести кресты с",
        Suit.DIAMONDS: "♦ d б бубны бубен бубей ♢ diamonds diamond бубна буби",
        Suit.HEARTS: "♥ h ч черви червы червей ♡ hearts heart черва чирва",
        Suit.NO_TRUMP: "nt бк бескозырка notrump no-trump n nts notrumps б/к bk безкозыря бескозыря",
    }
)

MISERE_SPELLINGS = frozenset({"misere", "misère", "mise\u0300re", "мизер", "miser", "mis", "мизэр", "mizer"})

SUITS_HINT = N_("suits: ♠ ♣ ♦ ♥ NT, s c d h, п т б ч БК")
_LEVELS = ("6", "7", "8", "9", "10")
#: where a deal made in code (not read from a file) is
_NOWHERE = Loc("-")


class ContractError(ValueError):
    """A word that is not a contract; ``levelled``: it starts with a digit, so it was meant as one."""

    def __init__(self, message: str, hint: str = "", *, levelled: bool) -> None:
        super().__init__(message)
        self.message, self.hint, self.levelled = message, hint, levelled


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract: a level 6..10 with a suit or no-trump, or misère (``level`` 0)."""

    level: int
    suit: Suit | None = None

    @property
    def is_misere(self) -> bool:
        return self.level == 0

    @classmethod
    def misere(cls) -> Contract:
        return cls(0, None)

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Parse ``6♠``, ``7NT``, ``8бк``, ``10 hearts``, ``мизер``… or raise :class:`ContractError`."""
        found = CONTRACT_SPELLINGS.get(text.strip().lower()) or CONTRACT_SPELLINGS.get(contract_key(text))
        if found is None:
            raise _contract_error(text.strip(), contract_key(text))
        return found

    def __str__(self) -> str:
        if self.is_misere:
            return "misere"
        assert self.suit is not None
        return f"{self.level}{self.suit.value}"

    @property
    def rank(self) -> float:
        """Position in the bidding: misère sits between the eights and the nines."""
        return 8.5 if self.is_misere else float(self.level)


#: every contract spelling (lower case, without spaces) → the contract: the readers' one look-up
CONTRACT_SPELLINGS: dict[str, Contract] = {
    f"{level}{word}": Contract(level, suit) for level in range(6, 11) for word, suit in SUIT_SPELLINGS.items()
}
CONTRACT_SPELLINGS |= {word: Contract.misere() for word in MISERE_SPELLINGS}


def contract_key(word: str) -> str:
    """A written contract as ``CONTRACT_SPELLINGS``' keys: NFC, no emoji selectors, lower case, no spaces."""
    import unicodedata

    norm = unicodedata.normalize("NFC", word).replace("\ufe0f", "").replace("\ufe0e", "")
    return "".join(norm.lower().split())


def _contract_error(word: str, key: str) -> ContractError:
    """What is wrong with ``word`` (``key``: its normal form), which is not a contract."""
    if not key or key[0] not in "0123456789":
        did = did_you_mean(_close(key, sorted(MISERE_SPELLINGS)))
        hint = M_("{did}a contract is like 6♠, 7NT or misere", did=did)
        return ContractError(M_("{word!r} is not a contract", word=word), hint, levelled=False)
    digits = "".join(c for c in key[:2] if c in "0123456789")
    suit = key[len(digits) :]
    if digits not in _LEVELS:
        level = M_("no contract {word!r}: the level is 6, 7, 8, 9 or 10", word=word)
        return ContractError(level, levelled=True)
    if not suit:
        example = M_("e.g. {digits}♠, {digits}s or {digits}NT", digits=digits)
        return ContractError(M_("the contract {word!r} needs a suit", word=word), example, levelled=True)
    close = _close(suit, list(SUIT_SPELLINGS))
    other = relaid(suit)
    unknown = M_("unknown suit {suit!r} in {word!r}", suit=suit, word=word)
    if other in SUIT_SPELLINGS and (digits + other) in CONTRACT_SPELLINGS:
        meant = CONTRACT_SPELLINGS[digits + other]
        slip = M_("{typed} is {other} on the Russian layout: {meant}?", typed=suit, other=other, meant=meant)
        return ContractError(unknown, slip, levelled=True)
    did = did_you_mean(f"{digits}{close}" if close else None, quoted=False)
    hint = M_("{did}{hint}", did=did, hint=M_(SUITS_HINT))
    return ContractError(unknown, hint, levelled=True)


#: a keyboard's letter keys as the Russian (ЙЦУКЕН) and the English (QWERTY) layouts write them
_RUSSIAN_KEYS = "йцукенгшщзхъфывапролджэячсмитьбю"
_ENGLISH_KEYS = "qwertyuiop[]asdfghjkl;'zxcvbnm,."
_OTHER_LAYOUT = str.maketrans(_RUSSIAN_KEYS + _ENGLISH_KEYS, _ENGLISH_KEYS + _RUSSIAN_KEYS)


def relaid(word: str) -> str:
    """``word`` as the same keys write it on the other keyboard layout (``ы`` ↔ ``s``)."""
    return word.lower().translate(_OTHER_LAYOUT)


def _close(word: str, options: list[str]) -> str | None:
    """The nearest of ``options`` to a misspelt ``word`` (the error path only)."""
    import difflib

    found = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return found[0] if found else None


class Call(_Word):
    """A defender's declaration after a contract."""

    WHIST = "whist"
    PASS = "pass"
    HALF = "half"


CALL_SPELLINGS: dict[str, Call] = _spellings(
    {
        Call.WHIST: "whist вист w v вистую vist",
        Call.PASS: "pass пас p пасую pas",
        Call.HALF: "half half-whist halfwhist полвиста пол-виста пол полвист halfwhists",
    }
)

#: «втёмную»: a bid or a pass made without looking at one's cards (K3.3.19), written next
#: to the call (``Anna dark 8♠ 8``, ``Boris pass dark 3``, ``Вера пас втёмную 3``)
DARK_SPELLINGS = frozenset(
    {"dark", "blind", "втёмную", "втемную", "тёмная", "темная", "тёмный", "темный", "тёмную", "темную"}
)


# -- the talon's cards (K3.4.11) -------------------------------------------------------
class Rank(_Word):
    """A card's rank in the 32-card pack, low to high."""

    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"


#: every spelling of a rank, folded to lower case; a card is a rank and a suit (``A♠``, ``Ts``, ``туз пик``)
RANK_SPELLINGS: dict[str, Rank] = _spellings(
    {
        Rank.ACE: "a ace т туз",
        Rank.KING: "k king к король",
        Rank.QUEEN: "q queen д дама",
        Rank.JACK: "j jack в валет",
        Rank.TEN: "10 t ten десятка",
        Rank.NINE: "9 nine девятка",
        Rank.EIGHT: "8 eight восьмёрка восьмерка",
        Rank.SEVEN: "7 seven семёрка семерка",
    }
)

CARDS_HINT = N_("a card is a rank and a suit: A♠ K♥ Q♦ J♣ 10♠ … 7♥, As Kh, туз пик, Тп Кч")


@dataclass(frozen=True, slots=True)
class Card:
    """A card of the 32-card pack: the talon's, which a log may give (K3.4.11)."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``A♠``, ``10♥``, ``Ks``, ``Тп``, ``туз пик``…: a rank and a suit; else ``ValueError``."""
        key = contract_key(text)
        for i in range(1, len(key)):
            rank = RANK_SPELLINGS.get(key[:i])
            suit = SUIT_SPELLINGS.get(key[i:]) if rank is not None else None
            if rank is not None and suit is not None and suit is not Suit.NO_TRUMP:
                return cls(rank, suit)
        raise ValueError(f"unknown card {text.strip()!r}")

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.value}"


#: the declarer leaves «без трёх» after the talon, without play (K note 40), written after the contract
CONCEDE_SPELLINGS = frozenset({"concede", "concedes", "conceded", "безтрёх", "безтрех", "без3"})

#: 1..10 as paper notes write undertricks («без одной», «без двух»), a level's words between bars
_UNDER = "одной одна одну | двух две | | четырёх четырех | пяти | шести | семи | восьми | девяти | десяти"
#: undertricks after the contract (``-1``, ``без одной``, ``down 2``); not ``без 3`` (``CONCEDE_SPELLINGS``)
UNDERTRICK_SPELLINGS: dict[str, int] = {
    **{f"{minus}{n}": n for n in range(1, 11) for minus in ("-", "\u2212")},
    **{f"down{n}": n for n in range(1, 11)},
    **{f"без{n}": n for n in range(1, 11) if n != 3},
    **{f"без{word}": n for n, words in enumerate(_UNDER.split("|"), 1) for word in words.split()},
}


@dataclass(slots=True)  # (not frozen: made for every deal shown, four times as fast)
class Play:
    """A deal with a contract (played, unplayed, half-whisted, or a misère)."""

    declarer: str
    contract: Contract
    #: each defender's call, in the order written; empty for a misère
    calls: Mapping[str, Call] = field(default_factory=dict)
    #: tricks as written (any subset of the players)
    tricks: Mapping[str, int] = field(default_factory=dict)
    dealer: str | None = None
    note: str | None = None
    loc: Loc = _NOWHERE
    #: where individual parts were written, for precise messages (``"tricks"``, ``"call:Boris"``…)
    locs: Mapping[str, Loc] = field(default_factory=dict)
    #: the line as written (line logs), echoed with a caret under rule errors
    source: str = ""
    #: shared (by identity) by the deals read from the same text: their writes worked out once
    template: Hashable | None = field(default=None, compare=False, repr=False)
    #: the talon's cards, when the log gives them (the talon premium, K3.4.11)
    talon: tuple[Card, ...] = ()
    #: the declarer left «без трёх» after the talon, without play (``contracts.concede_three``)
    concede: bool = False
    #: the declarer bid «втёмную» (K3.3.19 б, в): the game's value is multiplied by ``dark.factor``
    dark: bool = False


@dataclass(slots=True)  # (not frozen: made for every deal shown, four times as fast)
class Raspasy:
    """All players passed: everyone tries to take as few tricks as possible."""

    tricks: Mapping[str, int]
    dealer: str | None = None
    note: str | None = None
    loc: Loc = _NOWHERE
    locs: Mapping[str, Loc] = field(default_factory=dict)
    source: str = ""
    #: shared by the deals read from the same text (see ``Play.template``)
    template: Hashable | None = field(default=None, compare=False, repr=False)
    #: the players who passed «втёмную» (K3.3.19 а): a raised price, and they earn bombs
    dark: tuple[str, ...] = ()


Deal = Union[Play, Raspasy]

#: the first word of a correction line, folded to lower case
CORRECTION_WORDS = frozenset({"correction", "поправка", "исправление"})

#: a correction's area as people write it, folded to lower case
AREA_SPELLINGS: dict[str, Area] = _spellings(
    {"pool": "pool пуля пулю", "mountain": "mountain гора гору", "whists": "whists whist висты вист"}
)


@dataclass(frozen=True, slots=True)
class Correction:
    """Something the table writes by hand, for what no rule covers (RULES.md "Corrections"); not a deal."""

    player: str
    area: Area
    amount: Amount
    reason: str
    on: str | None = None
    note: str | None = None
    loc: Loc = _NOWHERE
    locs: Mapping[str, Loc] = field(default_factory=dict)
    #: the line as written (line logs), echoed with a caret under its problems
    source: str = ""


#: the first word of a line that changes the table (RULES.md 6.3), folded to lower case
SEAT_WORDS: dict[str, SeatChangeKind] = _spellings(
    {"join": "join joins входит садится", "leave": "leave leaves выходит уходит"}
)


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A player joins the table or leaves it between deals (RULES.md 6.3, K3.1.2); not a deal."""

    change: SeatChangeKind
    player: str
    note: str | None = None
    loc: Loc = _NOWHERE
    locs: Mapping[str, Loc] = field(default_factory=dict)
    #: the line as written (line logs)
    source: str = ""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A deal that could not be read, kept so that the dealer rotation after it stays right."""

    loc: Loc


@dataclass(frozen=True, slots=True)
class Header:
    """Everything a log says before its deals."""

    players: tuple[str, ...]
    dealer: str | None = None
    convention: str = "sochi"
    pool: int | None = None
    rounding: Rounding | None = None
    #: the evening's metadata, as written (free text; shown by season, kept by convert)
    date: str | None = None
    title: str | None = None
    place: str | None = None
    #: convention keys the log overrides: (dotted key, located YAML node) pairs
    overrides: tuple[tuple[str, Any], ...] = ()
    #: where each header key was written
    locs: Mapping[str, Loc] = field(default_factory=dict)
    source: str = "-"
    #: 2 players: the hand the dummy («болван») sits on (None: not written, the first)
    dummy: DummyHand | None = None


@dataclass(frozen=True, slots=True)
class Log:
    """A header and its deals; ``deals`` may be a lazy iterator (line logs stream)."""

    header: Header
    #: the deals, the corrections between them, and an ``Unreadable`` for each deal not read
    deals: Iterable[Deal | Correction | SeatChange | Unreadable]
    #: the header read without a problem (deals can be checked against its rules)
    header_ok: bool = True

    @property
    def players(self) -> tuple[str, ...]:
        return self.header.players


def first_dealer(players: Iterable[str], dealer: str | None) -> str:
    """The log's first dealer; by default the last listed player (so the first is first hand)."""
    return dealer if dealer is not None else list(players)[-1]
