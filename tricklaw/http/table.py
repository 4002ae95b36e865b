"""``tricklaw serve --table``: the players' page, and nothing else, for every phone at a table.

The table's host runs one command; it binds this machine's address on the local network
(:func:`lan_address`), answers to that address as a Host (and to the loopback names), and
prints the page's address with a QR code (:func:`qr_text`, drawn by ``segno``) that each
player scans. Only the built page is served (:func:`create_page_app`): the oracle's
JSON-RPC and REST routes are not there at all, so the network reaches no game state and
no method, and no token is needed. The page judges tricks in the phone's own browser
(Pyodide); the server only hands out its files.

A browser keeps the page for offline use (its service worker) only on ``https://`` or on
``localhost``; over the plain ``http://`` of a home network each phone loads the page
from this server, and it works for as long as the server runs. To publish the page once
for good, copy a built page folder to any static host (docs/page.md).
"""

from __future__ import annotations

import io
import ipaddress
import socket
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tricklaw.http.guards import HostOriginGuard, Policy, error_body, hosts_for
from tricklaw.oracle import INVALID_REQUEST, METHOD_NOT_FOUND

PROBE = ("192.0.2.1", 9)
"""An address of the documentation range (RFC 5737, TEST-NET-1), never in use: a UDP
socket "connected" to it learns which interface the machine would send from, and no
packet is sent."""


def lan_address() -> str | None:
    """This machine's IPv4 address on its network (the one its default route leaves
    from), or None when it has none beyond loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    ip = ipaddress.ip_address(address)
    return None if ip.is_loopback or ip.is_unspecified else address


def page_url(host: str, port: int) -> str:
    """The address a phone types: ``http://HOST:PORT/`` (an IPv6 host in brackets)."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with text (two rows of modules a line, in block
    characters), for a terminal."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def create_page_app(page: Path, policy: Policy) -> Starlette:
    """The built page in ``page`` at ``/``, for ``GET`` (and ``HEAD``), behind the Host
    check of ``policy``; any other path is a 404 and any other method a 405, each with
    a JSON error body. None of the oracle's routes is served."""

    async def page_file(request: Request) -> Response:
        from tricklaw.page.files import page_file as find

        found = find(page, request.url.path)
        if found is None:
            body = error_body(METHOD_NOT_FOUND, f"no page file {request.url.path[:100]!r}")
            return Response(body, 404, media_type="application/json")
        data, kind = found
        return Response(data, 200, {"Cache-Control": "no-cache"}, media_type=kind)

    async def not_allowed(request: Request) -> Response:
        body = error_body(INVALID_REQUEST, "only the page is served here: GET its files")
        return Response(body, 405, {"Allow": "GET, HEAD"}, media_type="application/json")

    others = ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
    return Starlette(
        routes=[
            Route("/{path:path}", page_file, methods=["GET"]),
            Route("/{path:path}", not_allowed, methods=others),
        ],
        middleware=[Middleware(HostOriginGuard, policy=policy)],
    )


def table_policy(host: str) -> Policy:
    """Who may load the page: any client that names this machine as the Host (its
    network address or a loopback name); pages of other origins may not call in."""
    return Policy(hosts=hosts_for(host))
