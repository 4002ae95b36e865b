"""The OpenAPI 3.1 document of the HTTP oracle (``GET /openapi.json``, ``tricklaw serve
--openapi``), made from the methods' parameter and result schemas
(:data:`~tricklaw.oracle.methods.METHODS`, :func:`~tricklaw.oracle.schemas.definitions`)."""

from __future__ import annotations

from typing import Any

from tricklaw import __version__
from tricklaw.oracle import MAX_LINE_BYTES, METHODS, PROTOCOL, definitions

ERRORS = {
    400: "Malformed JSON or parameters, or a Host that is not served; error.data.field "
    "names the field.",
    401: "A token is required (tricklaw serve --token): send Authorization: Bearer TOKEN.",
    403: "A cross-site Origin (allow it with tricklaw serve --allow-origin).",
    404: "No such method, or no open game with that id.",
    405: "The method is not allowed on this path.",
    408: "The body did not arrive in time.",
    409: "An illegal action; error.data.clause names the rule.",
    413: f"The body is larger than {MAX_LINE_BYTES} bytes.",
    415: "The body is not application/json.",
    429: "A limit of the oracle (open games, batch size, the work asked for).",
    500: "A defect of tricklaw.",
}
"""Every error status the server answers, each with a JSON ``{"error": {...}}`` body."""

RPC_ERRORS = (400, 401, 403, 405, 408, 413, 415)
"""The statuses ``/rpc`` may answer besides 200 and 204 (JSON-RPC errors come in a 200)."""


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


def _error(status: int) -> dict[str, Any]:
    schema = {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"$ref": "#/components/schemas/error"}},
    }
    return {"description": ERRORS[status], "content": {"application/json": {"schema": schema}}}


def _json_body(schema: Any) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 description of the HTTP oracle, made from :data:`METHODS`."""
    errors = {str(status): _error(status) for status in ERRORS}
    paths: dict[str, Any] = {
        f"/v1/{name}": {
            "post": {
                "operationId": name,
                "summary": method.summary,
                "requestBody": _json_body(_components(method.params)),
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
    message = {"type": ["object", "array"]}
    request = {
        "description": "A JSON-RPC 2.0 request object or batch array. Any other JSON "
        "value is answered in the protocol (a JSON-RPC error in a 200), as on stdio."
    }
    paths["/rpc"] = {
        "post": {
            "operationId": "rpc",
            "summary": "Any method as a JSON-RPC 2.0 request or batch (the stdio protocol).",
            "requestBody": _json_body(request),
            "responses": {
                "200": {
                    "description": "The JSON-RPC response (its errors inside it).",
                    "content": {"application/json": {"schema": message}},
                },
                "204": {"description": "Only notifications were sent."},
                **{str(status): errors[str(status)] for status in RPC_ERRORS},
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
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "paths": paths,
    }
