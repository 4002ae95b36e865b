"""What a player's round score is, in Z3: the interface every ruleset's score encoding
fills in, and the layer's registry.

A :class:`ScoreEncoding` is written from the score clauses in ``spec/`` (never from the
model's code). For one game (player count and readings) and one seat it states the
seat's round score from

* ``pile``: a Mapping from each card of the deck in play to a z3 Bool, true when the
  cards the seat ends the round with (won, laid face down: whatever the game scores)
  include that card;
* ``cards``: the single cards the score also depends on (:attr:`ScoreEncoding.cards`,
  e.g. Sticheln's picked misery card), each a ``(colour, value)`` pair of z3 Ints, with
  :meth:`ScoreEncoding.card_domain` saying which cards they can be.

:meth:`ScoreEncoding.model_score` is the hook that calls the model's score function on
the same inputs; it receives the model's module (the merged copy that
:mod:`tricklaw.proofs.equivalence_score` executes), so an encoding never imports the
model. :data:`SCORES` maps each ruleset id to its encoding class; each game's module in
this package registers its own (a game is a unit).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

import z3

from tricklaw.model.cards import Card, build_deck
from tricklaw.model.registry import Registry
from tricklaw.model.state import Game

CardTerm = tuple[z3.ArithRef, z3.ArithRef]


class ScoreEncoding(ABC):
    """A seat's round score for one ruleset, player count and readings."""

    ruleset: str
    readings: tuple[str, ...] = ()
    """The options whose readings change a seat's score (each combination is proved)."""
    cards: tuple[str, ...] = ()
    """The names of the single cards besides the pile the score depends on."""
    every_pile: bool = False
    """True when a seat's score depends on every seat's pile: then each card of the
    deck lies in at most one seat's pile, and :meth:`ScoreEncoding.score_of_all` and
    :meth:`ScoreEncoding.model_score_of_all` are what state and run it."""

    @classmethod
    def contexts(cls, game: Game) -> list[dict[str, Any]]:
        """The contexts the score depends on besides the piles (one empty context)."""
        return [{}]

    def __init__(self, game: Game, seat: int, context: Mapping[str, Any] | None = None) -> None:
        self.game = game
        self.options = game.options
        self.seat = seat
        self.context = dict(context or {})

    def numbers(self) -> tuple[str, ...]:
        """The names of the integers besides the piles the score depends on (none)."""
        return ()

    def number_domain(self, numbers: Mapping[str, z3.ArithRef]) -> list[z3.BoolRef]:
        """What those integers can be."""
        return []

    def score_of_all(
        self,
        piles: Sequence[Mapping[Card, z3.BoolRef]],
        cards: Mapping[str, CardTerm],
        numbers: Mapping[str, z3.ArithRef],
    ) -> tuple[z3.ArithRef, tuple[str, ...]]:
        """The seat's score from every seat's pile (by default
        :meth:`ScoreEncoding.score` of its own)."""
        return self.score(piles[self.seat], cards)

    def model_score_of_all(
        self,
        module: ModuleType,
        game: Any,
        piles: Sequence[Any],
        cards: Mapping[str, Any],
        numbers: Mapping[str, Any],
    ) -> Any:
        """The model's score of the seat from every seat's pile (by default
        :meth:`ScoreEncoding.model_score` of its own)."""
        return self.model_score(module, game, piles[self.seat], cards)

    @abstractmethod
    def deck_table(self) -> tuple[int, range, str]:
        """(number of colours, the values, the deck clause id) of the deck in play."""

    def deck(self) -> tuple[Card, ...]:
        """The cards in play, in canonical order."""
        colours, values, _ = self.deck_table()
        return build_deck(range(colours), values)

    def seats(self) -> range:
        """The seats whose score is proved (every seat by default)."""
        return range(self.game.seats)

    def card_domain(
        self, pile: Mapping[Card, z3.BoolRef], cards: Mapping[str, CardTerm]
    ) -> list[z3.BoolRef]:
        """What the single cards can be, beside the pile (none by default)."""
        return []

    def pile_limit(self) -> int:
        """The most cards a pile can hold (the deck by default: every subset)."""
        return len(self.deck())

    def score(
        self, pile: Mapping[Card, z3.BoolRef], cards: Mapping[str, CardTerm]
    ) -> tuple[z3.ArithRef, tuple[str, ...]]:
        """The seat's round score as a z3 Int term, and the clause ids stating it (an
        encoding with :attr:`ScoreEncoding.every_pile` states
        :meth:`ScoreEncoding.score_of_all` instead)."""
        raise NotImplementedError(f"{type(self).__name__} states neither score nor score_of_all")

    def model_score(
        self, module: ModuleType, game: Any, pile: Any, cards: Mapping[str, Any]
    ) -> Any:
        """The model's score of the seat, from ``module`` (the module of ``game``'s
        ruleset class in the copy of the model that runs), for ``pile`` (a sequence of
        cards) and the single ``cards``."""
        raise NotImplementedError(
            f"{type(self).__name__} runs neither model_score nor model_score_of_all"
        )


SCORES: Registry[type[ScoreEncoding]] = Registry("score encoding", __name__)
"""Ruleset id -> its score encoding."""
