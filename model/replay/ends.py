"""A round's end and the game's end, as a record or log states them, against the rules.

When the input ends a round (its scores, and optionally the running totals, the first
player and the ruleset's facts) the rules must have ended it too, with the same values
(:func:`check_round_end`); its last word (the totals, the winners, whether the game is
complete) must be the rules' (:func:`check_game_end`). Each raises
:class:`~tricklaw.model.replay.verdict.DivergenceError` naming the expected value and
the deciding clause.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tricklaw.model.record import log_json
from tricklaw.model.replay.citation import (
    Citation,
    cite,
    replayed_answer,
    scores_from,
    totals_of,
)
from tricklaw.model.replay.verdict import DivergenceError, show
from tricklaw.model.state import Deal, Game, Phase, RoundLog, State

NO_DEAL = Deal(())


def turn(state: State[Any]) -> str:
    """Who is to act in ``state``, for messages."""
    held = len(state.hands[state.current]) if state.current >= 0 else 0
    return f"seat {state.current} is to act, holding {held} cards"


def progress(state: State[Any] | None) -> str:
    """How far the game of ``state`` is, for messages."""
    if state is None:
        return "no round played"
    return f"round {state.info.index} is in play, {turn(state)}"


def round_over(state: State[Any] | None, index: int) -> bool:
    """Whether by the rules round ``index`` (from 0) is over in ``state``."""
    return state is not None and (state.phase is Phase.OVER or state.info.index > index)


def _round_scores(index: int) -> Callable[[State[Any]], list[list[int]]]:
    """Round ``index``'s scores in a state (none before it ends)."""
    return lambda state: scores_from(index)(state)[:1]


def _cite_state(
    game: Game,
    point: str,
    state: State[Any] | None,
    extract: Callable[[State[Any]], Any],
    got: Any,
) -> Citation:
    """The citation at ``point``, established by replaying ``state``'s game under each
    reading (none before the first deal)."""
    answer = replayed_answer(state, extract) if state is not None else None
    return cite(game, point, (), answer, got)


def _first_leader(index: int) -> Callable[[State[Any]], list[int]]:
    """Round ``index``'s first leader in a state (none before it ends)."""
    return lambda state: [log.first_leader for log in state.history if log.index == index]


def _round_citation(
    game: Game, state: State[Any], index: int, key: str, *, got: Any, expected: Any
) -> Citation:
    """The clauses (and disputes) a wrong ``key`` of round ``index``'s end cites: the
    scores and the first leader by replaying the game under each reading, a fact by the
    clause the ruleset names for it (its role ``fact:NAME``, for the first fact that
    differs)."""
    if key == "scores":
        return cite(game, "scores", (), replayed_answer(state, _round_scores(index)), [got])
    if key == "first_leader":
        answer = replayed_answer(state, _first_leader(index))
        return cite(game, "first-lead", (), answer, [got])
    names = sorted(set(expected) | set(got if isinstance(got, dict) else {}))
    given = got if isinstance(got, dict) else {}
    differing = [n for n in names if given.get(n) != expected.get(n)]
    role = next((f"fact:{n}" for n in differing if game.ruleset.clause.get(f"fact:{n}")), "")
    return cite(game, "facts", (game.ruleset.clause.get(role, ""),))


def check_round_end(
    game: Game, state: State[Any], index: int, fields: dict[str, Any], noun: str
) -> None:
    """The input (the ``noun``) ends round ``index`` with ``fields`` (``scores``, and
    optionally ``totals``, ``first_leader``, ``facts``): the rules must have ended it with
    the same values."""
    clause = game.ruleset.clause
    if not round_over(state, index):
        raise DivergenceError(
            f"the {noun} ends round {index}, but by the rules it is not over: {turn(state)}",
            None,
            None,
            [clause.get("round-end", "")],
            expected_text=f"more of round {index}",
        )
    log = next(log for log in reversed(state.info.history) if log.index == index)
    expected = log_json(game, bare(log))
    for key in ("scores", "first_leader", "facts"):
        if key in fields and fields[key] != expected[key]:
            raise DivergenceError(
                f"the {noun} says {key} = {show(fields[key])}",
                expected[key],
                fields[key],
                _round_citation(game, state, index, key, got=fields[key], expected=expected[key]),
                expected_text=f"{key} = {show(expected[key])}",
            )
    totals = list(state.returns())
    if "totals" in fields and fields["totals"] != totals:
        raise DivergenceError(
            f"the {noun} says the totals after round {index} are {show(fields['totals'])}",
            totals,
            fields["totals"],
            cite(game, "totals", (), replayed_answer(state, totals_of), fields["totals"]),
        )


def check_game_end(game: Game, state: State[Any] | None, fields: dict[str, Any], noun: str) -> None:
    """The input's last word, ``fields`` (``totals``, ``winners``, ``complete``, each
    optional): the rules' for the game so far, ``state``."""
    clause = game.ruleset.clause
    over = state is not None and state.phase is Phase.OVER
    totals = list(state.returns()) if state is not None else [0] * game.seats
    end_clause = clause.get("game-end", "")
    if "complete" in fields and fields["complete"] != over:
        said = "complete" if fields["complete"] else "unfinished"
        raise DivergenceError(
            f"the {noun} says the game is {said}",
            over,
            fields["complete"],
            _cite_state(game, "end", state, State.is_terminal, fields["complete"]),
            expected_text="over" if over else f"not over ({progress(state)})",
        )
    if "totals" in fields and fields["totals"] != totals:
        raise DivergenceError(
            f"the {noun} says totals = {show(fields['totals'])}",
            totals,
            fields["totals"],
            _cite_state(game, "totals", state, totals_of, fields["totals"]),
        )
    if "winners" in fields:
        if not over:
            raise DivergenceError(
                f"the {noun} names winners, but by the rules the game is not over",
                None,
                fields["winners"],
                [end_clause],
                expected_text=f"no winners yet ({progress(state)})",
            )
        winners = list(game.ruleset.winners(game, totals))
        if fields["winners"] != winners:
            raise DivergenceError(
                f"the {noun} says winners = {show(fields['winners'])}",
                winners,
                fields["winners"],
                cite(
                    game,
                    "winners",
                    answer=lambda g: list(g.ruleset.winners(g, totals)),
                    got=fields["winners"],
                ),
            )


def bare(log: RoundLog) -> RoundLog:
    """``log`` without its deal, actions and tricks (checked already), for ``log_json``."""
    return RoundLog(
        log.index, log.dealer, log.first_leader, log.seating, NO_DEAL, (), (), log.facts, log.scores
    )
