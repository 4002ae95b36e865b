"""One registry per layer: ruleset id -> that layer's part of the game.

A game is a unit: each layer (the model, the Z3 encodings, the score bounds and plans,
the conformance-vector profiles, the views) has one module (or one small package) per
ruleset, and that module registers its part in the layer's :class:`Registry` when it is
imported. A layer's registry imports every module of its own folder the first time it is
asked (:meth:`Registry.load`), so adding a game means adding one module per layer and
editing nothing else; a game defined elsewhere (a test's, a plug-in's) calls
:meth:`Registry.register` itself.

The model's registry (:data:`tricklaw.model.rulesets.RULESETS`) decides which rulesets
exist and their order; every other layer's registry is checked to cover exactly those
(``tests/test_layers.py``). Generic code asks a registry and never branches on a ruleset
id.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from tricklaw.spec.errors import OptionError

T = TypeVar("T")


class Registry(Mapping[str, T]):
    """Ruleset id -> one layer's part of that ruleset, as a read-only mapping that fills
    itself on first use. ``layer`` names the part in messages (e.g. "trick encoding");
    ``package`` is the folder whose modules register; ``order``, when given, sorts the
    ids by their items (the model's registry: the seed texts' order), else they keep the
    order in which they registered."""

    def __init__(self, layer: str, package: str, order: Callable[[T], Any] | None = None) -> None:
        self.layer = layer
        self.package = package
        self.order = order
        self.home: str = sys._getframe(1).f_globals.get("__name__", "")
        """The module that made this registry (the one that holds it)."""
        self._items: dict[str, T] = {}
        self._owners: dict[str, set[str]] = {}
        self._loaded = False
        REGISTRIES.append(self)

    def register(self, ruleset_id: str, item: T) -> T:
        """Record ``item`` as this layer's part of ``ruleset_id`` and return it. A second
        registration of the same id is an error (two modules claiming one game)."""
        if ruleset_id in self._items and self._items[ruleset_id] is not item:
            raise OptionError(f"ruleset {ruleset_id!r} has a {self.layer} already")
        self._items[ruleset_id] = item
        self._owners.setdefault(ruleset_id, set()).update(_registering(item))
        return item

    def owners(self, ruleset_id: str) -> frozenset[str]:
        """The modules that registered this layer's part of ``ruleset_id`` (empty if none
        did): where a game's code in this layer starts. The result cache of ``verify``
        (:mod:`tricklaw.verify.cache`) follows a registry to these modules only, so that
        one game's rows do not depend on another game's code."""
        self.load()
        return frozenset(self._owners.get(ruleset_id, ()))

    def unregister(self, ruleset_id: str) -> None:
        """Forget ``ruleset_id`` (a test's or plug-in's game, when it is done)."""
        self._items.pop(ruleset_id, None)
        self._owners.pop(ruleset_id, None)

    def load(self) -> None:
        """Import every module of the layer's folder once, so that each registers."""
        if self._loaded:
            return
        self._loaded = True
        package = importlib.import_module(self.package)
        for module in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{self.package}.{module.name}")

    def lookup(self, ruleset_id: str) -> T:
        """This layer's part of ``ruleset_id``; raises OptionError naming the known ids."""
        self.load()
        try:
            return self._items[ruleset_id]
        except KeyError:
            known = ", ".join(self._items) or "none"
            raise OptionError(
                f"no {self.layer} for ruleset {ruleset_id!r} (rulesets: {known})"
            ) from None

    def ids(self) -> tuple[str, ...]:
        """The ruleset ids registered in this layer, in order."""
        self.load()
        if self.order is None:
            return tuple(self._items)
        key = self.order
        return tuple(sorted(self._items, key=lambda rid: (key(self._items[rid]), rid)))

    def __getitem__(self, ruleset_id: str) -> T:
        self.load()
        return self._items[ruleset_id]

    def __contains__(self, ruleset_id: object) -> bool:
        self.load()
        return ruleset_id in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids())

    def __len__(self) -> int:
        self.load()
        return len(self._items)


REGISTRIES: list[Registry[Any]] = []
"""Every registry made so far, in the order they were made (one per layer and module:
they live as long as the program)."""


def _registering(item: object) -> set[str]:
    """The module that called :meth:`Registry.register`: the calling frame's. A module
    compiled by mypyc has no Python frame, so when it registers while being imported the
    caller seen is the import machinery; then the owners are the loaded modules that hold
    ``item`` as a global (the compiled module among them). More owners than one only
    widen what the result cache keys on; when no module holds ``item``, the import
    machinery stays the owner, and a game owned by a module outside tricklaw is never
    cached (:mod:`tricklaw.verify.cache`)."""
    caller: str = sys._getframe(2).f_globals.get("__name__", "")
    if caller.partition(".")[0] not in ("importlib", "_frozen_importlib"):
        return {caller}
    holders = {name for name, module in list(sys.modules.items()) if _holds(module, item)}
    return holders or {caller}


def _holds(module: object, item: object) -> bool:
    """Whether ``module`` has ``item`` itself among its globals."""
    names = getattr(module, "__dict__", None)
    return isinstance(names, dict) and any(value is item for value in names.values())
