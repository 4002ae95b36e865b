"""The witness planners: for each ruleset, a round in which seat 0 makes the least or
the greatest score, as a :class:`~tricklaw.proofs.witnesses.Plan`.

The plans are designed from the rules (and, for Sticheln, from the relaxation's
optimum); :func:`~tricklaw.proofs.witnesses.drive` replays them through the model.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tricklaw.errors import TricklawError
from tricklaw.model.cards import Card, colour_of, make_card, value_of
from tricklaw.model.rulesets import hund as hund_rules
from tricklaw.model.rulesets import the_last as last_rules
from tricklaw.model.state import Deal, Game
from tricklaw.model.trick import TrickResult
from tricklaw.proofs.witnesses import (
    SEAT,
    Accept,
    Judge,
    Plan,
    TrickSpec,
    by_colour_desc,
    chunks,
    deck_shape,
    first_leader,
    judge_seat,
    lay_out,
    loses,
    model_judge,
    takes_nothing,
    wins,
)

# --- Sticheln witnesses ------------------------------------------------------------------


def _sticheln_winnable(judge: Judge, cards: Sequence[Card]) -> bool:
    """Whether seat 0 can win a trick of ``cards``: leading it, or playing right after
    another seat's lead (so that it is the earliest of equal trumps, STI93-TRICK-6,
    STI-TRICK-3)."""
    pool = sorted(cards)
    for own in pool:
        rest = [c for c in pool if c != own]
        if judge((own, *rest)).winner == 0:
            return True
        for lead in rest:
            others = [c for c in rest if c != lead]
            if judge((lead, own, *others)).winner == 1:
                return True
    return False


def _pick_subsets(
    judge: Judge, pool: list[Card], required: list[Card], count: int, size: int
) -> list[list[Card]] | None:
    """``count`` disjoint tricks of ``size`` cards from ``pool`` that seat 0 can win,
    together holding every card of ``required`` (first found, in ``pool`` order)."""
    if count == 0:
        return [] if not required else None
    for combo in itertools.combinations(pool, size):
        if required and required[0] not in combo:
            continue
        if not _sticheln_winnable(judge, combo):
            continue
        rest_pool = [c for c in pool if c not in combo]
        rest_required = [c for c in required if c not in combo]
        more = _pick_subsets(judge, rest_pool, rest_required, count - 1, size)
        if more is not None:
            return [list(combo), *more]
    return None


def sticheln_plan(game: Game, hint: Mapping[str, Any]) -> Plan | None:
    """A Sticheln round realising the relaxation's optimum ``hint``: seat 0 picks the
    misery card of value ``pick``, wins tricks holding the misery cards ``taken`` and
    ``others`` cards of other colours, and loses every other trick.

    Won tricks: misery cards and each other colour cut into mono-colour tricks
    (highest first, seat 0 holding the top card); the rest, padded with zeros of
    other colours (which are never trumps) or won by a trump, form mixed tricks.
    Lost tricks: the remaining cards cut the same way, seat 0 never holding the
    winning card; the other seats pick cards left over. The trick order is searched so
    that tricks seat 0 can only win by trumping come after a lost trick."""
    n = game.players
    judge = model_judge(game)
    colours, _ = deck_shape(game.ruleset, game)
    misery = colours[0]
    deck = list(game.ruleset.deck(n, game.options))
    pick = make_card(misery, hint["pick"])
    misery_taken = [make_card(misery, v) for v in sorted(hint["taken"], reverse=True)]
    others = [c for c in deck if colour_of(c) != misery]
    zeros = [c for c in others if value_of(c) == 0]
    candidates = others if hint["others"] > len(zeros) else zeros
    won_chunks: list[list[Card]] = []
    pool: list[Card] = []
    for group in [misery_taken, *by_colour_desc(candidates).values()]:
        full, rest = chunks(group, n)
        won_chunks += full
        pool += rest
    required = [c for c in pool if colour_of(c) == misery]
    mixed = _pick_subsets(
        judge,
        sorted(pool, key=lambda c: (-value_of(c), c)),
        required,
        hint["tricks"] - len(won_chunks),
        n,
    )
    if mixed is None:
        return None
    won = won_chunks + mixed
    won_cards = {c for chunk in won for c in chunk}
    left = [c for c in deck if c != pick and c not in won_cards]
    lost_chunks: list[list[Card]] = []
    leftover: list[Card] = []
    for group in by_colour_desc(left).values():
        full, rest = chunks(group, n)
        lost_chunks += full
        leftover += rest
    leftover.sort(key=lambda c: (-value_of(c), c))
    for others_picks in itertools.islice(itertools.combinations(leftover, n - 1), 200):
        rest = [c for c in leftover if c not in others_picks]
        mixed_lost, spare = chunks(rest, n)
        if spare:
            return None
        specs = [TrickSpec(tuple(chunk), wins(SEAT)) for chunk in won]
        specs += [
            TrickSpec(tuple(chunk), takes_nothing(SEAT)) for chunk in lost_chunks + mixed_lost
        ]
        tricks = lay_out(judge, specs, first_leader=first_leader(game), seats=n, ordered=False)
        if tricks is None:
            continue
        picks = {SEAT: pick, **{s + 1: c for s, c in enumerate(others_picks)}}
        hands = tuple(tuple(sorted([picks[s], *[t[s] for t in tricks]])) for s in range(game.seats))
        return Plan(Deal(hands), tricks, picks)
    return None


# --- lowhigh witnesses -------------------------------------------------------------------


def lowhigh_plan(game: Game, maximize: bool) -> Plan:
    """A lowhigh round of mono-colour tricks (everyone follows the lead colour; each
    colour holds ``3n`` values, three tricks of ``n``).

    Greatest: in each colour seat 0 plays the lowest card of two tricks whose highest
    cards are the colour's top two values, so it gains exactly those two cards (LH-TRICK-4)
    and scores their sum; in the third trick it plays a middle card and gains nothing.
    Least: seat 0 plays a middle card in every trick and gains nothing."""
    n = game.players
    judge = model_judge(game)
    specs: list[TrickSpec] = []
    for cards in by_colour_desc(game.ruleset.deck(n, game.options)).values():
        asc = sorted(cards)
        if not maximize:
            specs += [
                TrickSpec(tuple(asc[i : i + n]), takes_nothing(SEAT)) for i in range(0, 3 * n, n)
            ]
            continue
        top, second = asc[-1], asc[-2]
        first = (top, asc[0], *asc[2:n])
        other = (second, asc[1], *asc[n : 2 * n - 2])
        middle = tuple(c for c in asc if c not in first and c not in other)
        specs += [
            TrickSpec(first, _gains_exactly(SEAT, (top,))),
            TrickSpec(other, _gains_exactly(SEAT, (second,))),
            TrickSpec(middle, takes_nothing(SEAT)),
        ]
    tricks = lay_out(judge, specs, first_leader=first_leader(game), seats=n, ordered=True)
    if tricks is None:
        raise TricklawError("no layout for the lowhigh plan")
    hands = tuple(tuple(sorted(t[s] for t in tricks)) for s in range(n))
    return Plan(Deal(hands), tricks)


def _gains_exactly(seat: int, cards: tuple[Card, ...]) -> Accept:
    return lambda _winner, taken: tuple(sorted(taken.get(seat, ()))) == tuple(sorted(cards))


# --- The Last witnesses ------------------------------------------------------------------


def _compositions(total: int, parts: int, cap: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` numbers in ``0..cap``."""
    if parts == 1:
        if 0 <= total <= cap:
            yield (total,)
        return
    for first in range(min(total, cap) + 1):
        for rest in _compositions(total - first, parts - 1, cap):
            yield (first, *rest)


