"""The OpenSpiel adapter (:mod:`tricklaw.openspiel`), when the ``openspiel`` extra is
installed.

* OpenSpiel's own ``random_sim_test`` (legal actions, chance outcomes, cloning,
  serialization, observation and information-state tensors, returns within the
  utility bounds, game length) passes on every ruleset and player count, and on
  option variants and multi-round episodes.
* A pyspiel game and the tricklaw model agree, action by action, on seeded games.
* What a player's views show: hidden picks, keep-or-swap decisions and other hands
  stay hidden; information states recall what earlier observations showed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tricklaw import episodes
from tricklaw.model.agents import play_random_game
from tricklaw.model.rng import agent_rng
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import Deal, Phase
from tricklaw.spec.errors import OptionError

pyspiel = pytest.importorskip("pyspiel")  # the openspiel extra (the test extra includes it)

# After the skip, as it needs pyspiel; imported plainly, so a defect in it fails the tests.
from tricklaw import infostates, openspiel  # noqa: E402

clause = pytest.mark.clause
CASES = [(rid, n) for rid, ruleset in RULESETS.items() for n in ruleset.player_counts]
SIMS = 2
VARIANTS = [
    "tricklaw_sticheln_1993(players=5,follow=must-follow,deck=full,all_zero=no-winner,rounds=2)",
    "tricklaw_sticheln(players=3,zero_lead=first-nonzero,round_leader=youngest,rounds=0)",
    "tricklaw_the_last(players=4,unused_points=last-winner,last_play=free,rounds=2)",
    "tricklaw_the_last(players=2,ghost_play=first-legal,ghost_seat=fixed,rounds=2)",
    "tricklaw_lowhigh(players=4,same_card=among-rest,first_leader=seat0,rounds=2)",
    "tricklaw_hund(players=2,designation_mode=sets,set_suits=any,set_repeat=stack,"
    "set_match=value,more_cards=yes,values=from-0,virtual_odd=extra-up)",
    "tricklaw_hund(players=3,trump_timing=from-card,hund_tie=scores,lead_tie=earliest,"
    "designation=ascending,virtual_hund=ignored)",
]


def load(ruleset_id: str, players: int, **params: Any) -> Any:
    text = ",".join(f"{k}={v}" for k, v in {"players": players, **params}.items())
    return pyspiel.load_game(f"{episodes.short_name(ruleset_id)}({text})")


def ids_to_actions(game: Any, ids: list[int]) -> tuple[int, ...]:
    return tuple(game.episode.actions[i] for i in ids)


# --- OpenSpiel's own test of a game --------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset_id", "players"), CASES)
def test_random_sim_test(ruleset_id: str, players: int) -> None:
    game = load(ruleset_id, players)
    assert game.get_type().short_name == episodes.short_name(ruleset_id)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIANTS)
def test_random_sim_test_of_variants(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
def test_openspiel_algorithms_run_on_the_games() -> None:
    """Outcome-sampling MCCFR (keyed by information-state strings) and the RL environment
    (information-state tensors, rewards) play The Last with its ghost."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load("the-last", 2)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(5):
        solver.iteration()
    dealt = game.new_initial_state().child(3)
    probs = solver.average_policy().action_probabilities(dealt)
    assert set(probs) == set(dealt.legal_actions())
    assert sum(probs.values()) == pytest.approx(1)
    env = rl_environment.Environment(game, seed=1)
    step = env.reset()
    total = [0.0, 0.0]
    rng = np.random.RandomState(1)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
        total = [t + r for t, r in zip(total, step.rewards, strict=True)]
    assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
    assert total == env.get_state.returns()
    assert all(t <= 0 for t in total)  # negated penalties


