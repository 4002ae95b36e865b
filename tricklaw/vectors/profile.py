"""The vector profile: what the conformance vectors need to know of one game.

The case builders (:mod:`~tricklaw.vectors.deals`, :mod:`~tricklaw.vectors.tricks`,
:mod:`~tricklaw.vectors.legal`, :mod:`~tricklaw.vectors.scores`,
:mod:`~tricklaw.vectors.games`, :mod:`~tricklaw.vectors.perft`) are the same for every
game; they ask the game's :class:`Profile` which readings to sample, how to sample a trick's
context, how to tell outcomes apart, which clauses a case exercises and how to score a round
along another path than the state's. Each game's profile is one module of
:mod:`tricklaw.vectors.profiles`.

The methods here are the parts every game shares (the rule roles of each ruleset's
``clause`` table); a profile overrides them, calling them first, to add its own.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from tricklaw.model.cards import Card
from tricklaw.model.options import OptionValue
from tricklaw.model.rng import SplitMix64
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game, RoundLog
from tricklaw.model.trick import TrickResult
from tricklaw.spec import load_registry
from tricklaw.vectors.cases import Json, non_default_disputes, roles

Variants = tuple[Mapping[str, OptionValue], ...]
"""Readings of a game's options, each given by the options it sets."""
GamePlan = tuple[int, Mapping[str, OptionValue], int]
"""A whole game to play: players, options and seed."""
Root = tuple[Game, list[int]]
"""A perft root: a game, and the actions played from its seeded deal before counting."""


def actions_seen(record: Json) -> set[str]:
    """The kinds of action (``play``, ``keep``, ``leader``, ...) a game record holds."""
    return {a["action"].split()[0] for r in record["rounds"] for a in r["actions"]}


