"""The merged copy of the model: its plain Python source, rewritten so that the symbolic
executor merges states instead of forking on them.

Like :mod:`tricklaw.proofs.plain` (whose loader it reuses), this imports the model's
``.py`` sources again, under the prefix :data:`PREFIX`, as a separate, wholly
interpreted copy with its own registries (nothing in the live model changes), and
rewrites each module's tree so that the expressions below call the functions of
:mod:`tricklaw.proofs.merged` (bound in the module as ``__tl_merge__``):

* ``[e for x in s if c]``, ``{e for x in s if c}``, ``(e for x in s if c)`` with one
  ``for`` over a plain name: :func:`~tricklaw.proofs.merged.comp`;
* ``tuple(a)``, ``list(a)``, ``sum(a)``, ``len(a)``, ``any(a)``, ``all(a)``, ``set(a)``,
  ``frozenset(a)``, ``max(...)``, ``min(...)``: :func:`~tricklaw.proofs.merged.call` (the
  builtin itself unless an argument is a guarded list or a sequence holding symbolic
  values); ``a.count(x)``: :func:`~tricklaw.proofs.merged.count`;
* ``a if c else b``: :func:`~tricklaw.proofs.merged.ite`; ``a and b``, ``a or b``:
  :func:`~tricklaw.proofs.merged.boolop`; ``not a``:
  :func:`~tricklaw.proofs.merged.not_`; ``a in b``, ``a not in b``:
  :func:`~tricklaw.proofs.merged.contains`;
* ``(a, *b)``, ``[a, *b]``: :func:`display`;
* ``for x in s:`` whose body only updates names (``n op= e``) and has no ``else``:
  each update becomes ``n = accumulate(guard, lambda: n op e, n)`` over
  :func:`~tricklaw.proofs.merged.iterate` (a guarded element updates under its guard).

Every rewritten form evaluates as Python does when its operands are concrete, so the
copy is the model; see :mod:`tricklaw.proofs.merged` for what merging evaluates beyond
Python and why that is sound. :func:`clear_caches` empties the ``functools`` caches of
the copy's modules: an exploration must not leave symbolic keys in them.
"""

from __future__ import annotations

import ast
import sys
from typing import Any

from tricklaw.model.state import Game
from tricklaw.proofs import merged
from tricklaw.proofs.merged import GuardedList, is_symbolic
from tricklaw.proofs.plain import _Finder, copy_module

PREFIX = "_tricklaw_merged"
"""The package name the merged copies of the model's modules are imported under."""

HELPER = "__tl_merge__"
"""The name the rewritten code calls :mod:`tricklaw.proofs.merged` by."""

_CALLS = {"tuple", "list", "sum", "len", "any", "all", "set", "frozenset", "max", "min"}


def _helper(name: str) -> ast.expr:
    return ast.Attribute(ast.Name(HELPER, ast.Load()), name, ast.Load())


def _thunk(body: ast.expr, arg: str | None = None) -> ast.Lambda:
    params = [ast.arg(arg)] if arg else []
    return ast.Lambda(
        ast.arguments(posonlyargs=[], args=params, kwonlyargs=[], kw_defaults=[], defaults=[]),
        body,
    )


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(_helper(name), list(args), [])


