"""Sticheln's part of the views (both editions): the picks and the tricks' counts.

Each seat picks a card face down; the picks are turned up together once all are down
(STI93-SELECT-1, STI93-SELECT-2; STI-SELECT-2). Until then a seat sees its own pick and,
of every other seat, only that it has picked (:data:`HIDDEN`). How many cards each
seat has taken is public; which cards, the observation does not list.
"""

from __future__ import annotations

from collections.abc import Sequence

from tricklaw.views import VIEWS
from tricklaw.views.encodings import Frame, GameView, Shaped, Vector, fill_cards, seat_numbers

HIDDEN = "hidden"
"""What the observation shows of a pick that is not revealed yet."""


def picks(frame: Frame) -> Shaped:
    """Each seat's pick: a row over the deck plus one place for a hidden pick."""
    size = len(frame.cards)

    def fill(out: Vector, value: Sequence[str | None]) -> None:
        for row, item in zip(out, value, strict=True):
            if item == HIDDEN:
                row[size] = 1
            else:
                fill_cards(row[:size], [item], frame.cards)

    return (frame.seats, size + 1), fill


VIEW = GameView({"picked": picks, "taken": seat_numbers})
"""The picks, and the number of cards each seat has taken."""

VIEWS.register("sticheln-1993", VIEW)
VIEWS.register("sticheln", VIEW)
