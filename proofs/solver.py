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

An ``unsat`` answer is a proof only when it says something about the rules. The
assertions named ``claim:...`` state the (negated) claim; the others are its
*premises*. After ``unsat``, :func:`check` asks two more questions (see
:func:`classify`):

* are the premises satisfiable on their own? If not, the claim holds of nothing
  (every claim follows from false premises): **vacuous**;
* is the claim unsatisfiable on its own (an unsat core of the claim alone)? Then it
  is true by construction, whatever the clauses say: **trivial**.

Only an ``unsat`` that is neither is **proved**. The statuses and what they mean are
listed once, in :data:`~tricklaw.proofs.statuses.STATUSES`.

Each tracked assertion is named ``CLAUSE-ID`` or ``CLAUSE-ID#k`` when one
clause contributes several; the core is reported as the set of clause ids.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import z3

from tricklaw.proofs.recorder import record
from tricklaw.proofs.statuses import (
    COUNTEREXAMPLE,
    FAIL,
    FINDING,
    HOLLOW,
    INFO,
    PASS,
    PROVED,
    STATUSES,
    TRIVIAL,
    UNKNOWN,
    VACUOUS,
)

__all__ = [
    "COUNTEREXAMPLE",
    "FAIL",
    "FINDING",
    "HOLLOW",
    "INFO",
    "PASS",
    "PROVED",
    "STATUSES",
    "TRIVIAL",
    "UNKNOWN",
    "VACUOUS",
    "Outcome",
    "Tracked",
    "check",
    "classify",
    "exactly_one",
    "fresh_context",
    "is_claim",
    "labelled",
    "minimal_core",
    "optimum",
]

def is_claim(name: str) -> bool:
    """Whether a tracked assertion's name marks it as (part of) the negated claim."""
    return name.startswith("claim:")


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
    machine: str = ""
    """For a *finding*: the detector that found it (one of ``tricklaw.spec.DETECTORS``)."""
    dispute: str = ""
    """For a *finding*: the recorded dispute it is."""


@contextmanager
def fresh_context() -> Iterator[None]:
    """Run the block in a new Z3 main context (restoring the old one after it).

    Z3's models and unsat cores depend on the terms created before a query (their
    internal ids order its search), so without this a witness could change with what
    else the process had solved: verify runs each (ruleset, player count) in a fresh
    context, and gives the same results in one process or in many."""
    saved = z3.z3._main_ctx
    z3.z3._main_ctx = z3.Context()
    try:
        yield
    finally:
        z3.z3._main_ctx = saved


def labelled(assertions: Iterable[Tracked]) -> list[tuple[str, Tracked]]:
    """Each assertion with its unique name: ``CLAUSE-ID``, then ``CLAUSE-ID#k``."""
    counts: dict[str, int] = {}
    out = []
    for item in assertions:
        k = counts.get(item.clause, 0)
        counts[item.clause] = k + 1
        out.append((item.clause if k == 0 else f"{item.clause}#{k}", item))
    return out


def _satisfiable(named: Sequence[tuple[str, z3.BoolRef]], timeout_ms: int) -> z3.CheckSatResult:
    """Z3's answer on ``named``. (Not recorded for ``verify --smt2``: the export holds the
    obligations themselves; these side queries are mostly ``sat``, on which a second
    solver needs a model, and cvc5 finds none in time for the conservation premises.)"""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*[f for _, f in named])
    return solver.check()


def classify(
    assertions: Sequence[Tracked], timeout_ms: int, claim_alone: bool = True
) -> tuple[str, str]:
    """For a set of assertions already found unsatisfiable: (PROVED, "") when the
    premises (the assertions not named ``claim:...``) are satisfiable and the claim is
    not unsatisfiable on its own; else (VACUOUS or TRIVIAL, why); (UNKNOWN, why) when
    either check does not answer in time. A set with no claim (a question about the
    premises themselves, such as two cases being disjoint) is PROVED as it stands.

    ``claim_alone=False`` skips the second test, for a claim that states the rule itself
    (such as "no outcome fits the rule"): that it holds without the other assertions is a
    theorem about the rule, not a claim true by construction."""
    named = labelled(assertions)
    claims = [(label, a.formula) for label, a in named if is_claim(a.clause)]
    premises = [(label, a.formula) for label, a in named if not is_claim(a.clause)]
    if not claims:
        return PROVED, ""
    answer = _satisfiable(premises, timeout_ms)
    if answer == z3.unsat:
        return VACUOUS, "the premises alone are unsatisfiable: the claim holds of nothing"
    if answer == z3.unknown:
        return UNKNOWN, "whether the premises are satisfiable: unknown"
    if not claim_alone:
        return PROVED, ""
    answer = _satisfiable(claims, timeout_ms)
    if answer == z3.unsat:
        return TRIVIAL, "the claim alone is unsatisfiable: true whatever the clauses say"
    if answer == z3.unknown:
        return UNKNOWN, "whether the claim holds on its own: unknown"
    return PROVED, ""


