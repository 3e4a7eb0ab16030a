"""Whether a deal as written is allowed at its table: ``resolve`` turns it into a ``Resolved``
one with every number scoring needs (tricks completed where the rules fix them), or reports
located problems with the ``code`` ``check`` gives them (``dealer-in-play`` or ``rule``).

``resolve`` is pure but for the problems it adds: ``scoring/fold.py`` remembers its answer keyed on its
arguments, so one added here must join the fold's ``KEY`` (tests/test_scoring_pure.py fails until then)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Generic, NoReturn, TypeVar

from pulyacalc.convention.schema import Convention
from pulyacalc.core.errors import Problem, Problems
from pulyacalc.core.i18n import M_, N_, Text
from pulyacalc.core.kinds import DealKind, FindingCode
from pulyacalc.core.model import Call, Contract, Deal, Play, Raspasy, Suit
from pulyacalc.core.seating import Seats


@dataclass(frozen=True, slots=True)
class Resolved:
    """A legal deal with all numbers scoring needs."""

    deal: Deal
    seats: Seats
    kind: DealKind
    declarer: str = ""
    level: int = 0
    #: declarer's tricks
    taken: int = 0
    #: (first, second) defender
    defenders: tuple[str, ...] = ()
    whisters: tuple[str, ...] = ()
    #: per player: each whister's own tricks (a lone whister: the side's); raspasy: everyone's (dealer: talon)
    tricks: tuple[tuple[str, int], ...] = ()
    #: a lone whister's own tricks, when the deal gives them (or the passer's); else None
    lone_own: int | None = None


def seating(deal: Deal, seats: Seats) -> tuple[object, ...]:
    """All that ``resolve`` reads of ``seats`` when it finds nothing wrong (a raspasy's order
    too), so that the scorer shares answers across dealers; tests/test_scoring_pure.py holds to it."""
    if isinstance(deal, Raspasy):
        return seats.players, seats.sitters, seats.dummy, seats.active
    if seats.dummy:  # who speaks first, the dummy or the opponent (a half-whist)
        return seats.players, seats.dealer, seats.dummy_hand
    return seats.players, seats.sitters, seats.dummy


def resolve(deal: Deal, seats: Seats, conv: Convention, problems: Problems) -> Resolved | None:
    """Check one deal against the table and the convention; None if it is not allowed."""
    before = len(problems)
    try:
        if isinstance(deal, Raspasy):
            return _resolve_raspasy(_At(deal, seats, conv, problems))
        return _resolve_play(_At(deal, seats, conv, problems))
    except _Refused:
        pass
    if deal.source:
        _echo(deal, problems, before)
    return None


def _echo(deal: Deal, problems: Problems, before: int) -> None:
    """A line-log deal's line echoed under its rule problems, a caret under the word, or under
    the whole deal when the problem's Loc is the deal's own."""
    items = problems.items
    line = deal.source
    for i in range(before, len(items)):
        p = items[i]
        if p.source or p.loc.line != deal.loc.line or not p.loc.column:
            continue
        start = p.loc.column - 1
        if p.loc is deal.loc:
            width = len(line.split("#", 1)[0].rstrip()) - start
        else:
            width = len(re.split(r"[\s,#]", line[start:], maxsplit=1)[0])
        items[i] = Problem(p.loc, p.message, p.hint, line, max(1, width), p.kind, p.code)


#: a contract or a raspasy
D = TypeVar("D", Play, Raspasy)


class _Refused(Exception):
    """A check refused the deal, its problem reported: ``resolve`` answers None."""


def _text(template: str, fields: dict[str, object]) -> str:
    """A message or hint as reported: ``template`` filled with ``fields``; a Text (or "") as it is."""
    return template if not template or isinstance(template, Text) else M_(template, **fields)


@dataclass
class _At(Generic[D]):
    """A deal being resolved at its table: what its checks read, and where they report (``_text``)."""

    deal: D
    seats: Seats
    conv: Convention
    problems: Problems

    def note(
        self, part: str, message: str, hint: str = "", code: FindingCode = "rule", /, **fields: object
    ) -> None:
        """Report ``message`` at the deal's ``part`` (at the whole deal if it has none)."""
        loc = self.deal.locs.get(part, self.deal.loc)
        self.problems.add(loc, _text(message, fields), _text(hint, fields), kind="rule", code=code)

    def no(
        self, part: str, message: str, hint: str = "", code: FindingCode = "rule", /, **fields: object
    ) -> NoReturn:
        """Refuse the deal: ``message`` at its ``part``, and the check ends."""
        self.note(part, message, hint, code, **fields)
        raise _Refused

    def dealer_in_play(self, part: str, message: str, hint: str = "", /, **fields: object) -> NoReturn:
        """The 4-player dealer, who sits out, takes part: he bids, whists or passes, takes
        tricks in a contract, or is given raspasy tricks where the talon takes none."""
        self.no(part, message, hint, "dealer-in-play", **fields)