class _MergeRewrite(ast.NodeTransformer):
    """Rewrites the expressions listed in the module docstring (bottom-up)."""

    def _comp(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp, kind: str) -> ast.AST:
        self.generic_visit(node)
        if len(node.generators) != 1:
            return node
        gen = node.generators[0]
        if gen.is_async or not isinstance(gen.target, ast.Name):
            return node
        name = gen.target.id
        keep: ast.expr = ast.Constant(None)
        if gen.ifs:
            test = gen.ifs[0] if len(gen.ifs) == 1 else self._boolop(True, gen.ifs)
            keep = _thunk(test, name)
        return _call("comp", ast.Constant(kind), gen.iter, _thunk(node.elt, name), keep)

    def visit_ListComp(self, node: ast.ListComp) -> ast.AST:
        return self._comp(node, "list")

    def visit_SetComp(self, node: ast.SetComp) -> ast.AST:
        return self._comp(node, "set")

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> ast.AST:
        return self._comp(node, "gen")

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (
            isinstance(node.func, ast.Name)
            and node.func.id in _CALLS
            and not node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args)
        ):
            return _call("call", node.func, *node.args)
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "count"
            and len(node.args) == 1
            and not node.keywords
            and not isinstance(node.args[0], ast.Starred)
        ):
            return _call("count", node.func.value, node.args[0])
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        return _call("ite", _thunk(node.test), _thunk(node.body), _thunk(node.orelse))

    @staticmethod
    def _boolop(is_and: bool, values: list[ast.expr]) -> ast.Call:
        return _call("boolop", ast.Constant(is_and), *[_thunk(v) for v in values])

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        return self._boolop(isinstance(node.op, ast.And), node.values)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        return _call("not_", node.operand) if isinstance(node.op, ast.Not) else node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], ast.In | ast.NotIn):
            negate = ast.Constant(isinstance(node.ops[0], ast.NotIn))
            return _call("contains", node.left, node.comparators[0], negate)
        return node

    def _display(self, node: ast.Tuple | ast.List, kind: str) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or not any(
            isinstance(e, ast.Starred) for e in node.elts
        ):
            return node
        parts = [
            ast.Tuple(
                [
                    ast.Constant(isinstance(e, ast.Starred)),
                    e.value if isinstance(e, ast.Starred) else e,
                ],
                ast.Load(),
            )
            for e in node.elts
        ]
        return ast.Call(ast.Name(f"{HELPER}_display", ast.Load()), [ast.Constant(kind), *parts], [])

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        return self._display(node, "tuple")

    def visit_List(self, node: ast.List) -> ast.AST:
        return self._display(node, "list")

    def visit_For(self, node: ast.For) -> ast.AST:
        self.generic_visit(node)
        if (
            node.orelse
            or not isinstance(node.target, ast.Name)
            or not node.body
            or not all(
                isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) for s in node.body
            )
        ):
            return node
        guard = f"{HELPER}_guard"
        body: list[ast.stmt] = []
        for s in node.body:
            assert isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name)
            name = s.target.id
            new = ast.BinOp(ast.Name(name, ast.Load()), s.op, s.value)
            update = _call(
                "accumulate", ast.Name(guard, ast.Load()), _thunk(new), ast.Name(name, ast.Load())
            )
            body.append(ast.Assign([ast.Name(name, ast.Store())], update))
        target = ast.Tuple([node.target, ast.Name(guard, ast.Store())], ast.Store())
        return ast.copy_location(ast.For(target, _call("iterate", node.iter), body, []), node)


def display(kind: str, *parts: tuple[bool, Any]) -> Any:
    """``(a, *b, ...)`` (``kind`` ``tuple`` or ``list``): each part ``(starred, value)``;
    a guarded list when a starred part is one."""
    if any(star and isinstance(v, GuardedList) for star, v in parts):
        out = GuardedList(())
        for star, v in parts:
            out = out + (v if star else (v,))
        return out
    items: list[Any] = []
    for star, v in parts:
        if star:
            items.extend(v)
        else:
            items.append(v)
    return tuple(items) if kind == "tuple" else items


def _transform(tree: ast.Module) -> ast.Module:
    out = _MergeRewrite().visit(tree)
    assert isinstance(out, ast.Module)
    return out


_FINDER = _Finder(PREFIX, _transform, {HELPER: merged, f"{HELPER}_display": display})


def compile_merged(source: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """Run ``source`` rewritten as the merged copy is, in ``namespace`` (with the
    helpers bound); the namespace (to define a function the way the copy would)."""
    tree = ast.fix_missing_locations(_transform(ast.parse(source)))
    namespace.update(_FINDER.inject)
    exec(compile(tree, "<merged>", "exec"), namespace)
    return namespace


def merged_module(name: str) -> Any:
    """The merged copy of module ``name`` (imported once)."""
    return copy_module(_FINDER, name)


def merged_ruleset(ruleset: Any) -> Any:
    """The merged copy's instance of ``ruleset`` (by its registry, else a new instance
    of the merged copy of its class)."""
    module = merged_module(type(ruleset).__module__)
    registry = merged_module("tricklaw.model.rulesets").RULESETS
    if ruleset.id in registry:
        return registry[ruleset.id]
    return getattr(module, type(ruleset).__name__)()


def merged_game(game: Game) -> Any:
    """``game`` made by the merged copy of its ruleset."""
    return merged_ruleset(game.ruleset).make_game(game.players, game.options.as_dict())


def clear_caches() -> int:
    """Empty every ``functools`` cache in the merged copy's modules; how many."""
    cleared = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith(PREFIX + "."):
            continue
        for value in list(vars(module).values()):
            for candidate in (
                (value, *vars(value).values()) if isinstance(value, type) else (value,)
            ):
                clear = getattr(candidate, "cache_clear", None)
                if callable(clear):
                    clear()
                    cleared += 1
    return cleared


__all__ = [
    "PREFIX",
    "clear_caches",
    "compile_merged",
    "display",
    "is_symbolic",
    "merged_game",
    "merged_module",
    "merged_ruleset",
]
