"""OpenSpiel's own search on tricklaw's games (:mod:`tricklaw.openspiel`, issue 17 part 1).

* ``MCTSBot`` (with ``RandomRolloutEvaluator``) and ``ISMCTSBot`` play whole episodes of
  every ruleset at its smallest player count (fast) and at the next count (slow).
* The reward model is truthful: ``TERMINAL`` where an episode is one round or where
  ``reward_model=terminal`` asks for it (then every reward before the end is zero),
  ``REWARDS`` for Hund's five rounds by default.
* ``resample_from_infostate`` gives states the player cannot tell from the true one:
  legal for the model, the same information state, other hidden cards.
* Parameters are in snake_case; the hyphenated names are refused.
"""

from __future__ import annotations

import pickle
import time
from collections import Counter
from typing import Any

import numpy as np
import pytest

from tricklaw import episodes, resample
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import Phase

pyspiel = pytest.importorskip("pyspiel")  # the openspiel extra (the test extra includes it)

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from tricklaw import openspiel  # noqa: E402

SMALLEST = [(rid, r.player_counts[0]) for rid, r in RULESETS.items()]
LARGER = [(rid, r.player_counts[1]) for rid, r in RULESETS.items()]
SIMULATIONS = 4
"""Simulations per move: enough to run the search, few enough for seconds an episode."""


def load(ruleset_id: str, players: int, **params: Any) -> Any:
    text = ",".join(f"{k}={v}" for k, v in {"players": players, **params}.items())
    return pyspiel.load_game(f"{episodes.short_name(ruleset_id)}({text})")


def search_game(ruleset_id: str, players: int) -> Any:
    """The game MCTS can search: the default where an episode is one round (TERMINAL),
    else (Hund's five rounds) with ``reward_model=terminal``."""
    game = load(ruleset_id, players)
    if game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL:
        return game
    return load(ruleset_id, players, reward_model="terminal")


def play_episode(game: Any, bots: list[Any], seed: int) -> Any:
    """One whole episode, each player moved by its bot; the deal drawn with ``seed``."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


def mcts_bots(game: Any, seed: int, simulations: int = SIMULATIONS) -> list[Any]:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    return [
        mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)
        for _ in range(game.num_players())
    ]


def ismcts_bots(game: Any, seed: int, simulations: int = SIMULATIONS) -> list[Any]:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    return [
        ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)
        for _ in range(game.num_players())
    ]


def check_finished(game: Any, state: Any) -> None:
    """A whole episode: terminal, the model's game over, returns within the bounds."""
    assert state.is_terminal() and state.model_state.is_terminal()
    assert len(state.model_state.history) == game.episode.rounds
    low, high = game.episode.utility
    assert all(low <= r <= high for r in state.returns())


# --- MCTS and ISMCTS play whole episodes ---------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset_id", "players"), SMALLEST)
def test_mcts_bot_plays_a_whole_episode(ruleset_id: str, players: int) -> None:
    game = search_game(ruleset_id, players)
    check_finished(game, play_episode(game, mcts_bots(game, 1), seed=1))


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset_id", "players"), SMALLEST)
def test_ismcts_bot_plays_a_whole_episode(ruleset_id: str, players: int) -> None:
    """ISMCTS resamples the state from the information state at every simulation."""
    game = load(ruleset_id, players)  # ISMCTS takes any reward model
    check_finished(game, play_episode(game, ismcts_bots(game, 2), seed=2))


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset_id", "players"), LARGER)
def test_search_bots_play_larger_tables(ruleset_id: str, players: int) -> None:
    """Both bots at the next player count, with more simulations."""
    game = search_game(ruleset_id, players)
    check_finished(game, play_episode(game, mcts_bots(game, 3, 16), seed=3))
    check_finished(game, play_episode(game, ismcts_bots(game, 4, 16), seed=4))


def test_mcts_bot_refuses_a_per_round_reward_model() -> None:
    """The reward model is what it says: Hund's five rounds give per-round rewards by
    default, which MCTSBot refuses (as OpenSpiel means it to)."""
    game = load("hund", 2)
    with pytest.raises(ValueError, match="terminal rewards"):
        mcts.MCTSBot(game, 2.0, 2, mcts.RandomRolloutEvaluator(1))


# --- the reward model -----------------------------------------------------------------------


def test_reward_model_is_terminal_exactly_where_rewards_come_at_the_end() -> None:
    kinds = pyspiel.GameType.RewardModel
    assert load("sticheln", 3).get_type().reward_model == kinds.TERMINAL
    assert load("the-last", 2, rounds=2).get_type().reward_model == kinds.REWARDS
    assert load("hund", 2).get_type().reward_model == kinds.REWARDS
    assert load("hund", 2, reward_model="terminal").get_type().reward_model == kinds.TERMINAL
    assert load("lowhigh", 3, reward_model="rewards").get_type().reward_model == kinds.REWARDS
    with pytest.raises(Exception, match="reward_model='sometimes' is not one of"):
        load("lowhigh", 3, reward_model="sometimes")


@pytest.mark.parametrize("reward_model", ["terminal", "rewards"])
def test_rewards_follow_the_declared_model(reward_model: str) -> None:
    """Two rounds of The Last: per-round rewards add up to the returns either way;
    under TERMINAL every reward before the end is zero."""
    game = load("the-last", 3, rounds=2, reward_model=reward_model)
    state = game.new_initial_state()
    state.apply_action(5)
    total, nonzero_before_end = np.zeros(3), 0
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
        rewards = np.array(state.rewards())
        total += rewards
        nonzero_before_end += bool(rewards.any()) and not state.is_terminal()
    assert list(total) == state.returns()
    assert (nonzero_before_end == 0) is (reward_model == "terminal")


