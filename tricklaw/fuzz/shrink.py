"""Shrinking a disagreement: simpler cases (fewer steps, no illegal probes, first legal
choices, fewer rounds and deals, default options) replayed on the engine, each kept
only when it still disagrees in the same way.

A *game-level* disagreement (the winners, established to turn on a dispute: a tie for
the best total broken another way) needs the whole game replayed for every candidate,
and most candidates lose the tie. Such candidates are first played on the model alone
(``_keeps_the_point``, no engine request): only those whose game still ends where
another reading of the dispute changes the winners go to the engine. The big cuts come
first (every choice the first legal one, short integer options, default options), then
the step by step ones."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tricklaw.fuzz.cases import Case, Disagreement, Outcome, Step
from tricklaw.fuzz.engine import Engine
from tricklaw.fuzz.play import play_case
from tricklaw.model.replay.citation import cite
from tricklaw.model.rng import SplitMix64
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import State
from tricklaw.spec.errors import TricklawError


def _same_kind(engine: Engine, case: Case, kind: str) -> Outcome | None:
    """The outcome of ``case`` replayed exactly (no new steps), if it disagrees as ``kind``."""
    outcome = play_case(engine, case, limit=len(case.steps))
    found = outcome.disagreement
    return outcome if found is not None and found.kind == kind else None


def shrink(engine: Engine, outcome: Outcome, budget: int = 500) -> Outcome:
    """A smaller case that disagrees in the same way (see the module doc); at most
    ``budget`` replays on the engine.

    A game-level disagreement is first shrunk on the model alone (each candidate must
    keep the point there) and the result asked of the engine once; only when the engine
    does not disagree the same way there is it shrunk with the engine in the loop (each
    candidate still sifted by the model first)."""
    found = outcome.disagreement
    assert found is not None
    kind = found.kind
    if not (found.established and outcome.state.is_terminal()):
        return _reduce(outcome, lambda case: _same_kind(engine, case, kind), budget, None)
    disputes = set(found.disputes)
    on_model = _reduce(
        outcome, lambda case: _model_outcome(case, disputes, found), 10_000, disputes
    )
    if on_model is not outcome:
        confirmed = _same_kind(engine, on_model.case, kind)
        if confirmed is not None:
            return _cut(confirmed)

    def sifted(case: Case) -> Outcome | None:
        return _same_kind(engine, case, kind) if _keeps_the_point(case, disputes) else None

    return _reduce(outcome, sifted, budget, disputes)


def _cut(found: Outcome) -> Outcome:
    """``found`` with its steps cut after the disagreement."""
    assert found.disagreement is not None
    steps = found.case.steps[: found.disagreement.step + 1]
    return Outcome(replace(found.case, steps=steps), found.state, found.disagreement, found.actions)


def _reduce(
    outcome: Outcome,
    accept: Callable[[Case], Outcome | None],
    budget: int,
    disputes: set[str] | None,
) -> Outcome:
    """The smallest case found from ``outcome`` whose ``accept`` gives an outcome, in at
    most ``budget`` calls; ``disputes``: a game-level point (the big cuts first)."""
    best = outcome
    tries = 0

    def current() -> Outcome:
        return best

    def attempt(candidate: Case) -> bool:
        nonlocal best, tries
        if tries >= budget:
            return False
        tries += 1
        try:
            found = accept(candidate)
        except TricklawError:  # the deals do not fit the simpler options
            return False
        if found is None:
            return False
        best = _cut(found)
        return True

    if disputes is not None:  # the big cuts first
        attempt(replace(best.case, steps=tuple((0, None) for _ in best.case.steps)))
        _short_options(current, attempt)
        _search_short_game(current, disputes, attempt)
        _zero_blocks(current, attempt)
    changed = True
    while changed and tries < budget:
        changed = False
        for i in range(len(best.case.steps)):
            for part in ("probe", "choice"):
                simpler = _simpler_step(best.case.steps, i, part)
                if simpler is not None:
                    changed |= attempt(replace(best.case, steps=simpler))
        changed |= _drop_rounds(current, attempt)
        changed |= _trim_deals(current, attempt)
        changed |= _default_options(current, attempt)
    return best


def _simpler_step(steps: tuple[Step, ...], i: int, part: str) -> tuple[Step, ...] | None:
    """``steps`` with step ``i``'s illegal probe dropped (``part="probe"``) or its choice
    made the first legal action (``"choice"``); ``None`` when there is nothing to simplify."""
    if i >= len(steps):
        return None
    choice, probe = steps[i]
    if part == "probe" and probe is not None:
        return (*steps[:i], (choice, None), *steps[i + 1 :])
    if part == "choice" and choice != 0:
        return (*steps[:i], (0, probe), *steps[i + 1 :])
    return None


def _drop_rounds(current: Callable[[], Outcome], attempt: Callable[[Case], bool]) -> bool:
    """Start the game at the round where it disagrees, when that still disagrees."""
    best = current()
    case = best.case
    rounds = best.state.round_index
    if rounds == 0 or len(case.deals) <= rounds:
        return False
    steps_before = sum(len(log.actions) for log in best.state.history[:rounds])
    return attempt(replace(case, deals=case.deals[rounds:], steps=case.steps[steps_before:]))


def _trim_deals(current: Callable[[], Outcome], attempt: Callable[[Case], bool]) -> bool:
    """Drop the deals of rounds after the disagreement (the next one may be needed: the
    last card of a round deals the next)."""
    best = current()
    case = best.case
    for keep in (best.state.round_index + 1, best.state.round_index + 2):
        if keep < len(case.deals) and attempt(replace(case, deals=case.deals[:keep])):
            return True
    return False


def _default_options(current: Callable[[], Outcome], attempt: Callable[[Case], bool]) -> bool:
    """Set each option back to its default, when the case still disagrees."""
    ruleset = get_ruleset(current().case.ruleset)
    changed = False
    for spec in ruleset.option_specs:
        case = current().case
        if case.options.get(spec.name) != spec.default:
            changed |= attempt(replace(case, options={**case.options, spec.name: spec.default}))
    return changed


def _short_options(current: Callable[[], Outcome], attempt: Callable[[Case], bool]) -> bool:
    """Set each integer option to 1 (a game of one round, a low target), when the case
    still disagrees."""
    ruleset = get_ruleset(current().case.ruleset)
    changed = False
    for spec in ruleset.option_specs:
        case = current().case
        if (
            spec.is_integer
            and spec.minimum <= 1 <= spec.maximum
            and case.options.get(spec.name) != 1
        ):
            changed |= attempt(replace(case, options={**case.options, spec.name: 1}))
    return changed


def _keeps_the_point(case: Case, disputes: set[str]) -> bool:
    """Whether ``case``, played on the model alone with its steps, ends the game where
    another reading of one of ``disputes`` changes the winners (the model's side of a
    game-level disagreement; the engine is asked only about such cases)."""
    return _model_end(case, disputes) is not None


def _model_end(case: Case, disputes: set[str]) -> tuple[State[Any], int] | None:
    """The model's end of ``case`` and the steps it took, when it keeps the point."""
    try:
        game = case.game()
        state = game.new_state_from_deals(case.deals, case.seed)
    except TricklawError:
        return None
    taken = 0
    for choice, _ in case.steps:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state = state.child(legal[choice % len(legal)])
        taken += 1
    if not state.is_terminal():
        return None
    totals = state.returns()
    cited = cite(game, "winners", answer=lambda g: list(g.ruleset.winners(g, totals)))
    return (state, taken) if disputes & set(cited.disputes) else None


