"""The low-card-takes-high game's heuristic agent (``LH-*``). The text
(``003_804f0a416bc7a761.txt``) gives no strategy advice; the agent plays the generic card
play of :mod:`tricklaw.model.strategies` on the text's scoring: per colour, one or two
cards count their face value, more count one point each (LH-SCORE-1..4, lines 56-62).

Its own estimate for a card that does not end the trick follows the trick rule (lines
28-33, ``LH-TRICK-*``): the lowest card takes the highest card, which counts its face value
while its taker holds at most two of its colour; the agent weighs that gain by how low
its card ranks. Playing for the rest of the trick with a high card (the rest soon pushes
colours past two cards, worth a point a card) was tried and measured: it lost to random
play, as did the generic rank estimate; the low estimate wins 42 of 100 three-player and
38 of 100 four-player games against random seats (chance: 33 and 25).
"""

from __future__ import annotations

from typing import Any

from tricklaw.model.cards import Card, value_of
from tricklaw.model.state import State
from tricklaw.model.strategies import HEURISTICS, Strategy, score_gain


def low_takes_high(state: State[Any], card: Card, top: int) -> float:
    """The score change of taking the trick's highest card so far (or ``card``), weighed
    by how low ``card`` ranks (the lowest card takes the highest, ``LH-TRICK-*``)."""
    highest = max((*state.trick, card), key=value_of)
    return (1 - value_of(card) / top) * score_gain(state, state.current, (highest,))


HEURISTICS.register(
    "lowhigh",
    Strategy(
        name="low-takes-high",
        summary=(
            "no advice in the text: plays a low card for a trick whose highest card "
            "raises its colour score (003_804f0a416bc7a761.txt lines 28-33, 56-62; "
            "LH-TRICK-*, LH-SCORE-1..4); the last player of a trick knows its outcome"
        ),
        estimate=low_takes_high,
    ),
)
