"""The YAML log (INTERFACE.md "A log in YAML"): a header (``header.read_top``) and a list of
deals, each a mapping or one line of the line format, every value type-checked as written."""

from __future__ import annotations

from dataclasses import replace

from pulyacalc.core.errors import Loc, Problem, Problems, ReadError
from pulyacalc.core.i18n import M_, N_
from pulyacalc.core.model import (
    CALL_SPELLINGS,
    CARDS_HINT,
    CORRECTION_WORDS,
    SEAT_WORDS,
    Call,
    Card,
    Contract,
    ContractError,
    Correction,
    Deal,
    Header,
    Log,
    Play,
    Raspasy,
    SeatChange,
    Unreadable,
)
from pulyacalc.logs.header import LOG_KEYS, HeaderBuilder, player_named, read_top, unknown_key
from pulyacalc.logs.lines import DealText, parse_deal_line
from pulyacalc.logs.seat import parse_seat, parse_seat_line, starts_with
from pulyacalc.yamlsource import MAX_YAML_BYTES, Node, as_bool, as_int, as_str, parse_yaml

DEAL_KEYS = (
    "declarer",
    "contract",
    "defenders",
    "tricks",
    "raspasy",
    "dealer",
    "note",
    "correction",
    "talon",
    "concede",
    "dark",
)


def parse(text: str, file: str, problems: Problems, *, max_bytes: int | None = None) -> Log:
    root = parse_yaml(text, file, max_bytes=max_bytes or MAX_YAML_BYTES)
    if root.kind != "map":
        raise ReadError([Problem(root.loc, M_("a YAML log is a mapping: players:, deals:, …"))])
    builder = HeaderBuilder(file, problems)
    deals_node = read_top(root, builder, LOG_KEYS).get("deals")
    header = builder.build()
    if header is None:
        problems.raise_if_any()
        raise AssertionError("header problems were reported")
    header_ok = not problems
    deals: list[Deal | Correction | SeatChange | Unreadable] = []
    if deals_node is None or deals_node.kind != "seq":  # none, or not a list (said unless empty)
        if deals_node is not None and not deals_node.null:
            problems.add(deals_node.loc, M_("deals: expected a list of deals (each starting with '- ')"))
        return Log(header, deals, header_ok)
    table = header  # a newcomer's name is known from his join on (RULES.md 6.3)
    read: dict[str, tuple[DealText, int]] = {}  # each deal's text read once
    bad: dict[str, tuple[list[Problem], int]] = {}  # and each wrong one
    for item in deals_node.items:
        if item.kind == "scalar" and not item.null and item.text in bad:
            found, column = bad[item.text]  # a scalar's problems: on its first line
            problems.again(found, item.loc.line, item.loc.column - column)
            deals.append(Unreadable(item.loc))
            continue
        kept, counted = len(problems.items), len(problems)
        deal = parse_deal(item, table, problems, read)
        deals.append(deal if deal is not None else Unreadable(item.loc))
        if deal is None and item.kind == "scalar" and not item.null and BAD_TEXTS:
            # told again unread if all its problems were kept (500,000 wrong deals: a close-name search each)
            found = problems.items[kept:]
            if len(found) == len(problems) - counted and all(p.loc.line == item.loc.line for p in found):
                if len(bad) >= BAD_TEXTS:
                    bad.clear()
                bad[item.text] = (found, item.loc.column)
        if isinstance(deal, SeatChange) and deal.change == "join" and deal.player not in table.players:
            table = replace(table, players=(*table.players, deal.player))
            read.clear()  # the names read before may read otherwise now
            bad.clear()
    return Log(header, deals, header_ok)


#: deal texts that could not be read, kept with their problems (emptied when full)
BAD_TEXTS = 10_000
#: a value of the wrong kind (``_wrong``)
_DEAL_SHAPE = N_(
    "a deal is a mapping or one line like 'Anna 6♠ 7, Boris whist 2, Vera pass 1', got {describe}"
)
_DARK_SHAPE = N_(
    "dark: expected a list of the players who passed «втёмную», like [Anna, Boris], got {describe}"
)
_TALON_SHAPE = N_("talon: expected a list of one or two cards like [A♠, K♠], got {describe}")
_TRICKS_SHAPE = N_("tricks: expected a mapping like {{Anna: 7, Boris: 2, Vera: 1}}, got {describe}")


def _wrong(node: Node, problems: Problems, message: str) -> None:
    """``message`` at a value of the wrong kind, saying what it is."""
    problems.add(node.loc, M_(message, describe=node.describe()))


