"""explain's deal line shows everything that changes what a deal writes: «без трёх» and the
talon's cards (the premium), as convert writes them."""

from __future__ import annotations

LOG = """players: Anna Boris Vera
contracts.concede_three: true
premium.enabled: true
premium.by: opponents

Anna 7♠ concede
Boris 6♦ 6, Vera whist 2, Anna pass 2, talon cards A♦ K♦
"""


def test_the_deal_line_shows_the_concede_and_the_talon() -> None:
    from helpers import score_text

    from pulyacalc.reports.explain import explain

    lines = [d.line for d in explain(score_text(LOG, "l.txt", running=True)).deals]
    assert lines == ["Anna 7♠ concede", "Boris 6♦ 6, Vera whist 2, Anna pass 2, talon cards A♦ K♦"]
