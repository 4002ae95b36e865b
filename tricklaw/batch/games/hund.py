"""Hund in the batch layer (:mod:`tricklaw.model.rulesets.hund`), 2 to 5 players, drawn
designations or designation sets.

A numba kernel plays one round of every game from the same streams as the reference: all
cards dealt evenly from the top (HUND-GAP-2); the round's number drawn with
``below(remaining)`` over the unused numbers 1-5 from the deal's generator after the shuffle,
or the next in turn (dispute ``designation``); the last round's Lead decider names the start
player (a LEADER action over every seat, HUND-POWER-5, HUND-GAP-5), else the start passes left
(HUND-GAP-3); with the custom ``designation-mode=sets`` the players after the start player
choose five sets in turn (DESIGNATE actions over the cards of an unused value, and suit under
``set-suits=distinct``; HUND-OPT-2), which match a played card by card or by value
(``set-match``); players follow suit (HUND-PLAY-2); each matching card gives its suit the
next power, Trump first (HUND-DESIG-2, ``set-repeat``); the trick goes to the highest trump
counted under dispute ``trump-timing``, else the highest lead-suit card (HUND-TRICK-1/2); the
scores of Plus, Minus and Hund (HUND-FACT-2/3, dispute ``hund-tie``) and the next Lead
decider (dispute ``lead-tie``). With two players the virtual player in seat 2 lays its cards
in columns, face-up on face-down (HUND-TWO-2, dispute ``virtual-odd``), plays the leftmost
face-up card of the lead suit, else the leftmost face-up card, drawing nothing
(HUND-TWO-3..5), turns up the uncovered cards after each trick (HUND-TWO-6), counts for Hund
or not (``virtual-hund``) and never names a start player (HUND-GAP-6). Without numba the
games fall back to the reference engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tricklaw.batch import BATCH, jit
from tricklaw.batch.engine import Bools, Lockstep, Table
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
DESIGNATE = int(ActionKind.DESIGNATE) << 8
POWERS = 5
"""Trump, Plus, Hund, Minus, Lead: the powers in the order they are given."""
PLUS, HUND, MINUS, LEAD = 1, 2, 3, 4
TIMING = {"whole-trick": 0, "from-card": 1, "next-trick": 2}
"""Dispute HUND-D-TRUMPTIMING's readings as the kernel's codes."""


@jit.njit
def _virtual_card(up: Ints, lead: int, colour: Ints) -> int:
    """The virtual player's column (HUND-TWO-4/5): the leftmost face-up card of suit
    ``lead`` (-1: the trick is empty), else the leftmost face-up card."""
    if lead >= 0:
        for i in range(up.shape[0]):
            if up[i] >= 0 and colour[up[i]] == lead:
                return i
    for i in range(up.shape[0]):
        if up[i] >= 0:
            return i
    return -1


@jit.njit
def _choose_sets(  # noqa: PLR0917  (a numba helper: arguments by position)
    g: int,
    leader: int,
    seats: int,
    virtual: int,
    distinct: bool,
    agent: U64,
    colour: Ints,
    value: Ints,
    legal: Ints,
    sets: Ints,
    choosers: Ints,
    actions: Ints,
    forced: Ints | None,
    step: int,
    report: Ints,
) -> int:
    """The five designation sets of game ``g`` (HUND-OPT-2): each chosen in turn by the
    next player after the last (never the virtual player, seat ``virtual``; -1: none), from
    the start player on,
    among the cards of an unused value (and suit, ``set-suits=distinct``) in canonical
    order. ``forced`` (None: random games), ``step`` (the first set's decision) and
    ``report``: see :func:`tricklaw.batch.jit.choose`, card index ``c`` being the action
    ``actions[c]``; returns the decision after the last set."""
    seat = leader
    for k in range(POWERS):
        seat = (seat + 1) % seats
        if seat == virtual:
            seat = (seat + 1) % seats
        choosers[g, k] = seat
        options = 0
        for c in range(colour.shape[0]):
            ok = True
            for q in range(k):
                chosen = sets[g, q]
                if value[chosen] == value[c] or (distinct and colour[chosen] == colour[c]):
                    ok = False
            if ok:
                legal[options] = c
                options += 1
        if forced is None:  # the random games: numba compiles this variant apart
            sets[g, k] = legal[jit.splitmix_below(agent, g, options)]
        else:
            r = jit.choose(agent, g, options, legal, actions, seat, forced, step, report)
            sets[g, k] = legal[r]
        step += 1
    return step


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
    sets: Ints,
    choosers: Ints,
    played: Ints,
    leaders: Ints,
    winners: Ints,
    holders: Ints,
    scores: Ints,
    given: Ints | None,
    play_actions: Ints,
    leader_actions: Ints,
    designate_actions: Ints,
    forced: Ints | None,
    report: Ints,
) -> None:  # pragma: no cover - compiled by numba (tested against the reference)
    """One round of every game, at ``scores.shape[1]`` seats (the virtual player's, seat
    ``players``, with two players). ``rules``: timing code, hund-tie excludes, lead-tie
    earliest, ascending, set-repeat stack, designation sets, set-match card, set-suits
    distinct, the virtual player counts for Hund, its face-down cards. Reads and updates
    ``used`` (numbers taken), ``previous_first`` and ``decider`` (-1: none) across
    rounds; fills ``designation`` (-1 with sets), ``named`` (the seat the decider names,
    -1: none), ``first``, ``sets`` and ``choosers`` (with sets), ``played``,
    ``leaders``, ``winners``, ``holders`` (suits per power, -1 unassigned) and
    ``scores``. ``given``: an explicit deal's designation as its place among the unused
    numbers (None or -1: drawn). ``forced`` (None: random games) and ``report``: see
    :func:`tricklaw.batch.jit.choose`, card index ``c`` being the action
    ``play_actions[c]`` when played and ``designate_actions[c]`` when designated, seat
    ``s`` named ``leader_actions[s]``; the virtual player's cards are no decision."""
    games, width = dealt.shape[0], colour.shape[0]
    seats = scores.shape[1]
    size = dealt.shape[1] // seats
    timing, excludes, earliest, ascending, stack = rules[0], rules[1], rules[2], rules[3], rules[4]
    by_sets, match_card, distinct, virtual_counts = rules[5], rules[6], rules[7], rules[8]
    downs = rules[9]
    virtual = players if seats > players else -1
    hand = np.zeros((seats, width), dtype=np.bool_)
    legal = np.zeros(width, dtype=np.int64)
    taken = np.zeros((seats, 5), dtype=np.int64)
    up = np.full(max(downs, size - downs), -1, dtype=np.int64)
    down = np.full(max(downs, size - downs), -1, dtype=np.int64)
    for g in range(games):
        hand[:, :] = False
        taken[:, :] = 0
        step = 0
        for k in range(players):
            for i in range(size):
                hand[k, dealt[g, k * size + i]] = True
        if virtual >= 0:  # its columns: face-up cards on face-down ones (HUND-TWO-2)
            up[:] = -1
            down[:] = -1
            for i in range(downs):
                down[i] = dealt[g, players * size + i]
            for i in range(size - downs):
                up[i] = dealt[g, players * size + downs + i]
        number = -1
        if not by_sets:
            left = 0
            for n in range(5):
                if not used[g, n]:
                    left += 1
            pick = 0 if ascending else jit.given_or_below(deal_rng, g, left, given)
            for n in range(5):
                if not used[g, n]:
                    if pick == 0:
                        number = n + 1
                        used[g, n] = True
                        break
                    pick -= 1
        designation[g] = number
        start = (previous_first[g] + 1) % seats if index > 0 else 0
        named[g] = -1
        leader = start
        if decider[g] >= 0:
            if forced is None:  # the random games: numba compiles this variant apart
                leader = jit.splitmix_below(agent, g, seats)
            else:
                for s in range(seats):
                    legal[s] = s
                r = jit.choose(
                    agent, g, seats, legal, leader_actions, decider[g], forced, step, report
                )
                leader = legal[r]
            step += 1
            named[g] = leader
        first[g] = leader
        if by_sets:
            step = _choose_sets(
                g,
                leader,
                seats,
                virtual,
                distinct,
                agent,
                colour,
                value,
                legal,
                sets,
                choosers,
                designate_actions,
                forced,
                step,
                report,
            )
        assigned = 0
        trump_trick = -1
        trump_pos = -1
        for p in range(POWERS):
            holders[g, p] = -1
        for t in range(size):
            leaders[g, t] = leader
            seat = leader
            for p in range(seats):
                if seat == virtual:  # plays by its rule, draws nothing (HUND-TWO-3..5)
                    slot = _virtual_card(up, colour[played[g, t, 0]] if p > 0 else -1, colour)
                    card = up[slot]
                    up[slot] = -1
                else:
                    options = 0
                    if p > 0:
                        lead = colour[played[g, t, 0]]
                        for c in range(width):
                            if hand[seat, c] and colour[c] == lead:
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
                hit = value[card] == number
                if by_sets:
                    for k in range(POWERS):
                        chosen = sets[g, k]
                        if chosen == card or (not match_card and value[chosen] == value[card]):
                            hit = True
                if hit and assigned < POWERS:
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
                seat = seat + 1 if seat + 1 < seats else 0
            if virtual >= 0:  # turn up the uncovered face-down cards (HUND-TWO-6)
                for i in range(up.shape[0]):
                    if up[i] < 0 and down[i] >= 0:
                        up[i] = down[i]
                        down[i] = -1
            best = -1
            if assigned > 0:
                trump = holders[g, 0]
                since = seats
                if trump_trick < t or timing == 0:
                    since = 0
                elif timing == 1:
                    since = trump_pos
                for p in range(since, seats):
                    card = played[g, t, p]
                    if colour[card] == trump and (best < 0 or card > played[g, t, best]):
                        best = p
            if best < 0:
                lead = colour[played[g, t, 0]]
                for p in range(seats):
                    card = played[g, t, p]
                    if colour[card] == lead and (best < 0 or card > played[g, t, best]):
                        best = p
            leader = (leader + best) % seats
            winners[g, t] = leader
            for p in range(seats):
                taken[leader, colour[played[g, t, p]]] += 1
        for s in range(seats):
            score = 0
            if assigned > PLUS:
                score += taken[s, holders[g, PLUS]]
            if assigned > MINUS:
                score -= taken[s, holders[g, MINUS]]
            scores[g, s] = score
        if assigned > HUND:
            _score_hund(
                g,
                taken[:, holders[g, HUND]],
                virtual if not virtual_counts else -1,
                excludes,
                scores,
            )
        decider[g] = -1
        if assigned > LEAD:
            suit = holders[g, LEAD]
            best_count = 0
            for s in range(seats):
                best_count = max(best_count, taken[s, suit])
            tied = 0
            for s in range(seats):
                tied += taken[s, suit] == best_count
            if tied == 1 or earliest:
                for k in range(seats):
                    s = (first[g] + k) % seats
                    if taken[s, suit] == best_count:
                        decider[g] = -1 if s == virtual else s
                        break
        previous_first[g] = first[g]


@jit.njit
def _score_hund(g: int, count: Ints, ignored: int, excludes: bool, scores: Ints) -> None:
    """3 to each compared seat whose count of the Hund suit is neither the most nor the
    fewest among the compared seats (HUND-POWER-3, HUND-FACT-3, dispute ``hund-tie``); the
    ``ignored`` seat (the virtual player under ``virtual-hund=ignored``) is not compared."""
    most = -1
    fewest = 1 << 30
    for s in range(count.shape[0]):
        if s != ignored:
            most = max(most, count[s])
            fewest = min(fewest, count[s])
    n_most = 0
    n_fewest = 0
    for s in range(count.shape[0]):
        if s != ignored:
            n_most += count[s] == most
            n_fewest += count[s] == fewest
    for s in range(count.shape[0]):
        at_most = count[s] == most and (excludes or n_most == 1)
        at_fewest = count[s] == fewest and (excludes or n_fewest == 1)
        if s != ignored and not (at_most or at_fewest):
            scores[g, s] += 3


def _run(  # noqa: PLR0917  (the kernel's inputs, by position)
    game: Game,
    deck: Ints,
    index: int,
    dense: Ints,
    streams: tuple[U64, U64],
    memory: tuple[Bools, Ints, Ints],
    dealt_and_played: tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints],
    totals: tuple[Ints, Ints],
    forced: tuple[Any, Ints, Ints] | None = None,
) -> None:
    """Play round ``index`` of every game of ``dense`` (indices into ``deck``) in the kernel:
    ``streams`` the deal's and the agents' generators, ``memory`` the games' memory (powers
    used, first players, deciders), then the kernel's outputs (designation, named number,
    first player, sets, choosers, played, leaders, winners; holders, scores); ``forced``:
    the given designations, the forced actions' rows and the report row
    (:mod:`tricklaw.batch.forced`), None for the random games."""
    n, seats = game.players, game.seats
    hand_size = deck.shape[0] // seats
    given_, rows_, row = forced if forced is not None else (None, None, jit.NO_REPORT)
    used, firsts, deciders = memory
    play_round_kernel(
        dense,
        n,
        index,
        _flags(game, hand_size),
        *streams,
        deck >> 5,
        deck & 31,
        used,
        firsts,
        deciders,
        *dealt_and_played,
        *totals,
        given_,
        deck,
        LEADER | np.arange(seats),
        DESIGNATE | deck,
        rows_,
        row,
    )


