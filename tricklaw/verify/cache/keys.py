"""The key of a step's rows: a SHA-256 over everything the rows can depend on.

A step of ``verify`` (one check or proof family, for one ruleset and player count, or
one part) is a function of

* its arguments: the ruleset, the player count, the readings fixed for that ruleset, the
  time-out, and whatever else of the run it reads (:class:`StepCall`);
* the code it can run: the source (and compiled extension) of every module in the
  import closure of the step's own modules, with each registry followed to the step's
  games only (:func:`~tricklaw.verify.cache.graph.closure`); the closure is computed,
  never listed by hand;
* the data it can read: every file of the spec folders (clause registries, worked
  examples, vectors, schemas, bounds, ``sources.toml``, which holds each seed text's
  SHA-256 and line count: verify reads the texts through it, never the texts
  themselves), less the files of other games (named ``<ruleset id>.*``);
* the versions of Python, tricklaw and every library tricklaw requires (Z3 first), and
  tricklaw's settings in the environment (``TRICKLAW_*``).

:class:`Keys` computes them once per run, hashing each file once. A step whose code
lies outside the ``tricklaw`` package (a plug-in game) gets no key: it is always run.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import platform
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import Any

from tricklaw.spec import folders
from tricklaw.verify.cache.graph import PACKAGE, Scan, closure, module_files, scan, source_of

FORMAT = 1
"""The cache's format: a change of what an entry holds or how a key is made bumps it."""

ENV = "TRICKLAW_VERIFY_CACHE"
"""The environment variable that sets the default cache folder (``off``: no cache)."""


def environment() -> dict[str, str]:
    """The ``TRICKLAW_*`` environment variables but :data:`ENV`: tricklaw's settings that
    can change a row (``TRICKLAW_EQUIVALENCE_PATHS``, the symbolic executor's path
    budget), all in every key rather than each in the keys of the steps that read it."""
    return {k: v for k, v in os.environ.items() if k.startswith("TRICKLAW_") and k != ENV}


@dataclass(frozen=True)
class StepCall:
    """One step as the cache sees it: its ``name``, the arguments its rows depend on
    (``args``, JSON-able), the games whose code and data it can use, and the functions
    it calls (whose modules are the roots of its code)."""

    name: str
    args: Mapping[str, Any]
    games: tuple[str, ...]
    calls: tuple[Callable[..., Any], ...]


def roots(function: Callable[..., Any], home: str) -> set[str]:
    """The modules ``function`` runs code of: its own module, or, for a function of
    ``home`` (the module that wires the steps together, whose own file is keyed apart),
    the modules of every global it names, followed through ``home``'s functions."""
    module = getattr(function, "__module__", None) or ""
    if module != home:
        return {module} if module else set()
    out: set[str] = set()
    seen: set[int] = set()
    todo: list[FunctionType] = [function] if isinstance(function, FunctionType) else []
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        for name in _names(fn.__code__):
            value = fn.__globals__.get(name)
            if isinstance(value, ModuleType):
                out.add(value.__name__)
            elif isinstance(value, FunctionType) and value.__module__ == home:
                todo.append(value)
            elif callable(value) and getattr(value, "__module__", None):
                out.add(value.__module__)
    return out


def _inside(module: str) -> bool:
    """Whether ``module`` is tricklaw's."""
    return module == PACKAGE or module.startswith(PACKAGE + ".")


