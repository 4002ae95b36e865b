"""The uvicorn server of the HTTP oracle: :func:`serve` in the foreground (``tricklaw
serve --http``) and :class:`LiveServer` in a thread (tests, the load test).

uvicorn parses HTTP/1.1 with h11, strictly: a body is framed by its Content-Length (or
chunks) whether or not the application reads it, so a refused request's body never runs
as the next request (:mod:`~tricklaw.http.protocol` makes uvicorn's own refusals JSON).
The socket listens with a backlog of :data:`BACKLOG`; at most
:data:`MAX_CONNECTIONS` connections and requests at once (more get 503); an idle
keep-alive connection closes after :data:`KEEP_ALIVE` seconds, a request head that does
not arrive in :data:`~tricklaw.http.protocol.HEAD_TIMEOUT` seconds closes its connection,
and a body that stalls is refused after :data:`~tricklaw.http.guards.BODY_TIMEOUT`
seconds (408)."""

from __future__ import annotations

import logging
import socket
import threading
import time
from dataclasses import dataclass
from types import TracebackType
from typing import Any

BACKLOG = 2048
"""The listen backlog: connections the kernel queues before the server accepts them."""
MAX_CONNECTIONS = 1000
"""Connections and requests in flight at most (uvicorn's ``limit_concurrency``)."""
KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection stays open."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's connection limits (see the module's docstring)."""

    backlog: int = BACKLOG
    max_connections: int = MAX_CONNECTIONS
    keep_alive: int = KEEP_ALIVE
    head_timeout: float = 10.0
    """Seconds a request's line and headers may take (:mod:`~tricklaw.http.protocol`)."""


def listen(host: str, port: int, backlog: int = BACKLOG) -> socket.socket:
    """A socket bound to ``host:port`` and listening; raises ``OSError``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host.strip("[]"), port), family=family, backlog=backlog)


def _config(app: Any, sock: socket.socket, limits: Limits) -> Any:
    import uvicorn

    from tricklaw.http.protocol import OracleProtocol

    host, port = sock.getsockname()[:2]
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=type("Protocol", (OracleProtocol,), {"head_timeout": limits.head_timeout}),
        loop="asyncio",
        lifespan="off",
        backlog=limits.backlog,
        limit_concurrency=limits.max_connections,
        timeout_keep_alive=limits.keep_alive,
        access_log=False,
        log_config=None,
        server_header=False,
    )


class OneLine(logging.Formatter):
    """A log record as one line on standard error, its exception (if any) as its type and
    message, never a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"tricklaw serve: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            line += f": {type(exc).__name__}: {str(exc)[:200]}"
        return line.replace("\n", " ")[:500]


def quiet_logs() -> None:
    """uvicorn's warnings (a malformed request) and errors as one line each, never a
    traceback; no access log: the oracle logs nothing per good request."""
    handler = logging.StreamHandler()
    handler.setFormatter(OneLine())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        logger.handlers = [handler] if name == "uvicorn" else []
        logger.setLevel(logging.WARNING)
        logger.propagate = name != "uvicorn"


def serve(app: Any, sock: socket.socket, limits: Limits = Limits()) -> None:
    """Serve ``app`` on the listening ``sock`` until interrupted (Ctrl-C, SIGTERM)."""
    import uvicorn

    quiet_logs()
    server = uvicorn.Server(_config(app, sock, limits))
    server.run(sockets=[sock])


class LiveServer:
    """``app`` served by uvicorn in a daemon thread on ``host`` (a free port), for tests
    and the load test: ``with LiveServer(app) as live: live.port``."""

    def __init__(self, app: Any, host: str = "127.0.0.1", limits: Limits = Limits()) -> None:
        import uvicorn

        quiet_logs()
        self.sock = listen(host, 0, limits.backlog)
        self.host = host
        self.port: int = self.sock.getsockname()[1]
        self.server = uvicorn.Server(_config(app, self.sock, limits))
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.server.run(sockets=[self.sock])

    @property
    def url(self) -> str:
        """The server's base URL, ending in ``/``."""
        return f"http://{self.host}:{self.port}/"

    def start(self) -> LiveServer:
        """Start serving; returns once the server accepts connections."""
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the HTTP oracle did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
