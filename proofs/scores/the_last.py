"""The Last's round score in Z3, from the clauses LAST-SCORE-1 and LAST-GHOST-6."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

import z3

from tricklaw.model.cards import Card, value_of
from tricklaw.proofs.encodings.the_last import TheLastTrick
from tricklaw.proofs.scores import SCORES, CardTerm, ScoreEncoding


class TheLastScore(ScoreEncoding):
    """A seat's penalty: the sum of the values of its face-down cards (LAST-SCORE-1);
    the ghost (the seat beyond the players, LAST-GHOST-1) is left out (LAST-GHOST-6)."""

    ruleset = "the-last"

    def deck_table(self) -> tuple[int, range, str]:
        """The trick encoding's deck (LAST-DECK-1)."""
        return TheLastTrick(self.game).deck_table()

    def score(
        self, pile: Mapping[Card, z3.BoolRef], cards: Mapping[str, CardTerm]
    ) -> tuple[z3.ArithRef, tuple[str, ...]]:
        """The penalty, or 0 for the ghost."""
        if self.seat >= self.game.players:
            return z3.IntVal(0), ("LAST-GHOST-1", "LAST-GHOST-6")
        return z3.Sum([z3.If(h, value_of(c), 0) for c, h in pile.items()]), ("LAST-SCORE-1",)

    def model_score(
        self, module: ModuleType, game: Any, pile: Any, cards: Mapping[str, Any]
    ) -> Any:
        """The model's scores with ``pile`` face down at this seat, nothing at the others."""
        taken = tuple(pile if s == self.seat else () for s in range(game.seats))
        return module._scores(game, taken)[self.seat]


SCORES.register("the-last", TheLastScore)