def _names(code: CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _names(const)
    return names


class Keys:
    """Every step's key in one run. ``scans`` is a memo of module scans by the SHA-256
    of their source (kept in the cache folder between runs: parsing every module costs
    about a second); ``home`` the module that wires the steps (:func:`roots`); ``wiring``
    the modules whose own files are in every key but not their imports (``home``, which
    imports every step, and the cache's own modules); ``shared`` the modules every step
    runs besides its own (the solver's context, the row type), with their imports."""

    def __init__(
        self, scans: dict[str, Scan], home: str, wiring: Iterable[str], shared: Iterable[str]
    ) -> None:
        self.scans = scans
        self.home = home
        self.wiring = frozenset(wiring) | {home}
        self.shared = tuple(shared)
        self._files: dict[Path, str] = {}
        self._modules: dict[str, tuple[tuple[str, str], ...]] = {}
        self._where: dict[str, tuple[Path, ...]] = {}
        self._code: dict[tuple[frozenset[str], tuple[str, ...]], str | None] = {}
        self.versions = versions()
        self.environment = environment()
        self.data = data_files()

    def digest(self, path: Path) -> str:
        """The SHA-256 of ``path``'s bytes (``missing`` if it cannot be read), once a run."""
        if path not in self._files:
            try:
                self._files[path] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                self._files[path] = "missing"
        return self._files[path]

    def unchanged(self) -> bool:
        """Whether every file hashed in this run still has the digest it had (no edit was
        saved while the run went on)."""
        for path, digest in list(self._files.items()):
            try:
                now = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                now = "missing"
            if now != digest:
                return False
        return True

    def files(self, name: str) -> tuple[Path, ...]:
        """:func:`~tricklaw.verify.cache.graph.module_files`, once a run."""
        if name not in self._where:
            self._where[name] = module_files(name)
        return self._where[name]

    def module(self, name: str) -> tuple[tuple[str, str], ...]:
        """Module ``name``'s files (their names) and digests."""
        if name not in self._modules:
            self._modules[name] = tuple((f.name, self.digest(f)) for f in self.files(name))
        return self._modules[name]

    def scan_of(self, name: str) -> Scan:
        """Module ``name``'s :class:`~tricklaw.verify.cache.graph.Scan`, from the memo when
        its source is unchanged."""
        source = source_of(self.files(name))
        if source is None:
            return Scan((), False)
        digest = self.digest(source)
        if digest not in self.scans:
            is_package = source.name == "__init__.py"
            self.scans[digest] = scan(source.read_bytes(), name, is_package)
        return self.scans[digest]

    def code(self, call: StepCall) -> str | None:
        """A digest of the modules ``call`` can run and their files' digests; None when
        one lies outside the ``tricklaw`` package (a plug-in's: not cached)."""
        start = {m for fn in call.calls for m in roots(fn, self.home)} | set(self.shared)
        memo = (frozenset(m for m in start if _inside(m)), call.games)  # libraries: versions
        if memo not in self._code:
            modules = closure(sorted(memo[0]), call.games, self.scan_of, self.files)
            modules |= self.wiring
            if all(map(_inside, modules)):
                text = json.dumps({m: self.module(m) for m in sorted(modules)})
                self._code[memo] = hashlib.sha256(text.encode()).hexdigest()
            else:
                self._code[memo] = None
        return self._code[memo]

    def key(self, call: StepCall) -> str | None:
        """``call``'s key, or None when it is not to be cached."""
        code = self.code(call)
        if code is None or self.data is None:
            return None
        document = {
            "format": FORMAT,
            "step": call.name,
            "args": call.args,
            "versions": self.versions,
            "environment": self.environment,
            "code": code,
            "data": self.data_of(call.games),
        }
        text = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def data_of(self, games: Iterable[str]) -> dict[str, str]:
        """The spec files ``games``'s rows can read, with their digests: every file but
        those of other games."""
        assert self.data is not None
        wanted = set(games)
        out: dict[str, str] = {}
        for name, (owner, path) in self.data.items():
            if owner is None or owner in wanted:
                out[name] = self.digest(path)
        return out


GAME_FILE = re.compile(r"^(?P<game>[a-z0-9][a-z0-9-]*)\.")
"""A spec file of one game: named ``<ruleset id>.<anything>``."""


def data_files() -> dict[str, tuple[str | None, Path]] | None:
    """Every data file of the spec folders, by its place (``folder index/relative
    path``), with the game it belongs to (None: shared). A file belongs to a game when
    its name starts with the game's ruleset id and a dot (``hund.toml``,
    ``vectors/v1/hund.deals.json``). None when a folder is not on the file system."""
    from tricklaw.model.rulesets import RULESETS

    ids = set(RULESETS)
    out: dict[str, tuple[str | None, Path]] = {}
    for index, folder in enumerate(folders()):
        if not isinstance(folder, Path):
            return None
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix in (".py", ".pyc"):
                continue
            match = GAME_FILE.match(path.name)
            owner = match["game"] if match and match["game"] in ids else None
            out[f"{index}/{path.relative_to(folder).as_posix()}"] = (owner, path)
    return out


def versions() -> dict[str, str]:
    """Python's version and machine, and the installed version of tricklaw and of every
    library it requires (any extra's, where installed): a solver or library upgrade
    makes every key new."""
    out = {
        "python": sys.version,
        "implementation": sys.implementation.name,
        "machine": platform.machine(),
    }
    try:
        out[PACKAGE] = importlib.metadata.version(PACKAGE)
        requires = importlib.metadata.requires(PACKAGE) or []
    except importlib.metadata.PackageNotFoundError:
        requires = []
    for requirement in requires:
        name = re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0]
        try:
            out[name.lower()] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return out
