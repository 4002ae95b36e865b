"""The Last's part of the views: the points card and the face-down cards.

Each trick is played for the top card of the points pile, turned up as it begins
(LAST-TRICK-1); the taker lays it, or a hand card instead, face down beside him
(LAST-COLLECT-1), and those cards are his penalty (LAST-SCORE-1). A seat sees its own
face-down cards, how many every seat has, the points card of the trick, a points card
waiting for the taker's choice, and how many points cards are left.
"""

from __future__ import annotations

from tricklaw.views import VIEWS
from tricklaw.views.encodings import GameView, card, cards, number, seat_numbers

VIEW = GameView(
    {
        "face_down": cards,
        "face_down_counts": seat_numbers,
        "points_card": card,
        "pending": card,
        "points_left": number,
    }
)
"""The face-down cards, their counts per seat, the points card, the pending card and
the size of the points pile."""

VIEWS.register("the-last", VIEW)