#: the problems of the checks below, (message, hint): templates of the fields each check gives
_NOT_AT_TABLE = (N_("tricks for {name!r}, who is not at the table"), N_("players: {join}"))
_COUNT = (N_("{name} cannot take {count} tricks"), N_("a count is 0..10"))
_DARK_DEALER = (
    N_("{who} deals and sits out: he does not pass «втёмную»"),
    N_("the players are {join}; with bombs.dealer he earns a bomb anyway"),
)
_REDEAL = (
    N_("with 2 players and table.two_all_pass: redeal, two passes are dealt again: no raspasy"),
    N_("drop the line (a redeal is not a deal), or set table.two_all_pass: raspasy"),
)
_RASPASY_MISSING = N_("raspasy needs every player's tricks; missing {join}")
_RASPASY_TOTAL = N_("raspasy tricks add up to {total}, not 10")
#: the hint of a wrong total, without a dealer who sits out and with one
_TOTAL_HINT = (
    N_("check each player's count"),
    N_("check each player's count and the dealer {out}'s talon tricks"),
)
_TALON_NOT_DEALER = N_("{part} plays this deal: only the 4-player dealer, who sits out, takes talon tricks")
#: the hint of talon tricks not the dealer's, with 3 players and with a dealer who sits out
_TALON_HINT = (N_("with 3 players nobody sits out; write 'pass' tricks"), N_("the dealer is {out}"))
_TALON_NONE = (
    N_("{out} deals and sits out, and in this convention the talon takes no tricks"),
    N_("leave the dealer out of raspasy tricks"),
)
_TALON_MOST = N_(
    "{out} deals this deal and sits out: from the talon he can take at most 2 tricks, not {talon}"
)
_SECOND_RASPASY = N_("{second} sits this deal out with the dealer {out}: he takes no raspasy tricks")
_PLAYERS_ARE = N_("the players are {join}")


def _check_counts(a: _At[D]) -> None:
    """Every count is a player's and 0..10: each one that is not reported, then the deal refused."""
    before = len(a.problems)  # (each note adds one, kept or counted)
    for name, count in a.deal.tricks.items():
        if name not in a.seats.players:
            a.note(f"tricks:{name}", *_NOT_AT_TABLE, name=name, join=", ".join(a.seats.players))
        elif not 0 <= count <= 10:
            a.note(f"tricks:{name}", *_COUNT, name=name, count=count)
    if len(a.problems) > before:
        raise _Refused


