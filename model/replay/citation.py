"""One citation for one divergence, shared by ``tricklaw check`` and ``tricklaw fuzz``.

A divergence is a *point* of the game (:data:`POINTS`: the winners, the totals, a round's
scores, the end of the game or of a round, the seat to act, a trick, an illegal action)
where an implementation's answer differs from the rules'. :func:`cite` names, for that
point, the clause ids that decide the rules' answer and the disputes at stake:

* the clauses come from the ruleset's clause roles (``game.ruleset.clause``: the same
  role for the same point, whichever tool asks) plus the clauses the model's own answer
  names (a trick result's clauses, the clause that forbids an action);
* a dispute is at stake when it has an option and some other reading of that option
  changes the rules' answer at this point (*sensitivity*). This is tried where the model
  gives its answer under another reading cheaply (``answer``, a function of a
  :class:`~tricklaw.model.state.Game`): the winners of given totals; a completed trick
  (:func:`trick_answer`: the same state and action under the other reading; a reading
  under which the action is illegal is left out); and any answer of a state, the totals,
  a round's scores, the seat to act, the legal actions, the end of the game
  (:func:`replayed_answer`: the same deals and actions played again from the start under
  the other reading). The citation is then ``established`` and
  :attr:`Citation.readings` lists the readings whose answer is the implementation's.
  Where no answer is given, no dispute is cited: a dispute whose recorded clauses merely
  share a clause with the citation is too weak a ground (it would name e.g. the
  round-leader dispute for every wrong game end), and never grounds to excuse a
  divergence as a declared departure.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tricklaw.model.record import new_tricks, trick_json
from tricklaw.model.state import Game, State
from tricklaw.spec.errors import TricklawError

POINTS: dict[str, tuple[str, ...]] = {
    "winners": ("winner", "game-end"),
    "totals": ("score-total",),
    "scores": ("score-total",),
    "end": ("game-end",),
    "round-end": ("round-end",),
    "first-lead": ("first-lead",),
    "facts": (),
    "turn": ("turn",),
    "trick": (),
    "illegal": (),
    "deal": ("deal",),
    "collect": ("collect",),
}
"""Each point and the clause roles that decide it (the first role the ruleset has)."""


@dataclass(frozen=True, slots=True)
class Citation:
    """The clauses and disputes one divergence cites."""

    clauses: tuple[str, ...]
    disputes: tuple[str, ...] = ()
    established: bool = False
    """Whether the disputes were found by sensitivity (another reading changes the
    rules' answer), not only by shared clauses."""
    readings: tuple[tuple[str, str], ...] = ()
    """``(dispute id, reading)`` whose answer is the implementation's (sensitivity only)."""
    answers: tuple[tuple[str, str, Any], ...] = ()
    """``(dispute id, reading, answer)``: the rules' answer under each reading of each
    dispute at stake (:data:`NOT_PLAYED` where that reading refuses the play); what a
    declared departure is judged against (:mod:`~tricklaw.model.replay.departure`)."""

    def answers_text(self, dispute: str, got: Any, who: str) -> str:
        """The readings' answers of ``dispute`` and ``who``'s (the implementation's)
        ``got``, for messages: ``lead-card gives 2, first-nonzero gives 3; the log gives 1``."""
        said = ", ".join(
            f"{reading} gives {_shown(answer)}"
            for d, reading, answer in self.answers
            if d == dispute
        )
        return f"{said}; {who} gives {_shown(got)}"

    def as_json(self) -> dict[str, Any]:
        """The citation as JSON (``clauses``, ``disputes``, ``established``, ``readings``)."""
        return {
            "clauses": list(self.clauses),
            "disputes": list(self.disputes),
            "established": self.established,
            "readings": {d: r for d, r in self.readings},
        }


NOT_PLAYED = "not played"
"""A trick's answer under a reading where the action that completes it is not legal."""


def _shown(value: Any) -> str:
    """An answer as JSON text (:data:`NOT_PLAYED` as words), for messages."""
    return value if value == NOT_PLAYED else json.dumps(value, ensure_ascii=False)


def trick_answer(before: State[Any], action: int, index: int, key: str) -> Callable[[Game], Any]:
    """The rules' answer for field ``key`` (``leader``, ``cards``, ``winner``, ``taken``,
    ``aside``) of trick ``index`` (in its round) that ``action`` completes from ``before``,
    as a function of the game: the same state under another reading, the same action."""

    def answer(game: Game) -> Any:
        state = before._replace(info=replace(before.info, game=game))
        try:
            after = state.child(action)
            done = new_tricks(after, (len(before.history), len(before.tricks)))
        except (TricklawError, LookupError, TypeError, ValueError):  # not playable there
            return NOT_PLAYED
        for t_index, leader, result, seating in done:
            if t_index == index:
                value = trick_json(leader, result, seating, game.ruleset.palette).get(key, {})
                return _canonical(key, value)
        return NOT_PLAYED

    return answer


def trick_leader(round_index: int, index: int) -> Callable[[State[Any]], Any]:
    """The leader of trick ``index`` of round ``round_index`` (from 0) in a state (an
    extract for :func:`replayed_answer`): who leads a trick is settled by the tricks
    before it (The Last's ghost lead, LAST-D-GHOSTLEAD), so only a replay from the
    start under another reading can say it."""

    def extract(state: State[Any]) -> Any:
        logs = state.info.history
        tricks = logs[round_index].tricks if round_index < len(logs) else state.tricks
        return tricks[index][0] if index < len(tricks) else NOT_PLAYED

    return extract


def replayed_answer(
    state: State[Any], extract: Callable[[State[Any]], Any]
) -> Callable[[Game], Any]:
    """The rules' answer at ``state`` (``extract`` of it: the totals, the seat to act, the
    legal actions, a round's scores, the end) as a function of the game: the same deals
    and the same actions by the same seats, played again from the start under another
    reading. :data:`NOT_PLAYED` where that reading deals otherwise, gives an action to
    another seat, or refuses one: it does not decide this point."""
    logs = state.info.history
    deals = [log.deal for log in logs]
    played = [pair for log in logs for pair in log.actions]
    if not state.is_terminal() and state.info.index == len(logs):  # a round under way
        deals.append(state.info.deal)
        played += state.actions

    def answer(game: Game) -> Any:
        try:
            again = game.new_state_from_deals(deals)
            for seat, action in played:
                if again.current_player() != seat:
                    return NOT_PLAYED
                again = again.child(action)
        except (TricklawError, LookupError, TypeError, ValueError):  # not playable there
            return NOT_PLAYED
        return extract(again)

    return answer


def totals_of(state: State[Any]) -> list[int]:
    """The totals, as records and the protocol write them (an answer to replay)."""
    return list(state.returns())


def legal_of(state: State[Any]) -> list[str]:
    """The legal actions in notation, sorted (an answer to replay)."""
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def scores_from(first: int) -> Callable[[State[Any]], list[list[int]]]:
    """The scores of the rounds finished from round ``first`` (from 0) on."""
    return lambda state: [list(log.scores) for log in state.history[first:]]


def _canonical(key: str, value: Any) -> Any:
    """A trick field with its piles sorted (the order of cards taken or set aside does
    not matter; the order of the cards played does)."""
    if key == "taken" and isinstance(value, dict):
        return {str(k): sorted(v) for k, v in value.items()}
    if key == "aside" and isinstance(value, list):
        return sorted(value)
    return value


def cite(
    game: Game,
    point: str,
    clauses: Sequence[str] = (),
    answer: Callable[[Game], Any] | None = None,
    got: Any = None,
) -> Citation:
    """The citation of a divergence at ``point`` (a key of :data:`POINTS`) of ``game``;
    ``clauses`` are those the model's answer names; ``answer`` gives the rules' answer
    under another game (same players, other options), ``got`` the implementation's."""
    roles = POINTS[point]
    table = game.ruleset.clause
    role = next((table[r] for r in roles if table.get(r)), "")
    cited = tuple(dict.fromkeys(c for c in (role, *clauses) if c))
    if answer is None:
        return Citation(cited)
    expected = answer(game)
    disputes: list[str] = []
    readings: list[tuple[str, str]] = []
    answers: list[tuple[str, str, Any]] = []
    for spec in game.ruleset.option_specs:
        if spec.dispute is None:
            continue
        changes = False
        said_by: list[tuple[str, str, Any]] = []
        for value in spec.choices:
            try:
                options = {**game.options.as_dict(), spec.name: value}
                other = game.ruleset.make_game(game.players, options)
            except TricklawError:
                continue
            said = answer(other)
            said_by.append((spec.dispute, str(value), said))
            if said == NOT_PLAYED:  # the reading forbids the play: it does not decide here
                continue
            changes |= said != expected
            if said == got and said != expected:
                readings.append((spec.dispute, value))
        if changes:
            disputes.append(spec.dispute)
            answers += said_by
    return Citation(cited, tuple(disputes), True, tuple(readings), tuple(answers))
