"""Sticheln's trick rule in Z3, both editions, written from their clauses.

1993 (000, lines 35-43): trump cards are the non-zero cards of colours other
than the start colour (STI93-TRICK-2). All start colour: highest wins
(STI93-TRICK-3); otherwise, if only zeros of other colours: highest start-
colour card (STI93-TRICK-4); otherwise highest trump card (STI93-TRICK-5),
the earliest of equal ones (STI93-TRICK-6).

Later edition (001, lines 37-42, 78-80): only lead colour: highest wins
(STI-TRICK-1); any other colour: highest card not of the lead colour
(STI-TRICK-2), the earliest of equal ones (STI-TRICK-3); a zero never wins
and is ignored (STI-TRICK-4); all zeros: nobody (STI-TRICK-6); the lead
card's colour is the lead colour (STI-TRICK-5), or the first non-zero card's
(reading ``zero-lead=first-nonzero``).

Card conservation (:func:`conservation_machine`): the cards move from the hands to the
picked cards (STI93-SELECT-1, STI-SELECT-2), to the trick, and from the trick to its
winner (STI93-COLLECT-1, STI-COLLECT-1) or, when nobody wins it, aside.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import z3

from tricklaw.model.cards import Card
from tricklaw.model.state import Game
from tricklaw.proofs.conservation import (
    MACHINES,
    Machine,
    Transition,
    move,
    per_seat,
    plays,
    pour,
    seat_places,
    takes,
)
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.plays import PLAYS, CardTerm, PlayEncoding
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import NOBODY, Case, TrickEncoding

DECK_1993 = MappingProxyType({3: (5, 8), 4: (5, 11), 5: (5, 14), 6: (6, 14)})
"""players -> (colours, top value): the table of 000 lines 15-23 (STI93-DECK-2)."""
DECK_LATER = MappingProxyType({3: (5, 8), 4: (5, 11), 5: (5, 14), 6: (6, 14)})
"""players -> (colours, top value): 001 lines 5-9 (STI-DECK-1)."""


class StichelnTrick(TrickEncoding):
    """A Sticheln trick, 1993 text or later text, under the chosen readings."""

    tie_rule = "earliest of the equal highest cards off the lead colour"
    readings = ("all-zero", "deck", "zero-lead")

    def __init__(self, game: Game, context: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, context)
        self.ruleset = game.ruleset.id
        self.is_1993 = self.ruleset == "sticheln-1993"

    def recorded(self) -> Mapping[frozenset[str], str]:
        """The overlaps the texts' own words create, and the disputes recording them."""
        if self.is_1993:
            return {frozenset({"STI93-TRICK-4", "STI93-D-ALLZERO"}): "STI93-D-ALLZERO"}
        return {
            frozenset({"STI-TRICK-2", "STI-TRICK-6"}): "STI-D-ZEROOFF",
            frozenset({"STI-TRICK-2", "STI-TRICK-4"}): "STI-D-ZEROOFF",
            frozenset({"STI-TRICK-4", "STI-TRICK-6"}): "STI-D-ZEROOFF",
        }

    def deck_table(self) -> tuple[int, range, str]:
        """The deck table of the edition, or (1993, ``deck=full``) all 90 cards."""
        if self.is_1993:
            if self.options["deck"] == "full":
                return 6, range(15), "STI93-D-DECK"
            colours, top = DECK_1993[self.game.players]
            return colours, range(top + 1), "STI93-DECK-2"
        colours, top = DECK_LATER[self.game.players]
        return colours, range(top + 1), "STI-DECK-1"

    def lead(self) -> z3.ArithRef:
        """The lead colour: the first card's (STI93-TRICK-1, STI-TRICK-5), or under
        ``zero-lead=first-nonzero`` the first non-zero card's."""
        if self.is_1993 or self.options["zero-lead"] == "lead-card":
            return self.colour[0]
        lead = self.colour[0]
        for i in range(self.size - 1, 0, -1):
            earlier_zero = z3.And(*[self.value[j] == 0 for j in range(i)])
            lead = z3.If(z3.And(earlier_zero, self.value[i] != 0), self.colour[i], lead)
        return lead

    def text_cases(self) -> list[Case]:
        """The cases as written (lead colour = the first card's colour)."""
        lead = self.colour[0]
        all_lead = z3.And(*[c == lead for c in self.colour])
        all_zero = z3.And(*[v == 0 for v in self.value])
        if self.is_1993:
            off_zero_only = z3.And(
                z3.Not(all_lead),
                *[
                    z3.Implies(c != lead, v == 0)
                    for c, v in zip(self.colour, self.value, strict=True)
                ],
            )
            trump = z3.Or(
                *[z3.And(c != lead, v != 0) for c, v in zip(self.colour, self.value, strict=True)]
            )
            cases = [
                Case("STI93-TRICK-3", all_lead),
                Case("STI93-TRICK-4", off_zero_only),
                Case("STI93-TRICK-5", trump),
            ]
            if self.options["all-zero"] == "no-winner":
                cases.append(Case("STI93-D-ALLZERO", all_zero))
            return cases
        off = z3.Or(*[c != lead for c in self.colour])
        only_zero_off = z3.And(
            off,
            *[z3.Implies(c != lead, v == 0) for c, v in zip(self.colour, self.value, strict=True)],
        )
        return [
            Case("STI-TRICK-1", all_lead),
            Case("STI-TRICK-2", off),
            # "a zero can never win": with only zeros off the lead colour, line 38 names a
            # zero as the winner and line 40 forbids it.
            Case("STI-TRICK-4", only_zero_off),
            Case("STI-TRICK-6", all_zero),
        ]

    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        """The rule under the readings, each part tracked by its clause."""
        w = outcome["winner"]
        lead = self.lead()
        nonzero = [v != 0 for v in self.value]
        trump = [z3.And(c != lead, nz) for c, nz in zip(self.colour, nonzero, strict=True)]
        any_trump = z3.Or(*trump)
        all_zero = z3.And(*[z3.Not(nz) for nz in nonzero])
        if self.is_1993:
            start = [c == lead for c in self.colour]
            nobody = all_zero if self.options["all-zero"] == "no-winner" else z3.BoolVal(False)
            return [
                Tracked("STI93-TRICK-1", z3.BoolVal(True)),
                Tracked(
                    "STI93-TRICK-5",
                    z3.Implies(
                        any_trump, z3.And(self.is_one_of(w, trump), self.no_higher(w, trump))
                    ),
                ),
                Tracked("STI93-TRICK-6", z3.Implies(any_trump, self.earliest_of_equal(w, trump))),
                Tracked(
                    "STI93-TRICK-4",
                    z3.Implies(
                        z3.And(z3.Not(any_trump), z3.Not(nobody)),
                        z3.And(self.is_one_of(w, start), self.no_higher(w, start)),
                    ),
                ),
                Tracked("STI93-D-ALLZERO", z3.Implies(nobody, w == NOBODY)),
            ]
        lead_nonzero = [z3.And(c == lead, nz) for c, nz in zip(self.colour, nonzero, strict=True)]
        lead_clause = (
            "STI-TRICK-5" if self.options["zero-lead"] == "lead-card" else "STI-D-ZEROLEAD"
        )
        return [
            Tracked(lead_clause, z3.BoolVal(True)),
            Tracked(
                "STI-TRICK-2",
                z3.Implies(any_trump, z3.And(self.is_one_of(w, trump), self.no_higher(w, trump))),
            ),
            Tracked("STI-TRICK-3", z3.Implies(any_trump, self.earliest_of_equal(w, trump))),
            Tracked(
                "STI-TRICK-1",
                z3.Implies(
                    z3.And(z3.Not(any_trump), z3.Not(all_zero)),
                    z3.And(self.is_one_of(w, lead_nonzero), self.no_higher(w, lead_nonzero)),
                ),
            ),
            Tracked("STI-TRICK-4", z3.Implies(w != NOBODY, self.at(self.value, w) != 0)),
            Tracked("STI-TRICK-6", z3.Implies(all_zero, w == NOBODY)),
        ]

    def trumps(self) -> list[z3.BoolRef]:
        """The cards that compete across colours: non-zero cards off the lead colour."""
        lead = self.lead()
        return [z3.And(c != lead, v != 0) for c, v in zip(self.colour, self.value, strict=True)]

    def no_winner_condition(self) -> z3.BoolRef:
        """Every card a zero (STI-TRICK-6; 1993 only under ``all-zero=no-winner``)."""
        if self.is_1993 and self.options["all-zero"] != "no-winner":
            return z3.BoolVal(False)
        return z3.And(*[v == 0 for v in self.value])

    def tie_possible(self) -> z3.BoolRef:
        """Two trump cards share the highest trump value (possible: colours differ)."""
        t = self.trumps()
        return z3.Or(
            *[
                z3.And(
                    t[i],
                    t[j],
                    self.value[i] == self.value[j],
                    *[z3.Implies(t[k], self.value[k] <= self.value[i]) for k in range(self.size)],
                )
                for i in range(self.size)
                for j in range(i + 1, self.size)
            ]
        )

    def tie_winner(self, outcome: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        """The winner is a trump, and no earlier trump has its value."""
        w = outcome["winner"]
        t = self.trumps()
        return z3.And(
            self.is_one_of(w, t),
            *[
                z3.Implies(
                    w == i,
                    z3.And(
                        *[z3.Not(z3.And(t[j], self.value[j] == self.value[i])) for j in range(i)]
                    ),
                )
                for i in range(self.size)
            ],
        )


def conservation_machine(ruleset: str, seats: int, clause: Mapping[str, str]) -> Machine:
    """Where Sticheln's cards can be and how they move (both editions): dealt to the hands
    and aside (the ``deal`` clause); a hand card picked (``select``) or played to the
    trick (``turn``); the trick taken by its winner (``collect``) or by nobody, set aside
    (``all-zero``)."""
    hands, picked, taken = (seat_places(p, seats) for p in ("hand", "picked", "taken"))
    moves = (
        *per_seat(
            seats, "pick seat {s}", clause["select"], lambda s: move(f"hand{s}", f"picked{s}")
        ),
        *plays(seats, clause),
        *takes(seats, clause["collect"]),
        Transition("nobody takes the trick", clause["all-zero"], pour("trick", "aside")),
    )
    places = (*hands, *picked, "trick", *taken, "aside")
    return Machine(ruleset, places, (*hands, "aside"), clause["deal"], moves)


class StichelnPlay(PlayEncoding):
    """What may be played in Sticheln, both editions, written from their clauses.

    1993 (000, lines 31-38): the leader plays any card (STI93-LEAD-2); the others, read
    as dispute STI93-D-FOLLOW says: ``free``, any card; ``follow-or-trump`` (line 38 as
    written, STI93-PLAY-2), a start-colour card or a trump card (a non-zero card of
    another colour, STI93-TRICK-2) unless the hand holds neither; ``must-follow``, the
    start colour if held, else a trump card if held, else any card. Later edition (001,
    line 33): any card (STI-PLAY-2). Every card played is one of the player's own
    (STI93-PLAY-1, STI-PLAY-1).
    """

    trick_encoding = StichelnTrick
    readings = ("follow", "deck")

    def __init__(self, game: Game, context: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, context)
        self.ruleset = game.ruleset.id
        self.is_1993 = self.ruleset == "sticheln-1993"
        self.hold_clause = "STI93-PLAY-1" if self.is_1993 else "STI-PLAY-1"

    def rule(
        self, held: Mapping[Card, z3.BoolRef], trick: Sequence[CardTerm], card: CardTerm
    ) -> list[Tracked]:
        """The follow reading's restriction on a card played after the lead."""
        if not trick or not self.is_1993 or self.options["follow"] == "free":
            return []
        start = trick[0][0]  # the start colour is the first card's (STI93-TRICK-1)

        def follows(c: CardTerm) -> z3.BoolRef:
            return c[0] == start

        def trumps(c: CardTerm) -> z3.BoolRef:  # STI93-TRICK-2
            return z3.And(c[0] != start, c[1] != 0)

        if self.options["follow"] == "follow-or-trump":
            either = lambda c: z3.Or(follows(c), trumps(c))  # noqa: E731
            return [Tracked("STI93-PLAY-2", self.must_if_held(held, card, either))]
        return [
            Tracked(
                "STI93-D-FOLLOW",
                z3.And(
                    self.must_if_held(held, card, follows),
                    z3.Implies(
                        z3.Not(self.holds_any(held, follows)),
                        self.must_if_held(held, card, trumps),
                    ),
                ),
            )
        ]


ENCODINGS.register("sticheln-1993", StichelnTrick)
ENCODINGS.register("sticheln", StichelnTrick)
MACHINES.register("sticheln-1993", conservation_machine)
MACHINES.register("sticheln", conservation_machine)
PLAYS.register("sticheln-1993", StichelnPlay)
PLAYS.register("sticheln", StichelnPlay)
