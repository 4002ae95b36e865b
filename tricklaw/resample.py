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

What a redeal does not ensure the caller checks by replaying the episode's actions on it
(:mod:`tricklaw.openspiel` does, then compares the seat's information state): a hand
that cannot have made an earlier play (a seat that showed void in a suit, for instance)
makes an action illegal, and the redeal is rejected. The model keeps no explicit
void-in-suit facts, so none are read here: the replay is the check.

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


def redeal(deal: Deal, seat: int, known: set[Card], uniform: Callable[[], float]) -> Deal:
    """``deal`` with the cards ``seat`` does not know shuffled among their places, each
    known card (and all of ``seat``'s hand) kept where it was; ``uniform`` draws in [0, 1)."""
    slots: list[tuple[Place, int]] = []
    loose: list[Card] = []
    for place, cards in places(deal):
        if place == ("hand", seat):
            continue
        for position, card in enumerate(cards):
            if card not in known:
                slots.append((place, position))
                loose.append(card)
    for i in range(len(loose) - 1, 0, -1):  # Fisher-Yates with the caller's draws
        j = min(int(uniform() * (i + 1)), i)
        loose[i], loose[j] = loose[j], loose[i]
    layout = {place: list(cards) for place, cards in places(deal)}
    for (place, position), card in zip(slots, loose, strict=True):
        layout[place][position] = card
    hands = tuple(tuple(layout[("hand", s)]) for s in range(len(deal.hands)))
    piles = tuple((name, tuple(layout[("pile", i)])) for i, (name, _) in enumerate(deal.piles))
    return Deal(hands, piles, deal.first_leader, deal.extras)


def hidden_count(deal: Deal, seat: int, known: set[Card]) -> int:
    """How many cards of ``deal`` a redeal may move for ``seat``."""
    return sum(
        card not in known
        for place, cards in places(deal)
        if place != ("hand", seat)
        for card in cards
    )
