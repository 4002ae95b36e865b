"""The liveness obligations of one ruleset and player count, as verify results.

For every combination of the readings each part reads (:class:`~tricklaw.proofs.liveness.
GameLiveness`): ``liveness-action`` (every non-terminal state has a legal action: base,
steps, enabled, the game's lemmas, and non-vacuity of every premise), ``liveness-round``
(every round ends: a ranking function, the bounds on actions and decisions, the latter
within the model's ``max_decisions``) and ``liveness-game`` (every game ends, or a
finding with an endless cycle of rounds): see :mod:`tricklaw.proofs.liveness` and
:mod:`tricklaw.proofs.game_end`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs import game_end, liveness
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.obligations import Result, worst
from tricklaw.proofs.solver import PROVED, Outcome


def _label(readings: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"


def _core(outcomes: list[Outcome]) -> tuple[str, ...]:
    return tuple(sorted({c for o in outcomes for c in o.clauses if ":" not in c}))


def action_result(p: liveness.Progress, hand: int, timeout_ms: int) -> tuple[str, str, Any]:
    """Status, detail and witness of ``liveness-action`` for machine ``p`` (``hand``: the
    model's hand size, which the machine's deal must give seat 0)."""
    named = [("base", liveness.base(p, timeout_ms)), ("enabled", liveness.enabled(p, timeout_ms))]
    named += [(f"step {s.name}", liveness.step(p, s, timeout_ms)) for s in p.steps]
    named += [(f"lemma {m.name}", liveness.lemma(m, timeout_ms)) for m in p.lemmas]
    bad = [(n, o) for n, o in named if o.status != PROVED]
    empty = liveness.premises_live(p, timeout_ms)
    dealt = liveness.bound(p, lambda v: v[p.hand], timeout_ms)
    outcomes = [o for _, o in named]
    if bad:
        name, o = bad[0]
        return worst([o.status for _, o in bad]), f"{name}: {o.status}", (o.witness, outcomes)
    if empty:
        return "fail", "vacuous: " + "; ".join(empty), ({}, outcomes)
    if dealt != hand:
        return "fail", f"the machine deals {dealt} cards, the model {hand}", ({}, outcomes)
    detail = (
        f"induction over {len(p.steps)} steps: every state of the invariant before the "
        f"round's end enables a step; {len(p.lemmas)} lemmas; premises satisfiable"
    )
    return PROVED, detail, ({}, outcomes)


def round_result(p: liveness.Progress, most: int, timeout_ms: int) -> tuple[str, str, Any]:
    """Status, detail and witness of ``liveness-round`` (``most``: the model's
    ``max_decisions``)."""
    named = [(s.name, liveness.decreases(p, s, timeout_ms)) for s in p.steps]
    bad = [(n, o) for n, o in named if o.status != PROVED]
    outcomes = [o for _, o in named]
    if bad:
        name, o = bad[0]
        return o.status, f"{name} does not decrease the rank", (o.witness, outcomes)
    steps = liveness.bound(p, p.rank, timeout_ms)
    decisions = liveness.bound(p, p.decisions, timeout_ms)
    if steps is None or decisions is None:
        return "unknown", "no bound on the rank at the deal", ({}, outcomes)
    witness = {"actions": steps, "decisions": decisions, "max_decisions": most}
    if decisions > most:
        detail = f"{decisions} decisions in a round exceed the model's max_decisions {most}"
        return "fail", detail, (witness, outcomes)
    detail = (
        f"a round ends within {steps} steps, {decisions} of them decisions "
        f"(model's max_decisions: {most})"
    )
    return PROVED, detail, (witness, outcomes)


def results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``liveness-action``, ``liveness-round`` and ``liveness-game`` of ``ruleset`` at
    ``players`` under every combination of the readings they read."""
    part = liveness.LIVENESS[ruleset.id]
    out: list[Result] = []
    for readings in reading_combinations(ruleset, part.readings, chosen):
        game = ruleset.make_game(players, {**chosen, **readings})
        p = part.progress(game)
        for name, run in (
            ("liveness-action", lambda: action_result(p, ruleset.hand_size(game), timeout_ms)),
            ("liveness-round", lambda: round_result(p, ruleset.max_decisions(game), timeout_ms)),
        ):
            start = time.perf_counter()
            status, detail, (witness, outcomes) = run()
            out.append(
                Result(
                    name,
                    ruleset.id,
                    str(players),
                    _label(readings),
                    status,
                    time.perf_counter() - start,
                    _core(outcomes),
                    detail,
                    witness,
                )
            )
    for readings in reading_combinations(ruleset, part.end_readings, chosen):
        game = ruleset.make_game(players, {**chosen, **readings})
        ending = part.ending(game)
        if ending.rounds is not None:
            o = game_end.fixed_rounds(ending, game, timeout_ms)
        else:
            o = game_end.endless(game, ending, ending.period or game.players)
        out.append(
            Result(
                "liveness-game",
                ruleset.id,
                str(players),
                _label(readings),
                o.status,
                o.seconds,
                o.clauses,
                o.detail,
                o.witness,
                o.machine,
                o.dispute,
            )
        )
    return out
