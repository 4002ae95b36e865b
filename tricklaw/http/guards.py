"""What the HTTP oracle lets in: the Host and Origin checks (no DNS rebinding, no
cross-site page driving the oracle), the optional bearer tokens (each token one client
with its own games), and a request body read within its limits (JSON only, a size cap,
a deadline for a body that stalls). Every refusal is a JSON ``{"error": {...}}`` body."""

from __future__ import annotations

import hmac
import ipaddress
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import anyio
from starlette.requests import ClientDisconnect, Request

from tricklaw.oracle import INVALID_REQUEST, LIMIT, MAX_LINE_BYTES, OracleError, encode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK = frozenset({"127.0.0.1", "localhost", "[::1]"})
"""The Host names a server on the loopback interface answers to (with any port)."""
WILDCARDS = frozenset({"0.0.0.0", "::", ""})
BODY_TIMEOUT = 10.0
"""Seconds a request body may take to arrive before the request is refused (408)."""
CLIENT = "tricklaw.client"
"""The scope key holding the client a request comes from (its token, or "")."""


@dataclass(frozen=True, slots=True)
class Policy:
    """Who may talk to the server: the Host names it answers to, the Origins allowed
    cross-site (CORS), the bearer tokens (none: no token needed) and the body limits."""

    hosts: frozenset[str] = LOOPBACK
    origins: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    max_body: int = MAX_LINE_BYTES
    body_timeout: float = BODY_TIMEOUT


def hosts_for(bind: str, named: tuple[str, ...] = ()) -> frozenset[str]:
    """The Host names a server bound to ``bind`` answers to: the loopback names, the
    bound address itself (unless a wildcard), and the names the user gave."""
    own = set(LOOPBACK)
    if bind not in WILDCARDS:
        own.add(f"[{bind}]" if ":" in bind and not bind.startswith("[") else bind)
    own.update(name.lower() for name in named)
    return frozenset(h.lower() for h in own)


def loopback(bind: str) -> bool:
    """Whether address ``bind`` is this machine's alone: a loopback address
    (127.0.0.0/8, ::1) or a name that resolves only to such addresses (``localhost``)."""
    name = bind.strip("[]")
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(name, None)
    except (OSError, UnicodeError):
        return False
    return bool(found) and all(
        ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]).is_loopback for info in found
    )


def bind_refusal(bind: str, public: bool, tokens: tuple[str, ...]) -> str:
    """Why the HTTP oracle must not listen on ``bind``, or "" when it may. An empty
    address (an unset variable, which would bind every interface) is always refused; a
    wildcard (every interface) only with ``public``; and any address beyond this
    machine (:func:`loopback`) needs ``public`` and a bearer token, so that no one on the
    network drives the oracle unasked."""
    if not bind.strip():
        return "--host is empty (an unset variable?): it would listen on every interface"
    if loopback(bind):
        return ""
    where = "every interface" if bind in WILDCARDS else f"{bind}, beyond this machine"
    if not public:
        return f"--host {bind} listens on {where}: add --public to mean it"
    if not tokens:
        return f"--host {bind} listens on {where}: --public needs --token (or $TRICKLAW_TOKEN)"
    return ""


def host_name(value: str) -> str:
    """The name part of a Host header value (``[::1]:8080`` -> ``[::1]``), lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.split(":", 1)[0]


def error_body(code: int, message: str, **data: Any) -> bytes:
    """The JSON body of an HTTP error."""
    return encode({"error": OracleError(code, message[:300], **data).as_json()}).encode("utf-8")


async def send_error(
    send: Send, status: int, code: int, message: str, headers: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    """Answer ``status`` with a JSON error body (and close the connection)."""
    body = error_body(code, message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class HostOriginGuard:
    """Refuse a Host the server does not answer to (400) and a cross-site Origin that
    ``--allow-origin`` did not name (403). A request without Origin (not from a browser)
    passes; a browser's same-origin request carries the server's own address."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        if host is None or host_name(host) not in self.policy.hosts:
            shown = "no Host" if host is None else f"Host {host[:80]!r}"
            await send_error(send, 400, INVALID_REQUEST, f"{shown} is not served here")
            return
        origin = _header(scope, b"origin")
        if origin is not None and not self._allowed(origin, host):
            await send_error(
                send,
                403,
                INVALID_REQUEST,
                f"Origin {origin[:80]!r} is cross-site (allow it with --allow-origin)",
            )
            return
        await self.app(scope, receive, send)

    def _allowed(self, origin: str, host: str) -> bool:
        if origin in self.policy.origins:
            return True
        return origin.lower() in (f"http://{host.lower()}", f"https://{host.lower()}")


class TokenGuard:
    """With tokens set, refuse a request without ``Authorization: Bearer TOKEN`` of one
    of them (401); record the client (the token, or "" without tokens) in the scope."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.tokens = tuple(t.encode("utf-8") for t in policy.tokens)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = ""
        if self.tokens:
            given = (_header(scope, b"authorization") or "").encode("latin-1")
            scheme, _, token = given.partition(b" ")
            match = [t for t in self.tokens if hmac.compare_digest(token.strip(), t)]
            if scheme.lower() != b"bearer" or not match:
                await send_error(
                    send,
                    401,
                    INVALID_REQUEST,
                    "a token is required: send Authorization: Bearer TOKEN",
                    ((b"www-authenticate", b"Bearer"),),
                )
                return
            client = match[0].decode("utf-8")
        scope[CLIENT] = client
        await self.app(scope, receive, send)


class BodyError(Exception):
    """A request body refused: its HTTP status and JSON-RPC error code."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def is_json(content_type: str | None) -> bool:
    """Whether a Content-Type names JSON text (``application/json``, UTF-8 if a charset)."""
    if content_type is None:
        return False
    kind, *params = (part.strip().lower() for part in content_type.split(";"))
    charsets = [p.split("=", 1)[1].strip('"') for p in params if p.startswith("charset=")]
    return kind == "application/json" and all(c in ("utf-8", "utf8") for c in charsets)


async def read_body(request: Request, policy: Policy) -> bytes:
    """The body of a POST: JSON, at most ``policy.max_body`` bytes, arrived within
    ``policy.body_timeout`` seconds; raises :class:`BodyError` otherwise."""
    if not is_json(request.headers.get("content-type")):
        raise BodyError(415, INVALID_REQUEST, "the body must be application/json")
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > policy.max_body:
        raise BodyError(413, LIMIT, f"the body is {length} bytes; at most {policy.max_body}")
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(policy.body_timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > policy.max_body:
                    raise BodyError(413, LIMIT, f"the body is over {policy.max_body} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise BodyError(
            408, INVALID_REQUEST, f"the body did not arrive in {policy.body_timeout:g} s"
        ) from None
    except ClientDisconnect:
        raise BodyError(400, INVALID_REQUEST, "the client went away") from None
    body = b"".join(chunks)
    if not body.strip():
        raise BodyError(400, INVALID_REQUEST, "a JSON body is required")
    return body
