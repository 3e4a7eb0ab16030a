"""What every report view shares: :class:`View`, ``SCHEMA_VERSION``, how numbers are written, the sheet
row; nothing here imports json, csv or tabulate (start-up)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from pulyacalc.core.amounts import mixed
from pulyacalc.core.i18n import MN_, NP_, _, pgettext, tr

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from pulyacalc.convention.schema import Convention
    from pulyacalc.core.amounts import Amount
    from pulyacalc.core.sheet import SheetView

#: the version of every JSON document's shape (docs/output.md); each document carries it
SCHEMA_VERSION = 1


@dataclass(slots=True)
class Spent:
    """A table's text made (log played, problems raised): pieces go out as they come, not via a spool."""

    pieces: Iterable[str]


class View(Protocol):
    """A report, ready to be written in any format (render/formats.py says what each shape may hold)."""

    def table(self) -> str | Iterable[str] | Spent: ...
    def document(self) -> dict[str, Any]: ...
    def records(self) -> Any: ...
    def rows(self) -> tuple[Any, Any]: ...


def versioned(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """JSON Lines: a document's list, each object with ``schema_version`` (said once in JSON)."""
    return [{"schema_version": SCHEMA_VERSION, **x} for x in items]


#: whether tables write ⅔ as one character (cleared for a console that cannot show it)
GLYPHS = [True]


def use_glyphs(on: bool) -> None:
    """Write ⅔ (``on``) or `` 2/3`` in what :func:`show` gives from now on."""
    GLYPHS[0] = on


#: the width tables and their notes are fitted to (None: as wide as they come)
WIDTH: list[int | None] = [None]


def use_width(columns: int | None) -> None:
    """Fit tables to ``columns`` characters from now on (None: never)."""
    WIDTH[0] = columns if columns is None or columns > 0 else None


def show(x: Amount | Decimal) -> str:
    """For people: exact amounts as mixed numbers (-46⅔, or -46 2/3), money with two decimals (130.00)."""
    return f"{x:.2f}" if isinstance(x, Decimal) else mixed(x, GLYPHS[0])


def signed(x: Amount | Decimal) -> str:
    """:func:`show` with a sign, for results and changes: +370, -110, 0."""
    return f"+{show(x)}" if x > 0 else show(x)


def decimal(x: Amount | Decimal) -> str:
    """For CSV and TSV: whole numbers as they are, others with two decimals (-46.67)."""
    if isinstance(x, Decimal):
        return f"{x:.2f}"
    if isinstance(x, int) or x.denominator == 1:
        return str(int(x))
    whole, cents = divmod(abs(round(x * 100)), 100)  # (exact, as Decimal's 28 digits are not)
    return f"{'-' if x < 0 else ''}{whole}.{cents:02}"


def jnum(x: Amount | Decimal) -> Any:
    """For JSON: whole numbers as integers, others as numbers with two decimals."""
    if isinstance(x, Decimal):
        return float(x)
    if isinstance(x, int) or x.denominator == 1:
        return int(x)
    return round(float(x), 2)


def fraction_text(x: Amount) -> str:
    """Exact, for programs: 12, -6, 7/2."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def twins(name: str, x: Any) -> dict[str, Any]:
    """``name`` (:func:`jnum`) and ``name_exact`` (:func:`fraction_text`) of an amount or mapping of them."""
    return {name: each(jnum, x), f"{name}_exact": each(fraction_text, x)}


def each(fmt: Callable[[Any], Any], x: Any) -> Any:
    """``fmt`` of an amount, or of each amount of a mapping of them (nested)."""
    return {k: each(fmt, v) for k, v in x.items()} if isinstance(x, Mapping) else fmt(x)


def convention_title(conv: Convention) -> str:
    """The convention's title (an untitled house file: its path), then ``+ key=value`` per override."""
    from pathlib import Path

    from pulyacalc.convention.load import builtin_dir, builtin_names, load
    from pulyacalc.play import overrides

    title = conv.title
    house = Path(conv.source).resolve().parent != builtin_dir().resolve()
    # a house file with no title of its own: the title of the one it extends would be claimed
    if house and (title == conv.name or title in {load(name).title for name in builtin_names()}):
        title = conv.source
    changed = overrides(conv)
    if not changed:
        return title
    from pulyacalc.convention.dump import flow  # only for a log with overrides (start-up time)

    # " + ", not ", ": the title goes on with ", 3 players"
    return " + ".join([title, *(f"{k}={flow(v)}" for k, v in changed.items())])


def table_changes(changes: Iterable[tuple[str, str, int]], player: str | None = None) -> list[str]:
    """Who joined or left the table and when (RULES.md 6.3); of ``player`` only when given."""
    said = {
        ("join", True): _("{player} joined after deal {n}"),
        ("join", False): _("{player} joined before the first deal"),
        ("leave", True): _("{player} left after deal {n}"),
        ("leave", False): _("{player} left before the first deal"),
    }
    return [
        said[change, n > 0].format(player=who, n=n) for change, who, n in changes if player in (None, who)
    ]


def counted(n: int, word: str) -> str:
    """``1 deal``, ``2 deals`` (``1 сдача``, ``2 сдачи``, ``5 сдач``): the words reports count."""
    forms = {
        "deal": MN_("{n} deal", "{n} deals", n, n=n),
        "evening": MN_("{n} evening", "{n} evenings", n, n=n),
        "player": MN_("{n} player", "{n} players", n, n=n),
        "finding": MN_("{n} finding", "{n} findings", n, n=n),
    }
    return tr(forms[word])


def sheet_head(players: tuple[str, ...]) -> list[str]:
    """The headers of the sheet row's cells (after the player's column)."""
    # i18n: the column of the whists a player wrote on {player} (CSV: whists_on_<player>)
    on = _("whists on {player}")
    return [_("pool"), _("mountain"), *[on.format(player=q) for q in players]]


def bombs_text(players: tuple[str, ...], bombs: Mapping[str, tuple[int, ...]]) -> str:
    """Each player's bombs not yet used (Classic, RULES.md 2.10), in the order they are used."""
    held = "; ".join(f"{p} {' '.join(f'×{b}' for b in bombs.get(p, ())) or '—'}" for p in players)
    return _("bombs («ёлочка»), in the order they are used: {held}").format(held=held)


def payments_text(payments: Iterable[tuple[str, str, Amount | Decimal]]) -> str:
    """``payments: A pays B 3.50; …``: who pays whom, in the chosen language."""
    # i18n: {payer} and {payee} are names, never declined: choose an order that needs no case
    each = _("{payer} pays {payee} {amount}")
    listed = "; ".join(each.format(payer=a, payee=b, amount=show(x)) for a, b, x in payments)
    return _("payments: {list}").format(list=listed)


def sheet_row(sheet: SheetView, p: str, own: str = "·", fmt: Callable[[Amount], str] = show) -> list[str]:
    """One player's line of the sheet: pool, mountain, whists on each other (``own``: on himself)."""
    whists = sheet.whists[p]
    on_each = [own if q == p else fmt(whists[q]) for q in sheet.players]
    return [fmt(sheet.pool[p]), fmt(sheet.mountain[p]), *on_each]


def sheet_json(sheet: SheetView) -> dict[str, Any]:
    """The sheet for JSON: per player pool, mountain and whists on each other."""
    return {
        p: {
            "pool": jnum(sheet.pool[p]),
            "mountain": jnum(sheet.mountain[p]),
            "whists": {q: jnum(v) for q, v in sheet.whists[p].items()},
        }
        for p in sheet.players
    }


#: a rounding's name as people read it (the value, ``exact`` …, is what a header or -r takes)
ROUNDING_NAMES = {
    "exact": NP_("rounding", "exact"),
    "kodeks": NP_("rounding", "kodeks"),
    "nearest": NP_("rounding", "nearest"),
    "kodeks_separate": NP_("rounding", "kodeks_separate"),
}


def rounding_name(rounding: str) -> str:
    """``rounding`` in the chosen language (``точное`` for ``exact``)."""
    return pgettext("rounding", rounding)  # (a name not in ROUNDING_NAMES: itself)
