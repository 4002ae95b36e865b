"""lowhigh's table as the deal clause states it: as many seats as players, fifteen cards
each (LH-DEAL-1)."""

from __future__ import annotations

from tricklaw.model.state import Game
from tricklaw.proofs.model_rules import MODEL_RULES, GameRules, Table

HAND = 15
"""Cards dealt to each player (LH-DEAL-1)."""


def table(game: Game) -> Table:
    """One seat a player, fifteen cards each (LH-DEAL-1)."""
    return Table(game.players, HAND, ("LH-DEAL-1",))


MODEL_RULES.register("lowhigh", GameRules(table))