# --- resampling from an information state ----------------------------------------------------


def walk(game: Any, seed: int, steps: int, rng: np.random.RandomState) -> Any:
    state = game.new_initial_state()
    state.apply_action(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def model_replay(game: Any, sample: Any) -> None:
    """The sample's deals pass the ruleset's deal check, and its moves are legal in the
    model on them (checked afresh, not through the adapter)."""
    ep = game.episode
    model = sample.model_state
    deals = [log.deal for log in model.history] + ([] if model.is_terminal() else [model.info.deal])
    ep.game.ruleset.check_deals(ep.game, deals)
    fresh = ep.game.new_state_from_deals(deals, seed=0)
    for move in sample.history()[1:]:
        fresh = fresh.child(ep.actions[move])  # raises on an illegal action
    assert fresh.observation(0) == model.observation(0)


def sizes(deal: Any) -> list[int]:
    return [len(cards) for _, cards in resample.places(deal)]


def dealt(deal: Any) -> list[int]:
    return [card for _, cards in resample.places(deal) for card in cards]


SAMPLES = 30
POINTS = [
    ("sticheln-1993", 4, 2),  # picks made but hidden (STI93-SELECT-2)
    ("sticheln-1993", 3, 20),
    ("sticheln", 3, 25),
    ("the-last", 2, 14),  # the ghost's face-down pile and the points pile
    ("the-last", 4, 18),  # keep-or-swap decisions made
    ("lowhigh", 3, 30),
    ("hund", 2, 8),  # the virtual player's piles
    ("hund", 3, 38),  # the second round
]


@pytest.mark.parametrize(("ruleset_id", "players", "steps"), POINTS)
def test_resampled_states_are_legal_and_look_the_same(
    ruleset_id: str, players: int, steps: int
) -> None:
    game = load(ruleset_id, players)
    rng = np.random.RandomState(steps)
    state = walk(game, 17, steps, rng)
    assert not state.is_terminal()
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    true_deal = state.model_state.info.deal
    if ruleset_id == "hund":
        assert state.model_state.round_index == (steps > 30)
    moved: Counter[int] = Counter()
    for _ in range(SAMPLES):
        sample = state.resample_from_infostate(player, sampler)
        model_replay(game, sample)
        assert sample.history() == state.history()
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        deal = sample.model_state.info.deal
        assert deal.hands[player] == true_deal.hands[player]
        assert sizes(deal) == sizes(true_deal)  # every hand and pile keeps its size
        assert sorted(dealt(deal)) == sorted(dealt(true_deal))
        moved.update(
            seat
            for seat, hand in enumerate(deal.hands)
            if sorted(hand) != sorted(true_deal.hands[seat])
        )
    others = [s for s in range(game.episode.game.seats) if s != player and true_deal.hands[s]]
    assert sum(moved.values()) >= SAMPLES // 2, moved  # hidden cards differ in most samples
    assert player not in moved
    assert set(moved) <= set(others)


def test_resampling_respects_what_was_seen_and_hidden_picks() -> None:
    """Sticheln 1993 during the picks: a card another seat picked stays in its hand (the
    adapter's choice: see tricklaw.resample), the picker's own sample keeps his pick."""
    game = load("sticheln-1993", 4)
    state = game.new_initial_state()
    state.apply_action(9)
    picks = []
    while state.model_state.phase is Phase.SELECT:
        picks.append((state.current_player(), state.legal_actions()[0]))
        state.apply_action(picks[-1][1])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for player in range(4):
        sample = state.resample_from_infostate(player, sampler)
        for seat, action in picks:
            card = game.episode.actions[action] & 0xFF
            assert card in sample.model_state.info.deal.hands[seat]


def test_resampled_state_serializes_with_its_deal() -> None:
    game = load("the-last", 2)
    state = walk(game, 3, 10, np.random.RandomState(0))
    sample = state.resample_from_infostate(
        state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0)
    )
    again = pickle.loads(pickle.dumps(sample.trail))
    assert again.state == sample.trail.state
    text = pyspiel.serialize_game_and_state(game, sample)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert str(restored) == str(sample)


def test_resampling_before_the_deal_is_the_chance_node() -> None:
    game = load("lowhigh", 3)
    sample = game.new_initial_state().resample_from_infostate(
        0, pyspiel.UniformProbabilitySampler(0.0, 1.0)
    )
    assert sample.is_chance_node()


def test_resampling_is_quick() -> None:
    """ISMCTS resamples once per simulation: a few milliseconds each."""
    game = load("sticheln", 4)
    state = walk(game, 8, 30, np.random.RandomState(1))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    start = time.perf_counter()
    for _ in range(20):
        state.resample_from_infostate(state.current_player(), sampler)
    assert (time.perf_counter() - start) / 20 < 0.1


# --- parameters in OpenSpiel's style --------------------------------------------------------


def test_parameters_are_snake_case() -> None:
    for rid in RULESETS:
        spec = openspiel.game_type(rid).parameter_specification
        assert all("-" not in name for name in spec), rid
    game = load("the-last", 4, unused_points="last-winner")
    assert game.episode.game.options.as_dict()["unused-points"] == "last-winner"
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'unused-points'"):
        pyspiel.load_game("tricklaw_the_last(players=4,unused-points=last-winner)")
