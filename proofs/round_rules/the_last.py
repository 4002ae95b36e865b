"""The Last's rules of a finished round, in Z3, at two players: the ghost's score
(LAST-GHOST-6) and where the ghost sits (LAST-GHOST-1, dispute LAST-D-GHOSTSEAT)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import z3

from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.round_rules import ROUND_RULES, RoundRule
from tricklaw.proofs.solver import Tracked


def ghost_inputs(game: Game, log: RoundLog) -> dict[str, int]:
    """The ghost's seat: the seat added to two players (LAST-GHOST-1)."""
    return {"ghost": game.seats - 1}


def ghost_rule(game: Game, v: Mapping[str, z3.ArithRef], out: z3.ArithRef) -> list[Tracked]:
    """The ghost's round score: its points are left out of the reckoning (LAST-GHOST-6)."""
    return [Tracked("LAST-GHOST-6", out == 0)]


def ghost_model(game: Game, log: RoundLog) -> int:
    """The ghost's score as the model records the round."""
    return int(log.scores[game.seats - 1])


GHOST_SEAT = MappingProxyType({"rounds": "3"})
"""The games the ghost's seat is checked on: several rounds, so that under either reading
of LAST-D-GHOSTSEAT the seat can move (or must stay) from the second round on."""


def seat_inputs(game: Game, log: RoundLog) -> dict[str, int]:
    """Where the ghost is seated from: the round's place in the game (``index``, from
    0) and its first player, drawn for the round (``first``, LAST-LEAD-1)."""
    assert log.first_leader is not None
    return {"index": log.index, "first": log.first_leader}


def opening_inputs(game: Game, logs: Sequence[RoundLog]) -> dict[str, int]:
    """The first player drawn for the game's first round (``opening``): where a ghost
    placed once for the game sits (LAST-D-GHOSTSEAT ``fixed``)."""
    assert logs[0].first_leader is not None
    return {"opening": logs[0].first_leader}


def seat_rule(game: Game, v: Mapping[str, z3.ArithRef], out: z3.ArithRef) -> list[Tracked]:
    """The player at whose right the ghost pile lies (``out``, the one who plays right
    after the ghost): the first player of the first trick (LAST-GHOST-1); in a later
    round, that round's first player under ``ghost-seat=per-round``, the first round's
    under ``fixed`` (LAST-D-GHOSTSEAT)."""
    anchor = v["opening"] if game.options.text("ghost-seat") == "fixed" else v["first"]
    return [
        Tracked("LAST-GHOST-1", z3.Implies(v["index"] == 0, out == v["first"])),
        Tracked("LAST-D-GHOSTSEAT", z3.Implies(v["index"] > 0, out == anchor)),
    ]


def seat_model(game: Game, log: RoundLog) -> int:
    """The player the model seats right after the ghost in the round's play order."""
    at = log.seating.index(game.seats - 1)
    return int(log.seating[(at + 1) % len(log.seating)])


ROUND_RULES.register(
    "the-last",
    (
        RoundRule("ghost-score", (), (2,), ghost_inputs, ghost_rule, ghost_model),
        RoundRule(
            "ghost-seat-rounds",
            ("ghost-seat",),
            (2,),
            seat_inputs,
            seat_rule,
            seat_model,
            GHOST_SEAT,
            opening_inputs,
        ),
    ),
)