def _resolve_raspasy(a: _At[Raspasy]) -> Resolved:
    deal, seats, who = a.deal, a.seats, a.seats.sits_out
    # the 4-player dealer sits out: he passes no «втёмную» (K3.3.19 а: a bomb with ``bombs.dealer`` instead)
    if who is not None and who in deal.dark:
        a.dealer_in_play(f"dark:{who}", *_DARK_DEALER, who=who, join=", ".join(seats.active))
    _check_counts(a)
    if seats.dummy and a.conv.two_all_pass == "redeal":
        a.no("", *_REDEAL)
    _raspasy_seats_fit(a)
    # every player's tricks (and the dealer's talon tricks, where the talon takes any), adding up to 10
    missing = [p for p in seats.active if p not in deal.tricks]
    if missing:
        hint = N_("{out} deals and sits out") if who else ""
        a.no("tricks", _RASPASY_MISSING, hint, join=", ".join(missing), out=who)
    counts = [(p, deal.tricks[p]) for p in seats.active]
    if who is not None and a.conv.raspasy_talon_to_dealer:
        counts.append((who, deal.tricks.get(who, 0)))
    total = sum(c for _, c in counts)
    if total != 10:
        a.no("tricks", _RASPASY_TOTAL, _TOTAL_HINT[bool(who)], total=total, out=who)
    return Resolved(deal, seats, "raspasy", tricks=tuple(counts))


def _raspasy_seats_fit(a: _At[Raspasy]) -> None:
    """Only the 4-player dealer, who sits out, takes talon tricks, at most 2 and only where
    the talon takes any; the 5-player second sitter takes none."""
    deal, out = a.deal, a.seats.sits_out
    for part in deal.locs:
        if part.startswith("talon:") and part[6:] != out:
            a.no(part, _TALON_NOT_DEALER, _TALON_HINT[bool(out)], part=part[6:], out=out)
    talon = 0 if out is None else deal.tricks.get(out, 0)
    if out is not None and talon and not a.conv.raspasy_talon_to_dealer:
        a.dealer_in_play(f"tricks:{out}", *_TALON_NONE, out=out)
    if talon > 2:
        a.no(f"tricks:{out}", _TALON_MOST, _PLAYERS_ARE, out=out, talon=talon, join=", ".join(a.seats.active))
    for second in a.seats.sitters[1:]:
        if deal.tricks.get(second, 0) or f"talon:{second}" in deal.locs:
            join = ", ".join(a.seats.active)
            a.dealer_in_play(
                f"tricks:{second}", _SECOND_RASPASY, _PLAYERS_ARE, second=second, out=out, join=join
            )


#: the problems of a contract's checks, as above
_DEALER_BIDS = N_("{declarer} deals this deal and sits out: the 4-player dealer does not bid")
_FIRST_HAND = N_("first hand is {value}; add 'dealer: NAME' if the rotation was different")
_LEFT = (N_("{name!r} is not at the table: he left, or has not joined yet"), N_("players now: {join}"))
_SECOND_OUT = N_("{second} sits this deal out with the dealer {sits_out}: {message}")
_DEALER_CALLS = (
    N_("{name} deals and sits out: he does not pass or go half-whist"),
    N_("a player out may only take the whist the defenders gave up (K3.8.8)"),
)
_DEALER_TRICKS = N_("{sits_out} deals and sits out: he takes no tricks")
_UNPLAYED_TRICKS = (
    N_("both defenders passed: {contract} is not played, so no tricks are written"),
    N_("drop the trick counts, or mark who whisted"),
)
_MUST_CALL = N_("{join} must whist, pass or go half-whist on {contract}")
#: the hint of a missing call, with 3 or more players and with 2
_CALL_HINT = (
    N_("the defenders are {defenders} (first) and {defenders2}"),
    N_("{defenders} defends with the dummy, who always passes"),
)
_NO_HALF_BEFORE_DUMMY = (
    N_("no half-whist here: {who} speaks before the dummy, so the dummy is the second defender (K3.8.7)"),
    N_("{who} whists or passes; table.two_half_whist: any_hand lets him go «за свои» from either hand"),
)
_DECLARER_TRICKS = N_("the declarer {declarer}'s tricks are missing")
_TOTAL = N_("tricks add up to {given_total}, not 10")