def _last_points(game: Game, maximize: bool) -> Iterator[list[Card]]:
    """Candidate points piles, top first. Greatest penalty: the ``H`` highest cards turned
    up first (which of several equal values is tried in turn), then fillers, each colour's
    highest remaining cards. Least: any numbers of cards per colour."""
    deck = list(game.ruleset.deck(game.players, game.options))
    hand = last_rules.HAND_SIZE[game.players]
    size = len(deck) - game.seats * hand
    colours = sorted({colour_of(c) for c in deck})
    if not maximize:
        for counts in _compositions(size, len(colours), 12):
            by_colour = by_colour_desc(deck)
            yield [
                c for colour, n in zip(colours, counts, strict=True) for c in by_colour[colour][:n]
            ]
        return
    ranked = sorted(deck, key=lambda c: -value_of(c))
    edge = value_of(ranked[hand - 1])
    sure = [c for c in deck if value_of(c) > edge]
    ties = [c for c in deck if value_of(c) == edge]
    for chosen in itertools.combinations(ties, hand - len(sure)):
        turned = sure + list(chosen)
        rest = by_colour_desc([c for c in deck if c not in turned])
        for counts in _compositions(size - hand, len(colours), 12):
            if any(
                n > len(rest.get(colour, [])) for colour, n in zip(colours, counts, strict=True)
            ):
                continue
            fill = [c for colour, n in zip(colours, counts, strict=True) for c in rest[colour][:n]]
            yield turned + fill


