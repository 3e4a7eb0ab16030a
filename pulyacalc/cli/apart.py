"""Whether a command's long log is worth a second process (``ledger``: pulyacalc/ledger_apart.py;
``explain``: render/explain_apart.py): a log file of at least ``APART_BYTES``, on a system
that can ``fork``, whose output goes anywhere but to a terminal (which takes it slower than
one process writes it)."""

from __future__ import annotations

import os
import sys

#: a log file at least this long is worth a second process: below it, starting one takes
#: longer than it saves
APART_BYTES = 1 << 20


def worth_apart(log: str) -> bool:
    from pulyacalc.cli import output

    try:
        terminal = output.target is None and os.isatty(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # (replaced by an embedding program)
        terminal = False
    try:
        return (
            not terminal
            and hasattr(os, "fork")
            and log != "-"
            and os.path.isfile(log)
            and os.path.getsize(log) >= APART_BYTES
        )
    except (OSError, ValueError):
        return False
