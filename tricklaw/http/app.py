"""The Starlette application of the HTTP oracle (:func:`create_app`): the routes
(``POST /rpc``, ``POST /v1/METHOD``, ``GET /openapi.json``, the page at ``/``), a JSON
error body for every error, and the guards of :mod:`~tricklaw.http.guards` around them.

Each client (each bearer token; without tokens, every caller is one client) has its own
:class:`~tricklaw.oracle.session.Oracle`, whose game ids are unguessable
(``secrets.token_urlsafe``); its calls run one at a time. A light call (a small body,
no batch, no whole-game answer) runs at once on the event loop, when the client's games
are free; any other runs in a worker thread, so that the server keeps answering other
clients meanwhile."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tricklaw.http.guards import (
    CLIENT,
    BodyError,
    HostOriginGuard,
    Policy,
    TokenGuard,
    error_body,
    read_body,
)
from tricklaw.http.openapi import openapi
from tricklaw.oracle import (
    ILLEGAL_ACTION,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LIMIT,
    MAX_GAMES,
    MAX_RESPONSE_BYTES,
    METHOD_NOT_FOUND,
    METHODS,
    PARSE_ERROR,
    PROTOCOL,
    UNKNOWN_GAME,
    Oracle,
    OracleError,
    encode,
    encode_capped,
)

HTTP_STATUS = {
    PARSE_ERROR: 400,
    INVALID_REQUEST: 400,
    INVALID_PARAMS: 400,
    METHOD_NOT_FOUND: 404,
    UNKNOWN_GAME: 404,
    ILLEGAL_ACTION: 409,
    LIMIT: 429,
    INTERNAL_ERROR: 500,
}
"""The HTTP status of each error code on ``POST /v1/METHOD``."""

HTTP_CODE = {404: METHOD_NOT_FOUND, 413: LIMIT, 500: INTERNAL_ERROR}
"""The JSON-RPC error code an HTTP error carries (others: invalid request)."""

LIGHT_BYTES = 4096
"""The largest body of a call that may run on the event loop itself."""
HEAVY = frozenset({"record", "new_game"})
"""Methods that always run in a worker thread (a whole game written, or one dealt)."""


def light(method: str | None, body: bytes) -> bool:
    """Whether a call (``method``, or None for ``/rpc``) is small enough to run at once
    on the event loop: a short body, no batch, no heavy method."""
    if len(body) > LIGHT_BYTES:
        return False
    if method is None:
        return body.lstrip()[:1] == b"{" and not any(f'"{m}"'.encode() in body for m in HEAVY)
    return method not in HEAVY


def game_id(number: int) -> str:
    """An unguessable game id (the HTTP server's; stdio keeps ``g1``, ``g2``, ...)."""
    return "g" + secrets.token_urlsafe(16)


@dataclass
class Client:
    """One client's games and the lock that runs its calls one at a time."""

    oracle: Oracle
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, work: Callable[[Oracle], Any]) -> Any:
        """``work`` on this client's oracle, alone."""
        with self.lock:
            return work(self.oracle)

    def run_now(self, work: Callable[[Oracle], Any]) -> tuple[bool, Any]:
        """``(True, result)`` of ``work`` if the games are free at once, else ``(False,
        None)`` without waiting."""
        if not self.lock.acquire(blocking=False):
            return False, None
        try:
            return True, work(self.oracle)
        finally:
            self.lock.release()


class Clients:
    """The clients of one server, by token ("" without tokens)."""

    def __init__(self, max_games: int, oracle: Oracle | None = None) -> None:
        self.max_games = max_games
        self.known: dict[str, Client] = {} if oracle is None else {"": Client(oracle)}
        self.lock = threading.Lock()

    def get(self, key: str) -> Client:
        """The client ``key``, created on its first request."""
        with self.lock:
            if key not in self.known:
                self.known[key] = Client(Oracle(self.max_games, game_id))
            return self.known[key]


