"""Z3's C API called directly on the hot paths of the symbolic executor and the path proofs.

The executor (:mod:`tricklaw.proofs.symbolic`) and the walk that proves its paths
(:func:`tricklaw.proofs.equivalence.prove_paths`) make hundreds of thousands of solver
calls in one ``verify``: a push, an assertion, a check, a pop, a model's values. The Z3
Python API wraps each call in argument checks and reference-counted wrapper objects,
which cost several times what Z3 itself spends on these small queries. The functions here
make **the same C calls, with the same arguments, in the same order** (so Z3 answers and
chooses its models exactly as before), without those wrappers: where a wrapper would have
converted or rejected an argument (a Python ``bool``, an expression of another sort or
context), they leave the call to the Python API, which converts or raises as it always did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3
from z3 import z3core


def push(solver: z3.Solver) -> None:
    """``solver.push()``."""
    z3core.Z3_solver_push(solver.ctx.ref(), solver.solver)


def pop(solver: z3.Solver, scopes: int = 1) -> None:
    """``solver.pop(scopes)``."""
    z3core.Z3_solver_pop(solver.ctx.ref(), solver.solver, scopes)


def add(solver: z3.Solver, formula: z3.BoolRef) -> None:
    """``solver.add(formula)`` for one formula: a Boolean expression of the solver's
    context is asserted as it is (what ``add`` does after its checks); anything else goes
    through ``add`` itself."""
    if isinstance(formula, z3.BoolRef) and formula.ctx is solver.ctx:
        z3core.Z3_solver_assert(solver.ctx.ref(), solver.solver, formula.ast)
    else:
        solver.add(formula)


class ModelValues:
    """The values of integer constants in the model of a solver's last ``sat`` check, as
    ``model.eval(x, model_completion=True).as_long()`` gives them: each constant's
    interpretation read from the model when it is an integer numeral; any other case (a
    constant the model leaves out, which model completion would fill in) through the
    Python API's own ``eval``."""

    def __init__(self, constants: Sequence[z3.ArithRef]) -> None:
        self.constants = list(constants)
        self._decls = [c.decl() for c in self.constants]
        """Held so that their C objects live as long as this reader."""

    def read(self, solver: z3.Solver) -> list[int]:
        """The values of the constants in ``solver``'s model (one ``get_model`` call)."""
        ctx = solver.ctx.ref()
        model = z3core.Z3_solver_get_model(ctx, solver.solver)
        z3core.Z3_model_inc_ref(ctx, model)
        try:
            out: list[int] = []
            for constant, decl in zip(self.constants, self._decls, strict=True):
                value = z3core.Z3_model_get_const_interp(ctx, model, decl.ast)
                absent = value is None or getattr(value, "value", 0) is None
                if absent or not z3core.Z3_is_numeral_ast(ctx, value):
                    out.append(self._evaluated(solver, constant))
                else:
                    out.append(int(z3core.Z3_get_numeral_string(ctx, value)))
            return out
        finally:
            z3core.Z3_model_dec_ref(ctx, model)

    @staticmethod
    def _evaluated(solver: z3.Solver, constant: z3.ArithRef) -> int:
        """The Python API's value of ``constant`` in ``solver``'s model."""
        value: int = solver.model().eval(constant, model_completion=True).as_long()
        return value


def any_differs(pairs: Sequence[tuple[z3.ExprRef, z3.ExprRef]]) -> z3.BoolRef:
    """``z3.Or(*[a != b for a, b in pairs])``: each ``a != b`` is Z3's ``distinct`` of the
    two (as the ``!=`` operator makes it) when they are expressions of one sort and one
    context, and the ``Or`` of those. Pairs of other kinds (a Python number, two sorts)
    are left to the operators, which convert them as they always did."""
    if not pairs:
        return z3.Or()
    ctx = pairs[0][0].ctx
    ref = ctx.ref()
    terms: list[Any] = []
    for a, b in pairs:
        if (
            isinstance(a, z3.ExprRef)
            and isinstance(b, z3.ExprRef)
            and a.ctx is ctx
            and b.ctx is ctx
            and z3core.Z3_is_eq_sort(
                ref, z3core.Z3_get_sort(ref, a.ast), z3core.Z3_get_sort(ref, b.ast)
            )
        ):
            args = (z3core.Ast * 2)(a.ast, b.ast)
            terms.append(z3.BoolRef(z3core.Z3_mk_distinct(ref, 2, args), ctx))
        else:
            terms.append(a != b)
    if not all(isinstance(t, z3.BoolRef) and t.ctx is ctx for t in terms):
        return z3.Or(*terms)
    array = (z3core.Ast * len(terms))(*[t.ast for t in terms])
    return z3.BoolRef(z3core.Z3_mk_or(ref, len(terms), array), ctx)
