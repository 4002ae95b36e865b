"""Seeded random agents, and whole games played by them.

A random agent picks ``legal[rng.below(len(legal))]`` from the current
player's legal actions in canonical order, drawing from
:func:`tricklaw.model.rng.agent_rng` of the game seed, so a game is fully
determined by (ruleset, players, options, seed) on every machine. A state that is not
over and offers its player no legal action breaks the rules' promise of progress: the
agents raise :class:`~tricklaw.spec.errors.TricklawError` naming it (:func:`stuck`). So
does a round that takes more actions than the ruleset's
:meth:`~tricklaw.model.ruleset.Ruleset.max_decisions`, the bound the ``liveness-round``
proof holds the clauses to (:func:`endless`): a round that outgrows it may never end, and a
walk of it would otherwise hang instead of failing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tricklaw.model.rng import SplitMix64, agent_rng
from tricklaw.model.state import Game, Phase, State
from tricklaw.spec.errors import TricklawError


def stuck(state: State[Any]) -> TricklawError:
    """The error for ``state``, not over, whose current player has no legal action."""
    return TricklawError(
        f"seat {state.current} has no legal action in round {state.info.index + 1}, "
        f"after {len(state.tricks)} tricks, and the game is not over"
    )


def endless(state: State[Any], most: int) -> TricklawError:
    """The error for ``state``, whose round has taken more actions than ``most``, its
    ruleset's ``max_decisions``, and is not over."""
    return TricklawError(
        f"round {state.info.index + 1} has taken {len(state.actions)} actions, more than "
        f"the ruleset's max_decisions {most} (liveness-round), and is not over"
    )


def random_step(state: State[Any], rng: SplitMix64) -> State[Any]:
    """The state after a uniformly random legal action of the current player."""
    legal = state.legal_actions()
    if not legal:
        raise stuck(state)
    return state.apply_legal_action(legal[rng.below(len(legal))])


def random_states(game: Game, seed: int, *, max_rounds: int | None) -> Iterator[State[Any]]:
    """Every state of the game of random agents from ``seed``, in order: the initial
    state, then the state after each :func:`random_step` (the game that
    :func:`play_random_game` plays). Automatic seats never appear as the current player:
    the rules play them inside each step.

    The generator ends with the terminal state, or with the first state that has
    ``max_rounds`` complete rounds; it raises :func:`endless` when a round outgrows its
    ruleset's ``max_decisions``. ``max_rounds`` must be given: ``None`` walks to the
    end of the game, which random play may never reach (Sticheln 1993 with
    ``end=target``: the totals drift away from a positive target), so bound the walk
    wherever the options allow a game without end.
    """
    state = game.new_initial_state(seed)
    rng = agent_rng(seed)
    most = game.ruleset.max_decisions(game)
    yield state
    while not state.is_terminal() and (max_rounds is None or len(state.history) < max_rounds):
        state = random_step(state, rng)
        if len(state.actions) > most:
            raise endless(state, most)
        yield state


def play_random_game(game: Game, seed: int, max_rounds: int | None = None) -> State[Any]:
    """A whole game of random agents from ``seed``.

    Stops early, unfinished, once ``max_rounds`` rounds are complete (a guard
    for target-total games that random play may never finish). Raises :func:`stuck` or
    :func:`endless` as :func:`random_states` does.
    """
    state = game.new_initial_state(seed)
    below = agent_rng(seed).below
    # The ruleset's own legal_actions/apply: the same transitions as State.child,
    # without re-checking legality of an action just taken from legal_actions.
    legal_actions, apply = game.ruleset.legal_actions, game.ruleset.apply
    most = game.ruleset.max_decisions(game)
    while state.phase is not Phase.OVER:
        if max_rounds is not None and len(state.info.history) >= max_rounds:
            break
        legal = legal_actions(state)
        if not legal:
            raise stuck(state)
        state = apply(state, legal[below(len(legal))])
        if len(state.actions) > most:
            raise endless(state, most)
    return state
