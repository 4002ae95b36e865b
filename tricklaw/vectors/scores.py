"""The ``scores`` vectors: finished rounds of seeded games, the cards that count for each
seat and the round's facts as input, the scores as output. The runner scores them with the
rules' scoring functions (the game's profile), not the state's bookkeeping."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tricklaw.model.agents import play_random_game
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game, RoundLog
from tricklaw.vectors.cases import Cases, Json, VectorError, fmt
from tricklaw.vectors.profile import Profile
from tricklaw.vectors.profiles import profile_of

SCORE_SEEDS = 40
"""Seeded rounds per reading from which the scoring cases are chosen."""
SCORE_CASES = 6
"""Scoring cases per ruleset, player count and reading at most."""


def score_inputs(profile: Profile, game: Game, log: RoundLog) -> Json:
    """The inputs of a scoring case: the cards that count for each seat, the first
    leader, the seating and the round facts that scoring reads."""
    facts = dict(log.facts)
    return {
        "taken": [fmt(game.ruleset, t) for t in profile.taken(game, log)],
        "first_leader": log.first_leader,
        "seating": list(log.seating),
        "facts": {name: facts[name] for name in profile.score_facts if name in facts},
    }


def score_cases(ruleset: Ruleset[Any]) -> list[Json]:
    """The cases of ``<ruleset>.scores.json``: at most :data:`SCORE_CASES` rounds per
    player count and reading, one per class of scored round (the first two seeds always)."""
    profile = profile_of(ruleset)
    cases = Cases.of(ruleset, "scores")
    for players in ruleset.player_counts:
        for variant in profile.score_variants:
            if not profile.applies(players, variant):
                continue
            game = ruleset.make_game(players, variant)
            kept: set[tuple[Any, ...]] = set()
            chosen = 0
            for seed in range(1, SCORE_SEEDS + 1):
                log = play_random_game(game, seed, max_rounds=1).history[0]
                if ruleset.recount_scores(game, log) != log.scores:
                    raise VectorError(f"{ruleset.id}: the recount of seed {seed} disagrees")
                inputs = score_inputs(profile, game, log)
                expected = profile.score_expected(game, log)
                sig = profile.score_signature(game, inputs, expected)
                if sig in kept and seed > 2:
                    continue
                kept.add(sig)
                cases.add(game, inputs, expected, profile.score_clauses(game, inputs))
                chosen += 1
                if chosen >= SCORE_CASES:
                    break
    return cases.items


def run_score(game: Game, inputs: Mapping[str, Any]) -> Json:
    """Scores from a round's inputs with the rulesets' scoring functions."""
    ruleset = game.ruleset
    taken = [tuple(ruleset.palette.parse_all(t)) for t in inputs["taken"]]
    return profile_of(ruleset).run_score(game, taken, inputs)
