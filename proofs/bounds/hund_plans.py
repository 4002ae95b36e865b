"""Hund's witness plans: rounds in which seat 0 makes the greatest or the least score.

Each suit takes one power in turn (red Trump, yellow Plus, green Hund, blue Minus,
purple Lead; HUND-DESIG-1/2, or one designation set a suit, HUND-OPT-2), and its cards
are played in mono-suit tricks that the plan hands to the seats it needs
(:func:`plan`), under the game's deck, trick judge and follow rule; with two players
the virtual player gets the columns under which its fixed rule plays the plan's cards
(:func:`virtual_columns`, HUND-TWO-2..6). The plans are built from the rules alone, so
that they would also expose a relaxation that cut off real rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tricklaw.model import actions
from tricklaw.model.cards import Card, colour_of, make_card, value_of
from tricklaw.model.rulesets import hund as hund_rules
from tricklaw.model.state import Deal, Game
from tricklaw.model.trick import TrickResult
from tricklaw.proofs.bounds.game import EMPTY, Hint
from tricklaw.proofs.bounds.layout import (
    Accept,
    TrickSpec,
    chunks,
    judge_seat,
    lay_out,
    table_of,
    wins,
)
from tricklaw.proofs.bounds.witness import SEAT, Plan

TRUMP_SUIT, PLUS_SUIT, HUND_SUIT, MINUS_SUIT, LEAD_SUIT = range(5)
"""The suits the Hund plans give the powers (in power order: red Trump, ..., purple Lead):
each suit's first trick, in this order, holds the first card that assigns it a power."""
DESIGNATION = 5
"""The designated number of the Hund witnesses' round in the base game (round 1 may draw
any of 1-5; under ``designation=ascending`` it is 1)."""


def _designation(game: Game) -> tuple[int | None, tuple[Card, ...]]:
    """The witness round's designated number (base game), or its designation sets
    (``designation-mode=sets``, HUND-OPT-2): suit ``i`` names the ``i``-th lowest value,
    so the five sets have different suits and values."""
    rules = hund_rules.rules_of(game)
    if not rules.sets:
        return (1 if rules.ascending else DESIGNATION), ()
    values = list(hund_rules.HUND_RULESET.values(game.players, rules))
    return None, tuple(make_card(suit, values[suit]) for suit in range(5))


def _matches(game: Game, number: int | None, sets: tuple[Card, ...]) -> Callable[[Card], bool]:
    """Whether a card assigns a power in the witness round (HUND-DESIG-1, HUND-OPT-2)."""
    powers = hund_rules.Powers("", number, sets, (), -1, -1, ())
    return lambda card: hund_rules.matches(card, powers, hund_rules.rules_of(game))


def _groups(
    game: Game, suit: int, first: Card, matches: Callable[[Card], bool]
) -> list[list[Card]]:
    """The suit's cards as mono-suit tricks of one card a seat: the first holds ``first``
    (a card that assigns the suit its power) and the highest cards that assign nothing,
    so that it assigns one power only (``set-repeat=stack`` could stack more); the rest
    follow from the highest down, the last trick ascending."""
    seats = game.seats
    values = hund_rules.HUND_RULESET.values(game.players, hund_rules.rules_of(game))
    desc = [make_card(suit, v) for v in sorted(values, reverse=True) if v != value_of(first)]
    fill = sorted(desc, key=lambda c: (matches(c), -value_of(c)))[: seats - 1]
    rest = [c for c in desc if c not in fill]
    groups = [[first, *fill], *chunks(rest, seats)[0]]
    groups[-1] = sorted(groups[-1])
    return groups


def _award(game: Game) -> str:
    """How the greatest-score plan earns seat 0 the Hund award (HUND-FACT-3): ``between``
    the most and the fewest Hund cards, which takes three seats compared; with two (the
    virtual player ignored, HUND-D-VIRTUALHUND) a ``tie`` scores under
    ``hund-tie=scores`` (HUND-D-HUNDTIE), and otherwise no award is possible."""
    rules = hund_rules.rules_of(game)
    compared = game.seats - (1 if game.players == 2 and not rules.virtual_in_hund else 0)
    if compared >= 3 or rules.hund_tie_excludes:
        return "between"
    return "tie"


def _winners(virtual: int | None) -> tuple[Accept, Accept]:
    """Trick outcomes the Hund plans accept: some player wins (never the virtual
    player, so that it never leads), and some player other than seat 0 wins."""
    barred = (None,) if virtual is None else (None, virtual)

    def anyone(winner: int | None, _taken: Mapping[int, tuple[Card, ...]]) -> bool:
        return winner not in barred

    def other(winner: int | None, _taken: Mapping[int, tuple[Card, ...]]) -> bool:
        return winner not in (SEAT, *barred)

    return anyone, other


