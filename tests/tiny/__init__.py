"""Tiny, the example game of ``docs/adding-a-ruleset.md``: a plug-in with one module per
layer, registered from outside the package as any third-party game would be.

* ``spec/``: the rule text, its line count and hash (``sources.toml``) and the clause
  registry (``tiny.toml``);
* :mod:`.model`: the reference model;
* :mod:`.vectors`: its conformance-vector profile;
* :mod:`.views`: what its observation adds to the views (OpenSpiel's tensors);

:func:`register` adds every part to its layer's registry; :func:`unregister` removes
them again.
"""

from __future__ import annotations

from importlib import resources

from tricklaw import spec
from tricklaw.model.rulesets import RULESETS
from tricklaw.vectors.profiles import PROFILES
from tricklaw.views import VIEWS

from .model import TINY
from .vectors import PROFILE
from .views import VIEW

RULESET_ID = TINY.id
SPEC = resources.files(__name__).joinpath("spec")
REGISTRIES = (RULESETS, PROFILES, VIEWS)
"""The layers' registries Tiny joins (the spec folder aside)."""


def register() -> None:
    """Add Tiny to every layer."""
    spec.add_folder(SPEC)
    RULESETS.register(RULESET_ID, TINY)
    PROFILES.register(RULESET_ID, PROFILE)
    VIEWS.register(RULESET_ID, VIEW)


def unregister() -> None:
    """Remove Tiny from every layer."""
    for registry in reversed(REGISTRIES):
        registry.unregister(RULESET_ID)
    spec.remove_folder(SPEC)
