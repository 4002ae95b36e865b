"""Every method of the protocol, in the order ``hello`` lists them (:data:`METHODS`),
and the two that describe the oracle itself: ``hello`` and ``rulesets``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tricklaw import __version__
from tricklaw.model.replay.declaration import declaration_schema
from tricklaw.model.rulesets import RULESETS as RULESET_REGISTRY
from tricklaw.oracle.play import APPLY, CLOSE, LEGAL_ACTIONS, NEW_GAME, STATE
from tricklaw.oracle.protocol import PROTOCOL, VERSION
from tricklaw.oracle.results import RECORD, SCORES, TRICK_RESULT
from tricklaw.oracle.rules import EXPLAIN, JUDGE
from tricklaw.oracle.schemas import Method, object_schema, ref

if TYPE_CHECKING:
    from tricklaw.oracle.session import Oracle


def _hello(oracle: Oracle, params: dict[str, Any]) -> Any:
    return {
        "protocol": PROTOCOL,
        "version": VERSION,
        "tricklaw": __version__,
        "methods": list(METHODS),
    }


def _rulesets(oracle: Oracle, params: dict[str, Any]) -> Any:
    return [
        {
            "id": r.id,
            "title": r.title,
            "players": list(r.player_counts),
            "options": {s.name: s.default for s in r.option_specs},
            "trick_context": [name for name, _ in r.trick_context],
        }
        for r in RULESET_REGISTRY.values()
    ]


HELLO = Method(
    "hello",
    "The protocol's name and version, tricklaw's version and the methods. An engine "
    "under test (``tricklaw fuzz``) adds ``implements``: what it declares it implements.",
    object_schema({}),
    object_schema(
        {
            "protocol": {"const": PROTOCOL},
            "version": {"const": VERSION},
            "tricklaw": {"type": "string"},
            "methods": {"type": "array", "items": {"type": "string"}},
            "implements": declaration_schema(),
        },
        ("protocol", "version", "methods"),
    ),
    _hello,
)

RULESETS = Method(
    "rulesets",
    "Every ruleset: its id, player counts, options with defaults, trick context.",
    object_schema({}),
    {
        "type": "array",
        "items": object_schema(
            {
                "id": {"type": "string"},
                "title": {"type": "string"},
                "players": {"type": "array", "items": {"type": "integer"}},
                "options": ref("options"),
                "trick_context": {"type": "array", "items": {"type": "string"}},
            },
            ("id", "title", "players", "options", "trick_context"),
        ),
    },
    _rulesets,
)


METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        HELLO,
        RULESETS,
        NEW_GAME,
        STATE,
        LEGAL_ACTIONS,
        APPLY,
        TRICK_RESULT,
        SCORES,
        RECORD,
        EXPLAIN,
        JUDGE,
        CLOSE,
    )
}
"""Every method of the protocol by name, in the order ``hello`` lists them."""
