"""Hund in the batch layer (:mod:`tricklaw.model.rulesets.hund`), 3 to 5 players with drawn
designations.

A numba kernel plays one round of every game from the same streams as the reference: all
cards dealt evenly from the top (HUND-GAP-2); the round's number drawn with
``below(remaining)`` over the unused numbers 1-5 from the deal's generator after the shuffle,
or the next in turn (dispute ``designation``); the last round's Lead decider names the start
player (a LEADER action over every seat, HUND-POWER-5, HUND-GAP-5), else the start passes left
(HUND-GAP-3); players follow suit (HUND-PLAY-2); each played card of the number gives its
suit the next power, Trump first (HUND-DESIG-2); the trick goes to the highest trump counted
under dispute ``trump-timing``, else the highest lead-suit card (HUND-TRICK-1/2); the scores
of Plus, Minus and Hund (HUND-FACT-2/3, dispute ``hund-tie``) and the next Lead decider
(dispute ``lead-tie``). The two-player game (the virtual player) and the custom
``designation-mode=sets`` are played by the reference engine, as is every game without
numba.
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
    taker,
    trick_arrays,
)
from tricklaw.batch.rng import U64, Ints
from tricklaw.model.actions import ActionKind
from tricklaw.model.rulesets.hund import ROUNDS, rules_of
from tricklaw.model.state import Deal, Game

LEADER = int(ActionKind.LEADER) << 8
POWERS = 5
"""Trump, Plus, Hund, Minus, Lead: the powers in the order they are given."""
PLUS, HUND, MINUS, LEAD = 1, 2, 3, 4
TIMING = {"whole-trick": 0, "from-card": 1, "next-trick": 2}
"""Dispute HUND-D-TRUMPTIMING's readings as the kernel's codes."""


@jit.njit
def play_round_kernel(  # noqa: PLR0917  (a numba kernel: arrays by position)
    dealt: Ints,
    players: int,
    index: int,
    rules: Ints,
    deal_rng: U64,
    agent: U64,
    colour: Ints,
    value: Ints,
    used: Bools,
    previous_first: Ints,
    decider: Ints,
    designation: Ints,
    named: Ints,
    first: Ints,
    played: Ints,
    leaders: Ints,
    winners: Ints,
    holders: Ints,
    scores: Ints,
    given: Ints | None,
    play_actions: Ints,
    leader_actions: Ints,
    forced: Ints | None,
    report: Ints,
) -> None:  # pragma: no cover - compiled by numba (tested against the reference)
    """One round of every game. ``rules``: timing code, hund-tie excludes, lead-tie
    earliest, ascending, set-repeat stack. Reads and updates ``used`` (numbers taken),
    ``previous_first`` and ``decider`` (-1: none) across rounds; fills ``designation``,
    ``named`` (the seat the decider names, -1: none), ``first``, ``played``, ``leaders``,
    ``winners``, ``holders`` (suits per power, -1 unassigned) and ``scores``. ``given``:
    an explicit deal's designation as its place among the unused numbers (None or -1:
    drawn). ``forced`` (None: random games) and ``report``: see
    :func:`tricklaw.batch.jit.choose`, card index ``c`` being the action
    ``play_actions[c]``, seat ``s`` named ``leader_actions[s]``."""
    games, width = dealt.shape[0], colour.shape[0]
    size = dealt.shape[1] // players
    timing, excludes, earliest, ascending, stack = rules[0], rules[1], rules[2], rules[3], rules[4]
    hand = np.zeros((players, width), dtype=np.bool_)
    legal = np.zeros(width, dtype=np.int64)
    taken = np.zeros((players, 5), dtype=np.int64)
    for g in range(games):
        hand[:, :] = False
        taken[:, :] = 0
        step = 0
        for k in range(players):
            for i in range(size):
                hand[k, dealt[g, k * size + i]] = True
        left = 0
        for n in range(5):
            if not used[g, n]:
                left += 1
        pick = 0 if ascending else jit.given_or_below(deal_rng, g, left, given)
        number = -1
        for n in range(5):
            if not used[g, n]:
                if pick == 0:
                    number = n + 1
                    used[g, n] = True
                    break
                pick -= 1
        designation[g] = number
        start = (previous_first[g] + 1) % players if index > 0 else 0
        named[g] = -1
        leader = start
        if decider[g] >= 0:
            for s in range(players):
                legal[s] = s
            if forced is None:  # the random games: numba compiles this variant apart
                r = jit.splitmix_below(agent, g, players)
            else:
                r = jit.choose(
                    agent, g, players, legal, leader_actions, decider[g], forced, step, report
                )
            leader = legal[r]
            step += 1
            named[g] = leader
        first[g] = leader
        assigned = 0
        trump_trick = -1
        trump_pos = -1
        for p in range(POWERS):
            holders[g, p] = -1
        for t in range(size):
            leaders[g, t] = leader
            seat = leader
            for p in range(players):
                options = 0
                if p > 0:
                    lead = colour[played[g, t, 0]]
                    for c in range(width):
                        if hand[seat, c] and colour[c] == lead:
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
                if value[card] == number and assigned < POWERS:
                    repeat = False
                    for q in range(assigned):
                        if holders[g, q] == colour[card]:
                            repeat = True
                    if stack or not repeat:
                        holders[g, assigned] = colour[card]
                        assigned += 1
                        if assigned == 1:
                            trump_trick = t
                            trump_pos = p
                seat = seat + 1 if seat + 1 < players else 0
            best = -1
            if assigned > 0:
                trump = holders[g, 0]
                since = players
                if trump_trick < t or timing == 0:
                    since = 0
                elif timing == 1:
                    since = trump_pos
                for p in range(since, players):
                    card = played[g, t, p]
                    if colour[card] == trump and (best < 0 or card > played[g, t, best]):
                        best = p
            if best < 0:
                lead = colour[played[g, t, 0]]
                for p in range(players):
                    card = played[g, t, p]
                    if colour[card] == lead and (best < 0 or card > played[g, t, best]):
                        best = p
            leader = (leader + best) % players
            winners[g, t] = leader
            for p in range(players):
                taken[leader, colour[played[g, t, p]]] += 1
        for s in range(players):
            score = 0
            if assigned > PLUS:
                score += taken[s, holders[g, PLUS]]
            if assigned > MINUS:
                score -= taken[s, holders[g, MINUS]]
            scores[g, s] = score
        if assigned > HUND:
            suit = holders[g, HUND]
            most = taken[0, suit]
            fewest = taken[0, suit]
            for s in range(players):
                most = max(most, taken[s, suit])
                fewest = min(fewest, taken[s, suit])
            n_most = 0
            n_fewest = 0
            for s in range(players):
                n_most += taken[s, suit] == most
                n_fewest += taken[s, suit] == fewest
            for s in range(players):
                at_most = taken[s, suit] == most and (excludes or n_most == 1)
                at_fewest = taken[s, suit] == fewest and (excludes or n_fewest == 1)
                if not (at_most or at_fewest):
                    scores[g, s] += 3
        decider[g] = -1
        if assigned > LEAD:
            suit = holders[g, LEAD]
            best_count = 0
            for s in range(players):
                best_count = max(best_count, taken[s, suit])
            tied = 0
            for s in range(players):
                tied += taken[s, suit] == best_count
            if tied == 1 or earliest:
                for k in range(players):
                    s = (first[g] + k) % players
                    if taken[s, suit] == best_count:
                        decider[g] = s
                        break
        previous_first[g] = first[g]


class HundBatch(Lockstep):
    """Hund in the batch engine: the kernel for 3-5 players with drawn designations where
    numba is installed; the reference engine otherwise."""

    @property
    def vectorised(self) -> bool:  # type: ignore[override]
        """Whether the kernel runs (numba available)."""
        return jit.AVAILABLE

    def play(
        self, game: Game, seeds: tuple[int, ...], max_rounds: int, trace: bool = False
    ) -> Chunk:
        """The lockstep loop, or the reference (two players, sets, no numba)."""
        if not jit.AVAILABLE or game.players != game.seats or rules_of(game).sets:
            return ReferenceFallback().play(game, seeds, max_rounds, trace)
        return super().play(game, seeds, max_rounds, trace)

    def game_over(self, table: Table, rounds_played: int) -> Bools:
        """After five rounds (HUND-GAME-1)."""
        return np.full(table.size, rounds_played >= ROUNDS, dtype=np.bool_)

    def play_round(self, table: Table, index: int, order: Ints, deal_rng: U64) -> Ints:
        """Deal, draw the number, name the start player, play the tricks, score."""
        game = table.game
        n, size = game.players, table.size
        deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
        hand_size = deck.shape[0] // n
        position = np.full(int(deck.max()) + 1, -1, dtype=np.int64)
        position[deck] = np.arange(deck.shape[0])
        memory = table.memory
        if not memory:
            memory["used"] = np.zeros((size, 5), dtype=np.bool_)
            memory["first"] = np.zeros(size, dtype=np.int64)
            memory["decider"] = np.full(size, -1, dtype=np.int64)
        decider_before = memory["decider"].copy()
        designation = np.empty(size, dtype=np.int64)
        named = np.empty(size, dtype=np.int64)
        first = np.empty(size, dtype=np.int64)
        played = np.empty((size, hand_size, n), dtype=np.int64)
        leaders = np.empty((size, hand_size), dtype=np.int64)
        winners = np.empty((size, hand_size), dtype=np.int64)
        holders = np.empty((size, POWERS), dtype=np.int64)
        scores = np.zeros((size, n), dtype=np.int64)
        play_round_kernel(
            position[order],
            n,
            index,
            _flags(game),
            deal_rng,
            table.agent,
            deck >> 5,
            deck & 31,
            memory["used"],
            memory["first"],
            memory["decider"],
            designation,
            named,
            first,
            played,
            leaders,
            winners,
            holders,
            scores,
            None,
            deck,
            LEADER | np.arange(n),
            None,
            jit.NO_REPORT,
        )
        trace = table.trace
        if trace is not None:
            self._trace(table, order, decider_before, designation, named, first, played)
            for t in range(hand_size):
                for p in range(n):
                    trace.add("action", (leaders[:, t] + p) % n, deck[played[:, t, p]])
                receiver = np.broadcast_to(winners[:, t, None], (size, n))
                trace.add("trick", leaders[:, t], deck[played[:, t]], winners[:, t], receiver)
            letters = game.ruleset.palette.letters
            facts = [
                {
                    "designation": int(designation[g]),
                    "sets": [],
                    "powers": [letters[s] for s in holders[g] if s >= 0],
                    "lead_decider": None if memory["decider"][g] < 0 else int(memory["decider"][g]),
                }
                for g in range(size)
            ]
            trace.add("scores", scores, facts)
        return scores

    @staticmethod
    def _trace(  # noqa: PLR0917  (the kernel's outputs, by position)
        table: Table,
        order: Ints,
        decider: Ints,
        designation: Ints,
        named: Ints,
        first: Ints,
        played: Ints,
    ) -> None:
        """The round's deal (with its drawn number) and the LEADER actions, traced."""
        trace = table.trace
        assert trace is not None
        n = table.game.players
        hand_size = played.shape[1]
        hands = [order[:, k * hand_size : (k + 1) * hand_size] for k in range(n)]
        trace.add("deal", hands, None, {}, None, {"designation": designation})
        named_any = named >= 0
        if named_any.any():
            trace.add("action", decider, LEADER | np.maximum(named, 0), named_any)


