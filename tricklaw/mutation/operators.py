"""The mutation operators: where in a rule function (or a rule table) a bug is planted,
and what replaces the node there. :mod:`tricklaw.mutation.mutants` turns each
replacement into a patch. Each operator plants one kind of bug a real engine has:

* ``cmp-boundary``: ``<`` <-> ``<=``, ``>`` <-> ``>=`` (a threshold off by one, a tie
  won by the other card);
* ``cmp-negate``: a comparison negated (``==`` <-> ``!=``, ``in`` <-> ``not in``, ...);
* ``cmp-swap``: ``<`` <-> ``>``, ``<=`` <-> ``>=`` (highest for lowest);
* ``bool-swap``: ``and`` <-> ``or``;
* ``cond-negate``: the test of an ``if``, a conditional expression or a ``while``
  negated (a reading's branch swapped);
* ``not-drop``: a ``not`` removed;
* ``const-shift``: an integer constant plus or minus one (a count, a threshold, a
  player number; constants of the card encoding, operands of ``&``, ``>>`` and ``<<``,
  are representation, not rules, and are left alone);
* ``index-shift``: a constant index or slice bound plus or minus one (the wrong card);
* ``bool-const``: ``True`` <-> ``False``;
* ``minmax-swap``: ``min`` <-> ``max`` (a reversed tie rule);
* ``neg-drop``: a unary minus removed (a sort key's tie order reversed);
* ``arith-swap``: ``+`` <-> ``-``;
* ``name-swap`` (:func:`name_swaps`): one side of a two-sided comparison reads the other
  side's local variable, one the function reads in that place elsewhere (``value >
  best_off`` -> ``value > value``, ``up == card`` -> ``card == card``: the wrong card, a
  card compared with itself);
* ``reading-swap`` (:func:`reading_swaps`): a reading's name that a rule compares with
  (``follow == "free"``) replaced by another reading of the same option (``follow ==
  "must-follow"``: a reading implemented as another); only for options of three readings
  or more, since with two the swap is ``cmp-negate``'s bug;
* ``case-drop`` (:func:`case_drops`): a rule's special case left out: the test of an
  ``if`` or of a conditional expression made ``False``, so that the case never applies
  (the zero that may not win, the ghost's own rule); an ``if`` whose body ends in
  ``raise`` is an input check, not a case, and is left alone;
* ``table-shift`` (:func:`table_numbers`): a number of a module-level rule table plus or
  minus one (an upper-case name bound to an integer or to a tuple, list or dict of
  integers: a hand size by player count, a deck's top value, a round count, a seat
  number; dict keys are left alone). The rule functions read these, so a wrong entry is
  a rule bug too, one that may matter at one player count only.

The first twelve are :func:`variants` of one node. Type annotations, f-strings,
docstrings and ``raise`` statements (what a bad input is told, not a rule) are left alone
(:func:`body_nodes`).

Hand-written: mutmut and cosmic-ray plant mutants across whole modules and judge them by
a test command; here only rule functions and rule tables are mutated, the judge is
verify, and each mutant is a patch with a stable id, the form a held-back set takes too.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator, Mapping

Parents = dict[ast.AST, ast.AST]
"""Child -> parent within a function's body."""

_BOUNDARY = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
_NEGATE = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_SWAP = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}
_ENCODING_OPS = (ast.BitAnd, ast.RShift, ast.LShift, ast.BitOr)


