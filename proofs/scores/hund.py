"""Hund's round score in Z3, from the clauses HUND-POWER-2..4 and HUND-FACT-2/3 and the
disputes HUND-D-HUNDTIE and HUND-D-VIRTUALHUND.

A seat's score depends on every seat's pile (the Hund award compares the seats' counts)
and on which suit holds each power: the powers are taken in their order (Trump, Plus,
Hund, Minus, Lead: effects 1-5, HUND-DESIG-1), so a context is how many are assigned
(0-5) and the suits holding them are integers of the proof (any suit each; a suit may
hold several powers, as ``set-repeat=stack`` allows).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

import z3

from tricklaw.model.cards import Card, colour_of
from tricklaw.model.state import Game
from tricklaw.proofs.encodings.hund import SUITS, HundTrick
from tricklaw.proofs.scores import SCORES, CardTerm, ScoreEncoding

PLUS, HUND, MINUS = 1, 2, 3
"""The Plus, Hund and Minus powers' places in power order (effects 2, 3, 4)."""
POWERS = 5


class HundScore(ScoreEncoding):
    """+1 a Plus card, -1 a Minus card (HUND-POWER-2, HUND-POWER-4, HUND-FACT-2); 3 for a
    seat whose Hund count is neither the largest nor the smallest (HUND-POWER-3,
    HUND-FACT-3), a tie for either counted by the ``hund-tie`` reading (HUND-D-HUNDTIE),
    the virtual player compared by the ``virtual-hund`` reading (HUND-D-VIRTUALHUND)."""

    ruleset = "hund"
    readings = ("hund-tie", "virtual-hund")
    every_pile = True

    @classmethod
    def contexts(cls, game: Game) -> list[dict[str, Any]]:
        """How many powers are assigned: 0 to 5."""
        return [{"powers": k} for k in range(POWERS + 1)]

    def deck_table(self) -> tuple[int, range, str]:
        """The trick encoding's deck."""
        return HundTrick(self.game).deck_table()

    def numbers(self) -> tuple[str, ...]:
        """The suit holding each assigned power, in power order."""
        return tuple(f"holder_{k}" for k in range(self.context["powers"]))

    def number_domain(self, numbers: Mapping[str, z3.ArithRef]) -> list[z3.BoolRef]:
        """Each holder is a suit."""
        return [z3.And(n >= 0, n < SUITS) for n in numbers.values()]

    def score_of_all(
        self,
        piles: Sequence[Mapping[Card, z3.BoolRef]],
        cards: Mapping[str, CardTerm],
        numbers: Mapping[str, z3.ArithRef],
    ) -> tuple[z3.ArithRef, tuple[str, ...]]:
        """Plus less Minus, and the Hund award."""
        holders = [numbers[f"holder_{k}"] for k in range(self.context["powers"])]

        def count(seat: int, power: int) -> Any:
            if power >= len(holders):
                return z3.IntVal(0)
            pile = piles[seat]
            return z3.Sum(
                [z3.If(z3.And(h, holders[power] == colour_of(c)), 1, 0) for c, h in pile.items()]
            )

        ids = ["HUND-POWER-2", "HUND-POWER-4", "HUND-FACT-2"]
        total = count(self.seat, PLUS) - count(self.seat, MINUS)
        players = self.game.players
        with_virtual = self.options["virtual-hund"] == "counts"
        compared = [s for s in range(self.game.seats) if s < players or with_virtual]
        if len(holders) > HUND and self.seat in compared:
            ids += ["HUND-POWER-3", "HUND-FACT-3", "HUND-D-HUNDTIE"]
            if self.game.seats > players:
                ids.append("HUND-D-VIRTUALHUND")
            hund = {s: count(s, HUND) for s in compared}
            mine = hund[self.seat]
            most = z3.And(*[mine >= n for n in hund.values()])
            fewest = z3.And(*[mine <= n for n in hund.values()])
            if self.options["hund-tie"] == "scores":  # only a sole most or fewest scores 0
                others = [n for s, n in hund.items() if s != self.seat]
                most = z3.And(most, *[mine > n for n in others])
                fewest = z3.And(fewest, *[mine < n for n in others])
            total = total + z3.If(z3.Or(most, fewest), 0, 3)
        return total, tuple(ids)

    def model_score_of_all(
        self,
        module: ModuleType,
        game: Any,
        piles: Sequence[Any],
        cards: Mapping[str, Any],
        numbers: Mapping[str, Any],
    ) -> Any:
        """The model's ``round_score`` of every pile, this seat's part."""
        holders = tuple(numbers[f"holder_{k}"] for k in range(self.context["powers"]))
        virtual = module.VIRTUAL if game.players == 2 else None
        scores = module.round_score(piles, holders, module.rules_of(game), virtual)
        return scores[self.seat]


SCORES.register("hund", HundScore)
