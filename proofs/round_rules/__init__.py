"""Rules that decide something of a finished round, in Z3: the layer's interface and registry.

Some rules of a game act once a round's tricks are known: who chooses the next start
player (Hund's Lead decider), what an automatic seat scores (The Last's ghost). A
:class:`RoundRule` states one of them in Z3 from its clauses, over a few integers read
off a finished round (:attr:`RoundRule.inputs`: counts of cards taken, seats in play
order, which powers were handed out), and reads the model's answer off the same round
(:attr:`RoundRule.model`). :mod:`tricklaw.proofs.round_rule_checks` holds the model to it
on sampled rounds of every reading the rule reads.

:data:`ROUND_RULES` maps each ruleset id to its rules (an empty tuple for a game with
none); each game's module in this package registers its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import z3

from tricklaw.model.registry import Registry
from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.solver import Tracked

NONE = -1
"""The outcome for "nobody" (no seat decides, no value)."""


@dataclass(frozen=True)
class RoundRule:
    """One rule of a finished round: its name, the options it reads, the player counts
    it applies at (None: all), the round's values it is stated over, the rule in Z3
    relating them to the outcome, the model's outcome for the round, and the options the
    sampled games are played under; a rule that decides the outcome, or one that leaves a
    choice (:attr:`chooses`)."""

    name: str
    readings: tuple[str, ...]
    players: tuple[int, ...] | None
    inputs: Callable[[Game, RoundLog], Mapping[str, int]]
    """The values of a finished round the rule is stated over, by name (read off the
    log's trick results and recorded facts, never off the model's answer)."""
    rule: Callable[[Game, Mapping[str, z3.ArithRef], z3.ArithRef], list[Tracked]]
    """``(game, inputs as z3 Ints, outcome) -> the rule as tracked assertions``."""
    model: Callable[[Game, RoundLog], int]
    """The model's outcome for the round (:data:`NONE` for nobody)."""
    options: Mapping[str, str] = field(default_factory=dict)
    """Options the sampled games are played under, over the readings fixed for the run
    (e.g. more rounds for a rule that acts from the second round on); a reading fixed
    here is named in the row."""
    history: Callable[[Game, Sequence[RoundLog]], Mapping[str, int]] | None = None
    """For a rule whose answer in a later round depends on an earlier one (The Last's
    ghost seated once for the game): more values by name, read off the game's rounds up
    to and including this one (oldest first), never off the model's answer for this
    round."""
    chooses: bool = False
    """True for a rule that leaves a choice (a draw: Hund's number of a round under
    ``designation=shuffled`` is any card not yet used): the model's outcome must be one
    the rule allows, and the rule must forbid, in some sampled round, an outcome the model
    gave in another (so it is not true of every answer the model gives). False: the
    model's outcome must be the rule's only one."""


ROUND_RULES: Registry[tuple[RoundRule, ...]] = Registry("round rules", __name__)
"""Ruleset id -> its round rules."""