def _model_outcome(case: Case, disputes: set[str], like: Disagreement) -> Outcome | None:
    """``case`` as the model alone plays it, with the disagreement ``like`` at its last
    step, when it keeps the point (the optimistic shrink; the engine confirms the end)."""
    end = _model_end(case, disputes)
    if end is None:
        return None
    state, taken = end
    return Outcome(case, state, replace(like, step=taken - 1), taken)


SEARCH_GAMES = 300
"""Games of the shortest set-up played on the model alone, looking for one that keeps a
game-level disagreement's point (``_search_short_game``)."""


def _search_short_game(
    current: Callable[[], Outcome], disputes: set[str], attempt: Callable[[Case], bool]
) -> bool:
    """A shorter game with the same point: the case's first deal only and each integer
    option at 1, played on the model with first choices and then with seeded random
    ones (at most :data:`SEARCH_GAMES`) until one ends where the dispute changes the
    winners; that one is asked of the engine."""
    case = current().case
    ruleset = get_ruleset(case.ruleset)
    short = {
        s.name: 1 for s in ruleset.option_specs if s.is_integer and s.minimum <= 1 <= s.maximum
    }
    base = replace(case, options={**case.options, **short}, deals=case.deals[:2])
    if base.options == case.options and len(base.deals) == len(case.deals):
        return False
    try:
        length = base.game().ruleset.max_decisions(base.game())
    except TricklawError:
        return False
    rng = SplitMix64(case.seed ^ 0x5EED)
    for n in range(SEARCH_GAMES):
        steps = tuple((0 if n == 0 else rng.below(1 << 20), None) for _ in range(length))
        candidate = replace(base, steps=steps)
        if _keeps_the_point(candidate, disputes):
            return attempt(candidate)
    return False


def _zero_blocks(current: Callable[[], Outcome], attempt: Callable[[Case], bool]) -> bool:
    """Blocks of steps (halves, quarters, ... down to eight steps) made first choices
    without probes at once: fewer engine replays than step by step."""
    changed = False
    size = len(current().case.steps) // 2
    while size >= 8:
        start = 0
        while start < len(current().case.steps):
            steps = current().case.steps
            block = steps[start : start + size]
            if any(step != (0, None) for step in block):
                zeroed = (*steps[:start], *((0, None) for _ in block), *steps[start + size :])
                changed |= attempt(replace(current().case, steps=zeroed))
            start += size
        size //= 2
    return changed
