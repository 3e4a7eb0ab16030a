"""`stats` as views: the club's statistics (players, head-to-head, rating) and one player's page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pulyacalc.core.i18n import N_, _
from pulyacalc.render.aligned import tabulated
from pulyacalc.render.view import SCHEMA_VERSION, counted, decimal, jnum, show, twins, versioned
from pulyacalc.reports.rating import MODEL, Rating

if TYPE_CHECKING:
    from collections.abc import Callable

    from pulyacalc.core.amounts import Amount
    from pulyacalc.reports.stats import PlayerStats, Point, Stats, Tries

#: the contract levels, as JSON keys and CSV column suffixes
LEVELS = (6, 7, 8, 9, 10)


#: a rating's numbers, in the order of JSON and CSV
RATING = ("mu", "sigma", "ordinal")


def rating_json(r: Rating) -> dict[str, float]:
    # floats to two decimals: the model's arithmetic is floating point, not exact
    return {k: round(getattr(r, k), 2) for k in RATING}


def rated(r: Rating) -> list[str]:
    """The rating's mu, sigma and ordinal for a table or CSV: two decimals."""
    return [f"{getattr(r, k):.2f}" for k in RATING]


def player_json(rank: int, p: PlayerStats) -> dict[str, Any]:
    """One player's record (JSON and JSON Lines)."""
    st = p.standing
    return {
        "rank": rank,
        "player": p.player,
        "evenings": st.evenings,
        "deals": p.deals,
        **twins("total", st.total),
        **twins("per_evening", st.average),
        **twins("per_deal", p.per_deal),
        "best": jnum(st.best),
        "best_evening": st.best_evening,
        "worst": jnum(st.worst),
        "worst_evening": st.worst_evening,
        "longest_winning_streak": p.streak,
        "contracts": {
            str(lv): {"declared": p.contracts[lv].declared, "made": p.contracts[lv].made} for lv in LEVELS
        },
        "misere": {"played": p.misere.declared, "made": p.misere.made},
        "raspasy": {
            "played": p.raspasy,
            "tricks": p.raspasy_tricks,
            "tricks_per_raspasy": jnum(p.tricks_per_raspasy),
        },
        "whists": {"declared": p.whists.declared, "short": p.whists.made},
        "half_whists": p.half_whists,
        "rating": rating_json(p.rating),
    }


#: the CSV columns of a player's row, after rank and player
COLUMNS = (
    ["evenings", "deals", "total", "per_evening", "per_deal", "best", "best_evening", "worst"]
    + ["worst_evening", "longest_winning_streak"]
    + [f"{what}_{lv}" for lv in LEVELS for what in ("declared", "made")]
    + ["misere_played", "misere_made", "raspasy_played", "raspasy_tricks", "tricks_per_raspasy"]
    + ["whists_declared", "whists_short", "half_whists", "mu", "sigma", "ordinal"]
)


def player_row(rank: int, p: PlayerStats) -> list[Any]:
    st = p.standing
    row: list[Any] = [rank, p.player, st.evenings, p.deals, decimal(st.total), decimal(st.average)]
    row += [decimal(p.per_deal), decimal(st.best), st.best_evening, decimal(st.worst), st.worst_evening]
    row.append(p.streak)
    for lv in LEVELS:
        row += [p.contracts[lv].declared, p.contracts[lv].made]
    row += [p.misere.declared, p.misere.made, p.raspasy, p.raspasy_tricks, decimal(p.tricks_per_raspasy)]
    return [*row, p.whists.declared, p.whists.made, p.half_whists, *rated(p.rating)]


def tries(t: Tries) -> str:
    return f"{t.made}/{t.declared}" if t.declared else "·"


def play_rows(players: tuple[PlayerStats, ...]) -> list[list[Any]]:
    """Bidding and defence, a row per player: made/declared per level, and so on."""
    rows = []
    for p in players:
        row: list[Any] = [p.player, *[tries(p.contracts[lv]) for lv in LEVELS], tries(p.misere), p.raspasy]
        row += [decimal(p.tricks_per_raspasy) if p.raspasy else "·", tries(p.whists), p.half_whists]
        rows.append(row)
    return rows


def play_head() -> list[str]:
    """The headers of :func:`play_rows`."""
    head = [_("player"), *map(str, LEVELS), _("misère"), _("raspasy"), _("tricks per raspasy")]
    return [*head, _("whists"), _("half whists")]


