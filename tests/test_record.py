"""The JSON game record: round trips, the schema, and corrupt records rejected by name."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tricklaw.model import deserialize
from tricklaw.model.agents import play_random_game, random_step
from tricklaw.model.record import loads_record, to_record, validate_record
from tricklaw.model.replay.records import check_record, replay
from tricklaw.model.rng import agent_rng
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import State
from tricklaw.spec.errors import RecordError, TricklawError

clause = pytest.mark.clause

OLD = "sticheln-1993"
NEW = "sticheln"

CONFIGS = [
    (NEW, 3, {}, 3),
    (NEW, 6, {"zero-lead": "first-nonzero", "round-leader": "youngest", "rounds": 2}, 8),
    (OLD, 4, {"rounds": 2}, 1),
    (OLD, 3, {"deck": "full", "follow": "must-follow", "all-zero": "no-winner", "rounds": 2}, 5),
    (OLD, 5, {"follow": "follow-or-trump", "end": "target", "target": 3}, 1),
]


def schema() -> dict[str, Any]:
    text = resources.files("tricklaw.spec").joinpath("record.schema.json").read_text("utf-8")
    return json.loads(text)


def finished(ruleset_id: str, players: int, options: dict[str, Any], seed: int) -> State[Any]:
    state = play_random_game(get_ruleset(ruleset_id).make_game(players, options), seed, 30)
    assert state.is_terminal()
    return state


def partial(
    ruleset_id: str, players: int, options: dict[str, Any], seed: int, steps: int
) -> State[Any]:
    state = get_ruleset(ruleset_id).make_game(players, options).new_initial_state(seed)
    rng = agent_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state = random_step(state, rng)
    return state


def through_json(record: dict[str, Any]) -> dict[str, Any]:
    return loads_record(json.dumps(record))


def base_record() -> dict[str, Any]:
    """A finished three-player game of the later edition, as parsed JSON."""
    return through_json(to_record(finished(NEW, 3, {}, 3)))


def expect_error(record: dict[str, Any], pattern: str, error: type[Exception] = RecordError) -> str:
    with pytest.raises(error, match=pattern) as info:
        replay(record)
    assert "\n" not in str(info.value)
    return str(info.value)


# --- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{c[3]}")
def test_finished_game_record_round_trips_through_json(config) -> None:
    state = finished(*config)
    record = to_record(state)
    again = replay(through_json(record))
    assert again.is_terminal()
    assert again.returns() == state.returns()
    assert to_record(again, record["seed"]) == record
    assert record["complete"] is True
    totals = record["totals"]
    assert record["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]


@pytest.mark.parametrize("steps", [0, 1, 7, 50, 63, 64, 200])
def test_unfinished_game_record_round_trips_through_json(steps: int) -> None:
    state = partial(NEW, 4, {}, 12, steps)
    record = to_record(state)
    assert record["complete"] is False and "winners" not in record
    assert "scores" not in record["rounds"][-1]
    again = replay(through_json(record))
    assert to_record(again, record["seed"]) == record
    assert again.legal_actions() == state.legal_actions()
    assert again.hands == state.hands and again.trick == state.trick


@pytest.mark.slow
@settings(max_examples=25, deadline=None, database=None)
@given(
    ruleset_id=st.sampled_from([OLD, NEW]),
    players=st.integers(3, 6),
    seed=st.integers(0, 2**64 - 1),
    steps=st.integers(0, 200),
)
def test_any_record_round_trips(ruleset_id: str, players: int, seed: int, steps: int) -> None:
    state = partial(ruleset_id, players, {"rounds": 2}, seed, steps)
    record = to_record(state)
    assert to_record(replay(through_json(record)), seed) == record


@pytest.mark.parametrize("config", CONFIGS[:3], ids=lambda c: f"{c[0]}-{c[1]}")
def test_serialize_deserialize_restores_the_game_so_far(config) -> None:
    state = partial(*config, steps=40)
    restored = deserialize(state.serialize())
    assert to_record(restored, config[3]) == to_record(state)
    assert restored.legal_actions() == state.legal_actions()
    assert restored.current_player() == state.current_player()


def test_deserialized_state_plays_on_into_the_next_round() -> None:
    game = get_ruleset(NEW).make_game(3)
    state = game.new_initial_state(5)
    while True:  # stop one action before the first round ends
        nxt = state.child(state.legal_actions()[0])
        if nxt.history:
            break
        state = nxt
    restored = deserialize(state.serialize())
    after = restored.child(restored.legal_actions()[0])
    assert after.round_index == 1
    assert to_record(after) == to_record(nxt)


# --- the schema -------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{c[3]}")
def test_records_validate_against_the_schema(config) -> None:
    validator = Draft202012Validator(schema())
    for record in (to_record(finished(*config)), to_record(partial(*config, steps=33))):
        errors = [e.message for e in validator.iter_errors(through_json(record))]
        assert errors == []
        validate_record(record)


def test_schema_rejects_what_replay_rejects() -> None:
    validator = Draft202012Validator(schema())
    record = base_record()
    record["rounds"][0]["deal"]["hands"][0][0] = "red five"
    assert not validator.is_valid(record)
    expect_error(
        record, r"record field rounds\[0\]\.deal\.hands\[0\]\[0\]: 'red five' does not match"
    )


# --- corrupt records --------------------------------------------------------------------------


def test_wrong_format_is_rejected() -> None:
    record = base_record()
    record["format"] = "tricklaw-log"
    expect_error(record, r"record field format: 'tricklaw-record' was expected")


def test_wrong_version_is_rejected() -> None:
    record = base_record()
    record["version"] = 2
    expect_error(record, r"record field version: 1 was expected")


def test_missing_field_is_rejected() -> None:
    record = base_record()
    del record["rounds"]
    expect_error(record, r"record field \(top level\): 'rounds' is a required property")


def test_unknown_field_is_rejected() -> None:
    record = base_record()
    record["comment"] = "hi"
    expect_error(record, r"record field \(top level\).*'comment'")


def test_unknown_ruleset_is_rejected() -> None:
    # replay() documents "RecordError ... or another TricklawError naming the problem";
    # an unknown ruleset surfaces as the OptionError of get_ruleset().
    record = base_record()
    record["ruleset"] = "bridge"
    expect_error(record, r"unknown ruleset 'bridge'", TricklawError)


def test_unsupported_player_count_is_rejected() -> None:
    record = base_record()
    record["players"] = 7
    expect_error(record, r"3-6 players, not 7", TricklawError)


def test_bad_option_is_rejected() -> None:
    record = base_record()
    record["options"]["zero-lead"] = "sideways"
    expect_error(record, r"zero-lead has no reading 'sideways'", TricklawError)


def test_card_not_in_the_deck_is_rejected() -> None:
    record = base_record()
    hand = record["rounds"][0]["deal"]["hands"][0]
    hand[hand.index(sorted(hand)[0])] = "Y14"
    message = expect_error(record, r"Y14")
    assert "not in the 3-player deck of sticheln" in message


def test_unknown_colour_in_the_deal_is_rejected() -> None:
    record = base_record()
    record["rounds"][1]["deal"]["hands"][2][4] = "Z3"
    expect_error(record, r"rounds\[1\]\.deal\.hands\[2\]\[4\]: 'Z3': unknown colour 'Z'")


def test_duplicated_card_in_the_deal_is_rejected() -> None:
    record = base_record()
    hands = record["rounds"][0]["deal"]["hands"]
    duplicate = hands[0][0]
    hands[1][0] = duplicate
    expect_error(record, rf"deal holds {duplicate} 2 times")


def test_short_hand_in_the_deal_is_rejected_naming_the_clause() -> None:
    record = base_record()
    hands = record["rounds"][0]["deal"]["hands"]
    hands[1].append(hands[0].pop())
    expect_error(record, r"seat 0 is dealt 14 cards.*\[STI-DEAL-1\]")


def _first_illegal_play(record: dict[str, Any]) -> tuple[int, str]:
    """The index of the first play action and a card that seat does not hold."""
    rnd = record["rounds"][0]
    index = next(i for i, a in enumerate(rnd["actions"]) if not a["action"].startswith("select"))
    seat = rnd["actions"][index]["seat"]
    other = rnd["deal"]["hands"][(seat + 1) % record["players"]][0]
    return index, other


@clause("STI-PLAY-1")
def test_illegal_action_is_rejected_naming_the_clause() -> None:
    record = base_record()
    index, card = _first_illegal_play(record)
    record["rounds"][0]["actions"][index]["action"] = card
    message = expect_error(record, rf"round 0, action {index}: ")
    assert "[STI-PLAY-1]" in message
    assert card in message


@clause("STI93-PLAY-2", "STI93-D-FOLLOW")
def test_record_breaking_the_follow_reading_is_rejected_naming_the_clause() -> None:
    state = finished(OLD, 4, {"rounds": 1}, 2)
    record = through_json(to_record(state))
    # Replaying a free-play game under must-follow: the first forbidden card is an illegal action.
    record["options"]["follow"] = "must-follow"
    game = get_ruleset(OLD).make_game(4, record["options"])
    forbidden = False
    check = game.new_state_from_deals([state.history[0].deal])
    for _, action in state.history[0].actions:
        if action not in check.legal_actions():
            forbidden = True
            break
        check = check.child(action)
    assert forbidden, "the seed should give a game with an off-colour play"
    expect_error(record, r"round 0, action \d+: .*follow=must-follow.*\[STI93-PLAY-2\]")


def test_action_by_the_wrong_seat_is_rejected() -> None:
    record = base_record()
    record["rounds"][0]["actions"][0]["seat"] = 1
    expect_error(record, r"round 0, action 0: seat 1 acts, but it is seat 0's turn")


def test_unparsable_action_is_rejected() -> None:
    record = base_record()
    record["rounds"][0]["actions"][5]["action"] = "discard R1"
    expect_error(record, r"rounds\[0\]\.actions\[5\]\.action: 'discard R1' is not an action")


@clause("STI-TRICK-2", "STI-TRICK-1")
def test_wrong_trick_winner_is_rejected() -> None:
    record = base_record()
    trick = record["rounds"][0]["tricks"][2]
    right = trick["winner"]
    trick["winner"] = (right + 1) % 3
    message = expect_error(record, r"round 0, trick 2: the record says winner = ")
    assert f"expected winner = {right}" in message
    assert "[STI-" in message


def test_wrong_trick_taken_is_rejected() -> None:
    record = base_record()
    trick = record["rounds"][1]["tricks"][0]
    trick["taken"] = (
        {str((trick["leader"] + 1) % 3): trick["cards"]}
        if trick["winner"] == trick["leader"]
        else {str(trick["leader"]): trick["cards"]}
    )
    expect_error(record, r"round 1, trick 0: the record says (winner|taken) = ")


def test_wrong_round_scores_are_rejected() -> None:
    record = base_record()
    record["rounds"][1]["scores"][2] += 1
    expect_error(record, r"round 1: the record says scores = .*; expected scores = ")


def test_wrong_totals_are_rejected() -> None:
    record = base_record()
    record["totals"][0] -= 5
    expect_error(record, r"the record says totals = .*; expected ")


def test_complete_record_missing_its_last_round_is_rejected() -> None:
    record = base_record()
    record["rounds"].pop()
    expect_error(record, r"says the game is complete; expected not over \(round 2 is in play")


def test_record_with_a_round_after_the_end_is_rejected() -> None:
    record = base_record()
    record["rounds"].append({**copy.deepcopy(record["rounds"][0]), "index": 3})
    expect_error(record, r"begins round 3, but by the rules the game ended after round 2")


def test_scores_for_an_unfinished_round_are_rejected() -> None:
    record = base_record()
    record["rounds"][0]["actions"] = record["rounds"][0]["actions"][:10]
    del record["rounds"][0]["tricks"]  # else the tricks that the actions do not complete
    expect_error(record, r"round 0: the record ends round 0, but by the rules it is not over")


def test_unfinished_middle_round_is_named_as_unfinished() -> None:
    record = base_record()
    del record["rounds"][0]["scores"]
    record["rounds"][0]["actions"] = record["rounds"][0]["actions"][:10]
    message = expect_error(record, r"round")
    assert "already ended" not in message
    assert "round 0" in message


@pytest.mark.parametrize(
    "text",
    ["", "{", '{"format": "tricklaw-record", "version": 1', "[1, 2]", '"text"', "null"],
    ids=["empty", "brace", "truncated", "list", "string", "null"],
)
def test_truncated_or_non_object_json_is_rejected(text: str) -> None:
    with pytest.raises(RecordError, match=r"the record is not (valid JSON|a JSON object)"):
        loads_record(text)


def test_truncated_record_text_is_rejected() -> None:
    text = json.dumps(to_record(finished(NEW, 3, {}, 3)))
    for cut in (1, len(text) // 2, len(text) - 1):
        with pytest.raises(RecordError, match=r"not valid JSON"):
            loads_record(text[:cut])


# --- fields the record states that replay must check ------------------------------------------


def _mutate_winners(record: dict[str, Any]) -> None:
    totals = record["totals"]
    record["winners"] = [s for s in range(len(totals)) if totals[s] != max(totals)][:1]


def _mutate_picked(record: dict[str, Any]) -> None:
    picked = record["rounds"][0]["facts"]["picked"]
    record["rounds"][0]["facts"]["picked"] = picked[1:] + picked[:1]


def _mutate_first_leader(record: dict[str, Any]) -> None:
    rnd = record["rounds"][1]
    rnd["first_leader"] = (rnd["first_leader"] + 1) % record["players"]


def _mutate_complete(record: dict[str, Any]) -> None:
    record["complete"] = False


@pytest.mark.parametrize(
    "mutate",
    [_mutate_winners, _mutate_picked, _mutate_first_leader, _mutate_complete],
    ids=["winners", "facts-picked", "first_leader", "complete-false"],
)
def test_record_results_that_disagree_with_the_rules_are_rejected(mutate) -> None:
    record = base_record()
    mutate(record)
    assert record != base_record()
    with pytest.raises(RecordError):
        replay(record)


@clause("STI93-D-DECK")
def test_undealt_cards_in_an_unknown_pile_are_rejected() -> None:
    from tricklaw.model.invariants import violations

    state = finished(OLD, 3, {"deck": "full", "rounds": 1}, 3)
    record = through_json(to_record(state))
    deal = record["rounds"][0]["deal"]
    deal["piles"] = {"box": deal["piles"]["aside"]}
    try:
        replayed = replay(record)
    except RecordError:
        return
    assert violations(replayed) == []


# --- one checker ------------------------------------------------------------------------------


def _mutate_trick_winner(record: dict[str, Any]) -> None:
    trick = record["rounds"][1]["tricks"][4]
    trick["winner"] = (trick["winner"] + 1) % record["players"]


def _mutate_seat(record: dict[str, Any]) -> None:
    record["rounds"][2]["actions"][7]["seat"] = 16


@pytest.mark.parametrize(
    "mutate",
    [_mutate_winners, _mutate_picked, _mutate_first_leader, _mutate_trick_winner, _mutate_seat],
    ids=["winners", "facts-picked", "first_leader", "trick-winner", "seat"],
)
def test_replay_says_what_the_log_checker_says(mutate) -> None:
    """``tricklaw replay`` and ``tricklaw check RECORD`` are one checker: replay's error is
    the verdict that the checker gives the record, any legal deal accepted."""
    record = base_record()
    mutate(record)
    verdict = check_record(copy.deepcopy(record), own_shuffle=True)
    assert verdict.status != "agrees"
    with pytest.raises(RecordError) as info:
        replay(record)
    assert str(info.value) == verdict.message


def test_an_unseeded_record_replays_and_stops_where_it_has_no_deal() -> None:
    """Without a seed each round's deal comes from the record: the state replayed is the
    state written (its seed still none), and a record that stops between rounds replays
    to no state, for the next round has no deal (the checker agrees with the game so far)."""
    seeded = finished(NEW, 3, {}, 3)
    state = seeded.game.new_state_from_deals([log.deal for log in seeded.history])
    for log in seeded.history[:2]:
        for _, action in log.actions:
            state = state.child(action)
    record = through_json(to_record(state))
    assert record["seed"] is None and record["rounds"][2]["actions"] == []
    assert to_record(replay(copy.deepcopy(record))) == record
    stopped = {**record, "rounds": record["rounds"][:2]}
    assert check_record(copy.deepcopy(stopped)).status == "agrees"
    with pytest.raises(RecordError, match="no deal is given for round 2"):
        replay(stopped)


def test_a_record_with_no_round_agrees_and_replays_to_an_error_not_a_crash() -> None:
    """A game stopped before its first round: the checker agrees with it, and ``replay``
    (which returns the state a record ends in) says in one line that there is none (it
    failed an assertion: ``tricklaw replay`` exited 70)."""
    state = play_random_game(get_ruleset("lowhigh").make_game(3), 1, max_rounds=1)
    record = {**through_json(to_record(state)), "rounds": [], "totals": [0, 0, 0]}
    assert record["complete"] is False
    assert check_record(copy.deepcopy(record)).status == "agrees"
    with pytest.raises(RecordError, match=r"^rounds: the record has no round"):
        replay(record)
