"""The JSON-RPC 2.0 envelope: a request line parsed and its members checked, and a
response (a result or an error object) written as one line of JSON text."""

from __future__ import annotations

import json
import re
from typing import Any

from tricklaw.oracle.protocol import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    LIMIT,
    MAX_LINE_BYTES,
    MAX_RESPONSE_BYTES,
    PARSE_ERROR,
    OracleError,
)


def valid_id(value: Any) -> bool:
    """Whether ``value`` may be a request's id: a string, an integer or null."""
    return value is None or isinstance(value, str) or type(value) is int


def check_envelope(request: dict[str, Any]) -> None:
    """Refuse a request object whose ``jsonrpc``, ``method`` or ``params`` member is
    wrong, or that has any other member but ``id``."""
    if request.get("jsonrpc") != "2.0":
        raise OracleError(
            INVALID_REQUEST, 'jsonrpc: expected "2.0" (JSON-RPC 2.0)', field="jsonrpc"
        )
    method = request.get("method")
    if not isinstance(method, str):
        raise OracleError(INVALID_REQUEST, "method: expected a string", field="method")
    unknown = set(request) - {"jsonrpc", "id", "method", "params"}
    if unknown:
        raise OracleError(
            INVALID_REQUEST,
            f"unknown member {sorted(unknown)[0]!r} (members: jsonrpc, id, method, params)",
            field=sorted(unknown)[0],
        )
    if "params" in request and not isinstance(request["params"], dict):
        raise OracleError(
            INVALID_PARAMS, "params: expected a JSON object (named parameters)", field="params"
        )


def parse(text: str | bytes) -> Any:
    """The JSON value of a request (or of an HTTP body); raises a ``PARSE_ERROR``, also
    for a string (a value or a member name) with a lone surrogate (``"\\ud800"``): JSON
    lets it be written, but it is no Unicode text, and no answer could echo it."""
    try:
        value = json.loads(text)
        if _ESCAPED_SURROGATE.search(
            text if isinstance(text, str) else text.decode(errors="replace")
        ):
            _refuse_lone_surrogates(value)
        return value
    except UnicodeDecodeError:
        raise OracleError(PARSE_ERROR, "the request is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise OracleError(PARSE_ERROR, f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise OracleError(PARSE_ERROR, "not valid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise OracleError(PARSE_ERROR, f"not valid JSON: {exc}") from None


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
"""A JSON escape of a surrogate code unit: only a text with one can hold a lone one."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_lone_surrogates(value: Any) -> None:
    """Raise a ``PARSE_ERROR`` if a string in ``value`` holds a surrogate code unit (a
    pair of escapes that makes one character decodes to no surrogate)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise OracleError(
                    PARSE_ERROR,
                    "a string holds a lone surrogate (\\ud800-\\udfff): not Unicode text",
                )
        elif isinstance(item, dict):
            todo += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            todo += item


def encode(response: Any) -> str:
    """A response as one line of JSON text."""
    return json.dumps(response, separators=(",", ":"), ensure_ascii=False)


def encode_capped(response: Any) -> str:
    """``response`` as one line of JSON text, or, when that passes
    :data:`MAX_RESPONSE_BYTES`, a ``LIMIT`` error in its place (the cost estimate of
    :mod:`~tricklaw.oracle.cost` keeps this a last resort)."""
    text = encode(response)
    if len(text) <= MAX_RESPONSE_BYTES // 4 or len(text.encode("utf-8")) <= MAX_RESPONSE_BYTES:
        return text
    request_id = response.get("id") if isinstance(response, dict) else None
    return encode(
        error_response(
            request_id,
            OracleError(LIMIT, f"the response is longer than {MAX_RESPONSE_BYTES} bytes"),
        )
    )


def too_long() -> dict[str, Any]:
    """The response to a request longer than :data:`MAX_LINE_BYTES` (which is not read)."""
    return error_response(
        None, OracleError(LIMIT, f"the request is longer than {MAX_LINE_BYTES} bytes")
    )


def error_response(request_id: Any, exc: OracleError) -> dict[str, Any]:
    """The response that carries ``exc`` for the request ``request_id``."""
    return {"jsonrpc": "2.0", "id": request_id, "error": exc.as_json()}
