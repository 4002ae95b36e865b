"""The terms of the symbolic executor (:mod:`tricklaw.proofs.symbolic`): hashable tuples,
folded when constant, evaluated on a concrete input, and made Z3 expressions (once each)
only when a solver needs them.

A term is ``("v", name)`` a variable, ``("k", n)`` a constant, or ``(op, *arguments)``
with op one of ``+ - * neg div mod ite`` (integers) and ``== != < <= not and or``
(truth values). Building tuples is cheap; the same term built again on a replayed path
hits the cache of Z3 expressions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

Term = tuple[Any, ...]
TRUE: Term = ("k", True)
FALSE: Term = ("k", False)


def const(n: int | bool) -> Term:
    """The constant ``n``."""
    return ("k", n)


def _is_const(t: Term) -> bool:
    return bool(t[0] == "k")


_ARITH: dict[str, Callable[..., Any]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "neg": lambda a: -a,
    "div": lambda a, b: a // b,
    "mod": lambda a, b: a % b,
    "ite": lambda c, a, b: a if c else b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    "not": lambda a: not a,
    "and": lambda a, b: a and b,
    "or": lambda a, b: a or b,
}
"""Each operation on concrete values: Python's own (``div``/``mod`` by a positive
constant only, where Python's floor semantics are Z3's)."""


def make(op: str, *args: Term) -> Term:
    """The term ``op(args)``, folded when every argument is a constant, and the
    comparisons of a term with itself decided."""
    if all(_is_const(a) for a in args):
        return ("k", _ARITH[op](*[a[1] for a in args]))
    if len(args) == 2 and args[0] == args[1] and op in ("==", "!=", "<", "<="):
        return TRUE if op in ("==", "<=") else FALSE
    if op == "not" and args[0][0] == "not":
        return args[0][1]  # type: ignore[no-any-return]
    return (op, *args)


def evaluate(t: Term, env: dict[str, int]) -> Any:
    """The value of ``t`` when each variable has its value in ``env``."""
    op = t[0]
    if op == "k":
        return t[1]
    if op == "v":
        return env[t[1]]
    return _ARITH[op](*[evaluate(a, env) for a in t[1:]])


class _Z3Cache(dict[Term, Any]):
    """Terms to their Z3 expressions, with a repr that only counts them: Sphinx's autodoc
    takes the repr of every module member it considers, and the repr of the thousands of
    Z3 terms the docs' own proofs leave here took minutes of the docs build."""

    def __repr__(self) -> str:
        return f"<{len(self)} terms cached as Z3 expressions>"


_Z3_CACHE = _Z3Cache()
_CACHE_CONTEXT: list[z3.Context] = []
"""The Z3 context the cache's expressions belong to (verify runs each unit in a fresh
one: the cache is emptied when the context changes)."""


def to_z3(t: Term) -> Any:
    """``t`` as a Z3 expression (cached)."""
    op = t[0]
    if op == "k":  # not cached: ("k", 1) == ("k", True), yet one is an Int, one a Bool
        return z3.BoolVal(t[1]) if isinstance(t[1], bool) else z3.IntVal(t[1])
    if not _CACHE_CONTEXT or _CACHE_CONTEXT[0] is not z3.main_ctx():
        _Z3_CACHE.clear()
        _CACHE_CONTEXT[:] = [z3.main_ctx()]
    hit = _Z3_CACHE.get(t)
    if hit is not None:
        return hit
    if op == "v":
        out: Any = z3.Int(t[1])
    else:
        a = [to_z3(x) for x in t[1:]]
        if op == "div":
            out = a[0] / a[1]
        elif op == "mod":
            out = a[0] % a[1]
        elif op == "neg":
            out = -a[0]
        elif op == "ite":
            out = z3.If(a[0], a[1], a[2])
        elif op == "not":
            out = z3.Not(a[0])
        elif op == "and":
            out = z3.And(a[0], a[1])
        elif op == "or":
            out = z3.Or(a[0], a[1])
        else:
            out = _ARITH[op](a[0], a[1])
    if len(_Z3_CACHE) > 500_000:
        _Z3_CACHE.clear()
    _Z3_CACHE[t] = out
    return out
