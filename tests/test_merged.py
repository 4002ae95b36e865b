"""The merged values (tricklaw.proofs.merged) against concrete execution: every term a
guarded list, an ite or a merged test gives, evaluated on a concrete input, is what
Python computes on the concrete values; and a filter forks once, not 2**k times."""

from __future__ import annotations

from typing import Any

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from tier import examples

from tricklaw.proofs import merge_rewrite, merged, symbolic
from tricklaw.proofs.symbolic import Sym, SymBool
from tricklaw.proofs.symbolic_terms import const, evaluate, make

Case = tuple[list[int], list[int]]
cases = st.integers(0, 10).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(-5, 40), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
    )
)


def _guards(n: int) -> list[Any]:
    return [make("!=", ("v", f"g{i}"), const(0)) for i in range(n)]


def _env(bits: list[int], **more: int) -> dict[str, int]:
    return {f"g{i}": b for i, b in enumerate(bits)} | more


def _value(x: Any, env: dict[str, int]) -> Any:
    if isinstance(x, Sym | SymBool):
        return evaluate(x.term, env)
    return x


@settings(max_examples=examples(200), deadline=None)
@given(cases, st.integers(-5, 40))
def test_a_guarded_lists_terms_are_pythons_answers(case: Case, probe: int) -> None:
    xs, bits = case
    gl = merged.GuardedList.of(xs, _guards(len(xs)))
    env = _env(bits)
    present = [x for x, b in zip(xs, bits, strict=True) if b]
    assert _value(gl.size(), env) == len(present)
    assert _value(merged.call(sum, gl), env) == sum(present)
    assert _value(merged.call(len, gl), env) == len(present)
    assert bool(evaluate(gl.nonempty(), env)) == bool(present)
    assert bool(evaluate(gl.has(probe), env)) == (probe in present)
    assert _value(gl.count(probe), env) == present.count(probe)
    assert bool(_value(merged.call(any, merged.comp("gen", gl, lambda x: x > probe)), env)) == any(
        x > probe for x in present
    )
    assert bool(_value(merged.call(all, merged.comp("gen", gl, lambda x: x > probe)), env)) == all(
        x > probe for x in present
    )
    assert bool(_value(merged.contains(probe, gl, negate=True), env)) == (probe not in present)


@settings(max_examples=examples(200), deadline=None)
@given(cases, st.integers(-5, 40))
def test_a_filter_over_a_guarded_list_is_the_filtered_list(case: Case, probe: int) -> None:
    xs, bits = case
    gl = merged.GuardedList.of(xs, _guards(len(xs)))
    lead = symbolic.variable("lead")
    env = _env(bits, lead=probe)
    out = merged.comp("list", gl, lambda x: x * 2, lambda x: lead <= x)
    want = [x * 2 for x, b in zip(xs, bits, strict=True) if b and probe <= x]
    items = out.items if isinstance(out, merged.GuardedList) else [(x, const(True)) for x in out]
    got = [_value(e, env) for e, g in items if evaluate(g, env)]
    assert got == want


@pytest.mark.slow
@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(0, 4), max_size=6), st.lists(st.integers(0, 1), max_size=6))
def test_a_merged_set_of_symbolic_values_counts_each_value_once(
    values: list[int], bits: list[int]
) -> None:
    n = min(len(values), len(bits))
    elements = [symbolic.variable(f"e{i}") for i in range(n)]
    gl = merged.GuardedList.of(elements, _guards(n))
    out = merged.comp("set", gl, lambda x: x)
    env = _env(bits[:n], **{f"e{i}": v for i, v in enumerate(values[:n])})
    present = {v for v, b in zip(values[:n], bits[:n], strict=True) if b}
    size = out.size() if isinstance(out, merged.GuardedList) else len(out)
    assert _value(size, env) == len(present)
    for probe in range(5):
        member = merged.contains(probe, out)
        assert bool(_value(member, env)) == (probe in present)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(-3, 3), st.integers(-9, 9), st.integers(-9, 9), st.booleans())
def test_ite_boolop_and_not_are_pythons(c: int, a: int, b: int, flag: bool) -> None:
    x = symbolic.variable("x")
    env = {"x": c}
    assert _value(merged.ite(lambda: x > 0, lambda: x + a, lambda: b), env) == (
        c + a if c > 0 else b
    )
    assert bool(_value(merged.boolop(True, lambda: x > a, lambda: flag), env)) == (c > a and flag)
    assert bool(_value(merged.boolop(False, lambda: x == a, lambda: x == b), env)) == (c in (a, b))
    assert bool(_value(merged.not_(x < b), env)) == (not c < b)
    assert bool(_value(merged.contains(x, (a, b)), env)) == (c in (a, b))
    total = merged.accumulate(make("<", ("v", "x"), const(0)), lambda: x * 0 + a + b, a)
    assert _value(total, env) == (a + b if c < 0 else a)


def test_concrete_operands_take_pythons_own_path() -> None:
    assert merged.comp("list", [1, 2, 3], lambda x: x, lambda x: x > 1) == [2, 3]
    assert merged.comp("set", [1, 1, 2], lambda x: x) == {1, 2}
    assert merged.ite(lambda: 0, lambda: 1 // 0, lambda: "no") == "no"  # the arm not taken
    assert merged.boolop(False, lambda: 1, lambda: 1 // 0) == 1  # short-circuit kept
    assert merged.call(tuple, [1, 2]) == (1, 2)


def test_a_filter_forks_once_not_once_per_card() -> None:
    cards = list(range(12))
    names = [f"g{i}" for i in range(12)]
    domain = [z3.And(z3.Int(n) >= 0, z3.Int(n) <= 1) for n in names]
    domain += [z3.And(z3.Int("lead") >= 0, z3.Int("lead") < 3)]
    space = merge_rewrite.compile_merged(
        "def playable(hand, lead):\n"
        "    return tuple([c for c in hand if c % 3 == lead]) or tuple(hand)\n",
        {},
    )

    def run() -> Any:
        hand = merged.GuardedList.of(cards, _guards(12))
        return space["playable"](hand, symbolic.variable("lead"))

    found = symbolic.Explorer(domain, [*names, "lead"]).explore(run)
    assert len(found.paths) == 2 and not found.uncovered  # plain Python: 2**12 and more


@pytest.mark.slow
def test_the_z3_term_cache_has_a_short_repr() -> None:
    """Sphinx's autodoc takes the repr of every module member it considers; the repr of
    the cache of Z3 terms the docs' proofs fill took minutes of the docs build."""
    from tricklaw.proofs import symbolic_terms

    for k in range(2_000):
        assert str(symbolic_terms.to_z3(make("+", ("v", f"x{k}"), const(k))))  # now cached
    assert len(symbolic_terms._Z3_CACHE) >= 2_000
    assert len(repr(symbolic_terms._Z3_CACHE)) < 80
