"""The Last's heuristic agent (``LAST-*``): score as few penalty points as possible, the
text's own goal (``002_18a5f98381d9736c.txt`` line 3).

* **Card play** is the generic one (:mod:`tricklaw.model.strategies`), with the trick's
  stake being the points card turned up for it (``LAST-TRICK-*``, lines 21 and 31), not the
  cards played (discarded, line 39): a seat ducks a trick whose points card costs it,
  and the last player of a trick knows exactly whom its colour makes the taker (line 29).
* **Keep or swap** (LAST-COLLECT-1, line 37): the taker lays face down the lowest of the
  points card and its hand's cards, so its penalty grows as little as it can.
"""

from __future__ import annotations

from typing import Any

from tricklaw.model.actions import KEEP, SWAP
from tricklaw.model.cards import Card, value_of
from tricklaw.model.rng import SplitMix64
from tricklaw.model.state import Phase, State
from tricklaw.model.strategies import HEURISTICS, Strategy


def points_card(state: State[Any], card: Card) -> tuple[Card, ...]:
    """The points card turned up for the trick in play (what its taker gets)."""
    shown = state.extra.shown
    return () if shown is None else (shown,)


def lay_lowest(state: State[Any], rng: SplitMix64) -> int | None:
    """Keep the points card unless a hand card is lower: then swap that card in."""
    pending = state.extra.pending
    if state.phase is not Phase.CHOOSE or pending is None:
        return None
    hand = state.hands[state.current]
    low = min(hand, key=value_of, default=None)
    if low is not None and value_of(low) < value_of(pending):
        return SWAP | low
    return KEEP


HEURISTICS.register(
    "the-last",
    Strategy(
        name="fewest-penalties",
        summary=(
            "ducks tricks whose points card would cost it and plays for cheap ones "
            "(002_18a5f98381d9736c.txt lines 3, 29-31); lays face down the lowest of the "
            "points card and its hand (line 37, LAST-COLLECT-1)"
        ),
        stake=points_card,
        choose=lay_lowest,
    ),
)
