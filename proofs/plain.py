"""The model's plain Python source, for symbolic execution in a compiled install.

``pip install .`` compiles the model's hot path with mypyc (``setup.py``); a compiled
function checks its arguments' types and will not run on the executor's proxy integers.
The ``.py`` sources are installed beside the extensions, so this module imports them
again under the prefix :data:`PREFIX` (``tricklaw.model.cards`` becomes
``_tricklaw_plain.tricklaw.model.cards``), every absolute import of ``tricklaw`` (and of
a plug-in's own package) rewritten to the prefixed name: a separate, wholly interpreted
copy of the model, with its own registries. Nothing in the live model changes.

:func:`runner` gives the function to execute for an encoding: its own
``model_outcome`` when the install is plain (so that a test's monkeypatch of the
model is what runs), else the same method on a copy of the encoding whose game comes
from the plain copy of the model.
"""

from __future__ import annotations

import ast
import copy
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from tricklaw.model.state import Game
from tricklaw.proofs.tricks import TrickEncoding

PREFIX = "_tricklaw_plain"
"""The package name the plain copies of the model's modules are imported under."""


def compiled_install() -> bool:
    """Whether any loaded ``tricklaw`` module is a compiled extension."""
    return any(
        not str(getattr(m, "__file__", "") or "").endswith(".py")
        for name, m in list(sys.modules.items())
        if name.split(".")[0] == "tricklaw" and getattr(m, "__file__", None)
    )


class _Rewrite(ast.NodeTransformer):
    """Absolute imports of the shadowed packages point into the plain copy."""

    def __init__(self, tops: set[str], prefix: str = PREFIX) -> None:
        self.tops = tops
        self.prefix = prefix

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.ImportFrom:
        if node.level == 0 and node.module and node.module.split(".")[0] in self.tops:
            node.module = f"{self.prefix}.{node.module}"
        return node

    def visit_Import(self, node: ast.Import) -> ast.Import:
        for alias in node.names:
            if alias.name.split(".")[0] in self.tops:
                raise ImportError(f"plain copy: 'import {alias.name}' is not rewritten")
        return node


_Transform = Callable[[ast.Module], ast.Module]
"""A further rewrite of a module's tree (after the imports'), for another copy."""


class _Loader(importlib.abc.Loader):
    def __init__(self, source: Path, finder: _Finder) -> None:
        self.source = source
        self.finder = finder

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        tree = ast.parse(self.source.read_text(encoding="utf-8"))
        tree = _Rewrite(self.finder.tops, self.finder.prefix).visit(tree)
        tree = ast.fix_missing_locations(self.finder.transform(tree))
        module.__dict__.update(self.finder.inject)
        exec(compile(tree, str(self.source), "exec"), module.__dict__)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds ``<prefix>.<name>`` as the plain source of ``<name>`` (rewritten further by
    ``transform``, with the names of ``inject`` in its namespace)."""

    def __init__(
        self,
        prefix: str = PREFIX,
        transform: _Transform = lambda tree: tree,
        inject: dict[str, Any] | None = None,
    ) -> None:
        self.tops = {"tricklaw"}
        self.prefix = prefix
        self.transform = transform
        self.inject = dict(inject or {})

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        prefix = self.prefix
        if fullname == prefix:
            return importlib.machinery.ModuleSpec(fullname, None, is_package=True)
        if not fullname.startswith(prefix + "."):
            return None
        original = fullname[len(prefix) + 1 :]
        spec = importlib.util.find_spec(original)
        if spec is None or spec.origin is None:
            return None
        origin = Path(spec.origin)
        package = spec.submodule_search_locations is not None
        source = origin.parent / ("__init__.py" if package else f"{original.rsplit('.')[-1]}.py")
        if not source.is_file():
            raise ImportError(f"plain copy: no source for {original} beside {origin}")
        out = importlib.util.spec_from_file_location(
            fullname,
            source,
            loader=_Loader(source, self),
            submodule_search_locations=list(spec.submodule_search_locations or [])
            if package
            else None,
        )
        return out


_FINDER = _Finder()


def copy_module(finder: Any, name: str) -> ModuleType:
    """The copy of module ``name`` that ``finder`` (a finder of this module, for its
    prefix) makes (imported once)."""
    if finder not in sys.meta_path:
        sys.meta_path.insert(0, finder)
    finder.tops.add(name.split(".", maxsplit=1)[0])
    importlib.invalidate_caches()
    return importlib.import_module(f"{finder.prefix}.{name}")


def plain_module(name: str) -> ModuleType:
    """The plain copy of module ``name`` (imported once)."""
    return copy_module(_FINDER, name)


def plain_ruleset(ruleset: Any) -> Any:
    """The plain copy's instance of ``ruleset`` (by its registry, else a new instance of
    the plain copy of its class)."""
    module = plain_module(type(ruleset).__module__)
    registry = plain_module("tricklaw.model.rulesets").RULESETS
    if ruleset.id in registry:
        return registry[ruleset.id]
    return getattr(module, type(ruleset).__name__)()


def game_for(game: Game, force: bool = False) -> Game:
    """``game`` itself in a plain install, else the same game made by the plain copy of
    its ruleset (or with ``force``)."""
    if not (force or compiled_install()):
        return game
    shadow: Game = plain_ruleset(game.ruleset).make_game(game.players, game.options.as_dict())
    return shadow


def runner(enc: TrickEncoding, force: bool = False) -> Callable[[Any], Any]:
    """The model's answer for a trick as ``enc`` states it (its outcome and the clauses
    it names), in plain Python: the encoding's ``model_answer``, on the plain copy of the
    model when the install is compiled (or ``force``)."""
    if not (force or compiled_install()):
        return enc.model_answer
    shadow = game_for(enc.game, force=True)
    clone = copy.copy(enc)
    clone.game = shadow
    clone.options = shadow.options
    return clone.model_answer
