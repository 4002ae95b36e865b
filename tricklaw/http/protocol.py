"""uvicorn's HTTP/1.1 protocol (h11, a strict parser) with the oracle's JSON error
bodies for the two answers uvicorn gives before any application runs: ``400`` for a
request h11 cannot parse (a malformed header, a bad Content-Length, not HTTP at all) and
``503`` over the concurrency cap (:data:`~tricklaw.http.run.MAX_CONNECTIONS`); and a
deadline for a request's head (uvicorn has none: a client that connects and sends
nothing, or its headers a byte at a time, would hold its connection for ever)."""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from tricklaw.http.guards import Receive, Scope, Send, error_body, send_error
from tricklaw.oracle import INVALID_REQUEST, LIMIT

HEAD_TIMEOUT = 10.0
"""Seconds a connection may take to send a request's line and headers."""


class OracleProtocol(H11Protocol):
    """:class:`H11Protocol` whose own 400 and 503 answers are JSON error bodies, and
    that closes a connection whose request head has not arrived in :attr:`head_timeout`
    seconds (from the connection, or from the end of the previous response)."""

    head_timeout = HEAD_TIMEOUT
    head_timer: asyncio.TimerHandle | None = None

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.cap = self.limit_concurrency
        self.limit_concurrency = None  # the cap is checked by _capped, with a JSON answer
        self.inner = self.app
        self.app = self._capped

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
        if not self.transport.is_closing():
            self.head_timer = self.loop.call_later(self.head_timeout, self._head_expired)

    def _head_expired(self) -> None:
        # IDLE: no complete request head since the timer was armed.
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()

    async def _capped(self, scope: Scope, receive: Receive, send: Send) -> None:
        # This request's connection and task are counted already, hence ">".
        if self.cap is not None and (
            len(self.connections) > self.cap or len(self.tasks) > self.cap
        ):
            self.logger.warning("Exceeded concurrency limit.")
            await send_error(send, 503, LIMIT, f"more than {self.cap} connections at once")
            return
        await self.inner(scope, receive, send)

    def send_400_response(self, msg: str) -> None:
        """A request h11 refused: a JSON 400, then the connection closes."""
        body = error_body(INVALID_REQUEST, f"not a valid HTTP/1.1 request ({msg})")
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            output = self.conn.send(event)
            if output:
                self.transport.write(output)
        self.transport.close()
