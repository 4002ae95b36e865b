"""What an engine declares it implements, read and validated: shared by ``tricklaw fuzz``
(from the engine's ``hello`` answer, field ``implements``) and ``tricklaw check``
(``--declare FILE``).

The declaration, as JSON::

    {"rulesets": {
        "sticheln": {
            "players": [3, 4, 5],
            "options": {"rounds": [1], "target": [1, 2, 3]},
            "disputes": {
                "STI-D-GAMETIE": "first-seat",
                "STI-D-ZEROLEAD": {"reading": "own", "rule": "a zero led leads no colour"}
            }
        }
    }}

* ``rulesets``: the ruleset ids the engine plays (others are never asked of it);
* ``players``: the player counts it plays (default: all the ruleset's);
* ``options``: for an option, the values it supports (a list; default: any value);
* ``disputes``: for a dispute (by id), the reading it follows, a value of the dispute's
  option, or ``{"reading": "own", "rule": TEXT}``: a rule of its own, stated in words.
  A followed reading fixes the option; under ``own`` the option keeps its declared values
  and a divergence that the dispute decides (an *established* citation,
  :mod:`~tricklaw.model.replay.citation`) is a declared *departure*, not a failure, only
  when some reading of the dispute gives the engine's answer: the rule is words, which
  the checker cannot run (:mod:`~tricklaw.model.replay.departure` judges departures and
  checks the rest of the game under the reading matched).

:func:`parse_declaration` raises :class:`~tricklaw.spec.errors.TricklawError` with one
line naming the bad field (exit status 2 on the command line).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricklaw.model.options import OptionSpec, OptionValue
from tricklaw.model.replay.verdict import UnreadableError
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.spec import json_text, load_registry
from tricklaw.spec.errors import TricklawError

OWN = "own"
"""The reading of a dispute that an engine settles by a rule of its own."""


@dataclass(frozen=True, slots=True)
class RulesetDeclaration:
    """What an engine plays of one ruleset."""

    ruleset: str
    players: tuple[int, ...]
    options: tuple[tuple[str, tuple[OptionValue, ...]], ...]
    """Each option with the values the engine supports (only those it restricts)."""
    readings: tuple[tuple[str, str], ...]
    """``(option, reading)`` fixed by a followed dispute reading."""
    own: tuple[tuple[str, str], ...]
    """``(dispute id, rule text)`` of each dispute settled by the engine's own rule."""

    def values(self, option: str) -> tuple[OptionValue, ...] | None:
        """The values allowed for ``option``, or None for any."""
        fixed = dict(self.readings)
        if option in fixed:
            return (fixed[option],)
        return dict(self.options).get(option)

    def allows(self, players: int, options: Mapping[str, OptionValue]) -> str | None:
        """Why a game of ``players`` and ``options`` is outside the declaration, or None."""
        if players not in self.players:
            return f"{self.ruleset} with {players} players"
        specs = {spec.name: spec for spec in get_ruleset(self.ruleset).option_specs}
        for name, value in options.items():
            allowed = self.values(name)
            if allowed is not None and _typed(specs.get(name), value) not in allowed:
                return f"{self.ruleset} with {name}={value}"
        return None


def _typed(spec: OptionSpec | None, value: OptionValue) -> OptionValue:
    """``value`` as the option's own type (the command line's ``"0"`` is the integer
    option's 0, as a declaration's values are: one declaration serves ``fuzz -o`` and
    ``check --declare``); as given when it is not a value of the option."""
    if spec is None:
        return value
    try:
        return spec.coerce(value, "")
    except TricklawError:
        return value


@dataclass(frozen=True, slots=True)
class Declaration:
    """An engine's declaration: the rulesets it plays, each as a
    :class:`RulesetDeclaration`."""

    rulesets: tuple[RulesetDeclaration, ...]

    def of(self, ruleset: str) -> RulesetDeclaration | None:
        """The declaration of ``ruleset``, or None when the engine does not play it."""
        return next((r for r in self.rulesets if r.ruleset == ruleset), None)

    def own_rule(self, ruleset: str, dispute: str) -> str | None:
        """The engine's own rule for ``dispute`` of ``ruleset``, or None."""
        declared = self.of(ruleset)
        return None if declared is None else dict(declared.own).get(dispute)


def everything() -> Declaration:
    """The declaration of an engine that says nothing: every ruleset, count and option."""
    return Declaration(
        tuple(RulesetDeclaration(r, get_ruleset(r).player_counts, (), (), ()) for r in RULESETS)
    )


def parse_declaration(raw: Any, where: str) -> Declaration:
    """The declaration ``raw`` (parsed JSON) read; raises TricklawError naming the bad
    field as ``where.rulesets.ID.FIELD``."""
    if not isinstance(raw, dict) or set(raw) - {"rulesets"} or "rulesets" not in raw:
        raise TricklawError(f'{where}: a declaration is an object {{"rulesets": {{...}}}}')
    rulesets = raw["rulesets"]
    if not isinstance(rulesets, dict) or not rulesets:
        raise TricklawError(f"{where}.rulesets: expected an object naming at least one ruleset")
    return Declaration(
        tuple(_ruleset(rid, body, f"{where}.rulesets.{rid}") for rid, body in rulesets.items())
    )


