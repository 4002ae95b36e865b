"""lowhigh's round score in Z3, from the clauses LH-SCORE-1..4."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

import z3

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.proofs.encodings.lowhigh import LowHighTrick
from tricklaw.proofs.scores import SCORES, CardTerm, ScoreEncoding


class LowHighScore(ScoreEncoding):
    """Per colour (LH-SCORE-1): one or two cards score their face values (LH-SCORE-2),
    three or more one point a card (LH-SCORE-3); the total sums the colours
    (LH-SCORE-4)."""

    ruleset = "lowhigh"

    def deck_table(self) -> tuple[int, range, str]:
        """The trick encoding's deck (LH-DECK-1)."""
        return LowHighTrick(self.game).deck_table()

    def score(
        self, pile: Mapping[Card, z3.BoolRef], cards: Mapping[str, CardTerm]
    ) -> tuple[z3.ArithRef, tuple[str, ...]]:
        """The sum over the colours of each colour's points."""
        colours, _, _ = self.deck_table()
        parts = []
        for colour in range(colours):
            mine = [(value_of(c), h) for c, h in pile.items() if colour_of(c) == colour]
            count = z3.Sum([z3.If(h, 1, 0) for _, h in mine])
            values = z3.Sum([z3.If(h, v, 0) for v, h in mine])
            parts.append(z3.If(count <= 2, values, count))
        return z3.Sum(parts), ("LH-SCORE-1", "LH-SCORE-2", "LH-SCORE-3", "LH-SCORE-4")

    def model_score(
        self, module: ModuleType, game: Any, pile: Any, cards: Mapping[str, Any]
    ) -> Any:
        """The model's ``score`` of the cards the seat received."""
        return module.score(pile)


SCORES.register("lowhigh", LowHighScore)
