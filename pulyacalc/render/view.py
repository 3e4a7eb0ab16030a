"""What every report view shares: the :class:`View` protocol (the four shapes the output
formats are made from), ``SCHEMA_VERSION``, the ways numbers are written (:func:`show` for
people, :func:`decimal` for CSV, :func:`jnum` for JSON, :func:`fraction_text` exact) and the
sheet row.

ARCHITECTURE.md puts these beside the format table; they live apart from it
(:mod:`pulyacalc.render.formats`) so that a report module and a new format module can both
import them while the format table imports the format modules: no import cycle.  Nothing
here imports json, csv or tabulate (start-up time).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from pulyacalc.core.amounts import mixed
from pulyacalc.core.i18n import _, ngettext

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from pulyacalc.convention.schema import Convention
    from pulyacalc.core.amounts import Amount
    from pulyacalc.core.sheet import SheetView

#: the version of every JSON document's shape (docs/output.md); each document carries it
SCHEMA_VERSION = 1


class View(Protocol):
    """A report, ready to be written in any format of the format table (render/formats.py,
    whose writers stream each shape).  Each method gives one shape; a view decides what it
    holds in each (settle's table is its stages)."""

    def table(self) -> str | Iterable[str]:
        """For people: the whole text, ending in a newline, or its pieces as they come (a
        piece may end inside a line)."""
        ...

    def document(self) -> dict[str, Any]:
        """For ``-f json``: one document with ``schema_version``; an iterator in it is an
        array written item by item, a ``formats.Later`` a value known once they are spent."""
        ...

    def records(self) -> Any:
        """For ``-f jsonl``: one object per line (a dict, or a ``formats.Raw`` line), or a
        ``formats.Made`` of the lines already written."""
        ...

    def rows(self) -> tuple[Any, Any]:
        """For ``-f csv`` and ``-f tsv``: the header (a list, or a ``formats.Later`` known
        once the rows are spent) and the rows (lists, or a ``formats.Made`` of the lines
        already written)."""
        ...


#: whether tables write fractions Unicode has a character for as that character (⅔);
#: cleared by the command line when standard output is a console that cannot show them
GLYPHS = [True]


def use_glyphs(on: bool) -> None:
    """Write ⅔ (``on``) or `` 2/3`` in what :func:`show` gives from now on."""
    GLYPHS[0] = on


#: the width tables and their notes are fitted to (render/table.grid, fit_lines); None
#: (piped output without ``COLUMNS``): as wide as they come
WIDTH: list[int | None] = [None]


def use_width(columns: int | None) -> None:
    """Fit tables to ``columns`` characters from now on (None: never)."""
    WIDTH[0] = columns if columns is None or columns > 0 else None


def show(x: Amount | Decimal) -> str:
    """For people (tables, notes, the drawn sheet): exact amounts as mixed numbers a person
    can add up (12, -46⅔, 3½, 5 2/7; -46 2/3 on a console without ⅔), money with two
    decimals (130.00).  The one way every report writes a number for people."""
    if isinstance(x, Decimal):
        return f"{x:.2f}"
    return mixed(x, GLYPHS[0])


def decimal(x: Amount | Decimal) -> str:
    """For CSV and TSV: whole numbers as they are, others with two decimals (-46.67); the
    exact value goes beside it in an ``…_exact`` column."""
    if isinstance(x, Decimal):
        return f"{x:.2f}"
    if isinstance(x, int) or x.denominator == 1:
        return str(int(x))
    q = Decimal(x.numerator) / Decimal(x.denominator)
    return f"{q.quantize(Decimal('0.01')):.2f}"


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


def convention_title(conv: Convention) -> str:
    """The convention as a report's title names it: its title (a house file with no
    ``title:``, its path as the user gave it: ``-c PATH`` as typed, a file the log names
    joined to the log's path as typed, the way every message names the log), then
    ``+ key=value`` for each value that differs from that file (the log's overrides), so
    a title never claims a convention the evening did not play."""
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


def counted(n: int, word: str) -> str:
    """``1 deal``, ``2 deals`` (``1 сдача``, ``2 сдачи``, ``5 сдач``): the words reports count,
    in the chosen language; another English word gets an s."""
    if word == "deal":
        return ngettext("{n} deal", "{n} deals", n).format(n=n)
    if word == "evening":
        return ngettext("{n} evening", "{n} evenings", n).format(n=n)
    if word == "player":
        return ngettext("{n} player", "{n} players", n).format(n=n)
    if word == "finding":
        return ngettext("{n} finding", "{n} findings", n).format(n=n)
    if word == "file":
        return ngettext("{n} file", "{n} files", n).format(n=n)
    if word == "correction":
        return ngettext("{n} correction", "{n} corrections", n).format(n=n)
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def sheet_head(players: tuple[str, ...]) -> list[str]:
    """The headers of the sheet row's cells (after the player's column)."""
    # i18n: the column of the whists a player wrote on {player} (CSV: whists_on_<player>)
    on = _("whists on {player}")
    return [_("pool"), _("mountain"), *[on.format(player=q) for q in players]]


def payments_text(payments: Iterable[tuple[str, str, Amount | Decimal]]) -> str:
    """``payments: A pays B 3.50; …``: who pays whom, in the chosen language."""
    # i18n: {payer} and {payee} are names, never declined: choose an order that needs no case
    each = _("{payer} pays {payee} {amount}")
    return _("payments: {list}").format(
        list="; ".join(each.format(payer=a, payee=b, amount=show(x)) for a, b, x in payments)
    )


def sheet_row(sheet: SheetView, p: str, own: str = "·", fmt: Callable[[Amount], str] = show) -> list[str]:
    """One player's line of the sheet, as people read it (``fmt``: :func:`decimal` for
    CSV): pool, mountain, whists on each other; ``own`` fills the cell of whists on himself."""
    whists = sheet.whists[p]
    return [
        fmt(sheet.pool[p]),
        fmt(sheet.mountain[p]),
        *[own if q == p else fmt(whists[q]) for q in sheet.players],
    ]


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
