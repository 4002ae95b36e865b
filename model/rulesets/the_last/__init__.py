"""The Last (online game help text, ``002_18a5f98381d9736c.txt``).

A round, as the text tells it:

1. Deal 12, 9 or 8 cards to 3, 4 or 5 players from 48 cards (four colours,
   1-12); the rest is the face-down points pile (LAST-DECK-1, LAST-DEAL-1/2).
   A random player starts (LAST-LEAD-1): tricklaw draws him with
   ``below(candidates)`` from the generator that shuffled the round.
2. Each trick turns up the top points card (LAST-TRICK-1). The leader plays
   any card (LAST-PLAY-1); the others follow the lead colour if they can
   (LAST-PLAY-2), except the last player, who plays a colour already in the
   trick if he can, else anything (LAST-PLAY-3, dispute ``last-play``).
3. The last card's colour is the winning colour; the highest card of that
   colour takes the points card (LAST-TRICK-2/3):
   :func:`~tricklaw.model.rulesets.the_last.rules.judge`.
4. The taker keeps it face down, or takes it into hand and lays a hand card
   face down instead (LAST-COLLECT-1): a KEEP or SWAP action. Played cards are
   discarded; the taker leads (LAST-COLLECT-2).
5. When the hands are empty, each player's penalty is the sum of his
   face-down cards (LAST-ROUND-1, LAST-SCORE-1); the lowest wins (LAST-GAME-1).

With two players a ghost takes the third seat: its 12 cards lie face down in
pile order and it plays automatically (LAST-GHOST-1..6, disputes
``ghost-play``, ``ghost-lead`` and ``ghost-seat``). Seats 0 and 1 are the
players, seat 2 the ghost; its penalty is never counted.

Scores are penalty points (lower is better), as the text counts them.

The package: :mod:`~tricklaw.model.rulesets.the_last.rules` holds the rules as pure
functions, the compiled options and the clause of each rule role,
:mod:`~tricklaw.model.rulesets.the_last.ruleset` the ruleset that plays them
(:class:`~tricklaw.model.rulesets.the_last.ruleset.TheLast`). This module registers the ruleset and
re-exports their names.
"""

from __future__ import annotations

from tricklaw.model.rulesets import RULESETS
from tricklaw.model.rulesets.the_last.rules import (
    CLAUSES,
    GHOST,
    HAND_SIZE,
    JUDGE_CLAUSES,
    PALETTE,
    Rules,
    Table,
    colours_to_follow,
    face_down,
    judge,
    penalty,
    playable,
    rules_of,
)
from tricklaw.model.rulesets.the_last.ruleset import TheLast

__all__ = [
    "CLAUSES",
    "GHOST",
    "HAND_SIZE",
    "JUDGE_CLAUSES",
    "PALETTE",
    "THE_LAST",
    "Rules",
    "Table",
    "TheLast",
    "colours_to_follow",
    "face_down",
    "judge",
    "penalty",
    "playable",
    "rules_of",
]

THE_LAST = TheLast()
RULESETS.register(THE_LAST.id, THE_LAST)
