"""Semantic mutants of the model's rule functions and rule tables, and the file format of
a mutant set.

A :class:`Mutant` is one small bug planted in the model's source, stated as a unified
diff against the repository (paths as ``git diff`` writes them, ``a/model/...``), so
that any set of mutants, ours or a held-back one, is plugged in the same way.

:func:`generate` writes the project's own mutants with an AST mutator over the rule
functions (:func:`rule_functions`) of every registered ruleset, plug-ins included, and
of the shared rule modules (:data:`SHARED`), and over the module-level tables those
functions read: sixteen operators, each a kind of bug a real engine has
(:mod:`tricklaw.mutation.operators`).

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
import difflib
import importlib
import os
import sys
import textwrap
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tricklaw.model.rulesets import RULESETS
from tricklaw.mutation.operators import (
    body_nodes,
    body_parents,
    case_drops,
    name_swaps,
    reading_swaps,
    table_numbers,
    variants,
)

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


def _replace(lines: list[bytes], node: ast.AST, text: str) -> list[bytes]:
    """``lines`` (source as bytes, with their ends) with ``node``'s span replaced."""
    start, end = node.lineno - 1, node.end_lineno or node.lineno  # type: ignore[attr-defined]
    first = lines[start][: node.col_offset]  # type: ignore[attr-defined]
    last = lines[end - 1][node.end_col_offset :]  # type: ignore[attr-defined]
    return [*lines[:start], first + text.encode("utf-8") + last, *lines[end:]]


def _statements(value: object) -> list[ast.stmt] | None:
    """``value`` if it is a non-empty list of statements (a body), else None."""
    if isinstance(value, list) and value and all(isinstance(v, ast.stmt) for v in value):
        return value
    return None


def _dump(value: object) -> str:
    """A field's value as text: :func:`ast.dump` of a node, of each node of a list."""
    if isinstance(value, ast.AST):
        return ast.dump(value)
    if isinstance(value, list):
        return repr([_dump(v) for v in value])
    return repr(value)


def _unchanged(old: ast.AST, new: ast.AST, line: int) -> bool:
    """Whether ``new`` (the tree of ``old``'s source with one node's span, starting on
    ``line``, replaced) is ``old`` (as :func:`ast.dump` compares: no positions). In a
    body of as many statements in both, only the statement holding ``line`` can differ
    (the others are the same text), so only it is compared, the same way; dumping the
    whole module once per mutant was most of :func:`generate`'s time."""
    if type(old) is not type(new):
        return False
    for field in old._fields:
        before, after = getattr(old, field, None), getattr(new, field, None)
        body, body_after = _statements(before), _statements(after)
        if body is not None and body_after is not None and len(body) == len(body_after):
            for a, b in zip(body, body_after, strict=True):
                first = min([a.lineno, *(d.lineno for d in getattr(a, "decorator_list", []))])
                if first <= line <= (a.end_lineno or a.lineno) and not _unchanged(a, b, line):
                    return False
        elif _dump(before) != _dump(after):
            return False
    return True


def _segment(lines: list[bytes], node: ast.AST) -> str:
    """``node``'s source text, as :func:`ast.get_source_segment` gives it, from the
    file's lines (bytes, with their ends) split once rather than once per node."""
    if getattr(node, "end_lineno", None) is None or getattr(node, "end_col_offset", None) is None:
        return ""
    start: int = node.lineno - 1  # type: ignore[attr-defined]
    end: int = node.end_lineno  # type: ignore[attr-defined]
    first: int = node.col_offset  # type: ignore[attr-defined]
    last: int = node.end_col_offset  # type: ignore[attr-defined]
    if start == end - 1:
        return lines[start][first:last].decode("utf-8")
    span = [lines[start][first:], *lines[start + 1 : end - 1], lines[end - 1][:last]]
    return b"".join(span).decode("utf-8")


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


def reading_values(rulesets: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Reading -> its other readings, over the options of ``rulesets`` (ids) that have
    three readings or more (``reading-swap``; with two readings a swap is a negated
    comparison)."""
    out: dict[str, set[str]] = {}
    for ruleset in [RULESETS[r] for r in rulesets]:
        for spec in ruleset.option_specs:
            if len(spec.choices) >= 3:
                for choice in spec.choices:
                    out.setdefault(choice, set()).update(set(spec.choices) - {choice})
    return {reading: tuple(sorted(rest)) for reading, rest in sorted(out.items())}


def mutants_of_file(root: Path, path: str, rulesets: Sequence[str] | None = None) -> list[Mutant]:
    """Every mutant of the rule functions in the repository file ``path``, which holds
    rules of ``rulesets`` (ids; default: every registered one)."""
    source = (root / path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.encode("utf-8").splitlines(keepends=True)
    stem = stem_of(path)
    out: list[Mutant] = []
    seen: set[str] = set()
    others = reading_values(list(RULESETS) if rulesets is None else rulesets)
    planted: list[tuple[str, ast.AST, str, ast.expr]] = []
    for qualname, fn in rule_functions(tree):
        parents = body_parents(fn)  # one map per function, for every operator
        planted += [
            (qualname, node, operator, new)
            for node in body_nodes(fn)
            for operator, new in variants(node, parents)
        ]
        planted += [(qualname, n, "name-swap", new) for n, new in name_swaps(fn, parents)]
        swaps = reading_swaps(fn, parents, others)
        planted += [(qualname, n, "reading-swap", new) for n, new in swaps]
        planted += [(qualname, n, "case-drop", new) for n, new in case_drops(fn)]
    planted += [
        (entry, node, "table-shift", ast.Constant(number + delta))
        for entry, node, number in table_numbers(tree)
        for delta in (1, -1)
    ]
    for qualname, node, operator, new in planted:
        text = "(" + ast.unparse(new) + ")"
        mutated = b"".join(_replace(lines, node, text)).decode("utf-8")
        try:
            if _unchanged(tree, ast.parse(mutated), node.lineno):  # type: ignore[attr-defined]
                continue
        except SyntaxError:
            continue
        base = f"{stem}.{qualname}.L{node.lineno}.{operator}"  # type: ignore[attr-defined]
        ident, k = base, 2
        while ident in seen:
            ident, k = f"{base}.{k}", k + 1
        seen.add(ident)
        old = _segment(lines, node) or ast.unparse(node)
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


def stem_of(path: str) -> str:
    """The start of the ids of a rule file's mutants (``model/rulesets/hund/rules.py``:
    ``hund.rules``)."""
    parts = list(Path(path).with_suffix("").parts)
    while len(parts) > 1 and parts[0] in {"model", "rulesets"}:
        parts.pop(0)
    return ".".join(p for p in parts if p != "__init__")


def generate(root: Path | None = None, ids: Sequence[str] = ()) -> list[Mutant]:
    """The project's own mutants of every rule file (:func:`rule_files`), by id; given
    ``ids``, of the files those ids can name only (an id starts with its file's
    :func:`stem_of`), which spares generating the rest."""
    root = root or repo_root()
    files = rule_files(root)
    if ids:
        files = {f: r for f, r in files.items() if any(i.startswith(stem_of(f) + ".") for i in ids)}
    out = [m for f in sorted(files) for m in mutants_of_file(root, f, files[f])]
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
