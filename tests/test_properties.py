"""Hypothesis properties of whole random games, trick judging and legality, under every reading."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tier import examples

from tricklaw.model.agents import play_random_game, random_states
from tricklaw.model.cards import Card, colour_of, make_card, value_of
from tricklaw.model.invariants import violations
from tricklaw.model.record import to_record
from tricklaw.model.rng import MASK64
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Game, Phase, State
from tricklaw.spec import load_registry
from tricklaw.spec.errors import IllegalActionError, TricklawError

clause = pytest.mark.clause

OLD = "sticheln-1993"
NEW = "sticheln"
MAX_ROUNDS = 2
FOLLOW = ("free", "follow-or-trump", "must-follow")
STICHELN = (OLD, NEW)


# --- strategies -------------------------------------------------------------------------------


@st.composite
def game_configs(draw: st.DrawFn, ruleset_id: str) -> tuple[str, int, dict[str, Any], int]:
    """A player count, a reading of every dispute, a short game length and a seed."""
    ruleset = get_ruleset(ruleset_id)
    players = draw(st.sampled_from(ruleset.player_counts))
    options: dict[str, Any] = {
        s.name: draw(st.sampled_from(s.choices)) for s in ruleset.option_specs if s.choices
    }
    names = {s.name for s in ruleset.option_specs}
    if "rounds" in names:
        options["rounds"] = draw(st.integers(1, MAX_ROUNDS))
    if "target" in names:
        options["target"] = draw(st.integers(1, 4))
    seed = draw(st.integers(0, MASK64))
    return ruleset_id, players, options, seed


def full_deck(ruleset_id: str) -> list[Card]:
    return [make_card(c, v) for c in range(6) for v in range(15)]


@st.composite
def tricks(draw: st.DrawFn, ruleset_id: str) -> list[Card]:
    """A complete trick of distinct cards, often rich in zeros."""
    n = draw(st.integers(3, 6))
    top = draw(st.sampled_from([1, 2, 14]))
    pool = [c for c in full_deck(ruleset_id) if value_of(c) <= top]
    return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))


# --- helpers ----------------------------------------------------------------------------------


def make_game(ruleset_id: str, players: int, options: dict[str, Any]) -> Game:
    return get_ruleset(ruleset_id).make_game(players, options)


def drawn_game(data: st.DataObject, ruleset_id: str) -> tuple[Game, int]:
    """A game of ``ruleset_id`` drawn by :func:`game_configs`, and its seed."""
    _, players, options, seed = data.draw(game_configs(ruleset_id))
    return make_game(ruleset_id, players, options), seed


def walk(game: Game, seed: int) -> Iterator[State[Any]]:
    """Every state of a random game, at most MAX_ROUNDS + 1 rounds of it: a Sticheln 1993
    game to a target total may never end."""
    return random_states(game, seed, max_rounds=MAX_ROUNDS + 1)


def last_state(game: Game, seed: int) -> State[Any]:
    *_, state = walk(game, seed)
    return state


def held(state: State[Any]) -> list[Card]:
    """Every card in the round, wherever it is now."""
    return sorted(
        [c for h in state.hands for c in h]
        + list(state.trick)
        + [c for t in state.taken for c in t]
        + list(state.aside)
        + list(_picked(state))
    )


def _picked(state: State[Any]) -> tuple[Card, ...]:
    """Sticheln's picked cards, read from its own state; other rulesets say what they hold."""
    picked = getattr(state.extra, "picked", None)
    if picked is None:
        return state.game.ruleset.held_aside(state)
    return tuple(p for p in picked if p is not None)


def oracle_winner(ruleset_id: str, options: dict[str, Any], cards: list[Card]) -> int | None:
    """Who takes the trick, straight from the rule texts (offset from the leader)."""
    lead = colour_of(cards[0])
    if options.get("zero-lead") == "first-nonzero" and value_of(cards[0]) == 0:
        lead = next((colour_of(c) for c in cards if value_of(c)), lead)
    trumps = [
        (value_of(c), -i) for i, c in enumerate(cards) if colour_of(c) != lead and value_of(c)
    ]
    if trumps:
        return -max(trumps)[1]
    leads = [(value_of(c), -i) for i, c in enumerate(cards) if colour_of(c) == lead and value_of(c)]
    if leads:
        return -max(leads)[1]
    if ruleset_id == OLD and options.get("all-zero", "leader-takes") == "leader-takes":
        return 0
    return None


# --- whole games ------------------------------------------------------------------------------


