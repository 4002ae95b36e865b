"""The live oracle: tricklaw's rules answered over a JSON-RPC 2.0 protocol.

``tricklaw serve --stdio`` reads one request per line on standard input and writes one
response per line on standard output; ``tricklaw serve --http PORT`` answers the same
methods over HTTP (see :mod:`tricklaw.serve`). This package holds the protocol itself,
free of any transport: :class:`~tricklaw.oracle.session.Oracle` takes a request (text or
parsed JSON) and returns the response.

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
:data:`~tricklaw.oracle.methods.METHODS`; ``tricklaw serve --openapi`` prints them as OpenAPI 3.1):

``hello``, ``rulesets``, ``new_game``, ``state``, ``legal_actions``, ``apply``,
``trick_result``, ``scores``, ``record``, ``explain``, ``judge``, ``close``.

Cards and actions are written in the record's notation (``R5``, ``select R5``,
``keep``, ``swap R5``, ``leader 2``, ``designate R5``); seats are absolute
(0 .. seats-1), except in ``judge``, which judges a trick away from any table and
counts seats as offsets from the leader.

The modules, one job each: :mod:`~tricklaw.oracle.protocol` (name, version, limits,
error codes), :mod:`~tricklaw.oracle.envelope` (a JSON-RPC line in and out),
:mod:`~tricklaw.oracle.schemas` (the JSON Schemas), :mod:`~tricklaw.oracle.params`
(parameters checked and read), :mod:`~tricklaw.oracle.session` (the open games and the
dispatch), :mod:`~tricklaw.oracle.view` (the state view), and the methods by job:
:mod:`~tricklaw.oracle.play`, :mod:`~tricklaw.oracle.results`,
:mod:`~tricklaw.oracle.rules`, gathered in :mod:`~tricklaw.oracle.methods`.
"""

from __future__ import annotations

from tricklaw.oracle.envelope import encode, encode_capped, too_long
from tricklaw.oracle.methods import METHODS
from tricklaw.oracle.params import PLAINLY_VALID
from tricklaw.oracle.protocol import (
    ERROR_NAMES,
    ILLEGAL_ACTION,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LIMIT,
    MAX_BATCH,
    MAX_COST,
    MAX_GAMES,
    MAX_LINE_BYTES,
    MAX_RESPONSE_BYTES,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    PROTOCOL,
    UNKNOWN_GAME,
    VERSION,
    OracleError,
)
from tricklaw.oracle.schemas import Method, definitions
from tricklaw.oracle.session import OpenGame, Oracle
from tricklaw.oracle.view import view

__all__ = [
    "ERROR_NAMES",
    "ILLEGAL_ACTION",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "LIMIT",
    "MAX_BATCH",
    "MAX_COST",
    "MAX_GAMES",
    "MAX_LINE_BYTES",
    "MAX_RESPONSE_BYTES",
    "METHODS",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "PLAINLY_VALID",
    "PROTOCOL",
    "UNKNOWN_GAME",
    "VERSION",
    "Method",
    "OpenGame",
    "Oracle",
    "OracleError",
    "definitions",
    "encode",
    "encode_capped",
    "too_long",
    "view",
]
