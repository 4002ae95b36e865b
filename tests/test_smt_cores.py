"""Unsat cores that depend only on the query: :func:`~tricklaw.proofs.solver.minimal_core`
(issue 13, part 6: ``verify --smt2`` once changed a core, because Z3's cores depend on
incidental solver state)."""

from __future__ import annotations

import itertools

import z3

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
