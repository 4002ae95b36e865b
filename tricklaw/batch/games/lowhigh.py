"""The low-card-takes-high game in lockstep (:mod:`tricklaw.model.rulesets.lowhigh`).

Hands are flags over the deck's cards in canonical order (one row per game and seat), so a
random agent's legal cards are a row of flags in the order the reference lists them. Follow
the lead colour if you can (LH-PLAY-1/2); the highest value wins, the later on a tie, then
the lowest, the later on a tie (LH-TRICK-1..3); the lowest card's player takes the highest
card, the highest card's player the rest and leads (LH-TRICK-4/5, LH-LEAD-1); a trick of one
value goes whole to its last card's player, or under ``same-card=among-rest`` the lowest is
sought among the other cards (dispute LH-D-SAMECARD). A colour scores its face values with
one or two cards, else one point a card (LH-SCORE-1..4); rounds: ``rounds`` or one per
player, seat ``index mod n`` or seat 0 leading (LH-GAME-1, dispute LH-D-FIRSTLEAD).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tricklaw.batch import BATCH, jit
from tricklaw.batch.engine import Bools, Lockstep, Table, padded
from tricklaw.batch.forced import (
    FORCED,
    Dealt,
    ForcedGame,
    ForcedRound,
    dense,
    outcome,
    report,
    rows,
    trick_arrays,
)
from tricklaw.batch.rng import U64, Ints
from tricklaw.model.actions import ActionKind
from tricklaw.model.state import Game

HAND_SIZE = 15
"""Fifteen cards each (LH-DEAL-1)."""
PLAY = int(ActionKind.PLAY)


def last_index(flags: Bools) -> Ints:
    """The last column of each row whose flag is set (every row has one)."""
    width = flags.shape[1]
    return np.asarray(width - 1 - np.argmax(flags[:, ::-1], axis=1), dtype=np.int64)


@jit.njit
def play_round_kernel(  # noqa: PLR0917  (numba kernels take their arrays by position)
    dealt: Ints,
    players: int,
    first: int,
    among_rest: bool,
    agent: U64,
    colour: Ints,
    value: Ints,
    played: Ints,
    receiver: Ints,
    leaders: Ints,
    winners: Ints,
    scores: Ints,
    play_actions: Ints,
    forced: Ints | None,
    report: Ints,
) -> None:  # pragma: no cover - compiled by numba (tested against the reference)
    """One round of every game, game by game (numba): the same rules and draws as the
    lockstep path. Fills ``played`` (card index per trick and position), ``receiver``
    (seat receiving each card), ``leaders`` and ``winners`` (seats, per trick) and
    ``scores``. ``forced`` (None: random games) and ``report``: see
    :func:`tricklaw.batch.jit.choose`, card index ``c`` being the action
    ``play_actions[c]``."""
    games, width = dealt.shape[0], colour.shape[0]
    colours = int(colour.max()) + 1
    hand = np.zeros((players, width), dtype=np.bool_)
    legal = np.zeros(width, dtype=np.int64)
    count = np.zeros((players, colours), dtype=np.int64)
    total = np.zeros((players, colours), dtype=np.int64)
    held = np.zeros((players, colours), dtype=np.int64)
    start = np.zeros(colours + 1, dtype=np.int64)  # colour c's cards: start[c] .. start[c+1]
    for c in range(width):
        start[colour[c] + 1] = c + 1
    for g in range(games):
        hand[:, :] = False
        count[:, :] = 0
        total[:, :] = 0
        held[:, :] = 0
        step = 0
        for k in range(players):
            for i in range(HAND_SIZE):
                hand[k, dealt[g, k * HAND_SIZE + i]] = True
                held[k, colour[dealt[g, k * HAND_SIZE + i]]] += 1
        leader = first
        for t in range(HAND_SIZE):
            leaders[g, t] = leader
            seat = leader
            lead = -1
            for p in range(players):
                # the lead colour's cards lie together in canonical order (LH-PLAY-2)
                options = 0
                if p > 0 and held[seat, lead] > 0:
                    for c in range(start[lead], start[lead + 1]):
                        if hand[seat, c]:
                            legal[options] = c
                            options += 1
                if forced is None:  # the random games: numba compiles this variant apart
                    card = jit.draw_card(hand, seat, legal, options, agent, g)
                else:
                    card = jit.choose_card(
                        hand, seat, legal, options, agent, g, play_actions, forced, step, report
                    )
                step += 1
                held[seat, colour[card]] -= 1
                played[g, t, p] = card
                if p == 0:
                    lead = colour[card]
                seat = seat + 1 if seat + 1 < players else 0
            high = 0
            low = 0
            for p in range(players):
                v = value[played[g, t, p]]
                if v >= value[played[g, t, high]]:
                    high = p
                if v <= value[played[g, t, low]]:
                    low = p
            if low == high and among_rest:
                low = -1
                for p in range(players):
                    if p != high and (
                        low < 0 or value[played[g, t, p]] <= value[played[g, t, low]]
                    ):
                        low = p
            for p in range(players):
                to = (leader + (low if p == high else high)) % players
                receiver[g, t, p] = to
                card = played[g, t, p]
                count[to, colour[card]] += 1
                total[to, colour[card]] += value[card]
            leader = (leader + high) % players
            winners[g, t] = leader
        for k in range(players):
            score = 0
            for c in range(colours):
                score += total[k, c] if count[k, c] <= 2 else count[k, c]
            scores[g, k] = score


class LowHighBatch(Lockstep):
    """:class:`~tricklaw.model.rulesets.lowhigh.LowHigh` in lockstep: the kernel where
    numba is installed, else numpy's arrays."""

    needs_numba = False

    def game_over(self, table: Table, rounds_played: int) -> Bools:
        """After ``rounds`` rounds, or as many as players (LH-GAME-1)."""
        game = table.game
        limit = int(game.options.number("rounds")) or game.players
        return np.full(table.size, rounds_played >= limit, dtype=np.bool_)

    def play_round(self, table: Table, index: int, order: Ints, deal_rng: U64) -> Ints:
        """Deal fifteen cards each in shuffled order (LH-DEAL-1) and play fifteen tricks."""
        game = table.game
        n, size = game.players, table.size
        deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
        width = padded(deck.shape[0])
        position = np.full(int(deck.max()) + 1, -1, dtype=np.int64)
        position[deck] = np.arange(deck.shape[0])
        colour = np.full(width, -1, dtype=np.int64)
        colour[: deck.shape[0]] = deck >> 5
        value = np.zeros(width, dtype=np.int64)
        value[: deck.shape[0]] = deck & 31
        cards = np.zeros(width, dtype=np.int64)
        cards[: deck.shape[0]] = deck
        suits = np.arange(int(colour.max()) + 1)
        of_colour = colour[None, :] == suits[:, None]
        trace = table.trace
        first = index % n if game.options.text("first-leader") == "rotate" else 0
        if trace is not None:
            hands_dealt = [order[:, k * HAND_SIZE : (k + 1) * HAND_SIZE] for k in range(n)]
            trace.add("deal", hands_dealt, None, {}, None)
        among_rest = game.options.text("same-card") == "among-rest"
        if jit.AVAILABLE:
            return _compiled_round(table, position[order], first, among_rest)
        rows = np.arange(size)
        hands = np.zeros((size * n, width), dtype=np.bool_)
        for k in range(n):
            dealt = position[order[:, k * HAND_SIZE : (k + 1) * HAND_SIZE]]
            hands[(rows * n + k)[:, None], dealt] = True
        taken = np.zeros((size * n, width), dtype=np.bool_)
        leader = np.full(size, first, dtype=np.int64)
        base = rows * n
        for _ in range(HAND_SIZE):
            played = np.empty((size, n), dtype=np.int64)
            seat = leader.copy()
            lead_colour = np.zeros(size, dtype=np.int64)
            for p in range(n):
                where = base + seat
                hand = np.take(hands, where, axis=0)
                if p == 0:
                    legal = hand
                else:
                    follow = hand & np.take(of_colour, lead_colour, axis=0)
                    void = ~follow.view(np.uint64).any(axis=1)
                    legal = follow | (hand & void[:, None])
                pick = table.choose(legal)
                hands[where, pick] = False
                played[:, p] = pick
                if p == 0:
                    lead_colour = colour[pick]
                if trace is not None:
                    trace.add("action", seat.copy(), cards[pick] | PLAY)
                seat += 1
                seat[seat == n] = 0
            values = value[played]
            high = last_index(values == values.max(axis=1, keepdims=True))
            low = last_index(values == values.min(axis=1, keepdims=True))
            if among_rest:
                rest = values.copy()
                rest[rows, high] = 1 << 20
                lowest = last_index(rest == rest.min(axis=1, keepdims=True))
                low = np.where(low == high, lowest, low)
            receiver = np.broadcast_to(high[:, None], (size, n)).copy()
            receiver[rows, high] = low
            receiver = (leader[:, None] + receiver) % n
            taken[(base[:, None] + receiver).ravel(), played.ravel()] = True
            winner = (leader + high) % n
            if trace is not None:
                trace.add("trick", leader.copy(), cards[played], winner, receiver)
            leader = winner
        taken3 = taken.reshape(size, n, width)
        member = of_colour.T.astype(np.int64)
        counts = taken3.astype(np.int64) @ member
        sums = (taken3 * value[None, None, :]) @ member
        scores = np.where(counts <= 2, sums, counts).sum(axis=2)
        if trace is not None:
            trace.add("scores", scores, [{} for _ in range(size)])
        return np.asarray(scores, dtype=np.int64)


