"""The vector profile of Sticheln, both editions (``sticheln-1993`` and ``sticheln``).

Every seat picks its misery card first (a SELECT decision), so the perft counts also start
from the first trick after the picks, under every reading of what may be played. A trick
led by a zero takes another path through the rules (STI93-TRICK-2/3, STI-TRICK-1/4/5), and
the picked cards are the round fact that scoring reads (STI93-SCORE-3, STI-SCORE-3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import sticheln as rules
from tricklaw.model.state import Game, Phase
from tricklaw.model.trick import TrickResult
from tricklaw.vectors.cases import Json, roles
from tricklaw.vectors.profile import GamePlan, Profile, Root, Variants
from tricklaw.vectors.profiles import PROFILES


class StichelnProfile(Profile):
    """What both editions share; each edition adds its own clauses."""

    deck_by_players: ClassVar[Mapping[int, str]]
    """The clause of the deck table's row for each player count."""
    picked_counts: ClassVar[str]
    """The clause by which the picked card counts against its player."""
    score_facts = ("picked",)

    def deal_clauses(self, game: Game) -> list[str]:
        """The deck, the deal and the deck table's row for the player count (unless the
        1993 edition's ``deck=full`` reading sets the table aside)."""
        out = super().deal_clauses(game)
        by_table = game.options.as_dict().get("deck", "table") == "table"
        return out + ([self.deck_by_players[game.players]] if by_table else [])

    def trick_signature(
        self, cards: Sequence[Card], result: TrickResult, context: Mapping[str, Any] | None
    ) -> tuple[Any, ...]:
        """Whether a zero leads the trick."""
        return (value_of(cards[0]) == 0,)

    def trick_clauses(
        self, game: Game, result: TrickResult, context: Mapping[str, Any] | None
    ) -> list[str]:
        """The turn, and collecting a trick that somebody takes."""
        out = roles(game.ruleset, "turn")
        if result.winner is not None:
            out += roles(game.ruleset, "collect")
        return out

    def run_score(
        self, game: Game, taken: list[tuple[Card, ...]], inputs: Mapping[str, Any]
    ) -> Json:
        """:func:`~tricklaw.model.rulesets.sticheln.score` of each seat's picked card and
        the cards it won."""
        picked = game.ruleset.palette.parse_all(inputs["facts"]["picked"])
        return {"scores": [rules.score(p, t) for p, t in zip(picked, taken, strict=True)]}

    def score_signature(self, game: Game, inputs: Json, expected: Json) -> tuple[Any, ...]:
        """A deep minus, and a zero picked."""
        scores = expected["scores"]
        return (min(scores) < -10, any(p.endswith("0") for p in inputs["facts"]["picked"]))

    def score_clauses(self, game: Game, inputs: Json) -> list[str]:
        """Minus and plus points, and the picked card counting against its player."""
        out = super().score_clauses(game, inputs)
        return [*out, *roles(game.ruleset, "score-minus", "score-plus"), self.picked_counts]

    def game_clauses(self, game: Game, record: Json) -> list[str]:
        """The picks, their reveal, the first lead, the points, and the next round."""
        ruleset = game.ruleset
        out = super().game_clauses(game, record)
        out += roles(ruleset, "select", "reveal", "first-lead", "score-minus", "score-plus")
        return out + (roles(ruleset, "next-round") if len(record["rounds"]) > 1 else [])

    def perft_roots(self, ruleset: Ruleset[Any], players: int, seed: int) -> list[Root]:
        """Also the first trick after every seat has picked its lowest card, under every
        reading of what may be played."""
        roots = super().perft_roots(ruleset, players, seed)
        for variant in self.legal_variants:
            game = ruleset.make_game(players, variant)
            state = game.new_initial_state(seed)
            prefix = []
            while state.phase is Phase.SELECT:
                action = state.legal_actions()[0]
                prefix.append(action)
                state = state.child(action)
            roots.append((game, prefix))
        return roots


