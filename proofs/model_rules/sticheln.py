"""Sticheln's table, both editions, as the deal clauses state it: as many seats as
players, fifteen cards each (STI93-DEAL-2; STI-DEAL-1), under every deck reading
(STI93-D-DECK: the whole deck sets the rest aside, the hands stay fifteen).

The later edition also states its free play as a state rule, ``rule free-play``: at every
state of play the player may play any card of his hand (STI-PLAY-2). (The 1993 follow
readings are proved equal to the model's by ``equivalence-legal``.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from tricklaw.model.state import Game, Phase, State
from tricklaw.proofs.model_rules import MODEL_RULES, NONE, GameRules, StateRule, Table
from tricklaw.proofs.solver import Tracked

HAND = 15
"""Cards dealt to each player (STI93-DEAL-2, STI-DEAL-1)."""


def table(deal: str) -> Callable[[Game], Table]:
    """The table of the edition whose deal clause is ``deal``: one seat a player, no
    automatic seat, fifteen cards each."""

    def state(game: Game) -> Table:
        return Table(game.players, HAND, (deal,))

    return state


def free_rule(game: Game, state: State[Any], out: z3.ArithRef) -> list[Tracked]:
    """At a state of play, every card of the hand may be played (STI-PLAY-2): as many
    legal cards as the hand holds."""
    if state.phase is not Phase.PLAY:
        return [Tracked("STI-PLAY-1", out == NONE)]
    return [Tracked("STI-PLAY-2", out == len(state.hands[state.current]))]


def free_model(game: Game, state: State[Any]) -> int:
    """How many cards the model lets the player play at a state of play."""
    if state.phase is not Phase.PLAY:
        return NONE
    return len(game.ruleset.legal_actions(state))


MODEL_RULES.register("sticheln-1993", GameRules(table("STI93-DEAL-2"), ("deck",)))
MODEL_RULES.register(
    "sticheln",
    GameRules(
        table("STI-DEAL-1"),
        states=(StateRule("free-play", (), None, free_rule, free_model, card=False),),
    ),
)
