"""The words a canonical log is written in: English or Russian (``convert --lang ru``).  Every
Russian word is a spelling the readers already take, so a log reads back as the same deals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pulyacalc.core.i18n import SAID, current
from pulyacalc.core.model import Contract, Suit
from pulyacalc.logs.header import RUSSIAN_KEYS


@dataclass(frozen=True, slots=True)
class Words:
    """One language's words for the canonical writers: English unless given.  Each word is
    written where its English default is (docs/format.md); a mapping goes from the model's
    value (a ``Call``, an ``Area``, a ``SeatChangeKind``, a header key) to the word."""

    calls: Mapping[str, str] = field(default_factory=dict)
    #: the 4-player dealer's talon tricks on raspasy (``Dan talon 2``)
    talon: str = "talon"
    talon_cards: str = "talon cards"
    #: «без трёх» without play (``Anna 7♠ concede``)
    concede: str = "concede"
    dealer: str = "dealer"
    #: the word that starts a correction line, and the one before the player whists are on
    correction: str = "correction"
    on: str = "on"
    areas: Mapping[str, str] = field(default_factory=dict)
    #: the word after the level for misère and no trumps
    misere: str = "misere"
    no_trump: str = "NT"
    raspasy: str = "raspasy"
    #: «втёмную» (Classic, K3.3.19): before a dark game, after a dark pass
    dark: str = "dark"
    keys: Mapping[str, str] = field(default_factory=dict)
    seats: Mapping[str, str] = field(default_factory=dict)
    #: a header value in words (``dummy: first`` → ``болван: первая``), by key and value
    values: Mapping[tuple[str, str], str] = field(default_factory=dict)

    def key(self, key: str) -> str:
        return self.keys.get(key, key)

    def call(self, call: object) -> str:
        text = str(call)
        return self.calls.get(text, text)

    def value(self, key: str, value: str) -> str:
        return self.values.get((key, value), value)

    def seat(self, change: str) -> str:
        return self.seats.get(change, change)

    def contract(self, contract: Contract) -> str:
        if contract.is_misere:
            return self.misere
        if contract.suit is Suit.NO_TRUMP:
            return f"{contract.level}{self.no_trump}"
        return str(contract)


ENGLISH = Words()

RUSSIAN = Words(
    calls={"whist": "вист", "pass": "пас", "half": "полвиста"},
    talon="прикуп",
    talon_cards="прикуп",
    concede="без трёх",
    dealer="сдаёт",
    correction="поправка",
    on="на",
    areas={"pool": "пуля", "mountain": "гора", "whists": "висты"},
    misere="мизер",
    no_trump="БК",
    raspasy="распасы",
    dark="втёмную",
    keys=RUSSIAN_KEYS,
    seats={"join": "входит", "leave": "выходит"},
    values={("dummy", "first"): "первая", ("dummy", "second"): "вторая"},
)

#: ``convert --lang``: the language → its words
LOG_LANGUAGES: dict[str, Words] = {"en": ENGLISH, "ru": RUSSIAN}


def spoken() -> Words:
    """The words of the language read now (``--lang``): a deal echoed in a table as a player would type it."""
    return LOG_LANGUAGES.get(current(), ENGLISH)


SAID[Contract] = lambda contract: spoken().contract(contract)  # in a message's fields too
