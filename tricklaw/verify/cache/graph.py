"""The code a step of ``verify`` can run: the static import closure of its modules, read
from their source, with the registries followed to one game's modules only.

:func:`scan` reads a module's imports from its source with :mod:`ast` (every
``import`` and ``from ... import`` statement, at any depth, ``TYPE_CHECKING`` blocks
included, and ``importlib.import_module`` with a literal name), keeping those of the
``tricklaw`` package. :func:`closure` follows them from a step's root modules; where it
meets a module that holds a :class:`~tricklaw.model.registry.Registry`, it goes on to the
modules that registered the step's games there (:meth:`Registry.owners`), and to no other
game's: so one game's rows depend on its own modules in every layer and the shared code
they import, never on another game's.

Why not a library: ``grimp`` (behind ``import-linter``) builds the same graph, but only
for whole packages and without the registries' edges; it is a test extra, not a
dependency of the base install that runs ``verify``.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from tricklaw.model.registry import REGISTRIES

PACKAGE = "tricklaw"
"""The package whose modules are followed; other imports are libraries, keyed by their
versions (:mod:`tricklaw.verify.cache.keys`)."""


def module_files(name: str) -> tuple[Path, ...]:
    """The files module ``name`` runs from: its source and, for a compiled module
    (mypyc), the extension beside it. Empty when there is no such module (a name
    imported from a package that is an attribute, not a module)."""
    module = sys.modules.get(name)
    origin = getattr(module, "__file__", None) if module is not None else None
    if origin is None:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return ()
        origin = spec.origin if spec is not None else None
    if origin is None or origin in ("built-in", "frozen"):
        return ()
    path = Path(origin)
    source = path.with_name(path.name.split(".", 1)[0] + ".py")
    files = [source] if source.is_file() else []
    return tuple(files + ([path] if path != source else []))


def source_of(files: tuple[Path, ...]) -> Path | None:
    """The ``.py`` file among a module's ``files``."""
    return next((f for f in files if f.suffix == ".py"), None)


@dataclass(frozen=True)
class Scan:
    """What a module's source says of its place in the graph: the ``tricklaw`` modules
    it imports, and whether it makes a registry (calls ``Registry(...)``)."""

    imports: tuple[str, ...]
    makes_registry: bool


def scan(source: bytes, name: str, is_package: bool) -> Scan:
    """Module ``name``'s :class:`Scan` (``source`` its text). For ``from M import x`` it
    names both ``M`` and ``M.x`` (``x`` may be a module; :func:`closure` keeps what is
    one). The packages above an imported module are not named: importing ``a.b.c`` runs
    ``a/__init__`` too, but code of ``c`` calls into ``a`` only through an import of its
    own."""
    found: set[str] = set()
    makes_registry = False
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module or "", node.level, package)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
        elif isinstance(node, ast.Call):
            called = _called(node.func)
            makes_registry = makes_registry or called == "Registry"
            if (
                called in ("import_module", "__import__")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    out = {m for m in found if m == PACKAGE or m.startswith(PACKAGE + ".")}
    return Scan(tuple(sorted(out)), makes_registry)


def _absolute(module: str, level: int, package: str) -> str:
    if level == 0:
        return module
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - (level - 1)])
    return f"{base}.{module}" if module else base


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


ScanOf = Callable[[str], Scan]
"""A module's :class:`Scan` by name (read through a cache of scanned sources)."""


def closure(
    roots: Iterable[str],
    games: Iterable[str],
    scan_of: ScanOf,
    files: Callable[[str], tuple[Path, ...]] = module_files,
) -> frozenset[str]:
    """Every ``tricklaw`` module reachable from ``roots`` by imports, and from each
    registry among them to the modules that registered ``games`` in it (and the
    registry's package, which its loading imports). A module that makes a registry is
    imported (if it was not) and its registries filled, so that their owners are known;
    that raises what a game's module raises on import. Names that are not modules
    (``files`` finds none) are dropped."""
    wanted = tuple(games)
    seen: set[str] = set()
    queue = [r for r in roots if files(r)]
    while queue:
        name = queue.pop()
        if name in seen:
            continue
        seen.add(name)
        found = scan_of(name)
        following = list(found.imports)
        if found.makes_registry:
            following += _registered(name, wanted)
        queue += [m for m in following if m not in seen and files(m)]
    return frozenset(seen)


def _registered(home: str, games: tuple[str, ...]) -> list[str]:
    """The modules that registered ``games`` in the registries module ``home`` makes,
    and those registries' packages."""
    importlib.import_module(home)
    out: list[str] = []
    for registry in [r for r in REGISTRIES if r.home == home]:
        out.append(registry.package)
        out += [m for game in games if game in registry for m in sorted(registry.owners(game))]
    return out
