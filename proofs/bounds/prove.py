"""The bound over a relaxation: its optimum, found and then proved by Z3.

The relaxation's optimum ``B`` is found by a search of Z3 checks
(:func:`~tricklaw.proofs.solver.optimum`); the bound is then proved on its own, by
checking that "score > B" (or "< B") is unsatisfiable, and the unsat core, made minimal,
names the clauses the proof rests on. The optimal model is decoded (canonically: the
same on every run) to guide the witness.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tricklaw.proofs.bounds.relaxation import Relaxation
from tricklaw.proofs.solver import PROVED, TRIVIAL, UNKNOWN, VACUOUS, Tracked, check, optimum


@dataclass
class Bound:
    """A bound proved (or not) over a relaxation."""

    status: str
    value: int | None
    clauses: tuple[str, ...]
    seconds: float
    hint: dict[str, Any] = field(default_factory=dict)
    detail: str = ""


def prove_bound(relax: Relaxation, maximize: bool, timeout_ms: int) -> Bound:
    """The relaxation's optimum ``B`` (a search by Z3 checks), then the proof that no
    solution scores beyond it ("score > B" / "score < B" unsat), whose core, made
    minimal (``_minimal_core``), gives the clauses."""
    start = time.perf_counter()
    status, value, model = optimum(relax.assertions, relax.score, maximize, timeout_ms)
    if status == VACUOUS:
        detail = "the relaxation is unsatisfiable: it bounds nothing"
        return Bound(VACUOUS, None, (), time.perf_counter() - start, detail=detail)
    if status != PROVED or value is None or model is None:
        return Bound(UNKNOWN, None, (), time.perf_counter() - start, detail="no optimum in time")
    hint = relax.decode(_canonical(relax, value, timeout_ms) or model)
    beyond = relax.score > value if maximize else relax.score < value
    word = "more" if maximize else "less"
    claim = Tracked(f"claim:no-score-{word}", beyond)
    out = check([*relax.assertions, claim], timeout_ms)
    if out.status != PROVED:
        clauses = tuple(c for c in out.clauses if not c.startswith("claim:"))
        seconds = time.perf_counter() - start
        status = out.status if out.status in (UNKNOWN, VACUOUS, TRIVIAL) else UNKNOWN
        why = out.detail or f"optimum {value} not re-proved"
        return Bound(status, value, clauses, seconds, hint, why)
    clauses = _minimal_core(relax.assertions, claim, out.clauses, timeout_ms)
    return Bound(PROVED, value, clauses, time.perf_counter() - start, hint)


def _minimal_core(
    assertions: Sequence[Tracked], claim: Tracked, core: Sequence[str], timeout_ms: int
) -> tuple[str, ...]:
    """The clauses of ``core`` the claim still needs once each, in sorted order, is
    dropped if the rest (with all its assertions) still proves it. Z3's cores vary with
    the solver's state; whether a set of assertions is unsatisfiable does not, so this
    minimal core is the same on every run."""
    kept = sorted(c for c in core if not c.startswith("claim:"))
    for clause in list(kept):
        rest = [a for a in assertions if a.clause in kept and a.clause != clause]
        if check([*rest, claim], timeout_ms, hollow=False).status == PROVED:
            kept.remove(clause)
    return tuple(kept)


def _canonical(relax: Relaxation, value: int, timeout_ms: int) -> Any:
    """The optimal model whose :attr:`Relaxation.canonical` terms are least, in turn
    (None when there are none, or a search does not answer in time)."""
    fixed = [*relax.assertions, Tracked("optimum", relax.score == value)]
    model = None
    for term in relax.canonical:
        status, least, model = optimum(fixed, term, False, timeout_ms)
        if status != PROVED or least is None:
            return None
        fixed.append(Tracked("canonical", term == least))
    return model
