"""The low-card-takes-high trick rule in Z3, written from its clauses.

003, lines 15-22: five colours, values 1 to 9, 12, 15 or 18 for 3, 4, 5 or 6
players (LH-DECK-1). Lines 28-33: the highest card is found first, then the
lowest (LH-TRICK-1); highest and lowest go by number alone, the one played
last among equal numbers counting (LH-TRICK-2, LH-TRICK-3). The lowest card's
player takes the highest card (LH-TRICK-4); the highest card's player takes
the rest and leads next (LH-TRICK-5, LH-LEAD-1).

Two outcome variables: ``winner``, the position of the highest card, and
``low``, the position of the player who takes the highest card. Highest and
lowest are two roles in every trick, not alternative cases, so the text has
one case (LH-TRICK-1). When every card has one value the same card is both
(dispute LH-D-SAMECARD): under ``same-player`` its player takes the highest
card himself (``low = winner``); under ``among-rest`` the lowest is sought
among the other cards, the latest of equal ones.

Card conservation (:func:`conservation_machine`): the trick's highest card goes to the
lowest card's player and the rest to the highest's (LH-TRICK-4, LH-TRICK-5), or the
whole trick to one player (LH-D-SAMECARD).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

import z3

from tricklaw.model.cards import Card
from tricklaw.model.state import Game
from tricklaw.model.trick import TrickResult
from tricklaw.proofs.conservation import (
    MACHINES,
    Machine,
    Transition,
    per_seat,
    plays,
    pour,
    seat_places,
    split,
)
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.game_end import Ending
from tricklaw.proofs.liveness import LIVENESS, GameLiveness, Progress, plain_round
from tricklaw.proofs.plays import PLAYS, FollowLead
from tricklaw.proofs.quantities import (
    PLAY_ORDER,
    TIES,
    CardQuantity,
    PlayerQuantity,
    every_card,
)
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import Case, TrickEncoding

COLOURS = 5
"""Every value exists in five colours (003 lines 17-20, 56, 68-76; LH-DECK-1)."""
TOP = MappingProxyType({3: 9, 4: 12, 5: 15, 6: 18})
"""players -> the top value in use, from 1 (003 lines 17-20, LH-DECK-1; 6 players: all
cards, 90 = 6 x 15, so 1-18)."""


class LowHighTrick(TrickEncoding):
    """A lowhigh trick: highest card to the lowest's player, the rest to the highest's."""

    ruleset = "lowhigh"
    readings = ("same-card",)
    tie_rule = "the one played last among the cards of the top value"
    hollow: ClassVar[Mapping[str, str]] = {
        "coverage": "one case for every trick (LH-TRICK-1)",
        "overlap": "one text case: no pair of cases to overlap",
    }
    unasserted: ClassVar[Mapping[str, str]] = {
        "LH-TRICK-1": "it orders the two decisions (highest first, then lowest); they are "
        "asserted as LH-TRICK-2 and LH-TRICK-3, and the order matters only in the all-equal "
        "trick, asserted as LH-D-SAMECARD",
    }

    def __init__(self, game: Game, context: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, context)
        self.outcome = {"winner": z3.Int("winner"), "low": z3.Int("low")}
        self.among_rest = self.options["same-card"] == "among-rest"

    def deck_table(self) -> tuple[int, range, str]:
        """Five colours of 1 .. the top value for the player count (LH-DECK-1)."""
        return COLOURS, range(1, TOP[self.game.players] + 1), "LH-DECK-1"

    def text_cases(self) -> list[Case]:
        """Every trick is decided the same way, highest first, then lowest (LH-TRICK-1):
        LH-TRICK-2 and LH-TRICK-3 are two roles in one case, not alternatives."""
        return [Case("LH-TRICK-1", z3.BoolVal(True))]

    def all_equal(self) -> z3.BoolRef:
        """Every card shows one number: then LH-TRICK-2 and LH-TRICK-3 both name the
        last card (dispute LH-D-SAMECARD)."""
        return z3.And(*[v == self.value[0] for v in self.value[1:]])

    def citations(self) -> Mapping[str, z3.BoolRef]:
        """Every trick is decided by the highest and the lowest card, in that order
        (LH-TRICK-1..3), and the highest card's player leads next (LH-LEAD-1); the
        all-equal trick is the dispute LH-D-SAMECARD; the highest card goes to the
        lowest card's player and the rest to the highest's (LH-TRICK-4/5) unless
        ``same-player`` gives the all-equal trick whole to its winner."""
        every = z3.BoolVal(True)
        split = z3.Not(self.all_equal()) if not self.among_rest else every
        return {
            "LH-TRICK-1": every,
            "LH-TRICK-2": every,
            "LH-TRICK-3": every,
            "LH-D-SAMECARD": self.all_equal(),
            "LH-TRICK-4": split,
            "LH-TRICK-5": split,
            "LH-LEAD-1": every,
        }

    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        """Highest and lowest by number alone, the latest of equal ones (LH-TRICK-2/3),
        with the all-equal trick under the ``same-card`` reading (LH-D-SAMECARD)."""
        w, low = outcome["winner"], outcome["low"]
        every = [z3.BoolVal(True)] * self.size
        lowest = z3.And(
            self.is_one_of(low, every), self.no_lower(low, every), self.latest_of_equal(low, every)
        )
        highest = z3.And(
            self.is_one_of(w, every), self.no_higher(w, every), self.latest_of_equal(w, every)
        )
        same = self.all_equal()
        if not self.among_rest:
            return [
                Tracked("LH-TRICK-2", highest),
                Tracked("LH-TRICK-3", lowest),
                Tracked("LH-D-SAMECARD", z3.Implies(same, low == w)),
            ]
        others = [w != i for i in range(self.size)]
        among_rest = z3.And(
            self.is_one_of(low, others),
            self.no_lower(low, others),
            self.latest_of_equal(low, others),
        )
        return [
            Tracked("LH-TRICK-2", highest),
            Tracked("LH-TRICK-3", z3.Implies(z3.Not(same), lowest)),
            Tracked("LH-D-SAMECARD", z3.Implies(same, among_rest)),
        ]

    def outcome_of(self, cards: Sequence[Card], result: TrickResult) -> dict[str, int]:
        """``winner``: the model's winner; ``low``: who receives the highest card (under
        ``same-player`` with all cards equal, the winner, who takes the whole trick)."""
        assert result.winner is not None, "every lowhigh trick has a highest card"
        top = cards[result.winner]
        low = next(offset for offset, taken in result.taken if top in taken)
        return {"winner": result.winner, "low": low}

    def tie_possible(self) -> z3.BoolRef:
        """Two cards share the top value (possible: colours differ)."""
        return z3.Or(
            *[
                z3.And(
                    self.value[i] == self.value[j],
                    *[v <= self.value[i] for v in self.value],
                )
                for i in range(self.size)
                for j in range(i + 1, self.size)
            ]
        )

    def tie_winner(self, outcome: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        """The winner holds the top value and no card played after it has that value."""
        w = outcome["winner"]
        top = self.at(self.value, w)
        return z3.And(
            self.is_one_of(w, [z3.BoolVal(True)] * self.size),
            *[v <= top for v in self.value],
            *[
                z3.Implies(w == i, z3.And(*[self.value[j] != top for j in range(i + 1, self.size)]))
                for i in range(self.size)
            ],
        )


def conservation_machine(ruleset: str, seats: int, clause: Mapping[str, str]) -> Machine:
    """Where lowhigh's cards can be and how they move: dealt to the hands (``deal``);
    played to the trick (``turn``); the trick split, its highest card to one seat and the
    rest to another (``low-takes``), or taken whole by one seat when one card is both
    highest and lowest (LH-D-SAMECARD)."""
    hands, taken = seat_places("hand", seats), seat_places("taken", seats)
    moves = (
        *plays(seats, clause),
        *[
            Transition(
                f"seat {lo} takes the highest card, seat {hi} the rest",
                clause["low-takes"],
                split("trick", f"taken{lo}", f"taken{hi}"),
            )
            for hi in range(seats)
            for lo in range(seats)
            if lo != hi
        ],
        *per_seat(
            seats,
            "seat {s} takes the whole trick",
            "LH-D-SAMECARD",
            lambda s: pour("trick", f"taken{s}"),
        ),
    )
    return Machine(ruleset, (*hands, "trick", *taken), hands, clause["deal"], moves)


class LowHighPlay(FollowLead):
    """What may be played in lowhigh (003): the trick's starter plays any card (LH-PLAY-1); the
    others follow the first card's colour if they can, else play any card (LH-PLAY-2)."""

    ruleset = "lowhigh"
    trick_encoding = LowHighTrick
    readings = ()
    hold_clause = "LH-PLAY-1"
    follow_clause = "LH-PLAY-2"

    def first_hand(self) -> tuple[int, str] | None:
        """15 cards each (LH-DEAL-1)."""
        return 15, "LH-DEAL-1"


