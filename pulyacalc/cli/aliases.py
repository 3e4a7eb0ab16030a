"""``--aliases FILE`` of ``season`` and ``stats``: an input like a log, not a setting (a
missing file is a located problem, exit 1, not usage), read before any log."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from pulyacalc.core.i18n import N_

if TYPE_CHECKING:
    from pulyacalc.logs.aliases import Aliases

_HELP = N_(
    "A YAML file of each person's spellings ('Вера: [Vera, V]'): one row per person "
    "however the logs spelled the name."
)
AliasesOpt = Annotated[str | None, typer.Option("--aliases", metavar="FILE", help=_HELP)]


def load_aliases(path: str | None) -> Aliases | None:
    """The aliases file read, or None when none was given; raises ReadError (located)."""
    from pulyacalc.logs.aliases import read_aliases

    return None if path is None else read_aliases(path)
