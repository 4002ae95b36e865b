"""The Last's table and the ghost's card as the clauses state them.

* The table: one seat a player, and with two players a third seat for the ghost
  (LAST-GHOST-1); 12, 9 or 8 cards a player for 3, 4 or 5 players (LAST-DEAL-1), 12
  each and 12 for the ghost with two (LAST-GHOST-1).
* ``rule ghost-card``: at the ghost's turn in a trick its card is played for it
  (LAST-GHOST-3): the top card of its pile (LAST-GHOST-4), or, under ``ghost-play=
  first-legal`` (LAST-D-GHOSTPLAY), the first card in pile order that the follow rules
  allow, the pile taken as its hand (the play encoding's rule, LAST-PLAY-2/3). Every
  other seat chooses its own card (LAST-PLAY-1): no automatic move. (Checked at the
  two-player table, the only one with a ghost.)
* ``rule ghost-seat``: the ghost sits at the right of the round's first player
  (LAST-GHOST-1), or of the first round's under ``ghost-seat=fixed`` (LAST-D-GHOSTSEAT).
  The sampled games are of the default one round, so the fixed reading's later rounds
  are not reached.
"""

from __future__ import annotations

from typing import Any

import z3

from tricklaw.model.state import Game, Phase, State, seat_after
from tricklaw.proofs.model_rules import (
    MODEL_RULES,
    NONE,
    GameRules,
    StateRule,
    Table,
    automatic_card,
)
from tricklaw.proofs.plays import PLAYS, term
from tricklaw.proofs.solver import Tracked

HAND = {3: 12, 4: 9, 5: 8}
"""Cards a player by player count (LAST-DEAL-1)."""
GHOST_HAND = 12
"""Cards each player and the ghost hold in the two-player game (LAST-GHOST-1)."""


def table(game: Game) -> Table:
    """The seats and hands of LAST-DEAL-1, or of LAST-GHOST-1 with two players."""
    if game.players == 2:
        return Table(3, GHOST_HAND, ("LAST-GHOST-1",))
    return Table(game.players, HAND[game.players], ("LAST-DEAL-1", "LAST-SETUP-1"))


def _ghost_to_play(game: Game, state: State[Any]) -> bool:
    """The ghost (the third seat of two players, LAST-GHOST-1) is to play a card."""
    return game.players == 2 and state.current == 2 and state.phase is Phase.PLAY


def ghost_rule(game: Game, state: State[Any], out: z3.ArithRef) -> list[Tracked]:
    """The ghost's card at ``state`` (see the module docstring); its pile in order is
    the state's record of it (``extra.ghost_order``)."""
    if not _ghost_to_play(game, state):
        return [Tracked("LAST-PLAY-1", out == NONE)]
    pile = tuple(state.extra.ghost_order)
    automatic = Tracked("LAST-GHOST-3", out != NONE)  # its card is played for it
    if game.options.text("ghost-play") == "top-card":
        return [automatic, Tracked("LAST-GHOST-4", out == pile[0])]
    enc = PLAYS["the-last"](game)
    held = {c: z3.BoolVal(c in pile) for c in enc.deck()}
    trick = [term(c) for c in state.trick]
    chosen: Any = z3.IntVal(NONE)  # no card allowed: the rule allows no outcome below
    for card in reversed(pile):
        allowed = enc.legality(held, trick, term(card)).formula
        chosen = z3.If(allowed, z3.IntVal(card), chosen)
    return [automatic, Tracked("LAST-D-GHOSTPLAY", out == chosen)]


def seat_rule(game: Game, state: State[Any], out: z3.ArithRef) -> list[Tracked]:
    """Where the ghost sits: at the right-hand side of the player who starts the round's
    first trick (LAST-GHOST-1), so that the seat after it, clockwise, is that player; under
    ``ghost-seat=fixed`` (LAST-D-GHOSTSEAT) the starter of the game's first round."""
    history = state.info.history
    fixed = game.options.text("ghost-seat") == "fixed" and history
    if fixed:
        return [Tracked("LAST-D-GHOSTSEAT", out == history[0].first_leader)]
    return [Tracked("LAST-GHOST-1", out == state.first_leader)]


def seat_model(game: Game, state: State[Any]) -> int:
    """The seat after the ghost's, clockwise, in the model's seating of the round."""
    return seat_after(state.info.seating, 2, 1)


MODEL_RULES.register(
    "the-last",
    GameRules(
        table,
        states=(
            StateRule("ghost-card", ("ghost-play",), (2,), ghost_rule, automatic_card),
            StateRule("ghost-seat", ("ghost-seat",), (2,), seat_rule, seat_model, card=False),
        ),
    ),
)