def _resolve_play(a: _At[Play]) -> Resolved:
    """A contract: who may bid, call and take tricks at this table, then one reader per kind."""
    deal, conv = a.deal, a.conv
    _play_fits(a)
    defenders = a.seats.after(deal.declarer)
    if deal.talon and conv.premium_enabled and (conv.premium_on_concede or not deal.concede):
        _premium_fits(a)
    if deal.concede:
        return _resolve_concede(a, defenders)
    if deal.contract.is_misere:
        return _resolve_misere(a, defenders)
    returner = next((s for s in a.seats.sitters if s in deal.calls), None)
    if returner is not None:
        return _returned(a, defenders, returner)
    calls = _calls(a, defenders)
    if Call.HALF in calls:
        return _resolve_half(a, defenders, calls)
    whisters = tuple(d for d, c in zip(defenders, calls, strict=True) if c is Call.WHIST)
    if whisters:
        return _resolve_played(a, defenders, whisters)
    if deal.tricks:
        a.no("tricks", *_UNPLAYED_TRICKS, contract=deal.contract)
    return Resolved(deal, a.seats, "unplayed", deal.declarer, deal.contract.level, defenders=defenders)


def _play_fits(a: _At[Play]) -> None:
    """The declarer, the callers and the trick takers are at the table and may play."""
    deal, seats, declarer = a.deal, a.seats, a.deal.declarer
    if declarer == seats.sits_out:
        a.dealer_in_play("declarer", _DEALER_BIDS, _FIRST_HAND, declarer=declarer, value=seats.active[0])
    # after a ``leave`` the log's header still names who left: only the table knows
    for part, name in (("declarer", declarer), *((f"call:{n}", n) for n in deal.calls)):
        if name not in seats.players:
            a.no(part, *_LEFT, name=name, join=", ".join(seats.players))
    # at five the second out sits out as the 4-player dealer does: he may only return the whist (K3.8.8)
    for second in seats.sitters[1:]:
        message = part = ""
        if declarer == second:
            message, part = M_("he does not bid"), "declarer"
        elif deal.calls.get(second, Call.WHIST) is not Call.WHIST:
            message, part = M_("he does not pass or go half-whist"), f"call:{second}"
        elif deal.tricks.get(second) and second not in deal.calls:
            message, part = M_("he takes no tricks"), f"tricks:{second}"
        if message:
            out, first = seats.sits_out, seats.active[0]
            a.dealer_in_play(
                part, _SECOND_OUT, _FIRST_HAND, second=second, sits_out=out, message=message, value=first
            )
    _check_counts(a)
    given_total = sum(deal.tricks.values())
    if given_total > 10:
        a.no("tricks", N_("tricks add up to {given_total}, more than 10"), given_total=given_total)
    out = seats.sits_out
    for name, call in deal.calls.items():
        if name == out and call is not Call.WHIST:
            a.dealer_in_play(f"call:{name}", *_DEALER_CALLS, name=name)
        if name == declarer:
            a.no(f"call:{name}", N_("{name} is the declarer and cannot also defend"), name=name)
    if out is not None and deal.tricks.get(out) and out not in deal.calls:
        a.dealer_in_play(f"tricks:{out}", _DEALER_TRICKS, sits_out=out)


def _resolve_misere(a: _At[Play], defenders: tuple[str, ...]) -> Resolved:
    """A misère: no calls, the declarer's tricks (K3.8.2)."""
    deal, declarer = a.deal, a.deal.declarer
    given_total = sum(deal.tricks.values())
    if deal.calls:
        hint = N_("write only the declarer's tricks, e.g. 'Vera misere 1'")
        a.no("calls", N_("a misère has no whist or pass from the defenders (K3.8.2)"), hint)
    if declarer not in deal.tricks:
        hint = N_("e.g. '{declarer} misere 0'")
        a.no("tricks", N_("the misère needs {declarer}'s tricks"), hint, declarer=declarer)
    if len(deal.tricks) == 3 and given_total != 10:
        a.no("tricks", _TOTAL, given_total=given_total)
    return Resolved(deal, a.seats, "misere", declarer, taken=deal.tricks[declarer], defenders=defenders)


