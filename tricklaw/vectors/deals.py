"""The ``deals`` vectors: round 0 of seeded games, under the default options and every
reading that changes a deal (the game's profile names them). A case gives the round seed,
the deck in canonical order, its shuffle and the deal cut from it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tricklaw.model.options import OptionValue
from tricklaw.model.rng import SplitMix64, round_seed, shuffled
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Deal, Game
from tricklaw.vectors.cases import (
    Cases,
    Json,
    VectorError,
    fmt,
    hex64,
    non_default_disputes,
    vector_deal_json,
)
from tricklaw.vectors.profiles import profile_of

DEAL_SEEDS = (0, 1, 7, 42)
"""The seeds of the deals under the default options."""


def deal_output(game: Game, seed: int, deal: Deal) -> Json:
    """The expected outputs of a deal case of ``seed`` whose deal is ``deal``."""
    ruleset = game.ruleset
    deck = ruleset.deck(game.players, game.options)
    rs = round_seed(seed, 0)
    return {
        "round_seed": hex64(rs),
        "deck": fmt(ruleset, deck),
        "order": fmt(ruleset, shuffled(deck, SplitMix64(rs))),
        "deal": vector_deal_json(ruleset, deal),
    }


def deal_cases(ruleset: Ruleset[Any]) -> list[Json]:
    """The cases of ``<ruleset>.deals.json``: every seed of :data:`DEAL_SEEDS`, and seed 1
    under each of the profile's deal readings, at every player count."""
    profile = profile_of(ruleset)
    cases = Cases.of(ruleset, "deals")
    for players in ruleset.player_counts:
        plans: list[tuple[Mapping[str, OptionValue], int]] = [({}, s) for s in DEAL_SEEDS]
        plans += [(v, 1) for v in profile.deal_variants]
        for options, seed in plans:
            if not profile.applies(players, options):
                continue
            game = ruleset.make_game(players, options)
            deal = game.new_initial_state(seed).info.deal  # the live path
            cases.add(
                game,
                {"seed": seed, "round": 0},
                deal_output(game, seed, deal),
                profile.deal_clauses(game) + non_default_disputes(ruleset, game),
            )
    return cases.items


def run_deal(game: Game, inputs: Mapping[str, Any]) -> Json:
    """A deal case's outputs, the deal cut from the shuffle (not the game's own)."""
    ruleset = game.ruleset
    if inputs["round"] != 0:
        raise VectorError("deal vectors are of round 0")
    seed = inputs["seed"]
    rng = SplitMix64(round_seed(seed, 0))
    order = shuffled(ruleset.deck(game.players, game.options), rng)
    return deal_output(game, seed, ruleset.cut(game, order, rng, ()))
