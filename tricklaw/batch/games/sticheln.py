"""Sticheln (both editions) in the batch layer: not vectorised yet, so their games are
played by the reference engine (:class:`~tricklaw.batch.engine.ReferenceFallback`)."""

from __future__ import annotations

from tricklaw.batch import BATCH
from tricklaw.batch.engine import ReferenceFallback

BATCH.register("sticheln", ReferenceFallback())
BATCH.register("sticheln-1993", ReferenceFallback())
