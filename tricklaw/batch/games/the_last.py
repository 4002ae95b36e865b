"""The Last in the batch layer (:mod:`tricklaw.model.rulesets.the_last`), 3 to 5 players.

A numba kernel plays one round of every game from the same streams as the reference: hands
in blocks from the top, the rest the points pile (LAST-DEAL-1/2); the first player drawn
with ``below(players)`` from the deal's generator after the shuffle (LAST-LEAD-1); each
trick turns up the next points card (LAST-TRICK-1); the leader plays anything, the others
follow the lead colour, the last player a colour already in the trick (LAST-PLAY-1..3,
dispute ``last-play``); the last card's colour wins, its highest card takes the points card
(LAST-TRICK-2/3); the taker keeps it or swaps it for a hand card (LAST-COLLECT-1: KEEP, then
a SWAP per hand card in canonical order) and leads; penalties are the face-down cards'
values (LAST-SCORE-1), points never turned up going to the last taker under
``unused-points=last-winner`` (dispute LAST-D-UNUSED). The two-player game with the ghost
(LAST-GHOST-1..6) is played by the reference engine (:class:`ReferenceFallback`), as is
every game without numba.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tricklaw.batch import BATCH, jit
from tricklaw.batch.engine import Bools, Chunk, Lockstep, ReferenceFallback, Table
from tricklaw.batch.forced import (
    FORCED,
    Dealt,
    ForcedGame,
    ForcedRound,
    dense,
    given,
    outcome,
    report,
    rows,
    trick_arrays,
)
from tricklaw.batch.rng import U64, Ints
from tricklaw.model.actions import KEEP, SWAP
from tricklaw.model.rulesets.the_last.rules import HAND_SIZE
from tricklaw.model.state import Game


@jit.njit
def play_round_kernel(  # noqa: PLR0917  (a numba kernel: arrays by position)
    dealt: Ints,
    points: Ints,
    players: int,
    free_last: bool,
    unused_to_last: bool,
    deal_rng: U64,
    agent: U64,
    colour: Ints,
    value: Ints,
    cards: Ints,
    first: Ints,
    played: Ints,
    leaders: Ints,
    winners: Ints,
    decisions: Ints,
    scores: Ints,
    given: Ints | None,
    play_actions: Ints,
    swap_actions: Ints,
    forced: Ints | None,
    report: Ints,
) -> None:  # pragma: no cover - compiled by numba (tested against the reference)
    """One round of every game: fills ``first`` (the drawn first player), ``played``,
    ``leaders``, ``winners`` (seats), ``decisions`` (KEEP or SWAP actions) and
    ``scores`` (penalties). ``given``: the first player of an explicit deal (None or -1:
    drawn). ``forced`` (None: random games) and ``report``: see
    :func:`tricklaw.batch.jit.choose`, card index ``c`` being the action
    ``play_actions[c]`` when played and ``swap_actions[c]`` when swapped in,
    ``swap_actions[width]`` KEEP."""
    games, width = dealt.shape[0], colour.shape[0]
    size = dealt.shape[1] // players
    tricks = size
    hand = np.zeros((players, width), dtype=np.bool_)
    legal = np.zeros(width + 1, dtype=np.int64)
    seen = np.zeros(8, dtype=np.bool_)
    for g in range(games):
        hand[:, :] = False
        for k in range(players):
            for i in range(size):
                hand[k, dealt[g, k * size + i]] = True
        step = 0
        leader = jit.given_or_below(deal_rng, g, players, given)
        first[g] = leader
        for t in range(tricks):
            leaders[g, t] = leader
            shown = points[g, t]
            seat = leader
            seen[:] = False
            for p in range(players):
                constrained = p > 0 and not (p == players - 1 and free_last)
                options = 0
                if constrained:
                    for c in range(width):
                        if hand[seat, c]:
                            ok = (
                                seen[colour[c]]
                                if p == players - 1
                                else colour[c] == colour[played[g, t, 0]]
                            )
                            if ok:
                                legal[options] = c
                                options += 1
                if options == 0:
                    for c in range(width):
                        if hand[seat, c]:
                            legal[options] = c
                            options += 1
                if forced is None:  # the random games: numba compiles this variant apart
                    r = jit.splitmix_below(agent, g, options)
                else:
                    r = jit.choose(
                        agent, g, options, legal, play_actions, seat, forced, step, report
                    )
                card = legal[r]
                step += 1
                hand[seat, card] = False
                played[g, t, p] = card
                seen[colour[card]] = True
                seat = seat + 1 if seat + 1 < players else 0
            winning = colour[played[g, t, players - 1]]
            best = -1
            for p in range(players):
                card = played[g, t, p]
                if colour[card] == winning and (best < 0 or card > played[g, t, best]):
                    best = p
            taker = (leader + best) % players
            winners[g, t] = taker
            options = 1
            legal[0] = width  # KEEP
            for c in range(width):
                if hand[taker, c]:
                    legal[options] = c
                    options += 1
            if forced is None:  # the random games: numba compiles this variant apart
                r = jit.splitmix_below(agent, g, options)
            else:
                r = jit.choose(agent, g, options, legal, swap_actions, taker, forced, step, report)
            step += 1
            if r == 0:
                decisions[g, t] = KEEP
                down = shown
            else:
                down = legal[r]
                decisions[g, t] = SWAP | cards[down]
                hand[taker, down] = False
                hand[taker, shown] = True
            scores[g, taker] += value[down]
            leader = taker
        if unused_to_last:
            for i in range(tricks, points.shape[1]):
                scores[g, leader] += value[points[g, i]]


class TheLastBatch(Lockstep):
    """The Last in the batch engine: the kernel for 3-5 players where numba is installed;
    the reference engine for the ghost game and without numba."""

    @property
    def vectorised(self) -> bool:  # type: ignore[override]
        """Whether the kernel runs (numba available)."""
        return jit.AVAILABLE

    def play(
        self, game: Game, seeds: tuple[int, ...], max_rounds: int, trace: bool = False
    ) -> Chunk:
        """The lockstep loop, or the reference for the ghost game or without numba."""
        if not jit.AVAILABLE or game.players != game.seats:
            return ReferenceFallback().play(game, seeds, max_rounds, trace)
        return super().play(game, seeds, max_rounds, trace)

    def game_over(self, table: Table, rounds_played: int) -> Bools:
        """After ``rounds`` rounds (dispute LAST-D-ROUNDS)."""
        limit = table.game.options.number("rounds")
        return np.full(table.size, rounds_played >= limit, dtype=np.bool_)

    def play_round(self, table: Table, index: int, order: Ints, deal_rng: U64) -> Ints:
        """Deal, draw the first player, play the tricks with their keep-or-swap decisions."""
        game = table.game
        n, size = game.players, table.size
        hand_size = HAND_SIZE[n]
        deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
        position = np.full(int(deck.max()) + 1, -1, dtype=np.int64)
        position[deck] = np.arange(deck.shape[0])
        dense = position[order]
        first = np.empty(size, dtype=np.int64)
        played = np.empty((size, hand_size, n), dtype=np.int64)
        leaders = np.empty((size, hand_size), dtype=np.int64)
        winners = np.empty((size, hand_size), dtype=np.int64)
        decisions = np.empty((size, hand_size), dtype=np.int64)
        scores = np.zeros((size, n), dtype=np.int64)
        free_last = game.options.text("last-play") == "free"
        unused_to_last = game.options.text("unused-points") == "last-winner"
        play_round_kernel(
            dense[:, : n * hand_size],
            dense[:, n * hand_size :],
            n,
            free_last,
            unused_to_last,
            deal_rng,
            table.agent,
            deck >> 5,
            deck & 31,
            deck,
            first,
            played,
            leaders,
            winners,
            decisions,
            scores,
            None,
            deck,
            _swaps(deck),
            None,
            jit.NO_REPORT,
        )
        trace = table.trace
        if trace is not None:
            hands = [order[:, k * hand_size : (k + 1) * hand_size] for k in range(n)]
            pile = order[:, n * hand_size :]
            trace.add("deal", hands, None, {"points": pile}, first)
            no_one = np.full((size, n), -1, dtype=np.int64)
            for t in range(hand_size):
                for p in range(n):
                    trace.add("action", (leaders[:, t] + p) % n, deck[played[:, t, p]])
                trace.add("trick", leaders[:, t], deck[played[:, t]], winners[:, t], no_one)
                trace.add("action", winners[:, t], decisions[:, t])
            notation = game.ruleset.palette.notation
            left = pile[:, hand_size:]
            facts = [
                {"points_left": [] if unused_to_last else [notation[c] for c in row]}
                for row in left
            ]
            trace.add("scores", scores, facts)
        return scores


def _swaps(deck: Ints) -> Ints:
    """The keep-or-swap decision's actions by card index: SWAP of each card, then KEEP."""
    return np.append(deck | SWAP, KEEP)


