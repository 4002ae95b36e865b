"""Planted second editions of Tiny, for the edition diff's tests
(``tests/test_edition_proved.py``): rulesets of Tiny's family whose game end or score
differ from Tiny's, in a module of their own so that the executor's copies of the model
(the plain and the merged copy) can import them as they import Tiny."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, TypeVar

import z3

from tricklaw.model.state import Game
from tricklaw.proofs.scores import CardTerm, ScoreEncoding

from .encoding import TinyScore
from .model import Tiny, score

__all__ = ["BonusTinyScore", "EndlessTiny", "LateTiny", "score", "with_bonus"]
"""``score`` too: a score encoding's model hook finds the score function in the module
of the ruleset's class (:meth:`~tricklaw.proofs.scores.ScoreEncoding.model_score`)."""


class LateTiny(Tiny):
    """A game of 2000 deals: beyond any bounded search of round numbers up to 1000."""

    id = "tiny-late"
    family = "tiny"

    def game_over(self, game: Game, rounds_played: int, totals: tuple[int, ...]) -> bool:
        return rounds_played >= 2000


class EndlessTiny(Tiny):
    """A game that ends only after a multiple of seven deals with a total above ten: never
    with every total at zero."""

    id = "tiny-endless"
    family = "tiny"

    def game_over(self, game: Game, rounds_played: int, totals: tuple[int, ...]) -> bool:
        return rounds_played % 7 == 0 and max(totals) > 10


S = TypeVar("S", bound=ScoreEncoding)


def with_bonus(base: type[S]) -> type[S]:
    """``base`` scoring one point more a round, in the encoding and in the model's hook
    alike (so that the two stay equal, and the edition differs)."""

    class Bonus(base):  # type: ignore[valid-type,misc]
        def score(
            self, pile: Mapping[Any, z3.BoolRef], cards: Mapping[str, CardTerm]
        ) -> tuple[z3.ArithRef, tuple[str, ...]]:
            total, ids = super().score(pile, cards)
            return total + 1, ids

        def model_score(
            self, module: ModuleType, game: Any, pile: Any, cards: Mapping[str, Any]
        ) -> Any:
            return super().model_score(module, game, pile, cards) + 1

    return Bonus


BonusTinyScore = with_bonus(TinyScore)
