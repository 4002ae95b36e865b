"""OpenSpiel's ISMCTS as an agent (:mod:`tricklaw.search_agents`, issue 17 part 3): the
model state becomes the OpenSpiel state of the same whole game, and ISMCTS's move is a
legal move of the model, the same from the same rng."""

from __future__ import annotations

from typing import Any

import pytest

from tricklaw.model.agents import random_step
from tricklaw.model.rng import agent_rng
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import State

pytest.importorskip("pyspiel")  # the openspiel extra (the test extra includes it)

from tricklaw.search_agents import ismcts_step, openspiel_state


def midgame(ruleset_id: str, players: int, moves: int) -> State[Any]:
    state = RULESETS[ruleset_id].make_game(players).new_initial_state(4)
    rng = agent_rng(4)
    for _ in range(moves):
        state = random_step(state, rng)
    return state


@pytest.mark.parametrize(("ruleset_id", "players"), [("hund", 2), ("lowhigh", 3)])
def test_ismcts_moves_legally_and_repeatably(ruleset_id: str, players: int) -> None:
    state = midgame(ruleset_id, players, 9)
    assert openspiel_state(state, 1).model_state.legal_actions() == state.legal_actions()
    after = ismcts_step(state, agent_rng(7))
    (_, action) = after.actions[len(state.actions)]
    assert action in state.legal_actions()
    assert ismcts_step(state, agent_rng(7)).serialize() == after.serialize()
