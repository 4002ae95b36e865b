"""Sticheln, both editions, in the batch layer (:mod:`tricklaw.model.rulesets.sticheln`).

A numba kernel plays one round of every game, game by game, from the same streams as the
reference: deal fifteen cards each, the rest aside (STI93-DEAL-2, STI-DEAL-1); each seat
from the leader on picks a hand card as its misery colour (SELECT, STI93-SELECT-1,
STI-SELECT-1); fourteen tricks, what may be played being dispute STI93-D-FOLLOW (free,
follow-or-trump, must-follow; the later text: free, STI-PLAY-2); the trick judge
(STI93-TRICK-1..6, STI-TRICK-1..6, disputes ``all-zero`` and ``zero-lead``); misery-colour
cards, the picked one included, count minus their value, others one point
(STI93-SCORE-1..3, STI-SCORE-1..4). The game ends after ``rounds`` rounds (the later text:
as many as players, STI-GAME-1) or, 1993 with ``end=target``, at the target total
(dispute STI93-D-END). Without numba the games fall back to the reference engine.
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
    outcome,
    report,
    rows,
    taker,
    trick_arrays,
)
from tricklaw.batch.rng import U64, Ints
from tricklaw.model.actions import ActionKind
from tricklaw.model.rulesets.sticheln import Sticheln
from tricklaw.model.state import Game

HAND_SIZE = 15
TRICKS = HAND_SIZE - 1
"""Fifteen cards dealt, one picked: fourteen tricks."""
SELECT = int(ActionKind.SELECT) << 8
FOLLOW = {"free": 0, "follow-or-trump": 1, "must-follow": 2}
"""Dispute STI93-D-FOLLOW's readings as the kernel's codes."""


@jit.njit
def _may_play(  # noqa: PLR0917  (a numba helper: arguments by position)
    rule: int, colour: int, value: int, lead: int, lead_in: bool, nonzero: bool
) -> bool:
    """Whether a card of ``colour`` and ``value`` may be played to a trick led in
    ``lead`` (:func:`tricklaw.model.rulesets.sticheln.playable`), the hand holding the lead
    colour (``lead_in``) and any non-zero card (``nonzero``): ``rule`` 0 free, 1
    follow-or-trump, 2 must-follow (dispute STI93-D-FOLLOW)."""
    if rule == 0:
        return True
    if rule == 1:  # a lead-colour card or a non-zero, unless the hand holds neither
        return colour == lead or value != 0 or not (lead_in or nonzero)
    if lead_in:  # must-follow: the lead colour if possible, else a non-zero, else anything
        return colour == lead
    return value != 0 or not nonzero


@jit.njit
def play_round_kernel(  # noqa: PLR0917  (a numba kernel: arrays by position)
    dealt: Ints,
    players: int,
    first: int,
    rule: int,
    first_nonzero: bool,
    all_zero_nobody: bool,
    agent: U64,
    colour: Ints,
    value: Ints,
    picks: Ints,
    played: Ints,
    leaders: Ints,
    winners: Ints,
    scores: Ints,
    select_actions: Ints,
    play_actions: Ints,
    forced: Ints | None,
    report: Ints,
) -> None:  # pragma: no cover - compiled by numba (tested against the reference)
    """One round of every game: fills ``picks`` (each seat's picked card index),
    ``played`` (card index per trick and position), ``leaders``, ``winners`` (seats; -1:
    nobody, the cards go aside) and ``scores``. ``forced`` (None: random games) and
    ``report``: see :func:`tricklaw.batch.jit.choose`, a card index ``c`` being the action
    ``select_actions[c]`` or ``play_actions[c]``."""
    games, width = dealt.shape[0], colour.shape[0]
    hand = np.zeros((players, width), dtype=np.bool_)
    legal = np.zeros(width, dtype=np.int64)
    for g in range(games):
        hand[:, :] = False
        step = 0
        for k in range(players):
            for i in range(HAND_SIZE):
                hand[k, dealt[g, k * HAND_SIZE + i]] = True
        for p in range(players):  # the picks, from the leader on (STI93-SELECT-1)
            seat = (first + p) % players
            if forced is None:  # the random games: numba compiles this variant apart
                card = jit.draw_card(hand, seat, legal, 0, agent, g)
            else:
                card = jit.choose_card(
                    hand, seat, legal, 0, agent, g, select_actions, forced, step, report
                )
            step += 1
            picks[g, seat] = card
            scores[g, seat] = -value[card]  # the picked card counts (STI93-SCORE-3)
        leader = first
        for t in range(TRICKS):
            leaders[g, t] = leader
            seat = leader
            lead = -1
            for p in range(players):
                lead_in = False
                nonzero = False
                if p > 0 and rule > 0:
                    for c in range(width):
                        if hand[seat, c]:
                            lead_in = lead_in or colour[c] == lead
                            nonzero = nonzero or value[c] != 0
                options = 0
                for c in range(width):
                    if hand[seat, c] and (
                        p == 0 or _may_play(rule, colour[c], value[c], lead, lead_in, nonzero)
                    ):
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
                if p == 0:
                    lead = colour[card]
                seat = seat + 1 if seat + 1 < players else 0
            lead = colour[played[g, t, 0]]
            if first_nonzero and value[played[g, t, 0]] == 0:
                for p in range(players):
                    if value[played[g, t, p]] != 0:
                        lead = colour[played[g, t, p]]
                        break
            best_off = 0
            best_lead = 0
            off_i = -1
            lead_i = -1
            for p in range(players):
                card = played[g, t, p]
                if colour[card] != lead:
                    if value[card] > best_off:
                        best_off = value[card]
                        off_i = p
                elif value[card] > best_lead:
                    best_lead = value[card]
                    lead_i = p
            if off_i >= 0:
                win = off_i
            elif lead_i >= 0:
                win = lead_i
            elif all_zero_nobody:
                win = -1
            else:
                win = 0
            if win < 0:
                winners[g, t] = -1
            else:
                leader = (leader + win) % players
                winners[g, t] = leader
                for p in range(players):
                    card = played[g, t, p]
                    misery = colour[picks[g, leader]]
                    scores[g, leader] += -value[card] if colour[card] == misery else 1


def _setup(game: Game, index: int) -> tuple[int | None, int, Ints, tuple[int, bool, bool]]:
    """Round ``index``'s dealer (None: no dealer) and first player, the deck, and the
    kernel's rule codes (follow, zero-lead, all-zero). 1993: seat ``index mod n`` deals,
    the seat to its left leads (STI93-DEAL-1, STI93-LEAD-1); later: seat ``index mod n``
    under ``round-leader=rotate``, else seat 0."""
    n = game.players
    options: dict[str, Any] = game.options.as_dict()
    ruleset = game.ruleset
    if isinstance(ruleset, Sticheln) and ruleset.edition.has_dealer:
        dealer: int | None = index % n
        first = (index + 1) % n
    else:
        dealer = None
        first = index % n if options.get("round-leader") == "rotate" else 0
    deck = np.array(ruleset.deck(n, game.options), dtype=np.int64)
    rules = (
        FOLLOW[str(options.get("follow", "free"))],
        options.get("zero-lead") == "first-nonzero",
        options.get("all-zero", "no-winner") == "no-winner",
    )
    return dealer, first, deck, rules


class StichelnBatch(Lockstep):
    """Sticheln (one edition) in the batch engine: the kernel where numba is installed,
    else the reference engine game by game."""

    def game_over(self, table: Table, rounds_played: int) -> Bools:
        """1993 with ``end=target``: a total reaches the target (dispute STI93-D-END); else
        after ``rounds`` rounds (0 = as many as players; STI93-GAME-1, STI-GAME-1)."""
        options = table.game.options.as_dict()
        if options.get("end") == "target":
            return np.asarray(table.totals.max(axis=1) >= int(options["target"]), np.bool_)
        limit = int(options.get("rounds", 0)) or table.game.players
        return np.full(table.size, rounds_played >= limit, dtype=np.bool_)

    def play_round(self, table: Table, index: int, order: Ints, deal_rng: U64) -> Ints:
        """Deal, pick, play fourteen tricks, score (see the module doc)."""
        game = table.game
        n, size = game.players, table.size
        dealer, first, deck, rules = _setup(game, index)
        position = np.full(int(deck.max()) + 1, -1, dtype=np.int64)
        position[deck] = np.arange(deck.shape[0])
        picks = np.empty((size, n), dtype=np.int64)
        played = np.empty((size, TRICKS, n), dtype=np.int64)
        leaders = np.empty((size, TRICKS), dtype=np.int64)
        winners = np.empty((size, TRICKS), dtype=np.int64)
        scores = np.zeros((size, n), dtype=np.int64)
        outputs = (picks, played, leaders, winners, scores)
        play_round_kernel(
            position[order[:, : n * HAND_SIZE]],
            n,
            first,
            *rules,
            table.agent,
            deck >> 5,
            deck & 31,
            *outputs,
            deck | SELECT,
            deck,
            None,
            jit.NO_REPORT,
        )
        trace = table.trace
        if trace is not None:
            hands = [order[:, k * HAND_SIZE : (k + 1) * HAND_SIZE] for k in range(n)]
            aside = order[:, n * HAND_SIZE :]
            piles = {"aside": aside} if aside.shape[1] else {}
            trace.add("deal", hands, None if dealer is None else np.full(size, dealer), piles, None)
            for p in range(n):
                seat = (first + p) % n
                trace.add("action", np.full(size, seat), deck[picks[:, seat]] | SELECT)
            for t in range(TRICKS):
                for p in range(n):
                    trace.add("action", (leaders[:, t] + p) % n, deck[played[:, t, p]])
                receiver = np.broadcast_to(winners[:, t, None], (size, n))
                trace.add("trick", leaders[:, t], deck[played[:, t]], winners[:, t], receiver)
            notation = game.ruleset.palette.notation
            facts = [{"picked": [notation[c] for c in deck[row]]} for row in picks]
            trace.add("scores", scores, facts)
        return scores


def forced_round(
    game: Game, index: int, dealt: Dealt, memory: Any, actions: Sequence[int]
) -> ForcedRound:
    """Round ``index`` of one game played by the kernel with ``actions`` forced
    (:mod:`tricklaw.batch.forced`): the picks, then fourteen tricks of ``players`` cards."""
    n = game.players
    _, first, deck, rules = _setup(game, index)
    picks = np.empty((1, n), dtype=np.int64)
    played, leaders, winners = trick_arrays(TRICKS, n)
    scores = np.zeros((1, n), dtype=np.int64)
    row = report(deck.shape[0])
    play_round_kernel(
        dense(deck, dealt.order[:, : n * HAND_SIZE]),
        n,
        first,
        *rules,
        np.zeros(1, dtype=np.uint64),
        deck >> 5,
        deck & 31,
        picks,
        played,
        leaders,
        winners,
        scores,
        deck | SELECT,
        deck,
        rows(actions),
        row,
    )
    notation = game.ruleset.palette.notation
    return outcome(
        deck,
        (played, leaders, winners, taker(winners, n), scores),
        (2 * n - 1, n),  # after the picks and the first trick's cards
        row[0],
        {"picked": [notation[c] for c in deck[picks[0]]]},
    )


BATCH.register("sticheln", StichelnBatch())
BATCH.register("sticheln-1993", StichelnBatch())
FORCED.register("sticheln", ForcedGame(forced_round))
FORCED.register("sticheln-1993", ForcedGame(forced_round))
