"""The Last's trick rule in Z3, written from its clauses.

002, lines 7, 29-31: 48 cards, values 1-12 in four colours (LAST-DECK-1). The
colour of the last card played is the winning colour, whatever it is
(LAST-TRICK-2); the player of the highest value of that colour takes the
points card (LAST-TRICK-3). One rule for every trick: a single text case.
Each value exists once per colour, so two cards of the winning colour never
tie. With two players the ghost fills a third place (LAST-GHOST-1), so the
trick has as many cards as there are seats.
"""

from __future__ import annotations

from collections.abc import Mapping

import z3

from tricklaw.proofs.encodings import ENCODINGS
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


ENCODINGS.register("the-last", TheLastTrick)