def _flags(game: Game) -> Ints:
    """The kernel's ``rules``: trump timing, hund-tie, lead-tie, ascending, set-repeat."""
    rules = rules_of(game)
    return np.array(
        [
            TIMING[rules.trump_timing],
            rules.hund_tie_excludes,
            rules.lead_tie_earliest,
            rules.ascending,
            rules.set_repeat_stack,
        ],
        dtype=np.int64,
    )


def _pick(deal: Deal | None, used: Bools) -> int | None:
    """An explicit deal's designation as its place among the numbers not yet used (the
    kernel's draw), or None (drawn)."""
    number = None if deal is None else deal.extra("designation")
    if number is None:
        return None
    left = [k + 1 for k in range(5) if not used[0, k]]
    return left.index(number) if number in left else -1


def forced_round(
    game: Game, index: int, dealt: Dealt, memory: Any, actions: Sequence[int]
) -> ForcedRound:
    """Round ``index`` of one game played by the kernel with ``actions`` forced
    (:mod:`tricklaw.batch.forced`): the Lead decider's LEADER action when there is one,
    then the tricks. ``memory``: the numbers used, the last start player, the decider."""
    n = game.players
    deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
    hand_size = deck.shape[0] // n
    if memory is None:
        memory = (np.zeros((1, 5), dtype=np.bool_), np.zeros(1, np.int64), np.full(1, -1))
    used, previous_first, decider = (m.copy() for m in memory)
    offset = int(decider[0] >= 0)  # the LEADER decision comes first
    designation, named, first = (np.empty(1, dtype=np.int64) for _ in range(3))
    played, leaders, winners = trick_arrays(hand_size, n)
    holders = np.empty((1, POWERS), dtype=np.int64)
    scores = np.zeros((1, n), dtype=np.int64)
    row = report(deck.shape[0])
    play_round_kernel(
        dense(deck, dealt.order),
        n,
        index,
        _flags(game),
        dealt.deal_rng.copy(),
        np.zeros(1, dtype=np.uint64),
        deck >> 5,
        deck & 31,
        used,
        previous_first,
        decider,
        designation,
        named,
        first,
        played,
        leaders,
        winners,
        holders,
        scores,
        given(_pick(dealt.deal, memory[0])),
        deck,
        LEADER | np.arange(n),
        rows(actions),
        row,
    )
    return outcome(
        deck,
        (played, leaders, winners, taker(winners, n), scores),
        (offset + n - 1, n),
        row[0],
        {"designation": int(designation[0])},
        (used, previous_first, decider),
    )


BATCH.register("hund", HundBatch())
FORCED.register(
    "hund",
    ForcedGame(forced_round, {"players": [3, 4, 5], "options": {"designation-mode": ["drawn"]}}),
)
