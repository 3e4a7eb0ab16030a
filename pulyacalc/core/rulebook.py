"""The names of the rules that write entries, tied to RULES.md sections and the Code (search
here for a section to find a rule's id, then the code for the id to find where it applies)."""

from __future__ import annotations

from dataclasses import dataclass

from pulyacalc.core.kinds import RuleId


@dataclass(frozen=True, slots=True)
class Rule:
    id: RuleId
    section: str  # RULES.md section
    title: str
    kodeks: str  # the Code's rule, where there is one


#: every rule id of ``kinds.RuleId``, each once (tests/test_scoring_pure.py checks it)
RULEBOOK: dict[RuleId, Rule] = {
    r.id: r
    for r in (
        Rule("unplayed", "2.1", "contract not played: both defenders passed", "K3.4, K4.2.3.2"),
        Rule("half-whist", "2.2", "half-whist: the half-whister writes half the obligation", "K3.8.7"),
        Rule("made", "2.3", "contract made: its price into the pool", "K4.2.1"),
        Rule("remise", "2.3", "contract failed: remise per undertrick into the mountain", "K4.2.1"),
        Rule("whists", "2.3", "whists for the defenders' tricks", "K3.8.1.1"),
        Rule("consolation", "2.3", "consolation per undertrick", "K3.8.1.2"),
        Rule("gentleman", "2.3", "gentleman whist: the whists split in halves", "K3.8.14"),
        Rule("dealer-consolation", "2.3", "the 4-player dealer writes consolation", "K3.8.1.2"),
        Rule(
            "shortfall",
            "2.3",
            "a whister short of the obligation writes into the mountain",
            "K3.8.6, K3.8.11, K3.8.12",
        ),
        Rule("misere-made", "2.4", "misère made: its price into the pool", "K3.6"),
        Rule("misere-remise", "2.4", "misère failed: per trick into the mountain", "K3.6"),
        Rule(
            "raspasy-mountain",
            "2.5",
            "raspasy tricks into the mountain, after amnesty",
            "K3.7.2.1, K3.7.3, K3.7.4",
        ),
        Rule("raspasy-whists", "2.6", "raspasy: the fewest tricks writes whists on the others", "K3.7.2.2"),
        Rule("zero-trick", "2.5", "no trick on raspasy: a bonus into the pool", "K3.7.2.1, K3.7.2.2"),
        Rule("pool", "2.8", "points into one's own pool", "K4.2.3"),
        Rule("help", "2.8", "a closed pool helps an opponent: points into his pool", "K4.2.3"),
        Rule("help-whists", "2.8", "the helper writes whists on the one he helped", "K4.2.3"),
        Rule("written-off", "2.8", "points nobody can take are written off one's own mountain", "K4.1.1"),
        Rule(
            "premium",
            "2.3",
            "the talon premium: consolation for the tricks the talon gave",
            "K3.4.11, K note 36",
        ),
        Rule("concede", "2.3", "«без трёх»: the declarer left without play, three undertricks", "K note 40"),
        Rule("correction", "2.9", "a correction the table wrote by hand, as written", ""),
        Rule("join", "6.3", "a newcomer writes the average pool and mountain", "K3.1.2"),
    )
}
