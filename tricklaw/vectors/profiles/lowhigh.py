"""The vector profile of the low-card-takes-high game (``lowhigh``).

Its tricks need no context and every card may be played when the lead colour is not held,
so the generic cases serve; what is its own is scoring: a colour held once or twice scores
its face values, three or more one point a card (LH-SCORE-1..4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from tricklaw.model.cards import Card, colour_of
from tricklaw.model.rulesets import lowhigh as rules
from tricklaw.model.state import Game
from tricklaw.vectors.cases import Json, roles
from tricklaw.vectors.profile import GamePlan, Profile
from tricklaw.vectors.profiles import PROFILES


def _few_and_many(game: Game, inputs: Json) -> tuple[bool, bool]:
    """Whether some seat holds a colour once or twice (LH-SCORE-2), and whether some seat
    holds a colour three or more times (LH-SCORE-3)."""
    held = [
        n
        for cards in inputs["taken"]
        for n in Counter(colour_of(c) for c in game.ruleset.palette.parse_all(cards)).values()
    ]
    return any(n <= 2 for n in held), any(n >= 3 for n in held)


class LowHighProfile(Profile):
    """lowhigh: scoring by colour, few cards at face value, many at one point each."""

    game_variants: ClassVar[tuple[GamePlan, ...]] = (
        (4, {"same-card": "among-rest"}, 3),
        (4, {"first-leader": "seat0"}, 3),
        (3, {"rounds": 1}, 3),
    )

    def deal_clauses(self, game: Game) -> list[str]:
        """Also the set-up."""
        return super().deal_clauses(game) + roles(game.ruleset, "setup")

    def run_score(
        self, game: Game, taken: list[tuple[Card, ...]], inputs: Mapping[str, Any]
    ) -> Json:
        """:func:`~tricklaw.model.rulesets.lowhigh.score` of each seat's cards."""
        return {"scores": [rules.score(t) for t in taken]}

    def score_signature(self, game: Game, inputs: Json, expected: Json) -> tuple[Any, ...]:
        """Whether the round has colours scored by count, and colours at face value."""
        few, many = _few_and_many(game, inputs)
        return (many, few)

    def score_clauses(self, game: Game, inputs: Json) -> list[str]:
        """Scoring by colour, the open display of cards taken, and the rule for few or
        many cards of a colour where the round shows it."""
        ruleset = game.ruleset
        out = super().score_clauses(game, inputs) + roles(ruleset, "score-colour", "display")
        few, many = _few_and_many(game, inputs)
        out += roles(ruleset, "score-few") if few else []
        out += roles(ruleset, "score-many") if many else []
        return out

    def game_clauses(self, game: Game, record: Json) -> list[str]:
        """The aim, the first leader's reading, the set-up and every scoring rule."""
        out = [*super().game_clauses(game, record), "LH-AIM-1", "LH-D-FIRSTLEAD"]
        ruleset = game.ruleset
        return out + roles(ruleset, "setup", "display", "score-colour", "score-few", "score-many")


PROFILES.register("lowhigh", LowHighProfile())