def forced_round(
    game: Game, index: int, dealt: Dealt, memory: Any, actions: Sequence[int]
) -> ForcedRound:
    """Round ``index`` of one game played by the kernel with ``actions`` forced
    (:mod:`tricklaw.batch.forced`): each trick's cards, then its taker's keep or swap."""
    n = game.players
    hand_size = HAND_SIZE[n]
    deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
    order = dense(deck, dealt.order)
    first = np.empty(1, dtype=np.int64)
    played, leaders, winners = trick_arrays(hand_size, n)
    decisions = np.empty((1, hand_size), dtype=np.int64)
    scores = np.zeros((1, n), dtype=np.int64)
    row = report(deck.shape[0])
    unused_to_last = game.options.text("unused-points") == "last-winner"
    play_round_kernel(
        order[:, : n * hand_size],
        order[:, n * hand_size :],
        n,
        game.options.text("last-play") == "free",
        unused_to_last,
        dealt.deal_rng.copy(),
        np.zeros(1, dtype=np.uint64),
        deck >> 5,
        deck & 31,
        deck,
        first,
        played,
        leaders,
        winners,
        decisions,
        scores,
        given(None if dealt.deal is None else dealt.deal.first_leader),
        deck,
        _swaps(deck),
        rows(actions),
        row,
    )
    notation = game.ruleset.palette.notation
    left = order[0, n * hand_size + hand_size :]
    return outcome(
        deck,
        (played, leaders, winners, np.full_like(played, -1), scores),
        (n - 1, n + 1),  # a trick's last card; its taker's decision follows
        row[0],
        {"points_left": [] if unused_to_last else [notation[c] for c in deck[left]]},
    )


BATCH.register("the-last", TheLastBatch())
FORCED.register("the-last", ForcedGame(forced_round, {"players": [3, 4, 5]}))
