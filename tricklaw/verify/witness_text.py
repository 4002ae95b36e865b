"""A row's witness for a person at a terminal: the summary's ``witness:`` lines.

A witness is whatever JSON object an obligation left to show why it holds or fails (a
game's seed and the values it reached, a liveness machine's state, a trick). The JSON
report keeps it whole; the summary says it in lines a reader can scan:

* one ``key: value`` line per field, a field of few scalars on one line
  (``state: phase=play, trick=2``), a longer object or list indented beneath its key;
* the game's options only where they differ from the ruleset's defaults (a Hund tie
  witness once listed all thirteen of its options; issue 46);
* at most :data:`MAX_LINES` lines, then how many more the JSON report holds.

The fields are the obligation's own; nothing here knows an obligation or a game by name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tricklaw.model.rulesets import RULESETS

MAX_LINES = 12
"""Lines of a witness shown in the summary before the rest is left to the JSON report."""

INLINE = 60
"""A field whose whole ``k=v`` form fits in this many characters is said on one line."""

HIDDEN = ("traceback",)
"""Fields kept for the JSON report only (a traceback is shown by the failure itself)."""


def _scalar(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _inline(value: Any) -> str | None:
    """``value`` on one short line, or None when it does not fit."""
    if isinstance(value, Mapping):
        if any(isinstance(v, Mapping | list) for v in value.values()):
            return None
        text = ", ".join(f"{k}={_scalar(v)}" for k, v in value.items()) or "(none)"
    elif isinstance(value, list):
        if any(isinstance(v, Mapping | list) for v in value):
            text = json.dumps(value, separators=(", ", ": "))
        else:
            text = "[" + ", ".join(_scalar(v) for v in value) + "]"
    else:
        return _scalar(value)
    return text if len(text) <= INLINE else None


def _field(key: str, value: Any, depth: int) -> list[str]:
    pad = "  " * depth
    short = _inline(value)
    if short is not None:
        return [f"{pad}{key}: {short}"]
    lines = [f"{pad}{key}:"]
    if isinstance(value, Mapping):
        for k, v in value.items():
            lines += _field(str(k), v, depth + 1)
    else:
        for i, item in enumerate(value):
            lines += _field(f"[{i}]", item, depth + 1)
    return lines


def options_text(options: Mapping[str, Any], ruleset_id: str) -> str:
    """The options that differ from ``ruleset_id``'s defaults, as ``name=value``; all of
    them when the ruleset is not registered (its defaults are unknown)."""
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None:
        return ", ".join(f"{k}={_scalar(v)}" for k, v in options.items()) or "(none)"
    defaults = {spec.name: spec.default for spec in ruleset.option_specs}
    changed = {k: v for k, v in options.items() if k not in defaults or defaults[k] != v}
    if not changed:
        return "the defaults"
    said = ", ".join(f"{k}={_scalar(v)}" for k, v in changed.items())
    return f"{said} (the others at their defaults)"


def witness_lines(witness: Mapping[str, Any], ruleset_id: str) -> list[str]:
    """``witness`` as the summary's lines, unindented and unwrapped (the caller indents
    and wraps them); none for an empty witness."""
    shown = {k: v for k, v in witness.items() if k not in HIDDEN}
    if not shown:
        return []
    lines = ["witness:"]
    for key in sorted(shown):
        value = shown[key]
        if key == "options" and isinstance(value, Mapping):
            lines.append(f"  options: {options_text(value, ruleset_id)}")
        else:
            lines += _field(key, value, 1)
    if len(lines) > MAX_LINES + 1:
        more = len(lines) - MAX_LINES
        lines = [*lines[:MAX_LINES], f"  ... {more} more lines in the --json report"]
    return lines