def _specs(
    groups: Mapping[int, list[list[Card]]], maximize: bool, award: str, virtual: int | None
) -> list[TrickSpec] | None:
    """The tricks of a Hund plan, each suit's first trick first (in power order).

    Least: seat 0 wins every Minus and every Hund trick and no Plus trick: ``-S``, and
    its Hund count is the unique most, which scores under neither ``hund-tie`` reading.
    Greatest: seat 0 wins every Plus trick and no Minus card. For the award ``between``,
    seat 1 wins the Hund tricks but the last, then (having won the last Minus trick)
    leads a Hund card to a trick which seat 0, void in Hund, trumps, taking ``s-1`` Hund
    cards; seat 0 leads its lowest trump to the last trick and loses it with the last
    Hund card: seat 0 has ``s-1`` Hund cards, seat 1 at least ``s``, the others at most
    one. For a ``tie``, seats 0 and 1 win the same number of Hund tricks. The virtual
    player never wins a trick."""
    anyone, other = _winners(virtual)

    def specs(suit: int, accept: Accept, picked: slice) -> list[TrickSpec]:
        return [TrickSpec(tuple(g), accept) for g in groups[suit][picked]]

    first = [slice(0, 1), slice(1, None)]
    trump, hund, minus = groups[TRUMP_SUIT], groups[HUND_SUIT], groups[MINUS_SUIT]
    if not maximize:
        rule = {TRUMP_SUIT: anyone, PLUS_SUIT: other, HUND_SUIT: wins(SEAT)}
        rule |= {MINUS_SUIT: wins(SEAT), LEAD_SUIT: anyone}
        return [spec for part in first for s in range(5) for spec in specs(s, rule[s], part)]
    head = [
        *specs(TRUMP_SUIT, anyone, first[0]),
        *specs(PLUS_SUIT, wins(SEAT), first[0]),
        *specs(HUND_SUIT, wins(1), first[0]),
        *specs(MINUS_SUIT, other, first[0]),
        *specs(LEAD_SUIT, anyone, first[0]),
        *specs(PLUS_SUIT, wins(SEAT), first[1]),
        *specs(LEAD_SUIT, anyone, first[1]),
    ]
    if award == "tie":
        if len(hund) % 2:
            return None
        split = [TrickSpec(tuple(g), wins(i % 2)) for i, g in enumerate(hund[1:])]
        rest = [*specs(TRUMP_SUIT, anyone, first[1]), *specs(MINUS_SUIT, other, first[1])]
        return [*head, *split, *rest]
    last_trumps, last_hunds = trump[-1], hund[-1]
    return [
        *head,
        *specs(HUND_SUIT, wins(1), slice(1, -1)),
        *specs(TRUMP_SUIT, anyone, slice(1, -1)),
        *specs(MINUS_SUIT, other, slice(1, -1)),
        TrickSpec(tuple(minus[-1]), wins(1)),
        TrickSpec((*last_hunds[1:], last_trumps[-1]), wins(SEAT), {SEAT: last_trumps[-1]}),
        TrickSpec((*last_trumps[:-1], last_hunds[0]), other, {SEAT: last_trumps[0]}),
    ]


def _stacked_specs(game: Game, maximize: bool) -> list[TrickSpec] | None:
    """The tricks of a Hund plan for designation sets matched by value whose repeats
    stack (HUND-D-SETMATCH, HUND-D-SETREPEAT) when a suit has too few cards that match
    no set for a mono-suit trick with one matching card: six cards a suit, three seats,
    five of the six values matching. A mono-suit trick then hands its suit two powers,
    so the opening is mixed instead (``A``..``E`` the five suits, ``top`` each suit's
    card that matches nothing, ``m1 > m2 > ...`` its matching ones):

    * ``A top, A m1, A m2``: Trump, then Plus, to ``A``;
    * ``B m1, B top, D top``: Hund to ``B`` (the seat playing ``D top`` holds no ``B``);
    * ``C m1, C top, E top``: Minus to ``C`` (likewise void in ``C``);
    * then ``A``'s other three cards, ``B`` and ``C``'s other four each with a card of
      ``D`` / ``E`` from the void seat, and ``D``, ``E``'s last three cards each.

    Greatest: seat 0 takes every ``A`` card (Plus, and trumps), two of the six ``B``
    cards against seat 1's four (the award), no ``C`` card. Least: every ``C`` and
    every ``B`` card (the unique most Hund cards), no ``A`` card."""
    if game.seats != 3:
        return None
    rules = hund_rules.rules_of(game)
    values = sorted(hund_rules.HUND_RULESET.values(game.players, rules), reverse=True)
    a, b, c, d, e = ([make_card(suit, v) for v in values] for suit in range(5))
    anyone, other = _winners(hund_rules.VIRTUAL if game.players == 2 else None)
    hund_to = (wins(1), wins(1), wins(SEAT)) if maximize else (wins(SEAT),) * 3
    plus_to, minus_to = (wins(SEAT), other) if maximize else (other, wins(SEAT))
    return [
        TrickSpec((a[0], a[1], a[2]), plus_to),
        TrickSpec((b[1], b[0], d[0]), hund_to[0]),
        TrickSpec((c[1], c[0], e[0]), minus_to),
        TrickSpec((a[3], a[4], a[5]), plus_to),
        TrickSpec((b[4], b[5], e[1]), hund_to[2]),
        TrickSpec((b[2], b[3], d[1]), hund_to[1]),
        TrickSpec((c[2], c[3], d[2]), minus_to),
        TrickSpec((c[4], c[5], e[2]), minus_to),
        TrickSpec((d[3], d[4], d[5]), anyone),
        TrickSpec((e[3], e[4], e[5]), anyone),
    ]