def _calls(a: _At[Play], defenders: tuple[str, ...]) -> tuple[Call, ...]:
    """Each defender's call, first hand first; refused when one is missing or not allowed here."""
    deal = a.deal
    missing = [d for d in defenders if d not in deal.calls]
    if missing:
        hint, first, second = _CALL_HINT[bool(a.seats.dummy)], defenders[0], defenders[-1]
        join = " and ".join(missing)
        a.no("calls", _MUST_CALL, hint, join=join, contract=deal.contract, defenders=first, defenders2=second)
    if a.seats.dummy and deal.calls[defenders[0]] is Call.HALF and not _half_with_dummy(a):
        a.no(f"call:{defenders[0]}", *_NO_HALF_BEFORE_DUMMY, who=defenders[0])
    calls = tuple(deal.calls[d] for d in defenders)
    if a.conv.whist_stalingrad and deal.contract == _STALINGRAD:
        _stalingrad_broken(a, defenders, calls)
    return calls


def _resolve_half(a: _At[Play], defenders: tuple[str, ...], calls: tuple[Call, ...]) -> Resolved:
    """A half-whist (K3.8.7; who and on what level: ``_half_fits``): not played, so no tricks."""
    deal = a.deal
    _half_fits(a, defenders, calls)
    if deal.tricks:
        a.no("tricks", N_("a half-whisted contract is not played: no tricks"))
    level, whisters = deal.contract.level, (defenders[-1],)
    return Resolved(deal, a.seats, "half", deal.declarer, level, defenders=defenders, whisters=whisters)


def _half_fits(a: _At[Play], defenders: tuple[str, ...], calls: tuple[Call, ...]) -> None:
    """A half-whist on an allowed level, by the second defender after the first passed (K3.8.7)."""
    deal, levels = a.deal, a.conv.half_whist_levels
    half_by = f"call:{defenders[calls.index(Call.HALF)]}"
    if deal.contract.level not in levels:
        allowed = ", ".join(str(x) for x in sorted(levels)) or "no contract"
        message = N_("half-whist is not allowed on {contract} (K3.8.7)")
        a.no(half_by, message, N_("allowed on {allowed}"), contract=deal.contract, allowed=allowed)
    # with 2 players the one call is his, the dummy's pass before it (``_half_with_dummy``)
    if calls != ((Call.HALF,) if a.seats.dummy else (Call.PASS, Call.HALF)):
        message = N_("only the second defender may go half-whist, after the first defender passed (K3.8.7)")
        a.no(half_by, message, N_("the first defender here is {first}"), first=defenders[0])


def _half_with_dummy(a: _At[Play]) -> bool:
    """With 2 players the opponent may go half-whist («за свои», seed 001) when the dummy speaks first and
    passes (K3.8.7: the second defender), or from either hand (``table.two_half_whist``).  Bidding: first
    hand, second hand, dealer; the dummy speaks first on first hand if the dealer declares, else on second."""
    dummy_first = a.seats.dummy_hand == "first"
    return a.conv.two_half_whist == "any_hand" or dummy_first == (a.deal.declarer == a.seats.dealer)


def _resolve_played(a: _At[Play], defenders: tuple[str, ...], whisters: tuple[str, ...]) -> Resolved:
    """A contract played against one or two whisters: the declarer's tricks, and each whister's own."""
    deal, declarer, level = a.deal, a.deal.declarer, a.deal.contract.level
    given_total = sum(deal.tricks.values())
    if declarer not in deal.tricks:
        a.no("tricks", M_(_DECLARER_TRICKS, declarer=declarer), f"e.g. '{declarer} {deal.contract} {level}'")
    three = len(deal.tricks) == 3
    if given_total != 10 and (three or len(deal.tricks) == len(a.seats.active) == 2):
        hint = N_("each trick is taken by exactly one player") if three else ""
        a.no("tricks", _TOTAL, hint, given_total=given_total)
    tricks, lone_own = _own_tricks(a, defenders, whisters)
    taken = deal.tricks[declarer]
    return Resolved(deal, a.seats, "played", declarer, level, taken, defenders, whisters, tricks, lone_own)