@dataclass(frozen=True)
class StatsView:
    stats: Stats

    def records(self) -> list[dict[str, Any]]:
        """One player per line, best rating first."""
        return versioned(player_json(rank, p) for rank, p in enumerate(self.stats.players, 1))

    def document(self) -> dict[str, Any]:
        s = self.stats
        return {
            "schema_version": SCHEMA_VERSION,
            "evenings": [
                {
                    "number": i,
                    "file": e.source,
                    "players": list(e.players),
                    "deals": e.deals,
                    **twins("result", {p: e.result[p] for p in e.players}),
                }
                for i, e in enumerate(s.evenings, 1)
            ],
            "players": [player_json(rank, p) for rank, p in enumerate(s.players, 1)],
            **twins("head_to_head", s.head_to_head),
            "together": s.together,
            "series": {p.player: [point_json(pt) for pt in p.series] for p in s.players},
            "rating_model": MODEL,
            "deals": s.deals,
        }

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        return ["rank", "player", *COLUMNS], [player_row(r, p) for r, p in enumerate(self.stats.players, 1)]

    def table(self) -> str:
        s = self.stats
        title = _("Stats: {evenings}, {deals}; results in whists, ranked by the total as in season")
        # each header is its CSV column's name with spaces (docs/output.md); the rating beside the total
        head = [_("rank"), _("player"), _("evenings"), _("deals"), _("total"), _("ordinal"), _("mu")]
        head += [_("sigma"), _("per evening"), _("per deal"), _("best"), _("worst")]
        head.append(_("longest winning streak"))
        rows = []
        for rank, p in enumerate(s.players, 1):
            st, (mu, sigma, ordinal) = p.standing, rated(p.rating)
            # averages are statistics, not amounts to add up: with decimals (19.83, not 19⅚)
            row: list[Any] = [rank, p.player, st.evenings, p.deals, show(st.total), ordinal]
            row += [mu, sigma, decimal(st.average), decimal(p.per_deal)]
            rows.append([*row, show(st.best), show(st.worst), p.streak])
        names = [p.player for p in s.players]
        won = s.head_to_head
        lines = [title.format(evenings=counted(len(s.evenings), "evening"), deals=counted(s.deals, "deal"))]
        lines += ["", tabulated(rows, head, (1,)), _(RATING_LINE), ""]
        lines += [_("Contracts made/declared, misère made/played, raspasy, whists short/declared"), ""]
        lines += [tabulated(play_rows(s.players), play_head()), ""]
        if len(names) <= GRID_PLAYERS:
            h2h = [[a, *[show(won[a][b]) if b in won[a] else "·" for b in names]] for a in names]
            title = _("Head-to-head: whists the row won from the column over the evenings they sat together")
            lines += [title, "", tabulated(h2h, ["", *names])]
        else:  # a grid of every player by every other would be mostly dots (and n² cells)
            met = [[a, b, s.together[a][b], show(x)] for a in names for b, x in won[a].items()]
            lines += [_("Head-to-head: whists each player won from each he sat with, over those evenings")]
            lines += ["", tabulated(met, [_("player"), _("against"), _("evenings"), _("won")])]
        return "\n".join(lines) + "\n"


#: the rating explained in one line, under the table (docs/commands.md "Rating")
RATING_LINE = N_(
    "ordinal: the rating, μ − 3σ, from each evening's places (not margins), openskill Plackett-Luce; "
    "μ: the estimated skill (25 to start), σ: how unsure it is (shrinks as one plays)"
)


#: past this many players the head-to-head lists the pairs, not a grid (issue 31: 9 million cells)
GRID_PLAYERS = 20


def point_json(pt: Point) -> dict[str, Any]:
    totals = {**twins("result", pt.result), **twins("total", pt.total)}
    return {"number": pt.number, "file": pt.file, **totals, "rating": rating_json(pt.rating)}


@dataclass(frozen=True)
class PlayerView:
    """One player's page: his record, head-to-head against each opponent, his evenings."""

    stats: Stats
    player: PlayerStats

    @property
    def rank(self) -> int:
        return self.stats.players.index(self.player) + 1

    def opponents(self) -> list[tuple[str, int, Amount]]:
        me = self.player.player
        return [(q, self.stats.together[me][q], x) for q, x in self.stats.head_to_head[me].items()]

    def document(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "player": player_json(self.rank, self.player),
            "head_to_head": [
                {"opponent": q, "evenings": n, **twins("net", x)} for q, n, x in self.opponents()
            ],
            "evenings": [point_json(pt) for pt in self.player.series],
        }

    def records(self) -> list[dict[str, Any]]:
        """His evenings, one per line."""
        return versioned(point_json(pt) for pt in self.player.series)

    def rows(self) -> tuple[list[str], list[list[Any]]]:
        return ["number", "file", "result", "total", "mu", "sigma", "ordinal"], self._rows(decimal)

    def _rows(self, fmt: Callable[[Amount], str]) -> list[list[Any]]:
        """His evenings: ``fmt`` :func:`show` for people, :func:`decimal` for CSV."""
        return [
            [pt.number, pt.file, fmt(pt.result), fmt(pt.total), *rated(pt.rating)]
            for pt in self.player.series
        ]

    def table(self) -> str:
        p, st = self.player, self.player.standing
        ratings = dict(zip(("mu", "sigma", "rating"), rated(p.rating), strict=True))
        first = _("{player}: rank {rank} of {n}, ordinal {rating} (mu {mu}, sigma {sigma})")
        second = _("{evenings}, {deals}; total {total}, per evening {average}, per deal {per_deal}")
        third = _(
            "best {best} ({best_evening}), worst {worst} ({worst_evening}); longest winning streak {streak}"
        )
        best = {"best": show(st.best), "best_evening": st.best_evening, "worst": show(st.worst)}
        best |= {"worst_evening": st.worst_evening, "streak": str(p.streak)}
        totals = {"total": show(st.total), "average": decimal(st.average), "per_deal": decimal(p.per_deal)}
        opponents = [[q, n, show(x)] for q, n, x in self.opponents()]
        head = [_("number"), _("file"), _("result"), _("total"), _("mu"), _("sigma"), _("ordinal")]
        played = {"evenings": counted(st.evenings, "evening"), "deals": counted(p.deals, "deal")}
        lines = [first.format(player=p.player, rank=self.rank, n=len(self.stats.players), **ratings)]
        lines.append(second.format(**played, **totals))
        lines += [third.format(**best), "", tabulated(play_rows((p,)), play_head()), ""]
        lines += [tabulated(opponents, [_("opponent"), _("evenings"), _("net")]), ""]
        return "\n".join([*lines, tabulated(self._rows(show), head, (1,))]) + "\n"
