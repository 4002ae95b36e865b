"""Tiny, the example game of ``docs/adding-a-ruleset.md``: a plug-in with one module per
layer, registered from outside the package as any third-party game would be.

* ``spec/``: the rule text, its line count and hash (``sources.toml``) and the clause
  registry (``tiny.toml``);
* :mod:`.model`: the reference model;

:func:`register` adds every part to its layer's registry; :func:`unregister` removes
them again.
"""

from __future__ import annotations

from importlib import resources

from tricklaw import spec
from tricklaw.model.rulesets import RULESETS

from .model import TINY

RULESET_ID = TINY.id
SPEC = resources.files(__name__).joinpath("spec")


def register() -> None:
    """Add Tiny to every layer."""
    spec.add_folder(SPEC)
    RULESETS.register(RULESET_ID, TINY)


def unregister() -> None:
    """Remove Tiny from every layer."""
    RULESETS.unregister(RULESET_ID)
    spec.remove_folder(SPEC)
