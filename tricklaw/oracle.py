"""The live oracle: tricklaw's rules answered over a JSON-RPC 2.0 protocol.

``tricklaw serve --stdio`` reads one request per line on standard input and writes one
response per line on standard output; ``tricklaw serve --http PORT`` answers the same
methods over HTTP (see :mod:`tricklaw.serve`). This module holds the protocol itself,
free of any transport: :class:`Oracle` takes a request (text or parsed JSON) and returns
the response.

**Framing** is JSON-RPC 2.0 (https://www.jsonrpc.org/specification)::

    -> {"jsonrpc": "2.0", "id": 1, "method": "new_game",
        "params": {"ruleset": "sticheln", "players": 4, "seed": 7}}
    <- {"jsonrpc": "2.0", "id": 1, "result": {"game": "g1", "state": {...}}}

A request without ``id`` is a notification and gets no response; an array of requests
is a batch and gets an array of responses. Every failure is an ``error`` object with a
``code``, a one-line ``message`` and ``data`` naming the ``field`` (a path such as
``params.players``) or the rule ``clause`` at fault. The oracle never stops on bad
input: the next line is read as if nothing had happened.

The methods (each with a JSON Schema for its parameters and its result, in
:data:`METHODS`; ``tricklaw serve --openapi`` prints them as OpenAPI 3.1):

``hello``, ``rulesets``, ``new_game``, ``state``, ``legal_actions``, ``apply``,
``trick_result``, ``scores``, ``record``, ``explain``, ``judge``, ``close``.

Cards and actions are written in the record's notation (``R5``, ``select R5``,
``keep``, ``swap R5``, ``leader 2``, ``designate R5``); seats are absolute
(0 .. seats-1), except in ``judge``, which judges a trick away from any table and
counts seats as offsets from the leader.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.validators import extend

from tricklaw import __version__
from tricklaw.judging import check_context, parse_trick
from tricklaw.model.actions import string_to_action
from tricklaw.model.record import (
    new_tricks,
    parse_deal,
    record_schema,
    result_json,
    to_record,
    trick_json,
)
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Game, State
from tricklaw.spec import load_registry
from tricklaw.spec.errors import IllegalActionError, OptionError, TricklawError

PROTOCOL = "tricklaw-oracle"
VERSION = 1

MAX_LINE_BYTES = 1 << 20
"""The longest request line (1 MiB); a longer one is refused unread."""
MAX_GAMES = 10_000
"""Open games per oracle by default; ``close`` frees one."""
MAX_BATCH = 1_000
"""The most requests in one batch."""

# JSON-RPC 2.0 error codes, then tricklaw's own.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
ILLEGAL_ACTION = 1
"""The action breaks a rule: ``data.clause`` names it, ``data.legal_actions`` the legal ones."""
UNKNOWN_GAME = 2
"""No open game has that id (never opened, or closed)."""
LIMIT = 3
"""A limit of the oracle (open games, batch size, line length) is reached."""

ERROR_NAMES = {
    PARSE_ERROR: "parse error",
    INVALID_REQUEST: "invalid request",
    METHOD_NOT_FOUND: "method not found",
    INVALID_PARAMS: "invalid params",
    INTERNAL_ERROR: "internal error",
    ILLEGAL_ACTION: "illegal action",
    UNKNOWN_GAME: "unknown game",
    LIMIT: "limit reached",
}


class OracleError(Exception):
    """A request the oracle refuses: a JSON-RPC error ``code``, a one-line message and
    ``data`` (``field``: where in the request; ``clause``: the rule)."""

    def __init__(self, code: int, message: str, **data: Any) -> None:
        super().__init__(message)
        self.code = code
        self.data = {k: v for k, v in data.items() if v is not None}

    def as_json(self) -> dict[str, Any]:
        """The JSON-RPC error object."""
        error: dict[str, Any] = {"code": self.code, "message": str(self)}
        if self.data:
            error["data"] = self.data
        return error


# --- schemas ------------------------------------------------------------------------------------


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _object(
    properties: Mapping[str, Any], required: tuple[str, ...] = (), **more: Any
) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
        **more,
    }


GAME_ID = {"type": "string", "minLength": 1, "maxLength": 64, "description": "A game id."}
SEAT_LIST = {"type": "array", "items": _ref("seat")}


@cache
def definitions() -> dict[str, Any]:
    """The schemas the methods share: the record's card, seat, deal and trick, and the
    oracle's own game view."""
    record = record_schema()["$defs"]
    defs: dict[str, Any] = {name: record[name] for name in ("card", "cards", "seat", "deal")}
    defs["trick"] = record["trick"]
    defs["options"] = {
        "type": "object",
        "additionalProperties": {"type": ["string", "integer"]},
        "description": "Option name to value; options left out take their defaults.",
    }
    defs["action"] = {
        "type": "string",
        "minLength": 1,
        "maxLength": 32,
        "description": "An action in notation: R5, select R5, keep, swap R5, leader 2, "
        "designate R5.",
    }
    defs["round_end"] = _object(
        {"index": {"type": "integer"}, "scores": {"type": "array"}, "facts": {"type": "object"}},
        ("index", "scores"),
    )
    defs["view"] = _object(
        {
            "round": {"type": "integer", "description": "The round in progress (from 0)."},
            "phase": {"enum": ["select", "play", "choose", "over"]},
            "current_player": {"type": "integer", "description": "-1 when the game is over."},
            "leader": {"type": "integer"},
            "trick": _ref("cards"),
            "hands": {"type": "array", "items": _ref("cards")},
            "legal_actions": {"type": "array", "items": _ref("action")},
            "tricks_played": {"type": "integer"},
            "totals": {"type": "array", "items": {"type": "integer"}},
            "terminal": {"type": "boolean"},
        },
        (
            "round",
            "phase",
            "current_player",
            "legal_actions",
            "totals",
            "terminal",
        ),
        description="The whole state as the oracle sees it: every hand, the trick so far, "
        "the current player and his legal actions.",
    )
    return defs