@pytest.mark.slow
@clause(
    "STI93-DEAL-2",
    "STI-DEAL-1",
    "STI93-D-DECK",
    "STI93-D-FOLLOW",
    "STI93-D-ALLZERO",
    "STI-D-ZEROLEAD",
    "STI-D-ROUNDLEAD",
)
@settings(max_examples=25, deadline=None, database=None)
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
@given(data=st.data())
def test_every_state_of_a_random_game_keeps_every_invariant(
    ruleset_id: str, data: st.DataObject
) -> None:
    config = data.draw(game_configs(ruleset_id))
    ruleset_id, players, options, seed = config
    game = make_game(ruleset_id, players, options)
    deck = sorted(game.ruleset.deck(players, game.options))
    steps = 0
    for state in walk(game, seed):
        assert violations(state) == [], (steps, violations(state))
        assert held(state) == deck
        legal = state.legal_actions()
        if state.is_terminal():
            assert legal == ()
        else:
            assert legal and list(legal) == sorted(set(legal))
        steps += 1
    assert steps > players * 5


@pytest.mark.slow
@settings(max_examples=15, deadline=None, database=None)
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
@given(data=st.data(), every=st.integers(3, 9))
def test_every_legal_action_leads_to_a_valid_state(
    ruleset_id: str, data: st.DataObject, every: int
) -> None:
    config = data.draw(game_configs(ruleset_id))
    ruleset_id, players, options, seed = config
    game = make_game(ruleset_id, players, options)
    for k, state in enumerate(walk(game, seed)):
        if k % every or state.is_terminal():
            continue
        for action in state.legal_actions():
            after = state.child(action)
            assert violations(after) == []
            assert after == state.apply_legal_action(action)


@pytest.mark.parametrize(("ruleset_id", "players"), [("hund", 2), ("the-last", 2), (NEW, 3)])
def test_random_states_walk_the_game_that_play_random_game_plays(
    ruleset_id: str, players: int
) -> None:
    game = make_game(ruleset_id, players, {})
    states = list(random_states(game, 5, max_rounds=None))
    assert states[0] == game.new_initial_state(5)
    assert states[-1] == play_random_game(game, 5)
    assert states[-1].is_terminal() and not any(s.is_terminal() for s in states[:-1])
    automatic = range(players, game.seats)
    assert not any(s.current_player() in automatic for s in states)


def test_random_states_stop_at_max_rounds_in_a_game_that_may_never_end() -> None:
    """A bounded walk ends. (Random play of Sticheln 1993 to a positive target total often
    never reaches it: from seed 0 the totals are below -1,600 after 200 rounds, so an
    unbounded walk of this game never returns.)"""
    game = make_game(OLD, 4, {"end": "target", "target": 3})
    states = list(random_states(game, 0, max_rounds=3))
    assert [len(s.history) for s in states].count(3) == 1
    assert len(states[-1].history) == 3 and not states[-1].is_terminal()
    assert states[-1] == play_random_game(game, 0, max_rounds=3)


@pytest.mark.slow
@settings(max_examples=10, deadline=None, database=None)
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
@given(data=st.data(), every=st.integers(2, 5))
def test_is_legal_answers_as_the_list_of_legal_actions(
    ruleset_id: str, data: st.DataObject, every: int
) -> None:
    """The log checker's quick question (``Ruleset.is_legal``) never disagrees with
    ``legal_actions``: for every kind of action, on every card and seat number."""
    game, seed = drawn_game(data, ruleset_id)
    payloads = sorted({*game.ruleset.deck(game.players, game.options), *range(16)})
    candidates = [(kind << 8) | p for kind in range(6) for p in payloads]
    asked = 0
    for k, state in enumerate(walk(game, seed)):
        if k % every or state.is_terminal():
            continue
        legal = set(state.legal_actions())
        for action in candidates:
            assert game.ruleset.is_legal(state, action) == (action in legal), (k, action)
        asked += 1
    assert asked > 0


@clause("STI93-SCORE-3", "STI-SCORE-4")
@settings(max_examples=20, deadline=None, database=None)
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
@given(data=st.data())
def test_scores_equal_the_recount_from_the_round_log(ruleset_id: str, data: st.DataObject) -> None:
    config = data.draw(game_configs(ruleset_id))
    ruleset_id, players, options, seed = config
    game = make_game(ruleset_id, players, options)
    state = last_state(game, seed)
    assert state.history
    for log in state.history:
        assert log.scores == game.ruleset.recount_scores(game, log)
    seats = len(state.returns())
    totals = [sum(log.scores[s] for log in state.history) for s in range(seats)]
    assert list(state.returns()) == totals