def _seat(node: Node, header: Header, problems: Problems) -> SeatChange | None:
    """``{join: NAME}`` / ``{leave: NAME}``, a note allowed (RULES.md 6.3)."""
    (k, v), rest = node.pairs[0], node.pairs[1:]
    note = None
    for k2, v2 in rest:
        if k2.text.strip() != "note":
            only_note = M_("only a note may go with it")
            problems.add(k2.loc, M_("a seat change has no {strip!r}", strip=k2.text.strip()), only_note)
            return None
        note = as_str(v2, problems, "note")
    name = as_str(v, problems, k.text.strip())
    if name is None:
        return None
    return parse_seat(k.text.strip(), name, node.loc, v.loc, header.players, problems, note=note)


def parse_deal(
    node: Node, header: Header, problems: Problems, read: dict[str, tuple[DealText, int]] | None = None
) -> Deal | Correction | SeatChange | None:
    """One item of ``deals:``; ``read``: the deal lines read so far (``parse_deal_line``)."""
    if node.kind == "scalar" and not node.null:
        if starts_with(node.text, header.players, SEAT_WORDS):
            return parse_seat_line(node.text, node.loc, header.players, problems)
        if starts_with(node.text, header.players, CORRECTION_WORDS, numbered=True):
            from pulyacalc.logs.correction import parse_correction_line

            return parse_correction_line(node.text, node.loc, header.players, problems)
        return parse_deal_line(node.text, node.loc, header.players, problems, cache=read)
    if node.kind != "map":
        _wrong(node, problems, _DEAL_SHAPE)
        return None
    if node.pairs and node.pairs[0][0].text.strip().casefold() in SEAT_WORDS:
        return _seat(node, header, problems)
    before = len(problems)
    fields = _deal_fields(node, problems)
    dealer = (
        player_named(fields["dealer"], header.players, problems, "dealer") if "dealer" in fields else None
    )
    note = _note(fields["note"], problems) if "note" in fields else None
    if "correction" in fields:  # not a deal (RULES.md 2.9): a note may go with it, nothing else
        extra = [k for k in fields if k not in ("correction", "note")]
        if extra:
            only_note = M_("only a note may go with it")
            problems.add(fields[extra[0]].loc, M_("a correction has no {extra!r}", extra=extra[0]), only_note)
            return None
        from pulyacalc.logs.correction import parse_correction_yaml  # only when one is there

        return parse_correction_yaml(fields["correction"], node.loc, header.players, problems, note)
    if "raspasy" not in fields:
        return _play(node, fields, header, problems, before, dealer, note)
    locs: dict[str, Loc] = {}
    extra = [k for k in ("declarer", "contract", "defenders", "tricks", "talon", "concede") if k in fields]
    if extra:
        example = M_("write raspasy: {Anna: 4, Boris: 1, Vera: 5}")
        problems.add(fields[extra[0]].loc, M_("a raspasy deal has no {extra!r}", extra=extra[0]), example)
    tricks = _tricks(fields["raspasy"], header, problems, locs)
    locs["tricks"] = fields["raspasy"].loc
    dark = _dark_passers(fields["dark"], header, problems, locs) if "dark" in fields else ()
    if len(problems) != before or tricks is None or dark is None:
        return None
    return Raspasy(tricks, dealer, note, node.loc, locs, dark=dark)


def _note(node: Node, problems: Problems) -> str | None:
    """A deal's note: text (a list or a mapping would be lost on the way to a line)."""
    if node.kind == "scalar":
        return node.text
    problems.add(node.loc, M_("{what}: expected text, got {describe}", what="note", describe=node.describe()))
    return None


def _deal_fields(node: Node, problems: Problems) -> dict[str, Node]:
    """A deal mapping's values by key; an unknown key is reported and left out."""
    fields: dict[str, Node] = {}
    for k, v in node.pairs:
        key = k.text.strip()
        if key in DEAL_KEYS:
            fields[key] = v
        else:
            unknown_key(problems, k.loc, M_("unknown key {key!r} in a deal", key=key), key, DEAL_KEYS)
    return fields


