"""Hund's numba kernel in the batch layer (:mod:`tricklaw.batch.games.hund`, which runs
it): one round of every game in lockstep, from the deal's and the agents' generators to
the scores and the next Lead decider, as the package's docstring tells; with two players
the virtual player's columns (``_virtual_card``), with designation sets the players'
choices (``_choose_sets``), and Hund's score (``_score_hund``)."""

from __future__ import annotations

import numpy as np

from tricklaw.batch import jit
from tricklaw.batch.engine import Bools
from tricklaw.batch.rng import U64, Ints

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
