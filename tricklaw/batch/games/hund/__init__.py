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

The kernel is :mod:`.kernel`; this module holds what runs it: the lockstep engine
(:class:`HundBatch`, registered in :data:`tricklaw.batch.BATCH`) and forced play for the
fuzzer (:func:`forced_round`, in :data:`tricklaw.batch.forced.FORCED`).
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
from tricklaw.batch.games.hund.kernel import POWERS, TIMING, play_round_kernel
from tricklaw.batch.rng import U64, Ints
from tricklaw.model.actions import ActionKind
from tricklaw.model.rulesets.hund import ROUNDS, rules_of
from tricklaw.model.state import Deal, Game

LEADER = int(ActionKind.LEADER) << 8
DESIGNATE = int(ActionKind.DESIGNATE) << 8


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
