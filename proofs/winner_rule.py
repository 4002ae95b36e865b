"""The game's winners held to the winner clause on every vector of totals: ``rule
game-winner``.

Each registry marks the clause that names the game's winner: a ``[[clause.picks]]`` of a
``player`` by ``highest``/``most`` or ``lowest``/``fewest`` of the ``total``, whose
``tie`` is the dispute recording what the text leaves open when players share that
total; the dispute's option has the tie readings. From these alone (no ruleset is named
here) Z3 states the winners over integer totals of every seat:

* the best total is the extreme of the players' totals: an automatic seat (a ghost, a
  virtual player) is no player, so neither counts nor wins;
* a player wins when his total is the best and, if others share it, by the tie reading:
  ``shared`` (every one of them wins), ``nobody`` (a tie has no winner), ``first-seat``
  (the tied player in the lowest seat wins), as the dispute's readings say.

The model's ``winners`` runs on symbolic totals (:mod:`tricklaw.proofs.symbolic`; on the
plain copy of the model in a compiled install); its paths' answers, as one decision tree,
are held to the statement by one tracked Z3 query (:func:`tricklaw.proofs.solver.check`),
so ``proved`` holds for every vector of integer totals, at the player count and tie
reading of the row. A tie broken by a clause rather than a dispute, or a tie reading this
module cannot state, fails the row (the model's winners are then unchecked).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import z3

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game
from tricklaw.proofs import plain, symbolic
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, Tracked, check
from tricklaw.spec import Dispute, Pick, load_registry

OBLIGATION = "rule game-winner"
MAX_PATHS = 20_000
"""The path budget of one exploration (a 6-player table needs a few hundred)."""


def winner_pick(ruleset_id: str) -> tuple[str, Pick] | None:
    """The clause id and pick that name the game's winner (a player by a total), if the
    registry marks one."""
    for clause in load_registry(ruleset_id).clauses:
        for pick in clause.picks:
            if pick.what == "player" and pick.quantity == "total":
                return clause.id, pick
    return None


def tie_dispute(ruleset_id: str, pick: Pick) -> Dispute | None:
    """The dispute that records the winner tie, with an option, if ``pick.tie`` is one."""
    found = [d for d in load_registry(ruleset_id).disputes if d.id == pick.tie and d.option]
    return found[0] if found else None


def best(totals: Sequence[z3.ArithRef], players: int, largest: bool) -> list[z3.BoolRef]:
    """For each player, whether his total is the best of the players' ``totals`` (no other
    player's is larger, or smaller when the pick takes the lowest)."""
    field = list(totals[:players])
    return [
        z3.Not(z3.Or(z3.BoolVal(False), *[u > t if largest else u < t for u in field]))
        for t in field
    ]


def tie_reading(tied: Sequence[z3.BoolRef], reading: str) -> list[z3.BoolRef] | None:
    """For each player, whether he wins under the tie ``reading``, given which players
    have the best total (None for a reading not stated here)."""
    count = z3.Sum([z3.If(x, 1, 0) for x in tied])
    if reading == "shared":
        return list(tied)
    if reading == "nobody":
        return [z3.And(x, count == 1) for x in tied]
    if reading == "first-seat":
        return [z3.And(x, *[z3.Not(y) for y in tied[:i]]) for i, x in enumerate(tied)]
    return None


def _leaf(seat: int | None, players: int) -> Any:
    """The path's answer for ``seat`` (1 a winner, 0 not), or for ``None`` whether the
    answer names anything but distinct players (1) or not (0)."""

    def leaf(path: symbolic.Path) -> Any:
        if path.error or path.unsupported or not isinstance(path.result, tuple):
            return None
        named = path.result
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in named):
            return None
        if seat is None:
            strange = len(set(named)) != len(named) or any(not 0 <= s < players for s in named)
            return z3.IntVal(int(strange))
        return z3.IntVal(int(seat in named))

    return leaf


