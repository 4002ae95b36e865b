"""hund in the batch layer: not vectorised yet, so its games are played by the reference
engine (:class:`~tricklaw.batch.engine.ReferenceFallback`); ``tricklaw bench`` still runs."""

from __future__ import annotations

from tricklaw.batch import BATCH
from tricklaw.batch.engine import ReferenceFallback

BATCH.register("hund", ReferenceFallback())
