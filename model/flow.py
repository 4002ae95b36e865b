"""The shared trick machinery: deal a round, play a card, close a trick, end a round.

Every ruleset's ``apply`` is built from these few transitions, so that the
bookkeeping (which hand a card leaves, who receives a trick's cards, when the
next round is dealt) is written once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from tricklaw.model.cards import Card
from tricklaw.model.rng import SplitMix64, round_seed, shuffled
from tricklaw.model.state import (
    Deal,
    DealSource,
    Game,
    Phase,
    RoundInfo,
    RoundLog,
    State,
    clockwise,
)
from tricklaw.model.trick import TrickResult
from tricklaw.spec.errors import RecordError

if TYPE_CHECKING:
    from tricklaw.model.ruleset import Ruleset

X = TypeVar("X")

NEW_STATE = tuple.__new__
"""Builds a :class:`State` from a tuple of its twelve fields in order, as NamedTuple's
``_make`` does: ``NEW_STATE(State, fields)``."""


def deal_for_round(
    ruleset: Ruleset[X],
    game: Game,
    source: DealSource,
    index: int,
    history: tuple[RoundLog, ...],
) -> Deal:
    """The deal of round ``index``: given explicitly, or shuffled from the seed.

    The seeded deal shuffles the canonical deck with
    ``SplitMix64(round_seed(seed, index))`` and lets the ruleset cut it
    (see :mod:`tricklaw.model.rng`).
    """
    if index < len(source.deals):
        return source.deals[index]
    if source.seed is None:
        raise RecordError(f"no deal is given for round {index}")
    rng = SplitMix64(round_seed(source.seed, index))
    return ruleset.cut(game, shuffled(ruleset.deck(game.players, game.options), rng), rng, history)


def round_info(
    game: Game,
    source: DealSource,
    index: int,
    *,
    dealer: int | None,
    deal: Deal,
    totals: tuple[int, ...],
    history: tuple[RoundLog, ...],
    seating: tuple[int, ...] | None = None,
) -> RoundInfo:
    """The fixed facts of a round; ``seating`` is the clockwise order (default 0, 1, 2, ...)."""
    order, after, ring = clockwise(game.seats, seating)
    return RoundInfo(game, source, index, dealer, deal, totals, history, order, after, ring)


def begin_round(
    info: RoundInfo,
    phase: Phase,
    current: int,
    leader: int,
    extra: X,
    *,
    hands: tuple[tuple[Card, ...], ...] | None = None,
) -> State[X]:
    """The opening state of a round: nothing played or taken yet; the hands as dealt
    (sorted), or ``hands`` where a seat holds a dealt pile (The Last's ghost)."""
    seats = info.game.seats
    return State(
        info=info,
        phase=phase,
        current=current,
        first_leader=leader,
        leader=leader,
        hands=tuple(tuple(sorted(hand)) for hand in (hands or info.deal.hands)),
        trick=(),
        taken=((),) * seats,
        aside=info.deal.pile("aside"),
        tricks=(),
        actions=(),
        extra=extra,
    )


def remove_from_hand(
    hands: tuple[tuple[Card, ...], ...], seat: int, card: Card
) -> tuple[tuple[Card, ...], ...]:
    """``hands`` with ``card`` taken out of ``seat``'s hand."""
    hand = hands[seat]
    i = hand.index(card)
    return (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :])


def add_to_trick(
    state: State[X], action: int, card: Card, extra: X, *, recorded: bool = True
) -> State[X]:
    """The current player plays ``card`` (by ``action``); the turn passes clockwise.

    ``extra`` is the ruleset's part of the new state. A card that the rules play
    for an automatic seat (``recorded=False``) joins the trick but not the list of
    actions: it is the rules' doing, not a decision.
    """
    seat = state.current
    hands = state.hands
    hand = hands[seat]
    i = hand.index(card)
    # In field order, by the tuple constructor (NEW_STATE): this is the hottest line of
    # every simulation, and NamedTuple's own __new__ costs as much again.
    fields = (
        state.info,
        state.phase,
        state.info.after[seat],
        state.first_leader,
        state.leader,
        (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :]),
        (*state.trick, card),
        state.taken,
        state.aside,
        state.tricks,
        (*state.actions, (seat, action)) if recorded else state.actions,
        extra,
    )
    return NEW_STATE(State, fields)


def close_trick(
    state: State[X], result: TrickResult, extra: X, phase: Phase | None = None
) -> State[X]:
    """Hand the trick's cards to their recipients; the winner (else the same leader) is
    to act next, in ``phase`` (default: the same phase) with ``extra`` as the ruleset's
    part of the state."""
    info = state.info
    leader = state.leader
    ring = info.ring[leader]
    taken = list(state.taken)
    for offset, cards in result.taken:
        seat = ring[offset]
        taken[seat] = taken[seat] + cards
    next_leader = leader if result.winner is None else ring[result.winner]
    fields = (
        info,
        state.phase if phase is None else phase,
        next_leader,
        state.first_leader,
        next_leader,
        state.hands,
        (),
        tuple(taken),
        state.aside + result.aside,
        (*state.tricks, (leader, result)),
        state.actions,
        extra,
    )
    return NEW_STATE(State, fields)


def end_round(state: State[X]) -> State[X]:
    """Score the finished round; deal the next one, or end the game."""
    info = state.info
    game = info.game
    ruleset = game.ruleset
    scores = ruleset.round_scores(state)
    log = RoundLog(
        index=info.index,
        dealer=info.dealer,
        first_leader=state.first_leader,
        seating=info.seating,
        deal=info.deal,
        actions=state.actions,
        tricks=state.tricks,
        facts=ruleset.round_facts(state),
        scores=scores,
    )
    totals = tuple(t + s for t, s in zip(info.totals, scores, strict=True))
    history = (*info.history, log)
    if ruleset.game_over(game, info.index + 1, totals):
        return state._replace(
            info=replace(info, totals=totals, history=history), phase=Phase.OVER, current=-1
        )
    next_state: State[X] = ruleset.start_round(game, info.source, info.index + 1, totals, history)
    return next_state


def settle(state: State[X]) -> State[X]:
    """Let the rules play every automatic seat (ghost, virtual player) until a real
    player is to act or the game is over (see ``Ruleset.automatic_action``)."""
    ruleset = state.info.game.ruleset
    action = ruleset.automatic_action(state)
    while action is not None:
        state = ruleset.apply(state, action)
        action = ruleset.automatic_action(state)
    return state