def last_plan(game: Game, maximize: bool) -> Plan | None:
    """A round of The Last, seat 0 leading the first trick.

    Greatest penalty: the points pile turns up the ``H`` highest cards; seat 0 wins every
    trick (holding the highest card of each mono-colour trick, so that the last card's
    colour is its own, LAST-TRICK-2/3) and keeps every points card face down. Least:
    seat 0 never holds the winning card and lays nothing down. The cards in hands are cut
    into mono-colour tricks (everyone can follow, LAST-PLAY-2/3); the few left over form
    the last trick, when every hand holds one card and any card may be played. With two
    players the ghost (seat 2) gets its pile in the order of its plays."""
    seats = game.seats
    judge = model_judge(game)
    accept = wins(SEAT) if maximize else loses(SEAT)
    deck = list(game.ruleset.deck(game.players, game.options))
    for points in _last_points(game, maximize):
        played = [c for c in deck if c not in points]
        mono: list[list[Card]] = []
        leftover: list[Card] = []
        for group in by_colour_desc(played).values():
            full, rest = chunks(group, seats)
            mono += full
            leftover += rest
        if len(leftover) not in (0, seats):
            continue
        specs = [TrickSpec(tuple(c), accept) for c in mono]
        if leftover:
            specs.append(TrickSpec(tuple(leftover), accept))
        tricks = lay_out(judge, specs, first_leader=SEAT, seats=seats, ordered=True)
        if tricks is None:
            continue
        hands = [tuple(sorted(t[s] for t in tricks)) for s in range(game.players)]
        piles: list[tuple[str, tuple[Card, ...]]] = []
        if game.players == 2:
            hands.append(())
            piles.append(("ghost", tuple(t[last_rules.GHOST] for t in tricks)))
        piles.append(("points", tuple(points)))
        return Plan(Deal(tuple(hands), tuple(piles), first_leader=SEAT), tricks)
    return None


# --- Hund witnesses ----------------------------------------------------------------------

TRUMP_SUIT, PLUS_SUIT, HUND_SUIT, MINUS_SUIT, LEAD_SUIT = range(5)
"""The suits the Hund plans give the powers (in power order: red Trump, ..., purple Lead)."""
DESIGNATION = 5
"""The designated number of the Hund witnesses' round."""


def _virtual_layout(
    plays: Sequence[Card], leads: Sequence[int | None]
) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """Columns for the virtual player (face-down row, face-up row, one face-up card on each
    face-down one, as the ten-card hand of the default game lies) under which its fixed
    rule (HUND-TWO-4..6: the leftmost face-up card of the lead suit, else the leftmost
    face-up card; a face-down card turns up once its column is bare) plays ``plays[t]``
    in trick ``t`` whose lead suit is ``leads[t]`` (None: the virtual player leads)."""
    count = len(plays)

    def pairings(left: list[int]) -> Iterator[list[tuple[int, int]]]:
        if not left:
            yield []
            return
        first = left[0]
        for other in left[1:]:
            rest = [t for t in left[1:] if t != other]
            for more in pairings(rest):
                yield [(first, other), *more]

    for pairs in pairings(list(range(count))):
        before: set[tuple[int, int]] = set()
        ok = True
        for t in range(count):
            shown = {
                col: plays[up] if up >= t else plays[down]
                for col, (up, down) in enumerate(pairs)
                if up >= t or down >= t
            }
            mine = next(col for col, (up, down) in enumerate(pairs) if t in (up, down))
            lead = leads[t]
            same = [col for col, card in shown.items() if col != mine and colour_of(card) == lead]
            if lead is None or colour_of(plays[t]) == lead:
                rivals = list(shown) if lead is None else same
            elif same:
                ok = False
                break
            else:
                rivals = list(shown)
            before |= {(mine, col) for col in rivals if col != mine}
        if not ok:
            continue
        order = _topological(len(pairs), before)
        if order is not None:
            return (
                tuple(plays[pairs[col][1]] for col in order),
                tuple(plays[pairs[col][0]] for col in order),
            )
    return None


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


