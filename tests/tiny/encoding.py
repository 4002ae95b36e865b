"""Tiny's trick rule and card flow in Z3: the encoding layer's part of the example game.

Written from the clauses of ``spec/tiny.toml``, never from :mod:`.model`: twelve cards, the
values 1-4 in three colours (TINY-DECK-1); the highest card of the led colour wins
(TINY-TRICK-1). One rule for every trick, so the text has one case; each value exists
once per colour, so two cards of the led colour never tie.

Card conservation (:func:`conservation_machine`): the cards are dealt to the hands
(TINY-DEAL-1), played to the trick (TINY-PLAY-1) and taken whole by its winner
(TINY-COLLECT-1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType, ModuleType
from typing import Any, ClassVar

import z3

from tricklaw.model.cards import Card
from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.conservation import Machine, plays, seat_places, takes
from tricklaw.proofs.game_end import Ending
from tricklaw.proofs.liveness import GameLiveness, Progress, plain_round
from tricklaw.proofs.model_rules import GameRules, Table
from tricklaw.proofs.plays import FollowLead
from tricklaw.proofs.quantities import (
    PLAY_ORDER,
    CardQuantity,
    PlayerQuantity,
    cards,
)
from tricklaw.proofs.round_rules import RoundRule
from tricklaw.proofs.scores import CardTerm, ScoreEncoding
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import Case, TrickEncoding


class TinyTrick(TrickEncoding):
    """A trick of Tiny: the highest card of the led colour wins."""

    ruleset = "tiny"
    tie_rule = "by value within the led colour; no tie possible"
    hollow: ClassVar[Mapping[str, str]] = {
        "coverage": "one case for every trick (TINY-TRICK-1)",
        "overlap": "one text case: no pair of cases to overlap",
        "tie-rule": "only cards of the led colour compete, each value once in it: no tie "
        "can arise (ties-possible shows it)",
    }

    def deck_table(self) -> tuple[int, range, str]:
        """Three colours of 1-4 (TINY-DECK-1)."""
        return 3, range(1, 5), "TINY-DECK-1"

    def led(self) -> list[z3.BoolRef]:
        """The cards of the led colour (the first card's)."""
        return [c == self.colour[0] for c in self.colour]

    def text_cases(self) -> list[Case]:
        """One case for every trick (TINY-TRICK-1)."""
        return [Case("TINY-TRICK-1", z3.BoolVal(True))]

    def citations(self) -> Mapping[str, z3.BoolRef]:
        """Every trick is decided by its led colour's highest card, and its winner takes
        every card (TINY-TRICK-1, TINY-COLLECT-1)."""
        return {"TINY-TRICK-1": z3.BoolVal(True), "TINY-COLLECT-1": z3.BoolVal(True)}

    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        """The winner plays the led colour and no card of it is higher (TINY-TRICK-1)."""
        w, led = outcome["winner"], self.led()
        return [Tracked("TINY-TRICK-1", z3.And(self.is_one_of(w, led), self.no_higher(w, led)))]

    def tie_possible(self) -> z3.BoolRef:
        """Two cards of the led colour with one value (impossible: each card once)."""
        led = self.led()
        return z3.Or(
            *[
                z3.And(led[i], led[j], self.value[i] == self.value[j])
                for i in range(self.size)
                for j in range(i + 1, self.size)
            ]
        )

    def tie_winner(self, outcome: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        """The winner is a highest card of the led colour."""
        w, led = outcome["winner"], self.led()
        return z3.And(self.is_one_of(w, led), self.no_higher(w, led))


def conservation_machine(ruleset: str, seats: int, clause: Mapping[str, str]) -> Machine:
    """Where Tiny's cards can be: dealt to the hands (``deal``), played to the trick
    (``turn``), taken whole by the winner (``collect``)."""
    hands, taken = seat_places("hand", seats), seat_places("taken", seats)
    moves = (*plays(seats, clause), *takes(seats, clause["collect"]))
    return Machine(ruleset, (*hands, "trick", *taken), hands, clause["deal"], moves)


def progress(game: Game) -> Progress:
    """Tiny's round as a progress machine: all twelve cards dealt evenly (TINY-DEAL-1),
    seat 0 leads (TINY-LEAD-1), the cards played in turn (TINY-PLAY-1), the winner leads
    next (TINY-COLLECT-1)."""
    hand = 12 // game.seats
    return plain_round(
        game.ruleset.id, game.seats, game.players, hand, game.ruleset.clause, first=0
    )


def ending(game: Game) -> Ending:
    """One deal is the game (TINY-GAME-1)."""
    return Ending("TINY-GAME-1", lambda rounds, totals: rounds >= 1, 1)


LIVENESS_PART = GameLiveness((), progress, (), ending)
"""Tiny's liveness part: no reading changes its round or its end."""


class TinyPlay(FollowLead):
    """What may be played in Tiny: any card to lead; then the led colour if the hand holds
    it, else any card (TINY-PLAY-1)."""

    ruleset = "tiny"
    trick_encoding = TinyTrick
    readings = ()
    hold_clause = "TINY-PLAY-1"
    follow_clause = "TINY-PLAY-1"


def _points(game: Game, values: Sequence[z3.ArithRef]) -> list[Tracked]:
    """Each player's points: none below zero, and one a trick, all twelve cards dealt
    and played (TINY-DEAL-1, TINY-SCORE-1)."""
    tricks = 12 // game.players
    return [Tracked("TINY-SCORE-1", z3.And(*[v >= 0 for v in values], z3.Sum(*values) == tricks))]


QUANTITIES: Mapping[str, CardQuantity | PlayerQuantity] = MappingProxyType(
    {
        "led-colour-value": CardQuantity(cards("led")),  # by value (TINY-TRICK-1)
        # The led card: the first played (TINY-PLAY-1); places never tie.
        "play-order": PLAY_ORDER,
        "total": PlayerQuantity(relaxation=_points),
    }
)
"""The quantities Tiny's clauses pick by (``[[clause.picks]]`` of ``spec/tiny.toml``)."""


class TinyScore(ScoreEncoding):
    """One point for each trick taken (TINY-SCORE-1); the taker of a trick takes its
    cards, one from each player (TINY-COLLECT-1): the cards taken over the players."""

    ruleset = "tiny"

    def deck_table(self) -> tuple[int, range, str]:
        """The trick encoding's deck."""
        return TinyTrick(self.game).deck_table()

    def score(
        self, pile: Mapping[Card, z3.BoolRef], cards: Mapping[str, CardTerm]
    ) -> tuple[z3.ArithRef, tuple[str, ...]]:
        """The number of cards taken, divided by the players."""
        taken = z3.Sum([z3.If(h, 1, 0) for h in pile.values()])
        return taken / self.game.players, ("TINY-SCORE-1", "TINY-COLLECT-1")

    def model_score(
        self, module: ModuleType, game: Any, pile: Any, cards: Mapping[str, Any]
    ) -> Any:
        """The model's ``score``."""
        return module.score(pile, game.players)


def table(game: Game) -> Table:
    """Every card dealt: six each to two players, four each to three (TINY-DEAL-1)."""
    return Table(game.players, 12 // game.players, ("TINY-DEAL-1",))


MODEL_RULES_PART = GameRules(table)
"""Tiny's set-up as the deal clause states it (no automatic seat)."""


def _first_leader(game: Game, log: RoundLog) -> int:
    """The model's leader of the round's first trick."""
    return log.first_leader


def _seat_zero_leads(game: Game, v: Mapping[str, z3.ArithRef], out: z3.ArithRef) -> list[Tracked]:
    """Seat 0, the dealer's left-hand neighbour, leads the first trick (TINY-LEAD-1)."""
    return [Tracked("TINY-LEAD-1", out == 0)]


ROUND_RULES_PART = (
    RoundRule("first-leader", (), None, lambda game, log: {}, _seat_zero_leads, _first_leader),
)
"""Tiny's rule of a round's start (who leads first)."""
