"""Semantic mutants of the model's rule functions and rule tables, and the file format of
a mutant set.

A :class:`Mutant` is one small bug planted in the model's source, stated as a unified
diff against the repository (paths as ``git diff`` writes them, ``a/model/...``), so
that any set of mutants, ours or a held-back one, is plugged in the same way.

:func:`generate` writes the project's own mutants with an AST mutator over the rule
functions (:func:`rule_functions`) of every registered ruleset, plug-ins included, and
of the shared rule modules (:data:`SHARED`), and over the module-level tables those
functions read (``table-shift``). Each operator plants one kind of bug a real engine
has:

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
* ``name-swap``: one side of a two-sided comparison reads the other side's local
  variable, one the function reads in that place elsewhere (``value > best_off`` ->
  ``value > value``, ``up == card`` -> ``card == card``: the wrong card, a card
  compared with itself);
* ``table-shift``: a number of a module-level rule table plus or minus one (an
  upper-case name bound to an integer or to a tuple, list or dict of integers: a hand
  size by player count, a deck's top value, a round count, a seat number; dict keys
  are left alone). The rule functions read these, so a wrong entry is a rule bug too,
  one that may matter at one player count only.

Type annotations, f-strings, docstrings and ``raise`` statements (what a bad input is
told, not a rule) are left alone.

Mutant-set file (TOML, ``--mutants FILE``): one ``[[mutant]]`` table per mutant with
``id`` and ``description``, and either

* ``patch``: a unified diff against the repository (``-p1`` paths, as ``git diff``), or
* ``file`` (repository path), ``function`` (qualified name, e.g. ``LowHigh.game_over``
  or ``judge``) and ``source``: the function's whole replacement source, at any
  indentation.

A directory of ``*.diff`` / ``*.patch`` files is also a mutant set (id = file stem).
"""

from __future__ import annotations

import ast
import copy
import difflib
import importlib
import os
import sys
import textwrap
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tricklaw.model.rulesets import RULESETS

SHARED = ("tricklaw.model.ruleset", "tricklaw.model.flow", "tricklaw.model.trick")
"""Modules of rules every ruleset shares (the game winner, the trick machinery, the
follow rule of :func:`~tricklaw.model.trick.follows`)."""

NOT_RULES = frozenset(
    {
        "observation",
        "why_illegal",
        "forbidding_clause",
        "example_score",
        "example_points",
        "serialize_state",
        "check_deal",
        "check_deals",
        "check_context",
        "check_trick_context",
        "ruled_out",
        "recount_scores",
        "held_aside",
        "max_decisions",
        "rules_of",
        "get_ruleset",
    }
)
"""Functions that are not rules of play: presentation (why a move is illegal, what a seat
sees), the checkers' helpers (deal checks, a trick context's input check, the recount,
conservation, the decision bound), the information-set sampler's reading of voids
(``ruled_out``) and typed accessors. Their mutants would test the
checks, not the rules."""


@dataclass(frozen=True)
class Mutant:
    """One planted bug: ``patch`` (a unified diff against the repository) and where and
    what it is."""

    id: str
    description: str
    patch: str
    file: str = ""
    function: str = ""
    line: int = 0
    operator: str = ""


def _checkout(folder: Path) -> bool:
    """Whether ``folder`` is a tricklaw source tree (its ``pyproject.toml`` and the
    package folder's sources)."""
    return (folder / "pyproject.toml").is_file() and (folder / "tricklaw" / "__init__.py").is_file()


def repo_root() -> Path:
    """The source tree the mutants are planted in: the folder holding the imported
    ``tricklaw/`` when that is a checkout (an editable install); else (an installed,
    perhaps compiled, package) the checkout named by ``TRICKLAW_SOURCE`` or the current
    folder. The mutated copies run wholly interpreted from that tree's ``.py`` sources;
    without a checkout, the installed package's folder (the tests then skip)."""
    import tricklaw

    installed = Path(tricklaw.__file__).resolve().parent.parent
    if _checkout(installed):
        return installed
    for candidate in (os.environ.get("TRICKLAW_SOURCE"), os.getcwd()):
        if candidate and _checkout(Path(candidate).resolve()):
            return Path(candidate).resolve()
    return installed


def _module_file(name: str, root: Path) -> str | None:
    """The repository path of module ``name``'s source under ``root``: its own file,
    or (a compiled module, or one imported from elsewhere) the ``.py`` source the
    module's name gives in ``root``."""
    module = sys.modules.get(name) or importlib.import_module(name)
    path = Path(getattr(module, "__file__", "") or "").resolve()
    if path.suffix != ".py" or not path.is_relative_to(root):
        base = root.joinpath(*name.split("."))
        found = [f for f in (base.with_suffix(".py"), base / "__init__.py") if f.is_file()]
        if not found:
            return None
        path = found[0].resolve()
    try:
        return str(path.relative_to(root))
    except ValueError:
        return None


