"""The oracle itself: :class:`Oracle` holds the games one connection or server has
open, answers a request line or batch (the envelope, then the method), and turns every
refusal, even a defect of tricklaw, into an error response so that it keeps serving."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tricklaw.model.state import State
from tricklaw.oracle.cost import check_cost
from tricklaw.oracle.envelope import (
    check_envelope,
    encode_capped,
    error_response,
    parse,
    too_long,
    valid_id,
)
from tricklaw.oracle.methods import METHODS
from tricklaw.oracle.params import check_params
from tricklaw.oracle.protocol import (
    ILLEGAL_ACTION,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LIMIT,
    MAX_BATCH,
    MAX_GAMES,
    MAX_LINE_BYTES,
    METHOD_NOT_FOUND,
    UNKNOWN_GAME,
    OracleError,
)
from tricklaw.spec.errors import IllegalActionError, TricklawError


@dataclass(slots=True)
class OpenGame:
    """One open game: its current state and the seed it was opened with."""

    state: State[Any]
    seed: int | None


def sequential_id(number: int) -> str:
    """The id of the ``number``-th game opened: ``g1``, ``g2``, ... (the stdio protocol)."""
    return f"g{number}"


def _id_of(request: Any) -> Any:
    """The id to echo in an error about ``request`` as a whole (null when it has none
    that JSON-RPC allows)."""
    if isinstance(request, dict) and valid_id(request.get("id")):
        return request.get("id")
    return None


class Oracle:
    """The games one connection (stdio) or one server (HTTP) has open, and the methods.

    ``handle_text`` takes one request line and returns the response line (``None`` for
    a notification); ``call`` runs one method with already-parsed parameters.
    ``new_id`` names the n-th game opened (default ``g1``, ``g2``, ...: the stdio
    protocol's ids; the HTTP server gives unguessable ones).
    """

    def __init__(
        self, max_games: int = MAX_GAMES, new_id: Callable[[int], str] | None = None
    ) -> None:
        self.max_games = max_games
        self.games: OrderedDict[str, OpenGame] = OrderedDict()
        self.opened = 0
        self.new_id = new_id or sequential_id

    # --- framing ---

    def handle_text(self, text: str | bytes) -> str | None:
        """The response to one request line (JSON text), or ``None`` when none is due."""
        response = self.handle_json_text(text)
        if response is None:
            return None
        return encode_capped(response)

    def handle_json_text(self, text: str | bytes) -> Any:
        """Like :meth:`handle_text`, but the response as parsed JSON."""
        if len(text) > MAX_LINE_BYTES:
            return too_long()
        try:
            request = parse(text)
        except OracleError as exc:
            return error_response(None, exc)
        return self.handle(request)

    def handle(self, request: Any) -> Any:
        """The response to a parsed request or batch (``None`` for notifications only)."""
        if isinstance(request, list):
            if not request:
                return error_response(None, OracleError(INVALID_REQUEST, "an empty batch"))
            if len(request) > MAX_BATCH:
                return error_response(
                    None,
                    OracleError(LIMIT, f"a batch of {len(request)} requests; at most {MAX_BATCH}"),
                )
            try:
                check_cost(self, request)
            except OracleError as exc:
                return error_response(None, exc)
            responses = [r for r in map(self._one, request) if r is not None]
            return responses or None
        try:
            check_cost(self, [request])
        except OracleError as exc:
            if isinstance(request, dict) and "id" not in request:
                return None  # a notification is never answered
            return error_response(_id_of(request), exc)
        return self._one(request)

    def _one(self, request: Any) -> dict[str, Any] | None:
        request_id: Any = None
        try:
            if not isinstance(request, dict):
                raise OracleError(INVALID_REQUEST, "a request must be a JSON object")
            request_id = request.get("id")
            if not valid_id(request_id):
                request_id = None
                raise OracleError(
                    INVALID_REQUEST, "id: expected a string, an integer or null", field="id"
                )
            check_envelope(request)
        except OracleError as exc:
            return error_response(request_id, exc)
        notification = "id" not in request
        before = set(self.games) if notification else set()
        try:
            result = self.call(request["method"], request.get("params", {}))
        except OracleError as exc:
            # A notification (a valid request without id) is never answered, even on error.
            return None if notification else error_response(request_id, exc)
        if notification:
            # nobody was told the id of a game it opened: keeping it would only fill the
            # table of open games (10,000 such notifications locked every client out)
            for game_id in set(self.games) - before:
                del self.games[game_id]
            return None
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    def call_text(self, method: str, body: bytes) -> Any:
        """Run ``method`` with the params object written in ``body`` (empty: ``{}``)."""
        params = parse(body) if body.strip() else {}
        if not isinstance(params, dict):
            raise OracleError(INVALID_PARAMS, "params: expected a JSON object", field="params")
        check_cost(self, [{"method": method, "params": params}])
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
        checked = check_params(METHODS[method], params)
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
        game_id = self.new_id(self.opened)
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
