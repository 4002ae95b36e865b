"""The house rules: a game is a unit, and the layers point one way.

* Every layer's registry covers exactly the rulesets of the model's registry.
* Generic modules hold no ruleset id: only a game's own module, one that registers its
  part in a layer's registry when imported, may name one.
* The import contracts of ``pyproject.toml`` (``[tool.importlinter]``) are kept: the
  applications build on the proofs, the proofs on the model, the model on the spec; no
  package's modules import one another in a cycle; the trick encodings never import the
  model's rules.
"""

from __future__ import annotations

import ast
import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tricklaw.model.registry import REGISTRIES, Registry
from tricklaw.model.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(importlib.import_module("tricklaw").__file__ or "").resolve().parent

LAYERS = (
    "tricklaw.proofs.encodings:ENCODINGS",
    "tricklaw.proofs.conservation:MACHINES",
    "tricklaw.proofs.liveness:LIVENESS",
    "tricklaw.proofs.plays:PLAYS",
    "tricklaw.proofs.bounds:BOUNDS",
    "tricklaw.vectors.profiles:PROFILES",
    "tricklaw.views:VIEWS",
    "tricklaw.proofs.quantities:TIES",
    "tricklaw.proofs.round_rules:ROUND_RULES",
    "tricklaw.proofs.scores:SCORES",
    "tricklaw.proofs.model_rules:MODEL_RULES",
    "tricklaw.batch:BATCH",
    "tricklaw.batch.forced:FORCED",
    "tricklaw.model.strategies:HEURISTICS",
)
"""Every layer's registry besides the model's, as ``module:name``."""


@pytest.mark.parametrize("path", LAYERS)
def test_every_layer_covers_exactly_the_models_rulesets(path: str) -> None:
    module, name = path.split(":")
    registry = getattr(importlib.import_module(module), name)
    assert set(registry.ids()) == set(RULESETS.ids()), f"{registry.layer} ({path})"


def _source_files() -> list[Path]:
    """Every module of the package (links followed once, each file once)."""
    seen: dict[Path, None] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        seen.setdefault(path.resolve(), None)
    for folder in ("model", "spec", "proofs"):
        for path in sorted((PACKAGE / folder).resolve().rglob("*.py")):
            seen.setdefault(path.resolve(), None)
    return list(seen)


def registers(tree: ast.Module) -> bool:
    """Whether a module registers a game's part when imported: a top-level
    ``REGISTRY.register(...)`` call."""
    return any(
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "register"
        for node in tree.body
    )


def named_ids(source: str, ids: set[str]) -> list[tuple[int, str]]:
    """The ruleset ids a generic module's ``source`` names as string constants, with their
    lines (none for a game's own module, which registers)."""
    tree = ast.parse(source)
    if registers(tree):
        return []
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in ids
    ]


def in_a_games_package(path: Path) -> bool:
    """Whether ``path`` is a module of a game's own package (a game split into a small
    package): its folder's ``__init__.py`` registers."""
    init = path.parent / "__init__.py"
    return init.is_file() and registers(ast.parse(init.read_text(encoding="utf-8")))


@pytest.mark.slow
def test_generic_modules_name_no_ruleset() -> None:
    ids = set(RULESETS.ids())
    offenders = [
        f"{path}:{line}: {value!r}"
        for path in _source_files()
        if not in_a_games_package(path)
        for line, value in named_ids(path.read_text(encoding="utf-8"), ids)
    ]
    assert not offenders, "ruleset ids in generic modules:\n" + "\n".join(offenders)


def test_the_id_scan_sees_an_id_and_spares_a_games_module() -> None:
    generic = 'def f(r):\n    return r.id == "hund"\n'
    own = 'X = 1\nREGISTRY.register("hund", X)\n'
    assert named_ids(generic, {"hund"}) == [(2, "hund")]
    assert named_ids(own, {"hund"}) == []


def test_the_id_scan_spares_the_modules_of_a_games_package_only(tmp_path: Path) -> None:
    game, layer = tmp_path / "game", tmp_path / "layer"
    for folder in (game, layer):
        folder.mkdir()
        (folder / "rules.py").write_text('ID = "hund"\n', encoding="utf-8")
    (game / "__init__.py").write_text('REGISTRY.register("hund", 1)\n', encoding="utf-8")
    (layer / "__init__.py").write_text('REGISTRY = Registry("part", __name__)\n', "utf-8")
    assert in_a_games_package(game / "rules.py")
    assert not in_a_games_package(layer / "rules.py")
    assert not in_a_games_package(tmp_path / "alone.py")


def test_the_registries_find_a_game_added_by_registering_it() -> None:
    """A game defined outside the folders (a plug-in's) joins a layer by registering."""
    registry: Registry[str] = Registry("example part", "tricklaw.model.rulesets")
    registry.register("tiny", "part")
    assert registry.lookup("tiny") == "part" and "tiny" in registry
    registry.unregister("tiny")
    assert "tiny" not in registry


def test_a_registering_module_is_its_games_owner_compiled_or_not() -> None:
    """The result cache follows a registry to the modules that registered a game. A
    module compiled by mypyc (the installed build) registers with no Python frame of its
    own: the caller seen is the import machinery, and the owner must still be the module
    that holds the item, or no step of that game is ever cached."""
    registry: Registry[object] = Registry("example part", "tricklaw.model.rulesets")
    item = object()
    here = {"__name__": __name__, "registry": registry, "item": item}
    exec("registry.register('plain', item)", here)
    assert registry.owners("plain") == {__name__}
    module = type(sys)("tricklaw.example_compiled")
    module.ITEM = item  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    try:
        machinery = {"__name__": "importlib._bootstrap", "registry": registry, "item": item}
        exec("registry.register('compiled', item)", machinery)
        assert registry.owners("compiled") == {module.__name__}
        exec("registry.register('orphan', object())", machinery)
        assert registry.owners("orphan") == {"importlib._bootstrap"}
    finally:
        del sys.modules[module.__name__]
        for ruleset_id in ("plain", "compiled", "orphan"):
            registry.unregister(ruleset_id)
        REGISTRIES.remove(registry)


@pytest.mark.slow
def test_the_import_contracts_are_kept() -> None:
    script = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert script, "import-linter is not installed (pip install '.[test]')"
    run = subprocess.run(
        [script, "--no-cache", "--config", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
