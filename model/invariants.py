"""Invariants every reachable state satisfies, checked on live states.

:func:`violations` lists what is wrong with a state (empty when all holds):
card conservation (hands, the trick, the taken piles, the cards set aside and
the ruleset's other holdings together are exactly the round's deal, each card
once), that every hand is in canonical card order (the order in which the legality
proofs take hands), seat and phase sanity, and that the totals are the sum of the round
scores. Tests run it after every action of random and stateful games; the ``verify``
command runs it on sampled games.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tricklaw.model.state import Phase, State


def violations(state: State[Any]) -> list[str]:
    """Every invariant ``state`` breaks, as sentences (empty when it is valid)."""
    game = state.game
    ruleset = game.ruleset
    fmt = ruleset.palette.format
    problems: list[str] = []
    deal = state.info.deal
    dealt = Counter(c for hand in deal.hands for c in hand) + Counter(
        c for _, pile in deal.piles for c in pile
    )
    held = (
        Counter(c for hand in state.hands for c in hand)
        + Counter(state.trick)
        + Counter(c for pile in state.taken for c in pile)
        + Counter(state.aside)
        + Counter(ruleset.held_aside(state))
    )
    if held != dealt:
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
    totals = [sum(log.scores[s] for log in state.history) for s in range(game.seats)]
    if totals != list(state.returns()):
        problems.append(f"totals {list(state.returns())} are not the sum of round scores {totals}")
    return problems