class HundBatch(Lockstep):
    """Hund in the batch engine: the kernel for 2-5 players, drawn designations or sets,
    where numba is installed; the reference engine without numba."""

    def game_over(self, table: Table, rounds_played: int) -> Bools:
        """After five rounds (HUND-GAME-1)."""
        return np.full(table.size, rounds_played >= ROUNDS, dtype=np.bool_)

    def play_round(self, table: Table, index: int, order: Ints, deal_rng: U64) -> Ints:
        """Deal, draw the number, name the start player, choose the sets, play the tricks,
        score."""
        game = table.game
        n, seats, size = game.players, game.seats, table.size
        rules = rules_of(game)
        deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
        hand_size = deck.shape[0] // seats
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
        sets = np.full((size, POWERS), -1, dtype=np.int64)
        choosers = np.full((size, POWERS), -1, dtype=np.int64)
        played = np.empty((size, hand_size, seats), dtype=np.int64)
        leaders = np.empty((size, hand_size), dtype=np.int64)
        winners = np.empty((size, hand_size), dtype=np.int64)
        holders = np.empty((size, POWERS), dtype=np.int64)
        scores = np.zeros((size, seats), dtype=np.int64)
        _run(
            game,
            deck,
            index,
            position[order],
            (deal_rng, table.agent),
            (memory["used"], memory["first"], memory["decider"]),
            (designation, named, first, sets, choosers, played, leaders, winners),
            (holders, scores),
        )
        trace = table.trace
        if trace is not None:
            _trace_start(table, order, decider_before, designation, named, sets, choosers)
            for t in range(hand_size):
                for p in range(seats):
                    seat = (leaders[:, t] + p) % seats
                    trace.add("action", seat, deck[played[:, t, p]], seat < n)
                receiver = np.broadcast_to(winners[:, t, None], (size, seats))
                trace.add("trick", leaders[:, t], deck[played[:, t]], winners[:, t], receiver)
            notation = game.ruleset.palette.notation
            letters = game.ruleset.palette.letters
            facts = [
                {
                    "designation": None if rules.sets else int(designation[g]),
                    "sets": [notation[c] for c in deck[sets[g]]] if rules.sets else [],
                    "powers": [letters[s] for s in holders[g] if s >= 0],
                    "lead_decider": None if memory["decider"][g] < 0 else int(memory["decider"][g]),
                }
                for g in range(size)
            ]
            trace.add("scores", scores, facts)
        return scores