@settings(max_examples=15, deadline=None, database=None)
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
@given(data=st.data())
def test_the_same_seed_gives_the_same_record(ruleset_id: str, data: st.DataObject) -> None:
    config = data.draw(game_configs(ruleset_id))
    ruleset_id, players, options, seed = config
    first = to_record(last_state(make_game(ruleset_id, players, options), seed))
    second = to_record(last_state(make_game(ruleset_id, players, options), seed))
    assert json.dumps(first) == json.dumps(second)
    assert first["seed"] == seed


@settings(max_examples=20, deadline=None, database=None)
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
@given(data=st.data())
def test_illegal_cards_raise_naming_a_registry_clause(ruleset_id: str, data: st.DataObject) -> None:
    config = data.draw(game_configs(ruleset_id))
    ruleset_id, players, options, seed = config
    game = make_game(ruleset_id, players, options)
    ids = load_registry(ruleset_id).ids
    states = list(walk(game, seed))
    state = data.draw(st.sampled_from([s for s in states if not s.is_terminal()]))
    legal = set(state.legal_actions())
    card = data.draw(st.sampled_from(sorted(game.ruleset.deck(players, game.options))))
    for action in (int(card), (1 << 8) | card):
        if action in legal:
            continue
        with pytest.raises(IllegalActionError) as info:
            state.child(action)
        assert info.value.clause in ids
        assert f"[{info.value.clause}]" in str(info.value)


@pytest.mark.parametrize(
    "action", [99 << 8, 7 * 32 + 1, -1], ids=["kind-99", "colour-7", "negative"]
)
def test_child_of_a_nonsense_int_raises_illegal_action_error(action: int) -> None:
    state = get_ruleset(NEW).make_game(3).new_initial_state(1)
    with pytest.raises(IllegalActionError):
        state.child(action)


def test_moves_by_name_and_openspiels_in_place_idiom_refused() -> None:
    """Issue 46: ``child`` returns the next state and takes an action's name as well as
    its code; OpenSpiel's in-place ``apply_action``, which here could only change
    nothing, raises at once instead of looping forever; a name no action has is the
    one-line error of a bad card."""
    state = get_ruleset("lowhigh").make_game(3).new_initial_state(1)
    code = state.legal_actions()[0]
    name = state.action_to_string(code)
    assert state.string_to_action(name) == code
    assert state.child(name) == state.child(code) != state
    with pytest.raises(TypeError, match=r"state = state.child\(action\)"):
        state.apply_action(code)
    with pytest.raises(TricklawError, match="unknown colour"):
        state.child("X5")


def test_a_states_repr_is_one_short_line() -> None:
    """Issue 46: ``repr(state)`` says where the game stands, not a 1,300-character dump."""
    state = get_ruleset("lowhigh").make_game(3).new_initial_state(1)
    assert repr(state) == f"<State lowhigh 3p, round 1, trick 1: seat {state.current} to play>"
    after = state.child(state.legal_actions()[0])
    card = state.action_to_string(state.legal_actions()[0])
    assert repr(after).endswith(f"to play; trick {card}>")
    while not state.is_terminal():
        state = state.apply_legal_action(state.legal_actions()[0])
    assert repr(state) == f"<State lowhigh 3p: over, totals {list(state.returns())}>"


@pytest.mark.slow
@clause("STI93-SELECT-2", "STI-SELECT-2")
@settings(max_examples=30, deadline=None, database=None)
@pytest.mark.parametrize("ruleset_id", STICHELN)
@given(data=st.data())
def test_observations_never_show_another_seats_hidden_pick(
    ruleset_id: str, data: st.DataObject
) -> None:
    config = data.draw(game_configs(ruleset_id))
    ruleset_id, players, options, seed = config
    game = make_game(ruleset_id, players, options)
    fmt = game.ruleset.palette.format
    for state in walk(game, seed):
        if state.history:
            break
        viewer = data.draw(st.integers(0, players - 1))
        obs = state.observation(viewer)
        assert obs["hand"] == [fmt(c) for c in state.hands[viewer]]
        for seat, pick in enumerate(state.extra.picked):
            if pick is None:
                assert obs["picked"][seat] is None
            elif state.phase is Phase.SELECT and seat != viewer:
                assert obs["picked"][seat] == "hidden"
            else:
                assert obs["picked"][seat] == fmt(pick)


# --- tricks -----------------------------------------------------------------------------------


