"""The Z3 encodings of every ruleset's trick rule: the encoding layer's registry.

Each module of this folder writes one game's trick rule in Z3 from its clauses and
registers its :class:`~tricklaw.proofs.tricks.TrickEncoding` in :data:`ENCODINGS` under
each ruleset id it serves (one encoding may serve the editions of one game).
"""

from __future__ import annotations

from tricklaw.model.registry import Registry
from tricklaw.proofs.tricks import TrickEncoding

ENCODINGS: Registry[type[TrickEncoding]] = Registry("trick encoding", __name__)
"""Ruleset id -> its trick encoding."""
