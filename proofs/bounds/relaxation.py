"""A relaxation of one round for one player: what each game's bound is proved over.

A relaxation is a small set of integer and Boolean Z3 variables saying which cards end
up counting for the player (picked, taken, laid face down), constrained only by facts
every real round satisfies, each a :class:`~tricklaw.proofs.solver.Tracked` assertion
named by the clause (or dispute) it comes from, and the player's score as a term over
them. Every real round is a solution, so the relaxation's optimum bounds the real one
(:mod:`tricklaw.proofs.bounds.prove`). Each game writes its own from its clauses, in its
module of this package.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tricklaw.model.cards import colour_of, value_of
from tricklaw.model.state import Game
from tricklaw.proofs.solver import Tracked


@dataclass
class Relaxation:
    """A relaxation of one round for one player: tracked assertions and the score."""

    assertions: list[Tracked]
    score: Any
    """The player's score as a Z3 integer term."""
    decode: Callable[[Any], dict[str, Any]] = lambda _model: {}
    """What an optimal model of the relaxation says (guides the witness)."""
    canonical: Sequence[Any] = ()
    """Integer terms minimised in turn among the optimal solutions before decoding, so
    that the model decoded, and the witness built from it, do not depend on the
    solver's state (Z3's models do: they change with what it solved before)."""


def count(flags: Sequence[Any]) -> Any:
    """How many of the Z3 Booleans ``flags`` hold, as an integer term."""
    return z3.Sum([z3.If(f, 1, 0) for f in flags])


def deck_shape(game: Game) -> tuple[list[int], list[int]]:
    """The colours and the values of ``game``'s deck, each ascending."""
    deck = game.ruleset.deck(game.players, game.options)
    return sorted({colour_of(c) for c in deck}), sorted({value_of(c) for c in deck})