@clause("STI93-TRICK-3", "STI93-TRICK-4", "STI93-TRICK-5", "STI93-TRICK-6", "STI93-D-ALLZERO")
@settings(max_examples=examples(300), deadline=None, database=None)
@given(cards=tricks(OLD), all_zero=st.sampled_from(["leader-takes", "no-winner"]))
def test_1993_judge_agrees_with_the_text(cards: list[Card], all_zero: str) -> None:
    options = {"all-zero": all_zero, "deck": "full"}
    game = make_game(OLD, len(cards), options)
    result = game.ruleset.judge_trick(game, cards)
    assert result.winner == oracle_winner(OLD, options, cards)
    _check_result_shape(OLD, cards, result)


@clause("STI-TRICK-1", "STI-TRICK-2", "STI-TRICK-3", "STI-TRICK-4", "STI-TRICK-6", "STI-D-ZEROLEAD")
@settings(max_examples=examples(300), deadline=None, database=None)
@given(cards=tricks(NEW), zero_lead=st.sampled_from(["lead-card", "first-nonzero"]))
def test_later_judge_agrees_with_the_text(cards: list[Card], zero_lead: str) -> None:
    options = {"zero-lead": zero_lead}
    game = make_game(NEW, len(cards), options)
    result = game.ruleset.judge_trick(game, cards)
    assert result.winner == oracle_winner(NEW, options, cards)
    _check_result_shape(NEW, cards, result)


def _check_result_shape(ruleset_id: str, cards: list[Card], result) -> None:
    assert result.cards == tuple(cards)
    given_out = [c for _, cs in result.taken for c in cs] + list(result.aside)
    assert Counter(given_out) == Counter(cards)
    if result.winner is None:
        assert result.taken == ()
        assert all(value_of(c) == 0 for c in cards)
    else:
        assert result.taken == ((result.winner, tuple(cards)),)
        if any(value_of(c) for c in cards):
            assert value_of(cards[result.winner]) != 0  # a zero never wins
    assert result.clauses
    assert set(result.clauses) <= load_registry(ruleset_id).ids


# --- legality ---------------------------------------------------------------------------------


@st.composite
def hands_and_tricks(draw: st.DrawFn):
    deck = full_deck(OLD)
    top = draw(st.sampled_from([2, 5, 14]))
    pool = [c for c in deck if value_of(c) <= top]
    big = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=15, unique=True))
    rest = [c for c in pool if c not in big] or [c for c in deck if c not in big]
    trick = draw(st.lists(st.sampled_from(rest), min_size=1, max_size=5, unique=True))
    small = draw(st.lists(st.sampled_from(big), min_size=1, max_size=len(big), unique=True))
    card = draw(st.sampled_from(small))
    return tuple(sorted(big)), tuple(sorted(small)), tuple(trick), card


@clause("STI93-PLAY-2", "STI93-D-FOLLOW")
@settings(max_examples=examples(300), deadline=None, database=None)
@given(case=hands_and_tricks())
def test_legality_is_anti_monotone_in_the_hand(case) -> None:
    big, small, trick, card = case
    for follow in FOLLOW:
        game = make_game(OLD, 4, {"follow": follow, "deck": "full"})
        if card in game.ruleset.playable(game, big, trick):
            assert card in game.ruleset.playable(game, small, trick), follow


@clause("STI93-PLAY-2", "STI93-LEAD-2", "STI-PLAY-2")
@settings(max_examples=examples(200), deadline=None, database=None)
@given(case=hands_and_tricks())
def test_playable_is_a_non_empty_subset_of_the_hand(case) -> None:
    hand, _, trick, _ = case
    lead = colour_of(trick[0])
    for ruleset_id, follow in [(OLD, f) for f in FOLLOW] + [(NEW, None)]:
        options = {"follow": follow, "deck": "full"} if follow else {}
        game = make_game(ruleset_id, 4, options)
        got = game.ruleset.playable(game, hand, trick)
        assert got and set(got) <= set(hand)
        assert game.ruleset.playable(game, hand, ()) == hand
        if follow in (None, "free"):
            assert got == hand
        elif follow == "must-follow" and any(colour_of(c) == lead for c in hand):
            assert all(colour_of(c) == lead for c in got)
        elif follow == "follow-or-trump" and len(got) < len(hand):
            dropped = set(hand) - set(got)
            assert all(value_of(c) == 0 and colour_of(c) != lead for c in dropped)


@settings(max_examples=examples(200), deadline=None, database=None)
@given(ruleset_id=st.sampled_from(list(RULESETS)), text=st.text(max_size=8))
def test_string_to_action_raises_only_tricklaw_errors(ruleset_id: str, text: str) -> None:
    from tricklaw.model.actions import action_to_string, string_to_action

    palette = get_ruleset(ruleset_id).palette
    try:
        action = string_to_action(text, palette)
    except TricklawError:
        return
    assert string_to_action(action_to_string(action, palette), palette) == action
