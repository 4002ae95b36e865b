"""The versioned JSON game record: write one from a state, read one back by replaying it.

The format (``spec/record.schema.json``, ``"format": "tricklaw-record"``,
``"version": 1``) holds the ruleset, player count, every option, the seed,
and per round: the deal, every action in notation with its seat, every
trick's result (seats absolute, ``winner`` null for no winner), the
ruleset's facts (Sticheln: the picked cards) and the round scores; then the
totals and the winners. A record of an unfinished game has
``"complete": false`` and its last round lacks ``scores``.

Reading a record validates it against the schema, then replays every
action through the model and checks each recorded trick result and score:
the first disagreement raises :class:`~tricklaw.spec.errors.RecordError` naming
the round, the trick or action, and the clause.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from tricklaw.model.actions import action_to_string, string_to_action
from tricklaw.model.cards import Card, Palette
from tricklaw.model.state import Deal, Game, RoundLog, State, seat_after
from tricklaw.model.trick import TrickResult
from tricklaw.spec.errors import RecordError, TricklawError

FORMAT = "tricklaw-record"
VERSION = 1


# --- writing -------------------------------------------------------------------------------


def deal_json(deal: Deal, palette: Palette) -> dict[str, Any]:
    out: dict[str, Any] = {
        "hands": [palette.format_all(h) for h in deal.hands],
        "piles": {name: palette.format_all(cards) for name, cards in deal.piles},
    }
    if deal.first_leader is not None:
        out["first_leader"] = deal.first_leader
    if deal.extras:
        out["extras"] = dict(deal.extras)
    return out


def result_json(result: TrickResult, palette: Palette) -> dict[str, Any]:
    """A trick result on its own, seats as offsets from the leader (0 = the leader)."""
    return {
        "winner": result.winner,
        "taken": {str(offset): palette.format_all(cards) for offset, cards in result.taken},
        "aside": palette.format_all(result.aside),
        "facts": dict(result.facts),
        "clauses": list(result.clauses),
    }


def trick_json(
    leader: int, result: TrickResult, seating: tuple[int, ...], palette: Palette
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "leader": leader,
        "cards": palette.format_all(result.cards),
        "winner": None if result.winner is None else seat_after(seating, leader, result.winner),
        "taken": {
            str(seat_after(seating, leader, offset)): palette.format_all(cards)
            for offset, cards in result.taken
        },
        "aside": palette.format_all(result.aside),
        "clauses": list(result.clauses),
    }
    if result.facts:
        out["facts"] = dict(result.facts)
    return out


def log_json(game: Game, log: RoundLog, finished: bool = True) -> dict[str, Any]:
    palette = game.ruleset.palette
    out: dict[str, Any] = {
        "index": log.index,
        "dealer": log.dealer,
        "first_leader": log.first_leader,
        "seating": list(log.seating),
        "deal": deal_json(log.deal, palette),
        "actions": [{"seat": s, "action": action_to_string(a, palette)} for s, a in log.actions],
        "tricks": [trick_json(ld, r, log.seating, palette) for ld, r in log.tricks],
    }
    if finished:
        out["facts"] = dict(log.facts)
        out["scores"] = list(log.scores)
    return out


def to_record(state: State[Any], seed: int | None = None) -> dict[str, Any]:
    """The JSON record (a dict) of the game up to ``state``."""
    game = state.game
    rounds = [log_json(game, log) for log in state.history]
    complete = state.is_terminal()
    if not complete:
        info = state.info
        in_progress = RoundLog(
            info.index,
            info.dealer,
            state.first_leader,
            info.seating,
            info.deal,
            state.actions,
            state.tricks,
            facts=(),
            scores=(),
        )
        rounds.append(log_json(game, in_progress, finished=False))
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": game.ruleset.id,
        "players": game.players,
        "options": game.options.as_dict(),
        "seed": state.info.source.seed if seed is None else seed,
        "rounds": rounds,
        "totals": list(state.returns()),
        "complete": complete,
    }
    if complete:
        record["winners"] = list(game.ruleset.winners(game, state.returns()))
    return record


def dumps_state(state: State[Any]) -> str:
    """``state`` as compact JSON record text."""
    return json.dumps(to_record(state), separators=(",", ":"))


# --- reading -------------------------------------------------------------------------------


@cache
def record_schema() -> dict[str, Any]:
    """The JSON Schema of the record (``spec/record.schema.json``)."""
    text = resources.files("tricklaw.spec").joinpath("record.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def validate_record(record: Any) -> None:
    """Raise RecordError naming the first field that breaks the schema."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(record_schema())
    errors = sorted(validator.iter_errors(record), key=lambda e: list(map(str, e.path)))
    if errors:
        err = errors[0]
        where = "/".join(map(str, err.path)) or "(top level)"
        raise RecordError(f"record field {where}: {err.message}")


def parse_deal(raw: dict[str, Any], palette: Palette, where: str) -> Deal:
    try:
        hands = tuple(tuple(palette.parse_all(h)) for h in raw["hands"])
        piles = tuple((k, tuple(palette.parse_all(v))) for k, v in raw.get("piles", {}).items())
    except TricklawError as exc:
        raise RecordError(f"{where}: {exc}") from None
    first = raw.get("first_leader")
    extras = tuple((k, v) for k, v in raw.get("extras", {}).items())
    return Deal(hands, piles, first if isinstance(first, int) else None, extras)


