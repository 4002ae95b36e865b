"""The JSON Schemas of the protocol: the definitions the methods share (the record's
card, seat, deal and trick, the oracle's game view) and the helpers that write a
method's parameters and result; :class:`Method` pairs them with the method's handler."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from tricklaw.model.record import record_schema

if TYPE_CHECKING:
    from tricklaw.oracle.session import Oracle


def ref(name: str) -> dict[str, str]:
    """A reference to the shared definition ``name``."""
    return {"$ref": f"#/$defs/{name}"}


def object_schema(
    properties: Mapping[str, Any], required: tuple[str, ...] = (), **more: Any
) -> dict[str, Any]:
    """An object of exactly these ``properties`` (no others), ``required`` among them."""
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
        **more,
    }


FACTS = {
    "type": "object",
    "additionalProperties": {"type": ["array", "integer", "string", "boolean", "null"]},
    "description": "The ruleset's facts of the round, by name (e.g. Sticheln's picked "
    "cards): JSON values as the record writes them.",
}
"""A round's facts: the ruleset names them (``Ruleset.round_facts``)."""
GAME_ID = {"type": "string", "minLength": 1, "maxLength": 64, "description": "A game id."}
SEAT_LIST = {"type": "array", "items": ref("seat")}
GAME = {"game": GAME_ID}
"""The ``game`` parameter of every method that works on an open game."""


@cache
def definitions() -> dict[str, Any]:
    """The schemas the methods share: the record's card, seat, deal and trick, and the
    oracle's own game view."""
    record = record_schema()["$defs"]
    defs: dict[str, Any] = {name: record[name] for name in ("card", "cards", "seat", "deal")}
    defs["trick"] = record["trick"]
    defs.update(_prefixed("record_", record_schema()))
    defs["record_round"]["properties"]["facts"] = FACTS  # the record's is left open
    defs["options"] = {
        "type": "object",
        "additionalProperties": {"type": ["string", "integer"]},
        "description": "Option name to value; options left out take their defaults.",
    }
    defs["action"] = {
        "type": "string",
        "minLength": 1,
        "maxLength": 32,
        "description": "An action in notation: R5, select R5, keep, swap R5, leader 2, "
        "designate R5.",
    }
    defs["round_end"] = object_schema(
        {
            "index": {"type": "integer", "description": "The round (from 0)."},
            "scores": {
                "type": "array",
                "items": {"type": "integer"},
                "description": "Each seat's score for the round.",
            },
            "facts": FACTS,
        },
        ("index", "scores"),
        description="A round the action finished.",
    )
    defs["view"] = object_schema(
        {
            "round": {"type": "integer", "description": "The round in progress (from 0)."},
            "phase": {"enum": ["select", "play", "choose", "over"]},
            "current_player": {"type": "integer", "description": "-1 when the game is over."},
            "leader": {"type": "integer"},
            "trick": ref("cards"),
            "hands": {"type": "array", "items": ref("cards")},
            "legal_actions": {"type": "array", "items": ref("action")},
            "tricks_played": {"type": "integer"},
            "totals": {"type": "array", "items": {"type": "integer"}},
            "terminal": {"type": "boolean"},
        },
        (
            "round",
            "phase",
            "current_player",
            "legal_actions",
            "totals",
            "terminal",
        ),
        description="The whole state as the oracle sees it: every hand, the trick so far, "
        "the current player and his legal actions.",
    )
    defs["observation"] = {
        "type": "object",
        "required": ["seat", "round", "phase", "hand"],
        "properties": {
            "seat": ref("seat"),
            "round": {"type": "integer"},
            "phase": {"type": "string"},
            "hand": ref("cards"),
            "trick": ref("cards"),
            "totals": {"type": "array", "items": {"type": "integer"}},
        },
        "description": "What one seat may see (its hand and the public cards); the "
        "ruleset adds its own public facts.",
    }
    defs["clause"] = {
        "type": "object",
        "required": ["id", "kind", "summary", "lines"],
        "properties": {
            "id": {"type": "string"},
            "kind": {"type": "string"},
            "summary": {"type": "string"},
            "source": {"type": "string"},
            "lines": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
            "question": {"type": "string"},
            "option": {"type": "string"},
            "default": {"type": ["string", "integer"]},
            "reason": {"type": "string"},
            "readings": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "description": "A rule clause (or a dispute, kind dispute) of a ruleset's registry.",
    }
    defs["trick_result"] = {
        **record["trick"],
        "required": ["round", "trick", *record["trick"]["required"]],
        "properties": {
            "round": {"type": "integer", "minimum": 0},
            "trick": {"type": "integer", "minimum": 0},
            **record["trick"]["properties"],
        },
    }
    defs["trick_explained"] = {
        **defs["trick_result"],
        "required": [*defs["trick_result"]["required"], "explanation"],
        "properties": {
            **defs["trick_result"]["properties"],
            "explanation": {"type": "array", "items": ref("clause")},
        },
    }
    return defs


def _prefixed(prefix: str, schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (with its ``$defs``) as definitions named ``prefix + name``, its root as
    ``prefix`` without the trailing underscore; its references rewritten to match."""

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                key: (
                    value.replace("#/$defs/", f"#/$defs/{prefix}")
                    if key == "$ref" and isinstance(value, str)
                    else rewrite(value)
                )
                for key, value in node.items()
            }
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        return node

    root = {k: v for k, v in schema.items() if k not in ("$defs", "$schema", "$id")}
    out = {prefix + name: rewrite(sub) for name, sub in schema.get("$defs", {}).items()}
    out[prefix.rstrip("_")] = rewrite(root)
    return out


@dataclass(frozen=True, slots=True)
class Method:
    """One method of the protocol: its parameters' and result's schemas, and its handler."""

    name: str
    summary: str
    params: dict[str, Any]
    result: dict[str, Any]
    handler: Callable[[Oracle, dict[str, Any]], Any]