def _ruleset(rid: str, body: Any, where: str) -> RulesetDeclaration:
    if rid not in RULESETS:
        raise TricklawError(f"{where}: unknown ruleset (known: {', '.join(RULESETS)})")
    ruleset = get_ruleset(rid)
    if not isinstance(body, dict):
        raise TricklawError(f"{where}: expected an object")
    extra = set(body) - {"players", "options", "disputes"}
    if extra:
        raise TricklawError(f"{where}.{sorted(extra)[0]}: unknown field")
    players = body.get("players", list(ruleset.player_counts))
    if not isinstance(players, list) or not players:
        raise TricklawError(f"{where}.players: expected a non-empty list of player counts")
    for n in players:
        if type(n) is not int or n not in ruleset.player_counts:
            raise TricklawError(
                f"{where}.players: {n!r} is not a player count of {rid} "
                f"({', '.join(map(str, ruleset.player_counts))})"
            )
    specs = {s.name: s for s in ruleset.option_specs}
    options: list[tuple[str, tuple[OptionValue, ...]]] = []
    raw_options = body.get("options", {})
    if not isinstance(raw_options, dict):
        raise TricklawError(f"{where}.options: expected an object")
    for name, values in raw_options.items():
        at = f"{where}.options.{name}"
        if name not in specs:
            raise TricklawError(f"{at}: unknown option (known: {', '.join(specs) or 'none'})")
        if not isinstance(values, list) or not values:
            raise TricklawError(f"{at}: expected a non-empty list of values")
        typed: list[OptionValue] = []
        for value in values:
            wrong = f"{at}: {value!r} is not a value of {name}"
            if specs[name].is_integer and isinstance(value, (bool, float)):  # not 1.5, true
                raise TricklawError(wrong)
            try:
                ruleset.make_game(ruleset.player_counts[0], {name: value})
            except TricklawError:
                raise TricklawError(wrong) from None
            typed.append(specs[name].coerce(value, rid))  # "0" and 0 are one value
        options.append((name, tuple(typed)))
    readings, own = _disputes(rid, body.get("disputes", {}), where, dict(options))
    return RulesetDeclaration(rid, tuple(players), tuple(options), readings, own)


def _disputes(
    rid: str, raw: Any, where: str, options: Mapping[str, tuple[OptionValue, ...]]
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    if not isinstance(raw, dict):
        raise TricklawError(f"{where}.disputes: expected an object")
    known = {d.id: d for d in load_registry(rid).disputes}
    option_of = {s.dispute: s for s in get_ruleset(rid).option_specs if s.dispute}
    readings: list[tuple[str, str]] = []
    own: list[tuple[str, str]] = []
    for dispute, value in raw.items():
        at = f"{where}.disputes.{dispute}"
        if dispute not in known:
            raise TricklawError(f"{at}: unknown dispute (known: {', '.join(known) or 'none'})")
        if isinstance(value, dict):
            if value.get("reading") != OWN or set(value) != {"reading", "rule"}:
                raise TricklawError(
                    f'{at}: expected a reading or {{"reading": "own", "rule": ...}}'
                )
            rule = value["rule"]
            if not isinstance(rule, str) or not rule.strip():
                raise TricklawError(f"{at}.rule: state the engine's own rule in words")
            own.append((dispute, rule))
            continue
        spec = option_of.get(dispute)
        if spec is None:
            raise TricklawError(
                f"{at}: no option selects a reading of this dispute; declare "
                '{"reading": "own", "rule": ...} or leave it out'
            )
        if value not in spec.choices:
            raise TricklawError(
                f"{at}: {value!r} is not a reading (readings: {', '.join(spec.choices)}, or own)"
            )
        if spec.name in options and value not in options[spec.name]:
            raise TricklawError(f"{at}: reading {value!r} is not among options.{spec.name}")
        readings.append((spec.name, value))
    return tuple(readings), tuple(own)


def declaration_schema() -> dict[str, Any]:
    """The JSON Schema of a declaration (the ``implements`` field of ``hello``)."""
    reading = {
        "oneOf": [
            {"type": "string", "description": "a reading: a value of the dispute's option"},
            {
                "type": "object",
                "properties": {"reading": {"const": OWN}, "rule": {"type": "string"}},
                "required": ["reading", "rule"],
                "additionalProperties": False,
                "description": "a rule of the engine's own, stated in words",
            },
        ]
    }
    ruleset = {
        "type": "object",
        "properties": {
            "players": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
            "options": {
                "type": "object",
                "additionalProperties": {
                    "type": "array",
                    "items": {"type": ["string", "integer"]},
                    "minItems": 1,
                },
            },
            "disputes": {"type": "object", "additionalProperties": reading},
        },
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"rulesets": {"type": "object", "additionalProperties": ruleset}},
        "required": ["rulesets"],
        "additionalProperties": False,
        "description": "What an engine implements: rulesets, player counts, option values "
        "and per dispute the reading it follows or its own rule.",
    }


def read_declaration(path: str, where: str) -> Declaration:
    """The declaration in the JSON file ``path``; TricklawError (``where: ...``) when it
    cannot be read or is not valid."""
    try:
        raw = json_text.loads(json_text.read_text(path))
    except json_text.JsonTextError as exc:
        raise TricklawError(f"{where}: {path}: {exc}") from None
    return parse_declaration(raw, f"{where} {path}")


def declared_options(
    declaration: Declaration | None, ruleset: str, players: int, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The options of a checked game (a log's header, a record): ``options`` with the
    declared readings filled in. Raises UnreadableError naming the field when the game is
    outside the declaration or sets an option against a declared reading."""
    if declaration is None:
        return dict(options)
    declared = declaration.of(ruleset)
    if declared is None:
        raise UnreadableError(f"ruleset: the declaration does not include {ruleset}")
    merged = dict(options)
    for name, reading in declared.readings:
        if name in merged and merged[name] != reading:
            raise UnreadableError(
                f"options.{name}: the game plays {merged[name]!r}, the declaration follows "
                f"the reading {reading!r}"
            )
        merged[name] = reading
    outside = declared.allows(players, merged) if type(players) is int else None
    if outside is not None:
        raise UnreadableError(f"the game is outside the declaration: {outside}")
    return merged
