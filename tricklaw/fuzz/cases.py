"""The values a fuzz run deals in: a :class:`Case` (a game's set-up, deals and steps),
the :class:`Disagreement` where the engine and the rules part, and the :class:`Outcome`
of playing a case."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricklaw.model.replay.citation import Citation
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Deal, Game, State

Step = tuple[int, int | None]
"""``(choice, probe)``: the legal action ``legal[choice % len(legal)]``, after trying the
illegal candidate ``probe`` (an index into
:func:`~tricklaw.fuzz.games.illegal_candidates`) when it is not None."""


@dataclass(frozen=True, slots=True)
class Case:
    """One fuzz game: its set-up, its deals and the steps taken."""

    ruleset: str
    players: int
    options: dict[str, Any]
    seed: int
    deals: tuple[Deal, ...]
    steps: tuple[Step, ...] = ()
    policy_seed: int = 0
    """Where new steps come from once ``steps`` run out (the adversarial players)."""
    readings: tuple[tuple[str, Any], ...] = ()
    """``(option, value)`` the model plays on top of ``options`` and the engine is not
    told: the readings that the engine's declared departures matched, under which the
    case is played again to its end (:func:`~tricklaw.fuzz.declared.follow`)."""

    def game(self) -> Game:
        """The game the model plays: ``options``, then ``readings``."""
        options = {**self.options, **dict(self.readings)}
        return get_ruleset(self.ruleset).make_game(self.players, options)


@dataclass(frozen=True, slots=True)
class Disagreement:
    """The first point where the engine and the rules part."""

    kind: str
    """``legal_actions``, ``illegal_accepted``, ``legal_refused``, ``trick``, ``scores``,
    ``totals``, ``turn``, ``end``, ``deal`` or ``protocol``."""
    step: int
    """The step (0-based) whose action or answer disagreed; -1 for ``new_game``."""
    message: str
    expected: Any
    got: Any
    clauses: tuple[str, ...]
    disputes: tuple[str, ...] = ()
    """The disputes at stake (:func:`~tricklaw.model.replay.citation.cite`)."""
    established: bool = False
    """Whether another reading of those disputes changes the rules' answer here."""
    citation: Citation | None = None
    """The whole citation (with each reading's answer), when the answer was compared."""

    def as_json(self) -> dict[str, Any]:
        """The disagreement as JSON."""
        return {
            "kind": self.kind,
            "step": self.step,
            "message": self.message,
            "expected": self.expected,
            "got": self.got,
            "clauses": list(self.clauses),
            "disputes": list(self.disputes),
            "established": self.established,
            "readings": {} if self.citation is None else dict(self.citation.readings),
        }


@dataclass(slots=True)
class Outcome:
    """What playing a case gave: the steps actually taken, the model's last state, and
    the disagreement if any."""

    case: Case
    state: State[Any]
    disagreement: Disagreement | None
    actions: int = 0
