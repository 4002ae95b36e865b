"""What each game gives the score-bounds layer, and the layer's registry.

A game's module in this package (``sticheln``, ``the_last``, ``lowhigh``, ``hund``)
fills in one :class:`GameBounds` for each ruleset id it serves and registers it in
:data:`BOUNDS`: the relaxation its bound is proved over (written from the clauses), the
plan its witness is built from (which replays the model), the values a finished round
gives the relaxation's variables (to check that the relaxation is sound), the table of
readings the bounds are proved under, and the options the witness is replayed under.
The generic modules (:mod:`~tricklaw.proofs.bounds.prove`,
:mod:`~tricklaw.proofs.bounds.readings`, :mod:`~tricklaw.proofs.bounds.soundness`,
:mod:`~tricklaw.proofs.bounds.results`) ask the registry and never name a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from tricklaw.model.options import OptionValue
from tricklaw.model.registry import Registry
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.bounds.relaxation import Relaxation
from tricklaw.proofs.bounds.witness import Plan
from tricklaw.spec.proved_bounds import Reading

EMPTY: Mapping[str, Any] = MappingProxyType({})
ROUNDS_ONLY = "only the number of rounds"
"""Why a ``rounds`` option cannot change a round's score range."""
GAME_TIE_ONLY = "only who wins a game tied on the best total, after the last round"
"""Why the ``game-tie`` option cannot change a round's score range."""


@dataclass(frozen=True)
class Combination:
    """Options varied together (at ``players``, or every count), and why they interact."""

    options: Reading
    why: str
    players: tuple[int, ...] | None = None


@dataclass(frozen=True)
class ReadingTable:
    """How a game's options enter its bounds. Every text option is varied on its own,
    one value at a time from the defaults, except:

    * ``unchanged``: option -> why no value of it can change a round's score range (it
      acts only between rounds, or only on seats the relaxation is blind to);
    * ``only_at``: option -> (the player counts where it is varied, why not at others);
    * ``combined``: option -> why it is varied only in ``combinations``;

    and ``combinations`` lists the options varied together, because they interact."""

    unchanged: Mapping[str, str] = field(default_factory=dict)
    only_at: Mapping[str, tuple[tuple[int, ...], str]] = field(default_factory=dict)
    combined: Mapping[str, str] = field(default_factory=dict)
    combinations: tuple[Combination, ...] = ()


Hint = Mapping[str, Any]
"""What an optimal model of the relaxation says (:attr:`Relaxation.decode`)."""
RoundValues = dict[str, int | bool]
"""Relaxation variable name -> the value a finished round gives it."""


@dataclass(frozen=True)
class GameBounds:
    """One game's part of the score-bounds layer (see the module docstring).

    ``plan(game, maximize, hint)`` is the round a witness of the greatest (or least)
    score is built from, or None; ``hint`` is the relaxation's optimal model decoded,
    for a game whose plan realises it. ``round_values(game, log, seat)`` gives the
    relaxation's own variables for ``seat`` (``score`` and ``tricks_won`` are added by
    :func:`~tricklaw.proofs.bounds.soundness.round_values`)."""

    relaxation: Callable[[Game], Relaxation]
    plan: Callable[[Game, bool, Hint], Plan | None]
    round_values: Callable[[Game, RoundLog, int], RoundValues]
    readings: ReadingTable = field(default_factory=ReadingTable)
    witness_options: Mapping[str, OptionValue] = field(default_factory=dict)
    """The options a witness is replayed under besides the reading's (a single round
    where the ruleset has a ``rounds`` option)."""


BOUNDS: Registry[GameBounds] = Registry("score bounds", "tricklaw.proofs.bounds")
"""Ruleset id -> its part of the score-bounds layer."""


def witness_game(
    ruleset_id: str, players: int, reading: Mapping[str, OptionValue] | None = None
) -> Game:
    """The game a witness of ``ruleset_id`` is played in: the options of ``reading``,
    the defaults otherwise, and the game's :attr:`GameBounds.witness_options`."""
    options = {**BOUNDS.lookup(ruleset_id).witness_options, **(reading or {})}
    return get_ruleset(ruleset_id).make_game(players, options)
