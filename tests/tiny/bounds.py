"""Tiny's score bounds: the score-bounds layer's part of the example game.

The relaxation (:func:`relaxation`) is written from the clauses: a player scores a point a
trick (TINY-SCORE-1), and a round has as many tricks as a hand has cards, twelve cards
dealt out evenly (TINY-DECK-1, TINY-DEAL-1). The plan (:func:`plan`) builds, from the rules
alone, a round in which seat 0 wins every trick (or none): its witness is replayed through
the model, so the bound is met by a real round.
"""

from __future__ import annotations

import z3

from tricklaw.model.state import Deal, Game, RoundLog
from tricklaw.proofs.bounds.game import EMPTY, GameBounds, Hint, ReadingTable, RoundValues
from tricklaw.proofs.bounds.layout import TrickSpec, lay_out, table_of, takes_nothing, wins
from tricklaw.proofs.bounds.relaxation import Relaxation
from tricklaw.proofs.bounds.witness import SEAT, Plan, first_leader
from tricklaw.proofs.solver import Tracked
from tricklaw.spec.errors import TricklawError

CARDS = 12
"""Three colours of four values (TINY-DECK-1)."""


def relaxation(game: Game) -> Relaxation:
    """Tiny: the tricks a player can win, and their score.

    * deal (TINY-DECK-1, TINY-DEAL-1): every card is dealt evenly, so a round has
      ``12 / n`` tricks: ``0 <= tricks_won <= 12 / n``;
    * score (TINY-SCORE-1): a point a trick won.
    """
    won, score = z3.Ints("tricks_won score")
    return Relaxation(
        [
            Tracked("TINY-DEAL-1", z3.And(won >= 0, won <= CARDS // game.players)),
            Tracked("TINY-SCORE-1", score == won),
        ],
        score,
    )


def round_values(game: Game, log: RoundLog, seat: int) -> RoundValues:
    """The relaxation has no variables besides ``score`` and ``tricks_won``."""
    return {}


def plan(game: Game, maximize: bool, hint: Hint = EMPTY) -> Plan:
    """A round of tricks of one colour each, the highest cards together: seat 0 wins
    every trick (greatest) or none (least). Built from the rules alone (``hint`` unread)."""
    n = game.players
    deck = sorted(game.ruleset.deck(n, game.options), reverse=True)
    accept = wins(SEAT) if maximize else takes_nothing(SEAT)
    specs = [TrickSpec(tuple(deck[i : i + n]), accept) for i in range(0, len(deck), n)]
    tricks = lay_out(table_of(game), specs, first_leader=first_leader(game), ordered=False)
    if tricks is None:
        raise TricklawError("no layout for the tiny plan")
    hands = tuple(tuple(sorted(t[s] for t in tricks)) for s in range(n))
    return Plan(Deal(hands), tricks)


READINGS = ReadingTable(
    unchanged={"tie": "only who wins a tied game, after the last round is scored"}
)
"""Its one option cannot change a round's score."""

BOUNDS = GameBounds(relaxation, plan, round_values, READINGS)
"""Tiny's part of the score-bounds layer."""
