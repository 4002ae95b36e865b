"""The low-card-takes-high game's rules of a finished round, in Z3: who starts each round
(LH-D-FIRSTLEAD). Its score is held to the clauses by the bounds."""

from __future__ import annotations

from collections.abc import Mapping

import z3

from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.round_rules import ROUND_RULES, RoundRule
from tricklaw.proofs.solver import Tracked


def start_inputs(game: Game, log: RoundLog) -> dict[str, int]:
    """What the round's start player is decided from: the round's place in the game
    (``index``, from 0) and the number of players."""
    return {"index": log.index, "players": game.players}


def start_rule(game: Game, v: Mapping[str, z3.ArithRef], out: z3.ArithRef) -> list[Tracked]:
    """Who starts a round, from the clauses: seats are numbered from the player who
    starts the first round, there is one round per player (LH-GAME-1), and under the
    ``first-leader`` reading (LH-D-FIRSTLEAD) the start passes one seat on each round
    (``rotate``: seat ``index mod players``) or stays with seat 0 (``seat0``)."""
    first = Tracked("LH-D-FIRSTLEAD", z3.Implies(v["index"] == 0, out == 0))
    if game.options["first-leader"] == "rotate":
        later = out == v["index"] % v["players"]
    else:
        later = out == 0
    return [first, Tracked("LH-D-FIRSTLEAD", later)]


def start_model(game: Game, log: RoundLog) -> int:
    """The model's start player of the round, as its log records it."""
    return log.first_leader


# The score is held to the clauses by the bounds; who starts a round by this rule.
ROUND_RULES.register(
    "lowhigh",
    (RoundRule("round-start", ("first-leader",), None, start_inputs, start_rule, start_model),),
)
