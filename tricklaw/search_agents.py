"""OpenSpiel's ISMCTS as an agent of ``tricklaw impact`` (the ``openspiel`` extra).

:func:`ismcts_step` is a pure function of ``(state, rng)`` like the other agents
(:data:`tricklaw.impact.study.AGENTS`): it turns the model state into the OpenSpiel state
of the same whole game (:mod:`tricklaw.openspiel`: the game loaded with every option of
the model's game, its rounds included, so that an episode is the game; the rounds dealt
so far given as explicit deals, and every recorded action replayed through the model),
checks that the replay reached the very same state, and lets ``ISMCTSBot`` choose, with
``RandomRolloutEvaluator`` and :data:`SIMULATIONS` simulations a move, its numpy
generator seeded from the SplitMix64 stream (its resampling too, so the same rng gives the
same move). ISMCTS resamples the hidden cards from the
seat's information state (:meth:`tricklaw.openspiel.TricklawState.resample_from_infostate`),
so it searches without seeing other hands. The rounds after the current one are dealt,
in the search, from a seed of the same stream.

It is slow (every move replays the game and runs the search to its end): a study with
``--agents ismcts`` is for a few games. This module sits above the applications it joins
(the OpenSpiel adapter and the impact study), beside the command line.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from tricklaw.episodes import parameter_name, short_name
from tricklaw.model.rng import SplitMix64
from tricklaw.model.state import State
from tricklaw.spec.errors import TricklawError

SIMULATIONS = 8
"""ISMCTS simulations a move."""
UCT_C = 2.0
"""ISMCTS's exploration constant."""


@cache
def _load(ruleset_id: str, params: tuple[tuple[str, Any], ...]) -> Any:
    import pyspiel

    from tricklaw import openspiel  # registers the games with OpenSpiel

    assert openspiel.game_class(ruleset_id)
    return pyspiel.load_game(short_name(ruleset_id), dict(params))


def _record(state: State[Any]) -> dict[str, Any]:
    """The state's record without its game seed (the replay's deals are explicit)."""
    record: dict[str, Any] = json.loads(state.serialize())
    record.pop("seed", None)
    return record


def openspiel_state(state: State[Any], seed: int) -> Any:
    """The OpenSpiel state of ``state``'s whole game at the same moment (rounds after the
    current one dealt from ``seed``); raises TricklawError if the replay differs."""
    from tricklaw.infostates import Trail
    from tricklaw.openspiel import TricklawState

    game = state.game
    params = {parameter_name(k): v for k, v in game.options.as_dict().items()}
    params["players"] = game.players
    os_game = _load(game.ruleset.id, tuple(sorted(params.items())))
    ep = os_game.episode
    deals = (*(log.deal for log in state.history), state.info.deal)
    trail = Trail.start(os_game.lens, (deals, seed)).then(0)
    for actions in (*(log.actions for log in state.history), state.actions):
        for _, action in actions:
            trail = trail.then(ep.ids[action])
    if trail.state is None or _record(trail.state) != _record(state):
        raise TricklawError("the OpenSpiel replay does not reach the model's state")
    out = TricklawState(os_game)
    out.trail = trail
    return out


def ismcts_step(state: State[Any], rng: SplitMix64) -> State[Any]:
    """The state after the current seat's ISMCTS move (see the module docstring)."""
    try:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        raise TricklawError(
            "the ismcts agent needs the openspiel extra: pip install 'tricklaw[openspiel]'"
        ) from None
    seed = rng.next_u64()
    os_state = openspiel_state(state, seed)
    random_state = np.random.RandomState(seed % (1 << 32))
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    bot = ismcts.ISMCTSBot(
        os_state.get_game(), evaluator, UCT_C, SIMULATIONS, random_state=random_state
    )
    # OpenSpiel's own sampler draws from an unseeded generator: resample from the seeded one.
    bot.set_resampler(lambda st, player: st.resample_from_infostate(player, random_state.uniform))
    action = os_state.trail.lens.episode.actions[bot.step(os_state)]
    if action not in state.legal_actions():
        raise TricklawError(f"ISMCTS chose an illegal action {action}")
    return state.apply_legal_action(action)
