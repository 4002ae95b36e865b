"""Shrinking a disagreement: simpler cases (fewer steps, no illegal probes, first legal
choices, fewer rounds and deals, default options) replayed on the engine, each kept
only when it still disagrees in the same way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tricklaw.fuzz.cases import Case, Outcome, Step
from tricklaw.fuzz.engine import Engine
from tricklaw.fuzz.play import play_case
from tricklaw.model.rulesets import get_ruleset
from tricklaw.spec.errors import TricklawError


def _same_kind(engine: Engine, case: Case, kind: str) -> Outcome | None:
    """The outcome of ``case`` replayed exactly (no new steps), if it disagrees as ``kind``."""
    outcome = play_case(engine, case, limit=len(case.steps))
    found = outcome.disagreement
    return outcome if found is not None and found.kind == kind else None


def shrink(engine: Engine, outcome: Outcome, budget: int = 500) -> Outcome:
    """A smaller case that disagrees in the same way (see the module doc); at most
    ``budget`` replays."""
    assert outcome.disagreement is not None
    kind = outcome.disagreement.kind
    best = outcome
    tries = 0

    def attempt(candidate: Case) -> bool:
        nonlocal best, tries
        if tries >= budget:
            return False
        tries += 1
        try:
            found = _same_kind(engine, candidate, kind)
        except TricklawError:  # the deals do not fit the simpler options
            return False
        if found is None:
            return False
        assert found.disagreement is not None
        steps = found.case.steps[: found.disagreement.step + 1]
        best = Outcome(
            replace(found.case, steps=steps), found.state, found.disagreement, found.actions
        )
        return True

    changed = True
    while changed and tries < budget:
        changed = False
        for i in range(len(best.case.steps)):
            for part in ("probe", "choice"):
                simpler = _simpler_step(best.case.steps, i, part)
                if simpler is not None:
                    changed |= attempt(replace(best.case, steps=simpler))
        changed |= _drop_rounds(best, attempt)
        changed |= _trim_deals(best, attempt)
        changed |= _default_options(best, attempt)
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


def _drop_rounds(best: Outcome, attempt: Callable[[Case], bool]) -> bool:
    """Start the game at the round where it disagrees, when that still disagrees."""
    case = best.case
    rounds = best.state.round_index
    if rounds == 0 or len(case.deals) <= rounds:
        return False
    steps_before = sum(len(log.actions) for log in best.state.history[:rounds])
    return attempt(replace(case, deals=case.deals[rounds:], steps=case.steps[steps_before:]))


def _trim_deals(best: Outcome, attempt: Callable[[Case], bool]) -> bool:
    """Drop the deals of rounds after the disagreement (the next one may be needed: the
    last card of a round deals the next)."""
    case = best.case
    for keep in (best.state.round_index + 1, best.state.round_index + 2):
        if keep < len(case.deals) and attempt(replace(case, deals=case.deals[:keep])):
            return True
    return False


def _default_options(best: Outcome, attempt: Callable[[Case], bool]) -> bool:
    """Set each option back to its default, when the case still disagrees."""
    ruleset = get_ruleset(best.case.ruleset)
    changed = False
    for spec in ruleset.option_specs:
        case = best.case
        if case.options.get(spec.name) != spec.default:
            changed |= attempt(replace(case, options={**case.options, spec.name: spec.default}))
    return changed
