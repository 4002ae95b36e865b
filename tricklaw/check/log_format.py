"""The JSON Lines game log (``spec/log.schema.json``): its format, and its kinds of line.

**The JSON Lines log** (``"format": "tricklaw-log"``, ``"version": 2``). One JSON object
per line, written as the game goes; blank lines are ignored. The first line is the
header; the events follow, and the end line closes the log::

    {"format": "tricklaw-log", "version": 2, "ruleset": "sticheln", "players": 4,
     "options": {"rounds": 2}, "seed": 7}
    {"round": 0, "deal": {"hands": [["G4", "B7", ...], ...]}}
    {"seat": 0, "action": "select G2"}
    ...
    {"seat": 3, "action": "R6"}
    {"trick": {"leader": 0, "cards": ["G9", "Y3", "B3", "R6"], "winner": 3,
     "taken": {"3": ["G9", "Y3", "B3", "R6"]}, "aside": []}}
    ...
    {"scores": [-10, 2, -9, -14], "totals": [-10, 2, -9, -14]}
    {"round": 1, "deal": {...}}
    ...
    {"totals": [-15, -6, -17, -30], "winners": [1], "complete": true}
    {"end": {"lines": 134}}

``options`` may name only some options (the others take their defaults) and ``seed`` may
be ``null`` or absent. Each event is told by its key:

* ``{"round": 0, "deal": {...}}`` begins round 0 (indices count from 0, as the record's
  ``index``). ``deal`` is the record's deal object (``hands``, ``piles``,
  ``first_leader``, ``extras``); it may be left out when the header has a seed, and the
  seed then deals. Optional ``dealer`` and ``seating`` are checked at once.
* ``{"seat": 2, "action": "R5"}`` is one action in the record's notation. Automatic
  plays (The Last's ghost, Hund's virtual player) are not actions; they appear in tricks.
* ``{"trick": {...}}`` is the result of the trick that the action just before completed:
  the record's trick object (``leader``, ``cards``, ``winner``, optional ``taken`` and
  ``aside``; ``clauses`` and ``facts`` are not checked). Trick lines are optional, but
  one that is given must come right after the action that completed its trick.
* ``{"scores": [...]}`` ends the round, one score per seat (an automatic seat
  included); optional ``totals`` (the totals after the round), ``first_leader`` and
  ``facts`` are checked too.
* ``{"totals": [...]}`` ends the log, with optional ``winners`` and ``complete``.

* ``{"end": {"lines": N}}`` (version 2) is the log's last line: ``N`` is the number of
  lines before it, the header included and blank lines not counted. It says the log is
  whole, not that the game is over.

Round lines are required; every other event line is optional, and the checker checks
what the log gives. The game may stop anywhere (a log of a game in progress): the game
so far is checked. **The file may not** (issue 43): a version 2 log without its end line,
or whose end line counts other lines than it has, was cut short (its writer crashed or
is still writing) and is unreadable (exit 2, ``end: the log has no end line ...``), so a
log cut short never checks as ``agrees``. A version 1 log has no end line; it is still
read, but one whose last line stops mid-line (no line end, not JSON) is unreadable too.
A version 1 log cut between two lines cannot be told from a whole one: write version 2.
Any other line that is not JSON makes the log unreadable. Every line must match
the schema's definition of its kind (:data:`KINDS`); the first field that does not makes
the log unreadable, with the schema's message.

**Deals and the seed.** When the log has a seed, every deal it gives must be the deal of
tricklaw's portable shuffle for that seed (hands in any order, piles top first, the
``aside`` pile in any order). An implementation that shuffles its own way passes
``--own-shuffle``: each deal is then checked only to be a legal deal (the deck, the hand
sizes), as ``tricklaw replay`` does.
"""

from __future__ import annotations

from typing import Any, Final

from tricklaw.model.replay.records import LOG_FORMAT, LOG_VERSION
from tricklaw.model.schemas import schema

FORMAT: Final = LOG_FORMAT
"""The header's ``format``."""
VERSION: Final = LOG_VERSION
"""The header's ``version`` that tricklaw writes (2: with an end line)."""
VERSIONS: Final = (1, LOG_VERSION)
"""The versions this tricklaw reads (1: without an end line)."""

HEADER: Final = "header"
ROUND: Final = "round"
ACTION: Final = "action"
TRICK: Final = "trick_line"
SCORES: Final = "scores"
TOTALS: Final = "totals"
END: Final = "end"
KINDS = (HEADER, ROUND, ACTION, TRICK, SCORES, TOTALS, END)
"""The kinds of line: each is a definition (``$defs``) of the log schema."""


def keys(definition: str) -> frozenset[str]:
    """The keys an object of the log schema's ``definition`` (a kind of line, ``deal``,
    ``trick``) may have."""
    return frozenset(schema("log")["$defs"][definition]["properties"])


def kind_of(obj: dict[str, Any]) -> str | None:
    """The kind of an event line (not the header), told by its key; None if none fits."""
    if "trick" in obj:
        return TRICK
    if "action" in obj or "seat" in obj:
        return ACTION
    if "round" in obj:
        return ROUND
    if "scores" in obj:
        return SCORES
    if "totals" in obj:
        return TOTALS
    if "end" in obj:
        return END
    return None