@pytest.mark.slow
def test_import_registers_every_game_and_the_process_exits_cleanly(tmp_path: Path) -> None:
    """OpenSpiel keeps the registered makers past the interpreter's shutdown; a maker it
    cannot release then aborts the process (exit status 134) after the work is done."""
    code = "import pyspiel, tricklaw.openspiel; pyspiel.load_game('tricklaw_hund(players=2)')"
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    names = set(pyspiel.registered_names())
    assert {episodes.short_name(rid) for rid in RULESETS} <= names
    openspiel.register()  # again: harmless
    assert load("hund", 2).num_players() == 2


# --- agreement with the model ---------------------------------------------------------------


def play_along(ruleset_id: str, players: int, seed: int, **params: Any) -> None:
    """Play the pyspiel game and the model side by side with the model's random agent of
    ``seed``; they must agree at every step, and end where ``play_random_game`` ends."""
    game = load(ruleset_id, players, **params)
    ep = game.episode
    model = ep.game.new_initial_state(seed)
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(seed)
    below = agent_rng(seed).below
    rounds_done = 0
    while not model.is_terminal():
        assert not state.is_terminal()
        assert state.current_player() == model.current_player()
        legal = model.legal_actions()
        assert ids_to_actions(game, state.legal_actions()) == legal
        action = legal[below(len(legal))]
        model = model.child(action)
        state.apply_action(ep.ids[action])
        assert state.returns() == [ep.sign * t for t in model.returns()[:players]]
        if len(model.history) > rounds_done:  # a round ended: its scores are the rewards
            scores = model.history[-1].scores[:players]
            assert state.rewards() == [ep.sign * s for s in scores]
            rounds_done = len(model.history)
        else:
            assert state.rewards() == [0.0] * players
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    reference = play_random_game(ep.game, seed)
    assert state.returns() == [ep.sign * t for t in reference.returns()[:players]]
    assert state.model_state.serialize() == reference.serialize()


@pytest.mark.parametrize(
    ("ruleset_id", "players"), [(rid, r.player_counts[0]) for rid, r in RULESETS.items()]
)
def test_pyspiel_and_model_agree_on_a_seeded_game(ruleset_id: str, players: int) -> None:
    play_along(ruleset_id, players, seed=7)


@clause("HUND-GAME-1", "LAST-GAME-1")
def test_multi_round_episodes_agree_with_the_model() -> None:
    """Hund's episode is its whole game of five rounds; the others take ``rounds``.
    The Last's returns are its penalties negated, since the smallest penalty wins."""
    play_along("sticheln", 4, seed=3, rounds=2)
    play_along("the-last", 3, seed=5, rounds=2)
    play_along("hund", 3, seed=11)
    assert load("hund", 3).episode.rounds == 5
    assert load("the-last", 3).episode.sign == -1
    assert load("lowhigh", 3).episode.sign == 1


def test_chance_node_is_the_game_seed() -> None:
    game = load("sticheln", 4, deals=8)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(8))
    assert all(p == pytest.approx(1 / 8) for _, p in outcomes)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 5) == "deal seed 5"
    state.apply_action(5)
    assert state.model_state == game.episode.game.new_initial_state(5)
    assert game.max_chance_outcomes() == 8
    assert load("sticheln", 4).max_chance_outcomes() == episodes.DEFAULT_DEALS


def test_serialization_round_trip_mid_game() -> None:
    game = load("the-last", 2, rounds=2)
    state = game.new_initial_state()
    state.apply_action(42)
    for _ in range(30):
        state.apply_action(state.legal_actions()[-1])
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert state2.model_state.serialize() == state.model_state.serialize()
    for p in range(game.num_players()):
        assert state2.information_state_string(p) == state.information_state_string(p)
        assert state2.information_state_tensor(p) == state.information_state_tensor(p)
    state.apply_action(state.legal_actions()[0])
    state2.apply_action(state2.legal_actions()[0])
    assert str(state2) == str(state)


# --- parameters and bounds ------------------------------------------------------------------


