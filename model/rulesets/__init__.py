"""Every ruleset tricklaw specifies, by id: the model layer's registry.

Each module of this folder defines one game (one rule text, or the editions of one
game) and registers it in :data:`RULESETS` when imported; the registry imports them all
on first use (:class:`~tricklaw.model.registry.Registry`).
"""

from __future__ import annotations

from typing import Any

from tricklaw.model.registry import Registry
from tricklaw.model.ruleset import Ruleset
from tricklaw.spec.errors import OptionError

RULESETS: Registry[Ruleset[Any]] = Registry("ruleset", __name__, order=lambda r: r.source)
"""Ruleset id -> ruleset, in the order of the seed texts (by source file)."""


def get_ruleset(ruleset_id: str) -> Ruleset[Any]:
    """The ruleset called ``ruleset_id``; raises OptionError naming the known ids."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise OptionError(
            f"unknown ruleset {ruleset_id!r} (rulesets: {', '.join(RULESETS)})"
        ) from None

