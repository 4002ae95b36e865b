"""The oracle protocol's fixed terms: its name and version, its limits, its error codes
and the error a refused request raises (:class:`OracleError`)."""

from __future__ import annotations

from typing import Any

PROTOCOL = "tricklaw-oracle"
VERSION = 1

MAX_LINE_BYTES = 1 << 20
"""The longest request line (1 MiB); a longer one is refused unread."""
MAX_GAMES = 10_000
"""Open games per oracle by default; ``close`` frees one."""
MAX_BATCH = 1_000
"""The most requests in one batch."""
MAX_COST = 16 << 20
"""The most response bytes a request or batch may ask for, estimated before it runs
(:mod:`~tricklaw.oracle.cost`); a larger one is refused whole."""
MAX_RESPONSE_BYTES = 32 << 20
"""The longest response written; a longer one is replaced by a ``LIMIT`` error."""

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
