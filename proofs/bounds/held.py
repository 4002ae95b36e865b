"""The model held to the proved bounds: its rounds must be solutions of the relaxation.

A bound is proved over a relaxation of the round (:mod:`~tricklaw.proofs.bounds.relaxation`),
a theorem about the relaxation; it says something about the model only if every round the
model plays is a solution of it. For each reading a bound is proved under at a player
count (the rows of ``spec/bounds/v1.json``, which verify's ``bounds-artifact`` check holds
equal to the bounds proved in the same run), :func:`held_results` takes

* :data:`ROUNDS` finished rounds of seeded random games of the model under that reading,
  and
* the round of each witness (least and greatest), replayed through the model,

and checks, with one incremental Z3 solver holding the relaxation, that the values each
round gives the relaxation's variables for every player
(:func:`~tricklaw.proofs.bounds.soundness.round_values`, the score included) satisfy it.
A round outside is a ``counterexample`` naming it (seed and round, or the witness) and
the seat; a check that does not answer is ``unknown``; else ``pass`` (a sample, never
``proved``), saying how many rounds and seats were checked.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any

import z3

from tricklaw.model import actions
from tricklaw.model.agents import play_random_game
from tricklaw.model.record import parse_deal
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game, RoundLog, State
from tricklaw.proofs.bounds.game import BOUNDS, witness_game
from tricklaw.proofs.bounds.readings import agrees, readings
from tricklaw.proofs.bounds.soundness import round_values
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, UNKNOWN
from tricklaw.spec.proved_bounds import MAX, MIN, ProvedBounds, label, load_bounds

OBLIGATION = "bound-holds-on-model"
ROUNDS = 10
"""Seeded random rounds per reading and player count."""


def sampled_rounds(game: Game, count: int) -> Iterator[tuple[str, RoundLog]]:
    """``count`` finished rounds of seeded random games of ``game``, each named by its
    seed and round."""
    seed, given = 1, 0
    while given < count and seed <= 4 * count:
        state = play_random_game(game, seed, max_rounds=count - given)
        for log in state.history:
            yield f"seed {seed}, round {log.index + 1}", log
            given += 1
        seed += 1


def witness_round(game: Game, witness: Mapping[str, Any]) -> RoundLog | None:
    """The round of a checked-in witness, replayed through the model (None when it does
    not finish a round)."""
    ruleset = game.ruleset
    deal = parse_deal(dict(witness["deal"]), ruleset.palette, "the witness's deal")
    options = {**game.options.as_dict(), **dict(witness.get("options", {}))}
    replay = ruleset.make_game(game.players, options)
    state: State[Any] = replay.new_state_from_deals([deal], witness.get("seed"))
    for entry in witness["actions"]:
        if state.history:
            break
        state = state.child(actions.string_to_action(entry["action"], ruleset.palette))
    return state.history[0] if state.history else None


def _rounds(
    ruleset: Ruleset[Any], players: int, reading: tuple[tuple[str, str], ...], kept: ProvedBounds
) -> Iterator[tuple[str, Game, RoundLog]]:
    game = ruleset.make_game(players, dict(reading))
    for name, log in sampled_rounds(game, ROUNDS):
        yield name, game, log
    for obligation in (MAX, MIN):
        row = kept.row(obligation, ruleset.id, players, label(reading))
        if row is None or "deal" not in row.get("witness", {}):
            continue
        replayed = witness_round(game, row["witness"])
        if replayed is not None:
            yield f"the {obligation} witness", game, replayed


def check_reading(
    ruleset: Ruleset[Any],
    players: int,
    reading: tuple[tuple[str, str], ...],
    timeout_ms: int,
    kept: ProvedBounds,
) -> Result:
    """Every sampled and witness round of ``reading`` inside its relaxation, for every
    player."""
    start = time.perf_counter()
    relax = BOUNDS.lookup(ruleset.id).relaxation(witness_game(ruleset.id, players, dict(reading)))
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*[t.formula for t in relax.assertions])
    clauses = tuple(sorted({t.clause for t in relax.assertions}))
    count = checks = 0
    status, detail, witness = "pass", "", {}
    for name, game, log in _rounds(ruleset, players, reading, kept):
        count += 1
        for seat in range(players):
            values = round_values(game, log, seat)
            solver.push()
            for var, value in values.items():
                solver.add((z3.Bool(var) if isinstance(value, bool) else z3.Int(var)) == value)
            answer = solver.check()
            solver.pop()
            checks += 1
            if answer == z3.sat:
                continue
            witness = {"round": name, "seat": seat, "values": dict(values)}
            if answer == z3.unknown:
                status, detail = UNKNOWN, f"the check of {name}, seat {seat} did not answer"
            else:
                status = COUNTEREXAMPLE
                detail = (
                    f"{name}: seat {seat}'s round (score {values.get('score')}) is outside the"
                    " relaxation the bounds are proved over"
                )
            break
        if status != "pass":
            break
    if status == "pass":
        detail = (
            f"{count} model rounds ({ROUNDS} seeded random, the rest the witnesses) inside"
            f" the relaxation for every player: {checks} checks"
        )
    return Result(
        OBLIGATION,
        ruleset.id,
        str(players),
        label(reading),
        status,
        time.perf_counter() - start,
        clauses,
        detail,
        witness,
    )


def held_results(
    ruleset: Ruleset[Any], players: int, fixed: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``bound-holds-on-model`` for every reading the bounds of ``ruleset`` are proved
    under at ``players`` that has the ``fixed`` option values (none for a game without
    bounds)."""
    if ruleset.id not in BOUNDS:
        return []
    kept = load_bounds()
    return [
        check_reading(ruleset, players, reading, timeout_ms, kept)
        for reading in readings(ruleset, players)
        if agrees(ruleset, reading, players, fixed)
    ]
