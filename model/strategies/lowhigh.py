"""The low-card-takes-high game's heuristic agent (LH-*). The text
(``003_804f0a416bc7a761.txt``) gives no strategy advice; the agent plays the generic card
play of :mod:`tricklaw.model.strategies` on the text's scoring: per colour, one or two
cards count their face value, more count one point each (LH-SCORE-1..4), so a seat
plays for a trick that adds face value to a colour it holds few of and ducks one that
would push a colour past two cards.
"""

from __future__ import annotations

from tricklaw.model.strategies import HEURISTICS, Strategy

HEURISTICS.register(
    "lowhigh",
    Strategy(
        name="score-greedy",
        summary=(
            "no advice in the text: plays for tricks that raise its colour score and "
            "ducks those that lower it (LH-SCORE-1..4)"
        ),
    ),
)
