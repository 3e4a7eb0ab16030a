"""The names of the rules that write entries, tied to RULES.md sections and the Code (search
here for a section to find a rule's id, then the code for the id to find where it applies)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from pulyacalc.core.kinds import RuleId


@dataclass(frozen=True, slots=True)
class Rule:
    id: RuleId
    section: str  # RULES.md section
    title: str
    kodeks: str  # the Code's rule, where there is one


#: each rule's line: ``id | RULES.md section | the Code's rule | title``
_RULES = """\
unplayed | 2.1 | K3.4, K4.2.3.2 | contract not played: both defenders passed
half-whist | 2.2 | K3.8.7 | half-whist: the half-whister writes half the obligation
made | 2.3 | K4.2.1 | contract made: its price into the pool
remise | 2.3 | K4.2.1 | contract failed: remise per undertrick into the mountain
whists | 2.3 | K3.8.1.1 | whists for the defenders' tricks
consolation | 2.3 | K3.8.1.2 | consolation per undertrick
gentleman | 2.3 | K3.8.14 | gentleman whist: the whists split in halves
returned-whist | 2.3 | K3.8.8, K3.8.8.1 | a player out returned the whist: he writes the side's whists
dealer-consolation | 2.3 | K3.8.1.2 | the 4-player dealer writes consolation
shortfall | 2.3 | K3.8.6, K3.8.11, K3.8.12 | a whister short of the obligation writes into the mountain
misere-made | 2.4 | K3.6 | misère made: its price into the pool
misere-remise | 2.4 | K3.6 | misère failed: per trick into the mountain
raspasy-mountain | 2.5 | K3.7.2.1, K3.7.3, K3.7.4 | raspasy tricks into the mountain, after amnesty
raspasy-whists | 2.6 | K3.7.2.2 | raspasy: the fewest tricks writes whists on the others
zero-trick | 2.5 | K3.7.2.1, K3.7.2.2 | no trick on raspasy: a bonus into the pool
pool | 2.8 | K4.2.3 | points into one's own pool
help | 2.8 | K4.2.3 | a closed pool helps an opponent: points into his pool
help-whists | 2.8 | K4.2.3 | the helper writes whists on the one he helped
written-off | 2.8 | K4.1.1 | points nobody can take are written off one's own mountain
premium | 2.3 | K3.4.11, K note 36 | the talon premium: consolation for the tricks the talon gave
concede | 2.3 | K note 40 | «без трёх»: the declarer left without play, three undertricks
correction | 2.9 |  | a correction the table wrote by hand, as written
join | 6.3 | K3.1.2 | a newcomer writes the average pool and mountain
"""

#: every rule id of ``kinds.RuleId``, each once (tests/test_scoring_pure.py checks it)
RULEBOOK: dict[RuleId, Rule] = {
    cast(RuleId, i): Rule(cast(RuleId, i), section, title, kodeks)
    for i, section, kodeks, title in (line.split(" | ", 3) for line in _RULES.splitlines())
}
