"""Every real round is a solution of its relaxation: the check on the model's rounds.

A bound is only as sound as its relaxation: every round the model can play must satisfy
it. :func:`round_values` reads a finished round of the model as values of the
relaxation's variables for one seat (its score included), and
:func:`relaxation_admits` checks that the relaxation has them as a solution. The tests
run it on sampled rounds of every reading.
"""

from __future__ import annotations

from collections.abc import Mapping

import z3

from tricklaw.model.state import Game, RoundLog, seat_after
from tricklaw.proofs.bounds.game import BOUNDS, RoundValues


def tricks_won(log: RoundLog, seat: int) -> int:
    """How many tricks of the finished round ``log`` ``seat`` won."""
    return sum(
        1
        for leader, result in log.tricks
        if result.winner is not None and seat_after(log.seating, leader, result.winner) == seat
    )


def round_values(game: Game, log: RoundLog, seat: int) -> RoundValues:
    """The values a finished round gives the relaxation's variables for ``seat`` (by
    variable name): ``score`` and ``tricks_won``, and the game's own (the ``round_values``
    of its :class:`~tricklaw.proofs.bounds.game.GameBounds`). The relaxation is sound on
    that round exactly when it admits them (:func:`relaxation_admits`)."""
    out: RoundValues = {"score": log.scores[seat], "tricks_won": tricks_won(log, seat)}
    return out | BOUNDS.lookup(game.ruleset.id).round_values(game, log, seat)


def relaxation_admits(
    game: Game,
    log: RoundLog,
    seat: int,
    timeout_ms: int = 5000,
    values: Mapping[str, int | bool] | None = None,
) -> bool:
    """Whether the relaxation of ``game`` has the finished round ``log`` (for ``seat``) as
    a solution: :func:`round_values` (or the given ``values``) added as equalities must
    be satisfiable."""
    relax = BOUNDS.lookup(game.ruleset.id).relaxation(game)
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    for item in relax.assertions:
        solver.add(item.formula)
    given = round_values(game, log, seat) if values is None else values
    for name, value in given.items():
        if isinstance(value, bool):
            solver.add(z3.Bool(name) == value)
        else:
            solver.add(z3.Int(name) == value)
    return bool(solver.check() == z3.sat)
