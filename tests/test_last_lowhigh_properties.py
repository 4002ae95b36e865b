"""Hypothesis properties of whole random games of The Last and the low-card-takes-high game.

Every player count (The Last's two-player ghost game included) and every reading of every
dispute is drawn; the games are kept to one or two rounds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tier import examples

from tricklaw.model.actions import KEEP, ActionKind, kind_of
from tricklaw.model.agents import random_states
from tricklaw.model.invariants import violations
from tricklaw.model.record import to_record
from tricklaw.model.replay.records import replay
from tricklaw.model.rng import MASK64
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.rulesets.lowhigh import judge as lh_judge
from tricklaw.model.rulesets.the_last import GHOST
from tricklaw.model.rulesets.the_last import judge as last_judge
from tricklaw.model.state import Game, Phase, State

clause = pytest.mark.clause

LAST = "the-last"
LH = "lowhigh"
RULESETS = (LAST, LH)
SETTINGS = settings(max_examples=25, deadline=None, database=None)


# --- strategies and helpers -------------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn, ruleset_id: str, players: int | None = None) -> tuple[Game, int]:
    """A game with any (or the given) player count and reading of every dispute, one or two
    rounds, and a seed."""
    ruleset = get_ruleset(ruleset_id)
    if players is None:
        players = draw(st.sampled_from(ruleset.player_counts))
    options: dict[str, Any] = {
        s.name: draw(st.sampled_from(s.choices)) for s in ruleset.option_specs if s.choices
    }
    options["rounds"] = draw(st.integers(1, 2))
    return ruleset.make_game(players, options), draw(st.integers(0, MASK64))


def walk(game: Game, seed: int) -> Iterator[State[Any]]:
    """Every state of a random game from ``seed``."""
    return random_states(game, seed, max_rounds=None)  # these games always end


def last_state(game: Game, seed: int) -> State[Any]:
    *_, state = walk(game, seed)
    return state


# --- whole games ------------------------------------------------------------------------------


@clause(
    "LAST-D-ROUNDS",
    "LAST-D-UNUSED",
    "LAST-D-LASTPLAY",
    "LAST-D-GHOSTPLAY",
    "LAST-D-GHOSTSEAT",
    "LAST-GHOST-4",
    "LAST-COLLECT-1",
    "LAST-TRICK-1",
)
@settings(max_examples=12, deadline=None, database=None)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@given(data=st.data())
def test_the_last_every_state_keeps_every_invariant(players: int, data: st.DataObject) -> None:
    game, seed = data.draw(games(LAST, players))
    steps = 0
    for state in walk(game, seed):
        assert violations(state) == [], (steps, violations(state))
        steps += 1
        if state.is_terminal():
            assert state.legal_actions() == ()
            continue
        assert state.current < game.players  # never the ghost
        if game.players == 2:
            assert state.current != GHOST
        legal = state.legal_actions()
        if state.phase is Phase.CHOOSE:
            assert legal[0] == KEEP
            assert {kind_of(a) for a in legal} <= {ActionKind.KEEP, ActionKind.SWAP}
            assert len(legal) == 1 + len(state.hands[state.current])
            assert state.extra.pending is not None and state.extra.shown is None
        else:
            assert state.phase is Phase.PLAY
            assert set(legal) <= set(state.hands[state.current])
            assert state.extra.shown is not None  # a points card is face up every trick
    assert steps > 8


@clause("LH-D-SAMECARD", "LH-D-FIRSTLEAD", "LH-PLAY-2", "LH-ROUND-1")
@settings(max_examples=8, deadline=None, database=None)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@given(data=st.data())
def test_lowhigh_every_state_keeps_every_invariant(players: int, data: st.DataObject) -> None:
    game, seed = data.draw(games(LH, players))
    for state in walk(game, seed):
        assert violations(state) == []
        if state.is_terminal():
            assert state.legal_actions() == ()
            continue
        legal = state.legal_actions()
        hand = state.hands[state.current]
        assert legal and set(legal) <= set(hand)
        if state.trick and any(c >> 5 == state.trick[0] >> 5 for c in hand):
            assert all(c >> 5 == state.trick[0] >> 5 for c in legal)
        else:
            assert legal == hand


@clause("LAST-SCORE-1", "LAST-GHOST-6", "LH-SCORE-4")
@SETTINGS
@pytest.mark.parametrize("ruleset_id", RULESETS)
@given(data=st.data())
def test_scores_equal_the_recount_from_the_round_log(ruleset_id: str, data: st.DataObject) -> None:
    game, seed = data.draw(games(ruleset_id))
    state = last_state(game, seed)
    assert state.is_terminal()
    assert len(state.history) == game.options["rounds"]
    for log in state.history:
        assert log.scores == game.ruleset.recount_scores(game, log)
        if ruleset_id == LAST and game.players == 2:
            assert log.scores[GHOST] == 0
    totals = tuple(sum(log.scores[s] for log in state.history) for s in range(game.seats))
    assert state.returns() == totals


@pytest.mark.slow
@SETTINGS
@pytest.mark.parametrize("ruleset_id", RULESETS)
@given(data=st.data())
def test_records_round_trip_through_replay(ruleset_id: str, data: st.DataObject) -> None:
    game, seed = data.draw(games(ruleset_id))
    states = list(walk(game, seed))
    # A finished game, and one stopped part-way (an unfinished record).
    cut = data.draw(st.integers(0, len(states) - 1))
    for state in (states[-1], states[cut]):
        record = json.loads(json.dumps(to_record(state)))
        again = replay(record)
        assert to_record(again) == record
        assert again.legal_actions() == state.legal_actions()
        assert again.current_player() == state.current_player()
        assert again.returns() == state.returns()


@SETTINGS
@pytest.mark.parametrize("ruleset_id", RULESETS)
@given(data=st.data())
def test_the_same_seed_gives_the_same_record(ruleset_id: str, data: st.DataObject) -> None:
    game, seed = data.draw(games(ruleset_id))
    first = to_record(last_state(game, seed))
    again = get_ruleset(ruleset_id).make_game(game.players, game.options.as_dict())
    second = to_record(last_state(again, seed))
    assert json.dumps(first) == json.dumps(second)
    assert first["seed"] == seed


# --- tricks -----------------------------------------------------------------------------------


@st.composite
def last_tricks(draw: st.DrawFn) -> list[int]:
    n = draw(st.integers(3, 5))
    deck = list(get_ruleset(LAST).deck(n, get_ruleset(LAST).make_game(n).options))
    return draw(st.lists(st.sampled_from(deck), min_size=n, max_size=n, unique=True))


@clause("LAST-TRICK-2", "LAST-TRICK-3", "LAST-COLLECT-2")
@settings(max_examples=examples(200), deadline=None, database=None)
@given(trick=last_tricks())
def test_the_last_judge_agrees_with_the_text(trick: list[int]) -> None:
    result = last_judge(trick)
    colour = trick[-1] >> 5
    same = [i for i, c in enumerate(trick) if c >> 5 == colour]
    assert result.winner == max(same, key=lambda i: trick[i] & 31)
    assert result.taken == () and result.aside == tuple(trick)
    if len(same) == 1:
        assert result.winner == len(trick) - 1


@st.composite
def lh_tricks(draw: st.DrawFn) -> list[int]:
    n = draw(st.integers(3, 6))
    top = draw(st.sampled_from([2, 3, {3: 9, 4: 12, 5: 15, 6: 18}[n]]))
    pool = [c for c in get_ruleset(LH).deck(n, get_ruleset(LH).make_game(n).options)]
    pool = [c for c in pool if c & 31 <= top]
    return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))


@clause("LH-TRICK-2", "LH-TRICK-3", "LH-TRICK-4", "LH-TRICK-5", "LH-D-SAMECARD")
@settings(max_examples=examples(200), deadline=None, database=None)
@given(trick=lh_tricks(), among_rest=st.booleans())
def test_lowhigh_judge_agrees_with_the_text(trick: list[int], among_rest: bool) -> None:
    result = lh_judge(trick, among_rest)
    values = [c & 31 for c in trick]
    high = max(i for i, v in enumerate(values) if v == max(values))
    low = max(i for i, v in enumerate(values) if v == min(values))
    assert result.winner == high
    given_out = sorted(c for _, cs in result.taken for c in cs)
    assert given_out == sorted(trick)  # every card goes to someone
    if low != high:
        rest = tuple(c for i, c in enumerate(trick) if i != high)
        assert result.taken == ((low, (trick[high],)), (high, rest))
    elif among_rest:
        assert result.taken[0] == (len(trick) - 2, (trick[high],))
    else:
        assert result.taken == ((high, tuple(trick)),)


def test_a_hand_out_of_card_order_is_a_violation() -> None:
    """The legality proofs take hands in card order; the invariant holds the model to it."""
    game = get_ruleset(LH).make_game(3)
    state = game.new_initial_state(5)
    assert state.hands[0] and violations(state) == []
    shuffled = state._replace(hands=(tuple(reversed(state.hands[0])), *state.hands[1:]))
    assert violations(shuffled) == ["seat 0's hand is not in card order"]
