"""The quantities that clauses pick by, per game: the tie detector's registry.

A clause that picks a player or a card by an extreme (``[[clause.picks]]`` in
``spec/<ruleset>.toml``: the most, fewest, highest, lowest, first or last) names the
quantity it compares. Each game's encoding module (``proofs/encodings/<game>.py``) states
its quantities, written from the clauses, and registers them in :data:`TIES` under its
ruleset id, by name:

* a :class:`CardQuantity` compares the cards of one trick: which cards compete
  (``eligible``) and their key (``key``: the value, or the order of play), over the
  game's :class:`~tricklaw.proofs.tricks.TrickEncoding`;
* a :class:`PlayerQuantity` compares the players: what the model shows of it in a
  finished game (``observe``: the final totals, or a count in each round), and a sound
  over-approximation in Z3 of the values the players can reach (``relaxation``), or,
  when ``exact``, precisely those values;
* a :class:`RowQuantity` compares places in a row of cards outside the trick (the
  leftmost card of a display): one symbolic choice (:class:`Frame`) with its candidates,
  their places, and when the clause must pick.

A pick by place (``first``/``last``: the play order, a row from left to right) can tie
only if two candidates can share a place; where the key makes that impossible by
construction, the quantity says so (``hollow``) and the answer is *trivial*, never
*proved*. The question that remains is whether the clause can have to pick with no
candidate at all, a gap the detector decides for a :class:`RowQuantity`.

:mod:`tricklaw.proofs.ties` decides with them whether a tie is possible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tricklaw.model.cards import Card
from tricklaw.model.registry import Registry
from tricklaw.model.state import Game, RoundLog, State
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import TrickEncoding


def card_values(enc: TrickEncoding) -> list[z3.ArithRef]:
    """The key of most card picks: each card's value."""
    return list(enc.value)


def play_order(enc: TrickEncoding) -> list[z3.ArithRef]:
    """The key of a pick by the first or last played: each card's place in the trick."""
    return [z3.IntVal(i) for i in range(enc.size)]


def every_card(enc: TrickEncoding) -> list[z3.BoolRef]:
    """Every card of the trick competes."""
    return [z3.BoolVal(True) for _ in range(enc.size)]


def cards(method: str) -> Callable[[TrickEncoding], list[z3.BoolRef]]:
    """The cards a method of the game's trick encoding names (e.g. its ``trumps``), one
    flag per card played."""

    def eligible(enc: TrickEncoding) -> list[z3.BoolRef]:
        flags: list[z3.BoolRef] = getattr(enc, method)()
        return flags

    return eligible


def any_of(
    eligible: Callable[[TrickEncoding], list[z3.BoolRef]], present: bool = True
) -> Callable[[TrickEncoding], z3.BoolRef]:
    """When some card of ``eligible`` is in the trick (or, not ``present``, none is)."""

    def applies(enc: TrickEncoding) -> z3.BoolRef:
        some = z3.Or(*eligible(enc))
        return some if present else z3.Not(some)

    return applies


def always(enc: TrickEncoding) -> z3.BoolRef:
    """The pick applies to every trick."""
    return z3.BoolVal(True)


@dataclass(frozen=True, slots=True)
class CardQuantity:
    """The cards of one trick a clause compares, and by what."""

    eligible: Callable[[TrickEncoding], list[z3.BoolRef]]
    """Which cards compete, one flag per card played."""
    key: Callable[[TrickEncoding], list[z3.ArithRef]] = card_values
    """What they are compared by, one term per card played."""
    applies: Callable[[TrickEncoding], z3.BoolRef] = always
    """When the clause makes the pick (its case of the trick rule)."""
    hollow: str = ""
    """Why "no tie" is expected to be *trivial* for this quantity (true by construction,
    such as distinct places in the play order): the documentation that lets such a row
    pass verify (see :data:`~tricklaw.proofs.statuses.STATUSES`)."""
    readings: tuple[str, ...] | None = None
    """The trick encoding's readings that change the quantity (each combination is
    decided); None: all of them. ``()`` for a quantity no reading changes (places in the
    play order): decided once, for every reading."""


PLAY_ORDER_DISTINCT = "two cards never share a place in the play order: no tie, by construction"
"""The documented reason a pick by the first or last played (:func:`play_order`) can
never tie."""

