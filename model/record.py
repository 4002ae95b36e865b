"""The versioned JSON game record: write one from a state; the parts of reading one back.

The format (``spec/record.schema.json``, ``"format": "tricklaw-record"``,
``"version": 1``) holds the ruleset, player count, every option, the seed,
and per round: the deal, every action in notation with its seat, every
trick's result (seats absolute, ``winner`` null for no winner), the
ruleset's facts (Sticheln: the picked cards) and the round scores; then the
totals and the winners. A record of an unfinished game has
``"complete": false`` and its last round lacks ``scores``.

Reading a record (:func:`tricklaw.model.replay.records.replay`) validates it against the
schema, then replays every action through the checker (:mod:`tricklaw.model.replay`, the
one behind ``tricklaw check``), which compares each recorded trick result and score with
the rules: the first disagreement raises :class:`~tricklaw.spec.errors.RecordError`
naming the round, the trick or action, and the clause.
"""

from __future__ import annotations

import json
from typing import Any

from tricklaw.model.actions import action_to_string
from tricklaw.model.cards import Palette
from tricklaw.model.schemas import first_problem, schema
from tricklaw.model.state import Deal, Game, RoundLog, State, seat_after
from tricklaw.model.trick import TrickResult
from tricklaw.spec import json_text
from tricklaw.spec.errors import RecordError, TricklawError
from tricklaw.spec.json_text import JsonTextError

FORMAT = "tricklaw-record"
VERSION = 1


# --- writing -------------------------------------------------------------------------------


def deal_json(deal: Deal, palette: Palette) -> dict[str, Any]:
    out: dict[str, Any] = {
        "hands": [palette.format_all(h) for h in deal.hands],
        "piles": {name: palette.format_all(cards) for name, cards in deal.piles},
    }
    if deal.first_leader is not None:
        out["first_leader"] = deal.first_leader
    if deal.extras:
        out["extras"] = dict(deal.extras)
    return out


def result_json(result: TrickResult, palette: Palette) -> dict[str, Any]:
    """A trick result on its own, seats as offsets from the leader (0 = the leader)."""
    return {
        "winner": result.winner,
        "taken": {str(offset): palette.format_all(cards) for offset, cards in result.taken},
        "aside": palette.format_all(result.aside),
        "facts": dict(result.facts),
        "clauses": list(result.clauses),
    }


def trick_json(
    leader: int, result: TrickResult, seating: tuple[int, ...], palette: Palette
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "leader": leader,
        "cards": palette.format_all(result.cards),
        "winner": None if result.winner is None else seat_after(seating, leader, result.winner),
        "taken": {
            str(seat_after(seating, leader, offset)): palette.format_all(cards)
            for offset, cards in result.taken
        },
        "aside": palette.format_all(result.aside),
        "clauses": list(result.clauses),
    }
    if result.facts:
        out["facts"] = dict(result.facts)
    return out


def log_json(game: Game, log: RoundLog, finished: bool = True) -> dict[str, Any]:
    palette = game.ruleset.palette
    out: dict[str, Any] = {
        "index": log.index,
        "dealer": log.dealer,
        "first_leader": log.first_leader,
        "seating": list(log.seating),
        "deal": deal_json(log.deal, palette),
        "actions": [{"seat": s, "action": action_to_string(a, palette)} for s, a in log.actions],
        "tricks": [trick_json(ld, r, log.seating, palette) for ld, r in log.tricks],
    }
    if finished:
        out["facts"] = dict(log.facts)
        out["scores"] = list(log.scores)
    return out


def to_record(state: State[Any], seed: int | None = None) -> dict[str, Any]:
    """The JSON record (a dict) of the game up to ``state``."""
    game = state.game
    rounds = [log_json(game, log) for log in state.history]
    complete = state.is_terminal()
    if not complete:
        info = state.info
        in_progress = RoundLog(
            info.index,
            info.dealer,
            state.first_leader,
            info.seating,
            info.deal,
            state.actions,
            state.tricks,
            facts=(),
            scores=(),
        )
        rounds.append(log_json(game, in_progress, finished=False))
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": game.ruleset.id,
        "players": game.players,
        "options": game.options.as_dict(),
        "seed": state.info.source.seed if seed is None else seed,
        "rounds": rounds,
        "totals": list(state.returns()),
        "complete": complete,
    }
    if complete:
        record["winners"] = list(game.ruleset.winners(game, state.returns()))
    return record


def dumps_state(state: State[Any]) -> str:
    """``state`` as compact JSON record text."""
    return json.dumps(to_record(state), separators=(",", ":"))


# --- reading -------------------------------------------------------------------------------


def record_schema() -> dict[str, Any]:
    """The JSON Schema of the record (``spec/record.schema.json``)."""
    return schema("record")


def record_problem(record: Any) -> tuple[str, str] | None:
    """The first field of ``record`` that breaks the record schema: its path and the
    problem as one line (``record field rounds[0].deal.hands[1][2]: ...``), or None."""
    if not isinstance(record, dict):
        return "", "the record is not a JSON object"
    problem = first_problem("record", None, record)
    if problem is None:
        return None
    path, message = problem
    return path, f"record field {path or '(top level)'}: {message}"


def round_problem(rnd: Any, index: int) -> tuple[str, str] | None:
    """As :func:`record_problem`, for the round ``rounds[index]`` of a record alone (a
    long record is validated round by round as it is replayed)."""
    problem = first_problem("record", "round", rnd)
    if problem is None:
        return None
    path = f"rounds[{index}]" + (
        f".{problem[0]}" if problem[0] and problem[0][0] != "[" else problem[0]
    )
    return path, f"record field {path}: {problem[1]}"


def validate_record(record: Any) -> None:
    """Raise RecordError naming the first field that breaks the schema."""
    problem = record_problem(record)
    if problem is not None:
        raise RecordError(problem[1])


def parse_deal(raw: dict[str, Any], palette: Palette, where: str) -> Deal:
    try:
        hands = tuple(tuple(palette.parse_all(h)) for h in raw["hands"])
        piles = tuple((k, tuple(palette.parse_all(v))) for k, v in raw.get("piles", {}).items())
    except TricklawError as exc:
        raise RecordError(f"{where}: {exc}") from None
    first = raw.get("first_leader")
    extras = tuple((k, v) for k, v in raw.get("extras", {}).items())
    return Deal(hands, piles, first if isinstance(first, int) else None, extras)


def new_tricks(
    state: State[Any], before: tuple[int, int]
) -> list[tuple[int, int, TrickResult, tuple[int, ...]]]:
    """The tricks of the round in progress before the last action that it completed,
    as (index in the round, leader, result, seating)."""
    rounds_before, tricks_before = before
    if len(state.history) > rounds_before:
        log = state.history[rounds_before]
        tricks, seating = log.tricks, log.seating
    else:
        tricks, seating = state.tricks, state.info.seating
    return [
        (i, leader, result, seating)
        for i, (leader, result) in enumerate(tricks)
        if i >= tricks_before
    ]


def loads_record(text: str) -> dict[str, Any]:
    """Parse record JSON text; raises RecordError for text that is not a JSON object."""
    try:
        data = json_text.loads(text)
    except JsonTextError as exc:
        raise RecordError(f"the record is {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("the record is not a JSON object")
    return data
