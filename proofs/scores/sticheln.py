"""Sticheln's round score in Z3 (both editions), from the clauses STI-SCORE-1..4 and
STI93-SCORE-1..4: the misery (unwanted) colour's cards count minus their value, every
other card plus one, and the picked card counts too."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

import z3

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.proofs.encodings.sticheln import StichelnTrick
from tricklaw.proofs.plays import is_card
from tricklaw.proofs.scores import SCORES, CardTerm, ScoreEncoding


class StichelnScore(ScoreEncoding):
    """A seat's score from the cards it won (the pile) and its picked card."""

    ruleset = "sticheln"
    readings = ("deck",)
    cards = ("picked",)

    def deck_table(self) -> tuple[int, range, str]:
        """The trick encoding's deck (STI-DECK-1, STI93-DECK-2, or STI93-D-DECK)."""
        return StichelnTrick(self.game).deck_table()

    def card_domain(
        self, pile: Mapping[Card, z3.BoolRef], cards: Mapping[str, CardTerm]
    ) -> list[z3.BoolRef]:
        """The picked card is a card of the deck that was not won (each card exists
        once)."""
        picked = cards["picked"]
        return [z3.Implies(is_card(picked, c), z3.Not(h)) for c, h in pile.items()]

    def score(
        self, pile: Mapping[Card, z3.BoolRef], cards: Mapping[str, CardTerm]
    ) -> tuple[z3.ArithRef, tuple[str, ...]]:
        """Minus the value of every misery-colour card, the picked card included (SCORE-1,
        SCORE-3); plus one for every other card (SCORE-2); their sum (SCORE-4)."""
        colour, value = cards["picked"]
        parts = [
            z3.If(h, z3.If(colour == colour_of(c), -value_of(c), 1), 0) for c, h in pile.items()
        ]
        prefix = "STI93" if self.game.ruleset.id == "sticheln-1993" else "STI"
        ids = tuple(f"{prefix}-SCORE-{k}" for k in (1, 2, 3, 4))
        return z3.Sum([-value, *parts]), ids

    def model_score(
        self, module: ModuleType, game: Any, pile: Any, cards: Mapping[str, Any]
    ) -> Any:
        """The model's ``score`` of the picked card and the cards won."""
        return module.score(cards["picked"], pile)


SCORES.register("sticheln-1993", StichelnScore)
SCORES.register("sticheln", StichelnScore)