class Sticheln1993Profile(StichelnProfile):
    """The AMIGO 1993 edition: a dealer, the follow rule in dispute, a deck table or the
    whole deck, and ten rounds or a target total."""

    deck_by_players = MappingProxyType(
        {6: "STI93-DECK-3", 5: "STI93-DECK-4", 4: "STI93-DECK-5", 3: "STI93-DECK-6"}
    )
    picked_counts = "STI93-SCORE-4"
    deal_variants: ClassVar[Variants] = ({"deck": "full"},)
    legal_variants: ClassVar[Variants] = (
        {"follow": "free"},
        {"follow": "follow-or-trump"},
        {"follow": "must-follow"},
    )
    game_base = MappingProxyType({"rounds": 2})
    """The text's ten rounds are played once (below); the other games play two."""
    game_variants: ClassVar[tuple[GamePlan, ...]] = (
        (3, {}, 1),
        (4, {"follow": "must-follow", "rounds": 2}, 3),
        (4, {"follow": "follow-or-trump", "rounds": 2}, 3),
        (5, {"all-zero": "no-winner", "rounds": 2}, 3),
        (3, {"deck": "full", "rounds": 1}, 3),
        (3, {"end": "target", "target": 3}, 22),
    )

    def deal_clauses(self, game: Game) -> list[str]:
        """Also the set-up and the 90-card deck the table is cut from."""
        return [*super().deal_clauses(game), "STI93-SETUP-1", "STI93-DECK-1"]

    def legal_clauses(self, game: Game, trick: Sequence[Card]) -> list[str]:
        """The free lead (STI93-LEAD-2), and following under the ``follow`` reading."""
        return super().legal_clauses(game, trick) + (
            ["STI93-D-FOLLOW"] if trick else ["STI93-LEAD-2"]
        )

    def game_clauses(self, game: Game, record: Json) -> list[str]:
        """The aim, the deal, the reveal, the lead, and the text's suggested length."""
        out = super().game_clauses(game, record)
        out += ["STI93-AIM-1", "STI93-DEAL-1", "STI93-SELECT-3", "STI93-LEAD-2"]
        opts = game.options
        suggested = ("rounds", 10) if opts.text("end") == "rounds" else ("target", 100)
        if opts.number(suggested[0]) == suggested[1]:
            out.append("STI93-GAME-2")
        return out

    def perft_clauses(self, game: Game, met: set[str], prefix: Sequence[int]) -> list[str]:
        """Counting from the first trick reads the follow rule."""
        out = super().perft_clauses(game, met, prefix)
        return out + (["STI93-D-FOLLOW"] if prefix else [])


class StichelnLaterProfile(StichelnProfile):
    """The later edition: the unwanted colour, no restriction on what may be played."""

    deck_by_players = MappingProxyType(
        {3: "STI-DECK-2", 4: "STI-DECK-3", 5: "STI-DECK-4", 6: "STI-DECK-5"}
    )
    picked_counts = "STI-SCORE-3"
    game_variants: ClassVar[tuple[GamePlan, ...]] = (
        (4, {"zero-lead": "first-nonzero"}, 3),
        (4, {"round-leader": "youngest"}, 3),
        (3, {"rounds": 1}, 3),
    )

    def trick_clauses(
        self, game: Game, result: TrickResult, context: Mapping[str, Any] | None
    ) -> list[str]:
        """Also the reading that an off-colour zero never wins, where one is played."""
        out = super().trick_clauses(game, result, context)
        lead = colour_of(result.cards[0])
        off_zero = any(colour_of(c) != lead and value_of(c) == 0 for c in result.cards)
        return out + (["STI-D-ZEROOFF"] if off_zero else [])

    def legal_clauses(self, game: Game, trick: Sequence[Card]) -> list[str]:
        """Any card may be played, the leader's included (no restriction)."""
        return super().legal_clauses(game, trick) + roles(game.ruleset, "play")

    def game_clauses(self, game: Game, record: Json) -> list[str]:
        """The picks and the reading of who leads each round."""
        return [*super().game_clauses(game, record), "STI-SELECT-1", "STI-D-ROUNDLEAD"]


PROFILES.register("sticheln-1993", Sticheln1993Profile())
PROFILES.register("sticheln", StichelnLaterProfile())
