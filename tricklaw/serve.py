"""``tricklaw serve``: the live oracle (:mod:`tricklaw.oracle`) over standard I/O or HTTP.

**stdio** (``tricklaw serve --stdio``): one JSON-RPC request per line on standard input,
one response per line on standard output, flushed at once; the open games live as long
as the process. End of input ends the server with status 0. A line longer than
:data:`~tricklaw.oracle.protocol.MAX_LINE_BYTES` is skipped unread and answered with an error.

**HTTP** (``tricklaw serve --http PORT [--host HOST]``, on 127.0.0.1 by default):

* ``POST /rpc``: a JSON-RPC request or batch in the body, its response in the answer
  (``204`` for notifications only);
* ``POST /v1/METHOD``: the method's params object in the body (empty body = ``{}``); the
  answer is the bare result with ``200``, or ``{"error": {...}}`` with the status of
  :data:`HTTP_STATUS` (400 bad params, 404 unknown method or game, 409 illegal action,
  413 too large, 429 a limit, 500 a defect);
* ``GET /openapi.json``: the OpenAPI 3.1 description (also ``tricklaw serve --openapi``);
* ``GET /`` and every other ``GET``: the page for players (:mod:`tricklaw.page`), from the
  folder ``--page DIR`` (a ``tricklaw page build``), or built at start into a temporary
  folder when Pyodide is found (``npm ci``) and removed when the server stops; without a
  page, ``/`` answers a JSON note saying how to get one.

Every request body must state its ``Content-Length`` (at most 1 MiB); a client that
stalls for :data:`SOCKET_TIMEOUT` seconds is dropped. One lock serialises the calls, so
the games of all clients are one :class:`~tricklaw.oracle.session.Oracle` (game ids are shared:
this is a tool for development and testing, not an internet service).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any

from tricklaw import __version__
from tricklaw.oracle import (
    ILLEGAL_ACTION,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LIMIT,
    MAX_GAMES,
    MAX_LINE_BYTES,
    METHOD_NOT_FOUND,
    METHODS,
    PARSE_ERROR,
    PROTOCOL,
    UNKNOWN_GAME,
    Oracle,
    OracleError,
    definitions,
    encode,
    too_long,
)

SOCKET_TIMEOUT = 10.0
"""Seconds an HTTP client may stall mid-request before it is dropped."""

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


# --- stdio --------------------------------------------------------------------------------------


def serve_stdio(source: IO[bytes], sink: IO[bytes], oracle: Oracle | None = None) -> int:
    """Answer requests from ``source`` line by line on ``sink`` until end of input."""
    oracle = oracle or Oracle()
    while True:
        line = source.readline(MAX_LINE_BYTES + 1)
        if not line:
            return 0
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # skip the rest of the long line
                line = source.readline(MAX_LINE_BYTES)
            response: str | None = encode(too_long())
        elif not line.strip():
            continue
        else:
            response = oracle.handle_text(line)
        if response is not None:
            sink.write(response.encode("utf-8") + b"\n")
            sink.flush()


# --- OpenAPI ------------------------------------------------------------------------------------


def _components(schema: Any) -> Any:
    """``schema`` with its ``#/$defs/`` references pointed at OpenAPI's components."""
    if isinstance(schema, dict):
        return {
            key: (
                value.replace("#/$defs/", "#/components/schemas/")
                if key == "$ref" and isinstance(value, str)
                else _components(value)
            )
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [_components(item) for item in schema]
    return schema


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 description of the HTTP oracle, made from :data:`METHODS`."""
    error = {"$ref": "#/components/schemas/error"}
    errors = {
        str(status): {
            "description": description,
            "content": {
                "application/json": {"schema": {"type": "object", "properties": {"error": error}}}
            },
        }
        for status, description in (
            (400, "Malformed JSON or parameters; error.data.field names the field."),
            (404, "No such method, or no open game with that id."),
            (409, "An illegal action; error.data.clause names the rule."),
            (413, "The body is larger than 1 MiB."),
            (429, "A limit of the oracle (open games, batch size)."),
            (500, "A defect of tricklaw."),
        )
    }
    paths: dict[str, Any] = {
        f"/v1/{name}": {
            "post": {
                "operationId": name,
                "summary": method.summary,
                "requestBody": {
                    "required": False,
                    "content": {"application/json": {"schema": _components(method.params)}},
                },
                "responses": {
                    "200": {
                        "description": "The result.",
                        "content": {"application/json": {"schema": _components(method.result)}},
                    },
                    **errors,
                },
            }
        }
        for name, method in METHODS.items()
    }
    paths["/rpc"] = {
        "post": {
            "operationId": "rpc",
            "summary": "Any method as a JSON-RPC 2.0 request or batch (the stdio protocol).",
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"type": ["object", "array"]}}},
            },
            "responses": {
                "200": {
                    "description": "The JSON-RPC response (errors inside it).",
                    "content": {"application/json": {"schema": {"type": ["object", "array"]}}},
                },
                "204": {"description": "Only notifications were sent."},
                "413": errors["413"],
            },
        }
    }
    schemas = _components(definitions())
    schemas["error"] = {
        "type": "object",
        "required": ["code", "message"],
        "properties": {
            "code": {"type": "integer"},
            "message": {"type": "string"},
            "data": {
                "type": "object",
                "properties": {"field": {"type": "string"}, "clause": {"type": "string"}},
            },
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "tricklaw live oracle",
            "version": __version__,
            "description": f"The {PROTOCOL} protocol over HTTP. See the tricklaw docs.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }


# --- HTTP ---------------------------------------------------------------------------------------


class OracleServer(ThreadingHTTPServer):
    """An HTTP server around one :class:`Oracle`, its calls serialised by a lock."""

    daemon_threads = True

    def __init__(
        self, address: tuple[str, int], oracle: Oracle | None = None, page: Path | None = None
    ) -> None:
        super().__init__(address, _Handler)
        self.oracle = oracle or Oracle()
        self.lock = threading.Lock()
        self.page = page
        """The built page's folder, served at ``/`` (:mod:`tricklaw.page.files`)."""


class _Handler(BaseHTTPRequestHandler):
    server: OracleServer
    server_version = f"tricklaw/{__version__}"
    sys_version = ""
    timeout = SOCKET_TIMEOUT
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the oracle logs nothing per request."""

    def _send(self, status: int, body: Any = None) -> None:
        data = b"" if body is None else encode(body).encode("utf-8")
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _fail(self, status: int, code: int, message: str) -> None:
        self._send(status, {"error": OracleError(code, message).as_json()})

    def do_GET(self) -> None:
        """``GET /openapi.json``, and the page's files (``/`` = its ``index.html``)."""
        from tricklaw.page.files import page_file

        found = None if self.server.page is None else page_file(self.server.page, self.path)
        if self.path == "/openapi.json":
            self._send(200, openapi())
        elif found is not None:
            data, kind = found
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            try:
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the browser went elsewhere
                self.close_connection = True
        elif self.path == "/":
            self._send(
                200,
                {
                    "protocol": PROTOCOL,
                    "openapi": "/openapi.json",
                    "page": "no page: run 'npm ci' in the repository, or give --page DIR "
                    "(tricklaw page build DIR)",
                },
            )
        else:
            self._fail(404, METHOD_NOT_FOUND, f"no resource {self.path[:100]!r}")

    def do_POST(self) -> None:
        """``POST /rpc`` and ``POST /v1/METHOD``."""
        body = self._body()
        if body is None:
            return
        if self.path == "/rpc":
            with self.server.lock:
                response = self.server.oracle.handle_json_text(body or b"null")
            self._send(204) if response is None else self._send(200, response)
            return
        name = self.path.removeprefix("/v1/")
        if not self.path.startswith("/v1/") or name not in METHODS:
            self._fail(404, METHOD_NOT_FOUND, f"no method at {self.path[:100]!r}")
            return
        try:
            with self.server.lock:
                result = self.server.oracle.call_text(name, body)
        except OracleError as exc:
            self._send(HTTP_STATUS.get(exc.code, 400), {"error": exc.as_json()})
            return
        self._send(200, result)

    def _body(self) -> bytes | None:
        """The request body, or ``None`` after answering a request that has no good one."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self._fail(411, INVALID_REQUEST, "send the body with a Content-Length, not chunked")
            self.close_connection = True
            return None
        length_text = self.headers.get("Content-Length", "0")
        if not length_text.isdigit():
            self._fail(400, INVALID_REQUEST, f"Content-Length {length_text[:40]!r} is not a number")
            self.close_connection = True
            return None
        length = int(length_text)
        if length > MAX_LINE_BYTES:
            self._fail(413, LIMIT, f"the body is {length} bytes; at most {MAX_LINE_BYTES}")
            self.close_connection = True
            return None
        body = self.rfile.read(length)
        if len(body) < length:
            self.close_connection = True
            return None
        return body

    def _not_allowed(self) -> None:
        self.send_response(405)
        self.send_header("Allow", "GET, POST")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _not_allowed  # noqa: N815


def find_page(page: str | None) -> tuple[Path | None, str]:
    """The page folder to serve at ``/``: ``page`` (checked), else a page built into a
    temporary folder when Pyodide is found, else none; and a note for the start line."""
    import tempfile

    from tricklaw.page.build import build_page, find_pyodide
    from tricklaw.spec.errors import TricklawError

    if page:
        folder = Path(page)
        if not (folder / "index.html").is_file():
            raise TricklawError(f"serve: --page {page} holds no index.html (tricklaw page build)")
        return folder, f"page: {folder}"
    if find_pyodide() is None:
        return None, "no page: Pyodide not found (npm ci)"
    folder = Path(tempfile.mkdtemp(prefix="tricklaw-page-"))
    build_page(folder)
    return folder, "page: /"


def serve_http(
    host: str, port: int, *, max_games: int = MAX_GAMES, page: str | None = None
) -> int:
    """Serve HTTP on ``host:port`` until interrupted; the address goes to standard error."""
    import shutil

    folder, note = find_page(page)
    built = folder if folder is not None and not page else None  # a temporary build
    try:
        try:
            server = OracleServer((host, port), Oracle(max_games), folder)
        except OSError as exc:
            from tricklaw.spec.errors import TricklawError

            raise TricklawError(f"serve: cannot listen on {host}:{port}: {exc.strerror}") from None
        sys.stderr.write(
            f"tricklaw oracle on http://{host}:{server.server_address[1]}/ "
            f"(OpenAPI: /openapi.json; {note})\n"
        )
        sys.stderr.flush()
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    finally:
        if built is not None:
            shutil.rmtree(built, ignore_errors=True)
    return 0


# --- the command --------------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    """``tricklaw serve``."""
    from tricklaw.spec.errors import TricklawError

    if args.max_games < 1:
        raise TricklawError(f"serve: --max-games must be at least 1, not {args.max_games}")
    if args.openapi:
        sys.stdout.write(json.dumps(openapi(), indent=1) + "\n")
        return 0
    if args.stdio:
        return serve_stdio(sys.stdin.buffer, sys.stdout.buffer, Oracle(args.max_games))
    if args.http is None:
        raise TricklawError("serve: choose --stdio, --http PORT or --openapi")
    if not 0 <= args.http <= 65535:
        raise TricklawError(f"serve: --http {args.http} is not a port (0..65535)")
    return serve_http(args.host, args.http, max_games=args.max_games, page=args.page)


def add_command(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``serve`` subcommand to the ``tricklaw`` parser's ``subparsers``."""
    p = subparsers.add_parser(
        "serve",
        help="the live oracle: JSON-RPC over stdio, or HTTP with an OpenAPI description",
        description="Answer the oracle protocol (new_game, legal_actions, apply, "
        "trick_result, scores, explain, ...) on standard I/O, one JSON-RPC request per "
        "line, or over HTTP.",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="JSON-RPC lines on stdin/stdout")
    mode.add_argument("--http", type=int, metavar="PORT", help="HTTP on PORT (0: any free port)")
    mode.add_argument("--openapi", action="store_true", help="print the OpenAPI description")
    p.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    p.add_argument(
        "--page",
        metavar="DIR",
        help="serve this built page at / (default: build one if Pyodide is found)",
    )
    p.add_argument(
        "--max-games",
        type=int,
        default=MAX_GAMES,
        help=f"open games at most (default {MAX_GAMES}); 'close' frees one",
    )
    p.set_defaults(func=cmd_serve)
