"""`pulyacalc play LOG`: the evening at the table, each deal checked as it is typed and
written to the log at once (cli/session.py)."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.runtime import fail
from pulyacalc.core.i18n import N_, _, current

#: the arguments' help, as ``--help`` shows it
_HELP = {
    "log": N_("The line log: continued, or started when it does not exist."),
    "serve": N_(
        "Serve one read-only page with the drawn sheet and the last deals, refreshed after every deal, "
        "for the players' phones (host 127.0.0.1 unless given)."
    ),
}


@opts.command("whist_price", "allow_outside")
def play(
    log: Annotated[str, typer.Argument(metavar="LOG", help=_HELP["log"])],
    serve: Annotated[str | None, typer.Option("--serve", metavar="[HOST:]PORT", help=_HELP["serve"])] = None,
    *,
    run: opts.Run,
) -> None:
    """Play an evening at the table: one line per deal, checked on Enter against the rules and
    written to the log at once (never lost); undo, fix N, join/leave, sheet, explain N, ledger,
    end. Without a terminal, the same commands are read line by line from standard input."""
    import sys
    from pathlib import Path

    from pulyacalc.cli.session import Lock, Refused, Session, conventions, reader, start
    from pulyacalc.logs.words import LOG_LANGUAGES

    run.price  # noqa: B018 - a wrong --whist-price is usage before the evening starts
    if log == "-":  # standard input brings the commands
        raise opts.usage(_("play keeps its log in a file, not on standard input"), "LOG")
    path = Path(log)
    address = None
    if serve is not None:
        from pulyacalc.cli.serve import parse_address

        try:
            address = parse_address(serve)
        except ValueError as e:
            raise opts.usage(str(e), "--serve") from None
    box: list[Session] = []  # completion reads the session's players as they change
    ask = reader(lambda: box[0].completions() if box else conventions(path.parent))
    watch = None
    try:
        if not _missing(log):  # read and checked before the lock: a log refused gets no file
            box.append(Session(path, ask, run.whist_price))
        lock = Lock(path)
        try:
            if not box:
                start(path, ask, LOG_LANGUAGES["ru" if current() == "ru" else "en"])
                box.append(Session(path, ask, run.whist_price))
            session = box[0]
            if address is not None:
                from pulyacalc.cli.serve import Watch, page

                watch = shown = Watch(*address)
                session.watch = lambda: shown.publish(page(path, lang=current()))
                session.watch()
                print(watch.url, flush=True)  # once there is a page to see
            if session.now.steps:
                session.command("score")
            status = session.run()
        finally:
            lock.release()
            if watch is not None:
                watch.close()
    except (Refused, EOFError) as e:
        raise fail(str(e)) if isinstance(e, Refused) else typer.Exit(1) from None
    if status:
        sys.stdout.flush()
        raise typer.Exit(status)


def _missing(log: str) -> bool:
    """Is there no file at ``log`` in a folder that exists (a new evening)?  Any other failure
    is the reading's to report, at the log as typed."""
    import os

    try:
        os.stat(log)
    except FileNotFoundError:
        return os.path.isdir(os.path.dirname(log) or ".")
    except OSError:
        pass
    return False


EXAMPLES = N_(
    "pulyacalc play evening.txt\n"
    "pulyacalc play evening.txt --serve 0.0.0.0:8765  # the sheet on the players' phones"
)
