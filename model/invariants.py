"""Invariants every reachable state satisfies, checked on live states.

:func:`violations` lists what is wrong with a state (empty when all holds):
card conservation (hands, the trick, the taken piles, the cards set aside and
the ruleset's other holdings together are exactly the round's deal, each card
once), that every hand is in canonical card order (the order in which the legality
proofs take hands), seat and phase sanity, that the totals are the sum of the round
scores, and that the log checker's quick legality question
(:meth:`~tricklaw.model.ruleset.Ruleset.is_legal`) answers as
:meth:`~tricklaw.model.ruleset.Ruleset.legal_actions` does, for every legal action and a
play of every card of the round's deal. Tests run it after every action of random and
stateful games; the ``verify`` command runs it on sampled games (``self-check``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from tricklaw.model import actions
from tricklaw.model.cards import Card
from tricklaw.model.state import Phase, State


def violations(state: State[Any]) -> list[str]:
    """Every invariant ``state`` breaks, as sentences (empty when it is valid)."""
    game = state.game
    ruleset = game.ruleset
    fmt = ruleset.palette.format
    problems: list[str] = []
    dealt = dealt_cards(state)
    held = _counted(*state.hands, state.trick, *state.taken, state.aside, ruleset.held_aside(state))
    if dict.__ne__(held, dealt):  # counts of at least 1 both: Counter's != in C
        lost = sorted((dealt - held).elements())
        made = sorted((held - dealt).elements())
        problems.append(
            "cards not conserved: "
            + (f"lost {' '.join(map(fmt, lost))} " if lost else "")
            + (f"appeared {' '.join(map(fmt, made))}" if made else "")
        )
    for seat, hand in enumerate(state.hands):
        if list(hand) != sorted(hand):
            problems.append(f"seat {seat}'s hand is not in card order")
    if set(ruleset.deck(game.players, game.options)) != set(dealt):
        problems.append("the deal is not the deck for this player count")
    if state.phase is Phase.OVER:
        if state.current != -1:
            problems.append("a finished game names a current player")
    elif not 0 <= state.current < game.seats:
        problems.append(f"current player {state.current} is not a seat")
    elif not state.legal_actions():
        problems.append(f"seat {state.current} is to act but has no legal action")
    if len(state.trick) >= game.seats:
        problems.append("the trick holds a card from every player but was not closed")
    problems.extend(_legality_disagreements(state, dealt))
    totals = [sum(log.scores[s] for log in state.history) for s in range(game.seats)]
    if totals != list(state.returns()):
        problems.append(f"totals {list(state.returns())} are not the sum of round scores {totals}")
    return problems


def _legality_disagreements(state: State[Any], dealt: Counter[Card]) -> list[str]:
    """Where :meth:`~tricklaw.model.ruleset.Ruleset.is_legal` (which a ruleset may answer
    without listing the actions) disagrees with
    :meth:`~tricklaw.model.ruleset.Ruleset.legal_actions`: asked of every legal action
    and of a play of every card dealt this round (the current hand's, and cards the player
    does not hold, which no play rule allows)."""
    if state.phase is Phase.OVER or not 0 <= state.current < state.game.seats:
        return []
    ruleset = state.game.ruleset
    legal = set(ruleset.legal_actions(state))
    return [
        f"seat {state.current}: is_legal says {state.action_to_string(a)} is "
        + ("illegal, but it is a legal action" if a in legal else "legal, but it is not")
        for a in legality_candidates(legal, dealt)
        if ruleset.is_legal(state, a) != (a in legal)
    ]


def dealt_cards(state: State[Any]) -> Counter[Card]:
    """The cards of the round's deal: every hand and every pile dealt."""
    deal = state.info.deal
    return _counted(*deal.hands, *(pile for _, pile in deal.piles))


def _counted(*groups: Iterable[Card]) -> Counter[Card]:
    """How often each card occurs in ``groups`` together: the sum of a ``Counter`` of each,
    counted into one (summing ``Counter`` objects builds a new one at every ``+``, which
    took a quarter of verify's ``self-check``)."""
    out: Counter[Card] = Counter()
    for group in groups:
        out.update(group)
    return out


def legality_candidates(legal: Iterable[int], dealt: Iterable[Card]) -> list[int]:
    """The actions :meth:`~tricklaw.model.ruleset.Ruleset.is_legal` is asked about at a
    state (here, and by the mutation harness's fingerprint): the ``legal`` ones and a play
    of every card ``dealt`` this round, in action order."""
    return sorted({*legal, *(actions.play(card) for card in dealt)})
