"""Hund's trick rule in Z3, written from its clauses.

004, line 7: once every player has played, if a trump suit has been
designated and trumps were played, the highest trump wins (HUND-TRICK-1);
otherwise the highest card of the first card's suit (HUND-TRICK-2). Lines
11-15: a card showing the round's designated number hands its suit the next
effect at once, the first such card's suit getting Trump (HUND-DESIG-2),
which is trump "from now on" (HUND-POWER-1). Which cards of a suit made
trump in the middle of the trick count in that trick is dispute
HUND-D-TRUMPTIMING: all of them (``whole-trick``), those from the designating
card on (``from-card``), or none (``next-trick``).

The deck: five suits (HUND-FACT-1) of 6/6/8/10 cards for 2/3/4/5 players, or
9/9/12/15 with the custom option ``more-cards`` (HUND-OPT-1, line 41),
numbered from 1 (HUND-GAP-1) or from 0 (dispute HUND-D-VALUES). Two players
add a virtual third player (HUND-TWO-1), so a trick has one card per seat.

The trick is judged in a context: ``trump``, the suit already trump before
the trick (or None), and ``designation``, the round's designated number (or
None). Only Trump matters to the trick; when no suit is trump yet, the first
card in the trick showing the designated number makes its suit trump.

Card conservation (:func:`conservation_machine`): every card is dealt (HUND-GAP-2),
played to a trick, and the trick taken whole by its winner (HUND-COLLECT-1).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import z3

from tricklaw.model.state import Game
from tricklaw.proofs.conservation import MACHINES, Machine, plays, seat_places, takes
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.plays import PLAYS, FollowLead
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import Case, TrickEncoding

SUITS = 5
"""Five suits (HUND-FACT-1)."""
SUIT_CARDS = MappingProxyType({2: 6, 3: 6, 4: 8, 5: 10})
"""players -> cards per suit: "instead of 6/6/8/10 in 2/3/4/5-player mode" (004 line 41,
HUND-OPT-1)."""
MORE_CARDS = MappingProxyType({2: 9, 3: 9, 4: 12, 5: 15})
"""players -> cards per suit with "Use more cards: 9/9/12/15" (004 line 41, HUND-OPT-1)."""
DESIGNATIONS = (1, 2, 3, 4, 5)
"""The normal designation cards, "1-5" (004 line 43, HUND-DESIG-1)."""


class HundTrick(TrickEncoding):
    """A Hund trick in its context (trump held before it, the designated number)."""

    ruleset = "hund"
    tie_rule = "trump before the lead suit; no tie possible within a suit"

    def __init__(self, game: Game, context: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, context)
        trump = self.context.get("trump")
        number = self.context.get("designation")
        self.prior_trump: int | None = None if trump is None else int(trump)
        self.designation: int | None = None if number is None else int(number)
        self.timing = str(self.options["trump-timing"])

    @classmethod
    def contexts(cls, game: Game) -> list[dict[str, int | None]]:
        """The contexts to check: no trump and no designation; each suit already trump;
        no trump yet, with each designated number 1-5."""
        return contexts(game)

    def deck_table(self) -> tuple[int, range, str]:
        """Five suits of 6/6/8/10 (``more-cards``: 9/9/12/15) cards for 2/3/4/5 players
        (HUND-OPT-1), numbered from 1 (HUND-GAP-1) or from 0 (HUND-D-VALUES)."""
        more = self.options["more-cards"] == "yes"
        count = (MORE_CARDS if more else SUIT_CARDS)[self.game.players]
        if self.options["values"] == "from-0":
            return SUITS, range(count), "HUND-D-VALUES"
        return SUITS, range(1, count + 1), "HUND-OPT-1" if more else "HUND-GAP-1"

    def designating(self) -> list[z3.BoolRef]:
        """Card ``i`` is the first in the trick showing the designated number, so it
        hands its suit Trump (HUND-DESIG-2, HUND-POWER-1); only when no suit is trump
        before the trick."""
        d = self.designation
        if self.prior_trump is not None or d is None:
            return [z3.BoolVal(False)] * self.size
        return [
            z3.And(self.value[i] == d, *[self.value[j] != d for j in range(i)])
            for i in range(self.size)
        ]

    def trumps(self) -> list[z3.BoolRef]:
        """The cards that count as trumps in this trick: of the suit trump before it
        (HUND-POWER-1: "from now on"), or of the suit made trump in it, as the
        ``trump-timing`` reading says (HUND-D-TRUMPTIMING)."""
        if self.prior_trump is not None:
            return [c == self.prior_trump for c in self.colour]
        first = self.designating()
        if self.timing == "next-trick":
            return [z3.BoolVal(False)] * self.size
        out = []
        for i in range(self.size):
            upto = i + 1 if self.timing == "from-card" else self.size
            same_suit = [z3.And(first[k], self.colour[i] == self.colour[k]) for k in range(upto)]
            out.append(z3.Or(*same_suit))
        return out

    def lead_suit(self) -> list[z3.BoolRef]:
        """The cards of the first card's suit (HUND-TRICK-2)."""
        return [c == self.colour[0] for c in self.colour]

    def text_cases(self) -> list[Case]:
        """Trumps played: the highest trump (HUND-TRICK-1); "otherwise" the highest card
        of the first card's suit (HUND-TRICK-2)."""
        any_trump = z3.Or(*self.trumps())
        return [Case("HUND-TRICK-1", any_trump), Case("HUND-TRICK-2", z3.Not(any_trump))]

    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        """The rule under the readings, each part tracked by its clause."""
        w = outcome["winner"]
        trumps = self.trumps()
        lead = self.lead_suit()
        any_trump = z3.Or(*trumps)
        out: list[Tracked] = []
        if self.prior_trump is not None:
            out.append(Tracked("HUND-POWER-1", z3.BoolVal(True)))
        elif self.designation is not None:
            out += [
                Tracked("HUND-DESIG-2", z3.BoolVal(True)),
                Tracked("HUND-POWER-1", z3.BoolVal(True)),
                Tracked("HUND-D-TRUMPTIMING", z3.BoolVal(True)),
            ]
        out += [
            Tracked(
                "HUND-TRICK-1",
                z3.Implies(any_trump, z3.And(self.is_one_of(w, trumps), self.no_higher(w, trumps))),
            ),
            Tracked(
                "HUND-TRICK-2",
                z3.Implies(
                    z3.Not(any_trump), z3.And(self.is_one_of(w, lead), self.no_higher(w, lead))
                ),
            ),
        ]
        return out

    def model_context(self) -> dict[str, str]:
        """The same context in the model's terms: ``powers`` (the trump suit's letter)
        and ``designation`` (the number)."""
        out: dict[str, str] = {}
        if self.prior_trump is not None:
            out["powers"] = self.game.ruleset.palette.letters[self.prior_trump]
        if self.designation is not None:
            out["designation"] = str(self.designation)
        return out

    def tie_possible(self) -> z3.BoolRef:
        """Two trumps, or two cards of the lead suit, of one value (impossible: one card
        per value in each suit)."""
        trumps = self.trumps()
        lead = self.lead_suit()
        return z3.Or(
            *[
                z3.And(z3.Or(z3.And(trumps[i], trumps[j]), z3.And(lead[i], lead[j])), same)
                for i in range(self.size)
                for j in range(i + 1, self.size)
                for same in [self.value[i] == self.value[j]]
            ]
        )

    def tie_winner(self, outcome: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        """A trump wins if any was played, else a card of the lead suit."""
        w = outcome["winner"]
        trumps = self.trumps()
        any_trump = z3.Or(*trumps)
        return z3.If(any_trump, self.is_one_of(w, trumps), self.is_one_of(w, self.lead_suit()))


def contexts(game: Game) -> list[dict[str, int | None]]:
    """The trick contexts to check for ``game``: no trump and no designation; each of
    the five suits trump before the trick; no trump yet and each designated number 1-5
    (HUND-DESIG-1)."""
    out: list[dict[str, int | None]] = [{"trump": None, "designation": None}]
    out += [{"trump": s, "designation": None} for s in range(SUITS)]
    out += [{"trump": None, "designation": d} for d in DESIGNATIONS]
    return out


def conservation_machine(ruleset: str, seats: int, clause: Mapping[str, str]) -> Machine:
    """Where Hund's cards can be and how they move: dealt to the hands (``deal``), played
    to the trick (``turn``), the trick taken whole by its winner (``collect``)."""
    hands, taken = seat_places("hand", seats), seat_places("taken", seats)
    moves = (*plays(seats, clause), *takes(seats, clause["collect"]))
    return Machine(ruleset, (*hands, "trick", *taken), hands, clause["deal"], moves)


class HundPlay(FollowLead):
    """What may be played in Hund (004): the start player plays any card (HUND-PLAY-1); the
    others play the suit of the trick's first card if they hold it, else any card
    (HUND-PLAY-2). The effects (trump and the rest) change who wins, not what may be
    played: the rule needs no trick context."""

    ruleset = "hund"
    trick_encoding = HundTrick
    readings = ("more-cards", "values")
    hold_clause = "HUND-PLAY-1"
    follow_clause = "HUND-PLAY-2"


ENCODINGS.register("hund", HundTrick)
MACHINES.register("hund", conservation_machine)
PLAYS.register("hund", HundPlay)