def variants(node: ast.AST, parents: Parents) -> Iterator[tuple[str, ast.expr]]:
    """(operator, replacement) for each mutation of the expression ``node``."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            for name, table in (
                ("cmp-boundary", _BOUNDARY),
                ("cmp-negate", _NEGATE),
                ("cmp-swap", _SWAP),
            ):
                if type(op) in table:
                    new = copy.deepcopy(node)
                    new.ops[i] = table[type(op)]()
                    yield name, new
    elif isinstance(node, ast.BoolOp):
        new_op: ast.boolop = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield "bool-swap", ast.BoolOp(new_op, copy.deepcopy(node.values))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "not-drop", copy.deepcopy(node.operand)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        if not isinstance(node.operand, ast.Constant):
            yield "neg-drop", copy.deepcopy(node.operand)
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        yield "bool-const", ast.Constant(not node.value)
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        parent = parents.get(node)
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, _ENCODING_OPS):
            return
        if isinstance(parent, ast.UnaryOp):
            return  # -1 and the like: the unary node is the constant
        indexing = isinstance(parent, ast.Slice) or (
            isinstance(parent, ast.Subscript) and parent.slice is node
        )
        name = "index-shift" if indexing else "const-shift"
        for delta in (1, -1):
            yield name, ast.Constant(node.value + delta)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        swap = {"min": "max", "max": "min"}.get(node.func.id)
        if swap:
            new_call = copy.deepcopy(node)
            new_call.func = ast.Name(swap, ast.Load())
            yield "minmax-swap", new_call
    elif (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Add | ast.Sub)
        and not any(_sequence(side) for side in (node.left, node.right))
    ):
        new_bin = copy.deepcopy(node)
        new_bin.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
        yield "arith-swap", new_bin
    if (
        isinstance(parents.get(node), ast.If | ast.IfExp | ast.While)
        and getattr(parents[node], "test", None) is node
    ):
        negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
        covered = (
            isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _NEGATE
        )  # cmp-negate plants the same bug
        if not (negated or covered):
            yield "cond-negate", ast.UnaryOp(ast.Not(), copy.deepcopy(node))


def _sequence(node: ast.expr) -> bool:
    """Whether ``node`` is plainly a sequence (``+`` there joins, a ``-`` would only crash)."""
    return isinstance(node, ast.Tuple | ast.List | ast.ListComp | ast.JoinedStr) or (
        isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice)
    )


def body_parents(fn: ast.FunctionDef) -> Parents:
    """Child -> parent within ``fn``'s body (its statements, not its signature)."""
    return {c: p for stmt in fn.body for p in ast.walk(stmt) for c in ast.iter_child_nodes(p)}


def body_nodes(fn: ast.FunctionDef) -> Iterator[ast.AST]:
    """The nodes of ``fn``'s body a mutant may replace: less annotations, f-strings,
    ``raise`` statements and docstrings."""
    skip: set[int] = set()
    for stmt in fn.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.AnnAssign):
                skip.update(id(n) for n in ast.walk(node.annotation))
            if isinstance(node, ast.JoinedStr):
                skip.update(id(n) for n in ast.walk(node))
            if isinstance(node, ast.Raise):
                skip.update(id(n) for n in ast.walk(node))  # an error's wording, not a rule
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                skip.add(id(node.value))  # a docstring
    for stmt in fn.body:
        for node in ast.walk(stmt):
            if id(node) not in skip and hasattr(node, "end_col_offset"):
                yield node


def _local_names(fn: ast.FunctionDef) -> set[str]:
    """The names ``fn`` binds: its parameters (less ``self`` and ``cls``) and every name
    it assigns, loop and comprehension variables included."""
    args = fn.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    out = {a.arg for a in params if a is not None} - {"self", "cls"}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
    return out


def _read(side: ast.expr, names: set[str]) -> set[str]:
    """The local ``names`` that the expression ``side`` reads."""
    return {
        n.id
        for n in ast.walk(side)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names
    }


def _roles(fn: ast.FunctionDef, parents: Parents) -> dict[str, set[str]]:
    """Local name -> the places ``fn``'s body reads it in (:func:`_role`)."""
    out: dict[str, set[str]] = {}
    for node in parents:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            out.setdefault(node.id, set()).add(_role(node, parents))
    return out


def _role(node: ast.Name, parents: Parents) -> str:
    """Where ``node`` is read: its parent's kind and field (an attribute read by its
    name, an argument by its function and position, a container searched by ``in``;
    both sides of any other comparison alike), a type's stand-in: a swap that puts a
    name where the function never reads it would mostly plant a crash, not a rule bug."""
    parent = parents.get(node)
    if isinstance(parent, ast.Attribute):
        return f"attribute {parent.attr}"
    if isinstance(parent, ast.Compare):
        at = [parent.left, *parent.comparators].index(node)
        container = at > 0 and isinstance(parent.ops[at - 1], ast.In | ast.NotIn)
        return "container" if container else "compared"
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and node in parent.args:
        return f"argument {parent.args.index(node)} of {parent.func.id}"
    for field, value in ast.iter_fields(parent) if parent is not None else ():
        if value is node or (isinstance(value, list) and any(v is node for v in value)):
            return f"{type(parent).__name__}.{field}"
    return "other"


def _renamed(side: ast.expr, old: str, new: str) -> ast.expr:
    """``side`` with every read of ``old`` reading ``new``."""
    out = copy.deepcopy(side)
    for n in ast.walk(out):
        if isinstance(n, ast.Name) and n.id == old:
            n.id = new
    return out


