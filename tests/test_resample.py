"""Resampling from an information state keeps the voids the other seats have shown.

* ``Ruleset.ruled_out`` is sound on every ruleset: legality is anti-monotone in the hand,
  so no card a seat really held is ever ruled out (random states of every ruleset, every
  reading);
* the sampler (:func:`tricklaw.resample.redeal`) keeps the exclusions, finds a deal in one
  pass whenever one exists, and is the plain uniform shuffle without exclusions;
* the hard case (:data:`tricklaw.resample_bench.HARD_CASE`: Sticheln 1993, six players,
  must-follow, late in a round) resamples at the first draw where plain rejection needs
  thousands, and ISMCTS searches it;
* across random play prefixes of every ruleset, every resampled state has the player's
  information state (a property test).

The OpenSpiel side of resampling is also checked in ``tests/test_openspiel_search.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import Phase as Stage
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from tricklaw import resample
from tricklaw.model.actions import card_of
from tricklaw.model.agents import random_states
from tricklaw.model.rng import MASK64
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Deal, Phase
from tricklaw.spec.errors import TricklawError

OPTIONS = {rid: [s for s in ruleset.option_specs if s.choices] for rid, ruleset in RULESETS.items()}


@st.composite
def configs(draw: st.DrawFn) -> tuple[str, int, dict[str, Any], int]:
    """A ruleset, a player count, a reading of every choice option and a seed."""
    rid = draw(st.sampled_from(sorted(RULESETS)))
    players = draw(st.sampled_from(RULESETS[rid].player_counts))
    options = {s.name: draw(st.sampled_from(s.choices)) for s in OPTIONS[rid]}
    return rid, players, options, draw(st.integers(0, MASK64))


# --- the model's hook: sound on every ruleset ------------------------------------------------


@pytest.mark.slow
@settings(max_examples=40, deadline=None, database=None)
@given(config=configs(), data=st.data())
def test_no_card_a_seat_held_is_ruled_out(config: Any, data: st.DataObject) -> None:
    """At random states, for each legal action and any part of the hand that holds the
    action's card, ``ruled_out`` rules out none of the hand's other cards (the hand was
    there and the action legal): the soundness the sampler relies on, which holds when
    legality is anti-monotone in the hand."""
    rid, players, options, seed = config
    game = get_ruleset(rid).make_game(players, options)
    ruleset = game.ruleset
    states = [s for s in random_states(game, seed, max_rounds=1) if not s.is_terminal()]
    for state in data.draw(st.lists(st.sampled_from(states), min_size=1, max_size=6)):
        hand = state.hands[state.current]
        for action in state.legal_actions():
            own = {card_of(action)} & set(hand)
            kept = {c for c in hand if c in own or data.draw(st.booleans())}
            rest = [c for c in hand if c not in kept]
            held = tuple(c for c in hand if c in kept)
            assert not ruleset.ruled_out(state, action, held, rest), (rid, state.phase, action)


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_round_decisions_replay_the_round_to_the_state(rid: str) -> None:
    """Playing the round again from its start reaches the state itself, each decision
    taken by the seat to act then (two rounds: the second starts from the history)."""
    ruleset = RULESETS[rid]
    game = ruleset.make_game(ruleset.player_counts[0])
    for i, state in enumerate(random_states(game, 3, max_rounds=2)):
        if state.is_terminal() or i % 5:
            continue
        decisions = resample.round_decisions(state)
        assert [(seat, action) for _, seat, action in decisions] == list(state.actions)
        assert all(now.current == seat for now, seat, _ in decisions)
        if decisions:
            now, _, action = decisions[-1]
            assert now.child(action) == state


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_the_true_deal_keeps_every_exclusion(rid: str) -> None:
    """Along a random round, the cards ruled out of a seat are never in its true hand."""
    ruleset = RULESETS[rid]
    game = ruleset.make_game(ruleset.player_counts[-1])
    for i, state in enumerate(random_states(game, 5, max_rounds=1)):
        if state.is_terminal() or i % 7:
            continue
        seat = state.current
        known = resample.known_cards(state, seat, [])
        for other, cards in resample.exclusions(state, seat, known).items():
            assert not cards & set(state.info.deal.hands[other]), (rid, i, other)
            assert not cards & known


# --- the sampler --------------------------------------------------------------------------------


def hands_deal(sizes: list[int]) -> Deal:
    cards, hands = iter(range(100)), []
    for size in sizes:
        hands.append(tuple(next(cards) for _ in range(size)))
    return Deal(tuple(hands), (("aside", (90, 91)),))


def test_redeal_keeps_exclusions_and_always_finds_the_one_deal() -> None:
    """Seat 1 may hold only cards 0-2 and seat 2 none of them: one arrangement of the
    hands is possible, and every draw finds it; the pile takes what is left."""
    deal = hands_deal([3, 3, 3, 3])  # seat 0's own 0-2, seat 1: 3-5, seat 2: 6-8, seat 3: 9-11
    excluded = {1: frozenset(range(6, 12)) | {90, 91}, 2: frozenset(range(3, 6))}
    rng = random.Random(3)
    seen = Counter()
    for _ in range(200):
        out = resample.redeal(deal, 0, set(deal.hands[0]), rng.random, excluded)
        assert sorted(out.hands[1]) == [3, 4, 5]
        assert not set(out.hands[2]) & excluded[2]
        assert out.hands[0] == deal.hands[0]
        seen[tuple(sorted(out.hands[2]))] += 1
    assert len(seen) > 5  # the other cards still move


def test_redeal_without_exclusions_is_uniform() -> None:
    """Each hidden card lands in each hidden position about equally often."""
    deal = hands_deal([2, 2, 2])
    rng = random.Random(1)
    counts = Counter()
    n = 3000
    for _ in range(n):
        out = resample.redeal(deal, 0, {0, 1}, rng.random)
        counts.update((seat, card) for seat in (1, 2) for card in out.hands[seat])
    for seat in (1, 2):
        for card in (2, 3, 4, 5, 90, 91):
            assert abs(counts[seat, card] / n - 2 / 6) < 0.04, (seat, card)


def test_fill_refuses_impossible_exclusions() -> None:
    """Exclusions no deal keeps (a ruleset breaking the assumption of ``ruled_out``) are
    dropped by ``redeal``: the deal is still made, and the replay decides."""
    order = [("hand", 1), ("hand", 1), ("hand", 2)]
    masks = resample.masks(order, [5, 6, 7], {1: frozenset({5, 6})})
    assert resample.fill(order, [5, 6, 7], masks, random.Random(0).random) is None
    deal = Deal(((0,), (5, 6), (7,)))
    out = resample.redeal(deal, 0, {0}, random.Random(0).random, {1: frozenset({5, 6})})
    assert sorted(c for hand in out.hands for c in hand) == [0, 5, 6, 7]


# --- OpenSpiel: the hard case and every ruleset ------------------------------------------------

pyspiel = pytest.importorskip("pyspiel")  # the openspiel extra (the test extra includes it)

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from tricklaw import openspiel  # noqa: E402
from tricklaw.resample_bench import HARD_CASE, reach  # noqa: E402


@pytest.fixture(scope="module")
def hard() -> Any:
    return reach(HARD_CASE)


def keeps(deal: Deal, excluded: dict[int, frozenset[int]]) -> bool:
    return all(not set(deal.hands[seat]) & cards for seat, cards in excluded.items())


def test_the_hard_case_is_hard_for_plain_rejection(hard: Any) -> None:
    """Late in a six-player must-follow round, the other seats' voids are many: plain
    redeals keep them about once in 5,000 (none in 300 here), so rejection alone needs
    thousands of replays for one sample."""
    player = hard.current_player()
    _, known, excluded = hard.trail.infostate(player)
    deal = hard.model_state.info.deal
    assert sum(map(len, excluded.values())) >= 30
    assert keeps(deal, excluded)
    draw = random.Random(0).random
    kept = sum(keeps(resample.redeal(deal, player, known, draw), excluded) for _ in range(300))
    assert kept == 0


def test_the_hard_case_resamples_at_the_first_draw(hard: Any) -> None:
    player = hard.current_player()
    own = hard.information_state_string(player)
    tensor = hard.information_state_tensor(player)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(25):
        sample, tries = hard.resample_counted(player, sampler)
        assert tries == 1
        assert sample.information_state_string(player) == own
        assert sample.information_state_tensor(player) == tensor
        assert sample.legal_actions() == hard.legal_actions()
        hands.add(sample.model_state.info.deal.hands)
    assert len(hands) > 20  # the hidden cards still move


def test_ismcts_searches_the_hard_case(hard: Any) -> None:
    """ISMCTS resamples once per simulation: before the voids were kept, each of these
    took thousands of replays (and failed now and then after 10,000)."""
    game = hard.get_game()
    evaluator = mcts.RandomRolloutEvaluator(1, __import__("numpy").random.RandomState(2))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=None)
    assert bot.step(hard) in hard.legal_actions()


def snake(options: dict[str, Any]) -> str:
    return "".join(f",{k.replace('-', '_')}={v}" for k, v in options.items())


@settings(max_examples=12, deadline=None, database=None, phases=(Stage.explicit, Stage.generate))
@given(config=configs(), steps=st.integers(0, 80), pick=st.integers(0, 5))
def test_every_resample_has_the_players_information_state(
    config: Any, steps: int, pick: int
) -> None:
    """A random play prefix of a random table and reading; a random player's resample has
    his information state, and its deal keeps the exclusions."""
    rid, players, options, seed = config
    try:
        game = pyspiel.load_game(f"{openspiel.short_name(rid)}(players={players}{snake(options)})")
    except TricklawError:  # a game without a bounded length (a target total) is refused
        reject()
    rng = random.Random(seed)
    state = game.new_initial_state()
    state.apply_action(seed % game.episode.deals)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    player = pick % players
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        if not state.is_terminal() and state.model_state.phase is not Phase.OVER:
            _, _, excluded = state.trail.infostate(player)
            assert keeps(sample.model_state.info.deal, excluded)
