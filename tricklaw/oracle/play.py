"""The methods that open, play and close a game: ``new_game``, ``state``,
``legal_actions``, ``apply`` and ``close``, each with its schemas."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tricklaw.model.record import new_tricks, parse_deal, trick_json
from tricklaw.oracle.params import game_params, parse_action
from tricklaw.oracle.protocol import ILLEGAL_ACTION, INVALID_PARAMS, OracleError
from tricklaw.oracle.schemas import GAME, GAME_ID, SEAT_LIST, Method, object_schema, ref
from tricklaw.oracle.view import view
from tricklaw.spec.errors import IllegalActionError

if TYPE_CHECKING:
    from tricklaw.oracle.session import Oracle


def _new_game(oracle: Oracle, params: dict[str, Any]) -> Any:
    game = game_params(params)
    seed = params.get("seed")
    raw_deals = params.get("deals", [])
    if seed is None and not raw_deals:
        raise OracleError(
            INVALID_PARAMS, "params: give a seed, deals, or both", field="params.seed"
        )
    palette = game.ruleset.palette
    deals = [parse_deal(raw, palette, f"params.deals[{i}]") for i, raw in enumerate(raw_deals)]
    state = game.new_state_from_deals(deals, seed) if deals else game.new_initial_state(seed or 0)
    game_id = oracle.open(state, seed)
    return {"game": game_id, "options": game.options.as_dict(), "state": view(state)}


def _state(oracle: Oracle, params: dict[str, Any]) -> Any:
    state = oracle.game(params).state
    if "seat" in params:
        seat = params["seat"]
        if seat >= state.game.players:
            what = (
                f"seat {seat} is an automatic player, who sees nothing"
                if seat < state.game.seats
                else f"there is no seat {seat}"
            )
            raise OracleError(
                INVALID_PARAMS,
                f"params.seat: {what}; the players are seats 0-{state.game.players - 1}",
                field="params.seat",
            )
        return state.observation(seat)
    return view(state)


def _legal_actions(oracle: Oracle, params: dict[str, Any]) -> Any:
    state = oracle.game(params).state
    return {
        "seat": state.current_player(),
        "actions": [state.action_to_string(a) for a in state.legal_actions()],
    }


def _apply(oracle: Oracle, params: dict[str, Any]) -> Any:
    entry = oracle.game(params)
    state = entry.state
    game = state.game
    action = parse_action(state, params["action"])
    if "seat" in params and params["seat"] != state.current_player() and not state.is_terminal():
        raise OracleError(
            ILLEGAL_ACTION,
            f"it is seat {state.current_player()}'s turn, not seat {params['seat']}'s "
            f"[{game.ruleset.clause['turn']}]",
            clause=game.ruleset.clause["turn"],
            field="params.seat",
        )
    try:
        after = state.child(action)
    except IllegalActionError as exc:
        raise OracleError(
            ILLEGAL_ACTION,
            str(exc),
            clause=exc.clause,
            legal_actions=[state.action_to_string(a) for a in state.legal_actions()],
        ) from None
    entry.state = after
    before = (len(state.history), len(state.tricks))
    palette = game.ruleset.palette
    tricks = [
        trick_json(leader, result, seating, palette)
        for _, leader, result, seating in new_tricks(after, before)
    ]
    rounds = [
        {"index": log.index, "scores": list(log.scores), "facts": dict(log.facts)}
        for log in after.history[len(state.history) :]
    ]
    out: dict[str, Any] = {
        "seat": state.current_player(),
        "action": state.action_to_string(action),
        "tricks": tricks,
        "rounds": rounds,
        "state": view(after),
    }
    if after.is_terminal():
        out["winners"] = list(game.ruleset.winners(game, after.returns()))
    return out


def _close(oracle: Oracle, params: dict[str, Any]) -> Any:
    oracle.game(params)
    del oracle.games[params["game"]]
    return {"closed": params["game"]}


_NEW_GAME = object_schema(
    {
        "ruleset": {"type": "string", "maxLength": 64},
        "players": {"type": "integer", "minimum": 1, "maximum": 16},
        "options": ref("options"),
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        "deals": {"type": "array", "items": ref("deal"), "maxItems": 10_000},
    },
    ("ruleset", "players"),
)


NEW_GAME = Method(
    "new_game",
    "Open a game: a ruleset, a player count, options, and a seed or explicit "
    "deals (one per round; rounds beyond them are dealt from the seed).",
    _NEW_GAME,
    object_schema(
        {"game": GAME_ID, "options": ref("options"), "state": ref("view")},
        ("game", "options", "state"),
    ),
    _new_game,
)

STATE = Method(
    "state",
    "The whole state of an open game, or (with seat) what that seat may see.",
    object_schema({**GAME, "seat": ref("seat")}, ("game",)),
    {"anyOf": [ref("view"), ref("observation")]},
    _state,
)

LEGAL_ACTIONS = Method(
    "legal_actions",
    "The seat to act and its legal actions, in canonical order.",
    object_schema(GAME, ("game",)),
    object_schema(
        {
            "seat": {"type": "integer"},
            "actions": {"type": "array", "items": ref("action")},
        },
        ("seat", "actions"),
    ),
    _legal_actions,
)

APPLY = Method(
    "apply",
    "Take an action for the seat to act (seat, if given, must be that seat); "
    "returns the tricks and rounds it completed and the new state. An illegal "
    "action changes nothing and names the clause that forbids it.",
    object_schema({**GAME, "action": ref("action"), "seat": ref("seat")}, ("game", "action")),
    object_schema(
        {
            "seat": {"type": "integer"},
            "action": ref("action"),
            "tricks": {"type": "array", "items": ref("trick")},
            "rounds": {"type": "array", "items": ref("round_end")},
            "state": ref("view"),
            "winners": SEAT_LIST,
        },
        ("seat", "action", "tricks", "rounds", "state"),
    ),
    _apply,
)

CLOSE = Method(
    "close",
    "Close an open game and free its place.",
    object_schema(GAME, ("game",)),
    object_schema({"closed": GAME_ID}, ("closed",)),
    _close,
)
