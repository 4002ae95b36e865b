"""The lockstep driver: many independent random games of one ruleset played at once.

A chunk of games (one seed each) is played round by round: every round is dealt for all
games at once by the vectorised portable shuffle (:mod:`tricklaw.batch.rng`), then the
ruleset's :class:`Lockstep` part plays it with array operations, each decision of every
game drawn by :meth:`Table.choose` from that game's random-agent stream exactly as
:func:`tricklaw.model.agents.random_step` draws it (``legal[below(len(legal))]`` over the
legal actions in canonical order). Games that end early stay in the arrays but stop
counting. A ruleset without a lockstep part falls back to the reference engine
(:class:`ReferenceFallback`), game by game, and so does a :class:`Lockstep` for a game its
kernel does not play (:meth:`BatchEngine.kernel_plays`: numba missing, or a table the
ruleset leaves to the reference).

The engine is for volume (benchmarks, statistics): the reference model stays the source of
truth for every ruling, and the batch games are checked against it record by record
(:mod:`tricklaw.batch.trace` writes them as JSON Lines logs for ``tricklaw check``).
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from tricklaw.batch import jit, rng
from tricklaw.batch.rng import U64, Ints
from tricklaw.model.agents import play_random_game
from tricklaw.model.state import Game

Bools = npt.NDArray[np.bool_]


@dataclass
class Trace:
    """What a chunk's games did, round by round, for their logs (see :mod:`trace`).

    ``rounds[r]`` lists round ``r``'s events for every game at once: ``("deal", hands,
    dealer, piles, first)`` with ``hands`` one ``(games, cards)`` array of card numbers per
    seat in dealt order, ``dealer`` an array of seats or None, ``piles`` name -> cards
    array, ``first`` the drawn first players or None, then optionally ``extras`` (name ->
    numbers, or None) and ``seating`` (each game's clockwise order of seats; default 0, 1,
    ...); ``("action", seat, action)``, optionally with a mask of the games that act;
    ``("trick", leader, cards, winner, recipients)`` with ``winner`` and ``recipients``
    (one per card, ``-1`` = aside) as absolute seats (``winner`` ``-1`` = nobody);
    ``("scores", scores, facts)`` with ``facts`` a list of one dict per game.
    """

    rounds: list[list[tuple[Any, ...]]] = field(default_factory=list)

    def add(self, *event: Any) -> None:
        """Record an event of the round in play."""
        self.rounds[-1].append(event)


@dataclass
class Table:
    """The chunk in play: the game, each game's agent generator and totals, the trace, and
    the ruleset's own memory across rounds."""

    game: Game
    seeds: U64
    agent: U64
    totals: Ints
    trace: Trace | None
    memory: dict[str, Any] = field(default_factory=dict)
    """What a ruleset carries from round to round, per game (Hund: the designations used,
    the last start player and Lead decider), by its own names."""

    @property
    def size(self) -> int:
        """The number of games in the chunk."""
        return int(self.seeds.shape[0])

    def choose(self, legal: Bools) -> Ints:
        """Each game's random choice among its legal options: ``legal`` is one row of
        flags per game over the options in canonical order (C-contiguous, a width that is
        a multiple of 8: pad with False, :func:`padded`); the result is the column of
        ``legal[below(count)]``, the draw :func:`tricklaw.model.agents.random_step` makes.
        Every row must offer at least one option, and at most 127.

        Eight flags a word (:func:`prefix_counts`): the chosen column is the number of
        columns whose running count is at most the draw, counted byte-wise."""
        if sys.byteorder != "little":
            marks, count = prefix_counts(legal)
            pick = rng.below(self.agent, count).astype(np.uint8)
            return np.asarray(np.argmax(marks > pick[:, None], axis=1), np.int64)
        words = legal.view(np.uint64)
        with np.errstate(over="ignore"):
            within = words * BYTES
            totals = within >> _TOP
            before = np.cumsum(totals, axis=1) - totals
            pick = rng.below(self.agent, before[:, -1] + totals[:, -1]).astype(np.uint64)
            marks = within + before * BYTES
            at_most = ((pick[:, None] * BYTES + HIGH) - marks) & HIGH
            counted = ((at_most >> _SEVEN) * BYTES) >> _TOP
        return np.asarray(counted.sum(axis=1), dtype=np.int64)


BYTES = np.uint64(0x0101010101010101)
_TOP = np.uint64(56)
HIGH = np.uint64(0x8080808080808080)
_SEVEN = np.uint64(7)


