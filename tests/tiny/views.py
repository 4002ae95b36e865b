"""Tiny's part of the views: the cards each seat has taken (TINY-COLLECT-1), face up."""

from __future__ import annotations

from tricklaw.views.encodings import GameView, seat_cards

VIEW = GameView({"captured": seat_cards})
