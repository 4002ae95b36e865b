"""One symbolic trick in Z3, and the interface every ruleset's trick encoding fills in.

A :class:`TrickEncoding` is written from the clauses in ``spec/`` (never from
the model's code). It declares, over the integer variables ``colour[i]`` and
``value[i]`` of the ``i``-th card played (0 = the lead):

* :meth:`~TrickEncoding.domain`: the deck for the player count and that the
  cards are distinct (the deck clauses);
* :meth:`~TrickEncoding.text_cases`: the resolution cases exactly as the text
  states them, each a guard with its clause id, for the coverage and overlap
  checks; overlaps and gaps the project has recorded as disputes are listed in
  :attr:`~TrickEncoding.recorded`;
* :meth:`~TrickEncoding.resolution`: the rule under the chosen readings,
  relating the trick to its outcome variables (:attr:`~TrickEncoding.outcome`:
  ``winner``, and for two-recipient rules ``low``), each assertion tracked by
  its clause id. ``winner = -1`` means nobody wins;
* :meth:`~TrickEncoding.citations`: the clauses a player is told decided the
  trick, each with the case in which it is named.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any, ClassVar

import z3

from tricklaw.model.cards import Card
from tricklaw.model.state import Game
from tricklaw.model.trick import TrickResult
from tricklaw.proofs.solver import Tracked

NOBODY = -1
CITES = "cites "
"""The prefix of an answer's keys that say whether the model names a clause."""
OTHER = f"{CITES}other clauses"
"""An answer's key for the number of clauses the model names that the encoding's
``citations`` does not list (always 0 on the encoding's side)."""


@dataclass(frozen=True, slots=True)
class Case:
    """One resolution case as the text states it: when it applies (``guard``)."""

    clause: str
    guard: z3.BoolRef


