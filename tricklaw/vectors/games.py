"""The ``games`` vectors: whole games of seeded random agents as tricklaw records, with the
number of legal actions at each decision, at every player count and under the readings the
game's profile plays. The runner plays them again and replays each record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tricklaw.model.agents import play_random_game
from tricklaw.model.options import OptionValue
from tricklaw.model.record import to_record
from tricklaw.model.rng import agent_rng
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game, State
from tricklaw.vectors.cases import Cases, Json, VectorError
from tricklaw.vectors.profiles import profile_of

GAME_SEEDS = (1, 2)
"""The seeds of the games played at every player count."""
MAX_GAME_ROUNDS = 60


def play(game: Game, seed: int) -> tuple[State[Any], list[int]]:
    """A whole game of random agents, and the number of legal actions at each decision."""
    state = game.new_initial_state(seed)
    draw = agent_rng(seed).below
    counts: list[int] = []
    while not state.is_terminal():
        if len(state.history) >= MAX_GAME_ROUNDS:
            raise VectorError(f"{game.ruleset.id}: seed {seed} does not end in time")
        legal = state.legal_actions()
        counts.append(len(legal))
        state = state.apply_legal_action(legal[draw(len(legal))])
    return state, counts


def game_cases(ruleset: Ruleset[Any]) -> list[Json]:
    """The cases of ``<ruleset>.games.json``: the seeds of :data:`GAME_SEEDS` at every
    player count under the profile's base options, then the profile's other games."""
    profile = profile_of(ruleset)
    cases = Cases.of(ruleset, "games")
    plans: list[tuple[int, Mapping[str, OptionValue], int]] = [
        (n, profile.game_base, seed) for n in ruleset.player_counts for seed in GAME_SEEDS
    ]
    plans += list(profile.game_variants)
    for players, options, seed in plans:
        game = ruleset.make_game(players, options)
        state, counts = play(game, seed)
        record = to_record(state, seed)
        cases.add(
            game,
            {"seed": seed, "agent": "random"},
            {"record": record, "legal_counts": counts},
            profile.game_clauses(game, record),
        )
    return cases.items


def run_game(game: Game, inputs: Mapping[str, Any]) -> Json:
    """A game case's outputs: the record of :func:`~tricklaw.model.agents.play_random_game`
    and the legal counts of the same game replayed decision by decision."""
    if inputs["agent"] != "random":
        raise VectorError(f"unknown agent {inputs['agent']!r}")
    seed = inputs["seed"]
    state = play_random_game(game, seed, MAX_GAME_ROUNDS)
    counts: list[int] = []
    replayed = game.new_initial_state(seed)
    draw = agent_rng(seed).below
    while not replayed.is_terminal():
        legal = replayed.legal_actions()
        counts.append(len(legal))
        replayed = replayed.child(legal[draw(len(legal))])
    return {"record": to_record(state, seed), "legal_counts": counts}
