"""The model's set-up and automatic moves, stated from the clauses: the layer's interface
and registry.

Some rule functions of the model decide nothing that a trick, hand or score encoding sees:
how many seats a table has and how many cards each is dealt, which card an automatic seat
(a ghost, a virtual player) plays, how a virtual player's display is turned up. A game
states them here, from its clauses (never from the model's code), as a :class:`GameRules`:

* ``GameRules.table``: the seats and the cards dealt to each, at a player count and
  reading (:class:`Table`);
* ``GameRules.states``: :class:`StateRule` s, each the rule's answer for a decision
  state of the model, in Z3 and tracked by clause, with the model's answer for it;
* ``GameRules.exhaustive``: :class:`ExhaustiveRule` s, each a model function held to
  a statement of its clause on every input of a finite domain (every display pattern).

:mod:`tricklaw.proofs.model_rule_checks` holds the model to them. :data:`MODEL_RULES` maps
each ruleset id to its :class:`GameRules`; each game's module in this package registers
its own (a game is a unit). The modules read the model only through the
:class:`~tricklaw.model.ruleset.Ruleset` interface and the model modules they are handed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import z3

from tricklaw.model import actions
from tricklaw.model.actions import ActionKind
from tricklaw.model.registry import Registry
from tricklaw.model.state import Game, State
from tricklaw.proofs.solver import Tracked

NONE = -1
"""The outcome "no automatic action" of a :class:`StateRule`."""


def automatic_card(game: Game, state: State[Any]) -> int:
    """The model's automatic move at ``state`` (a ghost's, a virtual player's): the card
    it plays, -2 for an action that plays no card, or ``NONE`` when no seat moves by
    itself."""
    action = game.ruleset.automatic_action(state)
    if action is None:
        return NONE
    return actions.card_of(action) if actions.kind_of(action) is ActionKind.PLAY else -2


@dataclass(frozen=True)
class Table:
    """The table a clause sets up: the seats (automatic seats included), the cards dealt
    to each seat, and the clauses saying so."""

    seats: int
    hand: int
    clauses: tuple[str, ...]


@dataclass(frozen=True)
class StateRule:
    """A rule the model applies at a decision state: its name, the options it reads, the
    player counts it applies at (None: all), the rule in Z3 and the model's answer."""

    name: str
    readings: tuple[str, ...]
    players: tuple[int, ...] | None
    rule: Callable[[Game, State[Any], z3.ArithRef], list[Tracked]]
    """``(game, state, outcome) -> the rule's answer for the state``, as tracked
    assertions over the integer ``outcome`` (``NONE`` for no automatic action)."""
    model: Callable[[Game, State[Any]], int]
    """The model's answer at the state (``NONE`` for none)."""
    card: bool = True
    """Whether the outcome is a card (a witness then names it)."""


@dataclass(frozen=True)
class Exhausted:
    """What an :class:`ExhaustiveRule` checked: the number of cases, what they were, and
    the first case where the model is not the rule's (None: every case agrees)."""

    cases: int
    domain: str
    witness: Mapping[str, Any] | None


@dataclass(frozen=True)
class ExhaustiveRule:
    """A model function held to its clauses on every input of a finite domain: its name,
    the options it reads, the player counts it applies at (None: all), the clauses, and
    ``check(game, model modules)``."""

    name: str
    readings: tuple[str, ...]
    players: tuple[int, ...] | None
    clauses: tuple[str, ...]
    check: Callable[[Game, Sequence[ModuleType]], Exhausted]


@dataclass(frozen=True)
class GameRules:
    """A game's set-up and automatic moves as its clauses state them; ``table_readings``
    are the options that change the table (each reading of them is checked)."""

    table: Callable[[Game], Table]
    table_readings: tuple[str, ...] = ()
    states: tuple[StateRule, ...] = ()
    exhaustive: tuple[ExhaustiveRule, ...] = ()


MODEL_RULES: Registry[GameRules] = Registry("model rules", "tricklaw.proofs.model_rules")
"""Ruleset id -> its :class:`GameRules`."""