@clause("STI93-D-END")
def test_bad_parameters_are_refused_in_one_line() -> None:
    cases = {
        "tricklaw_hund(players=7)": "hund is for 2-5 players, not 7",
        "tricklaw_sticheln_1993(players=3,follow=maybe)": "option follow has no reading 'maybe'",
        "tricklaw_sticheln_1993(players=3,end=target)": "no bounded length",
        "tricklaw_sticheln(players=3,deals=0)": "deals=0 is outside 1..",
        "tricklaw_the_last(players=3,rounds=0)": "option rounds=0 is outside 1..",
    }
    for name, message in cases.items():
        with pytest.raises(OptionError, match=message) as info:
            pyspiel.load_game(name)
        assert "\n" not in str(info.value)
    # OpenSpiel itself checks names and types against the parameter specification.
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("tricklaw_hund(players=3,colour=red)")
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter players"):
        pyspiel.load_game("tricklaw_lowhigh(players=four)")


def test_utility_bounds_are_the_proved_round_bounds() -> None:
    """The values of tests/test_bounds.py, times the rounds; The Last's negated."""
    assert load("sticheln", 4).episode.utility == (-65, 48)
    assert load("sticheln", 4, rounds=3).episode.utility == (-195, 144)
    assert load("the-last", 4).episode.utility == (-102, 0)
    assert load("hund", 5).episode.utility == (-50, 65)  # five rounds of -10 .. 13
    assert load("lowhigh", 6).episode.proved
    reading = load("the-last", 4, unused_points="last-winner").episode
    assert reading.proved and reading.utility == (-132, 0)  # a proved reading's bounds
    assert load("hund", 2, virtual_hund="ignored").episode.utility == (-30, 30)
    coarse = load("the-last", 4, unused_points="last-winner", last_play="free").episode
    assert not coarse.proved  # a combination no bound is proved under
    assert coarse.utility == (-(4 * 78 + 3), 4 * 78 + 3)  # each card once, at most its value


def test_action_ids_cover_the_rulesets_actions_in_order() -> None:
    for rid, ruleset in RULESETS.items():
        game = ruleset.make_game(ruleset.player_counts[-1])
        universe = episodes.action_universe(game)
        assert list(universe) == sorted(set(universe))
        deck = len(ruleset.deck(game.players, game.options))
        assert len(universe) >= deck
        final = play_random_game(game, 1)
        for log in final.history:
            assert {a for _, a in log.actions} <= set(universe), rid
            assert len(log.actions) <= ruleset.max_decisions(game), rid


# --- what the views show --------------------------------------------------------------------


def views(state: Any, player: int) -> tuple[Any, ...]:
    return (
        state.observation_string(player),
        state.observation_tensor(player),
        state.information_state_string(player),
        state.information_state_tensor(player),
    )


@clause("STI93-SELECT-1", "STI93-SELECT-2", "STI-SELECT-2")
@pytest.mark.parametrize("ruleset_id", ["sticheln-1993", "sticheln"])
def test_a_pick_stays_hidden_until_all_are_revealed(ruleset_id: str) -> None:
    game = load(ruleset_id, 4)
    picker_a, picker_b = game.new_initial_state(), game.new_initial_state()
    picker_a.apply_action(9)
    picker_b.apply_action(9)
    picker = picker_a.current_player()
    first, second = picker_a.legal_actions()[:2]
    picker_a.apply_action(first)
    picker_b.apply_action(second)
    others = [p for p in range(4) if p != picker]
    for p in others:
        assert views(picker_a, p) == views(picker_b, p)
    assert views(picker_a, picker)[0] != views(picker_b, picker)[0]
    while picker_a.model_state.phase is Phase.SELECT:
        action = picker_a.legal_actions()[0]
        picker_a.apply_action(action)
        picker_b.apply_action(action)
    for p in others:  # all picks face up together
        assert views(picker_a, p)[0] != views(picker_b, p)[0]


