"""The methods that ask the rules directly: ``explain`` (why an action is legal or
not, which clauses decided a trick, what a clause or dispute says) and ``judge`` (one
trick away from any game), each with its schemas."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tricklaw.judging import check_context, parse_trick
from tricklaw.model.record import result_json
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import State
from tricklaw.oracle.params import game_params, parse_action
from tricklaw.oracle.protocol import INVALID_PARAMS, OracleError
from tricklaw.oracle.results import trick_result
from tricklaw.oracle.schemas import GAME, Method, object_schema, ref
from tricklaw.spec import load_registry
from tricklaw.spec.errors import IllegalActionError, OptionError, TricklawError

if TYPE_CHECKING:
    from tricklaw.oracle.session import Oracle


def clause_json(ruleset_id: str, clause_id: str) -> dict[str, Any]:
    """A clause or dispute as ``explain`` answers it (and ``tricklaw explain --json``)."""
    registry = load_registry(ruleset_id)
    if clause_id in {d.id for d in registry.disputes}:
        dispute = registry.dispute(clause_id)
        return {
            "id": dispute.id,
            "kind": "dispute",
            "summary": dispute.title,
            "question": dispute.question,
            "option": dispute.option,
            "default": dispute.default,
            "reason": dispute.reason,
            "readings": {r.value: r.summary for r in dispute.readings},
            "lines": list(dispute.lines),
        }
    clause = registry.clause(clause_id)
    return {
        "id": clause.id,
        "kind": clause.kind,
        "summary": clause.summary,
        "source": clause.source or registry.source.file,
        "lines": list(clause.lines),
    }


def _explain(oracle: Oracle, params: dict[str, Any]) -> Any:
    given = [key for key in ("action", "trick", "clause") if key in params]
    if len(given) != 1:
        raise OracleError(
            INVALID_PARAMS,
            "params: give exactly one of action, trick, clause",
            field="params",
        )
    if "game" in params:
        state = oracle.game(params).state
        ruleset_id = state.game.ruleset.id
    elif "ruleset" in params:
        state = None
        ruleset_id = params["ruleset"]
        try:
            get_ruleset(ruleset_id)
        except OptionError as exc:
            raise OracleError(
                INVALID_PARAMS, f"params.ruleset: {exc}", field="params.ruleset"
            ) from None
    else:
        raise OracleError(INVALID_PARAMS, "params: give game or ruleset", field="params.game")
    if given == ["clause"]:
        try:
            return clause_json(ruleset_id, params["clause"])
        except TricklawError as exc:
            raise OracleError(
                INVALID_PARAMS, f"params.clause: {exc}", field="params.clause"
            ) from None
    if state is None:
        raise OracleError(
            INVALID_PARAMS,
            f"params.{given[0]}: explaining it needs params.game",
            field="params.game",
        )
    if given == ["trick"]:
        trick = trick_result(oracle, {"game": params["game"], **params["trick"]})
        return {
            **trick,
            "explanation": [clause_json(ruleset_id, cid) for cid in trick["clauses"]],
        }
    return _explain_action(state, params["action"])


def _explain_action(state: State[Any], text: str) -> dict[str, Any]:
    ruleset = state.game.ruleset
    action = parse_action(state, text)
    legal = state.legal_actions()
    if action in legal:
        # The clause that would forbid the action is the one that allows it here.
        clause = ruleset.forbidding_clause(state, action)
        return {"legal": True, "clauses": [clause_json(ruleset.id, clause)]}
    try:
        state.child(action)
    except IllegalActionError as exc:
        return {
            "legal": False,
            "reason": str(exc),
            "clauses": [clause_json(ruleset.id, exc.clause)],
            "legal_actions": [state.action_to_string(a) for a in legal],
        }
    raise AssertionError("an action outside legal_actions was applied")  # pragma: no cover


def _judge(oracle: Oracle, params: dict[str, Any]) -> Any:
    game = game_params(params)
    ruleset = game.ruleset
    try:
        cards = parse_trick(game, params["cards"])
    except TricklawError as exc:
        raise OracleError(INVALID_PARAMS, f"params.cards: {exc}", field="params.cards") from None
    try:
        context = check_context(game, params.get("context", {}))
        result = ruleset.judge_trick(game, cards, context)
    except TricklawError as exc:
        raise OracleError(
            INVALID_PARAMS, f"params.context: {exc}", field="params.context"
        ) from None
    return {"cards": ruleset.palette.format_all(cards), **result_json(result, ruleset.palette)}


EXPLAIN = Method(
    "explain",
    "Why an action is legal or not, which clauses decided a trick, or what a "
    "clause or dispute says (its paraphrase, source lines, readings).",
    object_schema(
        {
            **GAME,
            "ruleset": {"type": "string", "maxLength": 64},
            "action": ref("action"),
            "trick": object_schema(
                {
                    "round": {"type": "integer", "minimum": 0},
                    "trick": {"type": "integer", "minimum": 0},
                }
            ),
            "clause": {"type": "string", "maxLength": 64},
        }
    ),
    {
        "anyOf": [
            ref("clause"),
            {
                "type": "object",
                "required": ["legal", "clauses"],
                "properties": {
                    "legal": {"type": "boolean"},
                    "reason": {"type": "string"},
                    "clauses": {"type": "array", "items": ref("clause")},
                    "legal_actions": {"type": "array", "items": ref("action")},
                },
            },
            ref("trick_explained"),
        ]
    },
    _explain,
)

JUDGE = Method(
    "judge",
    "Judge one complete trick away from any game (seats as offsets from the "
    "leader); context as the trick command's --context (Hund: powers, designation).",
    object_schema(
        {
            "ruleset": {"type": "string", "maxLength": 64},
            "players": {"type": "integer", "minimum": 1, "maximum": 16},
            "options": ref("options"),
            "cards": {"type": "array", "items": ref("card"), "maxItems": 16},
            "context": {
                "type": "object",
                "additionalProperties": {"type": "string", "maxLength": 256},
            },
        },
        ("ruleset", "players", "cards"),
    ),
    {
        "type": "object",
        "required": ["cards", "winner", "taken", "aside", "clauses"],
        "properties": {
            "cards": ref("cards"),
            "winner": {"type": ["integer", "null"], "description": "Offset from the leader."},
            "taken": {"type": "object", "additionalProperties": ref("cards")},
            "aside": ref("cards"),
            "facts": {"type": "object", "additionalProperties": {"type": "string"}},
            "clauses": {"type": "array", "items": {"type": "string"}},
        },
    },
    _judge,
)
