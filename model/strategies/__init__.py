"""Heuristic agents: one strategy per ruleset, registered in :data:`HEURISTICS`.

A game is a unit: each module of this folder holds one game's :class:`Strategy` (what its
text advises, where it advises anything, and what its score rules reward) and registers
it; a game defined elsewhere (a plug-in's) registers its own. :func:`heuristic_step` is the
generic agent built on them, a pure function of ``(state, rng)`` like
:func:`tricklaw.model.agents.random_step`: it reads only what the current seat may know
(its hand, the cards on the table, the tricks taken so far, the public facts its
strategy names) and draws from the same SplitMix64 stream.

**The generic card play** (:func:`play_gain`), for every game:

* a seat that plays the last card of a trick knows the outcome of each card it may play:
  the rules judge the trick, and the card with the best change of the seat's own round
  score (the game's :meth:`~tricklaw.model.ruleset.Ruleset.score_piles` with the trick's
  cards added to whoever takes them, under the public facts the strategy supplies) wins;
* any other seat weighs that change of score, as if it took the trick so far with its
  card, by the card's rank within the deck (a high card is more likely to take): a trick
  worth having is played for with a high card, a trick to be avoided is ducked with a
  low one; a leader thus avoids leading high cards of a colour that costs it points;
* ties go to the lowest card, then to the rng.

Decisions other than card play (a pick, keep or swap, naming a leader) are each
strategy's own (:attr:`Strategy.choose`), random where a strategy has no advice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tricklaw.model.actions import ActionKind, card_of, kind_of
from tricklaw.model.agents import stuck
from tricklaw.model.cards import Card, value_of
from tricklaw.model.registry import Registry
from tricklaw.model.rng import SplitMix64
from tricklaw.model.state import State
from tricklaw.spec.errors import TricklawError

Context = Callable[[State[Any]], Mapping[str, str] | None]
"""The public facts :meth:`~tricklaw.model.ruleset.Ruleset.score_piles` needs, as the
current seat sees them (``None`` when they are not known yet)."""
Stake = Callable[[State[Any], Card], tuple[Card, ...]]
"""The cards the taker of the trick in play would get, as the current seat sees them
after playing a card (by default the trick's cards so far and that card)."""
Estimate = Callable[[State[Any], Card, int], float]
"""The expected change of the current seat's round score by playing a card that does not
complete the trick, given the deck's highest value (default: :func:`rank_estimate`)."""
Choose = Callable[[State[Any], SplitMix64], int | None]
"""A strategy's choice for a decision that is not card play (``None``: no advice)."""


def no_context(state: State[Any]) -> Mapping[str, str] | None:
    """The score context of a game whose piles alone decide the score."""
    return {}


def trick_cards(state: State[Any], card: Card) -> tuple[Card, ...]:
    """The default stake: the cards of the trick so far and ``card``."""
    return (*state.trick, card)


def no_choice(state: State[Any], rng: SplitMix64) -> int | None:
    """No advice for decisions other than card play: the agent chooses at random."""
    return None


@dataclass(frozen=True)
class Strategy:
    """One game's heuristic: its name and documented strategy (with the lines of the text
    that advise it), the public score context, and its own choices."""

    name: str
    summary: str
    """What the agent does and why, citing the text's lines and clause ids."""
    context: Context = no_context
    stake: Stake = trick_cards
    estimate: Estimate | None = None
    """``None``: :func:`rank_estimate`."""
    choose: Choose = no_choice


HEURISTICS: Registry[Strategy] = Registry("heuristic agent", __name__)
"""Ruleset id -> its heuristic strategy."""


def score_gain(state: State[Any], seat: int, cards: tuple[Card, ...]) -> float:
    """How much better ``seat``'s round score gets if it takes ``cards`` on top of what it has
    taken (0 when the score context is not known yet or the rules cannot score it)."""
    ruleset = state.game.ruleset
    context = HEURISTICS.lookup(ruleset.id).context(state)
    if context is None or not cards:
        return 0.0
    piles = [list(pile) for pile in state.taken]
    try:
        before = ruleset.score_piles(state.game, piles, context)[seat]
        piles[seat] = [*piles[seat], *cards]
        after = ruleset.score_piles(state.game, piles, context)[seat]
    except TricklawError:
        return 0.0
    return float(score_sign(state) * (after - before))


def score_sign(state: State[Any]) -> int:
    """-1 where the lowest total wins (penalty points), else 1: asked of the ruleset's own
    winner rule with one seat ahead of the others."""
    game = state.game
    ahead = (1,) + (0,) * (game.seats - 1)
    return 1 if game.ruleset.winners(game, ahead) == (0,) else -1


def last_trick_gain(state: State[Any], card: Card, after: State[Any], seat: int) -> float | None:
    """The change of ``seat``'s score by the trick ``card`` completed, read from ``after``
    (``None`` when the card did not complete a trick): the cards the trick hands the seat,
    or, where the strategy names another stake (The Last's points card), that stake if
    the seat won the trick."""
    index = len(state.tricks)
    if len(after.history) > len(state.history):
        log = after.history[len(state.history)]
        tricks, seating = log.tricks, log.seating
    else:
        tricks, seating = after.tricks, after.info.seating
    if len(tricks) <= index:
        return None
    leader, result = tricks[index]
    strategy = HEURISTICS.lookup(state.game.ruleset.id)
    if strategy.stake is not trick_cards:  # the trick's winner gets the stake
        won = (
            result.winner is not None
            and seating[(seating.index(leader) + result.winner) % len(seating)] == seat
        )
        return score_gain(state, seat, strategy.stake(state, card)) if won else 0.0
    gain = 0.0
    for offset, cards in result.taken:
        if seating[(seating.index(leader) + offset) % len(seating)] == seat:
            gain += score_gain(state, seat, tuple(cards))
    return gain


def play_gain(state: State[Any], action: int, top: int) -> float:
    """The expected change of the current seat's round score by playing ``action``; ``top``
    is the highest card value of the deck (see the module docstring)."""
    seat = state.current
    card = card_of(action)
    if len(state.trick) + 1 >= state.game.seats:
        exact = last_trick_gain(state, card, state.apply_legal_action(action), seat)
        if exact is not None:
            return exact
    estimate = HEURISTICS.lookup(state.game.ruleset.id).estimate or rank_estimate
    return estimate(state, card, top)


def rank_estimate(state: State[Any], card: Card, top: int) -> float:
    """The change of score if the seat took the stake (:attr:`Strategy.stake`), weighed by
    the card's rank in the deck: a high card is more likely to take the trick."""
    stake = HEURISTICS.lookup(state.game.ruleset.id).stake(state, card)
    share = (value_of(card) + 1) / (top + 1)
    return score_gain(state, state.current, stake) * share


def heuristic_step(state: State[Any], rng: SplitMix64) -> State[Any]:
    """The state after the current seat's heuristic action (see the module docstring)."""
    legal = state.legal_actions()
    if not legal:
        raise stuck(state)
    strategy = HEURISTICS.lookup(state.game.ruleset.id)
    plays = [a for a in legal if kind_of(a) is ActionKind.PLAY]
    if len(plays) != len(legal):
        chosen = strategy.choose(state, rng)
        if chosen is None or chosen not in legal:
            chosen = legal[rng.below(len(legal))]
        return state.apply_legal_action(chosen)
    top = max(value_of(c) for c in state.game.ruleset.deck(state.game.players, state.game.options))
    scored = [(-play_gain(state, a, top), value_of(card_of(a)), a) for a in plays]
    best = min(scored)[:2]
    ties = [a for g, v, a in scored if (g, v) == best]
    return state.apply_legal_action(ties[rng.below(len(ties))] if len(ties) > 1 else ties[0])