@dataclass(frozen=True, slots=True)
class Method:
    """One method of the protocol: its parameters' and result's schemas, and its handler."""

    name: str
    summary: str
    params: dict[str, Any]
    result: dict[str, Any]
    handler: Callable[[Oracle, dict[str, Any]], Any]


def _integer_is_int(_checker: Any, instance: Any) -> bool:
    """JSON integers only: ``3.0`` and ``true`` are not integers here."""
    return type(instance) is int


_Validator: Any = extend(  # type: ignore[no-untyped-call]  # jsonschema leaves it untyped
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _integer_is_int),
)


@cache
def _validator(name: str) -> Any:
    method = METHODS[name]
    return _Validator({**method.params, "$defs": definitions()})


def _field(path: Any) -> str:
    where = "params"
    for key in path:
        where += f"[{key}]" if isinstance(key, int) else f".{key}"
    return where


def _game_id(value: Any) -> bool:
    return type(value) is str and 0 < len(value) <= 64


def _plain_game(params: dict[str, Any]) -> bool:
    return len(params) == 1 and _game_id(params.get("game"))


def _plain_apply(params: dict[str, Any]) -> bool:
    action, seat = params.get("action"), params.get("seat", 0)
    return (
        len(params) == 2 + ("seat" in params)
        and _game_id(params.get("game"))
        and type(action) is str
        and 0 < len(action) <= 32
        and type(seat) is int
        and 0 <= seat <= 15
    )


PLAINLY_VALID: dict[str, Callable[[dict[str, Any]], bool]] = {
    "apply": _plain_apply,
    "legal_actions": _plain_game,
    "state": _plain_game,
    "scores": _plain_game,
}
"""Fast checks for the methods a game calls on every move: a request they accept is one
the method's schema accepts (a test checks it); any other goes through the schema."""


def _check_params(name: str, params: Any) -> dict[str, Any]:
    plain = PLAINLY_VALID.get(name)
    if plain is not None and type(params) is dict and plain(params):
        return params
    errors = sorted(
        _validator(name).iter_errors(params), key=lambda e: (len(e.path), list(map(str, e.path)))
    )
    if errors:
        err = errors[0]
        message = err.message if len(err.message) <= 200 else err.message[:197] + "..."
        field = _field(err.path)
        raise OracleError(INVALID_PARAMS, f"{field}: {message}", field=field)
    checked: dict[str, Any] = params
    return checked


# --- the oracle ---------------------------------------------------------------------------------


@dataclass(slots=True)
class OpenGame:
    """One open game: its current state and the seed it was opened with."""

    state: State[Any]
    seed: int | None