def _flags(game: Game, hand_size: int) -> Ints:
    """The kernel's ``rules`` for ``game`` with hands of ``hand_size``."""
    rules = rules_of(game)
    return np.array(
        [
            TIMING[rules.trump_timing],
            rules.hund_tie_excludes,
            rules.lead_tie_earliest,
            rules.ascending,
            rules.set_repeat_stack,
            rules.sets,
            rules.set_match_card,
            rules.set_suits_distinct,
            rules.virtual_in_hund,
            _downs(hand_size, rules.extra_up),
        ],
        dtype=np.int64,
    )


def _downs(size: int, extra_up: bool) -> int:
    """The virtual player's face-down cards of its ``size`` (dispute ``virtual-odd``)."""
    return size // 2 if extra_up else size - size // 2


def _trace_start(  # noqa: PLR0917  (the kernel's outputs, by position)
    table: Table,
    order: Ints,
    decider: Ints,
    designation: Ints,
    named: Ints,
    sets: Ints,
    choosers: Ints,
) -> None:
    """The round's deal (with its drawn number, or the virtual player's rows), the LEADER
    action and the DESIGNATE actions, traced."""
    trace = table.trace
    assert trace is not None
    game = table.game
    n, seats = game.players, game.seats
    rules = rules_of(game)
    hand_size = order.shape[1] // seats
    hands = [order[:, k * hand_size : (k + 1) * hand_size] for k in range(n)]
    piles = {}
    if seats > n:
        hands.append(order[:, :0])
        downs = n * hand_size + _downs(hand_size, rules.extra_up)
        piles["virtual-down"] = order[:, n * hand_size : downs]
        piles["virtual-up"] = order[:, downs : seats * hand_size]
    extras = None if rules.sets else {"designation": designation}
    trace.add("deal", hands, None, piles, None, extras)
    named_any = named >= 0
    if named_any.any():
        trace.add("action", decider, LEADER | np.maximum(named, 0), named_any)
    if rules.sets:
        deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
        for k in range(POWERS):
            trace.add("action", choosers[:, k], DESIGNATE | deck[sets[:, k]])


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
    the five DESIGNATE actions with sets, then the tricks (the virtual player's cards are
    no decision). ``memory``: the numbers used, the last start player, the decider."""
    n, seats = game.players, game.seats
    rules = rules_of(game)
    deck = np.array(game.ruleset.deck(n, game.options), dtype=np.int64)
    hand_size = deck.shape[0] // seats
    if memory is None:
        memory = (np.zeros((1, 5), dtype=np.bool_), np.zeros(1, np.int64), np.full(1, -1))
    used, previous_first, decider = (m.copy() for m in memory)
    # the LEADER decision comes first, then the sets' DESIGNATE decisions
    offset = int(decider[0] >= 0) + (POWERS if rules.sets else 0)
    cards = dealt.order
    deal = dealt.deal
    if deal is not None:
        held = [c for hand in deal.hands for c in hand]
        piles = [*deal.pile("virtual-down"), *deal.pile("virtual-up")]
        cards = np.array([[*held, *piles]], dtype=np.int64)
    designation, named, first = (np.empty(1, dtype=np.int64) for _ in range(3))
    sets = np.full((1, POWERS), -1, dtype=np.int64)
    choosers = np.full((1, POWERS), -1, dtype=np.int64)
    played, leaders, winners = trick_arrays(hand_size, seats)
    holders = np.empty((1, POWERS), dtype=np.int64)
    scores = np.zeros((1, seats), dtype=np.int64)
    row = report(deck.shape[0])
    _run(
        game,
        deck,
        index,
        dense(deck, cards),
        (dealt.deal_rng.copy(), np.zeros(1, dtype=np.uint64)),
        (used, previous_first, decider),
        (designation, named, first, sets, choosers, played, leaders, winners),
        (holders, scores),
        (given(_pick(deal, memory[0])), rows(actions), row),
    )
    notation = game.ruleset.palette.notation
    facts: dict[str, Any] = {"designation": None if rules.sets else int(designation[0])}
    if rules.sets:
        facts["sets"] = [notation[c] for c in deck[sets[0]]]
    return outcome(
        deck,
        (played, leaders, winners, taker(winners, seats), scores),
        (offset + n - 1, n),
        row[0],
        facts,
        (used, previous_first, decider),
    )


BATCH.register("hund", HundBatch())
FORCED.register("hund", ForcedGame(forced_round))