def _cards(texts: list[str], palette: Palette) -> tuple[Card, ...]:
    return tuple(palette.parse_all(texts))


def _check_trick(
    recorded: dict[str, Any],
    *,
    leader: int,
    result: TrickResult,
    seating: tuple[int, ...],
    where: str,
    palette: Palette,
) -> None:
    expected = trick_json(leader, result, seating, palette)
    for key in ("leader", "cards", "winner", "taken", "aside"):
        if key in recorded and recorded[key] != expected[key]:
            raise RecordError(
                f"{where}: the record says {key} = {json.dumps(recorded[key])}, "
                f"the rules give {json.dumps(expected[key])} "
                f"[{', '.join(result.clauses)}]"
            )


def replay(record: dict[str, Any]) -> State[Any]:
    """The state a record ends in, every recorded result checked on the way.

    Raises :class:`~tricklaw.spec.errors.RecordError` (bad field, illegal action,
    wrong trick or score) or another TricklawError naming the problem.
    """
    from tricklaw.model.rulesets import get_ruleset

    validate_record(record)
    ruleset = get_ruleset(record["ruleset"])
    game = ruleset.make_game(record["players"], record["options"])
    palette = ruleset.palette
    deals = [
        parse_deal(r["deal"], palette, f"round {i + 1} deal")
        for i, r in enumerate(record["rounds"])
    ]
    try:
        state = game.new_state_from_deals(deals, record.get("seed"))
    except TricklawError as exc:
        raise RecordError(f"deal: {exc}") from None
    for r_index, rnd in enumerate(record["rounds"]):
        where_round = f"round {r_index + 1}"
        if state.is_terminal():
            raise RecordError(f"{where_round}: the game has already ended by the rules")
        if state.round_index != r_index:
            raise RecordError(
                f"round {r_index}: the record stops before the round is over, yet "
                f"{where_round} follows"
            )
        for a_index, entry in enumerate(rnd["actions"]):
            where = f"{where_round}, action {a_index + 1}"
            if entry["seat"] != state.current_player():
                raise RecordError(
                    f"{where}: seat {entry['seat']} acts, but it is seat "
                    f"{state.current_player()}'s turn"
                )
            try:
                action = string_to_action(entry["action"], palette)
                tricks_before = len(state.history), len(state.tricks)
                state = state.apply_action(action)
            except TricklawError as exc:
                raise RecordError(f"{where}: {exc}") from None
            for t_index, leader, result, seating in new_tricks(state, tricks_before):
                if t_index < len(rnd.get("tricks", [])):
                    _check_trick(
                        rnd["tricks"][t_index],
                        leader=leader,
                        result=result,
                        seating=seating,
                        where=f"{where_round}, trick {t_index + 1}",
                        palette=palette,
                    )
        if "scores" in rnd:
            if len(state.history) <= r_index:
                raise RecordError(f"{where_round}: the record scores a round that is not over")
            _check_round(rnd, log_json(game, state.history[r_index]), where_round)
        elif r_index < len(state.history):
            _check_round(rnd, log_json(game, state.history[r_index]), where_round)
    if "complete" in record and record["complete"] != state.is_terminal():
        said = "complete" if record["complete"] else "unfinished"
        truth = "over" if state.is_terminal() else "not over"
        raise RecordError(f"the record says the game is {said}, but by the rules it is {truth}")
    if "winners" in record and state.is_terminal():
        winners = list(game.ruleset.winners(game, state.returns()))
        if record["winners"] != winners:
            raise RecordError(
                f"the record's winners {record['winners']} differ from the rules' {winners}"
            )
    if "totals" in record and list(record["totals"]) != list(state.returns()):
        raise RecordError(
            f"the record's totals {record['totals']} differ from the rules' {list(state.returns())}"
        )
    return state


def _check_round(recorded: dict[str, Any], expected: dict[str, Any], where: str) -> None:
    """The recorded facts of a finished round against the rules' (fields the record has)."""
    for key in ("scores", "first_leader", "dealer", "seating", "facts"):
        if key in recorded and recorded[key] != expected[key]:
            raise RecordError(
                f"{where}: the record says {key} = {json.dumps(recorded[key])}, "
                f"the rules give {json.dumps(expected[key])}"
            )


def new_tricks(
    state: State[Any], before: tuple[int, int]
) -> list[tuple[int, int, TrickResult, tuple[int, ...]]]:
    """The tricks of the round in progress before the last action that it completed,
    as (index in the round, leader, result, seating)."""
    rounds_before, tricks_before = before
    if len(state.history) > rounds_before:
        log = state.history[rounds_before]
        tricks, seating = log.tricks, log.seating
    else:
        tricks, seating = state.tricks, state.info.seating
    return [
        (i, leader, result, seating)
        for i, (leader, result) in enumerate(tricks)
        if i >= tricks_before
    ]


def loads_record(text: str) -> dict[str, Any]:
    """Parse record JSON text; raises RecordError for text that is not a JSON object."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"the record is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("the record is not a JSON object")
    return data


def loads_state(text: str) -> State[Any]:
    """The state that :func:`dumps_state` wrote."""
    return replay(loads_record(text))
