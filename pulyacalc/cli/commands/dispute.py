"""`pulyacalc dispute LOG --deal N`: each reading of every contested key that matters for a
deal, side by side, with what it does to every player's final result."""

from __future__ import annotations

from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli.runtime import emit
from pulyacalc.core.i18n import N_
from pulyacalc.render.formats import render

DEAL_HELP = N_("The deal in dispute: its number (1 = the first).")


@opts.command(*opts.SHARED)
def dispute(
    log: opts.LogArg,
    deal: Annotated[int, typer.Option("--deal", "-d", min=1, metavar="N", help=DEAL_HELP)],
    run: opts.Run,
) -> None:
    """Settle a dispute over one deal: for every key tables read differently that matters for
    it (greedy or gentleman whist, who answers for the whisters' shortfall, the zero-trick
    bonus …), each reading with the deal's entries, every player's final result and its
    change against the log's own convention, and the Code's clause it rests on."""
    from pulyacalc.render.dispute import DisputeView
    from pulyacalc.reports.dispute import NoSuchDeal, dispute_file

    try:
        found = dispute_file(log, deal, **run.reading, price=run.price)
    except NoSuchDeal as e:
        raise opts.usage(e.args[0], "--deal") from None
    emit(render(DisputeView(found), run.format))


EXAMPLES = N_("pulyacalc dispute examples/sochi-3p.txt --deal 9")
