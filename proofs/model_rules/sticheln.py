"""Sticheln's table, both editions, as the deal clauses state it: as many seats as
players, fifteen cards each (STI93-DEAL-2; STI-DEAL-1), under every deck reading
(STI93-D-DECK: the whole deck sets the rest aside, the hands stay fifteen)."""

from __future__ import annotations

from collections.abc import Callable

from tricklaw.model.state import Game
from tricklaw.proofs.model_rules import MODEL_RULES, GameRules, Table

HAND = 15
"""Cards dealt to each player (STI93-DEAL-2, STI-DEAL-1)."""


def table(deal: str) -> Callable[[Game], Table]:
    """The table of the edition whose deal clause is ``deal``: one seat a player, no
    automatic seat, fifteen cards each."""

    def state(game: Game) -> Table:
        return Table(game.players, HAND, (deal,))

    return state


MODEL_RULES.register("sticheln-1993", GameRules(table("STI93-DEAL-2"), ("deck",)))
MODEL_RULES.register("sticheln", GameRules(table("STI-DEAL-1")))