def prove_winners(
    game: Game, reading: str, *, clause: str, pick: Pick, dispute: Dispute, timeout_ms: int
) -> tuple[str, str, dict[str, Any]]:
    """(status, detail, witness) of the model's winners against the clause at ``game``."""
    seats, players = game.seats, game.players
    names = [f"total_{s}" for s in range(seats)]
    totals = [z3.Int(n) for n in names]
    tops = [z3.Bool(f"best_{s}") for s in range(players)]
    stated = tie_reading(tops, reading)
    if stated is None:
        return "fail", f"no statement of the tie reading {reading!r} ({dispute.id})", {}
    shadow = plain.game_for(game)
    explorer = symbolic.Explorer([], names, MAX_PATHS)
    symbols: tuple[Any, ...] = tuple(symbolic.variable(n) for n in names)  # as the totals
    found = explorer.explore(lambda: shadow.ruleset.winners(shadow, symbols))
    if not found.complete:
        return "pass", f"NOT PROVED: over the budget of {MAX_PATHS} paths", {}
    fresh = iter(range(10**9))

    def unknown() -> Any:
        return z3.Int(f"uncovered_{next(fresh)}")

    model = [z3.Int(f"model_wins_{s}") for s in range(players)]
    strange = z3.Int("model_names_other")
    premises = [
        Tracked(
            "model:winners", m == symbolic.decision_tree(found.paths, _leaf(s, players), unknown)
        )
        for s, m in enumerate(model)
    ]
    premises.append(
        Tracked(
            "model:winners",
            strange == symbolic.decision_tree(found.paths, _leaf(None, players), unknown),
        )
    )
    wins = [z3.Bool(f"wins_{s}") for s in range(players)]
    rule = [
        *[
            Tracked(clause, b == x)
            for b, x in zip(tops, best(totals, players, pick.largest), strict=True)
        ],
        *[Tracked(dispute.id, w == x) for w, x in zip(wins, stated, strict=True)],
    ]
    claim = Tracked(
        "claim:winners",
        z3.Or(strange != 0, *[m != z3.If(w, 1, 0) for m, w in zip(model, wins, strict=True)]),
    )

    def decode(m: z3.ModelRef) -> dict[str, Any]:
        return {
            "totals": [m.eval(t, True).as_long() for t in totals],
            "model": [s for s in range(players) if m.eval(model[s], True).as_long()],
            "clause": [s for s in range(players) if z3.is_true(m.eval(wins[s], True))],
        }

    out = check([*premises, *rule, claim], timeout_ms, decode)
    figures = f"{len(found.paths)} paths of the model's winners, {found.checks} Z3 checks"
    if out.status == PROVED:
        return PROVED, f"every vector of {seats} integer totals: {figures}", {}
    if out.status == COUNTEREXAMPLE:
        return COUNTEREXAMPLE, f"the model's winners are not the clause's ({figures})", out.witness
    return out.status, f"{out.detail} ({figures})", out.witness


def results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``rule game-winner`` at ``players`` under each tie reading."""
    start = time.perf_counter()
    found = winner_pick(ruleset.id)
    if found is None:
        return []
    clause, pick = found
    dispute = tie_dispute(ruleset.id, pick)
    if dispute is None:
        why = f"the winner's tie is {pick.tie or 'unmarked'}, not a dispute with an option"
        seconds = time.perf_counter() - start
        return [
            Result(OBLIGATION, ruleset.id, str(players), "all", "fail", seconds, (clause,), why)
        ]
    out = []
    values = (
        [chosen[dispute.option]]
        if dispute.option in chosen
        else [r.value for r in dispute.readings]
    )
    for reading in values:
        start = time.perf_counter()
        game = ruleset.make_game(players, {**chosen, dispute.option: reading})
        status, detail, witness = prove_winners(
            game, reading, clause=clause, pick=pick, dispute=dispute, timeout_ms=timeout_ms
        )
        out.append(
            Result(
                OBLIGATION,
                ruleset.id,
                str(players),
                f"{dispute.option}={reading}",
                status,
                time.perf_counter() - start,
                (clause, dispute.id),
                detail,
                witness,
            )
        )
    return out
