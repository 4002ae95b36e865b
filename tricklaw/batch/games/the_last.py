"""The Last in the batch layer (:mod:`tricklaw.model.rulesets.the_last`), 2 to 5 players.

A numba kernel plays one round of every game from the same streams as the reference: hands
in blocks from the top, the rest the points pile (LAST-DEAL-1/2); the first player drawn
with ``below(players)`` from the deal's generator after the shuffle (LAST-LEAD-1); each
trick turns up the next points card (LAST-TRICK-1); the leader plays anything, the others
follow the lead colour, the last player a colour already in the trick (LAST-PLAY-1..3,
dispute ``last-play``); the last card's colour wins, its highest card takes the points card
(LAST-TRICK-2/3); the taker keeps it or swaps it for a hand card (LAST-COLLECT-1: KEEP, then
a SWAP per hand card in canonical order) and leads; penalties are the face-down cards'
values (LAST-SCORE-1), points never turned up going to the last taker under
``unused-points=last-winner`` (dispute LAST-D-UNUSED). With two players the ghost's pile
follows the hands (LAST-GHOST-1/2) and it sits to the right of the round's first player, or
of the first round's (dispute ``ghost-seat``); it plays its top card, or the first card of
its pile it may play (LAST-GHOST-3/4, dispute ``ghost-play``), draws nothing, keeps every
points card it takes (LAST-GHOST-5), then leads, or the seat after it does (dispute
``ghost-lead``), and its penalty is not counted (LAST-GHOST-6). Without
numba the games fall back to the reference engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tricklaw.batch import BATCH, jit, rng
from tricklaw.batch.engine import Bools, Lockstep, Table
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
from tricklaw.model.actions import KEEP, SWAP
from tricklaw.model.rulesets.the_last.rules import GHOST, HAND_SIZE, rules_of
from tricklaw.model.state import Game


@jit.njit
def play_round_kernel(  # noqa: PLR0917  (a numba kernel: arrays by position)
    dealt: Ints,
    ghost: Ints,
    points: Ints,
    players: int,
    rules: Ints,
    after: Ints,
    first: Ints,
    agent: U64,
    colour: Ints,
    value: Ints,
    cards: Ints,
    played: Ints,
    leaders: Ints,
    winners: Ints,
    decisions: Ints,
    scores: Ints,
    play_actions: Ints,
    swap_actions: Ints,
    forced: Ints | None,
    report: Ints,
) -> None:  # pragma: no cover - compiled by numba (tested against the reference)
    """One round of every game, each led first by ``first`` around the ring ``after``
    (the seat after each seat); ``ghost`` is the ghost's pile, top first (no columns
    without the ghost). ``rules``: last-play free, unused points to the last taker, the
    ghost plays the first legal card, the seat after the ghost leads when it has won.
    Fills ``played``, ``leaders``, ``winners`` (seats),
    ``decisions`` (KEEP or SWAP actions; -1 where the ghost took the trick) and
    ``scores`` (penalties; the ghost's is not counted). ``forced`` (None: random games)
    and ``report``: see :func:`tricklaw.batch.jit.choose`, card index ``c`` being the
    action ``play_actions[c]`` when played and ``swap_actions[c]`` when swapped in,
    ``swap_actions[width]`` KEEP; the ghost's cards are no decision."""
    games, width = dealt.shape[0], colour.shape[0]
    seats = after.shape[1]
    size = dealt.shape[1] // players
    tricks = size
    free_last, unused_to_last, first_legal = rules[0] != 0, rules[1] != 0, rules[2] != 0
    ghost_lead_next = rules[3] != 0
    hand = np.zeros((players, width), dtype=np.bool_)
    left = np.zeros(ghost.shape[1], dtype=np.bool_)
    legal = np.zeros(width + 1, dtype=np.int64)
    seen = np.zeros(8, dtype=np.bool_)
    for g in range(games):
        hand[:, :] = False
        left[:] = True
        for k in range(players):
            for i in range(size):
                hand[k, dealt[g, k * size + i]] = True
        step = 0
        leader = first[g]
        for t in range(tricks):
            leaders[g, t] = leader
            shown = points[g, t]
            seat = leader
            seen[:] = False
            for p in range(seats):
                last = p == seats - 1
                if seat == players:  # the ghost: its top card, or the first it may play
                    card, top = -1, -1
                    for i in range(ghost.shape[1]):
                        if left[i]:
                            c = ghost[g, i]
                            if card < 0:
                                card = c
                                top = i
                            if not first_legal or p == 0 or (last and free_last):
                                break
                            if seen[colour[c]] if last else colour[c] == colour[played[g, t, 0]]:
                                card = c
                                top = i
                                break
                    left[top] = False
                else:
                    constrained = p > 0 and not (last and free_last)
                    options = 0
                    if constrained:
                        for c in range(width):
                            if hand[seat, c]:
                                ok = (
                                    seen[colour[c]]
                                    if last
                                    else colour[c] == colour[played[g, t, 0]]
                                )
                                if ok:
                                    legal[options] = c
                                    options += 1
                    if forced is None:  # the random games: numba compiles this variant apart
                        card = jit.draw_card(hand, seat, legal, options, agent, g)
                    else:
                        card = jit.choose_card(
                            hand, seat, legal, options, agent, g, play_actions, forced, step, report
                        )
                    step += 1
                played[g, t, p] = card
                seen[colour[card]] = True
                seat = after[g, seat]
            winning = colour[played[g, t, seats - 1]]
            best = -1
            for p in range(seats):
                card = played[g, t, p]
                if colour[card] == winning and (best < 0 or card > played[g, t, best]):
                    best = p
            taker = leader
            for _ in range(best):
                taker = after[g, taker]
            winners[g, t] = taker
            leader = taker
            if taker == players:  # the ghost keeps every points card it takes
                decisions[g, t] = -1
                if ghost_lead_next:  # dispute LAST-D-GHOSTLEAD: the next seat leads
                    leader = after[g, taker]
                continue
            options = 1
            for c in range(width):
                if hand[taker, c]:
                    legal[options] = c
                    options += 1
            if forced is None:  # the random games: numba compiles this variant apart
                r = jit.splitmix_below(agent, g, options)
            else:
                legal[0] = width  # KEEP
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
        if unused_to_last and leader < players:
            for i in range(tricks, points.shape[1]):
                scores[g, leader] += value[points[g, i]]


class TheLastBatch(Lockstep):
    """The Last in the batch engine: the kernel for 2-5 players (the ghost's game too)
    where numba is installed; the reference engine without numba."""

    def game_over(self, table: Table, rounds_played: int) -> Bools:
        """After ``rounds`` rounds (dispute LAST-D-ROUNDS)."""
        limit = table.game.options.number("rounds")
        return np.full(table.size, rounds_played >= limit, dtype=np.bool_)

    def play_round(self, table: Table, index: int, order: Ints, deal_rng: U64) -> Ints:
        """Deal, draw the first player, seat the ghost, play the tricks with their
        keep-or-swap decisions."""
        game = table.game
        n, seats, size = game.players, game.seats, table.size
        hand_size = HAND_SIZE[n]
        deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
        position = np.full(int(deck.max()) + 1, -1, dtype=np.int64)
        position[deck] = np.arange(deck.shape[0])
        first = rng.below(deal_rng, n)  # LAST-LEAD-1: never the ghost
        seating = _seating(table, index, first)
        played = np.empty((size, hand_size, seats), dtype=np.int64)
        leaders = np.empty((size, hand_size), dtype=np.int64)
        winners = np.empty((size, hand_size), dtype=np.int64)
        decisions = np.empty((size, hand_size), dtype=np.int64)
        scores = np.zeros((size, seats), dtype=np.int64)
        arrays = (played, leaders, winners, decisions, scores)
        _run(game, deck, position[order], seating, first, table.agent, arrays)
        if table.trace is not None:
            outputs = (first, seating, played, leaders, winners, decisions, scores)
            _trace(table, order, *outputs)
        return scores


def _run(  # noqa: PLR0917  (the kernel's inputs, by position)
    game: Game,
    deck: Ints,
    dense: Ints,
    seating: Ints,
    first: Ints,
    agent: U64,
    outputs: tuple[Ints, Ints, Ints, Ints, Ints],
    forced: tuple[Ints, Ints] | None = None,
) -> Ints:
    """Play the round of every game of ``dense`` (dealt card indices) in the kernel, into
    ``outputs`` (played, leaders, winners, decisions, scores); ``forced``: the forced
    actions' rows and the report row (:mod:`tricklaw.batch.forced`), None for the random
    games. Returns the points piles (their order is the cards turned up)."""
    hands, ghost, points, flags = _parts(game, dense)
    rows_, row = forced if forced is not None else (None, jit.NO_REPORT)
    play_round_kernel(
        hands,
        ghost,
        points,
        game.players,
        flags,
        _after(seating),
        first,
        agent,
        deck >> 5,
        deck & 31,
        deck,
        *outputs,
        deck,
        _swaps(deck),
        rows_,
        row,
    )
    return points


def _parts(game: Game, dense: Ints) -> tuple[Ints, Ints, Ints, Ints]:
    """The kernel's hands, ghost's pile and points pile from the dealt card indices
    ``dense``, and its ``rules`` flags."""
    n, seats = game.players, game.seats
    hand_size = HAND_SIZE[n]
    rules = rules_of(game)
    dealt = n * hand_size
    ghost_cards = hand_size if seats > n else 0
    flags = np.array(
        [
            rules.last_play_free,
            rules.unused_to_last_winner,
            rules.ghost_first_legal,
            rules.ghost_lead_next,
        ],
        dtype=np.int64,
    )
    # Contiguous copies: numba compiles one version for every layout it is given, and a
    # column slice's layout changes with the number of games (one game: contiguous).
    hands, ghost, points = (
        np.ascontiguousarray(part) for part in np.split(dense, [dealt, dealt + ghost_cards], axis=1)
    )
    return hands, ghost, points, flags


def _after(seating: Ints) -> Ints:
    """The seat after each seat, per game, from each game's clockwise ``seating``."""
    after = np.empty_like(seating)
    after[np.arange(seating.shape[0])[:, None], seating] = np.roll(seating, -1, axis=1)
    return after


def _seating(table: Table, index: int, first: Ints) -> Ints:
    """Each game's clockwise order of seats: 0, 1, ... without the ghost; with it, the
    ghost to the right of the round's first player, or of the first round's
    (``ghost-seat=fixed``) (LAST-GHOST-1, dispute ``ghost-seat``)."""
    game = table.game
    size = table.size
    if game.players == game.seats:
        return np.broadcast_to(np.arange(game.seats), (size, game.seats)).copy()
    if index == 0:
        table.memory["anchor"] = first.copy()
    anchor = table.memory["anchor"] if rules_of(game).ghost_fixed else first
    return np.stack([anchor, 1 - anchor, np.full(size, GHOST)], axis=1)


def _trace(  # noqa: PLR0917  (the kernel's outputs, by position)
    table: Table,
    order: Ints,
    first: Ints,
    seating: Ints,
    played: Ints,
    leaders: Ints,
    winners: Ints,
    decisions: Ints,
    scores: Ints,
) -> None:
    """The round's deal, plays (the ghost's untraced: the rules', not a decision,
    LAST-GHOST-3), tricks, decisions and scores, traced."""
    trace = table.trace
    assert trace is not None
    game = table.game
    n, seats, size = game.players, game.seats, table.size
    hand_size = HAND_SIZE[n]
    deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
    hands = [order[:, k * hand_size : (k + 1) * hand_size] for k in range(n)]
    piles = {}
    dealt = n * hand_size
    if seats > n:
        hands.append(order[:, :0])
        piles["ghost"] = order[:, dealt : dealt + hand_size]
        dealt += hand_size
    pile = order[:, dealt:]
    piles["points"] = pile
    trace.add("deal", hands, None, piles, first, None, seating)
    no_one = np.full((size, seats), -1, dtype=np.int64)
    rows = np.arange(size)
    place = np.empty((size, seats), dtype=np.int64)
    place[rows[:, None], seating] = np.arange(seats)
    for t in range(hand_size):
        start = place[rows, leaders[:, t]]
        for p in range(seats):
            seat = seating[rows, (start + p) % seats]
            trace.add("action", seat, deck[played[:, t, p]], seat < n)
        trace.add("trick", leaders[:, t], deck[played[:, t]], winners[:, t], no_one)
        trace.add("action", winners[:, t], decisions[:, t], winners[:, t] < n)
    notation = game.ruleset.palette.notation
    rules = rules_of(game)
    left = pile[:, hand_size:]
    facts: list[dict[str, Any]] = [
        {"points_left": [] if rules.unused_to_last_winner else [notation[c] for c in row]}
        for row in left
    ]
    if seats > n:
        for fact in facts:
            fact["ghost"] = GHOST
    trace.add("scores", scores, facts)


def _swaps(deck: Ints) -> Ints:
    """The keep-or-swap decision's actions by card index: SWAP of each card, then KEEP."""
    return np.append(deck | SWAP, KEEP)


def forced_round(
    game: Game, index: int, dealt: Dealt, memory: Any, actions: Sequence[int]
) -> ForcedRound:
    """Round ``index`` of one game played by the kernel with ``actions`` forced
    (:mod:`tricklaw.batch.forced`): each trick's cards, then its taker's keep or swap (none
    where the ghost takes it; the ghost's cards are no decision). ``memory``: the first
    round's first player (the fixed ghost's anchor)."""
    n, seats = game.players, game.seats
    hand_size = HAND_SIZE[n]
    rules = rules_of(game)
    deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
    cards = dealt.order
    deal = dealt.deal
    if deal is not None:
        held = [c for hand in deal.hands for c in hand]
        cards = np.array([[*held, *deal.pile("ghost"), *deal.pile("points")]], dtype=np.int64)
    order = dense(deck, cards)
    if deal is not None and deal.first_leader is not None:
        first = np.array([deal.first_leader], dtype=np.int64)
    else:
        first = rng.below(dealt.deal_rng.copy(), n)  # LAST-LEAD-1: never the ghost
    if seats == n:
        seating = np.arange(seats, dtype=np.int64)[None, :]
    else:
        anchor = first if memory is None or not rules.ghost_fixed else memory
        seating = np.stack([anchor, 1 - anchor, np.full(1, GHOST)], axis=1)
    memory = first.copy() if memory is None else memory
    played, leaders, winners = trick_arrays(hand_size, seats)
    decisions = np.empty((1, hand_size), dtype=np.int64)
    scores = np.zeros((1, seats), dtype=np.int64)
    row = report(deck.shape[0])
    arrays = (played, leaders, winners, decisions, scores)
    points = _run(
        game,
        deck,
        order,
        seating,
        first,
        np.zeros(1, dtype=np.uint64),
        arrays,
        (rows(actions), row),
    )
    # trick t is completed by its last player's decision: the ghost's cards are none, and
    # a trick the ghost takes has no keep-or-swap decision after it
    ends = []
    step = -1
    for t in range(hand_size):
        step += n
        ends.append(step)
        if winners[0, t] < n:
            step += 1
    notation = game.ruleset.palette.notation
    left = points[0, hand_size:]
    facts: dict[str, Any] = {
        "points_left": [] if rules.unused_to_last_winner else [notation[c] for c in deck[left]]
    }
    if seats > n:
        facts["ghost"] = GHOST
    return outcome(
        deck,
        (played, leaders, winners, np.full_like(played, -1), scores),
        ends,
        row[0],
        facts,
        memory,
    )


BATCH.register("the-last", TheLastBatch())
FORCED.register("the-last", ForcedGame(forced_round))
