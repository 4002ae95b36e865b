"""Every game's vector profile, by ruleset id: the conformance vectors' registry.

Each module of this folder holds one game's :class:`~tricklaw.vectors.profile.Profile`
(the readings its vectors sample, its trick contexts, its clauses, its scoring path) and
registers it in :data:`PROFILES` under each ruleset id it serves (one profile module may
serve the editions of one game).
"""

from __future__ import annotations

from typing import Any

from tricklaw.model.registry import Registry
from tricklaw.model.ruleset import Ruleset
from tricklaw.vectors.profile import Profile

PROFILES: Registry[Profile] = Registry("vector profile", __name__)
"""Ruleset id -> its vector profile."""


def profile_of(ruleset: Ruleset[Any]) -> Profile:
    """The vector profile of ``ruleset``; raises OptionError when it has none."""
    return PROFILES.lookup(ruleset.id)
