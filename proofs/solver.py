"""Running Z3 with every assertion tracked by a clause id, and reporting honestly.

An :class:`Obligation` is a claim stated as "these assertions together are
unsatisfiable": the clauses (and the negated claim) go in as tracked
assertions, so that

* ``unsat`` means the claim is **proved**, and the unsat core names the clause
  ids it rests on;
* ``sat`` means a **counterexample**: Z3's model, decoded by the caller into
  a trick or a state, shows where the claim fails;
* ``unknown`` (a time-out or an incomplete theory) is reported as
  **unknown**, never as proved.

Each tracked assertion is named ``CLAUSE-ID`` or ``CLAUSE-ID#k`` when one
clause contributes several; the core is reported as the set of clause ids.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

PROVED = "proved"
COUNTEREXAMPLE = "counterexample"
UNKNOWN = "unknown"
FINDING = "finding"
"""A counterexample the project expects: a recorded dispute, reported with its witness."""


@dataclass(frozen=True, slots=True)
class Tracked:
    """An assertion and the clause id (or obligation name) it stands for."""

    clause: str
    formula: z3.BoolRef


@dataclass
class Outcome:
    """What running one obligation gave."""

    status: str
    seconds: float
    clauses: tuple[str, ...] = ()
    witness: dict[str, Any] = field(default_factory=dict)
    detail: str = ""


def check(
    assertions: Iterable[Tracked],
    timeout_ms: int,
    decode: Callable[[z3.ModelRef], dict[str, Any]] | None = None,
) -> Outcome:
    """Check that ``assertions`` are unsatisfiable: proved (with the core's clause
    ids), counterexample (with ``decode(model)`` as witness), or unknown."""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    names: dict[str, str] = {}
    counts: dict[str, int] = {}
    for item in assertions:
        k = counts.get(item.clause, 0)
        counts[item.clause] = k + 1
        label = item.clause if k == 0 else f"{item.clause}#{k}"
        names[label] = item.clause
        solver.assert_and_track(item.formula, z3.Bool(label))
    start = time.perf_counter()
    answer = solver.check()
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        core = sorted({names[str(b)] for b in solver.unsat_core()})
        return Outcome(PROVED, seconds, tuple(core))
    if answer == z3.sat:
        witness = decode(solver.model()) if decode else {}
        return Outcome(COUNTEREXAMPLE, seconds, tuple(sorted(counts)), witness)
    return Outcome(UNKNOWN, seconds, tuple(sorted(counts)), detail=solver.reason_unknown())


def optimum(
    assertions: Sequence[Tracked],
    objective: z3.ArithRef,
    maximize: bool,
    timeout_ms: int,
) -> tuple[str, int | None, z3.ModelRef | None]:
    """The exact optimum of ``objective`` under ``assertions`` with ``z3.Optimize``:
    (PROVED, value, model) when Z3 closes it, else (UNKNOWN, None, None)."""
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    for item in assertions:
        opt.add(item.formula)
    handle = opt.maximize(objective) if maximize else opt.minimize(objective)
    if opt.check() != z3.sat:
        return UNKNOWN, None, None
    value = opt.upper(handle) if maximize else opt.lower(handle)
    if not z3.is_int_value(value):
        return UNKNOWN, None, None
    return PROVED, value.as_long(), opt.model()


def exactly_one(flags: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """Exactly one of ``flags`` holds."""
    return z3.PbEq([(f, 1) for f in flags], 1)
