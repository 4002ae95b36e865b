"""The vector profile of The Last (``the-last``).

The deal lays out a points pile and draws the first player (LAST-DEAL-2, LAST-LEAD-1); with
two players a ghost takes the third seat and plays by itself (LAST-GHOST-1..6). The last
card of a trick is bound by the colours played (LAST-PLAY-3, dispute LAST-D-LASTPLAY), and
a round scores the points cards each seat laid face down (LAST-COLLECT-2), not the cards
its tricks held.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tricklaw.model.cards import Card
from tricklaw.model.rulesets import the_last as rules
from tricklaw.model.state import Game, RoundLog
from tricklaw.vectors.cases import Json, roles
from tricklaw.vectors.profile import GamePlan, Profile, Variants, actions_seen
from tricklaw.vectors.profiles import PROFILES


def _last_card(game: Game, trick: Sequence[Card]) -> bool:
    """Whether the card to play after ``trick`` is the trick's last."""
    return len(trick) == game.seats - 1


class TheLastProfile(Profile):
    """The Last: points cards face down, the ghost of the two-player game."""

    legal_variants: ClassVar[Variants] = ({"last-play": "played-colours"}, {"last-play": "free"})
    score_variants: ClassVar[Variants] = ({}, {"unused-points": "last-winner"})
    game_variants: ClassVar[tuple[GamePlan, ...]] = (
        (2, {"rounds": 3, "ghost-seat": "fixed"}, 3),
        (2, {"ghost-play": "first-legal"}, 3),
        (4, {"unused-points": "last-winner"}, 3),
        (3, {"last-play": "free"}, 3),
        (3, {"rounds": 2}, 4),
    )

    def deal_clauses(self, game: Game) -> list[str]:
        """The set-up, the points pile and the drawn first player; with two players the
        ghost's deal and pile instead of the three-to-five-player deal table."""
        ruleset = game.ruleset
        out = super().deal_clauses(game) + roles(ruleset, "setup", "points-pile", "first-lead")
        if game.players == 2:
            out += roles(ruleset, "ghost-deal", "ghost-pile")
            out.remove(ruleset.clause["deal"])  # the three-to-five-player deal table
        return out

    def legal_clauses(self, game: Game, trick: Sequence[Card]) -> list[str]:
        """The last card of a trick is bound by the colours played (LAST-D-LASTPLAY)."""
        if trick and _last_card(game, trick):
            return [*roles(game.ruleset, "turn", "play-last"), "LAST-D-LASTPLAY"]
        return super().legal_clauses(game, trick)

    def forbidding_clause(self, game: Game, trick: Sequence[Card]) -> str:
        """The last card's rule forbids the trick's last card."""
        if _last_card(game, trick):
            return game.ruleset.clause["play-last"]
        return super().forbidding_clause(game, trick)

    def taken(self, game: Game, log: RoundLog) -> list[list[Card]]:
        """The points cards each seat laid face down (LAST-COLLECT-2)."""
        return rules.face_down(game, log)[0]

    def run_score(
        self, game: Game, taken: list[tuple[Card, ...]], inputs: Mapping[str, Any]
    ) -> Json:
        """:func:`~tricklaw.model.rulesets.the_last.penalty` of each seat's face-down
        cards; the ghost scores nothing."""
        ghost = rules.GHOST if game.players == 2 else None
        return {"scores": [0 if s == ghost else rules.penalty(t) for s, t in enumerate(taken)]}

    def score_signature(self, game: Game, inputs: Json, expected: Json) -> tuple[Any, ...]:
        """A seat with more face-down cards than the first seat's one more, and how many
        seats score nothing."""
        taken = inputs["taken"]
        return (any(len(t) > len(taken[0]) + 1 for t in taken), expected["scores"].count(0))

    def score_clauses(self, game: Game, inputs: Json) -> list[str]:
        """The ghost's score; with four players, the points cards never turned up."""
        out = super().score_clauses(game, inputs)
        out += roles(game.ruleset, "ghost-score") if game.players == 2 else []
        if game.players == 4:
            out.append("LAST-D-UNUSED")  # 4 x 9 cards leave points cards never turned up
        return out

    def game_clauses(self, game: Game, record: Json) -> list[str]:
        """The set-up, turning up, keeping or swapping, and the ghost's rules."""
        ruleset = game.ruleset
        out = super().game_clauses(game, record)
        out += ["LAST-AIM-1", "LAST-D-ROUNDS"]
        out += roles(ruleset, "setup", "points-pile", "first-lead", "turn-up", "play-last")
        out += roles(ruleset, "decide") if actions_seen(record) & {"keep", "swap"} else []
        if game.players == 2:
            out.remove(ruleset.clause["deal"])
            out += roles(ruleset, "ghost-deal", "ghost-pile", "ghost-play", "ghost-turn")
            out += roles(ruleset, "ghost-score")
            tricks = [t for r in record["rounds"] for t in r["tricks"]]
            ghost_won = any(t["winner"] == rules.GHOST for t in tricks)
            out += roles(ruleset, "ghost-wins") if ghost_won else []
        return out

    def perft_clauses(self, game: Game, met: set[str], prefix: Sequence[int]) -> list[str]:
        """With two players the ghost plays between the decisions counted."""
        out = super().perft_clauses(game, met, prefix)
        return out + (roles(game.ruleset, "ghost-play") if game.players == 2 else [])


PROFILES.register("the-last", TheLastProfile())