def _judges(
    game: Game, specs: Sequence[TrickSpec], number: int | None, sets: tuple[Card, ...]
) -> list[TrickSpec]:
    """``specs`` with each trick judged by the model under the powers held before it
    (the plan's order), its own cards assigning powers as they fall (dispute
    ``trump-timing``, HUND-D-TRUMPTIMING)."""
    letters = game.ruleset.palette.letters
    base = {"designation": str(number)} if number is not None else {}
    if sets:
        base = {"sets": ",".join(game.ruleset.palette.format_all(sets))}
    holders: tuple[int, ...] = ()
    out = []
    for spec in specs:
        context = {**base, "powers": ",".join(letters[h] for h in holders)}

        def judge(cards: tuple[Card, ...], context: dict[str, str] = context) -> TrickResult:
            return game.ruleset.judge_trick(game, cards, context)

        out.append(TrickSpec(spec.cards, spec.accept, spec.pins, judge))
        powers = hund_rules.Powers("", number, sets, holders, -1, -1, ())
        for card in sorted(spec.cards):
            if hund_rules.matches(card, powers, hund_rules.rules_of(game)):
                holders = hund_rules.assign(holders, card, hund_rules.rules_of(game))
                powers = hund_rules.Powers("", number, sets, holders, -1, -1, ())
    return out


def plan(game: Game, maximize: bool, hint: Hint = EMPTY) -> Plan | None:
    """A Hund round in which red, yellow, green, blue and purple take the powers Trump,
    Plus, Hund, Minus and Lead in turn (HUND-DESIG-1/2; with designation sets, one set a
    suit, HUND-OPT-2): each suit's cards form mono-suit tricks (``_groups``),
    played as ``_specs`` says, under the game's deck (``values``,
    ``more-cards``), trick judge and follow rule.

    With two players the virtual player (seat 2) gets columns under which its fixed rule
    plays the plan's cards (:func:`virtual_columns`)."""
    number, sets = _designation(game)
    matches = _matches(game, number, sets)
    firsts = sets or tuple(make_card(suit, number or 0) for suit in range(5))
    groups = {suit: _groups(game, suit, firsts[suit], matches) for suit in range(5)}
    virtual = hund_rules.VIRTUAL if game.players == 2 else None
    stack = hund_rules.rules_of(game).set_repeat_stack
    if any(sum(map(matches, g[0])) > 1 for g in groups.values()) and stack:
        specs = _stacked_specs(game, maximize)
    else:
        specs = _specs(groups, maximize, _award(game), virtual)
    if specs is None:
        return None
    specs = _judges(game, specs, number, sets)
    tricks = lay_out(table_of(game), specs, first_leader=SEAT, ordered=True)
    if tricks is None:
        return None
    hands = [tuple(sorted(t[s] for t in tricks)) for s in range(game.players)]
    piles: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    if virtual is not None:
        rows = _virtual_rows(game, specs, tricks)
        if rows is None:
            return None
        hands.append(())
        piles = (("virtual-down", rows[0]), ("virtual-up", rows[1]))
    extras = (("designation", number),) if number is not None else ()
    opening = tuple(actions.designate(card) for card in sets)
    return Plan(Deal(tuple(hands), piles, extras=extras), tricks, opening=opening)


def _virtual_rows(
    game: Game, specs: Sequence[TrickSpec], tricks: Sequence[Mapping[int, Card]]
) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """The virtual player's face-down and face-up rows for the laid-out ``tricks``."""
    virtual = hund_rules.VIRTUAL
    table = table_of(game)
    leaders = [SEAT]
    for spec, trick in zip(specs, tricks, strict=True):
        winner = judge_seat(spec.judge or table.judge, trick, leaders[-1], game.seats)
        leaders.append(leaders[-1] if winner is None else winner)
    plays = [t[virtual] for t in tricks]
    leads = [
        None if leaders[i] == virtual else colour_of(t[leaders[i]]) for i, t in enumerate(tricks)
    ]
    size = len(plays)
    downs = size // 2 if hund_rules.rules_of(game).extra_up else size - size // 2
    return virtual_columns(plays, leads, downs)


