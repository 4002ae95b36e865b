"""The proofs layer's shape, read from its source (AST).

* The Z3 encodings are written from the clauses, never from the model's rules: no module
  of ``proofs/encodings/`` (nor a proofs module they import) imports
  ``tricklaw.model.rulesets`` or one of its ruleset modules.
* A game is a unit: only a game's own module (one that registers its part in a registry)
  names a ruleset id; the generic modules of ``proofs/`` ask the registries.
* Every registry of the proofs layer covers exactly the model's rulesets.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

import pytest

from tricklaw.model.rulesets import RULESETS
from tricklaw.proofs.bounds import BOUNDS
from tricklaw.proofs.conservation import MACHINES
from tricklaw.proofs.encodings import ENCODINGS

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
RULES = "tricklaw.model.rulesets"


def module_name(path: Path) -> str:
    parts = path.relative_to(PROOFS).with_suffix("").parts
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    return ".".join(("tricklaw", "proofs", *parts))


MODULES = {module_name(p): p for p in sorted(PROOFS.rglob("*.py"))}


def imports(path: Path) -> set[str]:
    """The modules ``path`` imports (``from a import b`` counts as ``a`` and ``a.b``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def reached(start: str) -> set[str]:
    """``start`` and the proofs modules it imports, directly or through one another."""
    seen, todo = {start}, [start]
    while todo:
        for name in imports(MODULES[todo.pop()]):
            if name in MODULES and name not in seen:
                seen.add(name)
                todo.append(name)
    return seen


ENCODING_MODULES = sorted(n for n in MODULES if n.startswith("tricklaw.proofs.encodings."))


@pytest.mark.parametrize("name", ENCODING_MODULES)
def test_encodings_do_not_import_the_models_rules(name: str) -> None:
    for module in reached(name):
        bad = sorted(i for i in imports(MODULES[module]) if i == RULES or i.startswith(RULES + "."))
        assert not bad, f"{module} (reached from {name}) imports {bad}"


def test_the_import_check_sees_a_ruleset_import(tmp_path: Path) -> None:
    path = tmp_path / "bad.py"
    path.write_text("from tricklaw.model import rulesets\nimport tricklaw.model.rulesets.hund\n")
    assert {f"{RULES}", f"{RULES}.hund"} <= imports(path)


def registers(tree: ast.Module) -> bool:
    """Whether a module registers a game's part at import (``REGISTRY.register(...)``)."""
    return any(
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "register"
        for node in tree.body
    )


@pytest.mark.parametrize("name", sorted(MODULES))
def test_only_a_games_own_module_names_its_id(name: str) -> None:
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    if registers(tree):
        return
    literals = sorted(
        {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in RULESETS}
    )
    assert not literals, f"{name} is generic but names {literals}"


@pytest.mark.parametrize(
    ("layer", "registry"), [("encodings", ENCODINGS), ("machines", MACHINES), ("bounds", BOUNDS)]
)
def test_each_registry_covers_the_rulesets(layer: str, registry: Mapping[str, object]) -> None:
    assert set(registry) == set(RULESETS), layer