def check(
    assertions: Iterable[Tracked],
    timeout_ms: int,
    decode: Callable[[z3.ModelRef], dict[str, Any]] | None = None,
    hollow: bool = True,
    claim_alone: bool = True,
) -> Outcome:
    """Check that ``assertions`` are unsatisfiable: proved (with the core's clause
    ids), counterexample (with ``decode(model)`` as witness), or unknown.

    An ``unsat`` is then classified (:func:`classify`; ``hollow=False`` skips this for a
    caller's inner queries, such as the steps that make a core minimal): vacuous or
    trivial rather than proved when it says nothing about the rules (``claim_alone``: see
    :func:`classify`). The core reported is :func:`minimal_core`'s (deterministic and
    minimal; Z3's own when ``hollow=False``)."""
    assertions = list(assertions)
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    named = labelled(assertions)
    names = {label: item.clause for label, item in named}
    counts = {item.clause for _, item in named}
    for label, item in named:
        solver.assert_and_track(item.formula, z3.Bool(label))
    start = time.perf_counter()
    answer = solver.check()
    seconds = time.perf_counter() - start
    record([(label, item.formula) for label, item in named], answer)
    if answer == z3.unsat:
        found = {str(b) for b in solver.unsat_core()}
        if hollow:
            pairs = [(label, item.formula) for label, item in named]
            found = minimal_core(pairs, found, timeout_ms)
        core = sorted({names[label] for label in found})
        status, why = classify(assertions, timeout_ms, claim_alone) if hollow else (PROVED, "")
        seconds = time.perf_counter() - start
        return Outcome(status, seconds, tuple(core), detail=why)
    if answer == z3.sat:
        witness = decode(solver.model()) if decode else {}
        return Outcome(COUNTEREXAMPLE, seconds, tuple(sorted(counts)), witness)
    return Outcome(UNKNOWN, seconds, tuple(sorted(counts)), detail=solver.reason_unknown())


def minimal_core(
    named: Sequence[tuple[str, z3.BoolRef]], core: set[str], timeout_ms: int
) -> set[str]:
    """The unsat core of the unsatisfiable ``named`` assertions that depends on nothing but
    their meaning and order: the core that deletion from the whole set, last assertion
    first, keeps (each assertion is dropped when the rest stay unsatisfiable), so every
    assertion of the result is needed, and of the ways to a contradiction the one of the
    earliest assertions is kept (the first illegal play of a worked example, say).

    The same core, found by cheaper checks: the last assertion deletion keeps is the
    first ``a_j`` at which the prefix ``a_0 .. a_j`` is unsatisfiable (every later one is
    dropped, and ``a_j`` is not); the next is the first at which the prefix with ``a_j``
    is, and so on until the kept ones alone are unsatisfiable. Each is found by bisection
    over the prefixes, and every core Z3 returns on the way (which lies within the set it
    was asked about) ends the search range at its last prefix assertion, since that
    shorter prefix is unsatisfiable too. Z3's cores only narrow the search; the result
    is what the deletion answers (tested against it). The checks are more, but of
    shorter prefixes, which Z3 answers much faster: Hund's 5-player colour-renaming
    symmetry (61 cores of 18 assertions) took 776 checks in 45.9 s by deletion and takes
    1,531 checks in 31.0 s here. A check that does not answer in time counts as
    satisfiable, so its assertion is kept, as deletion keeps one.

    Z3's cores are not minimal, and which one it returns depends on incidental state (the
    terms made before, and even memory touched in other contexts: writing a query as
    SMT-LIB text changed one core of verify); this one is the same in every run."""
    labels = [label for label, _ in named]
    solver = z3.Solver()  # one solver: each assertion guarded, subsets checked by assumptions
    solver.set("timeout", timeout_ms)
    guards = [z3.Bool(f"core!{label}") for label in labels]
    solver.add(*[z3.Implies(g, f) for g, (_, f) in zip(guards, named, strict=True)])
    position = {str(g): i for i, g in enumerate(guards)}
    kept: list[int] = []

    def prefix_bound(j: int) -> int | None:
        """None if the kept assertions with the prefix up to ``j`` are satisfiable (or
        undecided); else the last prefix position of a core of them (-1: none)."""
        if solver.check(*[guards[i] for i in kept], *guards[: j + 1]) != z3.unsat:
            return None
        found = (position[str(g)] for g in solver.unsat_core())
        return max((i for i in found if i <= j), default=-1)

    high = max((i for i, label in enumerate(labels) if label in core), default=len(labels) - 1)
    while high >= 0:
        low = -1  # the first unsatisfiable prefix lies in low..high; high's is unsatisfiable
        while low < high:
            middle = (low + high) // 2
            bound = prefix_bound(middle)
            if bound is None:
                low = middle + 1
            else:
                high = bound
        if high < 0:
            break  # the kept assertions alone are unsatisfiable
        kept.append(high)
        high -= 1
    return {labels[i] for i in kept}


