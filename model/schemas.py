"""The published JSON Schemas (``spec/*.schema.json``) and the first problem they find.

Records (``spec/record.schema.json``) and JSON Lines logs (``spec/log.schema.json``) are
validated by their schemas: first by ``jsonschema_rs`` (a compiled validator, about a
hundred times faster: it made reading a record 25 times slower than checking the same game
as a log), and, only when it finds the instance invalid (or cannot read it), by the
``jsonschema`` library, whose errors give the message (and alone where ``jsonschema_rs``
is not installed: in Pyodide, on the players' page). ``jsonschema`` is the reference: the
fuzz tests (tests/test_reader_fuzz.py) check that the two agree. Whatever breaks a schema is
reported as one line, the field's path and the validator's message::

    rounds[1].actions[4].seat: 'one' is not of type 'integer'

The path is written as in Python or JavaScript (``deal.hands[0][2]``), relative to the
object validated; "the first problem" is the first in the document's own order (its
keys in the order written, list items by index), so that a report names the earliest
field a reader would trip on.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any


def _compiled_validators() -> Any:
    """The ``jsonschema_rs`` module, or None where it is not installed: it is not built
    for every platform, and the players' page runs the model in Pyodide."""
    try:
        return importlib.import_module("jsonschema_rs")
    except ImportError:  # pragma: no cover - the page's case (tests/test_page_browser.py)
        return None


jsonschema_rs: Any = _compiled_validators()

if TYPE_CHECKING:  # imported when first used: a log whose lines are well formed never uses it
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

SHOWN = 60
"""The longest instance a message quotes in full (longer ones are cut with ``...``)."""


@cache
def schema(name: str) -> dict[str, Any]:
    """The schema ``spec/NAME.schema.json`` (``record``, ``log``, ``vectors``)."""
    text = resources.files("tricklaw.spec").joinpath(f"{name}.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _schema_of(name: str, definition: str | None) -> dict[str, Any]:
    """The schema ``name``, or one that validates its definition ``definition`` alone."""
    root = schema(name)
    if definition is None:
        return root
    if definition not in root.get("$defs", {}):
        raise KeyError(f"{name}.schema.json has no definition {definition!r}")
    return {"$schema": root["$schema"], "$defs": root["$defs"], "$ref": f"#/$defs/{definition}"}


@cache
def _validator(name: str, definition: str | None) -> Draft202012Validator:
    """The reference validator (``jsonschema``), whose errors give the messages."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_schema_of(name, definition))


@cache
def _fast(name: str, definition: str | None) -> Any:
    """The compiled validator (``jsonschema_rs``) of the same schema."""
    return jsonschema_rs.validator_for(_schema_of(name, definition))


def fast_valid(name: str, definition: str | None, instance: Any) -> bool:
    """Whether the compiled validator finds ``instance`` valid; False also when it cannot
    read it (a lone surrogate, an integer beyond 64 bits) or is not installed (in Pyodide,
    on the players' page): the reference then decides."""
    if jsonschema_rs is None:
        return False
    try:
        return bool(_fast(name, definition).is_valid(instance))
    except (ValueError, OverflowError, UnicodeError, RecursionError):
        return False


def field_path(path: Iterable[str | int]) -> str:
    """``["rounds", 1, "seat"]`` as ``rounds[1].seat`` (empty for the object itself)."""
    out = ""
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        else:
            out += f".{key}" if out else key
    return out


def first_problem(name: str, definition: str | None, instance: Any) -> tuple[str, str] | None:
    """``(field path, message)`` of the first error that the schema ``name`` (``record``,
    ``log``), or its definition ``definition`` (``first_problem("log", "action", line)``
    validates one action line), finds in ``instance``; None when it is valid. Of the
    errors an alternative (``oneOf``) gives, the most telling is shown (``16 is greater
    than the maximum of 15`` rather than ``16 is not valid under any of the given
    schemas``)."""
    from jsonschema.exceptions import best_match

    if fast_valid(name, definition, instance):
        return None
    errors = list(_validator(name, definition).iter_errors(instance))
    if not errors:
        return None
    error = min(errors, key=lambda e: _position(instance, e.absolute_path))
    return field_path(error.absolute_path), _message(best_match([error]))


def problem_text(problem: tuple[str, str]) -> str:
    """A problem as one line: ``path: message``, or the message alone for the object itself."""
    path, message = problem
    return f"{path}: {message}" if path else message


def integral(value: Any) -> Any:
    """``value`` with each whole number written with a fraction (``2.0``) as an int: to
    JSON Schema it is an integer, and the model counts seats and scores in ints."""
    kind = type(value)
    if kind is float and value.is_integer():
        return int(value)
    if kind is list:
        return [integral(v) for v in value]
    if kind is dict:
        return {k: integral(v) for k, v in value.items()}
    return value


def _position(instance: Any, path: Iterable[str | int]) -> tuple[int, ...]:
    """Where ``path`` lies in ``instance``, in the order of the document: each key's place
    among its object's keys, each item's index."""
    out: list[int] = []
    node = instance
    for key in path:
        if isinstance(node, dict):
            keys = list(node)
            out.append(keys.index(key) if key in node else len(keys))
            node = node.get(key)
        elif isinstance(node, list) and isinstance(key, int):
            out.append(key)
            node = node[key] if key < len(node) else None
        else:
            break
    return tuple(out)


def _message(error: ValidationError) -> str:
    """The validator's message, a long quoted instance cut short, on one line."""
    message = error.message
    shown = repr(error.instance)
    if len(shown) > SHOWN and message.startswith(shown):
        message = shown[: SHOWN - 3] + "..." + message[len(shown) :]
    return " ".join(message.split())