BATCH.register("lowhigh", LowHighBatch())


def forced_round(
    game: Game, index: int, dealt: Dealt, memory: Any, actions: Sequence[int]
) -> ForcedRound:
    """Round ``index`` of one game played by the kernel with ``actions`` forced
    (:mod:`tricklaw.batch.forced`): fifteen tricks of ``players`` cards."""
    n = game.players
    deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
    first = index % n if game.options.text("first-leader") == "rotate" else 0
    played, leaders, winners = trick_arrays(HAND_SIZE, n)
    receiver = np.empty((1, HAND_SIZE, n), dtype=np.int64)
    scores = np.empty((1, n), dtype=np.int64)
    row = report(deck.shape[0])
    play_round_kernel(
        dense(deck, dealt.order),
        n,
        first,
        game.options.text("same-card") == "among-rest",
        np.zeros(1, dtype=np.uint64),
        deck >> 5,
        deck & 31,
        played,
        receiver,
        leaders,
        winners,
        scores,
        deck | PLAY,
        rows(actions),
        row,
    )
    return outcome(deck, (played, leaders, winners, receiver, scores), (n - 1, n), row[0], {})


FORCED.register("lowhigh", ForcedGame(forced_round))


def _compiled_round(table: Table, dealt: Ints, first: int, among_rest: bool) -> Ints:
    """:func:`play_round_kernel` for the chunk; its trace events as the lockstep path's."""
    game = table.game
    n, size = game.players, table.size
    deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
    played = np.empty((size, HAND_SIZE, n), dtype=np.int64)
    receiver = np.empty((size, HAND_SIZE, n), dtype=np.int64)
    leaders = np.empty((size, HAND_SIZE), dtype=np.int64)
    winners = np.empty((size, HAND_SIZE), dtype=np.int64)
    scores = np.empty((size, n), dtype=np.int64)
    outputs = (played, receiver, leaders, winners, scores)
    play_round_kernel(
        dealt,
        n,
        first,
        among_rest,
        table.agent,
        deck >> 5,
        deck & 31,
        *outputs,
        deck | PLAY,
        None,
        jit.NO_REPORT,
    )
    trace = table.trace
    if trace is not None:
        for t in range(HAND_SIZE):
            for p in range(n):
                trace.add("action", (leaders[:, t] + p) % n, deck[played[:, t, p]] | PLAY)
            trace.add("trick", leaders[:, t], deck[played[:, t]], winners[:, t], receiver[:, t])
        trace.add("scores", scores, [{} for _ in range(size)])
    return scores
