"""Tiny's vector profile: the conformance vectors' part of the example game.

Its tricks need no context and its deal, legal-move and whole-game cases are the generic
ones; what is its own is how a round is scored along another path than the state's (one
point a trick, TINY-SCORE-1) and its tie dispute (TINY-D-TIE).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tricklaw.model.cards import Card
from tricklaw.model.state import Game
from tricklaw.vectors.cases import Json
from tricklaw.vectors.profile import GamePlan, Profile, Variants


class TinyProfile(Profile):
    """Tiny: one point a trick, and both readings of a tie."""

    score_variants: ClassVar[Variants] = ({}, {"tie": "nobody"})
    game_variants: ClassVar[tuple[GamePlan, ...]] = ((2, {"tie": "nobody"}, 3),)

    def run_score(
        self, game: Game, taken: list[tuple[Card, ...]], inputs: Mapping[str, Any]
    ) -> Json:
        """One point for every trick's worth of cards a seat took (TINY-SCORE-1)."""
        return {"scores": [len(cards) // game.players for cards in taken]}

    def score_signature(self, game: Game, inputs: Json, expected: Json) -> tuple[Any, ...]:
        """Whether the round ends in a tie for the most points."""
        scores = expected["scores"]
        return (scores.count(max(scores)) > 1,)

    def game_clauses(self, game: Game, record: Json) -> list[str]:
        """The generic clauses, and the tie's reading when the game ends tied."""
        tied = record["totals"].count(max(record["totals"])) > 1
        return super().game_clauses(game, record) + (["TINY-D-TIE"] if tied else [])


PROFILE = TinyProfile()
