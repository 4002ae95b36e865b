"""Unsat cores that depend only on the query: :func:`~tricklaw.proofs.solver.minimal_core`
(issue 13, part 6: ``verify --smt2`` once changed a core, because Z3's cores depend on
incidental solver state)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from tricklaw.proofs.solver import PROVED, Tracked, check, minimal_core


def _named() -> list[tuple[str, z3.BoolRef]]:
    """Two ways to a contradiction (A+B and C+D), and E, needed by neither."""
    x, y = z3.Ints("x y")
    return [
        ("A", x > 5),
        ("B", x < 3),
        ("C", y > 5),
        ("D", y < 3),
        ("E", x + y > -100),
    ]


def _unsat(formulas: list[z3.BoolRef]) -> bool:
    solver = z3.Solver()
    solver.add(*formulas)
    return bool(solver.check() == z3.unsat)


def test_the_core_is_the_same_whatever_core_z3_hints() -> None:
    """Every unsatisfiable subset as Z3's hint gives the one core, and it is minimal."""
    named = _named()
    formulas = dict(named)
    hints = [
        set(s)
        for k in range(1, 6)
        for s in itertools.combinations(formulas, k)
        if _unsat([formulas[n] for n in s])
    ]
    assert len(hints) > 4
    cores = {frozenset(minimal_core(named, hint, 5000)) for hint in hints}
    assert cores == {frozenset({"A", "B"})}  # deletion from the last: the earliest way kept
    core = next(iter(cores))
    assert _unsat([formulas[n] for n in core])
    for n in core:
        assert not _unsat([formulas[m] for m in core if m != n])


def test_check_reports_the_minimal_core_in_the_order_given() -> None:
    named = _named()
    out = check([Tracked(n, f) for n, f in named], 5000, hollow=True, claim_alone=False)
    assert out.status == PROVED and out.clauses == ("A", "B")
    turned = [Tracked(n, f) for n, f in [named[2], named[3], named[0], named[1], named[4]]]
    assert check(turned, 5000).clauses == ("C", "D")


def _deletion_core(named: list[tuple[str, z3.BoolRef]]) -> set[str]:
    """The reference: deletion from the whole set, last assertion first, one check each."""
    kept = [label for label, _ in named]
    formulas = dict(named)
    for label, _ in reversed(named):
        rest = [x for x in kept if x != label]
        if _unsat([formulas[x] for x in rest]):
            kept = rest
    return set(kept)


BOUNDS = st.lists(
    st.tuples(st.sampled_from("xyz"), st.sampled_from("<>"), st.integers(-3, 3)),
    min_size=2,
    max_size=12,
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(bounds=BOUNDS)
def test_the_bisection_keeps_the_core_deletion_keeps(bounds: Any) -> None:
    """:func:`minimal_core` finds its core by bisection over prefixes, steered by Z3's
    cores; on random sets of bounds it returns exactly the core of plain deletion (one
    check per assertion, last first), whatever unsatisfiable subset is given as the hint."""
    ints = {n: z3.Int(n) for n in "xyz"}
    named = [
        (f"A{i}", ints[v] < k if op == "<" else ints[v] > k) for i, (v, op, k) in enumerate(bounds)
    ]
    if not _unsat([f for _, f in named]):
        return
    solver = z3.Solver()
    for label, f in named:
        solver.assert_and_track(f, z3.Bool(label))
    assert solver.check() == z3.unsat
    z3_core = {str(b) for b in solver.unsat_core()}
    expected = _deletion_core(named)
    assert minimal_core(named, z3_core, 5000) == expected
    assert minimal_core(named, {label for label, _ in named}, 5000) == expected
    assert minimal_core(named, set(), 5000) == expected