class Profile(ABC):
    """One game's part of the conformance vectors. Subclasses hold no mutable state: the
    readings each kind samples are class attributes, the rest are methods."""

    deal_variants: ClassVar[Variants] = ()
    """The readings besides the defaults that change a deal (one seed each)."""
    trick_contexts: ClassVar[Variants] = ({},)
    """The trick contexts, each read under every reading that can change a trick."""
    trick_candidates: ClassVar[int] = 1500
    """Sampled candidate tricks per player count and context mode."""
    per_signature: ClassVar[int] = 2
    """Tricks kept per signature (outcome class) and reading."""
    legal_variants: ClassVar[Variants] = ({},)
    """Every reading of what may be played."""
    score_variants: ClassVar[Variants] = ({},)
    """The readings whose scoring cases are sampled."""
    score_facts: ClassVar[tuple[str, ...]] = ()
    """The round facts a scoring case gives as input."""
    game_base: ClassVar[Mapping[str, OptionValue]] = MappingProxyType({})
    """Options of the games played at every player count."""
    game_variants: ClassVar[tuple[GamePlan, ...]] = ()
    """The games that exercise other readings."""

    def applies(self, players: int, variant: Mapping[str, OptionValue]) -> bool:
        """Whether the deal or scoring cases read ``variant`` at ``players`` (every reading
        matters at every player count, unless the game says otherwise)."""
        return True

    # --- deals -----------------------------------------------------------------------

    def deal_clauses(self, game: Game) -> list[str]:
        """The clauses a deal exercises: the deck and the deal (a game adds its set-up)."""
        return roles(game.ruleset, "deck", "deal")

    # --- tricks ----------------------------------------------------------------------

    def context_mode(self, variant: Mapping[str, OptionValue]) -> str:
        """Which trick contexts a reading judges (readings of one mode share candidates)."""
        return ""

    def sample_context(self, rng: SplitMix64, game: Game) -> Json | None:
        """A random trick context drawn from ``rng`` (None, drawing nothing, for a game
        whose tricks are decided by their cards alone)."""
        return None

    def edge_context(self, game: Game) -> Json | None:
        """The context in which the hand-made edge tricks are judged."""
        return None

    def hot_values(self, context: Mapping[str, Any] | None) -> list[int]:
        """The card values that ``context`` makes special (the sampler favours them)."""
        return []

    def model_context(self, context: Mapping[str, Any] | None) -> dict[str, str] | None:
        """A vector's structured trick context in the form ``Ruleset.judge_trick`` reads."""
        return None

    def trick_signature(
        self, cards: Sequence[Card], result: TrickResult, context: Mapping[str, Any] | None
    ) -> tuple[Any, ...]:
        """What besides the outcome can change a trick's path through the rules."""
        return ()

    def trick_clauses(
        self, game: Game, result: TrickResult, context: Mapping[str, Any] | None
    ) -> list[str]:
        """The rules of a trick that a case follows besides those the model names."""
        return []

    # --- legal moves -----------------------------------------------------------------

    def legal_clauses(self, game: Game, trick: Sequence[Card]) -> list[str]:
        """The clauses of what may be played after ``trick``: the turn, and following."""
        return roles(game.ruleset, "turn") + (roles(game.ruleset, "play") if trick else [])

    def forbidding_clause(self, game: Game, trick: Sequence[Card]) -> str:
        """The clause that forbids an unplayable card after ``trick`` (the model's
        ``forbidding_clause`` for a card held but not allowed)."""
        return game.ruleset.clause["play"]

    # --- scores ----------------------------------------------------------------------

    def taken(self, game: Game, log: RoundLog) -> list[list[Card]]:
        """The cards that count for each seat at the end of a round, from its log: the
        cards its tricks hand it."""
        return log.taken(game.seats)

    def score_expected(self, game: Game, log: RoundLog) -> Json:
        """The outputs of a scoring case: each seat's score."""
        return {"scores": list(log.scores)}

    @abstractmethod
    def run_score(
        self, game: Game, taken: list[tuple[Card, ...]], inputs: Mapping[str, Any]
    ) -> Json:
        """The outputs of a scoring case from its inputs, by the rules' scoring functions
        (not the state's bookkeeping)."""

    @abstractmethod
    def score_signature(self, game: Game, inputs: Json, expected: Json) -> tuple[Any, ...]:
        """The class of a scored round (one case per class is enough)."""

    def score_clauses(self, game: Game, inputs: Json) -> list[str]:
        """The scoring clauses of a round: the total, and the disputes read otherwise."""
        return roles(game.ruleset, "score-total") + non_default_disputes(game.ruleset, game)

    # --- whole games -----------------------------------------------------------------

    def game_clauses(self, game: Game, record: Json) -> list[str]:
        """The clauses a whole game exercises: those of its tricks, and the rules of rounds,
        turns, scores and the end of the game that every game follows."""
        ruleset = game.ruleset
        rounds = record["rounds"]
        out = [c for r in rounds for t in r["tricks"] for c in t["clauses"]]
        out += non_default_disputes(ruleset, game)
        if len(record["winners"]) > 1:  # a shared win: the reading of each text's game tie
            out += [d.id for d in load_registry(ruleset.id).disputes if d.id.endswith("-GAMETIE")]
        names = ["deck", "deal", "turn", "play", "collect", "round-end", "game-end", "winner"]
        return out + roles(ruleset, *names, "score-total")

    # --- perft -----------------------------------------------------------------------

    def perft_roots(self, ruleset: Ruleset[Any], players: int, seed: int) -> list[Root]:
        """The perft roots: the start of the seeded game."""
        return [(ruleset.make_game(players), [])]

    def perft_clauses(self, game: Game, met: set[str], prefix: Sequence[int]) -> list[str]:
        """The clauses a perft count exercises: the turn, playing, and the decisions met
        (kinds of action, by name)."""
        ruleset = game.ruleset
        out = roles(ruleset, "turn", "play")
        out += roles(ruleset, "select") if "SELECT" in met else []
        out += roles(ruleset, "decide") if "SWAP" in met else []
        out += roles(ruleset, "sets") if "DESIGNATE" in met else []
        return out