@clause("LAST-COLLECT-1")
def test_the_others_do_not_see_whether_the_taker_kept_or_swapped() -> None:
    game = load("the-last", 4)
    state = game.new_initial_state()
    state.apply_action(3)
    while state.model_state.phase is not Phase.CHOOSE:
        state.apply_action(state.legal_actions()[0])
    taker = state.current_player()
    keep, swap = state.clone(), state.clone()
    keep_id, swap_id = state.legal_actions()[:2]
    assert state.action_to_string(taker, keep_id) == "keep"
    keep.apply_action(keep_id)
    swap.apply_action(swap_id)
    for p in range(4):
        same = views(keep, p) == views(swap, p)
        assert same is (p != taker)


def with_deal(game: Any, deal: Deal) -> Any:
    """A pyspiel state of ``game`` just after an explicitly given deal."""
    ep = game.episode
    model = ep.game.new_state_from_deals([deal], seed=0)
    state = game.new_initial_state()
    lens = infostates.lens_of(ep)
    opening = infostates.Opening((0, 0), model)
    state.trail = infostates.Trail(lens, (0,), model, (opening,), (0.0,) * ep.players)
    return state


def hidden_swap(deal: Deal) -> Deal:
    """``deal`` with the last card of seat 1 exchanged for the first of seat 2 or, where
    seat 2 is The Last's ghost, for the last card of its face-down pile."""
    hands = [list(h) for h in deal.hands]
    piles = dict(deal.piles)
    if hands[2]:
        hands[1][-1], hands[2][0] = hands[2][0], hands[1][-1]
    else:
        ghost = list(piles["ghost"])
        hands[1][-1], ghost[-1] = ghost[-1], hands[1][-1]
        piles["ghost"] = tuple(ghost)
    return Deal(tuple(map(tuple, hands)), tuple(piles.items()), deal.first_leader, deal.extras)


@pytest.mark.parametrize(("ruleset_id", "players"), [("lowhigh", 3), ("hund", 4), ("the-last", 2)])
def test_other_hands_do_not_show(ruleset_id: str, players: int) -> None:
    """Two deals that differ only in cards that seat 0 cannot see look the same to seat 0,
    at the deal and as long as the same plays stay legal in both."""
    game = load(ruleset_id, players)
    deal = game.episode.game.new_initial_state(4).info.deal
    a, b = with_deal(game, deal), with_deal(game, hidden_swap(deal))
    assert views(a, 1) != views(b, 1)
    steps = 0
    while steps < 12:
        assert views(a, 0) == views(b, 0)
        action = a.legal_actions()[0]
        if action not in b.legal_actions():
            break
        a.apply_action(action)
        b.apply_action(action)
        steps += 1
    assert steps > 0


def test_information_state_recalls_each_trick_opening() -> None:
    """The observation a player had as each trick began is in his information state
    (The Last: the points card turned up for that trick, gone from later observations)."""
    game = load("the-last", 3)
    state = game.new_initial_state()
    state.apply_action(21)
    seen: dict[tuple[int, int], list[Any]] = {}
    while not state.is_terminal():
        model = state.model_state
        slot = (model.round_index, len(model.tricks))
        seen.setdefault(slot, [np.array(state.observation_tensor(p)) for p in range(3)])
        state.apply_action(state.legal_actions()[-1])
    observer = openspiel.TricklawObserver(infostates.lens_of(game.episode), perfect_recall=True)
    for p in range(3):
        observer.set_from(state, p)
        for slot, tensors in seen.items():
            assert np.array_equal(observer.dict["openings"][slot], tensors[p]), slot
        text = state.information_state_string(p)
        assert text.count("\nopening ") == len(seen)
        assert text.count("\ntrick ") == game.episode.tricks


def test_views_before_the_deal_and_their_sizes() -> None:
    game = load("sticheln", 6)
    state = game.new_initial_state()
    assert state.observation_string(0) == "seat 0: the deal is to come"
    assert not any(state.information_state_tensor(0))
    layout = infostates.lens_of(game.episode).layout
    assert game.observation_tensor_size() == layout.size
    names = [piece.name for piece in layout.pieces]
    assert names == list(game.episode.game.new_initial_state(0).observation(0))
