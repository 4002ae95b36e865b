"""A seat's observation as OpenSpiel wants it: a fixed-size tensor and a string; the
views layer's registry (:data:`VIEWS`).

The source is always the ruleset's own :meth:`~tricklaw.model.state.State.observation`
(what a seat sees: its hand, the public cards, nothing hidden), so these views can
reveal nothing the model does not show that seat. Each field of the observation is
encoded by its name: the fields every game shows by
:data:`~tricklaw.views.encodings.COMMON`, a game's own fields by the
:class:`~tricklaw.views.encodings.GameView` that its module in this folder registers in
:data:`VIEWS` under each ruleset id it serves. A seat is a one-hot over the seats, a
set of cards a 0/1 vector over the deck in canonical order, an ordered list of cards (a
trick, Hund's sets) one one-hot row per position, a number itself, and so on
(:mod:`tricklaw.views.encodings`). A field without an encoding is refused when the
layout is made, so a new field in a ruleset's observation cannot go missing from the
tensor unnoticed.

The string is the observation as compact JSON with sorted keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tricklaw.model.registry import Registry
from tricklaw.model.state import Game
from tricklaw.views.encodings import COMMON, GameView, Vector
from tricklaw.views.layout import Layout, Piece, layout_of, observation_text

VIEWS: Registry[GameView] = Registry("view", __name__)
"""Ruleset id -> the fields its observation adds, with their encodings."""


def make_layout(game: Game, probe: Mapping[str, Any]) -> Layout:
    """The layout of ``game``'s observations: the common fields and those of the game's
    view (:func:`~tricklaw.views.layout.layout_of`); ``probe`` is one observation.

    Raises OptionError for a ruleset without a view, TricklawError naming a field that
    has no encoding.
    """
    return layout_of(game, probe, {**COMMON, **VIEWS.lookup(game.ruleset.id).fields})


__all__ = [
    "VIEWS",
    "GameView",
    "Layout",
    "Piece",
    "Vector",
    "make_layout",
    "observation_text",
]
