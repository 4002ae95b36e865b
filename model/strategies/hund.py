"""Hund's heuristic agent (``HUND-*``): collect many positive and few negative points, the
text's own aim (``004_b79a09774360d499.txt`` line 1).

The text gives no further advice. The agent plays the generic card play of
:mod:`tricklaw.model.strategies`, scoring a trick's cards under the powers assigned so far
(public: each is assigned as the designated number's cards are played, ``HUND-POWER-*``):
it plays for tricks of Plus cards and ducks tricks of Minus cards; before any power is
assigned every trick is worth the same, and it plays its lowest card. Naming a leader and
choosing sets (custom option) are left to chance.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tricklaw.model.state import State
from tricklaw.model.strategies import HEURISTICS, Strategy


def powers_context(state: State[Any]) -> Mapping[str, str] | None:
    """The suits holding powers so far, in power order, as letters."""
    palette = state.game.ruleset.palette
    return {"powers": ",".join(palette.letter(s) for s in state.extra.holders)}


HEURISTICS.register(
    "hund",
    Strategy(
        name="powers-so-far",
        summary=(
            "plays for tricks that score under the powers assigned so far and ducks the "
            "others (004_b79a09774360d499.txt line 1, HUND-SCORE-*)"
        ),
        context=powers_context,
    ),
)
