"""The methods that report what a game has produced: ``trick_result`` (one completed
trick and the clauses that decided it), ``scores`` and ``record``, each with its schemas."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tricklaw.model.record import to_record, trick_json
from tricklaw.oracle.protocol import INVALID_PARAMS, OracleError
from tricklaw.oracle.schemas import GAME, SEAT_LIST, Method, object_schema, ref

if TYPE_CHECKING:
    from tricklaw.oracle.session import Oracle


def trick_result(oracle: Oracle, params: dict[str, Any]) -> Any:
    """``trick_result``: trick ``params.trick`` of round ``params.round`` (by default the
    last completed trick of the round in progress), seats absolute."""
    state = oracle.game(params).state
    index = params.get("round", state.round_index)
    if index < len(state.history):
        log = state.history[index]
        tricks, seating = log.tricks, log.seating
    elif index == state.round_index and not state.is_terminal():
        tricks, seating = state.tricks, state.info.seating
    else:
        raise OracleError(
            INVALID_PARAMS,
            f"params.round: round {index} has not been played",
            field="params.round",
        )
    number = params.get("trick", len(tricks) - 1)
    if not 0 <= number < len(tricks):
        raise OracleError(
            INVALID_PARAMS,
            f"params.trick: round {index} has {len(tricks)} completed tricks",
            field="params.trick",
        )
    leader, result = tricks[number]
    return {
        "round": index,
        "trick": number,
        **trick_json(leader, result, seating, state.game.ruleset.palette),
    }


def _scores(oracle: Oracle, params: dict[str, Any]) -> Any:
    state = oracle.game(params).state
    game = state.game
    out: dict[str, Any] = {
        "rounds": [{"index": log.index, "scores": list(log.scores)} for log in state.history],
        "totals": list(state.returns()),
        "complete": state.is_terminal(),
    }
    if state.is_terminal():
        out["winners"] = list(game.ruleset.winners(game, state.returns()))
    return out


def _record(oracle: Oracle, params: dict[str, Any]) -> Any:
    entry = oracle.game(params)
    return to_record(entry.state, entry.seed)


TRICK_RESULT = Method(
    "trick_result",
    "A completed trick (default: the last one of the round in progress), seats "
    "absolute, with the clause ids that decided it.",
    object_schema(
        {
            **GAME,
            "round": {"type": "integer", "minimum": 0},
            "trick": {"type": "integer", "minimum": 0},
        },
        ("game",),
    ),
    ref("trick_result"),
    trick_result,
)

SCORES = Method(
    "scores",
    "Each finished round's scores, the totals, and the winners once the game is over.",
    object_schema(GAME, ("game",)),
    object_schema(
        {
            "rounds": {
                "type": "array",
                "items": object_schema(
                    {
                        "index": {"type": "integer"},
                        "scores": {"type": "array", "items": {"type": "integer"}},
                    },
                    ("index", "scores"),
                ),
            },
            "totals": {"type": "array", "items": {"type": "integer"}},
            "complete": {"type": "boolean"},
            "winners": SEAT_LIST,
        },
        ("rounds", "totals", "complete"),
    ),
    _scores,
)

RECORD = Method(
    "record",
    "The game so far as a tricklaw JSON record (spec/record.schema.json).",
    object_schema(GAME, ("game",)),
    ref("record"),
    _record,
)
