"""The outcome of a check, and the two errors that end one.

A check ends in a :class:`Verdict`: the game *agrees* with the rules, *diverges* from
them (the first divergence, with the expected value and the deciding clause ids), or is
*unreadable* (a field that breaks the schema, a card that no palette has, an unknown
ruleset). The checker raises :class:`DivergenceError` or :class:`UnreadableError` at the
first problem; the readers turn it into the verdict, with the place (line or path,
round, action, trick).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tricklaw.model.replay.citation import Citation
from tricklaw.spec.errors import TricklawError, clip

AGREES, DIVERGES, UNREADABLE = "agrees", "diverges", "unreadable"
DEPARTS = "departs"
"""The log departs from the default reading of a dispute that its engine declared as its
own rule, its answer there is a reading's, and the whole log agrees with the rules under
that reading (``tricklaw check --declare``; :mod:`~tricklaw.model.replay.departure`):
not a failure."""
EXIT_STATUS = {AGREES: 0, DIVERGES: 1, UNREADABLE: 2, DEPARTS: 0}
"""The exit status of ``tricklaw check`` for each verdict."""


@dataclass
class Verdict:
    """The outcome of a check: whether the log agrees, where it first diverges, and why."""

    status: str
    """``agrees``, ``diverges`` or ``unreadable``."""
    problem: str
    """What is wrong (or, when the log agrees, a summary), without the place."""
    line: int | None = None
    """The line of a JSON Lines log (from 1)."""
    path: str | None = None
    """Where in a JSON record, e.g. ``rounds[1].actions[4]``."""
    round: int | None = None
    """The round of a divergence, from 0 as in the files (the log's ``round``)."""
    action: int | None = None
    """The action of a divergence, within its round, from 0 (as a record's
    ``actions[i]``)."""
    trick: int | None = None
    """The trick of a divergence, within its round, from 0."""
    expected: Any = None
    """The value the rules give (JSON-ready)."""
    got: Any = None
    """The value the log gives."""
    clauses: tuple[str, ...] = ()
    """The ids of the clauses that decide the expected value."""
    disputes: tuple[str, ...] = ()
    """The disputes at stake (:func:`~tricklaw.model.replay.citation.cite`)."""
    established: bool = False
    """Whether another reading of those disputes changes the expected value."""
    checked: dict[str, int] = field(default_factory=dict)
    """How many rounds, actions and tricks were checked."""
    readings: tuple[tuple[str, str], ...] = ()
    """``(dispute id, reading)``: the readings the input was checked under, beyond the
    options and declared readings, because its engine declared the dispute as its own
    rule and its answer there was that reading's
    (:mod:`~tricklaw.model.replay.departure`); empty for a check without departures."""
    game: str = ""
    """The game of a divergence or departure, ``"RULESET, N players"`` (empty before the
    header is read, and for other verdicts): ``tricklaw check`` names it on the verdict's
    line, so that a line from a run over many logs says which game it is about."""

    def restated(
        self,
        status: str,
        problem: str,
        checked: dict[str, int],
        readings: tuple[tuple[str, str], ...],
    ) -> Verdict:
        """This verdict, at the same place with the same values, with another status,
        problem, counts and readings (a declared departure judged:
        :mod:`~tricklaw.model.replay.departure`)."""
        return Verdict(
            status,
            problem,
            self.line,
            self.path,
            self.round,
            self.action,
            self.trick,
            self.expected,
            self.got,
            self.clauses,
            self.disputes,
            self.established,
            checked,
            readings,
            self.game,
        )

    @property
    def exit_status(self) -> int:
        """0 agrees, 1 diverges, 2 unreadable."""
        return EXIT_STATUS[self.status]

    @property
    def message(self) -> str:
        """The verdict as one line: the place, then the problem."""
        place = []
        if self.line is not None:
            place.append(f"line {self.line}")
        if self.status in (DIVERGES, DEPARTS):
            for name in ("round", "action", "trick"):
                value = getattr(self, name)
                if value is not None:
                    place.append(f"{name} {value}")
        text = f"{', '.join(place)}: {self.problem}" if place else self.problem
        return clip(" ".join(text.split()))

    def as_json(self) -> dict[str, Any]:
        """The verdict as the ``--json`` object."""
        return {
            "status": self.status,
            "where": {
                "line": self.line,
                "path": self.path,
                "round": self.round,
                "action": self.action,
                "trick": self.trick,
            },
            "game": self.game or None,
            "message": self.message,
            "expected": self.expected,
            "got": self.got,
            "clauses": list(self.clauses),
            "disputes": list(self.disputes),
            "checked": dict(self.checked),
            "readings": dict(self.readings),
        }


class UnreadableError(TricklawError):
    """The input cannot be read; the message names the field. ``line``: the line it is
    on, when the reader knows it better than the checker (a line too long to be read)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class DivergenceError(Exception):
    """The input disagrees with the rules: what it says (``got``), what the rules give
    (``expected``, shown as ``expected_text`` when given) and the deciding clauses."""

    def __init__(
        self,
        problem: str,
        expected: Any,
        got: Any,
        clauses: Sequence[str] | Citation = (),
        expected_text: str | None = None,
    ) -> None:
        shown = show(expected) if expected_text is None else expected_text
        super().__init__(f"{problem}; expected {shown}")
        cited = clauses if isinstance(clauses, Citation) else Citation(tuple(clauses))
        self.citation = cited
        """The whole citation: with the readings' answers a declared departure is judged by."""
        self.clauses = tuple(c for c in cited.clauses if c)
        self.disputes = cited.disputes
        self.established = cited.established
        self.problem = (
            f"{problem}; expected {shown}"
            + (f" [{', '.join(self.clauses)}]" if self.clauses else "")
            + (f" (dispute {', '.join(self.disputes)})" if self.disputes else "")
        )
        self.expected = expected
        self.got = got


def show(value: Any) -> str:
    """``value`` as JSON text, for messages."""
    return json.dumps(value, ensure_ascii=False)