class Oracle:
    """The games one connection (stdio) or one server (HTTP) has open, and the methods.

    ``handle_text`` takes one request line and returns the response line (``None`` for
    a notification); ``call`` runs one method with already-parsed parameters.
    """

    def __init__(self, max_games: int = MAX_GAMES) -> None:
        self.max_games = max_games
        self.games: OrderedDict[str, OpenGame] = OrderedDict()
        self.opened = 0

    # --- framing ---

    def handle_text(self, text: str | bytes) -> str | None:
        """The response to one request line (JSON text), or ``None`` when none is due."""
        response = self.handle_json_text(text)
        if response is None:
            return None
        return encode(response)

    def handle_json_text(self, text: str | bytes) -> Any:
        """Like :meth:`handle_text`, but the response as parsed JSON."""
        if len(text) > MAX_LINE_BYTES:
            return too_long()
        try:
            request = _parse(text)
        except OracleError as exc:
            return _error_response(None, exc)
        return self.handle(request)

    def handle(self, request: Any) -> Any:
        """The response to a parsed request or batch (``None`` for notifications only)."""
        if isinstance(request, list):
            if not request:
                return _error_response(None, OracleError(INVALID_REQUEST, "an empty batch"))
            if len(request) > MAX_BATCH:
                return _error_response(
                    None,
                    OracleError(LIMIT, f"a batch of {len(request)} requests; at most {MAX_BATCH}"),
                )
            responses = [r for r in map(self._one, request) if r is not None]
            return responses or None
        return self._one(request)

    def _one(self, request: Any) -> dict[str, Any] | None:
        request_id: Any = None
        try:
            if not isinstance(request, dict):
                raise OracleError(INVALID_REQUEST, "a request must be a JSON object")
            request_id = request.get("id")
            if not _valid_id(request_id):
                request_id = None
                raise OracleError(
                    INVALID_REQUEST, "id: expected a string, an integer or null", field="id"
                )
            _check_envelope(request)
            result = self.call(request["method"], request.get("params", {}))
        except OracleError as exc:
            return _error_response(request_id, exc)
        if "id" not in request:
            return None
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    def call_text(self, method: str, body: bytes) -> Any:
        """Run ``method`` with the params object written in ``body`` (empty: ``{}``)."""
        params = _parse(body) if body.strip() else {}
        if not isinstance(params, dict):
            raise OracleError(INVALID_PARAMS, "params: expected a JSON object", field="params")
        return self.call(method, params)

    def call(self, method: str, params: Any) -> Any:
        """Run ``method`` with ``params``; raises :class:`OracleError` for any refusal,
        including a defect of tricklaw itself (``INTERNAL_ERROR``): the oracle keeps serving."""
        try:
            return self._call(method, params)
        except OracleError:
            raise
        except RecursionError:
            raise OracleError(INVALID_PARAMS, "params: nested too deeply", field="params") from None
        except Exception as exc:
            raise OracleError(
                INTERNAL_ERROR, f"internal error (please report it): {type(exc).__name__}: {exc}"
            ) from None

    def _call(self, method: str, params: Any) -> Any:
        if method not in METHODS:
            raise OracleError(
                METHOD_NOT_FOUND,
                f"no method {method!r} (methods: {', '.join(METHODS)})",
                field="method",
            )
        checked = _check_params(method, params)
        try:
            return METHODS[method].handler(self, checked)
        except IllegalActionError as exc:
            raise OracleError(ILLEGAL_ACTION, str(exc), clause=exc.clause) from None
        except TricklawError as exc:
            raise OracleError(INVALID_PARAMS, str(exc)) from None

    # --- games ---

    def open(self, state: State[Any], seed: int | None) -> str:
        """Keep ``state`` as a new open game; its id."""
        if len(self.games) >= self.max_games:
            raise OracleError(
                LIMIT, f"{len(self.games)} games are open, the limit; close one first"
            )
        self.opened += 1
        game_id = f"g{self.opened}"
        self.games[game_id] = OpenGame(state, seed)
        return game_id

    def game(self, params: Mapping[str, Any]) -> OpenGame:
        """The open game that ``params.game`` names."""
        game_id = params["game"]
        try:
            return self.games[game_id]
        except KeyError:
            raise OracleError(
                UNKNOWN_GAME, f"params.game: no open game {game_id!r}", field="params.game"
            ) from None


def _valid_id(value: Any) -> bool:
    return value is None or isinstance(value, str) or type(value) is int


