"""``tricklaw serve``: the live oracle (:mod:`tricklaw.oracle`) over standard I/O or HTTP.

**stdio** (``tricklaw serve --stdio``): one JSON-RPC request per line on standard input,
one response per line on standard output, flushed at once; the open games live as long
as the process (ids ``g1``, ``g2``, ...). End of input ends the server with status 0. A
line longer than :data:`~tricklaw.oracle.protocol.MAX_LINE_BYTES` is skipped unread and
answered with an error.

**HTTP** (``tricklaw serve --http PORT [--host HOST]``, on 127.0.0.1 by default): the
Starlette application of :mod:`tricklaw.http` on uvicorn (see
:mod:`tricklaw.http.app` for the routes and :mod:`tricklaw.http.guards` for who may
talk to it: ``--allow-host``, ``--allow-origin``, ``--token``).

**The table** (``tricklaw serve --table [PORT]``): the players' page alone, on this
machine's network address, with its address as a QR code for every phone at the table
(:mod:`tricklaw.http.table`).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from tricklaw.oracle import MAX_GAMES, MAX_LINE_BYTES, Oracle, encode, too_long

if TYPE_CHECKING:
    from tricklaw.http.guards import Policy
    from tricklaw.http.run import Limits

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


class Served(NamedTuple):
    """What ``serve._listening`` gives: the page folder (None: no page), the start line's
    note about it, and the listening socket."""

    folder: Path | None
    note: str
    sock: socket.socket


@contextmanager
def _listening(host: str, port: int, page: str | None, backlog: int) -> Iterator[Served]:
    """The page folder (:func:`find_page`) and a socket listening on ``host:port``, for
    ``serve --http`` and ``serve --table`` alike; a page built for the run is removed
    when it ends, and a socket that cannot listen is one line naming the address."""
    import shutil

    from tricklaw.http.run import listen
    from tricklaw.spec.errors import TricklawError

    folder, note = find_page(page)
    built = folder if folder is not None and not page else None  # a temporary build
    try:
        try:
            sock = listen(host, port, backlog)
        except OSError as exc:
            raise TricklawError(f"serve: cannot listen on {host}:{port}: {exc.strerror}") from None
        yield Served(folder, note, sock)
    finally:
        if built is not None:
            shutil.rmtree(built, ignore_errors=True)


def serve_http(
    host: str,
    port: int,
    *,
    max_games: int = MAX_GAMES,
    page: str | None = None,
    policy: Policy | None = None,
    limits: Limits | None = None,
) -> int:
    """Serve HTTP on ``host:port`` until interrupted; the address goes to standard error."""
    from tricklaw.http.app import create_app
    from tricklaw.http.guards import Policy, hosts_for
    from tricklaw.http.run import Limits, serve

    limits = limits or Limits()
    policy = policy or Policy(hosts=hosts_for(host))
    with _listening(host, port, page, limits.backlog) as (folder, note, sock):
        shown = f"[{host}]" if ":" in host else host
        sys.stderr.write(
            f"tricklaw oracle on http://{shown}:{sock.getsockname()[1]}/ "
            f"(OpenAPI: /openapi.json; {note})\n"
        )
        sys.stderr.flush()
        serve(create_app(policy, max_games=max_games, page=folder), sock, limits)
    return 0


def serve_table(host: str | None, port: int, page: str | None) -> int:
    """Serve the built page alone on ``host`` (default: this machine's network address)
    and ``port`` until interrupted; its address and QR code go to standard output."""
    from tricklaw.http.guards import loopback
    from tricklaw.http.run import Limits, serve
    from tricklaw.http.table import create_page_app, lan_address, page_url, qr_text, table_policy
    from tricklaw.spec.errors import TricklawError

    if not 0 <= port <= 65535:
        raise TricklawError(f"serve: --table {port} is not a port (0..65535)")
    address = host or lan_address()
    if address is None:
        raise TricklawError(
            "serve: --table: this machine has no address on a network; join the table's "
            "Wi-Fi, or give --host ADDRESS"
        )
    limits = Limits()
    with _listening(address, port, page, limits.backlog) as (folder, _, sock):
        if folder is None:
            raise TricklawError(
                "serve: --table: no page to serve: give --page DIR (build it with 'tricklaw "
                "page build DIR'), or run 'npm ci' in the repository so that one is built"
            )
        url = page_url(address, sock.getsockname()[1])
        alone = " (this address is this machine's alone)" if loopback(address) else ""
        sys.stdout.write(
            f"The page for the table: {url}{alone}\n{qr_text(url)}"
            "Scan the code, or type the address, on each phone on this network. Only the "
            "page is served, none of the oracle's methods; Ctrl-C stops it.\n"
        )
        sys.stdout.flush()
        serve(create_page_app(folder, table_policy(address)), sock, limits)
    return 0


# --- the command --------------------------------------------------------------------------------


TABLE_PORT = 8080
"""The port ``serve --table`` listens on unless told another."""

TOKEN_ENV = "TRICKLAW_TOKEN"
"""The environment variable that may hold the HTTP server's bearer token."""


def cmd_serve(args: argparse.Namespace) -> int:
    """``tricklaw serve``."""
    from tricklaw.spec.errors import TricklawError

    if args.max_games < 1:
        raise TricklawError(f"serve: --max-games must be at least 1, not {args.max_games}")
    if args.max_connections < 1:
        raise TricklawError(
            f"serve: --max-connections must be at least 1, not {args.max_connections}"
        )
    http_only = (
        ("--allow-host", args.allow_host),
        ("--allow-origin", args.allow_origin),
        ("--token", args.token),
        ("--public", args.public),
    )
    if args.http is None:
        for flag, given in http_only:
            if given:
                raise TricklawError(f"serve: {flag} needs --http PORT")
    if args.table is not None:
        return serve_table(args.host, args.table, args.page)
    if args.openapi:
        from tricklaw.http.openapi import openapi

        sys.stdout.write(json.dumps(openapi(), indent=1) + "\n")
        return 0
    if args.stdio:
        return serve_stdio(sys.stdin.buffer, sys.stdout.buffer, Oracle(args.max_games))
    if args.http is None:
        raise TricklawError("serve: choose --stdio, --http PORT or --openapi")
    if not 0 <= args.http <= 65535:
        raise TricklawError(f"serve: --http {args.http} is not a port (0..65535)")
    from tricklaw.http.guards import Policy, bind_refusal, hosts_for, loopback
    from tricklaw.http.run import Limits

    args.host = args.host or "127.0.0.1"

    for origin in args.allow_origin:
        if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
            raise TricklawError(
                f"serve: --allow-origin {origin[:80]!r} is not an origin (http://host[:port])"
            )
    tokens = list(args.token or ())
    if not tokens and os.environ.get(TOKEN_ENV):
        tokens.append(os.environ[TOKEN_ENV])
    for token in tokens:
        if not token.isprintable() or " " in token or len(token) < 8:
            raise TricklawError("serve: a token needs 8 or more printable characters, no space")
    refusal = bind_refusal(args.host, args.public, tuple(tokens))
    if refusal:
        raise TricklawError(f"serve: {refusal}")
    if not loopback(args.host):
        sys.stderr.write(
            f"tricklaw: serve: warning: listening beyond this machine ({args.host}); every "
            "request must send Authorization: Bearer TOKEN\n"
        )
    policy = Policy(
        hosts=hosts_for(args.host, tuple(args.allow_host)),
        origins=tuple(args.allow_origin),
        tokens=tuple(tokens),
    )
    return serve_http(
        args.host,
        args.http,
        max_games=args.max_games,
        page=args.page,
        policy=policy,
        limits=Limits(max_connections=args.max_connections),
    )


def add_command(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``serve`` subcommand to the ``tricklaw`` parser's ``subparsers``."""
    from tricklaw.http.run import MAX_CONNECTIONS

    p = subparsers.add_parser(
        "serve",
        help="the live oracle: JSON-RPC over stdio, or HTTP with an OpenAPI description",
        description="Answer the oracle protocol (new_game, legal_actions, apply, "
        "trick_result, scores, explain, ...) on standard I/O, one JSON-RPC request per "
        "line, or over HTTP (Starlette on uvicorn).",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="JSON-RPC lines on stdin/stdout")
    mode.add_argument("--http", type=int, metavar="PORT", help="HTTP on PORT (0: any free port)")
    mode.add_argument("--openapi", action="store_true", help="print the OpenAPI description")
    mode.add_argument(
        "--table",
        type=int,
        nargs="?",
        const=TABLE_PORT,
        metavar="PORT",
        help=f"serve the players' page alone to the local network, on PORT (default "
        f"{TABLE_PORT}; 0: any free port), and print its address with a QR code",
    )
    p.add_argument(
        "--host",
        help="HTTP address (default 127.0.0.1; with --table, this machine's network address)",
    )
    p.add_argument(
        "--public",
        action="store_true",
        help="allow a --host beyond this machine (an address of the network, or 0.0.0.0 / "
        ":: for every interface); it needs --token, and prints a warning",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer to this Host name (repeatable; default: localhost, 127.0.0.1, "
        "[::1] and the --host address)",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let web pages of this origin (http://host:port) call the oracle (CORS; "
        "repeatable; default: same-origin only)",
    )
    p.add_argument(
        "--token",
        action="append",
        metavar="T",
        help=f"require Authorization: Bearer T on every request (repeatable: each token "
        f"is a client with its own games; default: ${TOKEN_ENV} if set, else no token)",
    )
    p.add_argument(
        "--max-connections",
        type=int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help=f"connections and requests in flight at most; more get 503 "
        f"(default {MAX_CONNECTIONS})",
    )
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
