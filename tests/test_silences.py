"""No silence decided quietly (issue 44, item 1): the registry check of
:mod:`tricklaw.spec.silences`.

Every clause that fills a silence of its text names the dispute that records the
choice. The clauses listed in :data:`OPEN` do not yet: they are the known remainder,
each to become a dispute with a switch (as The Last's ghost lead became
``LAST-D-GHOSTLEAD``) or to be shown to have no rule effect. The list can only shrink: a
new quiet decision fails here, and so does a listed one that has been recorded.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tricklaw.model.rulesets import RULESETS
from tricklaw.spec import load_registry
from tricklaw.spec.silences import quiet_decisions

OPEN = {
    "the-last": ["LAST-COLLECT-1"],  # may a player look at his face-down cards again?
    "hund": [
        "HUND-COLLECT-1",  # who leads after a trick (points to HUND-GAP-4)
        "HUND-TWO-4",  # do the virtual player's face-down cards count for following?
        "HUND-GAP-2",  # how the cards are dealt
        "HUND-GAP-3",  # the first start player; the start when Lead names nobody
        "HUND-GAP-4",  # the winner leads the next trick
        "HUND-GAP-5",  # whom the Lead decider may name
        "HUND-GAP-6",  # the virtual player as Lead decider, its points
        "HUND-GAP-7",  # when the designation sets are chosen, and by whom
    ],
}
"""Quiet decisions known today, by ruleset (issue 44 leaves them open)."""


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS.ids()))
def test_no_new_silence_is_decided_quietly(ruleset_id: str) -> None:
    found = [cid for cid, _ in quiet_decisions(load_registry(ruleset_id))]
    assert found == OPEN.get(ruleset_id, [])


def test_the_ghost_lead_was_a_quiet_decision_until_its_dispute() -> None:
    """Not vacuous: The Last's LAST-GHOST-5 carried the choice of who leads after the
    ghost wins in a note until LAST-D-GHOSTLEAD recorded it; with that note, and with the
    dispute gone from the registry, the check finds it, and says why."""
    registry = load_registry("the-last")
    old_note = (
        "The text does not say who starts that next trick; by the general rule "
        "(LAST-COLLECT-2) the ghost, as winner, starts it with its top card."
    )
    clauses = tuple(
        replace(c, note=old_note) if c.id == "LAST-GHOST-5" else c for c in registry.clauses
    )
    planted = replace(registry, clauses=clauses)
    assert (
        "LAST-GHOST-5",
        "its note says the text is silent ('does not say') and names no dispute",
    ) in quiet_decisions(planted)
    # Naming a dispute that the registry does not hold does not count.
    named = tuple(
        replace(c, note=old_note + " See LAST-D-NOSUCH.") if c.id == "LAST-GHOST-5" else c
        for c in registry.clauses
    )
    assert "LAST-GHOST-5" in dict(quiet_decisions(replace(registry, clauses=named)))
    # A gap clause is a decision by its kind, words of silence or not.
    gap = tuple(
        replace(c, note="Gap: the winner leads.") if c.id == "LAST-GHOST-5" else c
        for c in registry.clauses
    )
    assert dict(quiet_decisions(replace(registry, clauses=gap)))["LAST-GHOST-5"].startswith(
        "a gap clause"
    )
