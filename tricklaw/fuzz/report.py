"""The case files (``format`` ``tricklaw-fuzz-case``): a disagreement written as JSON
with its set-up, deals, steps, actions and the reference record, and read back."""

from __future__ import annotations

from typing import Any

from tricklaw.check.reading import CASE_FORMAT
from tricklaw.fuzz.cases import Case, Outcome
from tricklaw.fuzz.games import illegal_candidates
from tricklaw.model.record import deal_json, parse_deal, to_record
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.schemas import first_problem
from tricklaw.model.state import Deal
from tricklaw.spec.errors import TricklawError


def case_json(outcome: Outcome, engine: str) -> dict[str, Any]:
    """The report of a disagreement (``tricklaw-fuzz-case``)."""
    case = outcome.case
    game = case.game()
    assert outcome.disagreement is not None
    state = game.new_state_from_deals(case.deals, case.seed)
    played: list[dict[str, Any]] = []
    for choice, probe in case.steps[: outcome.disagreement.step + 1]:
        legal = state.legal_actions()
        if not legal:
            break
        entry: dict[str, Any] = {"seat": state.current_player()}
        if probe is not None and (candidates := illegal_candidates(state, legal)):
            entry["illegal_tried"] = state.action_to_string(candidates[probe % len(candidates)])
        action = legal[choice % len(legal)]
        entry["action"] = state.action_to_string(action)
        played.append(entry)
        state = state.child(action)
    palette = game.ruleset.palette
    return {
        "format": CASE_FORMAT,
        "version": 1,
        "engine": engine,
        "ruleset": case.ruleset,
        "players": case.players,
        "options": case.options,
        **({"readings": dict(case.readings)} if case.readings else {}),
        "seed": case.seed,
        "deals": [deal_json(d, palette) for d in case.deals],
        "steps": [[c, p] for c, p in case.steps],
        "actions": played,
        "disagreement": outcome.disagreement.as_json(),
        "record": to_record(state, case.seed),
    }


def case_from_json(data: Any, where: str) -> Case:
    """The case a report holds; raises TricklawError naming the bad field."""
    if not isinstance(data, dict) or data.get("format") != CASE_FORMAT:
        raise TricklawError(f"{where}: not a {CASE_FORMAT} file")
    try:
        ruleset = get_ruleset(data["ruleset"])
        game = ruleset.make_game(data["players"], data["options"])
        readings = data.get("readings", {})
        if not isinstance(readings, dict):
            raise TypeError("readings")
        ruleset.make_game(data["players"], {**data["options"], **readings})
        deals = tuple(
            _deal(raw, ruleset, f"{where}: deals[{i}]") for i, raw in enumerate(data["deals"])
        )
        ruleset.check_deals(game, deals)
        steps = tuple((int(c), None if p is None else int(p)) for c, p in data["steps"])
        seed = data["seed"]
        if type(seed) is not int:
            raise TypeError("seed")
    except (KeyError, TypeError, ValueError) as exc:
        raise TricklawError(f"{where}: missing or malformed field {exc}") from None
    return Case(
        ruleset.id,
        game.players,
        game.options.as_dict(),
        seed,
        deals,
        steps,
        readings=tuple(readings.items()),
    )


def _deal(raw: Any, ruleset: Ruleset[Any], where: str) -> Deal:
    """A case's deal, as a record's deal must be (the record schema's ``deal``), then
    parsed; raises TricklawError naming the field."""
    problem = first_problem("record", "deal", raw)
    if problem is not None:
        path, message = problem
        raise TricklawError(f"{where}{'.' + path if path else ''}: {message}")
    return parse_deal(raw, ruleset.palette, where)
