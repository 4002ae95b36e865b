"""Playing one case on the engine and the model side by side: open the game with its
deals, take each step (now and then trying an illegal action first), compare every
answer, and close the game."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tricklaw.fuzz.cases import Case, Disagreement, Outcome
from tricklaw.fuzz.compare import Match, MismatchError
from tricklaw.fuzz.engine import Engine, EngineError
from tricklaw.fuzz.games import choose, illegal_candidates
from tricklaw.model.record import deal_json
from tricklaw.model.rng import SplitMix64
from tricklaw.model.state import State

PROBE_RATE = 16
"""One step in this many also tries an illegal action."""


def _trimmed(state: State[Any], case: Case) -> bool:
    """Whether the case has played all the rounds it deals (plus a seeded one at most)."""
    return state.round_index >= len(case.deals)


def play_case(engine: Engine, case: Case, limit: int | None = None) -> Outcome:
    """Play ``case`` on the engine and the model; new steps come from the case's policy.

    ``limit`` stops after that many steps (the shrinker replays prefixes)."""
    game = case.game()
    state = game.new_state_from_deals(case.deals, case.seed)
    run = Match(engine, case, state)
    policy = SplitMix64(case.policy_seed)
    try:
        ok, result = engine.request(
            "new_game",
            {
                "ruleset": case.ruleset,
                "players": case.players,
                "options": case.options,
                "seed": case.seed,
                "deals": [deal_json(d, game.ruleset.palette) for d in case.deals],
            },
        )
        if not ok:
            run.fail(
                "protocol", f"the engine refused new_game: {_error_text(result)}", None, result, ()
            )
        run.game_id = run.shape(result, "game", str, "new_game")
        run.compare_view(run.shape(result, "state", dict, "new_game"), "new_game.state")
        while not run.state.is_terminal() and not _trimmed(run.state, case):
            if limit is not None and run.step + 1 >= limit:
                break
            run.step += 1
            _one_step(run, policy)
        found = None
    except MismatchError as exc:
        found = exc.disagreement
    except EngineError as exc:
        found = Disagreement("protocol", run.step, str(exc), None, None, ())
    if run.game_id and (found is None or found.kind != "protocol"):
        try:
            engine.request("close", {"game": run.game_id})
        except EngineError as exc:
            found = found or Disagreement("protocol", run.step, str(exc), None, None, ())
    return Outcome(replace(case, steps=tuple(run.taken)), run.state, found, run.step + 1)


def _one_step(run: Match, policy: SplitMix64) -> None:
    state = run.state
    legal = state.legal_actions()
    if run.step < len(run.case.steps):
        choice, probe = run.case.steps[run.step]
    else:
        probe = policy.below(1 << 20) if policy.below(PROBE_RATE) == 0 else None
        choice = choose(state, legal, policy)
    run.taken.append((choice, probe))
    where = f"step {run.step}"
    if probe is not None:
        candidates = illegal_candidates(state, legal)
        if candidates:
            bad = candidates[probe % len(candidates)]
            text = state.action_to_string(bad)
            ok, answer = run.engine.request("apply", {"game": run.game_id, "action": text})
            if ok:
                clause = run.ruleset.forbidding_clause(state, bad)
                run.fail(
                    "illegal_accepted",
                    f"{where}: the engine let seat {state.current_player()} take {text}; "
                    f"{run.ruleset.why_illegal(state, bad)}",
                    "an error",
                    answer,
                    run.cite("illegal", (clause,)),
                )
    action = legal[choice % len(legal)]
    text = state.action_to_string(action)
    ok, answer = run.engine.request("apply", {"game": run.game_id, "action": text})
    if not ok:
        run.fail(
            "legal_refused",
            f"{where}: the engine refused seat {state.current_player()}'s legal {text}: "
            f"{_error_text(answer)}",
            "a result",
            answer,
            run.cite("illegal", (run.ruleset.forbidding_clause(state, action),)),
        )
    before = state
    run.state = state.child(action)
    run.compare_apply(before, action, answer, where)


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        return str(error.get("message", error))[:200]
    return str(error)[:200]