PLAY_ORDER = CardQuantity(every_card, play_order, hollow=PLAY_ORDER_DISTINCT, readings=())
"""Every card of the trick by its place in the play order: the quantity of a pick of the
first card (the led card) or the last, or of a tie-break by the earliest or latest played.
No reading changes it."""


def no_constraint(game: Game, values: Sequence[z3.ArithRef]) -> list[Tracked]:
    """No relaxation: the values are any integers (a tie is then never proved impossible
    by Z3, only shown possible by a witness)."""
    return []


def final_totals(game: Game, state: State[Any]) -> Iterable[tuple[int, ...]]:
    """The players' totals at the end of a finished game (automatic seats left out)."""
    if state.is_terminal():
        yield tuple(state.returns()[: game.players])


def per_round(
    count: Callable[[Game, RoundLog], tuple[int, ...] | None],
) -> Callable[[Game, State[Any]], Iterable[tuple[int, ...]]]:
    """An ``observe`` that reads ``count`` off every finished round of a game (a round for
    which ``count`` is None does not make the pick)."""

    def observe(game: Game, state: State[Any]) -> Iterable[tuple[int, ...]]:
        for log in state.history:
            values = count(game, log)
            if values is not None:
                yield values

    return observe


def cards_of_colour(taken: Sequence[Sequence[Card]], colour: int) -> tuple[int, ...]:
    """How many cards of ``colour`` each seat took."""
    return tuple(sum(1 for card in pile if card >> 5 == colour) for pile in taken)


@dataclass(frozen=True, slots=True)
class PlayerQuantity:
    """A quantity the players are compared by."""

    observe: Callable[[Game, State[Any]], Iterable[tuple[int, ...]]] = final_totals
    """Every vector of the players' values a finished game of the model shows (one per
    round for a count made each round, the totals once for the game's winner)."""
    relaxation: Callable[[Game, Sequence[z3.ArithRef]], list[Tracked]] = no_constraint
    """Constraints every reachable vector of values meets (sound: never excludes one),
    each tracked by the clause it rests on."""
    exact: bool = False
    """Whether ``relaxation`` holds of exactly the reachable vectors, so that a Z3 model
    of it is itself a witness (a pick the model does not play, like a draw for the deal)."""
    modelled: bool = True
    """Whether the model makes the pick (so that the dispute recording an open tie needs a
    switch); False for a pick outside the model (the draw for the first dealer)."""
    readings: tuple[str, ...] = ()
    """The options whose readings change the quantity (each combination is decided)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One symbolic choice a :class:`RowQuantity` makes: the premises its candidates
    meet (each tracked by the clause it rests on), which candidates the clause may pick,
    their places (the key) and when the clause must pick."""

    premises: tuple[Tracked, ...]
    eligible: tuple[z3.BoolRef, ...]
    key: tuple[z3.ArithRef, ...]
    applies: z3.BoolRef
    decode: Callable[[z3.ModelRef], dict[str, Any]]
    """The witness a model of the premises shows (the row, the trick's lead)."""


@dataclass(frozen=True, slots=True)
class RowQuantity:
    """Places in a row of cards outside the trick that a clause picks by (the leftmost
    card of a display), over the game's :class:`Frame`."""

    frame: Callable[[Game], Frame]
    hollow: str
    """Why "no tie" is trivial (two cards never share a place in the row)."""
    given: str = ""
    """Why a candidate is there by construction whenever the clause applies (the clause
    picks among cards it requires to be shown): documents a *trivial* ``pick-candidate``
    row; empty where the candidate's existence is a theorem to prove."""
    readings: tuple[str, ...] = ()
    """The options whose readings change the frame (each combination is decided)."""


ROW_DISTINCT = "two cards never share a place in a row: no tie, by construction"
"""The documented reason a pick by the leftmost (or rightmost) card of a row can never tie."""


def places(size: int) -> tuple[z3.ArithRef, ...]:
    """The key of a pick by place in a row: places 0, 1, ... from the left."""
    return tuple(z3.IntVal(i) for i in range(size))


Quantity = CardQuantity | PlayerQuantity | RowQuantity

TIES: Registry[Mapping[str, Quantity]] = Registry("tie quantities", "tricklaw.proofs.encodings")
"""Ruleset id -> its quantities by the names the registry's picks use."""
