"""Tiny, the example game of ``docs/adding-a-ruleset.md``: a plug-in with one module per
layer, registered from outside the package as any third-party game would be.

* ``spec/``: the rule text, its line count and hash (``sources.toml``) and the clause
  registry (``tiny.toml``);
* :mod:`.model`: the reference model;
* :mod:`.encoding`: its trick rule, play rule and card flow in Z3, written from the clauses;
* :mod:`.bounds`: the relaxation its score bounds are proved over, and the plan of the
  witnesses that meet them;
* :mod:`.vectors`: its conformance-vector profile;
* :mod:`.views`: what its observation adds to the views (OpenSpiel's tensors);
* :mod:`.strategy`: its heuristic agent (the generic card play on its score rule);

:func:`register` adds every part to its layer's registry; :func:`unregister` removes
them again; :func:`registered` does both around a block.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources

from tricklaw import spec
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.strategies import HEURISTICS
from tricklaw.proofs.bounds import BOUNDS
from tricklaw.proofs.conservation import MACHINES
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.liveness import LIVENESS
from tricklaw.proofs.model_rules import MODEL_RULES
from tricklaw.proofs.plays import PLAYS
from tricklaw.proofs.quantities import TIES
from tricklaw.proofs.round_rules import ROUND_RULES
from tricklaw.proofs.scores import SCORES
from tricklaw.vectors.profiles import PROFILES
from tricklaw.views import VIEWS

from . import bounds, encoding
from .model import TINY
from .strategy import STRATEGY
from .vectors import PROFILE
from .views import VIEW

RULESET_ID = TINY.id
SPEC = resources.files(__name__).joinpath("spec")
REGISTRIES = (
    RULESETS,
    ENCODINGS,
    MACHINES,
    LIVENESS,
    PLAYS,
    BOUNDS,
    PROFILES,
    VIEWS,
    TIES,
    ROUND_RULES,
    SCORES,
    MODEL_RULES,
    HEURISTICS,
)
"""The layers' registries Tiny joins (the spec folder aside)."""


def register() -> None:
    """Add Tiny to every layer."""
    spec.add_folder(SPEC)
    RULESETS.register(RULESET_ID, TINY)
    ENCODINGS.register(RULESET_ID, encoding.TinyTrick)
    MACHINES.register(RULESET_ID, encoding.conservation_machine)
    LIVENESS.register(RULESET_ID, encoding.LIVENESS_PART)
    PLAYS.register(RULESET_ID, encoding.TinyPlay)
    BOUNDS.register(RULESET_ID, bounds.BOUNDS)
    PROFILES.register(RULESET_ID, PROFILE)
    VIEWS.register(RULESET_ID, VIEW)
    TIES.register(RULESET_ID, encoding.QUANTITIES)
    ROUND_RULES.register(RULESET_ID, encoding.ROUND_RULES_PART)
    SCORES.register(RULESET_ID, encoding.TinyScore)
    MODEL_RULES.register(RULESET_ID, encoding.MODEL_RULES_PART)
    HEURISTICS.register(RULESET_ID, STRATEGY)


def unregister() -> None:
    """Remove Tiny from every layer."""
    for registry in reversed(REGISTRIES):
        registry.unregister(RULESET_ID)
    spec.remove_folder(SPEC)


@contextmanager
def registered() -> Iterator[str]:
    """Tiny in every layer while the block runs (its ruleset id), removed after it."""
    register()
    try:
        yield RULESET_ID
    finally:
        unregister()