def _json(status: int, text: str, headers: dict[str, str] | None = None) -> Response:
    return Response(text, status, headers, media_type="application/json")


def _error(status: int, code: int, message: str, close: bool = False) -> Response:
    headers = {"Connection": "close"} if close else None
    return Response(error_body(code, message), status, headers, media_type="application/json")


def create_app(
    policy: Policy | None = None,
    *,
    max_games: int = MAX_GAMES,
    page: Path | None = None,
    oracle: Oracle | None = None,
) -> Starlette:
    """The oracle's Starlette application: ``policy`` says who may talk to it, ``page``
    is the built page served at ``/``; ``oracle`` (tests) is the games of the client
    without a token."""
    policy = policy or Policy()
    clients = Clients(max_games, oracle)

    async def run(request: Request, work: Callable[[Oracle], Any], now: bool) -> Any:
        client = clients.get(request.scope.get(CLIENT, ""))
        if now:
            done, result = client.run_now(work)
            if done:
                return result
        return await anyio.to_thread.run_sync(client.run, work)

    async def rpc(request: Request) -> Response:
        try:
            body = await read_body(request, policy)
        except BodyError as exc:
            return _error(exc.status, exc.code, str(exc), close=True)
        answer = await run(request, lambda oracle: oracle.handle_json_text(body), light(None, body))
        if answer is None:
            return Response(status_code=204)
        return _json(200, encode_capped(answer))

    async def method(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in METHODS:
            return _error(404, METHOD_NOT_FOUND, f"no method {name[:60]!r}")
        try:
            body = await read_body(request, policy)
        except BodyError as exc:
            return _error(exc.status, exc.code, str(exc), close=True)
        try:
            result = await run(
                request, lambda oracle: oracle.call_text(name, body), light(name, body)
            )
        except OracleError as exc:
            return _json(HTTP_STATUS.get(exc.code, 400), encode({"error": exc.as_json()}))
        text = encode(result)
        if len(text) > MAX_RESPONSE_BYTES:
            return _error(429, LIMIT, f"the response is longer than {MAX_RESPONSE_BYTES} bytes")
        return _json(200, text)

    async def document(request: Request) -> Response:
        return JSONResponse(openapi())

    async def page_file(request: Request) -> Response:
        from tricklaw.page.files import page_file as find

        path = request.url.path
        if path == "/rpc" or path.startswith("/v1/"):  # the API's paths take only POST
            response = _error(405, INVALID_REQUEST, "Method Not Allowed")
            response.headers["Allow"] = "POST"
            return response
        found = None if page is None else find(page, path)
        if found is not None:
            data, kind = found
            return Response(data, 200, {"Cache-Control": "no-cache"}, media_type=kind)
        if path == "/":
            note = {
                "protocol": PROTOCOL,
                "openapi": "/openapi.json",
                "page": "no page: run 'npm ci' in the repository, or give --page DIR "
                "(tricklaw page build DIR)",
            }
            return _json(200, encode(note))
        return _error(404, METHOD_NOT_FOUND, f"no resource {path[:100]!r}")

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        headers = dict(exc.headers or {}) if isinstance(exc, HTTPException) else {}
        message = exc.detail if isinstance(exc, HTTPException) else "internal error"
        code = HTTP_CODE.get(status, INVALID_REQUEST)
        return Response(error_body(code, message), status, headers, "application/json")

    middleware = [Middleware(HostOriginGuard, policy=policy)]
    if policy.origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(policy.origins),
                allow_methods=["GET", "POST"],
                allow_headers=["Content-Type", "Authorization"],
            )
        )
    middleware.append(Middleware(TokenGuard, policy=policy))
    return Starlette(
        routes=[
            Route("/rpc", rpc, methods=["POST"]),
            Route("/v1/{name}", method, methods=["POST"]),
            Route("/openapi.json", document, methods=["GET"]),
            Route("/{path:path}", page_file, methods=["GET"]),
        ],
        middleware=middleware,
        exception_handlers={HTTPException: http_error, Exception: http_error},
    )
