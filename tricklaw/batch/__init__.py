"""The batch engine: many independent random games played in lockstep with numpy.

A game is a unit here too: :mod:`tricklaw.batch.engine` is the generic lockstep driver,
and each ruleset has one module in :mod:`tricklaw.batch.games` that registers its part in
:data:`BATCH`: a :class:`~tricklaw.batch.engine.Lockstep` subclass, or the
:class:`~tricklaw.batch.engine.ReferenceFallback` where the ruleset is not vectorised yet.
A ruleset with no entry (a plug-in's, the tests' example game) falls back to the reference
(:func:`engine_for`). Every built-in ruleset has a kernel for every player count and
reading (the two-player games' ghost and virtual player, Hund's designation sets
included); :meth:`~tricklaw.batch.engine.BatchEngine.kernel_plays` says whether a game is
played in lockstep: without numba only Low-High is (its lockstep part also runs on plain
numpy), the others are played by the reference. Deals and agents draw from the
reference's portable streams, so a seed gives the same game in both engines (checked by
``tests/test_batch.py``).

The kernels can also be driven action by action (:mod:`tricklaw.batch.forced`): the
differential fuzzer plays them so, through :mod:`tricklaw.kernel_engine`, like any other
engine (``tests/test_kernel_engine.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import tricklaw.model.registry

if TYPE_CHECKING:
    from tricklaw.batch.engine import BatchEngine

# Written in full: the engine's type is known only to the type checker (numpy is imported
# with it), so the docs read this annotation as text, where ``Registry`` alone is ambiguous.
BATCH: tricklaw.model.registry.Registry[BatchEngine] = tricklaw.model.registry.Registry(
    "batch engine", "tricklaw.batch.games"
)
"""Ruleset id -> its batch engine."""


def engine_for(ruleset_id: str) -> BatchEngine:
    """The batch engine of ``ruleset_id``; the reference fallback for a ruleset that
    registered none."""
    from tricklaw.batch.engine import ReferenceFallback

    return BATCH[ruleset_id] if ruleset_id in BATCH else ReferenceFallback()