def name_swaps(fn: ast.FunctionDef, parents: Parents) -> Iterator[tuple[ast.Compare, ast.Compare]]:
    """(comparison, mutant) for ``name-swap``: in a comparison of two sides, one side
    reads a local variable only the other side reads, in place of one only it reads,
    where the function reads that variable in the same place elsewhere: as the same
    attribute's owner, the same function's same argument, a container searched by
    ``in``, or a side of a comparison."""
    names = _local_names(fn)
    roles = _roles(fn, parents)
    for node in body_nodes(fn):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        left, right = node.left, node.comparators[0]
        only_left = sorted(_read(left, names) - _read(right, names))
        only_right = sorted(_read(right, names) - _read(left, names))
        for a, b, side in [(a, b, left) for a in only_left for b in only_right] + [
            (b, a, right) for a in only_left for b in only_right
        ]:
            places = {
                _role(n, parents) for n in ast.walk(side) if isinstance(n, ast.Name) and n.id == a
            }
            if not places <= roles.get(b, set()):
                continue  # b is never read where a is here: a crash, not a wrong card
            new = _renamed(side, a, b)
            if side is left:
                yield node, ast.Compare(new, node.ops, [copy.deepcopy(right)])
            else:
                yield node, ast.Compare(copy.deepcopy(left), node.ops, [new])


def reading_swaps(
    fn: ast.FunctionDef, parents: Parents, others: Mapping[str, tuple[str, ...]]
) -> Iterator[tuple[ast.Constant, ast.Constant]]:
    """(string, mutant) for ``reading-swap``: a string ``fn`` compares with ``==`` or
    ``!=``, or searches for with ``in`` among a literal tuple, list or set, replaced by
    each of ``others[string]`` (the other readings of an option that has it as one)."""
    for node in body_nodes(fn):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if node.value not in others or not _compared(node, parents):
            continue
        for other in others[node.value]:
            yield node, ast.Constant(other)


def _compared(node: ast.Constant, parents: Parents) -> bool:
    """Whether ``node`` is a side of an ``==`` or ``!=`` comparison, or an item of a
    literal collection searched by ``in`` or ``not in``."""
    parent = parents.get(node)
    if isinstance(parent, ast.Tuple | ast.List | ast.Set):
        compare = parents.get(parent)
        return (
            isinstance(compare, ast.Compare)
            and parent in compare.comparators
            and isinstance(compare.ops[compare.comparators.index(parent)], ast.In | ast.NotIn)
        )
    return (
        isinstance(parent, ast.Compare)
        and len(parent.ops) == 1
        and isinstance(parent.ops[0], ast.Eq | ast.NotEq)
    )


def case_drops(fn: ast.FunctionDef) -> Iterator[tuple[ast.expr, ast.Constant]]:
    """(test, ``False``) for ``case-drop``: each test of an ``if`` statement or a
    conditional expression in ``fn``'s body, less constant tests and the tests of an
    ``if`` whose body ends in ``raise``."""
    for node in body_nodes(fn):
        if not isinstance(node, ast.If | ast.IfExp) or isinstance(node.test, ast.Constant):
            continue
        if isinstance(node, ast.If) and isinstance(node.body[-1], ast.Raise):
            continue  # an input check: its case is a bad input
        yield node.test, ast.Constant(False)


def table_numbers(tree: ast.Module) -> Iterator[tuple[str, ast.Constant, int]]:
    """(entry, node, number) for each integer of a module-level rule table
    (``table-shift``): an upper-case name bound to an integer, or to a tuple, list or
    dict of integers (the dict's values). The entry names where in the table it is:
    ``ROUNDS``, ``HAND_SIZE[4]`` (a dict's key), ``BASE_DESIGNATIONS[0]`` (a position)."""
    for stmt in tree.body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else None
        if isinstance(stmt, ast.AnnAssign):
            target = stmt.target
        value = getattr(stmt, "value", None)
        if not isinstance(target, ast.Name) or not target.id.isupper() or value is None:
            continue
        items: list[tuple[str, ast.expr]] = [(target.id, value)]
        if isinstance(value, ast.Dict):
            keys = [ast.unparse(k) if k is not None else "**" for k in value.keys]
            items = [(f"{target.id}[{k}]", v) for k, v in zip(keys, value.values, strict=True)]
        elif isinstance(value, ast.Tuple | ast.List):
            items = [(f"{target.id}[{i}]", v) for i, v in enumerate(value.elts)]
        numbers = [
            (entry, node, node.value)
            for entry, node in items
            if isinstance(node, ast.Constant) and type(node.value) is int
        ]
        if numbers and len(numbers) == len(items):
            yield from numbers
