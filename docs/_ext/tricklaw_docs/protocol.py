"""The oracle protocol's methods page include (``protocol.inc``), generated from the
method table (:data:`tricklaw.oracle.methods.METHODS`): each method's summary, its
parameters as a table and its result's JSON Schema, and the shared definitions the
schemas refer to. A pure function of the table (:func:`protocol_text`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .markdown import write


def _type(schema: dict[str, Any]) -> str:
    """A short name of a schema's type for the parameters table."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"{{ref}}`{name} <protocol-def-{name}>`"
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(_type(s) for s in schema[key])
    kind = schema.get("type", "any")
    kind = " or ".join(kind) if isinstance(kind, list) else kind
    if kind == "array" and isinstance(schema.get("items"), dict):
        return f"array of {_type(schema['items'])}"
    return str(kind)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def protocol_text() -> str:
    """The page include: every method, then the shared definitions."""
    from tricklaw.oracle.methods import METHODS
    from tricklaw.oracle.schemas import definitions

    out = [
        "Generated from the method table: the result of every method is checked against "
        "its schema by the tests.",
        "",
    ]
    for method in METHODS.values():
        out += [f"(protocol-{method.name})=", f"#### `{method.name}`", "", method.summary, ""]
        props = method.params.get("properties", {})
        required = set(method.params.get("required", ()))
        if props:
            out += ["| parameter | type | required | description |", "| --- | --- | --- | --- |"]
            for name, schema in props.items():
                out.append(
                    f"| `{name}` | {_type(schema)} | {'yes' if name in required else ''} | "
                    f"{_cell(schema.get('description', ''))} |"
                )
            out.append("")
        else:
            out += ["No parameters.", ""]
        out += [
            "Result:",
            "",
            "```json",
            json.dumps(method.result, indent=1, ensure_ascii=False),
            "```",
            "",
        ]
    out += ["#### Shared definitions", ""]
    for name, schema in definitions().items():
        out += [
            f"(protocol-def-{name})=",
            f"##### `{name}`",
            "",
            "```json",
            json.dumps(schema, indent=1, ensure_ascii=False),
            "```",
            "",
        ]
    return "\n".join(out)


def gen_protocol(gen: Path) -> None:
    """Write ``protocol.inc`` (:func:`protocol_text`)."""
    write(gen / "protocol.inc", protocol_text())
