"""The ``perft`` vectors: the number of sequences of legal decisions from a seeded deal,
to each depth, from the roots the game's profile names. The generator counts breadth first,
the runner depth first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tricklaw.model import actions
from tricklaw.model.actions import string_to_action
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game, State
from tricklaw.vectors.cases import Cases, Json, VectorError
from tricklaw.vectors.profiles import profile_of

PERFT_SEED = 1
PERFT_MAX_DEPTH = 6
PERFT_BUDGET = 6000
"""A deeper level is counted only while the level above has at most this many sequences."""


def perft_levels(state: State[Any]) -> tuple[list[int], set[str]]:
    """Counts per depth (breadth first), and which kinds of decision were met."""
    counts: list[int] = []
    met: set[str] = set()
    level = [state]
    for depth in range(1, PERFT_MAX_DEPTH + 1):
        legal = [s.legal_actions() for s in level]
        for moves in legal:
            met.update(actions.kind_of(a).name for a in moves)
        counts.append(sum(len(m) for m in legal))
        if depth == PERFT_MAX_DEPTH or counts[-1] > PERFT_BUDGET:
            break
        level = [
            s.apply_legal_action(a) for s, moves in zip(level, legal, strict=True) for a in moves
        ]
    return counts, met


def perft_cases(ruleset: Ruleset[Any]) -> list[Json]:
    """The cases of ``<ruleset>.perft.json``: every root of the profile at every player
    count, to the depth the budget allows."""
    profile = profile_of(ruleset)
    cases = Cases.of(ruleset, "perft")
    for players in ruleset.player_counts:
        for game, prefix in profile.perft_roots(ruleset, players, PERFT_SEED):
            state = game.new_initial_state(PERFT_SEED)
            steps = []
            for action in prefix:
                steps.append(
                    {"seat": state.current_player(), "action": state.action_to_string(action)}
                )
                state = state.child(action)
            counts, met = perft_levels(state)
            cases.add(
                game,
                {"seed": PERFT_SEED, "prefix": steps, "depth": len(counts)},
                {"counts": counts},
                profile.perft_clauses(game, met, prefix),
            )
    return cases.items


def run_perft(game: Game, inputs: Mapping[str, Any]) -> Json:
    """Counts per depth by a depth-first walk (the generator counts breadth first)."""
    state = game.new_initial_state(inputs["seed"])
    for step in inputs["prefix"]:
        if step["seat"] != state.current_player():
            raise VectorError(f"perft prefix: seat {step['seat']} is not to act")
        state = state.child(string_to_action(step["action"], game.ruleset.palette))
    depth = inputs["depth"]
    counts = [0] * depth

    def walk(node: State[Any], d: int) -> None:
        legal = node.legal_actions()
        counts[d] += len(legal)
        if d + 1 < depth:
            for action in legal:
                walk(node.apply_legal_action(action), d + 1)

    walk(state, 0)
    return {"counts": counts}
