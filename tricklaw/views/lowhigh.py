"""The low-card-takes-high game's part of the views: the cards each seat has captured.

The lowest card's player lays the highest card face up beside him (LH-TRICK-4), the
highest card's player gains the rest (LH-TRICK-5); every captured card is scored at the
end of the round (LH-SCORE-1), and the observation shows them all, seat by seat.
"""

from __future__ import annotations

from tricklaw.views import VIEWS
from tricklaw.views.encodings import GameView, seat_cards

VIEW = GameView({"captured": seat_cards})
"""The cards each seat has captured."""

VIEWS.register("lowhigh", VIEW)