def _package_folder(package: str, root: Path) -> Path | None:
    """The folder of ``package``'s sources under ``root`` (see :func:`_module_file`)."""
    found = _module_file(package, root)
    return (root / found).parent if found and found.endswith("__init__.py") else None


def ruleset_files(ruleset: Any, root: Path | None = None) -> list[str]:
    """The repository paths of ``ruleset``'s own rule modules: its class's module, and
    every module of that module's package when the ruleset is a package of its own in
    the model's rulesets folder (a plug-in's package holds its other layers too)."""
    root = root or repo_root()
    name = type(ruleset).__module__
    package = name.rpartition(".")[0]
    parent = sys.modules.get(package)
    own_package = package.startswith(RULESETS.package + ".")  # a plug-in: its model module
    folder = _package_folder(package, root) if own_package and parent is not None else None
    if parent is None or not getattr(parent, "__path__", None) or folder is None:
        found = _module_file(name, root)
        return [found] if found else []
    out = []
    for path in sorted(folder.glob("*.py")):  # a plug-in outside the repository: none
        if path.resolve().is_relative_to(root):
            out.append(str(path.resolve().relative_to(root)))
    return out


def rule_files(root: Path | None = None) -> dict[str, list[str]]:
    """Repository path -> the ids of the rulesets it holds rules of (the shared modules:
    every ruleset)."""
    root = root or repo_root()
    out: dict[str, list[str]] = {}
    for ruleset in RULESETS.values():
        for f in ruleset_files(ruleset, root):
            out.setdefault(f, []).append(ruleset.id)
    for name in SHARED:
        shared = _module_file(name, root)
        if shared:
            out[shared] = list(RULESETS)
    return out


def rule_functions(tree: ast.Module, every: bool = False) -> Iterator[tuple[str, ast.FunctionDef]]:
    """(qualified name, definition) of every rule function of a module: module-level
    functions and methods, nested ones included in their parent, less :data:`NOT_RULES`
    and dunders (all functions with ``every``)."""
    for node in tree.body:
        items: list[tuple[str, ast.stmt]] = [("", node)]
        if isinstance(node, ast.ClassDef):
            items = [(node.name + ".", n) for n in node.body]
        for prefix, item in items:
            if isinstance(item, ast.FunctionDef):
                if not every and (item.name in NOT_RULES or item.name.startswith("__")):
                    continue
                yield prefix + item.name, item


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


def _variants(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> Iterator[tuple[str, ast.expr]]:
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


def _body_nodes(fn: ast.FunctionDef) -> Iterator[tuple[ast.AST, dict[ast.AST, ast.AST]]]:
    parents: dict[ast.AST, ast.AST] = {}
    for stmt in fn.body:
        for parent in ast.walk(stmt):
            for child in ast.iter_child_nodes(parent):
                parents[child] = parent
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
                yield node, parents


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


def _roles(fn: ast.FunctionDef) -> dict[str, set[str]]:
    """Local name -> the places ``fn`` reads it in (:func:`_role`)."""
    parents = _child_parents(fn)
    out: dict[str, set[str]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            out.setdefault(node.id, set()).add(_role(node, parents))
    return out


def _role(node: ast.Name, parents: dict[ast.AST, ast.AST]) -> str:
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


def _child_parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    """Child -> parent within ``tree``."""
    return {c: p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}


def _renamed(side: ast.expr, old: str, new: str) -> ast.expr:
    """``side`` with every read of ``old`` reading ``new``."""
    out = copy.deepcopy(side)
    for n in ast.walk(out):
        if isinstance(n, ast.Name) and n.id == old:
            n.id = new
    return out


def _name_swaps(fn: ast.FunctionDef) -> Iterator[tuple[ast.Compare, ast.Compare]]:
    """(comparison, mutant) for ``name-swap``: in a comparison of two sides, one side
    reads a local variable only the other side reads, in place of one only it reads,
    where the function reads that variable in the same place elsewhere (:func:`_role`)."""
    names = _local_names(fn)
    roles = _roles(fn)
    for node, parents in _body_nodes(fn):
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


def _table_numbers(tree: ast.Module) -> Iterator[tuple[str, ast.Constant, int]]:
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


def _replace(lines: list[bytes], node: ast.AST, text: str) -> list[bytes]:
    """``lines`` (source as bytes, with their ends) with ``node``'s span replaced."""
    start, end = node.lineno - 1, node.end_lineno or node.lineno  # type: ignore[attr-defined]
    first = lines[start][: node.col_offset]  # type: ignore[attr-defined]
    last = lines[end - 1][node.end_col_offset :]  # type: ignore[attr-defined]
    return [*lines[:start], first + text.encode("utf-8") + last, *lines[end:]]


def make_patch(path: str, before: str, after: str) -> str:
    """The unified diff (``-p1`` paths) turning ``before`` into ``after`` at ``path``."""
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            f"a/{path}",
            f"b/{path}",
        )
    )


