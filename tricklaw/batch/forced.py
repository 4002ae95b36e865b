"""Forced play: one round of one game played by a batch kernel with the actions a caller
gives, so that another program (the fuzzer's adapter, :mod:`tricklaw.kernel_engine`)
can drive the kernels decision by decision.

Each kernel takes, besides its random-game inputs, the action number of every option it
offers, a row of forced actions per game and a report row (:func:`tricklaw.batch.jit.choose`):
it plays each forced action if it is among *its own* legal actions, reports the first that
is not (refused), and at :data:`~tricklaw.batch.jit.STOP` reports the seat to act and its
legal actions. The random games pass no forced actions (None), a variant numba compiles
apart, so their speed is unchanged. A ruleset's module in :mod:`tricklaw.batch.games`
registers its :class:`ForcedGame` in :data:`FORCED`: what it covers and its entry point,
which plays one round from a :class:`Dealt` round and returns a :class:`ForcedRound`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tricklaw.batch import jit, rng
from tricklaw.batch.rng import U64, Ints
from tricklaw.model.cards import Card
from tricklaw.model.registry import Registry
from tricklaw.model.state import Deal, Game


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick as the kernel played it: ``at`` is the decision (from 0 in the round) that
    completed it; seats absolute; ``winner`` -1: nobody; ``receivers`` one seat per card,
    -1: set aside."""

    at: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    receivers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Stop:
    """Where a forced round stopped: at decision ``step``, seat ``seat`` to act with the
    kernel's ``legal`` actions (numbers, canonical order); ``refused``: the forced action
    there was not among them."""

    step: int
    seat: int
    legal: tuple[int, ...]
    refused: bool


@dataclass(frozen=True, slots=True)
class ForcedRound:
    """A round played with forced actions: the :class:`Stop` (None: every decision was
    forced and the round is over), its tricks (those with ``at`` before the stop were
    played by the caller's actions), its scores and facts (valid when the round is over),
    and the ruleset's memory for the next round."""

    stop: Stop | None
    tricks: tuple[Trick, ...]
    scores: tuple[int, ...]
    facts: dict[str, Any]
    memory: Any = None


@dataclass(frozen=True, slots=True)
class Dealt:
    """One round's cards for a kernel: ``order`` (one row) the card numbers as dealt, the
    hands one after another then the piles (top first); ``deal_rng`` the deal's generator
    after the shuffle (the chance draws a seeded round makes); ``deal`` the explicit deal,
    whose drawn outcomes (first player, designation) the kernel is given, or None."""

    order: Ints
    deal_rng: U64
    deal: Deal | None


@dataclass(frozen=True, slots=True)
class ForcedGame:
    """A ruleset's forced play: ``play(game, index, dealt, memory, actions)`` plays round
    ``index`` with ``actions`` forced and stops after them; ``declared`` is what the kernel
    covers, as a declaration's ruleset entry (:mod:`tricklaw.model.replay.declaration`:
    player counts, option values; ``{}``: every game of the ruleset)."""

    play: Callable[[Game, int, Dealt, Any, Sequence[int]], ForcedRound]
    declared: Mapping[str, Any] = field(default_factory=dict)


FORCED: Registry[ForcedGame] = Registry("forced batch play", "tricklaw.batch.games")
"""Ruleset id -> its kernel's forced play."""


def dealt(game: Game, deals: Sequence[Deal], seed: int, index: int) -> Dealt:
    """Round ``index``'s cards: the explicit deal when there is one, else dealt from
    ``seed`` by the batch engine's own portable shuffle (as
    :meth:`tricklaw.batch.engine.Lockstep.play` deals)."""
    if index < len(deals):
        deal = deals[index]
        cards = [c for hand in deal.hands for c in hand] + [
            c for _, pile in deal.piles for c in pile
        ]
        return Dealt(np.array([cards], dtype=np.int64), np.zeros(1, np.uint64), deal)
    deck = np.array(game.ruleset.deck(game.players, game.options), dtype=np.int64)
    deal_rng = rng.round_seeds(np.array([seed & rng.MASK], dtype=np.uint64), index)
    return Dealt(deck[rng.shuffle(deal_rng, deck.shape[0])], deal_rng, None)


def dense(deck: Ints, cards: Ints) -> Ints:
    """``cards`` (card numbers) as indices into ``deck`` (the kernels' card indices)."""
    position = np.full(int(deck.max()) + 1, -1, dtype=np.int64)
    position[deck] = np.arange(deck.shape[0])
    return np.asarray(position[cards], dtype=np.int64)


def rows(actions: Sequence[int]) -> Ints:
    """The kernel's forced input for one game: ``actions``, then
    :data:`~tricklaw.batch.jit.STOP`."""
    return np.array([[*actions, jit.STOP]], dtype=np.int64)


def report(width: int) -> Ints:
    """An empty report row for one game whose decisions offer at most ``width`` options."""
    return np.full((1, jit.REPORT + width + 1), -1, dtype=np.int64)


def outcome(  # noqa: PLR0917  (a kernel's outputs, by position)
    deck: Ints,
    kernel: tuple[Ints, Ints, Ints, Ints, Ints],
    ends: tuple[int, int] | Sequence[int],
    row: Ints,
    facts: dict[str, Any],
    memory: Any = None,
) -> ForcedRound:
    """The :class:`ForcedRound` of one game from its kernel's outputs: ``kernel`` holds
    ``played`` (card index per trick and position), ``leaders``, ``winners``,
    ``receivers`` (per trick and position) and ``scores``, one game each; trick ``t`` is
    completed by decision ``ends[0] + ends[1] * t`` (a pair), or ``ends[t]`` (one a trick);
    ``row`` is the game's report."""
    played, leaders, winners, receivers, scores = kernel
    if isinstance(ends, tuple):
        ends = [ends[0] + ends[1] * t for t in range(played.shape[1])]
    tricks = tuple(
        Trick(
            ends[t],
            int(leaders[0, t]),
            tuple(Card(int(c)) for c in deck[played[0, t]]),
            int(winners[0, t]),
            tuple(int(s) for s in receivers[0, t]),
        )
        for t in range(played.shape[1])
    )
    return ForcedRound(stop_of(row), tricks, tuple(int(s) for s in scores[0]), facts, memory)


def trick_arrays(tricks: int, players: int) -> tuple[Ints, Ints, Ints]:
    """One game's ``played`` (card index per trick and position), ``leaders`` and
    ``winners`` outputs for a kernel."""
    played = np.empty((1, tricks, players), dtype=np.int64)
    return played, np.empty((1, tricks), dtype=np.int64), np.empty((1, tricks), dtype=np.int64)


def taker(winners: Ints, players: int) -> Ints:
    """Receivers where each trick's winner takes its cards (-1, nobody: set aside)."""
    return np.repeat(winners[:, :, None], players, axis=2)


def stop_of(row: Ints) -> Stop | None:
    """The :class:`Stop` a kernel wrote to ``row`` (one game's report), or None."""
    if row[0] < 0:
        return None
    count = int(row[2])
    legal = tuple(int(a) for a in row[jit.REPORT : jit.REPORT + count])
    return Stop(int(row[0]), int(row[1]), legal, bool(row[3]))


def given(value: int | None) -> Ints:
    """A chance outcome given to a kernel for one game (-1: drawn)."""
    return np.array([-1 if value is None else value], dtype=np.int64)