def _play(
    node: Node,
    fields: dict[str, Node],
    header: Header,
    problems: Problems,
    before: int,
    dealer: str | None,
    note: str | None,
) -> Play | None:
    """A deal with a contract; None when a problem was reported."""
    for need in ("declarer", "contract"):
        if need not in fields:
            example = M_("e.g. declarer: Anna, contract: 6♠, defenders: {Boris: whist, Vera: pass}")
            problems.add(node.loc, M_("a deal needs {need!r} (or 'raspasy:')", need=need), example)
    if len(problems) != before:
        return None
    cnode = fields["contract"]
    locs: dict[str, Loc] = {"declarer": fields["declarer"].loc, "contract": cnode.loc}
    declarer = player_named(fields["declarer"], header.players, problems, "declarer")
    contract = None
    try:
        contract = Contract.parse(cnode.text if cnode.kind == "scalar" else "")
    except ContractError as e:
        problems.add(cnode.loc, e.message, e.hint)
    calls: dict[str, Call] = {}
    if "defenders" in fields:
        _defenders(fields["defenders"], header, problems, calls, locs)
    elif contract is not None and not contract.is_misere:
        locs["calls"] = node.loc
    counts: dict[str, int] = {}
    if "tricks" in fields:
        locs["tricks"] = fields["tricks"].loc
        counts = _tricks(fields["tricks"], header, problems, locs) or {}
    talon = _talon(fields["talon"], problems, locs) if "talon" in fields else ()
    flags = {"concede": False, "dark": False}
    for key, what in (("concede", "concede"), ("dark", "dark (the declarer bid «втёмную»: true or false)")):
        if key in fields:
            flags[key] = bool(as_bool(fields[key], problems, what))
            locs[key] = fields[key].loc
    if len(problems) != before or declarer is None or contract is None or talon is None:
        return None
    c, d = flags["concede"], flags["dark"]
    return Play(
        declarer, contract, calls, counts, dealer, note, node.loc, locs, talon=talon, concede=c, dark=d
    )


def _defenders(
    node: Node, header: Header, problems: Problems, calls: dict[str, Call], locs: dict[str, Loc]
) -> None:
    """``defenders: {Boris: whist, Vera: pass}`` read into ``calls``."""
    locs["calls"] = node.loc
    if node.kind != "map":
        problems.add(node.loc, M_("defenders: expected a mapping like {Boris: whist, Vera: pass}"))
        return
    for k, v in node.pairs:
        who = player_named(k, header.players, problems, "defender")
        word = v.text.strip().lower() if v.kind == "scalar" else ""
        call = CALL_SPELLINGS.get(word)
        if call is None:
            unknown = M_("unknown call {describe}", describe=v.describe())
            problems.add(v.loc, unknown, M_("use whist, pass or half"))
        if who is not None and call is not None:
            if who in calls:
                problems.add(k.loc, M_("{who} is named twice among the defenders", who=who))
            calls[who] = call
            locs[f"call:{who}"] = k.loc


def _dark_passers(
    node: Node, header: Header, problems: Problems, locs: dict[str, Loc]
) -> tuple[str, ...] | None:
    """``dark: [Anna, Boris]``: who passed «втёмную» before a raspasy (K3.3.19 а)."""
    locs["dark"] = node.loc
    if node.kind != "seq":
        _wrong(node, problems, _DARK_SHAPE)
        return None
    out: list[str] = []
    for item in node.items:
        who = player_named(item, header.players, problems, "dark")
        if who is None:
            return None
        if who in out:
            problems.add(item.loc, M_("dark: {who} is named twice", who=who))
            return None
        out.append(who)
        locs[f"dark:{who}"] = item.loc
    return tuple(out)


def _talon(node: Node, problems: Problems, locs: dict[str, Loc]) -> tuple[Card, ...] | None:
    """``talon: [A♠, K♠]``: the talon's cards (K3.4.11), at most two, none twice."""
    locs["talon"] = node.loc
    if node.kind != "seq" or not node.items:
        _wrong(node, problems, _TALON_SHAPE)
        return None
    cards: list[Card] = []
    for item in node.items:
        try:
            card = Card.parse(item.text if item.kind == "scalar" else "")
        except ValueError:
            unknown = M_("talon: unknown card {describe}", describe=item.describe())
            problems.add(item.loc, unknown, M_(CARDS_HINT))
            return None
        if card in cards:
            twice = M_("talon: {card} is given twice: the pack has one of each card", card=card)
            problems.add(item.loc, twice)
        elif len(cards) == 2:
            third = M_("talon: a third card {card}: the talon holds two cards", card=card)
            problems.add(item.loc, third, M_("give at most two"))
        else:
            cards.append(card)
            continue
        return None
    return tuple(cards)


def _tricks(node: Node, header: Header, problems: Problems, locs: dict[str, Loc]) -> dict[str, int] | None:
    if node.kind != "map":
        _wrong(node, problems, _TRICKS_SHAPE)
        return None
    out: dict[str, int] = {}
    for k, v in node.pairs:
        who = player_named(k, header.players, problems, "tricks")
        count = as_int(v, problems, M_("tricks of {text}", text=k.text), low=0, high=10)
        if who is not None and count is not None:
            if who in out:
                problems.add(k.loc, M_("{who}'s tricks are given twice", who=who))
            out[who] = count
            locs[f"tricks:{who}"] = v.loc
    return out
