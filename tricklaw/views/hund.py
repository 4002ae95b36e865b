"""Hund's part of the views: the designation, the powers, the virtual player's display
and the cards taken.

Each round has a designated number; as cards of it are played their suits receive the
five powers in turn (HUND-DESIG-1, HUND-DESIG-2; with designation sets, the sets chosen
take its place, HUND-OPT-2). With two players a virtual player shows a row of face-up
cards (HUND-TWO-1, HUND-TWO-2). The winner of a trick gathers its cards
(HUND-COLLECT-1), and the observation shows every seat's.
"""

from __future__ import annotations

from collections.abc import Mapping

from tricklaw.model.rulesets.hund import POWERS
from tricklaw.views import VIEWS
from tricklaw.views.encodings import (
    Frame,
    GameView,
    Shaped,
    Vector,
    card_rows,
    number,
    seat_cards,
)


def sets(frame: Frame) -> Shaped:
    """The designation sets: one row over the deck per power."""
    return card_rows(frame, len(POWERS))


def powers(frame: Frame) -> Shaped:
    """Which colour holds each power: a one-hot over the colours per power."""

    def fill(out: Vector, value: Mapping[str, str]) -> None:
        for power, colour in value.items():
            out[POWERS.index(power), frame.colours[colour]] = 1

    return (len(POWERS), len(frame.colours)), fill


def virtual_display(frame: Frame) -> Shaped:
    """The virtual player's face-up cards: one row over the deck per column (as many
    columns as the probe shows; none without a virtual player)."""
    return card_rows(frame, len(frame.probe) if isinstance(frame.probe, list) else 0)


VIEW = GameView(
    {
        "designation": number,
        "sets": sets,
        "powers": powers,
        "virtual_display": virtual_display,
        "taken": seat_cards,
    }
)
"""The designated number, the sets, the powers, the virtual display and the cards
each seat has taken."""

VIEWS.register("hund", VIEW)