def hund_plan(game: Game, maximize: bool) -> Plan | None:
    """A Hund round with designated number 5 and, in order of their fives, suits red
    Trump, yellow Plus, green Hund, blue Minus, purple Lead (HUND-DESIG-1/2). Each suit
    holds ``2s`` cards for ``s`` seats: two mono-suit tricks, the first holding the five.

    Least: seat 0 wins both Minus tricks and no Plus or Hund trick: ``-2s``, and its Hund
    count 0 is the fewest (no award). Greatest: seat 0 wins both Plus tricks and no Minus
    card; seat 1 wins the first Hund trick and the second Minus trick, then leads a Hund
    card to trick 9, which seat 0 (void in Hund) trumps, taking ``s-1`` Hund cards; seat 0
    leads its lowest trump to the last trick and loses it with the last Hund card. Seat 0
    has ``s-1`` Hund cards, seat 1 at least ``s``, some seat at most 1: the award.

    With two players the virtual player (seat 2) gets columns under which its fixed rule
    plays the plan's cards (see ``_virtual_layout``) and never wins a trick."""
    seats = game.seats
    virtual = hund_rules.VIRTUAL if game.players == 2 else None
    no_virtual = () if virtual is None else (virtual,)
    values = list(game.ruleset.deck(game.players, game.options))
    top = max(value_of(c) for c in values)

    def halves(suit: int) -> tuple[list[Card], list[Card]]:
        desc = [make_card(suit, v) for v in range(top, 0, -1) if v != DESIGNATION]
        first = [make_card(suit, DESIGNATION), *desc[: seats - 1]]
        return first, sorted(c for c in desc if c not in first)

    def any_player(winner: int | None, _taken: Mapping[int, tuple[Card, ...]]) -> bool:
        return winner is not None and winner not in no_virtual

    def loses(winner: int | None, _taken: Mapping[int, tuple[Card, ...]]) -> bool:
        return winner not in (SEAT, None, *no_virtual)

    half = {suit: halves(suit) for suit in range(5)}
    if not maximize:
        rule: dict[int, Accept] = {TRUMP_SUIT: any_player, PLUS_SUIT: loses, HUND_SUIT: loses}
        rule |= {MINUS_SUIT: wins(SEAT), LEAD_SUIT: any_player}
        specs = [TrickSpec(tuple(half[s][i]), rule[s]) for i in (0, 1) for s in range(5)]
    else:
        trumps, hunds = half[TRUMP_SUIT][1], half[HUND_SUIT][1]
        specs = [
            TrickSpec(tuple(half[TRUMP_SUIT][0]), any_player),
            TrickSpec(tuple(half[PLUS_SUIT][0]), wins(SEAT)),
            TrickSpec(tuple(half[PLUS_SUIT][1]), wins(SEAT)),
            TrickSpec(tuple(half[HUND_SUIT][0]), wins(1)),
            TrickSpec(tuple(half[MINUS_SUIT][0]), loses),
            TrickSpec(tuple(half[LEAD_SUIT][0]), any_player),
            TrickSpec(tuple(half[LEAD_SUIT][1]), any_player),
            TrickSpec(tuple(half[MINUS_SUIT][1]), wins(1)),
            TrickSpec((*hunds[1:], trumps[-1]), wins(SEAT), {SEAT: trumps[-1]}),
            TrickSpec((*trumps[:-1], hunds[0]), loses, {SEAT: trumps[0]}),
        ]

    def judge(cards: tuple[Card, ...]) -> TrickResult:
        return hund_rules.judge(cards, TRUMP_SUIT, 0)

    tricks = lay_out(judge, specs, first_leader=SEAT, seats=seats, ordered=True)
    if tricks is None:
        return None
    hands = [tuple(sorted(t[s] for t in tricks)) for s in range(game.players)]
    piles: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    if virtual is not None:
        leaders = [SEAT]
        for trick in tricks:
            winner = judge_seat(judge, trick, leaders[-1], seats)
            leaders.append(leaders[-1] if winner is None else winner)
        plays = [t[virtual] for t in tricks]
        leads = [
            None if leaders[i] == virtual else colour_of(t[leaders[i]])
            for i, t in enumerate(tricks)
        ]
        layout = _virtual_layout(plays, leads)
        if layout is None:
            return None
        hands.append(())
        piles = (("virtual-down", layout[0]), ("virtual-up", layout[1]))
    deal = Deal(tuple(hands), piles, extras=(("designation", DESIGNATION),))
    return Plan(deal, tricks)
