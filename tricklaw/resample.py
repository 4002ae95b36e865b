"""Deals consistent with what one seat has seen: the draws behind OpenSpiel's
``resample_from_infostate`` (:mod:`tricklaw.openspiel`), for information-set search.

Pure Python over the model; it imports neither ``pyspiel`` nor ``numpy``.

A seat knows where some cards of the current round's deal lay, and nothing of the rest.
:func:`known_cards` gathers the cards it knows, from the model's own views only: every
card shown in its observation as each trick began and now (its hand, the trick, face-up
piles and cards, revealed picks), every card of the round's completed tricks, and every
card named by an action of the round. :func:`redeal` keeps each known card where it was
dealt and shuffles the unknown ones among the places they were dealt to (the other
seats' hands and the piles, position by position), so every hand and pile keeps its
size. The earlier rounds' deals stay as they were (their cards are all played, and the
information state keeps them); the rounds to come are dealt from a fresh seed.

**Voids.** An earlier action of another seat can show that it did not hold a card: a
seat that did not follow the led colour holds none of it (STI93-PLAY-2 under
``follow=must-follow``, LH-PLAY-1/2, HUND-PLAY-1/2, LAST-PLAY-1..3). The model keeps no
void facts, and none are written here: :func:`exclusions` asks the model itself, at each
decision of the round (:func:`round_decisions`: the round played again from its start),
which unknown cards would have made the action taken illegal had the seat held them
besides the known cards of its hand then (``Ruleset.ruled_out``, one generic query through
the ruleset's own legality check). Legality is anti-monotone in the hand in every
built-in ruleset (a card of the led colour forbids the others; nothing a hand adds ever
allows an action), so a card ruled out so is one the seat cannot hold in any deal that
keeps the known cards where they lay: the exclusions are never wrong, only possibly
incomplete (The Last's ghost playing the first legal card of its pile, for instance, shows
something of its pile that no decision does).

:func:`redeal` keeps them: it fills the hidden positions one by one, each with a card
drawn from those that may lie there and leave the rest placeable (:func:`fill`, by
Hall's condition for cards and places), so a deal that keeps every exclusion comes out of
one pass. Without exclusions each arrangement is as likely as in a plain shuffle; with
them the draw is close to uniform over the deals that keep them, not exactly so.

What a redeal still does not ensure the caller checks by replaying the episode's actions
on it (:mod:`tricklaw.openspiel` does, then compares the seat's information state), and
rejects it: the replay stays the guard, so the sampler is correct even where the
exclusions are incomplete, and fast where they are complete (Sticheln 1993 with six
players, must-follow, late in a round: one redeal a sample where plain rejection needed
thousands; ``python -m tricklaw.resample_bench``).

**Choices.** A card named by another seat's hidden action (a Sticheln pick before the
picks are revealed, STI93-SELECT-2; a card swapped in The Last, LAST-COLLECT-1) counts as
known and stays in that seat's hand, so that the seat's actions stay legal: a sample
never moves it, which tells a search more than the seat has seen. Numbers drawn with the
deal (``Deal.extras``, Hund's designated number) and the first leader stay as drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from tricklaw.model.actions import ActionKind, card_of, kind_of
from tricklaw.model.cards import Card
from tricklaw.model.state import Deal, State

CARD_KINDS = frozenset({ActionKind.PLAY, ActionKind.SELECT, ActionKind.SWAP, ActionKind.DESIGNATE})
"""The action kinds that name a card."""
Place = tuple[str, int]
"""Where a card lies in a deal: ``("hand", seat)`` or ``("pile", index of the pile)``."""


def places(deal: Deal) -> list[tuple[Place, tuple[Card, ...]]]:
    """Every hand and pile of ``deal`` with its cards."""
    hands: list[tuple[Place, tuple[Card, ...]]] = [
        (("hand", seat), hand) for seat, hand in enumerate(deal.hands)
    ]
    return hands + [(("pile", i), cards) for i, (_, cards) in enumerate(deal.piles)]


def shown_cards(view: Any, names: Mapping[str, Card]) -> set[Card]:
    """The cards named anywhere in an observation (card texts among its values)."""
    out: set[Card] = set()
    if isinstance(view, str):
        if view in names:
            out.add(names[view])
    elif isinstance(view, Mapping):
        for value in view.values():
            out |= shown_cards(value, names)
    elif isinstance(view, Iterable):
        for value in view:
            out |= shown_cards(value, names)
    return out


def known_cards(state: State[Any], seat: int, seen: Sequence[State[Any]]) -> set[Card]:
    """The cards of the current round whose place in the deal ``seat`` knows: those its
    observations showed (``seen``: the states as each trick of the round began, and
    ``state``), those of the round's tricks, and those named by the round's actions."""
    palette = state.game.ruleset.palette
    deal = state.info.deal
    dealt = {card for _, cards in places(deal) for card in cards}
    names = {palette.format(card): card for card in dealt}
    known = set(deal.hands[seat])
    for view_state in (*seen, state):
        known |= shown_cards(view_state.observation(seat), names)
    for _, result in state.tricks:
        known.update(result.cards)
    for _, action in state.actions:
        if kind_of(action) in CARD_KINDS:
            known.add(card_of(action))
    return known & dealt


def round_decisions(state: State[Any]) -> list[tuple[State[Any], int, int]]:
    """The decisions of the round in progress, in order: the state each was taken in,
    the seat that took it and the action. The round is played again from its start
    (``Ruleset.start_round`` on the round's own facts) with its recorded actions, so the
    automatic seats' plays come in between as before. Empty once the game is over."""
    if state.is_terminal():
        return []
    info, ruleset = state.info, state.game.ruleset
    now = ruleset.start_round(info.game, info.source, info.index, info.totals, info.history)
    out: list[tuple[State[Any], int, int]] = []
    for seat, action in state.actions:
        out.append((now, seat, action))
        now = now.apply_legal_action(action)
    return out


def exclusions(state: State[Any], seat: int, known: set[Card]) -> dict[int, frozenset[Card]]:
    """For each other seat, the cards unknown to ``seat`` that it cannot hold: for each of
    its decisions in the round so far, the cards the model rules out
    (``Ruleset.ruled_out``): those with which, added to the known cards of its hand then,
    the action it took would have been illegal (a seat that did not follow the led colour
    holds none of it).

    Sound for every deal :func:`redeal` can make, where the ruleset's legality is
    anti-monotone in the hand (see ``Ruleset.ruled_out``): a redeal keeps every known card
    where it lay, so at each decision the seat held at least the known cards it held in
    truth, and an unknown card dealt to it is still in its hand then (no one has played
    it). That last step assumes that unknown cards stay where they were dealt during the
    round; a seat at one of whose decisions the unknown cards of its hand are not those
    it was dealt (a rule that passes hidden cards) is left without exclusions. Whatever
    is missed here, the replay in :mod:`tricklaw.openspiel` still rejects."""
    deal = state.info.deal
    unknown = {
        card
        for place, cards in places(deal)
        if place != ("hand", seat)
        for card in cards
        if card not in known
    }
    out: dict[int, set[Card]] = {}
    moved: set[int] = set()
    for now, actor, action in round_decisions(state):
        if actor == seat or actor in moved or actor >= len(deal.hands):
            continue
        hand = now.hands[actor]
        if {c for c in hand if c not in known} != {c for c in deal.hands[actor] if c not in known}:
            moved.add(actor)  # hidden cards have moved: nothing is read from this seat
            continue
        ruled = out.setdefault(actor, set())
        held = tuple(c for c in hand if c in known)
        candidates = sorted(unknown - ruled)
        ruled |= state.game.ruleset.ruled_out(now, action, held, candidates)
    return {s: frozenset(cards) for s, cards in out.items() if cards and s not in moved}


def redeal(
    deal: Deal,
    seat: int,
    known: set[Card],
    uniform: Callable[[], float],
    excluded: Mapping[int, frozenset[Card]] | None = None,
) -> Deal:
    """``deal`` with the cards ``seat`` does not know shuffled among their places, each
    known card (and all of ``seat``'s hand) kept where it was, and no card put in a hand
    of ``excluded`` that rules it out (:func:`exclusions`); ``uniform`` draws in [0, 1).

    The free positions are filled one by one, in the deal's order (hands by seat, then
    the piles), each with a card drawn uniformly from the cards left that may lie there
    and that leave the rest placeable (:func:`fill`). So one pass always finds a deal
    that keeps the exclusions when there is one (the true deal is one, if the exclusions
    are sound). Without exclusions every arrangement is as likely, as the plain shuffle;
    with them the draw is close to, not exactly, uniform over the deals that keep them
    (the positions filled first choose among more cards). When the exclusions admit no
    deal at all (a ruleset whose legality breaks the assumption of ``Ruleset.ruled_out``)
    they are dropped, and the caller's replay decides."""
    slots: list[tuple[Place, int]] = []
    loose: list[Card] = []
    for place, cards in places(deal):
        if place == ("hand", seat):
            continue
        for position, card in enumerate(cards):
            if card not in known:
                slots.append((place, position))
                loose.append(card)
    order = [place for place, _ in slots]
    filled = fill(order, loose, masks(order, loose, excluded or {}), uniform)
    if filled is None:
        filled = fill(order, loose, masks(order, loose, {}), uniform)
        assert filled is not None  # without exclusions every card may go anywhere
    layout = {place: list(cards) for place, cards in places(deal)}
    for (place, position), card in zip(slots, filled, strict=True):
        layout[place][position] = card
    hands = tuple(tuple(layout[("hand", s)]) for s in range(len(deal.hands)))
    piles = tuple((name, tuple(layout[("pile", i)])) for i, (name, _) in enumerate(deal.piles))
    return Deal(hands, piles, deal.first_leader, deal.extras)


def masks(
    order: Sequence[Place], cards: Sequence[Card], excluded: Mapping[int, frozenset[Card]]
) -> dict[Card, int]:
    """Each card's places, a bit per place of ``order`` (numbered by first appearance):
    every one but the hands whose seat ``excluded`` rules the card out of."""
    bits = {place: 1 << i for i, place in enumerate(dict.fromkeys(order))}
    full = sum(bits.values())
    return {
        card: full
        & ~sum(
            b for (kind, at), b in bits.items() if kind == "hand" and card in excluded.get(at, ())
        )
        for card in cards
    }


def fill(
    order: Sequence[Place],
    cards: Sequence[Card],
    mask: Mapping[Card, int],
    uniform: Callable[[], float],
) -> list[Card] | None:
    """A card of ``cards`` for each position of ``order`` (the place of each), each card
    within its places (``mask``, see :func:`masks`), or ``None`` when there is no such
    arrangement. The positions are filled in order, each with a card drawn uniformly
    (``uniform``, once a position with a choice) from those left that may lie there and
    leave the rest placeable.

    The check is Hall's condition for cards and places: every set of cards must find
    room in the places that allow any of them. The tightest sets are, for a set ``P`` of
    places, all the cards whose places lie within ``P``; so ``within[P] <= room[P]`` for
    every ``P`` that holds the places every card allows (any other ``P`` holds no card).
    Putting a card of places ``m`` at place ``q`` takes a position from every ``P``
    holding ``q`` and a card from every ``P`` holding ``m``; it breaks the condition
    exactly when some ``P`` that holds ``q`` but not all of ``m`` has no room to spare.
    """
    bits = {place: 1 << i for i, place in enumerate(dict.fromkeys(order))}
    common = sum(bits.values())
    for m in mask.values():
        common &= m
    sets = sorted({common | sub for sub in submasks(sum(bits.values()) & ~common)})
    within = {p: sum(1 for c in cards if mask[c] & ~p == 0) for p in sets}
    room = {p: sum(1 for place in order if bits[place] & p) for p in sets}
    if any(within[p] > room[p] for p in sets):
        return None
    left, out = list(cards), []
    for place in order:
        q = bits[place]
        tight = [p for p in sets if p & q and within[p] == room[p]]
        choices = [c for c in left if mask[c] & q and all(mask[c] & ~p == 0 for p in tight)]
        card = (
            choices[min(int(uniform() * len(choices)), len(choices) - 1)]
            if len(choices) > 1
            else choices[0]
        )
        left.remove(card)
        out.append(card)
        for p in sets:
            within[p] -= mask[card] & ~p == 0
            room[p] -= bool(p & q)
    return out


def submasks(mask: int) -> list[int]:
    """Every subset of the bits of ``mask``, the empty one included."""
    out, sub = [0], mask
    while sub:
        out.append(sub)
        sub = (sub - 1) & mask
    return out


def hidden_count(deal: Deal, seat: int, known: set[Card]) -> int:
    """How many cards of ``deal`` a redeal may move for ``seat``."""
    return sum(
        card not in known
        for place, cards in places(deal)
        if place != ("hand", seat)
        for card in cards
    )