def mutants_of_file(root: Path, path: str) -> list[Mutant]:
    """Every mutant of the rule functions in the repository file ``path``."""
    source = (root / path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.encode("utf-8").splitlines(keepends=True)
    parts = list(Path(path).with_suffix("").parts)
    while len(parts) > 1 and parts[0] in {"model", "rulesets"}:
        parts.pop(0)
    stem = ".".join(p for p in parts if p != "__init__")
    out: list[Mutant] = []
    seen: set[str] = set()
    planted: list[tuple[str, ast.AST, str, ast.expr]] = [
        (qualname, node, operator, new)
        for qualname, fn in rule_functions(tree)
        for node, parents in _body_nodes(fn)
        for operator, new in _variants(node, parents)
    ]
    planted += [
        (qualname, node, "name-swap", new)
        for qualname, fn in rule_functions(tree)
        for node, new in _name_swaps(fn)
    ]
    planted += [
        (entry, node, "table-shift", ast.Constant(number + delta))
        for entry, node, number in _table_numbers(tree)
        for delta in (1, -1)
    ]
    for qualname, node, operator, new in planted:
        text = "(" + ast.unparse(new) + ")"
        mutated = b"".join(_replace(lines, node, text)).decode("utf-8")
        try:
            if ast.dump(ast.parse(mutated)) == ast.dump(tree):
                continue
        except SyntaxError:
            continue
        base = f"{stem}.{qualname}.L{node.lineno}.{operator}"  # type: ignore[attr-defined]
        ident, k = base, 2
        while ident in seen:
            ident, k = f"{base}.{k}", k + 1
        seen.add(ident)
        old = ast.get_source_segment(source, node) or ast.unparse(node)
        out.append(
            Mutant(
                ident,
                f"{path}:{node.lineno} in {qualname}: "  # type: ignore[attr-defined]
                f"`{' '.join(old.split())}` -> `{ast.unparse(new)}`",
                make_patch(path, source, mutated),
                path,
                qualname,
                node.lineno,  # type: ignore[attr-defined]
                operator,
            )
        )
    return out


def generate(root: Path | None = None) -> list[Mutant]:
    """The project's own mutants of every rule file (:func:`rule_files`), by id."""
    root = root or repo_root()
    out = [m for f in sorted(rule_files(root)) for m in mutants_of_file(root, f)]
    return sorted(out, key=lambda m: m.id)


def replacement_patch(root: Path, path: str, function: str, source: str) -> str:
    """The patch replacing function ``function`` (qualified name) of ``path`` by
    ``source``, re-indented to the definition's place."""
    text = (root / path).read_text(encoding="utf-8")
    tree = ast.parse(text)
    found = dict(rule_functions(tree, every=True))
    if function not in found:
        raise ValueError(f"{path} has no function {function!r}")
    fn = found[function]
    start = min([fn.lineno, *(d.lineno for d in fn.decorator_list)]) - 1
    lines = text.splitlines(keepends=True)
    indent = " " * fn.col_offset
    new = textwrap.indent(textwrap.dedent(source).strip("\n") + "\n", indent)
    mutated = "".join([*lines[:start], new, *lines[fn.end_lineno or fn.lineno :]])
    return make_patch(path, text, mutated)


def load_mutants(path: Path, root: Path | None = None) -> list[Mutant]:
    """A mutant set: a TOML file of ``[[mutant]]`` tables or a directory of diff files
    (see the module docstring)."""
    root = root or repo_root()
    if path.is_dir():
        return [
            Mutant(p.stem, f"patch {p.name}", p.read_text(encoding="utf-8"))
            for p in sorted(path.iterdir())
            if p.suffix in {".diff", ".patch"}
        ]
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for entry in data.get("mutant", []):
        if "patch" in entry:
            patch = entry["patch"]
        else:
            patch = replacement_patch(root, entry["file"], entry["function"], entry["source"])
        out.append(
            Mutant(
                entry["id"],
                entry.get("description", ""),
                patch,
                entry.get("file", ""),
                entry.get("function", ""),
            )
        )
    return out


def patched_files(patch: str) -> list[str]:
    """The repository paths a patch changes."""
    out = []
    for line in patch.splitlines():
        if line.startswith("+++ "):
            name = line[4:].split("\t")[0].strip()
            out.append(name[2:] if name.startswith("b/") else name)
    return out