# --- the virtual player's columns ------------------------------------------------------


def virtual_columns(
    plays: Sequence[Card], leads: Sequence[int | None], downs: int
) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """Rows (face-down, face-up; column ``i`` is the ``i``-th face-up card on the ``i``-th
    face-down one, HUND-TWO-2) under which the virtual player's fixed rule plays
    ``plays[t]`` in trick ``t`` whose lead suit is ``leads[t]`` (None: it leads), or None.

    The rule (HUND-TWO-4..6): the leftmost face-up card of the lead suit, else the
    leftmost face-up card; after each trick a face-down card with nothing on it turns up.
    A column with one card only (an odd hand, dispute ``virtual-odd``) is the rightmost.

    A depth-first search over the plays in order: each card goes face up into a new
    column (seen from the start), or face down under a column whose face-up card is
    already played (seen from the trick after), or into the single column. A card seen
    in an earlier trick ``τ`` must not have been the rule's choice there: it puts the
    column played from at ``τ`` left of its own (or, when it is of a suit the virtual
    player did not follow, rules the layout out). The columns are then ordered by those
    constraints."""
    size = len(plays)
    pairs = min(size - downs, downs)
    single_kind = "down" if downs > size - downs else ("up" if downs < size - downs else "")
    single = pairs  # the single column's index: it is the rightmost
    column: dict[int, int] = {}  # play index -> its column
    roles: dict[int, str] = {}  # play index -> "up", "down" or "single"
    up_time: dict[int, int] = {}  # pair column -> when its face-up card is played
    filled: set[int] = set()  # pair columns whose face-down card is placed
    before: set[tuple[int, int]] = set()

    def reaches(a: int, b: int) -> bool:
        seen, todo = {a}, [a]
        while todo:
            x = todo.pop()
            if x == b:
                return True
            for p, q in before:
                if p == x and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return False

    def constrain(card: Card, col: int, seen_from: int, t: int) -> list[tuple[int, int]] | None:
        added: list[tuple[int, int]] = []
        for tau in range(seen_from, t):
            lead, mine = leads[tau], column[tau]
            followed = lead is not None and colour_of(plays[tau]) == lead
            if followed and colour_of(card) != lead:
                continue
            bad = (lead is not None and not followed and colour_of(card) == lead) or mine == single
            if bad or mine == col or reaches(col, mine):
                before.difference_update(added)
                return None
            if (mine, col) not in before:
                before.add((mine, col))
                added.append((mine, col))
        return added

    def search(t: int) -> bool:
        single_left = bool(single_kind) and "single" not in roles.values()
        needed = 2 * (pairs - len(up_time)) + len(up_time) - len(filled) + single_left
        if needed != size - t:
            return False
        if t == size:
            return True
        options = [("up", len(up_time), 0)] if len(up_time) < pairs else []
        options += [("down", c, up_time[c] + 1) for c in sorted(up_time) if c not in filled]
        if single_left and (single_kind == "up" or t >= 1):
            options.append(("single", single, 0 if single_kind == "up" else 1))
        for role, col, seen_from in options:
            added = constrain(plays[t], col, seen_from, t)
            if added is None:
                continue
            column[t], roles[t] = col, role
            if role == "up":
                up_time[col] = t
            if role == "down":
                filled.add(col)
            if search(t + 1):
                return True
            del column[t], roles[t]
            if role == "up":
                del up_time[col]
            if role == "down":
                filled.discard(col)
            before.difference_update(added)
        return False

    if not search(0):
        return None
    order = _topological(pairs, {(a, b) for a, b in before if single not in (a, b)})
    if order is None:
        return None
    up_row = {col: plays[t] for t, col in column.items() if roles[t] == "up"}
    down_row = {col: plays[t] for t, col in column.items() if roles[t] == "down"}
    single_card = [plays[t] for t, role in roles.items() if role == "single"]
    down = tuple(down_row[c] for c in order) + (tuple(single_card) if single_kind == "down" else ())
    up = tuple(up_row[c] for c in order) + (tuple(single_card) if single_kind == "up" else ())
    return down, up


def _topological(size: int, before: set[tuple[int, int]]) -> list[int] | None:
    order: list[int] = []
    left = set(range(size))
    while left:
        free = sorted(c for c in left if not any((o, c) in before for o in left))
        if not free:
            return None
        order.append(free[0])
        left.remove(free[0])
    return order