ENCODINGS.register("lowhigh", LowHighTrick)
MACHINES.register("lowhigh", conservation_machine)


HAND_SIZE = 15
"""Fifteen cards each (LH-DEAL-1)."""


def progress(game: Game) -> Progress:
    """lowhigh's round as a progress machine: fifteen cards each (LH-DEAL-1), any seat
    starts (LH-D-FIRSTLEAD), the cards played in turn (LH-PLAY-1), the highest card's
    player leads next (LH-LEAD-1)."""
    return plain_round(game.ruleset.id, game.seats, game.players, HAND_SIZE, game.ruleset.clause)


def ending(game: Game) -> Ending:
    """After as many rounds as players, or the ``rounds`` agreed (LH-GAME-1)."""
    n = game.options.number("rounds") or game.players
    return Ending("LH-GAME-1", lambda rounds, totals: rounds >= n, n)


LIVENESS.register("lowhigh", GameLiveness((), progress, (), ending))
PLAYS.register("lowhigh", LowHighPlay)
TIES.register(
    "lowhigh",
    MappingProxyType(
        {
            # The highest and the lowest card: the numbers of every card, colour playing
            # no part (LH-TRICK-2, LH-TRICK-3); the latest copy: the order of play.
            "number": CardQuantity(every_card),
            "play-order": PLAY_ORDER,
            "total": PlayerQuantity(),
        }
    ),
)