def padded(width: int) -> int:
    """``width`` rounded up to a multiple of 8 (the row width :meth:`Table.choose` takes)."""
    return -(-width // 8) * 8


def prefix_counts(flags: Bools) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Each row's running count of set flags (inclusive, as bytes) and its total.

    Eight flags at a time: a row's bytes read as 64-bit words, a word times
    ``0x0101010101010101`` holds in byte ``k`` the count of its bytes ``0..k``; the words'
    totals are summed across the row and added back byte-wise. Rows count at most 255."""
    if sys.byteorder != "little":  # the byte trick reads words little-endian
        counts = np.cumsum(flags, axis=1, dtype=np.uint8)
        return counts, counts[:, -1].astype(np.int64)
    words = flags.view(np.uint64)
    with np.errstate(over="ignore"):
        within = words * BYTES
    totals = within >> _TOP
    before = np.cumsum(totals, axis=1) - totals
    with np.errstate(over="ignore"):
        marks = within + before * BYTES
    return marks.view(np.uint8), (before[:, -1] + totals[:, -1]).astype(np.int64)


@dataclass(frozen=True)
class Chunk:
    """The outcome of a chunk: rounds played and totals per game, whether each game
    ended by the rules (``complete``), and the trace when one was asked for."""

    seeds: tuple[int, ...]
    rounds: Ints
    totals: Ints
    complete: Bools
    trace: Trace | None


class BatchEngine(ABC):
    """One ruleset's part of the batch layer (registered in :data:`tricklaw.batch.BATCH`)."""

    @abstractmethod
    def kernel_plays(self, game: Game) -> bool:
        """Whether this engine plays ``game`` in lockstep (and traces it); False where the
        reference plays it game by game (:class:`ReferenceFallback`)."""

    @abstractmethod
    def play(
        self, game: Game, seeds: tuple[int, ...], max_rounds: int, trace: bool = False
    ) -> Chunk:
        """Random games of ``game`` from ``seeds``, each stopped after at most
        ``max_rounds`` rounds."""


class Lockstep(BatchEngine):
    """A ruleset played with array operations: the generic round loop; each ruleset
    supplies :meth:`play_round` and :meth:`game_over` (and, if its kernel leaves some
    tables or readings to the reference, narrows :meth:`kernel_plays`)."""

    needs_numba: bool = True
    """Whether the lockstep part runs only as a numba kernel
    (:data:`~tricklaw.batch.jit.AVAILABLE`); False for a ruleset with a numpy path too
    (Low-High)."""

    def kernel_plays(self, game: Game) -> bool:
        """Whether the lockstep part plays ``game``: numba is available, or not needed. A
        ruleset whose kernel leaves some tables to the reference overrides this with
        ``super().kernel_plays(game)`` and its own condition on ``game``."""
        return jit.AVAILABLE or not self.needs_numba

    @abstractmethod
    def play_round(self, table: Table, index: int, order: Ints, deal_rng: U64) -> Ints:
        """Play round ``index`` of every game, whose shuffled deck is ``order`` (card
        numbers, one row per game; ``deal_rng`` is the deal's generator after the
        shuffle, for a cut that draws); returns each seat's round score per game."""

    @abstractmethod
    def game_over(self, table: Table, rounds_played: int) -> Bools:
        """Which games end after ``rounds_played`` rounds with ``table.totals``."""

    def play(
        self, game: Game, seeds: tuple[int, ...], max_rounds: int, trace: bool = False
    ) -> Chunk:
        """The lockstep loop over rounds (see the module doc); the reference for a game the
        kernel does not play (:meth:`kernel_plays`)."""
        if not self.kernel_plays(game):
            return ReferenceFallback().play(game, seeds, max_rounds, trace)
        seed_array = np.array([s & rng.MASK for s in seeds], dtype=np.uint64)
        table = Table(
            game,
            seed_array,
            rng.agent_states(seed_array),
            np.zeros((len(seeds), game.seats), dtype=np.int64),
            Trace() if trace else None,
        )
        deck = np.array(game.ruleset.deck(game.players, game.options), dtype=np.int64)
        active = np.ones(len(seeds), dtype=np.bool_)
        rounds = np.zeros(len(seeds), dtype=np.int64)
        index = 0
        while index < max_rounds and active.any():
            if table.trace is not None:
                table.trace.rounds.append([])
            deal_rng = rng.round_seeds(seed_array, index)
            order = deck[rng.shuffle(deal_rng, deck.shape[0])]
            scores = self.play_round(table, index, order, deal_rng)
            table.totals += np.where(active[:, None], scores, 0)
            rounds += active
            index += 1
            active &= ~self.game_over(table, index)
        return Chunk(tuple(seeds), rounds, table.totals, ~active, table.trace)


class ReferenceFallback(BatchEngine):
    """A ruleset not (yet) vectorised: its games are played one by one by the reference
    engine (:func:`tricklaw.model.agents.play_random_game`), the same games the batch
    engine would play. No trace: the reference writes its own records."""

    def kernel_plays(self, game: Game) -> bool:
        """Never: the reference plays every game."""
        return False

    def play(
        self, game: Game, seeds: tuple[int, ...], max_rounds: int, trace: bool = False
    ) -> Chunk:
        """Each seed's game through the reference model."""
        states = [play_random_game(game, seed, max_rounds=max_rounds) for seed in seeds]
        return Chunk(
            tuple(seeds),
            np.array([len(s.history) for s in states], dtype=np.int64),
            np.array([s.returns() for s in states], dtype=np.int64).reshape(len(seeds), -1),
            np.array([s.is_terminal() for s in states], dtype=np.bool_),
            None,
        )