def _returned(a: _At[Play], defenders: tuple[str, ...], sitter: str) -> Resolved:
    """A returned whist (K3.8.8): both defenders gave the whist up and a player out took it (seed
    001).  Wrong, it is most likely a wrong dealer: ``dealer-in-play``, as ``play_one_cause`` counts."""
    deal, seats, declarer = a.deal, a.seats, a.deal.declarer
    others = [s for s in seats.sitters if s in deal.calls and s != sitter]
    if others:
        hint = N_("the dealer {out} is asked first, then the second out")
        message = N_("only one player out returns the whist (K3.8.8)")
        a.dealer_in_play(f"call:{others[0]}", message, hint, out=seats.sits_out)
    given = [deal.calls.get(d) for d in defenders]
    if Call.WHIST in given or None in given:
        who = defenders[given.index(Call.WHIST if Call.WHIST in given else None)]
        hint = N_("here {who} whists") if who in deal.calls else _MUST_CALL
        message = N_("{sitter} sits out: he returns the whist only when both defenders gave it up (K3.8.8)")
        a.dealer_in_play(
            f"call:{sitter}", message, hint, sitter=sitter, who=who, join=who, contract=deal.contract
        )
    calls = _calls(a, defenders)  # the table's own checks of the defenders' calls
    if Call.HALF in calls:
        _half_fits(a, defenders, calls)  # said as allowed, then given up (K3.8.8.2)
    taken = deal.tricks.get(declarer)
    if taken is None:
        a.no("tricks", M_(_DECLARER_TRICKS, declarer=declarer), f"e.g. '{declarer} {deal.contract} 6'")
    for d in defenders:
        if d in deal.tricks:
            message = N_("{sitter} returned the whist and plays for the side: its tricks are his")
            a.no(f"tricks:{d}", message, N_("write '{sitter} whist {side}'"), sitter=sitter, side=10 - taken)
    if taken + deal.tricks.get(sitter, 10 - taken) != 10:
        a.no("tricks", _TOTAL, given_total=taken + deal.tricks[sitter])
    side, level = 10 - taken, deal.contract.level
    tricks = ((sitter, side),)
    return Resolved(deal, seats, "played", declarer, level, taken, defenders, (sitter,), tricks, side)


#: a lone whister's own tricks that ``whist.lone_whister_made: own`` needs and the log does not give
_OWN_UNKNOWN = (
    N_(
        "with whist.lone_whister_made: own, {whister} writes whists for his own tricks: "
        "give his tricks or the passer's"
    ),
    N_("the side took {value}: write '{whister} whist N' or '{passer} pass N'"),
)


def _own_tricks(
    a: _At[Play], defenders: tuple[str, ...], whisters: tuple[str, ...]
) -> tuple[tuple[tuple[str, int], ...], int | None]:
    """Each whister's own tricks and a lone whister's own count (if told); refused if they cannot be told."""
    deal = a.deal
    taken, level = deal.tricks[deal.declarer], deal.contract.level
    if len(whisters) == 2:
        # one whister's count gives the other's; none given, only a clean sweep tells them
        if taken != 10 and not any(w in deal.tricks for w in whisters):
            message = N_("both whisted: give each whister's tricks ({a} and {b})")
            hint = N_("they took {value} between them")
            a.no("tricks", message, hint, a=whisters[0], b=whisters[1], value=10 - taken)
        rest = 10 - taken - sum(deal.tricks.get(w, 0) for w in whisters)
        return tuple((w, deal.tricks.get(w, rest)) for w in whisters), None
    if a.seats.dummy:
        # he plays the dummy's hand too: the side's tricks are his own (seed 001)
        return ((whisters[0], 10 - taken),), 10 - taken
    whister = whisters[0]
    passer = next(d for d in defenders if d != whister)
    # his own tricks: given, or the side's less the passer's (none when the declarer took all ten)
    lone_own = None
    if whister in deal.tricks or passer in deal.tricks or taken == 10:
        lone_own = deal.tricks.get(whister, 10 - taken - deal.tricks.get(passer, 0))
    # only a made contract writes the lone whister's own tricks under 'own'
    if lone_own is None and a.conv.lone_whister_made == "own" and level <= taken:
        a.no("tricks", *_OWN_UNKNOWN, whister=whister, passer=passer, value=10 - taken)
    return ((whister, 10 - taken),), lone_own


