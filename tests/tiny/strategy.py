"""Tiny's heuristic agent: the generic card play of :mod:`tricklaw.model.strategies` on its
score rule, with no choices of its own (Tiny has none)."""

from __future__ import annotations

from tricklaw.model.strategies import Strategy

STRATEGY = Strategy(name="score-greedy", summary="plays for tricks that raise its score")