class TrickEncoding(ABC):
    """The trick rule of one ruleset, one player count and one choice of readings."""

    ruleset: str
    readings: tuple[str, ...] = ()
    """The options whose readings change the rule (each combination is proved)."""
    deck_readings: tuple[str, ...] = ()
    """The options that change only the deck in play, the rule's domain (each value is
    proved on its own, with the :attr:`readings` at their defaults)."""
    unencoded: Mapping[str, str] = MappingProxyType({})
    """Options that change the model's trick judge in a way this encoding does not state,
    each with the reason: the trick obligations hold only at their defaults, and verify's
    ``declared-readings`` check names them in its report (never silently)."""
    symmetric: bool = True
    """Whether the rule treats colours alike, so that tricks equal up to renaming colours
    (those of :meth:`fixed_colours` kept) have equal outcomes (enumerations may then take
    one trick per class). Proved by :mod:`tricklaw.proofs.symmetries`."""
    unasserted: ClassVar[Mapping[str, str]] = {}
    """Trick clauses of the ruleset that no assertion of their own states, each with the
    reason (how the encoding covers it, or why it cannot): the traceability matrix shows
    the reason where a proof would be, instead of counting a hollow citation."""
    hollow: ClassVar[Mapping[str, str]] = {}
    """The trick obligations expected to come out *vacuous* or *trivial* here (see
    :data:`~tricklaw.proofs.statuses.STATUSES`), by name, each with the reason: the
    documentation that lets such a row pass verify. Any other vacuous or trivial row
    fails it."""
    order_only: bool = True
    """Whether the rule looks at values only through their order (and, where a rule says
    so, whether a value is zero), so that tricks with the same order type of values have
    equal outcomes. Proved by :mod:`tricklaw.proofs.symmetries`."""

    def fixed_colours(self) -> tuple[int, ...]:
        """The colours the rule singles out in this context, which a renaming of colours
        must keep (none by default)."""
        return ()

    @classmethod
    def contexts(cls, game: Game) -> list[dict[str, Any]]:
        """The trick contexts to prove the rule under (Hund: the powers); one empty
        context for rules that need none."""
        return [{}]

    def __init__(self, game: Game, context: Mapping[str, Any] | None = None) -> None:
        self.game = game
        self.options = game.options
        self.context = dict(context or {})
        self.size = game.seats
        self.colour = [z3.Int(f"colour_{i}") for i in range(self.size)]
        self.value = [z3.Int(f"value_{i}") for i in range(self.size)]
        self.outcome: dict[str, z3.ArithRef] = {"winner": z3.Int("winner")}

    # --- what each ruleset states -------------------------------------------------------

    def recorded(self) -> Mapping[frozenset[str], str]:
        """Text-case overlaps (pairs of clause ids) and gaps (``frozenset({"gap"})``) the
        project has recorded, each with the dispute id that records it."""
        return {}

    def no_winner_condition(self) -> z3.BoolRef:
        """When the text gives a trick to nobody (false unless a rule says so)."""
        return z3.BoolVal(False)

    def tie_possible(self) -> z3.BoolRef:
        """A tie that the tie rule must break (two competing cards of equal value)."""
        return z3.BoolVal(False)

    def tie_winner(self, outcome: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        """What the tie rule says of the outcome, stated on its own."""
        return z3.BoolVal(True)

    tie_rule = "no tie can arise"

    @abstractmethod
    def deck_table(self) -> tuple[int, range, str]:
        """(number of colours, the values, the clause id) of the deck in play."""

    @abstractmethod
    def text_cases(self) -> list[Case]:
        """The resolution cases as the text writes them."""

    @abstractmethod
    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        """The rule under the chosen readings, for the outcome variables ``outcome``."""

    def citations(self) -> Mapping[str, z3.BoolRef]:
        """The clauses the model may name as deciding a trick (``TrickResult.clauses``),
        each with the condition on the trick under which it must be named: the clause's
        own case, written from the clause. The equivalence proof holds the model to
        these on every trick, and to naming no other clause, so that what a player is
        told decided the trick is a theorem, not only the published vectors'
        regression. An encoding that lists none holds its model to naming none."""
        return {}

    @cached_property
    def cited_clauses(self) -> tuple[str, ...]:
        """The clauses :meth:`citations` lists (its conditions built once, not on every
        trick the model is run on)."""
        return tuple(self.citations())

    def model_result(self, cards: Sequence[Card]) -> TrickResult:
        """The model's result for ``cards`` (its ``judge_trick`` in this context)."""
        return self.game.ruleset.judge_trick(self.game, cards, self.model_context())

    def outcome_of(self, cards: Sequence[Card], result: TrickResult) -> dict[str, int]:
        """The model's ``result`` in the encoding's outcome terms (see subclasses)."""
        return {"winner": NOBODY if result.winner is None else result.winner}

    def model_outcome(self, cards: Sequence[Card]) -> dict[str, int]:
        """The model's outcome for ``cards`` in the encoding's terms."""
        return self.outcome_of(cards, self.model_result(cards))

    def model_answer(self, cards: Sequence[Card]) -> dict[str, int]:
        """The model's outcome and, per clause of :meth:`citations`, whether it names
        that clause (1) or not (0): what the equivalence proof compares with
        :meth:`answer_terms`."""
        result = self.model_result(cards)
        cited = self.cited_clauses
        named = {f"{CITES}{c}": int(c in result.clauses) for c in cited}
        named[OTHER] = len({c for c in result.clauses if c not in cited})
        return {**self.outcome_of(cards, result), **named}

    def answer_terms(self, outcome: Mapping[str, z3.ArithRef]) -> dict[str, z3.ArithRef]:
        """The encoding's side of :meth:`model_answer`: the outcome variables and, per
        cited clause, 1 where its condition holds, else 0; and no clause named that
        :meth:`citations` does not list (:data:`OTHER` is 0)."""
        named = {f"{CITES}{c}": z3.If(cond, 1, 0) for c, cond in self.citations().items()}
        named[OTHER] = z3.IntVal(0)
        return {**outcome, **named}

    def model_context(self) -> dict[str, str]:
        """The trick context to hand the model (Hund: the powers)."""
        return {}

    # --- shared ----------------------------------------------------------------------

    def domain(self) -> list[Tracked]:
        """Each card in the deck, and no card twice (the deck clause)."""
        colours, values, clause = self.deck_table()
        out = [
            Tracked(clause, z3.And(c >= 0, c < colours, values.start <= v, v < values.stop))
            for c, v in zip(self.colour, self.value, strict=True)
        ]
        pairs = [
            z3.Or(self.colour[i] != self.colour[j], self.value[i] != self.value[j])
            for i in range(self.size)
            for j in range(i + 1, self.size)
        ]
        out.append(Tracked(clause, z3.And(*pairs)))
        return out

    def fix(self, cards: Sequence[Card]) -> list[z3.BoolRef]:
        """Constraints that make the symbolic trick the concrete ``cards``."""
        return [
            z3.And(c == card >> 5, v == card & 31)
            for c, v, card in zip(self.colour, self.value, cards, strict=True)
        ]

    def fresh_outcome(self, tag: str) -> dict[str, z3.ArithRef]:
        """A second copy of the outcome variables (for uniqueness proofs)."""
        return {name: z3.Int(f"{name}_{tag}") for name in self.outcome}

    def decode(self, model: z3.ModelRef) -> dict[str, Any]:
        """A counterexample as the trick (in notation) and the outcome values."""
        palette = self.game.ruleset.palette
        cards = []
        for c, v in zip(self.colour, self.value, strict=True):
            colour = model.eval(c, model_completion=True).as_long()
            value = model.eval(v, model_completion=True).as_long()
            letter = palette.letters[colour] if 0 <= colour < len(palette.letters) else "?"
            cards.append(f"{letter}{value}")
        out: dict[str, Any] = {"trick": cards}
        for name, var in self.outcome.items():
            out[name] = model.eval(var, model_completion=True).as_long()
        return out

    # --- helpers for writing rules ---------------------------------------------------

    def at(self, values: Sequence[z3.ArithRef], who: z3.ArithRef) -> z3.ArithRef:
        """``values[who]`` for a symbolic index ``who``."""
        out = values[-1]
        for i in range(len(values) - 2, -1, -1):
            out = z3.If(who == i, values[i], out)
        return out

    def is_one_of(self, who: z3.ArithRef, eligible: Sequence[z3.BoolRef]) -> z3.BoolRef:
        """``who`` names an eligible card."""
        return z3.Or(*[z3.And(who == i, e) for i, e in enumerate(eligible)])

    def no_higher(self, who: z3.ArithRef, eligible: Sequence[z3.BoolRef]) -> z3.BoolRef:
        """No eligible card has a greater value than card ``who``."""
        top = self.at(self.value, who)
        return z3.And(*[z3.Implies(e, v <= top) for e, v in zip(eligible, self.value, strict=True)])

    def no_lower(self, who: z3.ArithRef, eligible: Sequence[z3.BoolRef]) -> z3.BoolRef:
        """No eligible card has a smaller value than card ``who``."""
        low = self.at(self.value, who)
        return z3.And(*[z3.Implies(e, v >= low) for e, v in zip(eligible, self.value, strict=True)])

    def earliest_of_equal(self, who: z3.ArithRef, eligible: Sequence[z3.BoolRef]) -> z3.BoolRef:
        """No eligible card played before card ``who`` has its value."""
        return z3.And(
            *[
                z3.Implies(
                    who == i,
                    z3.And(
                        *[
                            z3.Not(z3.And(eligible[j], self.value[j] == self.value[i]))
                            for j in range(i)
                        ]
                    ),
                )
                for i in range(self.size)
            ]
        )

    def latest_of_equal(self, who: z3.ArithRef, eligible: Sequence[z3.BoolRef]) -> z3.BoolRef:
        """No eligible card played after card ``who`` has its value."""
        return z3.And(
            *[
                z3.Implies(
                    who == i,
                    z3.And(
                        *[
                            z3.Not(z3.And(eligible[j], self.value[j] == self.value[i]))
                            for j in range(i + 1, self.size)
                        ]
                    ),
                )
                for i in range(self.size)
            ]
        )
