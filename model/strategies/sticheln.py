"""Both Sticheln editions' heuristic agent (``STI93-*``, ``STI-*``): the 1993 text's own advice.

* **The pick** (STI93-SELECT-1, advice in ``000_c546595a30f74efa.txt`` lines 61-63):
  neither a colour of which the seat holds only two or three cards nor one of which it
  holds many, but one in the middle: the colour whose count is nearest the middle of the
  seat's colour counts, the lower sum of values breaking ties (high cards take tricks,
  line 61); the card picked is that colour's lowest, since its value is the seat's
  starting penalty (line 63). The later edition's text (``001_e30e3e0d532f54b4.txt``)
  gives no advice; the same rule is used for its unwanted colour.
* **Card play** is the generic one (:mod:`tricklaw.model.strategies`) with each seat's
  picked colour known once the picks are turned up (STI93-SELECT-2): a trick holding cards
  of the seat's own colour is ducked with a low card and a leader avoids leading high
  cards of it (line 65); other tricks are played for, each card of another colour being
  worth a point (STI93-SCORE-2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tricklaw.model.actions import select
from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.rng import SplitMix64
from tricklaw.model.state import Phase, State
from tricklaw.model.strategies import HEURISTICS, Strategy


def picked_context(state: State[Any]) -> Mapping[str, str] | None:
    """Every seat's picked card, once the picks are face up (else ``None``)."""
    picked = state.observation(state.current).get("picked")
    if not isinstance(picked, list) or any(p is None for p in picked):
        return None
    return {"picked": ",".join(str(p) for p in picked)}


def middle_pick(state: State[Any], rng: SplitMix64) -> int | None:
    """The lowest card of the colour held in a middling number (lines 61-63)."""
    if state.phase is not Phase.SELECT:
        return None
    hand = state.hands[state.current]
    colours: dict[int, list[Card]] = {}
    for card in hand:
        colours.setdefault(colour_of(card), []).append(card)
    counts = sorted(len(cards) for cards in colours.values())
    middle = counts[len(counts) // 2]

    def rank(colour: int) -> tuple[int, int, int]:
        cards = colours[colour]
        return (abs(len(cards) - middle), sum(value_of(c) for c in cards), colour)

    best = min(colours, key=rank)
    return select(min(colours[best], key=value_of))


STRATEGY = Strategy(
    name="middle-colour",
    summary=(
        "picks the lowest card of the colour it holds in a middling number "
        "(000_c546595a30f74efa.txt lines 61-63); ducks tricks holding its own colour and "
        "plays for the others (line 65, STI93-SCORE-1..2)"
    ),
    context=picked_context,
    choose=middle_pick,
)
HEURISTICS.register("sticheln-1993", STRATEGY)
HEURISTICS.register("sticheln", STRATEGY)
