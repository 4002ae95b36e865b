"""The ``score-max`` and ``score-min`` obligations, as verify results.

For each ruleset, player count and reading (:func:`~tricklaw.proofs.bounds.readings.readings`),
and for seat 0, two obligations: ``score-max`` (no round gives seat 0 more than ``B``)
and ``score-min`` (no round gives seat 0 less than ``B``), each settled in two
independent halves: the bound, proved by Z3 over the game's relaxation
(:func:`~tricklaw.proofs.bounds.prove.prove_bound`), and a witness, built from the game's
plan and replayed through the model (:func:`find_witness`). A result is

* ``proved`` when the witness reaches the proved bound (the bound is tight, and is
  therefore the exact least / greatest score);
* a ``counterexample``, with the model's round as witness, when the witness goes beyond
  the proved bound (the model's round lies outside the relaxation: the relaxation is
  unsound or the model is wrong), or falls short of it (the model does not reach the
  relaxation's optimum on the plan built from it: the two disagree);
* ``fail`` when no witness round could be built or played;
* ``vacuous`` when the relaxation itself is unsatisfiable (it bounds nothing);
* ``unknown`` only when the solver did not answer in time.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Game
from tricklaw.proofs.bounds.game import BOUNDS, Hint, witness_game
from tricklaw.proofs.bounds.prove import prove_bound
from tricklaw.proofs.bounds.readings import agrees, readings
from tricklaw.proofs.bounds.witness import Witness, drive, witness_json
from tricklaw.proofs.recorder import labelled
from tricklaw.proofs.results import Result
from tricklaw.proofs.statuses import COUNTEREXAMPLE, FAIL, HOLLOW, PROVED, UNKNOWN
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.proved_bounds import MAX, MIN, label


def find_witness(game: Game, maximize: bool, hint: Hint) -> Witness | None:
    """The witness built from the plan of ``game``'s ruleset for the greatest (or least)
    score, replayed through the model; None when no plan could be built or played."""
    plan = BOUNDS.lookup(game.ruleset.id).plan(game, maximize, hint)
    if plan is None:
        return None
    try:
        return drive(game, plan)
    except (TricklawError, KeyError, IndexError):
        return None


def bound_result(
    ruleset_id: str,
    players: int,
    maximize: bool,
    timeout_ms: int,
    options: Mapping[str, str] | None = None,
) -> Result:
    """The ``score-max`` (or ``score-min``) obligation of one ruleset and player count
    under the reading ``options`` (the defaults where not given)."""
    start = time.perf_counter()
    reading = tuple(sorted((options or {}).items()))
    game = witness_game(ruleset_id, players, dict(reading))
    name, word = (MAX, "greatest") if maximize else (MIN, "least")
    with labelled(obligation=name, reading=label(reading)):
        bound = prove_bound(BOUNDS.lookup(ruleset_id).relaxation(game), maximize, timeout_ms)
    witness = find_witness(game, maximize, bound.hint)
    seconds = time.perf_counter() - start
    data = witness_json(game, witness) if witness is not None else {}
    best = "no witness" if witness is None else f"best witness {witness.score}"
    if bound.status in HOLLOW:
        status, detail = bound.status, f"{bound.detail}; {best}"
    elif bound.status != PROVED or bound.value is None:
        status, detail = UNKNOWN, f"bound not proved ({bound.detail}); {best}"
    elif witness is None:
        status, detail = FAIL, f"proved bound {bound.value}, but no witness round was built"
    elif (witness.score > bound.value) if maximize else (witness.score < bound.value):
        status = COUNTEREXAMPLE
        detail = (
            f"the model's round scores {witness.score}, beyond the proved bound "
            f"{bound.value}: the round lies outside the relaxation"
        )
    elif witness.score != bound.value:
        status = COUNTEREXAMPLE
        detail = (
            f"proved bound {bound.value}, but the model's round on the plan built from the "
            f"relaxation's optimum scores {witness.score}: model and relaxation disagree"
        )
    else:
        status = PROVED
        detail = (
            f"{word} round score of seat 0 is {bound.value}: bound proved, witness replays to it"
        )
    if bound.value is not None:
        data = {**data, "bound": bound.value}
    return Result(
        name,
        ruleset_id,
        str(players),
        label(reading),
        status,
        seconds,
        bound.clauses,
        detail,
        data,
    )


def bounds_results(
    ruleset: Ruleset[Any] | str,
    players: int,
    timeout_ms: int = 5000,
    fixed: Mapping[str, str] | None = None,
) -> list[Result]:
    """The ``score-max`` and ``score-min`` results of ``ruleset`` at ``players``, seat 0,
    under every reading of :func:`~tricklaw.proofs.bounds.readings.readings` that has the
    ``fixed`` option values."""
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    return [
        bound_result(rs.id, players, maximize, timeout_ms, dict(reading))
        for reading in readings(rs, players)
        if agrees(rs, reading, players, fixed or {})
        for maximize in (True, False)
    ]


def all_bounds_results(
    timeout_ms: int = 5000, ruleset_ids: Sequence[str] | None = None
) -> list[Result]:
    """:func:`bounds_results` for every player count of ``ruleset_ids`` (default: every
    ruleset)."""
    ids = list(RULESETS) if ruleset_ids is None else list(ruleset_ids)
    return [
        result
        for rid in ids
        for players in RULESETS[rid].player_counts
        for result in bounds_results(rid, players, timeout_ms)
    ]
