"""Decisions made quietly: clauses that fill a silence of the text without naming the
dispute that records the choice (issue 44, item 1).

Where a text is silent and tricklaw has to act, the choice must be a dispute: its
readings, its default and why, and an option that selects each reading. A clause that
decides such a point says so by naming that dispute (``LAST-D-GHOSTLEAD``) in its note or
summary. :func:`quiet_decisions` lists the clauses that do not:

* a gap clause (an id with ``-GAP-``, or a note that starts with ``Gap:``), which by its
  kind decides something the text does not say;
* a clause whose note says the text is silent ("does not say", "says nothing", "never
  says", ...).

A clause escapes only by naming a dispute of its own registry, by saying that the point
has ``no rule effect`` (a typo in a worked example, a naming convention), or by taking
the point from another source it names (``From the publisher description``): then
tricklaw decides nothing.

What it cannot catch: a silence filled in the model's code with no clause at all, or a
note that decides a point without words of silence. The first is the model check's
part (a choice between cases that no clause names); the second needs a reader.
"""

from __future__ import annotations

import re

from tricklaw.spec import Registry

SILENT = re.compile(
    r"\b(does not say|do not say|doesn't say|says nothing|say nothing|never says|"
    r"is silent|are silent|not said|leaves? open|left open|unstated|does not state|"
    r"not specified|unspecified|does not specify|never describes|never lists|never names)\b",
    re.IGNORECASE,
)
"""Words with which a note says that the text is silent on its point."""
DISPUTE_ID = re.compile(r"\b[A-Z0-9]+-D-[A-Z0-9]+\b")
NO_EFFECT = "no rule effect"
SOURCED = "From the publisher description"


def quiet_decisions(registry: Registry) -> list[tuple[str, str]]:
    """``(clause id, why)`` for each clause of ``registry`` that fills a silence of the
    text without naming one of the registry's disputes, in the registry's order."""
    disputes = {d.id for d in registry.disputes}
    out: list[tuple[str, str]] = []
    for clause in registry.clauses:
        gap = "-GAP-" in clause.id or clause.note.startswith("Gap:")
        silent = SILENT.search(clause.note)
        if not (gap or silent):
            continue
        named = set(DISPUTE_ID.findall(clause.note + " " + clause.summary)) & disputes
        if named or NO_EFFECT in clause.note or clause.note.startswith(SOURCED):
            continue
        said = f"its note says the text is silent ({silent[0]!r})" if silent else ""
        why = "a gap clause" if gap else said
        out.append((clause.id, why + " and names no dispute"))
    return out