# -- named agreements from the Code's notes (RULES.md 2.3) ---------------------------------

#: the contract that must be whisted by both under ``whist.stalingrad`` (K note 61)
_STALINGRAD = Contract(6, Suit.SPADES)
_NOT_WHISTED = (
    N_("{who} says {call} on 6♠, which both defenders must whist (whist.stalingrad: true)"),
    N_("under Stalingrad a 6♠ is whisted by both; the Code knows no obligatory whist (K3.8.9, K note 61)"),
)


def _stalingrad_broken(a: _At[Play], defenders: tuple[str, ...], calls: tuple[Call, ...]) -> None:
    """``whist.stalingrad``: a 6♠ both defenders did not whist is refused."""
    for who, call in zip(defenders, calls, strict=True):
        if call is not Call.WHIST:
            a.no(f"call:{who}", *_NOT_WHISTED, who=who, call=call)


_CONCEDE_OFF = (
    N_(
        "{declarer} cannot leave «без трёх» on {contract}: the declarer who took the "
        "talon plays to the end (K3.5.4), since leaving без трёх can cost less than "
        "playing and the penalty would favour the offender (K note 40)"
    ),
    N_("contracts.concede_three is false in this convention; a table that agrees to the rule sets it true"),
)
_CONCEDE_PLAYED = (
    N_("{declarer} left «без трёх» without play: nobody whists or takes a trick"),
    N_("write only '{declarer} {contract} concede'"),
)


def _resolve_concede(a: _At[Play], defenders: tuple[str, ...]) -> Resolved:
    """«без трёх» (``contracts.concede_three``, K note 40): the declarer leaves after the
    talon, without play; nobody whists and nobody takes a trick."""
    deal = a.deal
    if not a.conv.concede_three:
        a.no("concede", *_CONCEDE_OFF, declarer=deal.declarer, contract=deal.contract)
    if deal.contract.is_misere:
        a.no("concede", N_("a misère is not conceded «без трёх»: only a game of tricks is (K note 40)"))
    if deal.calls or deal.tricks:
        part = f"call:{next(iter(deal.calls))}" if deal.calls else f"tricks:{next(iter(deal.tricks))}"
        a.no(part, *_CONCEDE_PLAYED, declarer=deal.declarer, contract=deal.contract)
    return Resolved(deal, a.seats, "conceded", deal.declarer, deal.contract.level, defenders=defenders)


_PREMIUM_BY = (
    N_("premium.by: {premium_by} is for a table of {need}, and {n} play here"),
    N_(
        "the dealer writes the talon premium (premium.by: dealer, K3.4.11); with 3 players "
        "the two others may write half each (premium.by: opponents)"
    ),
)


def _premium_fits(a: _At[Play]) -> None:
    """``premium.by`` names writers a table of this size has (else refused, at the talon): the
    dealer has every table (K3.4.11); the two others, half each, only a table of 3."""
    n = len(a.seats.players)
    if a.conv.premium_by == "opponents" and n != 3:
        a.no("talon", *_PREMIUM_BY, premium_by=a.conv.premium_by, need=3, n=n)
