"""The Last's trick rule in Z3, written from its clauses.

002, lines 7, 29-31: 48 cards, values 1-12 in four colours (LAST-DECK-1). The
colour of the last card played is the winning colour, whatever it is
(LAST-TRICK-2); the player of the highest value of that colour takes the
points card (LAST-TRICK-3). One rule for every trick: a single text case.
Each value exists once per colour, so two cards of the winning colour never
tie. With two players the ghost fills a third place (LAST-GHOST-1), so the
trick has as many cards as there are seats.

Card conservation (:func:`conservation_machine`): each trick turns up a points card
(LAST-TRICK-1), its winner takes it and keeps it or swaps it for a hand card, face
down (LAST-TRICK-3, LAST-COLLECT-1); the played cards are discarded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import z3

from tricklaw.model.cards import Card
from tricklaw.proofs.conservation import (
    MACHINES,
    Machine,
    Transition,
    move,
    per_seat,
    plays,
    pour,
    seat_places,
    swap,
)
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.plays import PLAYS, CardTerm, PlayEncoding, colour_in
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import Case, TrickEncoding

COLOURS = 4
"""Four colours (002 line 7, LAST-DECK-1)."""
VALUES = range(1, 13)
"""Each colour holds the values 1 to 12 once (002 line 7, LAST-DECK-1)."""


class TheLastTrick(TrickEncoding):
    """A trick of The Last: the last card names the winning colour."""

    ruleset = "the-last"
    tie_rule = "by value within the winning colour; no tie possible"

    def deck_table(self) -> tuple[int, range, str]:
        """48 cards, 1-12 in four colours, for every player count (LAST-DECK-1)."""
        return COLOURS, VALUES, "LAST-DECK-1"

    def winning(self) -> list[z3.BoolRef]:
        """The cards of the winning colour: the last card's colour (LAST-TRICK-2)."""
        last = self.colour[-1]
        return [c == last for c in self.colour]

    def text_cases(self) -> list[Case]:
        """'In all cases' the last card's colour wins (LAST-TRICK-2): one case, no guard."""
        return [Case("LAST-TRICK-2", z3.BoolVal(True))]

    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        """The winner plays the winning colour (LAST-TRICK-2) and holds its highest
        value (LAST-TRICK-3)."""
        w = outcome["winner"]
        winning = self.winning()
        return [
            Tracked("LAST-TRICK-2", self.is_one_of(w, winning)),
            Tracked("LAST-TRICK-3", self.no_higher(w, winning)),
        ]

    def tie_possible(self) -> z3.BoolRef:
        """Two cards of the winning colour with one value (impossible: each card once)."""
        winning = self.winning()
        return z3.Or(
            *[
                z3.And(winning[i], winning[j], self.value[i] == self.value[j])
                for i in range(self.size)
                for j in range(i + 1, self.size)
            ]
        )

    def tie_winner(self, outcome: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        """The winner is a highest card of the winning colour."""
        w = outcome["winner"]
        winning = self.winning()
        return z3.And(self.is_one_of(w, winning), self.no_higher(w, winning))


def conservation_machine(ruleset: str, seats: int, clause: Mapping[str, str]) -> Machine:
    """Where The Last's cards can be and how they move: dealt to the hands and the points
    pile (``deal``); the top points card turned up (``turn-up``: each trick begins so,
    LAST-TRICK-1); hand cards played (``turn``) and the trick discarded (``collect``);
    the points card won (``points-card``), then kept face down or swapped for a hand card
    laid face down (``decide``); under ``unused-points=last-winner`` the points cards
    never turned up taken by the last trick's winner (LAST-D-UNUSED)."""
    hands, pending, taken = (seat_places(p, seats) for p in ("hand", "pending", "taken"))
    moves = (
        Transition("turn up a points card", clause["turn-up"], move("points", "shown")),
        *plays(seats, clause),
        Transition("discard the trick", clause["collect"], pour("trick", "discard")),
        *per_seat(
            seats,
            "seat {s} wins the points card",
            clause["points-card"],
            lambda s: pour("shown", f"pending{s}"),
        ),
        *per_seat(
            seats, "seat {s} keeps it", clause["decide"], lambda s: pour(f"pending{s}", f"taken{s}")
        ),
        *per_seat(
            seats,
            "seat {s} swaps it",
            clause["decide"],
            lambda s: swap(f"hand{s}", f"pending{s}", f"taken{s}"),
        ),
        *per_seat(
            seats,
            "seat {s} takes the unused points cards",
            "LAST-D-UNUSED",
            lambda s: pour("points", f"taken{s}"),
        ),
    )
    places = (*hands, "points", "shown", "trick", "discard", *pending, *taken)
    return Machine(ruleset, places, (*hands, "points"), clause["deal"], moves)


class TheLastPlay(PlayEncoding):
    """What may be played in The Last (002, lines 23-29): the trick's first player plays
    any card (LAST-PLAY-1); every later player but the last follows the first card's
    colour if he holds it (LAST-PLAY-2); the last player plays a colour already in the
    trick if he holds one (LAST-PLAY-3), or, under ``last-play=free``
    (LAST-D-LASTPLAY), any card. The last player is the one completing the trick
    (a trick has as many cards as seats, the ghost's included: LAST-GHOST-1)."""

    ruleset = "the-last"
    trick_encoding = TheLastTrick
    readings = ("last-play",)
    hold_clause = "LAST-PLAY-1"

    def rule(
        self, held: Mapping[Card, z3.BoolRef], trick: Sequence[CardTerm], card: CardTerm
    ) -> list[Tracked]:
        """The follow duty of a non-first player, the last player's own rule."""
        if not trick:
            return []
        if len(trick) < self.size - 1:
            return [Tracked("LAST-PLAY-2", self.must_if_held(held, card, colour_in([trick[0][0]])))]
        if self.options["last-play"] == "free":
            return []
        played = colour_in([c for c, _ in trick])
        return [Tracked("LAST-PLAY-3", self.must_if_held(held, card, played))]


ENCODINGS.register("the-last", TheLastTrick)
MACHINES.register("the-last", conservation_machine)
PLAYS.register("the-last", TheLastPlay)