def _check_envelope(request: dict[str, Any]) -> None:
    if request.get("jsonrpc") != "2.0":
        raise OracleError(
            INVALID_REQUEST, 'jsonrpc: expected "2.0" (JSON-RPC 2.0)', field="jsonrpc"
        )
    method = request.get("method")
    if not isinstance(method, str):
        raise OracleError(INVALID_REQUEST, "method: expected a string", field="method")
    unknown = set(request) - {"jsonrpc", "id", "method", "params"}
    if unknown:
        raise OracleError(
            INVALID_REQUEST,
            f"unknown member {sorted(unknown)[0]!r} (members: jsonrpc, id, method, params)",
            field=sorted(unknown)[0],
        )
    if "params" in request and not isinstance(request["params"], dict):
        raise OracleError(
            INVALID_PARAMS, "params: expected a JSON object (named parameters)", field="params"
        )


def _parse(text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except UnicodeDecodeError:
        raise OracleError(PARSE_ERROR, "the request is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise OracleError(PARSE_ERROR, f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise OracleError(PARSE_ERROR, "not valid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise OracleError(PARSE_ERROR, f"not valid JSON: {exc}") from None


def encode(response: Any) -> str:
    """A response as one line of JSON text."""
    return json.dumps(response, separators=(",", ":"), ensure_ascii=False)


def too_long() -> dict[str, Any]:
    """The response to a request longer than :data:`MAX_LINE_BYTES` (which is not read)."""
    return _error_response(
        None, OracleError(LIMIT, f"the request is longer than {MAX_LINE_BYTES} bytes")
    )


def _error_response(request_id: Any, exc: OracleError) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": exc.as_json()}


# --- views --------------------------------------------------------------------------------------


def view(state: State[Any]) -> dict[str, Any]:
    """The whole state (``$defs/view``)."""
    fmt = state.game.ruleset.palette.format_all
    over = state.is_terminal()
    return {
        "round": state.round_index,
        "phase": state.phase.name.lower(),
        "current_player": state.current_player(),
        "leader": state.leader,
        "trick": fmt(state.trick),
        "hands": [fmt(hand) for hand in state.hands],
        "legal_actions": [state.action_to_string(a) for a in state.legal_actions()],
        "tricks_played": 0 if over else len(state.tricks),
        "totals": list(state.returns()),
        "terminal": over,
    }


def _game_params(params: Mapping[str, Any]) -> Game:
    try:
        ruleset = get_ruleset(params["ruleset"])
    except OptionError as exc:
        raise OracleError(
            INVALID_PARAMS, f"params.ruleset: {exc}", field="params.ruleset"
        ) from None
    try:
        return ruleset.make_game(params["players"], params.get("options", {}))
    except OptionError as exc:
        field = (
            "params.players" if params["players"] not in ruleset.player_counts else "params.options"
        )
        raise OracleError(INVALID_PARAMS, f"{field}: {exc}", field=field) from None


def _action(state: State[Any], text: str) -> int:
    try:
        return string_to_action(text, state.game.ruleset.palette)
    except TricklawError as exc:
        raise OracleError(INVALID_PARAMS, f"params.action: {exc}", field="params.action") from None


# --- the methods --------------------------------------------------------------------------------


def _hello(oracle: Oracle, params: dict[str, Any]) -> Any:
    return {
        "protocol": PROTOCOL,
        "version": VERSION,
        "tricklaw": __version__,
        "methods": list(METHODS),
    }


def _rulesets(oracle: Oracle, params: dict[str, Any]) -> Any:
    return [
        {
            "id": r.id,
            "title": r.title,
            "players": list(r.player_counts),
            "options": {s.name: s.default for s in r.option_specs},
            "trick_context": [name for name, _ in r.trick_context],
        }
        for r in RULESETS.values()
    ]


def _new_game(oracle: Oracle, params: dict[str, Any]) -> Any:
    game = _game_params(params)
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
    action = _action(state, params["action"])
    if "seat" in params and params["seat"] != state.current_player() and not state.is_terminal():
        raise OracleError(
            ILLEGAL_ACTION,
            f"it is seat {state.current_player()}'s turn, not seat {params['seat']}'s "
            f"[{game.ruleset.clause['turn']}]",
            clause=game.ruleset.clause["turn"],
            field="params.seat",
        )
    try:
        after = state.apply_action(action)
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


def _trick_result(oracle: Oracle, params: dict[str, Any]) -> Any:
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


def _clause_json(ruleset_id: str, clause_id: str) -> dict[str, Any]:
    registry = load_registry(ruleset_id)
    if clause_id in {d.id for d in registry.disputes}:
        dispute = registry.dispute(clause_id)
        return {
            "id": dispute.id,
            "kind": "dispute",
            "summary": dispute.title,
            "question": dispute.question,
            "option": dispute.option,
            "default": dispute.default,
            "reason": dispute.reason,
            "readings": {r.value: r.summary for r in dispute.readings},
            "lines": list(dispute.lines),
        }
    clause = registry.clause(clause_id)
    return {
        "id": clause.id,
        "kind": clause.kind,
        "summary": clause.summary,
        "source": clause.source or registry.source.file,
        "lines": list(clause.lines),
    }


def _explain(oracle: Oracle, params: dict[str, Any]) -> Any:
    given = [key for key in ("action", "trick", "clause") if key in params]
    if len(given) != 1:
        raise OracleError(
            INVALID_PARAMS,
            "params: give exactly one of action, trick, clause",
            field="params",
        )
    if "game" in params:
        state = oracle.game(params).state
        ruleset_id = state.game.ruleset.id
    elif "ruleset" in params:
        state = None
        ruleset_id = params["ruleset"]
        try:
            get_ruleset(ruleset_id)
        except OptionError as exc:
            raise OracleError(
                INVALID_PARAMS, f"params.ruleset: {exc}", field="params.ruleset"
            ) from None
    else:
        raise OracleError(INVALID_PARAMS, "params: give game or ruleset", field="params.game")
    if given == ["clause"]:
        try:
            return _clause_json(ruleset_id, params["clause"])
        except TricklawError as exc:
            raise OracleError(
                INVALID_PARAMS, f"params.clause: {exc}", field="params.clause"
            ) from None
    if state is None:
        raise OracleError(
            INVALID_PARAMS,
            f"params.{given[0]}: explaining it needs params.game",
            field="params.game",
        )
    if given == ["trick"]:
        trick = _trick_result(oracle, {"game": params["game"], **params["trick"]})
        return {
            **trick,
            "explanation": [_clause_json(ruleset_id, cid) for cid in trick["clauses"]],
        }
    return _explain_action(state, params["action"])


def _explain_action(state: State[Any], text: str) -> dict[str, Any]:
    ruleset = state.game.ruleset
    action = _action(state, text)
    legal = state.legal_actions()
    if action in legal:
        # The clause that would forbid the action is the one that allows it here.
        clause = ruleset.forbidding_clause(state, action)
        return {"legal": True, "clauses": [_clause_json(ruleset.id, clause)]}
    try:
        state.apply_action(action)
    except IllegalActionError as exc:
        return {
            "legal": False,
            "reason": str(exc),
            "clauses": [_clause_json(ruleset.id, exc.clause)],
            "legal_actions": [state.action_to_string(a) for a in legal],
        }
    raise AssertionError("an action outside legal_actions was applied")  # pragma: no cover


def _judge(oracle: Oracle, params: dict[str, Any]) -> Any:
    game = _game_params(params)
    ruleset = game.ruleset
    try:
        cards = parse_trick(game, params["cards"])
    except TricklawError as exc:
        raise OracleError(INVALID_PARAMS, f"params.cards: {exc}", field="params.cards") from None
    try:
        context = check_context(ruleset, params.get("context", {}))
        result = ruleset.judge_trick(game, cards, context)
    except TricklawError as exc:
        raise OracleError(
            INVALID_PARAMS, f"params.context: {exc}", field="params.context"
        ) from None
    return {"cards": ruleset.palette.format_all(cards), **result_json(result, ruleset.palette)}


def _close(oracle: Oracle, params: dict[str, Any]) -> Any:
    oracle.game(params)
    del oracle.games[params["game"]]
    return {"closed": params["game"]}


_GAME = {"game": GAME_ID}
_NEW_GAME = _object(
    {
        "ruleset": {"type": "string", "maxLength": 64},
        "players": {"type": "integer", "minimum": 1, "maximum": 16},
        "options": _ref("options"),
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        "deals": {"type": "array", "items": _ref("deal"), "maxItems": 10_000},
    },
    ("ruleset", "players"),
)

METHODS: dict[str, Method]
"""Every method of the protocol by name, in the order ``hello`` lists them."""
METHODS = {
    m.name: m
    for m in (
        Method(
            "hello",
            "The protocol's name and version, tricklaw's version and the methods.",
            _object({}),
            _object(
                {
                    "protocol": {"const": PROTOCOL},
                    "version": {"const": VERSION},
                    "tricklaw": {"type": "string"},
                    "methods": {"type": "array", "items": {"type": "string"}},
                },
                ("protocol", "version", "methods"),
            ),
            _hello,
        ),
        Method(
            "rulesets",
            "Every ruleset: its id, player counts, options with defaults, trick context.",
            _object({}),
            {"type": "array", "items": {"type": "object"}},
            _rulesets,
        ),
        Method(
            "new_game",
            "Open a game: a ruleset, a player count, options, and a seed or explicit "
            "deals (one per round; rounds beyond them are dealt from the seed).",
            _NEW_GAME,
            _object(
                {"game": GAME_ID, "options": _ref("options"), "state": _ref("view")},
                ("game", "options", "state"),
            ),
            _new_game,
        ),
        Method(
            "state",
            "The whole state of an open game, or (with seat) what that seat may see.",
            _object({**_GAME, "seat": _ref("seat")}, ("game",)),
            {"type": "object"},
            _state,
        ),
        Method(
            "legal_actions",
            "The seat to act and its legal actions, in canonical order.",
            _object(_GAME, ("game",)),
            _object(
                {
                    "seat": {"type": "integer"},
                    "actions": {"type": "array", "items": _ref("action")},
                },
                ("seat", "actions"),
            ),
            _legal_actions,
        ),
        Method(
            "apply",
            "Take an action for the seat to act (seat, if given, must be that seat); "
            "returns the tricks and rounds it completed and the new state. An illegal "
            "action changes nothing and names the clause that forbids it.",
            _object({**_GAME, "action": _ref("action"), "seat": _ref("seat")}, ("game", "action")),
            _object(
                {
                    "seat": {"type": "integer"},
                    "action": _ref("action"),
                    "tricks": {"type": "array", "items": _ref("trick")},
                    "rounds": {"type": "array", "items": _ref("round_end")},
                    "state": _ref("view"),
                    "winners": SEAT_LIST,
                },
                ("seat", "action", "tricks", "rounds", "state"),
            ),
            _apply,
        ),
        Method(
            "trick_result",
            "A completed trick (default: the last one of the round in progress), seats "
            "absolute, with the clause ids that decided it.",
            _object(
                {
                    **_GAME,
                    "round": {"type": "integer", "minimum": 0},
                    "trick": {"type": "integer", "minimum": 0},
                },
                ("game",),
            ),
            {"type": "object"},
            _trick_result,
        ),
        Method(
            "scores",
            "Each finished round's scores, the totals, and the winners once the game is over.",
            _object(_GAME, ("game",)),
            _object(
                {
                    "rounds": {"type": "array", "items": {"type": "object"}},
                    "totals": {"type": "array", "items": {"type": "integer"}},
                    "complete": {"type": "boolean"},
                    "winners": SEAT_LIST,
                },
                ("rounds", "totals", "complete"),
            ),
            _scores,
        ),
        Method(
            "record",
            "The game so far as a tricklaw JSON record (spec/record.schema.json).",
            _object(_GAME, ("game",)),
            {"type": "object"},
            _record,
        ),
        Method(
            "explain",
            "Why an action is legal or not, which clauses decided a trick, or what a "
            "clause or dispute says (its paraphrase, source lines, readings).",
            _object(
                {
                    **_GAME,
                    "ruleset": {"type": "string", "maxLength": 64},
                    "action": _ref("action"),
                    "trick": _object(
                        {
                            "round": {"type": "integer", "minimum": 0},
                            "trick": {"type": "integer", "minimum": 0},
                        }
                    ),
                    "clause": {"type": "string", "maxLength": 64},
                }
            ),
            {"type": "object"},
            _explain,
        ),
        Method(
            "judge",
            "Judge one complete trick away from any game (seats as offsets from the "
            "leader); context as the trick command's --context (Hund: powers, designation).",
            _object(
                {
                    "ruleset": {"type": "string", "maxLength": 64},
                    "players": {"type": "integer", "minimum": 1, "maximum": 16},
                    "options": _ref("options"),
                    "cards": {"type": "array", "items": _ref("card"), "maxItems": 16},
                    "context": {
                        "type": "object",
                        "additionalProperties": {"type": "string", "maxLength": 256},
                    },
                },
                ("ruleset", "players", "cards"),
            ),
            {"type": "object"},
            _judge,
        ),
        Method(
            "close",
            "Close an open game and free its place.",
            _object(_GAME, ("game",)),
            _object({"closed": GAME_ID}, ("closed",)),
            _close,
        ),
    )
}
