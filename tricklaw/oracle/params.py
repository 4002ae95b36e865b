"""A request's parameters checked and read: each method's JSON Schema (with fast checks
for the methods a game calls on every move), then the ruleset, game and action the
parameters name, looked up in the model."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.validators import extend

from tricklaw.model.actions import string_to_action
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game, State
from tricklaw.oracle.protocol import INVALID_PARAMS, OracleError
from tricklaw.oracle.schemas import Method, definitions
from tricklaw.spec.errors import OptionError, TricklawError


def _integer_is_int(_checker: Any, instance: Any) -> bool:
    """JSON integers only: ``3.0`` and ``true`` are not integers here."""
    return type(instance) is int


_Validator: Any = extend(  # type: ignore[no-untyped-call]  # jsonschema leaves it untyped
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _integer_is_int),
)


_VALIDATORS: dict[str, Any] = {}
"""Method name -> the validator of its parameters (made on first use)."""


def _validator(method: Method) -> Any:
    if method.name not in _VALIDATORS:
        _VALIDATORS[method.name] = _Validator({**method.params, "$defs": definitions()})
    return _VALIDATORS[method.name]


def _field(path: Any) -> str:
    where = "params"
    for key in path:
        where += f"[{key}]" if isinstance(key, int) else f".{key}"
    return where


def _game_id(value: Any) -> bool:
    return type(value) is str and 0 < len(value) <= 64


def _plain_game(params: dict[str, Any]) -> bool:
    return len(params) == 1 and _game_id(params.get("game"))


def _plain_apply(params: dict[str, Any]) -> bool:
    action, seat = params.get("action"), params.get("seat", 0)
    return (
        len(params) == 2 + ("seat" in params)
        and _game_id(params.get("game"))
        and type(action) is str
        and 0 < len(action) <= 32
        and type(seat) is int
        and 0 <= seat <= 15
    )


PLAINLY_VALID: dict[str, Callable[[dict[str, Any]], bool]] = {
    "apply": _plain_apply,
    "legal_actions": _plain_game,
    "state": _plain_game,
    "scores": _plain_game,
}
"""Fast checks for the methods a game calls on every move: a request they accept is one
the method's schema accepts (a test checks it); any other goes through the schema."""


def check_params(method: Method, params: Any) -> dict[str, Any]:
    """``params`` if the method's schema accepts them; else an ``INVALID_PARAMS`` error
    naming the first field at fault."""
    plain = PLAINLY_VALID.get(method.name)
    if plain is not None and type(params) is dict and plain(params):
        return params
    errors = sorted(
        _validator(method).iter_errors(params), key=lambda e: (len(e.path), list(map(str, e.path)))
    )
    if errors:
        err = errors[0]
        message = err.message if len(err.message) <= 200 else err.message[:197] + "..."
        field = _field(err.path)
        raise OracleError(INVALID_PARAMS, f"{field}: {message}", field=field)
    checked: dict[str, Any] = params
    return checked


def game_params(params: Mapping[str, Any]) -> Game:
    """The game that ``params`` set up: ``ruleset``, ``players`` and ``options``."""
    try:
        ruleset = get_ruleset(params["ruleset"])
    except OptionError as exc:
        raise OracleError(
            INVALID_PARAMS, f"params.ruleset: {exc}", field="params.ruleset"
        ) from None
    try:
        return ruleset.make_game(params["players"], params.get("options", {}))
    except OptionError as exc:
        field = (
            "params.players" if params["players"] not in ruleset.player_counts else "params.options"
        )
        raise OracleError(INVALID_PARAMS, f"{field}: {exc}", field=field) from None


def parse_action(state: State[Any], text: str) -> int:
    """The action ``params.action`` writes, in ``state``'s ruleset's notation."""
    try:
        return string_to_action(text, state.game.ruleset.palette)
    except TricklawError as exc:
        raise OracleError(INVALID_PARAMS, f"params.action: {exc}", field="params.action") from None
