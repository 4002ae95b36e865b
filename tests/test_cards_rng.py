"""Card notation, actions in notation, and the portable SplitMix64 shuffle."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tier import examples

from tricklaw.model.actions import (
    ActionKind,
    action_to_string,
    card_of,
    kind_of,
    play,
    select,
    string_to_action,
)
from tricklaw.model.cards import colour_of, make_card, value_of
from tricklaw.model.rng import MASK64, SplitMix64, agent_rng, round_seed, shuffled
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.spec.errors import CardError

clause = pytest.mark.clause

SEED0 = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC)


def _vectors() -> dict:
    text = resources.files("tricklaw.spec").joinpath("shuffle-vectors.json").read_text("utf-8")
    return json.loads(text)


def _every_card(ruleset_id: str) -> list[int]:
    """Every card any game of the ruleset can use (the whole deck where an option allows it)."""
    ruleset = get_ruleset(ruleset_id)
    cards: set[int] = set()
    for players in ruleset.player_counts:
        cards |= set(ruleset.deck(players, ruleset.make_game(players).options))
    return sorted(cards)


# --- card notation ----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_card_round_trips_through_notation(ruleset_id: str) -> None:
    palette = get_ruleset(ruleset_id).palette
    cards = _every_card(ruleset_id)
    if ruleset_id.startswith("sticheln"):
        assert len(cards) == 90
    assert len(cards) >= 40
    for card in cards:
        text = palette.format(card)
        assert text == f"{palette.letters[colour_of(card)]}{value_of(card)}"
        assert palette.parse(text) == card
        assert palette.parse(text.lower()) == card
        assert palette.format(palette.parse(text)) == text


@pytest.mark.parametrize(
    ("ruleset_id", "text", "colour", "value"),
    [
        ("sticheln-1993", "R0", 0, 0),
        ("sticheln-1993", "O14", 1, 14),
        ("sticheln-1993", "P6", 5, 6),
        ("sticheln", "Y9", 1, 9),
        ("sticheln", "A14", 5, 14),
        ("sticheln", " b3 ", 3, 3),
    ],
)
def test_parse_gives_colour_and_value(ruleset_id: str, text: str, colour: int, value: int) -> None:
    card = get_ruleset(ruleset_id).palette.parse(text)
    assert (colour_of(card), value_of(card)) == (colour, value)
    assert card == make_card(colour, value)


@pytest.mark.parametrize(
    ("ruleset_id", "text", "problem"),
    [
        ("sticheln", "", "is not a card"),
        ("sticheln", "R", "is not a card"),
        ("sticheln", "Z5", "unknown colour 'Z'"),
        ("sticheln", "O5", "unknown colour 'O'"),  # orange is a 1993 colour only
        ("sticheln-1993", "A5", "unknown colour 'A'"),  # grey is a later-edition colour only
        ("sticheln", "Rx", "not a whole number"),
        ("sticheln", "R-1", "not a whole number"),
        ("sticheln", "R1.5", "not a whole number"),
        ("sticheln", "R\u00b2", "not a whole number"),
        ("sticheln", "R32", "out of range"),
        ("sticheln", "R999", "out of range"),
    ],
)
def test_bad_card_raises_card_error_naming_the_problem(
    ruleset_id: str, text: str, problem: str
) -> None:
    with pytest.raises(CardError) as info:
        get_ruleset(ruleset_id).palette.parse(text)
    assert problem in str(info.value)
    assert repr(text) in str(info.value)


def test_unknown_colour_error_lists_the_palette() -> None:
    with pytest.raises(CardError, match=r"R=red, Y=yellow, G=green, B=blue, P=purple, A=grey"):
        get_ruleset("sticheln").palette.parse("X1")


@settings(max_examples=examples(200), deadline=None, database=None)
@given(ruleset_id=st.sampled_from(list(RULESETS)), text=st.text(max_size=6))
def test_parse_of_any_text_is_a_card_or_a_card_error(ruleset_id: str, text: str) -> None:
    palette = get_ruleset(ruleset_id).palette
    try:
        card = palette.parse(text)
    except CardError:
        return
    assert 0 <= colour_of(card) < len(palette.letters)
    assert 0 <= value_of(card) < 32
    assert palette.parse(palette.format(card)) == card


# --- actions in notation ----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_action_round_trips_through_notation(ruleset_id: str) -> None:
    palette = get_ruleset(ruleset_id).palette
    for card in _every_card(ruleset_id):
        for action, kind in ((play(card), ActionKind.PLAY), (select(card), ActionKind.SELECT)):
            assert kind_of(action) is kind
            assert card_of(action) == card
            text = action_to_string(action, palette)
            assert string_to_action(text, palette) == action
    assert action_to_string(select(palette.parse("R5")), palette) == "select R5"
    assert action_to_string(play(palette.parse("R5")), palette) == "R5"


@pytest.mark.parametrize("text", ["play R5", "R5 R6", "select", "select R5 R6", ""])
def test_bad_action_text_raises_card_error(text: str) -> None:
    with pytest.raises(CardError):
        string_to_action(text, get_ruleset("sticheln").palette)


# --- SplitMix64 and the shuffle ---------------------------------------------------------------


def test_splitmix64_seed0_gives_published_reference_outputs() -> None:
    rng = SplitMix64(0)
    assert tuple(rng.next_u64() for _ in range(4)) == SEED0


def test_shuffle_vectors_file_carries_the_published_outputs() -> None:
    assert [int(h, 16) for h in _vectors()["splitmix64_seed0"]] == list(SEED0)


def test_seed_is_taken_mod_2_64() -> None:
    a, b = SplitMix64(2**64 + 5), SplitMix64(5)
    assert [a.next_u64() for _ in range(3)] == [b.next_u64() for _ in range(3)]


def test_below_is_next_mod_n() -> None:
    a, b = SplitMix64(99), SplitMix64(99)
    for n in (1, 2, 7, 45, 90, 2**40 + 3):
        assert a.below(n) == b.next_u64() % n
    with pytest.raises(ValueError):
        SplitMix64(1).below(0)


def _reference_shuffle(items: list[int], seed: int) -> list[int]:
    """Durstenfeld from the end, as the rng module's docstring specifies it."""
    rng = SplitMix64(seed)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.next_u64() % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize("case", _vectors()["shuffles"], ids=lambda c: f"n{c['n']}-s{c['seed']}")
