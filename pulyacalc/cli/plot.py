"""``--plot FILE`` of ``season`` and ``stats``: the option, the check that the optional
extra is installed (before any log is read), and the all-or-nothing write of the picture."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pulyacalc.cli.output import drawing_file, replaced
from pulyacalc.cli.runtime import fail
from pulyacalc.core.errors import shown
from pulyacalc.core.i18n import N_, _

if TYPE_CHECKING:
    from pulyacalc.render.plot import Picture, PlotFormat

INSTALL = 'pip install "pulyacalc[plot]"'


def _check(value: str | None) -> str | None:
    """A usage error (exit 2, naming --plot) before any work."""
    if value is None:
        return None
    from pulyacalc.render.plot import PLOT_SUFFIXES

    if value == "-":
        raise typer.BadParameter(
            _("the picture goes to a file (FILE.svg or FILE.png); standard output carries the table")
        )
    misnamed = _("{value}: name the file FILE.svg or FILE.png (the picture's format)")
    return drawing_file(value, PLOT_SUFFIXES, misnamed.format(value=shown(value, 0)))


_HELP = N_(
    "Also draw each player's cumulative result over the evenings into FILE.svg (or FILE.png); "
    'needs the plot extra: pip install "pulyacalc[plot]".'
)
PlotOpt = Annotated[str | None, typer.Option("--plot", metavar="FILE.svg", callback=_check, help=_HELP)]


def require_matplotlib() -> None:
    """Exit 1 with the way to install the extra when matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        message = _("--plot needs matplotlib ({error}); install the plot extra: {install}")
        raise fail(message.format(error=e, install=INSTALL)) from None


def save_plot(path: str, picture: Picture) -> None:
    """Draw the picture in the format ``path``'s suffix names, written all or nothing."""
    from pulyacalc.render.plot import PLOT_SUFFIXES, draw

    fmt: PlotFormat = PLOT_SUFFIXES[Path(path).suffix.lower()]
    data = draw(picture, fmt)
    with replaced(path, binary=True) as f:
        f.write(data)
