"""`pulyacalc new --players "Аня Боря Вера" -c sochi > evening.txt`: a log to start from."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.runtime import emit
from pulyacalc.core.errors import has_unsafe, quoted
from pulyacalc.core.i18n import N_, _, current

#: the options' help, as ``--help`` shows it
_HELP = {
    "players": N_("The players, 2 to 5, in seating order clockwise; the last deals first."),
    "lang": N_(
        "The call words: en or ru (default: ru when the names are in Cyrillic or the language chosen is "
        "Russian)."
    ),
}


def _names(text: str) -> list[str]:
    # 2 to 5 names, separated by spaces or commas
    return text.replace(",", " ").split()


def _check_players(text: str) -> str:
    # at the option, so that a mistake is usage (exit 2) named by --players
    names = _names(text)
    if not 2 <= len(names) <= 5 or len(set(names)) != len(names):
        message = _('{text!r}: give 2 to 5 different names, like "Anna Boris Vera"')
        raise typer.BadParameter(message.format(text=text))
    # what the log's reader would refuse, refused before it is written (an escape sequence
    # or a bidi control in a name would reach the terminal now and every table later)
    for name in names:
        # under a C locale the arguments' UTF-8 arrives as surrogate escapes: the name as typed
        name = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        why = None
        if name[:1].isdigit():
            why = _("a player's name cannot start with a digit: {name}")
        elif has_unsafe(name):
            why = _("a player's name cannot hold control or bidi characters: {name}")
        if why is not None:
            raise typer.BadParameter(why.format(name=quoted(name)))
    return text


@opts.command("convention", "output", fresh=True)
def new(
    players: Annotated[
        str,
        typer.Option(
            "--players", "-p", metavar='"A B [C D E]"', callback=_check_players, help=_HELP["players"]
        ),
    ],
    run: opts.Run,
    lang: Annotated[opts.Language | None, typer.Option("--lang", help=_HELP["lang"])] = None,
) -> None:
    """Print a new evening's log: the header, and one example line per kind of deal (made,
    failed, not whisted, half-whist, misère, raspasy; the talon on raspasy with 4 players),
    commented out, so that the file scores as it is and each example can be uncommented."""
    from pulyacalc.convention.load import load
    from pulyacalc.logs.template import Unserved, looks_russian, template

    names = _names(players)
    convention = run.convention or "sochi"
    conv = load(convention)  # a file's problems are told now, not at the first `score` of the new log
    # a person who reads Russian gets the Russian words, whatever the names' alphabet
    chosen = lang.value if lang is not None else ("ru" if looks_russian(names) or current() == "ru" else "en")
    try:
        emit(template(names, conv, convention, "ru" if chosen == "ru" else "en"))
    except Unserved as e:
        message = _("{convention} for {n} players: no template fits ({reason}); give another -c or --players")
        reason = _(str(e))
        raise opts.usage(message.format(convention=convention, n=len(names), reason=reason), "-c") from None


EXAMPLES = N_(
    'pulyacalc new --players "Anna Boris Vera" -c sochi -o evening.txt\n'
    'pulyacalc new --players "Аня Боря Вера Дима" -c rostov  # four, in Russian words'
)