def test_shuffle_vectors_reproduced(case: dict) -> None:
    got = shuffled(list(range(case["n"])), SplitMix64(case["seed"]))
    assert got == case["permutation"]
    assert sorted(got) == list(range(case["n"]))


@pytest.mark.parametrize(
    "case", _vectors()["round_seeds"], ids=lambda c: f"{c['seed']}-{c['round']}"
)
def test_round_seed_vectors_reproduced(case: dict) -> None:
    assert round_seed(case["seed"], case["round"]) == int(case["round_seed"], 16)


@pytest.mark.parametrize(
    "case", _vectors()["deals"], ids=lambda c: f"{c['ruleset']}-{c['players']}-{c['seed']}"
)
def test_deal_vectors_reproduced(case: dict) -> None:
    game = get_ruleset(case["ruleset"]).make_game(case["players"], case["options"])
    state = game.new_initial_state(case["seed"])
    hands = [game.ruleset.palette.format_all(h) for h in state.info.deal.hands]
    assert hands == case["hands"]


def test_shuffle_of_small_list_is_a_permutation() -> None:
    items = list("abcdefghij")
    out = shuffled(items, SplitMix64(3))
    assert sorted(out) == items
    assert out != items
    assert items == list("abcdefghij")  # the input is left alone


@settings(max_examples=60, deadline=None, database=None)
@given(seed=st.integers(0, MASK64), rounds=st.integers(0, 12))
def test_round_seed_is_the_rth_output_of_splitmix64(seed: int, rounds: int) -> None:
    rng = SplitMix64(seed)
    outputs = [rng.next_u64() for _ in range(rounds + 1)]
    assert round_seed(seed, rounds) == outputs[rounds]


@settings(max_examples=60, deadline=None, database=None)
@given(items=st.lists(st.integers()), seed=st.integers(0, MASK64))
def test_shuffle_is_a_deterministic_permutation(items: list[int], seed: int) -> None:
    once = shuffled(items, SplitMix64(seed))
    again = shuffled(items, SplitMix64(seed))
    assert once == again
    assert sorted(once) == sorted(items)
    assert once == _reference_shuffle(items, seed)


def test_agent_rng_is_splitmix64_of_the_complemented_seed() -> None:
    a, b = agent_rng(12345), SplitMix64(12345 ^ MASK64)
    assert [a.next_u64() for _ in range(3)] == [b.next_u64() for _ in range(3)]