def optimum(
    assertions: Sequence[Tracked],
    objective: z3.ArithRef,
    maximize: bool,
    timeout_ms: int,
) -> tuple[str, int | None, z3.ModelRef | None]:
    """The exact optimum of ``objective`` under ``assertions``: (PROVED, value, a model
    reaching it) when every check answers within ``timeout_ms`` in all; (VACUOUS, None,
    None) when the assertions are unsatisfiable (there is nothing to optimise); else
    (UNKNOWN, None, None).

    A search by satisfiability checks: any model gives a first value; steps beyond the
    best value found, doubling, until one is unsatisfiable; then bisection. (This
    replaced ``z3.Optimize``, whose time on some of these instances varied a
    thousandfold with the solver's random state: the relaxation of The Last at four
    players took from 0.006 s to over 5 s, depending on what Z3 had solved before,
    while each check here takes milliseconds.)"""
    deadline = time.perf_counter() + timeout_ms / 1000
    solver = z3.Solver()
    named = [(label, item.formula) for label, item in labelled(assertions)]
    for _, formula in named:
        solver.add(formula)
    sign = 1 if maximize else -1
    goal = objective if maximize else -objective

    def reaching(bound: int | None) -> z3.ModelRef | None:
        """A model with ``goal >= bound`` (any model for None), None if there is none;
        raises TimeoutError when the check does not answer in the time left."""
        left = int((deadline - time.perf_counter()) * 1000)
        if left <= 0:
            raise TimeoutError
        solver.push()
        solver.set("timeout", left)
        extra = [] if bound is None else [("objective:at-least", goal >= bound)]
        solver.add(*[formula for _, formula in extra])
        answer = solver.check()
        record([*named, *extra], answer)
        model = solver.model() if answer == z3.sat else None
        solver.pop()
        if answer == z3.unknown:
            raise TimeoutError
        return model

    def value(model: z3.ModelRef) -> int:
        found = model.eval(goal, model_completion=True)
        if not z3.is_int_value(found):  # never a made-up value: the search would be unsound
            raise TypeError(f"the objective evaluates to {found}, not an integer")
        return int(found.as_long())

    try:
        best_model = reaching(None)
        if best_model is None:
            return VACUOUS, None, None
        best, step, beyond = value(best_model), 1, None
        while beyond is None:
            model = reaching(best + step)
            if model is None:
                beyond = best + step
            else:
                best_model, best, step = model, value(model), step * 2
        while beyond - best > 1:
            middle = (best + beyond) // 2
            model = reaching(middle)
            if model is None:
                beyond = middle
            else:
                best_model, best = model, value(model)
    except TimeoutError:
        return UNKNOWN, None, None
    return PROVED, sign * best, best_model


def exactly_one(flags: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """Exactly one of ``flags`` holds: Z3's pseudo-boolean ``PbEq``, which the SMT-LIB
    writer (:mod:`~tricklaw.proofs.smt2`) restates as a sum of ``ite``. (Stated as that
    sum here, Z3 took 2.5 times as long over the conservation proofs, 5.2 s of CPU
    against 2.0 s; stated pairwise, 3.7 times.)"""
    return z3.PbEq([(f, 1) for f in flags], 1)
