"""The low-card-takes-high game's heuristic agent (``LH-*``), from the text's own logic
(``003_804f0a416bc7a761.txt``). The text gives no advice beyond its "general idea"
(lines 7-11): high cards are strong "but somewhat awkwardly", low cards weak "but can be
played smartly", and one or two cards of a colour count their face value, "which can be
very lucrative", where more count a point each (LH-SCORE-1..4, lines 56-62). Which a card
is, in a trick, depends on the cards still to come, so the agent asks what the trick will
bring it:

* **The last card of a trick** knows the outcome: the generic card play of
  :mod:`tricklaw.model.strategies` plays the card that does most for the round score.
* **Any other card** is weighed by the mean change of the round score over
  :data:`SAMPLES` completions of the trick drawn from the cards the seat has not seen
  (the other hands: every taken card lies face up, line 37), each judged by the rules:
  the lowest card takes the highest (the prize of a low card, worth its face value to a
  seat with none or one of its colour), the highest card takes all the rest (cards that
  push colours past two), a tie goes to the card played later (LH-TRICK-1..5). Each later
  seat follows the led colour with the chance that it holds that colour, given how many
  unseen cards are of it, and otherwise plays any colour (LH-PLAY-1/2, line 26): so the
  prize and the rest are mostly of the led colour, and a leader chooses the colour of
  the trick. A middling card takes nothing.

The draws are seeded by the state and the card, so the agent is still a pure function of
the state.

Against random seats (seat 0 this agent, the others random; whole games, as many rounds
as players, LH-GAME-1; seeds 0-399) it wins 201 of 400 three-player games (50.2 %, 95 %
Wilson interval 45.4-55.1) and 196 of 400 four-player games (49.0 %, 44.1-53.9), where
chance is 33.3 % and 25 %. The agent it replaced, which weighed the trick's highest card
so far by how low its own card ranked, won 163 (40.8 %, 36.0-45.6) and 137 (34.2 %,
29.8-39.0) of the same games. Weighing cards by their worth at the round's end (a colour
of one or two cards keeping its face values only with the chance that it stays that
small) instead of by the round score was tried and measured: no better (46-47 % against
50 % of three-player games, seeds 1000-1299).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tricklaw.model.cards import Card, colour_of
from tricklaw.model.rng import SplitMix64
from tricklaw.model.state import State
from tricklaw.model.strategies import HEURISTICS, Strategy

SAMPLES = 32
"""The completions of the trick in play drawn to weigh a card (:func:`completions`)."""


def unseen(state: State[Any]) -> list[Card]:
    """The cards the current seat has not seen (the other hands): the deck less its hand,
    the taken cards (face up, line 37) and the trick."""
    game = state.game
    seen = {*state.hands[state.current], *state.trick, *state.aside}
    for pile in state.taken:
        seen.update(pile)
    return [c for c in game.ruleset.deck(game.players, game.options) if c not in seen]


@cache
def lacks(pool: int, led: int, hand: int) -> float:
    """The chance that a hand of ``hand`` cards from ``pool`` unseen cards, ``led`` of them
    of the led colour, holds none of that colour (hypergeometric)."""
    chance = 1.0
    for i in range(min(hand, pool)):
        chance *= max(pool - led - i, 0) / (pool - i)
    return chance


def completions(state: State[Any], card: Card) -> list[tuple[Card, ...]]:
    """:data:`SAMPLES` ways the later seats may complete the trick after ``card``, drawn
    from the unseen cards: each later seat follows the led colour with the chance that it
    holds it (:func:`lacks`), else plays another colour (LH-PLAY-1/2). Seeded by the
    state's actions and the card."""
    later = state.game.seats - len(state.trick) - 1
    led = colour_of((*state.trick, card)[0])
    hand = len(state.hands[state.current])
    rest = [c for c in unseen(state) if c != card]
    same_colour = [c for c in rest if colour_of(c) == led]
    other_colours = [c for c in rest if colour_of(c) != led]
    rng = SplitMix64(len(state.actions) * 131 + card)
    out = []
    for _ in range(SAMPLES):
        same, other, drawn = list(same_colour), list(other_colours), []
        for _ in range(later):
            none = lacks(len(same) + len(other), len(same), hand)
            follows = bool(same) and (not other or rng.below(1 << 20) >= none * (1 << 20))
            choice = same if follows else other
            if not choice:
                break
            drawn.append(choice.pop(rng.below(len(choice))))
        out.append(tuple(drawn))
    return out


def drawn_outcome(state: State[Any], card: Card, top: int) -> float:
    """The mean change of the seat's round score by playing ``card`` before the trick's
    last card, over the trick's drawn completions (:func:`completions`) judged by the
    rules (LH-TRICK-1..5). A seat's score is its own cards' alone (LH-SCORE-1): each
    share of the trick the seat could take is scored once."""
    game, mine = state.game, len(state.trick)
    pile = state.taken[state.current]
    before = game.ruleset.score_piles(game, [pile], {})[0]
    gains: dict[tuple[Card, ...], int] = {}
    total = 0
    samples = completions(state, card)
    for later in samples:
        result = game.ruleset.judge_trick(game, (*state.trick, card, *later))
        got = tuple(c for offset, cards in result.taken if offset == mine for c in cards)
        if got not in gains:
            gains[got] = game.ruleset.score_piles(game, [(*pile, *got)], {})[0] - before
        total += gains[got]
    return total / len(samples)


HEURISTICS.register(
    "lowhigh",
    Strategy(
        name="drawn-tricks",
        summary=(
            "weighs each card by the round score it brings over tricks completed from the "
            "unseen cards, the later seats following the led colour when they can: low "
            "cards for a prize worth having, high cards where the rest is cheap "
            "(003_804f0a416bc7a761.txt lines 7-11, 26-37, 56-62; LH-PLAY-1/2, "
            "LH-TRICK-1..5, LH-SCORE-1..4); the last player of a trick knows its outcome"
        ),
        estimate=drawn_outcome,
    ),
)
