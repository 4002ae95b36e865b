"""The two sides of an edition diff and what comparing one aspect of them gives.

A :class:`Side` is a ruleset under one choice of readings; a :class:`Comparison` is the
answer for one aspect (:mod:`tricklaw.proofs.edition_aspects`): ``proved`` (agree on every
input), ``pass`` (:data:`SAMPLED`: agree on a sample or a bounded part of the domain),
``counterexample`` (differ, with a minimal witness) or ``unknown``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game
from tricklaw.proofs.solver import COUNTEREXAMPLE

SAMPLED = "pass"
"""The status of an agreement seen on a sample or on a bounded part of an unbounded domain
only (its ``how`` says which): never counted as proved."""


@dataclass(frozen=True, slots=True)
class Side:
    """One ruleset under one choice of readings (option name -> value)."""

    ruleset: Ruleset[Any]
    options: Mapping[str, Any] = field(default_factory=dict)

    def game(self, players: int) -> Game:
        """A game of this side at ``players``."""
        return self.ruleset.make_game(players, dict(self.options))

    @property
    def id(self) -> str:
        """The ruleset id."""
        return self.ruleset.id


@dataclass(frozen=True, slots=True)
class Comparison:
    """What comparing one aspect of two sides gave."""

    status: str
    how: str
    """The method and the domain covered."""
    summary: str = ""
    """One line saying how the sides differ (empty when they agree)."""
    witness: dict[str, Any] = field(default_factory=dict)
    clauses: tuple[str, ...] = ()
    seconds: float = 0.0


def differ(how: str, summary: str, witness: dict[str, Any]) -> Comparison:
    return Comparison(COUNTEREXAMPLE, how, summary, witness)
