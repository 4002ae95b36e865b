"""Every ruleset tricklaw specifies, by id."""

from __future__ import annotations

from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets.hund import HUND_RULESET
from tricklaw.model.rulesets.lowhigh import LOW_HIGH
from tricklaw.model.rulesets.sticheln import STICHELN, STICHELN_1993
from tricklaw.model.rulesets.the_last import THE_LAST
from tricklaw.spec.errors import OptionError

RULESETS: dict[str, Ruleset[Any]] = {
    r.id: r for r in (STICHELN_1993, STICHELN, THE_LAST, LOW_HIGH, HUND_RULESET)
}
"""Ruleset id -> ruleset, in the order of the seed texts."""


def get_ruleset(ruleset_id: str) -> Ruleset[Any]:
    """The ruleset called ``ruleset_id``; raises OptionError naming the known ids."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise OptionError(
            f"unknown ruleset {ruleset_id!r} (rulesets: {', '.join(RULESETS)})"
        ) from None
