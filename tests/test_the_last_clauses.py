"""One or more unit tests per normative clause and dispute of The Last (``the-last``).

Clauses have the prefix LAST. Each test names the clauses and disputes it exercises with the
``clause`` marker. Scores are penalty points: lower is better.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tricklaw.model.actions import KEEP, play, string_to_action, swap
from tricklaw.model.agents import play_random_game
from tricklaw.model.cards import Card, value_of
from tricklaw.model.record import to_record
from tricklaw.model.replay.records import replay
from tricklaw.model.rng import SplitMix64, round_seed, shuffled
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.rulesets.the_last import GHOST, HAND_SIZE, judge, penalty
from tricklaw.model.state import Deal, Game, Phase, State
from tricklaw.proofs.examples import check_examples
from tricklaw.spec import load_registry
from tricklaw.spec.errors import CardError, IllegalActionError, OptionError

clause = pytest.mark.clause

LAST = "the-last"


# --- helpers ----------------------------------------------------------------------------------


def make(players: int, options: Mapping[str, Any] | None = None) -> Game:
    return get_ruleset(LAST).make_game(players, dict(options or {}))


def cards(*texts: str) -> list[Card]:
    return get_ruleset(LAST).palette.parse_all(texts)


def names(cs: Sequence[Card]) -> list[str]:
    return get_ruleset(LAST).palette.format_all(cs)


def run(colour: str, low: int, high: int) -> list[str]:
    return [f"{colour}{v}" for v in range(low, high + 1)]


def act(state: State[Any], text: str) -> State[Any]:
    return state.child(string_to_action(text, get_ruleset(LAST).palette))


def legal(state: State[Any]) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


# Three players, 12 cards each; the points pile is G1..G6 then B7..B12 (top first).
HANDS3 = {
    0: run("R", 1, 6) + run("Y", 7, 12),
    1: run("R", 7, 12) + run("G", 7, 12),
    2: run("Y", 1, 6) + run("B", 1, 6),
}
POINTS3 = run("G", 1, 6) + run("B", 7, 12)

# Two players and the ghost: the ghost's pile (top first) alternates blue and green.
HANDS2 = {0: run("R", 1, 6) + run("Y", 1, 6), 1: run("R", 7, 12) + run("G", 7, 12)}
GHOST_PILE = [f"{c}{v}" for v in range(1, 7) for c in "BG"]
POINTS2 = run("Y", 7, 12) + run("B", 7, 12)


def deal3(first: int) -> Deal:
    return Deal(
        tuple(tuple(cards(*HANDS3[s])) for s in range(3)),
        (("points", tuple(cards(*POINTS3))),),
        first_leader=first,
    )


def deal2(first: int) -> Deal:
    return Deal(
        (tuple(cards(*HANDS2[0])), tuple(cards(*HANDS2[1])), ()),
        (("ghost", tuple(cards(*GHOST_PILE))), ("points", tuple(cards(*POINTS2)))),
        first_leader=first,
    )


def start3(first: int = 0, options: Mapping[str, Any] | None = None) -> State[Any]:
    return make(3, options).new_state_from_deals([deal3(first)])


def start2(first: int = 0, options: Mapping[str, Any] | None = None) -> State[Any]:
    return make(2, options).new_state_from_deals([deal2(first)])


def finish_round(state: State[Any]) -> State[Any]:
    """Take the first legal action (KEEP when deciding) until the round in play ends."""
    rounds = len(state.history)
    while len(state.history) == rounds and not state.is_terminal():
        state = state.child(state.legal_actions()[0])
    return state


def states_of(state: State[Any]) -> list[State[Any]]:
    """Every state from ``state`` to the end of the game, taking the first legal action."""
    out = [state]
    while not state.is_terminal():
        state = state.child(state.legal_actions()[0])
        out.append(state)
    return out


# --- players, deck, deal ----------------------------------------------------------------------


@clause("LAST-SETUP-1", "LAST-GHOST-1")
def test_two_to_five_players_and_two_players_get_a_ghost_seat() -> None:
    ruleset = get_ruleset(LAST)
    assert ruleset.player_counts == (2, 3, 4, 5)
    assert [ruleset.make_game(n).seats for n in (2, 3, 4, 5)] == [3, 3, 4, 5]
    for n in (0, 1, 6, 7):
        with pytest.raises(OptionError, match=rf"2-5 players, not {n}"):
            ruleset.make_game(n)


@clause("LAST-DECK-1")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deck_is_48_cards_four_colours_1_to_12(players: int) -> None:
    game = make(players)
    deck = game.ruleset.deck(players, game.options)
    assert len(deck) == len(set(deck)) == 48
    assert set(names(deck)) == {f"{c}{v}" for c in "RYGB" for v in range(1, 13)}
    assert game.ruleset.palette.letters == ("R", "Y", "G", "B")
    assert "R0" not in names(deck) and "R13" not in names(deck)


@clause("LAST-DEAL-1", "LAST-DEAL-2", "LAST-GHOST-1", "LAST-GHOST-2")
@pytest.mark.parametrize(
    ("players", "hand", "ghost", "points"),
    [(2, 12, 12, 12), (3, 12, 0, 12), (4, 9, 0, 12), (5, 8, 0, 8)],
)
def test_hand_sizes_and_the_points_pile(players: int, hand: int, ghost: int, points: int) -> None:
    game = make(players)
    assert HAND_SIZE[players] == hand
    for seed in (0, 1, 2):
        state = game.new_initial_state(seed)
        deal = state.info.deal
        assert [len(h) for h in deal.hands[:players]] == [hand] * players
        assert len(deal.pile("ghost")) == ghost
        assert len(deal.pile("points")) == points
        everything = [c for h in deal.hands for c in h] + [c for _, p in deal.piles for c in p]
        assert sorted(everything) == sorted(game.ruleset.deck(players, game.options))
        if players == 2:
            assert deal.hands[GHOST] == ()  # the ghost is dealt a pile, not a hand
            assert sorted(state.hands[GHOST]) == sorted(deal.pile("ghost"))


@clause("LAST-DEAL-1", "LAST-DEAL-2", "LAST-GHOST-1", "LAST-GHOST-2", "LAST-LEAD-1")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 7, 123456789])
def test_the_cut_hands_then_ghost_pile_then_points_pile_then_a_first_player(
    players: int, seed: int
) -> None:
    game = make(players)
    rng = SplitMix64(round_seed(seed, 0))
    order = shuffled(game.ruleset.deck(players, game.options), rng)
    first = rng.below(players)  # drawn after the shuffle, over the players only
    size = HAND_SIZE[players]
    deal = game.new_initial_state(seed).info.deal
    for s in range(players):
        assert deal.hands[s] == tuple(order[s * size : (s + 1) * size])
    dealt = size * players
    if players == 2:
        assert deal.pile("ghost") == tuple(order[dealt : dealt + 12])
        dealt += 12
    assert deal.pile("points") == tuple(order[dealt:])
    assert deal.first_leader == first


@clause("LAST-DEAL-1")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_deal_with_a_wrong_hand_size_is_rejected(players: int) -> None:
    game = make(players)
    deal = game.new_initial_state(3).info.deal
    hands = [list(h) for h in deal.hands]
    hands[1].append(hands[0].pop())
    size = HAND_SIZE[players]
    bad = Deal(tuple(map(tuple, hands)), deal.piles, first_leader=0)
    with pytest.raises(CardError, match=rf"seat 0 is dealt {size - 1} cards.*\[LAST-DEAL-1\]"):
        game.new_state_from_deals([bad])


@clause("LAST-GHOST-1")
def test_the_ghost_cards_must_be_dealt_as_a_pile_not_a_hand() -> None:
    game = make(2)
    deal = deal2(0)
    bad = Deal((deal.hands[0], deal.hands[1], deal.pile("ghost")), (deal.piles[1],), 0)
    with pytest.raises(CardError, match=r"\[LAST-GHOST-1\]"):
        game.new_state_from_deals([bad])


@clause("LAST-DEAL-2", "LAST-GHOST-1")
def test_a_ghost_pile_in_a_three_player_deal_is_rejected() -> None:
    game = make(3)
    good = deal3(0)
    points = good.pile("points")
    bad = Deal(good.hands, (("ghost", points[:6]), ("points", points[6:])), first_leader=0)
    with pytest.raises(CardError):
        states_of(game.new_state_from_deals([bad]))


@clause("LAST-DEAL-2")
def test_the_points_pile_is_face_down_only_its_count_is_seen() -> None:
    state = start3(0)
    for seat in range(3):
        obs = state.observation(seat)
        assert obs["points_left"] == 11
        assert obs["points_card"] == "G1"  # only the card turned up is visible
        shown = {str(v) for v in obs.values()}
        assert not any("B12" in text for text in shown)  # the bottom card is never shown
    assert state.extra.points == tuple(cards(*POINTS3[1:]))


# --- first player -----------------------------------------------------------------------------


@clause("LAST-LEAD-1")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_first_player_is_drawn_at_random_among_the_players(players: int) -> None:
    game = make(players)
    firsts = {game.new_initial_state(seed).first_leader for seed in range(80)}
    assert firsts == set(range(players))  # every player, never the ghost (seat 2 of 2)
    for seed in range(10):
        state = game.new_initial_state(seed)
        assert state.current == state.leader == state.first_leader == state.info.deal.first_leader


@clause("LAST-LEAD-1", "LAST-D-ROUNDS")
def test_the_first_player_is_drawn_afresh_every_round() -> None:
    state = play_random_game(make(3, {"rounds": 12}), seed=4)
    firsts = [log.first_leader for log in state.history]
    assert len(firsts) == 12 and set(firsts) == {0, 1, 2}
    for r, log in enumerate(state.history):
        rng = SplitMix64(round_seed(4, r))
        shuffled(get_ruleset(LAST).deck(3, state.game.options), rng)
        assert log.first_leader == rng.below(3)


@clause("LAST-LEAD-1", "LAST-GHOST-1")
@pytest.mark.parametrize(("players", "first"), [(2, 2), (3, 3), (3, None)])
def test_a_deal_naming_no_first_player_among_the_players_is_rejected(
    players: int, first: int | None
) -> None:
    deal = deal2(0) if players == 2 else deal3(0)
    bad = Deal(deal.hands, deal.piles, first_leader=first)
    with pytest.raises(CardError, match=r"\[LAST-LEAD-1\]"):
        make(players).new_state_from_deals([bad])


# --- a trick ----------------------------------------------------------------------------------


@clause("LAST-TRICK-1")
def test_the_top_points_card_is_turned_up_at_the_start_of_every_trick() -> None:
    for state in states_of(start3(0)):
        if state.is_terminal():
            break
        if state.phase is Phase.PLAY and not state.trick:
            k = len(state.tricks)
            assert state.extra.shown == cards(POINTS3[k])[0]
            assert state.extra.points == tuple(cards(*POINTS3[k + 1 :]))
            assert state.observation(1)["points_card"] == POINTS3[k]


@clause("LAST-TRICK-1")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_trick_of_a_random_game_turns_up_the_next_points_card(players: int) -> None:
    game = make(players)
    state = game.new_initial_state(players * 11)
    pile = state.info.deal.pile("points")
    assert state.extra.shown == pile[0]
    while not state.is_terminal():
        state = state.child(state.legal_actions()[len(state.legal_actions()) // 2])
        if not state.is_terminal() and state.phase is Phase.PLAY:
            assert state.extra.shown == pile[len(state.tricks)]


@clause("LAST-PLAY-1")
@pytest.mark.parametrize("first", [0, 1, 2])
def test_the_leader_may_play_any_card_of_his_hand(first: int) -> None:
    state = start3(first)
    assert state.current == first
    assert legal(state) == HANDS3[first]
    for card in (HANDS3[first][0], HANDS3[first][-1]):
        assert act(state, card).trick == tuple(cards(card))


@clause("LAST-PLAY-1")
def test_a_card_not_in_hand_or_a_decision_while_playing_names_the_turn_clause() -> None:
    state = start3(0)
    with pytest.raises(IllegalActionError) as info:
        act(state, "G7")  # seat 1's card
    assert info.value.clause == "LAST-PLAY-1"
    assert "not in that seat's hand" in str(info.value)
    for text in ("keep", "swap R1"):
        with pytest.raises(IllegalActionError) as info:
            act(state, text)
        assert info.value.clause == "LAST-PLAY-1"
        assert "expects a card" in str(info.value)


@clause("LAST-PLAY-2")
def test_the_players_before_the_last_must_follow_the_lead_colour() -> None:
    state = act(start3(0), "R3")
    assert state.current == 1  # clockwise
    assert legal(state) == run("R", 7, 12)
    with pytest.raises(IllegalActionError) as info:
        act(state, "G7")
    assert info.value.clause == "LAST-PLAY-2"
    assert "must follow the lead colour" in str(info.value)
    after = act(state, "R9")
    assert after.current == 2
    assert after.trick == tuple(cards("R3", "R9"))


@clause("LAST-PLAY-2")
def test_without_the_lead_colour_a_player_may_play_any_card() -> None:
    state = act(start3(0), "Y9")
    assert state.current == 1
    assert legal(state) == HANDS3[1]  # seat 1 holds no yellow


@clause("LAST-PLAY-2", "LAST-PLAY-1")
@pytest.mark.parametrize(
    ("hand", "trick", "allowed"),
    [
        (["R1", "Y2", "G3"], [], ["R1", "Y2", "G3"]),  # the leader: anything
        (["R1", "Y2", "G3"], ["Y9"], ["Y2"]),  # second of four: follow yellow
        (["R1", "B2", "G3"], ["Y9"], ["R1", "B2", "G3"]),  # no yellow: anything
        (["B1", "G3"], ["B9", "G4"], ["B1"]),  # third of four follows the lead, not green
        (["R1", "Y2", "G3"], ["B9", "G4"], ["R1", "Y2", "G3"]),  # no blue: anything
    ],
)
def test_playable_before_the_last_player(
    hand: list[str], trick: list[str], allowed: list[str]
) -> None:
    game = make(4)
    got = game.ruleset.playable(game, tuple(sorted(cards(*hand))), tuple(cards(*trick)))
    assert sorted(names(got)) == sorted(allowed)


@clause("LAST-PLAY-3", "LAST-D-LASTPLAY")
@pytest.mark.parametrize(
    ("reading", "hand", "trick", "allowed"),
    [
        ("played-colours", ["R1", "Y2", "G3", "B4"], ["R5", "Y6", "R7"], ["R1", "Y2"]),
        ("played-colours", ["R1", "Y2", "G3", "B4"], ["B5", "B6", "B7"], ["B4"]),
        ("played-colours", ["G3", "B4"], ["R5", "Y6", "R7"], ["G3", "B4"]),  # none: any card
        ("played-colours", ["Y2", "G3"], ["R5", "R6", "Y7"], ["Y2"]),  # not the lead's colour
        ("free", ["R1", "Y2", "G3", "B4"], ["R5", "Y6", "R7"], ["R1", "Y2", "G3", "B4"]),
        ("free", ["R1", "B4"], ["B5", "B6", "B7"], ["R1", "B4"]),
    ],
)
def test_the_last_player_may_play_any_colour_already_played(
    reading: str, hand: list[str], trick: list[str], allowed: list[str]
) -> None:
    game = make(4, {"last-play": reading})
    got = game.ruleset.playable(game, tuple(sorted(cards(*hand))), tuple(cards(*trick)))
    assert sorted(names(got)) == sorted(allowed)


@clause("LAST-PLAY-3", "LAST-D-LASTPLAY")
def test_default_last_play_reading_is_played_colours() -> None:
    game = make(3)
    assert game.options["last-play"] == "played-colours"
    registry = {d.id: d for d in load_registry(LAST).disputes}
    assert registry["LAST-D-LASTPLAY"].default == "played-colours"


@clause("LAST-PLAY-3", "LAST-D-LASTPLAY", "LAST-PLAY-2")
def test_in_a_game_the_last_player_is_bound_to_the_played_colours() -> None:
    # Seat 0 leads Y9; seat 1 has no yellow and plays G8; seat 2 holds yellow but no green.
    state = act(act(start3(0), "Y9"), "G8")
    assert state.current == 2
    assert legal(state) == run("Y", 1, 6)
    with pytest.raises(IllegalActionError) as info:
        act(state, "B4")
    assert info.value.clause == "LAST-PLAY-3"
    assert "colour already in the trick" in str(info.value)


@clause("LAST-PLAY-3", "LAST-D-LASTPLAY", "LAST-TRICK-2")
def test_in_a_game_under_free_the_last_player_plays_anything_and_wins_with_a_new_colour() -> None:
    state = act(act(start3(0, {"last-play": "free"}), "Y9"), "G8")
    assert legal(state) == HANDS3[2]
    after = act(state, "B4")
    assert after.phase is Phase.CHOOSE and after.current == 2
    assert after.tricks[-1][1].facts[0] == ("winning-colour", "blue")


@clause("LAST-PLAY-3")
def test_in_a_game_a_last_player_without_any_played_colour_may_play_anything() -> None:
    state = act(act(start3(0), "R3"), "R9")
    assert state.current == 2  # seat 2 holds no red
    assert legal(state) == HANDS3[2]


# --- who takes the points card ----------------------------------------------------------------


@clause("LAST-TRICK-2", "LAST-TRICK-3")
@pytest.mark.parametrize(
    ("trick", "winner", "colour"),
    [
        (["R5", "R9", "R2", "R7"], 1, "red"),  # the lead colour wins: highest red
        (["R3", "B8", "B1", "B5"], 1, "blue"),  # the last card's colour, not the lead's
        (["Y4", "Y10", "Y1", "G2"], 3, "green"),  # a new colour: the last player wins
        (["R12", "B3", "R1"], 0, "red"),  # the leader's R12 is the highest red
        (["G2", "Y11", "B12", "G1"], 0, "green"),  # G2 beats G1; Y11 and B12 count for nothing
        (["B5", "R12", "Y1"], 2, "yellow"),
        (["Y3", "G12", "Y4", "R6", "Y5"], 4, "yellow"),  # five players
    ],
)
def test_the_last_cards_colour_wins_and_its_highest_card_takes_the_points_card(
    trick: list[str], winner: int, colour: str
) -> None:
    result = judge(cards(*trick))
    assert result.winner == winner
    assert dict(result.facts)["winning-colour"] == colour
    assert result.clauses[:2] == ("LAST-TRICK-2", "LAST-TRICK-3")


@clause("LAST-TRICK-2", "LAST-TRICK-3")
def test_in_a_game_the_winning_colour_need_not_be_the_lead_colour() -> None:
    # Seat 1 leads G10 (the highest card), seat 2 plays Y2, seat 0 (last) must play yellow.
    state = act(act(start3(1), "G10"), "Y2")
    assert state.current == 0
    assert legal(state) == run("Y", 7, 12)
    after = act(state, "Y7")
    assert after.phase is Phase.CHOOSE
    assert after.current == after.leader == 0  # Y7 beats Y2; the green lead counts for nothing
    assert after.extra.pending == cards("G1")[0]


@clause("LAST-TRICK-3", "LAST-PLAY-3")
def test_in_a_game_the_leader_can_win_with_the_highest_card_of_the_last_colour() -> None:
    state = act(act(act(start3(0), "Y9"), "G8"), "Y4")
    assert state.phase is Phase.CHOOSE
    assert state.current == 0


@clause("LAST-TRICK-2")
def test_in_a_game_a_last_player_who_cannot_follow_any_played_colour_wins() -> None:
    state = act(act(act(start3(0), "R3"), "R9"), "B2")
    assert state.phase is Phase.CHOOSE
    assert state.current == state.leader == 2


# --- keep or swap, discard, next lead ---------------------------------------------------------


def won_by_seat_2() -> State[Any]:
    """Seat 2 takes trick R3 R9 B2 and must decide on the points card G1."""
    return act(act(act(start3(0), "R3"), "R9"), "B2")


@clause("LAST-COLLECT-1")
def test_the_taker_decides_keep_or_swap_with_any_hand_card() -> None:
    state = won_by_seat_2()
    assert state.phase is Phase.CHOOSE
    assert state.extra.pending == cards("G1")[0] and state.extra.shown is None
    hand = [*run("Y", 1, 6), "B1", *run("B", 3, 6)]
    assert names(state.hands[2]) == hand
    assert state.legal_actions() == (KEEP, *(swap(c) for c in cards(*hand)))
    assert state.observation(0)["pending"] == "G1"


@clause("LAST-COLLECT-1", "LAST-COLLECT-2")
def test_keep_lays_the_points_card_face_down_and_the_hand_is_unchanged() -> None:
    before = won_by_seat_2()
    state = act(before, "keep")
    assert state.taken == ((), (), tuple(cards("G1")))
    assert state.hands == before.hands
    assert len(state.hands[2]) == 11
    assert state.phase is Phase.PLAY
    assert state.current == state.leader == 2  # the winner leads the next trick
    assert state.extra.shown == cards("G2")[0]  # and the next points card is turned up
    assert state.extra.pending is None
    assert state.actions[-1] == (2, KEEP)


@clause("LAST-COLLECT-1")
def test_swap_takes_the_points_card_into_hand_and_lays_the_chosen_card_down() -> None:
    before = won_by_seat_2()
    state = act(before, "swap B6")
    assert state.taken == ((), (), tuple(cards("B6")))
    assert names(state.hands[2]) == [*run("Y", 1, 6), "G1", "B1", "B3", "B4", "B5"]
    assert state.hands[:2] == before.hands[:2]
    assert state.current == state.leader == 2
    assert state.extra.shown == cards("G2")[0]
    # The swapped-in points card can now be played.
    assert "G1" in legal(state)


@clause("LAST-COLLECT-1")
def test_a_swap_with_a_card_not_in_hand_or_a_play_while_deciding_is_refused() -> None:
    state = won_by_seat_2()
    for text in ("swap R1", "Y1"):
        with pytest.raises(IllegalActionError) as info:
            act(state, text)
        assert info.value.clause == "LAST-COLLECT-1"


@clause("LAST-COLLECT-1", "LAST-ROUND-1")
def test_after_the_last_trick_only_keep_is_possible() -> None:
    state = start3(0)
    while not (state.phase is Phase.CHOOSE and not state.hands[state.current]):
        state = state.child(state.legal_actions()[0])
    assert len(state.tricks) == 12
    assert state.legal_actions() == (KEEP,)
    assert state.extra.pending == cards("B12")[0]


@clause("LAST-COLLECT-2")
def test_the_played_cards_are_discarded() -> None:
    state = won_by_seat_2()
    assert state.trick == ()
    assert state.aside == tuple(cards("R3", "R9", "B2"))
    assert state.taken == ((), (), ())  # nobody takes a played card
    result = state.tricks[-1][1]
    assert result.taken == () and result.aside == tuple(cards("R3", "R9", "B2"))
    assert result.winner == 2


@clause("LAST-COLLECT-2", "LAST-ROUND-1")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_trick_is_led_by_the_previous_taker(players: int) -> None:
    state = play_random_game(make(players, {"rounds": 2}), seed=19)
    for log in state.history:
        assert log.tricks[0][0] == log.first_leader
        for (leader, result), (next_leader, _) in zip(log.tricks, log.tricks[1:], strict=False):
            assert result.winner is not None
            assert next_leader == (leader + result.winner) % players


# --- round end and scoring --------------------------------------------------------------------


@clause("LAST-ROUND-1")
@pytest.mark.parametrize(("players", "tricks"), [(2, 12), (3, 12), (4, 9), (5, 8)])
def test_the_round_ends_when_every_hand_card_is_played(players: int, tricks: int) -> None:
    state = make(players).new_initial_state(5)
    while not state.is_terminal():
        assert any(state.hands) or state.phase is Phase.CHOOSE
        state = state.child(state.legal_actions()[-1])
    assert all(h == () for h in state.hands)
    assert len(state.tricks) == tricks
    assert len(state.history) == 1 and len(state.history[0].tricks) == tricks


@clause("LAST-SCORE-1")
@pytest.mark.parametrize(
    ("face_down", "points"),
    [([], 0), (["G1"], 1), (["R12", "B1", "G7"], 20), (run("Y", 1, 12), 78)],
)
def test_penalty_is_the_sum_of_the_face_down_values(face_down: list[str], points: int) -> None:
    assert penalty(cards(*face_down)) == points


@clause("LAST-SCORE-1", "LAST-ROUND-1", "LAST-COLLECT-1")
def test_round_penalties_when_every_taker_keeps() -> None:
    final = finish_round(start3(0))
    assert final.is_terminal()
    log = final.history[0]
    assert len(log.tricks) == 12
    assert sorted(c for t in final.taken for c in t) == sorted(cards(*POINTS3))
    assert sum(log.scores) == 78  # 1 + 2 + ... + 12: every points card kept
    assert list(log.scores) == [sum(value_of(c) for c in final.taken[s]) for s in range(3)]


@clause("LAST-SCORE-1", "LAST-COLLECT-1")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_round_penalties_in_random_games_are_the_face_down_sums(players: int) -> None:
    for seed in (1, 2, 3):
        final = play_random_game(make(players), seed=seed)
        log = final.history[0]
        assert list(log.scores) == [sum(value_of(c) for c in t) for t in final.taken]
        assert list(final.returns()) == list(log.scores)


@clause("LAST-SCORE-1", "LAST-COLLECT-1")
def test_a_swap_changes_the_penalty_by_the_card_laid_down() -> None:
    keep = finish_round(act(won_by_seat_2(), "keep"))
    swapped = finish_round(act(won_by_seat_2(), "swap Y6"))
    assert keep.taken[2][0] == cards("G1")[0]
    assert swapped.taken[2][0] == cards("Y6")[0]
    assert penalty(swapped.taken[2][:1]) - penalty(keep.taken[2][:1]) == 5


@clause("LAST-GAME-1", "LAST-AIM-1", "LAST-D-GAMETIE")
@pytest.mark.parametrize(
    ("totals", "winners"),
    [
        ([12, 3, 30], (1,)),
        ([0, 5, 5, 9], (0,)),
        ([7, 7, 9], (0, 1)),
        ([4, 4, 4, 4, 4], (0, 1, 2, 3, 4)),
        ([10, 2, 3, 2, 9], (1, 3)),
    ],
)
def test_the_lowest_penalty_wins_and_ties_share(totals: list[int], winners: tuple) -> None:
    game = make(len(totals))
    assert tuple(game.ruleset.winners(game, totals)) == winners


@clause("LAST-GAME-1", "LAST-AIM-1", "LAST-D-GAMETIE")
def test_the_record_names_the_lowest_penalty_as_winners() -> None:
    for seed in range(6):
        state = play_random_game(make(4), seed=seed)
        totals = list(state.returns())
        assert to_record(state)["winners"] == [s for s in range(4) if totals[s] == min(totals)]


@clause("LAST-D-ROUNDS", "LAST-GAME-1")
def test_a_game_is_one_round_by_default() -> None:
    game = make(3)
    assert game.options["rounds"] == 1
    state = play_random_game(game, seed=8)
    assert state.is_terminal() and len(state.history) == 1
    assert state.returns() == state.history[0].scores


@clause("LAST-D-ROUNDS", "LAST-GAME-1")
@pytest.mark.parametrize(("players", "rounds"), [(2, 3), (4, 2), (5, 4)])
def test_rounds_n_plays_n_rounds_and_adds_the_penalties(players: int, rounds: int) -> None:
    state = play_random_game(make(players, {"rounds": rounds}), seed=rounds)
    assert state.is_terminal() and len(state.history) == rounds
    totals = tuple(sum(log.scores[s] for log in state.history) for s in range(state.game.seats))
    assert state.returns() == totals
    assert [log.index for log in state.history] == list(range(rounds))


@clause("LAST-D-ROUNDS")
def test_rounds_must_be_at_least_one() -> None:
    with pytest.raises(OptionError, match="rounds=0"):
        make(3, {"rounds": 0})


# --- points cards never turned up (4 players) -------------------------------------------------


@clause("LAST-D-UNUSED", "LAST-DEAL-1", "LAST-SCORE-1")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_four_players_leave_three_points_cards_unturned_which_stay_by_default(seed: int) -> None:
    game = make(4)
    assert game.options["unused-points"] == "stay"
    state = play_random_game(game, seed=seed)
    log = state.history[0]
    unused = log.deal.pile("points")[9:]
    assert len(unused) == 3
    assert dict(log.facts)["points_left"] == names(unused)
    assert not set(unused) & {c for t in state.taken for c in t}
    assert list(log.scores) == [penalty(t) for t in state.taken]


@clause("LAST-D-UNUSED", "LAST-ROUND-1", "LAST-SCORE-1")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_under_last_winner_the_final_taker_also_takes_the_unturned_cards(seed: int) -> None:
    stay = play_random_game(make(4, {"unused-points": "stay"}), seed=seed)
    won = play_random_game(make(4, {"unused-points": "last-winner"}), seed=seed)
    log_stay, log_won = stay.history[0], won.history[0]
    assert log_won.actions == log_stay.actions  # the reading changes nothing during play
    unused = log_won.deal.pile("points")[9:]
    leader, result = log_won.tricks[-1]
    last = (leader + result.winner) % 4
    assert won.taken[last][-3:] == unused
    assert dict(log_won.facts)["points_left"] == []
    extra = sum(value_of(c) for c in unused)
    expected = [s + (extra if seat == last else 0) for seat, s in enumerate(log_stay.scores)]
    assert list(log_won.scores) == expected


@clause("LAST-D-UNUSED", "LAST-DEAL-1", "LAST-GHOST-2")
@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("reading", ["stay", "last-winner"])
def test_other_player_counts_turn_up_every_points_card(players: int, reading: str) -> None:
    state = play_random_game(make(players, {"unused-points": reading}), seed=6)
    log = state.history[0]
    assert dict(log.facts)["points_left"] == []
    assert len(log.tricks) == len(log.deal.pile("points"))


# --- two players: the ghost -------------------------------------------------------------------


@clause("LAST-GHOST-1", "LAST-D-GHOSTSEAT")
@pytest.mark.parametrize("first", [0, 1])
def test_the_ghost_sits_to_the_right_of_the_first_player(first: int) -> None:
    state = start2(first)
    assert state.info.seating == (first, 1 - first, GHOST)
    assert state.current == first
    # Clockwise: the first player, the other player, then the ghost, who plays last.
    assert state.info.after[first] == 1 - first
    assert state.info.after[1 - first] == GHOST
    assert state.info.after[GHOST] == first


@clause("LAST-GHOST-3", "LAST-GHOST-4", "LAST-GHOST-5", "LAST-D-GHOSTPLAY")
def test_top_card_ghost_plays_its_top_card_and_takes_the_points_card_without_a_choice() -> None:
    state = start2(0)
    assert state.extra.ghost_order == tuple(cards(*GHOST_PILE))
    state = act(act(state, "Y1"), "G12")
    # The ghost played B1 (its top card, breaking no rule: it plays last and holds no Y or
    # G on top), blue won, so the ghost took Y7 with no decision and leads the next trick.
    leader, result = state.tricks[0]
    assert leader == 0
    assert names(result.cards) == ["Y1", "G12", "B1"]
    assert result.winner == 2
    assert state.taken == ((), (), tuple(cards("Y7")))
    assert state.phase is Phase.PLAY
    assert state.leader == GHOST
    assert names(state.trick) == ["G1"]  # its next top card, played at once
    assert state.current == 0
    assert state.extra.shown == cards("Y8")[0]
    assert state.actions == ((0, play(cards("Y1")[0])), (1, play(cards("G12")[0])))
    assert state.extra.ghost_order == tuple(cards(*GHOST_PILE[2:]))


@clause("LAST-GHOST-3", "LAST-D-GHOSTPLAY", "LAST-PLAY-3")
def test_first_legal_ghost_plays_the_first_card_in_pile_order_the_rules_allow() -> None:
    state = start2(0, {"ghost-play": "first-legal"})
    state = act(act(state, "Y1"), "G12")
    # Played colours yellow and green: the first such card of B1 G1 B2 ... is G1.
    assert names(state.tricks[0][1].cards) == ["Y1", "G12", "G1"]
    assert state.phase is Phase.CHOOSE and state.current == 1  # G12 is the highest green
    assert state.extra.ghost_order == tuple(cards("B1", *GHOST_PILE[2:]))
    # Seat 1 keeps and leads G11; the ghost (not last now) must follow green: G2.
    state = act(act(state, "keep"), "G11")
    assert names(state.trick) == ["G11", "G2"]
    assert state.current == 0
    assert state.extra.ghost_order == tuple(cards("B1", "B2", *GHOST_PILE[4:]))


@clause("LAST-GHOST-3", "LAST-D-GHOSTPLAY")
@pytest.mark.parametrize(
    ("reading", "trick", "expected"),
    [
        ("top-card", [], "B1"),
        ("first-legal", [], "B1"),  # leading: any card, so the top one
        ("top-card", ["G9"], "B1"),  # breaks the follow rule
        ("first-legal", ["G9"], "G1"),
        ("first-legal", ["R9"], "B1"),  # no red in the pile: any card, so the top one
        ("first-legal", ["R9", "Y3"], "B1"),
    ],
)
def test_which_card_the_ghost_plays(reading: str, trick: list[str], expected: str) -> None:
    game = make(2, {"ghost-play": reading})
    state = game.new_state_from_deals([deal2(0)])
    ghost_turn = state._replace(current=GHOST, trick=tuple(cards(*trick)))
    action = game.ruleset.automatic_action(ghost_turn)
    assert action == play(cards(expected)[0])
    assert game.ruleset.automatic_action(state) is None  # a player's turn: nothing automatic


@clause("LAST-GHOST-4", "LAST-GHOST-3")
@pytest.mark.parametrize("reading", ["top-card", "first-legal"])
def test_the_ghost_is_never_the_player_to_act(reading: str) -> None:
    for seed in range(4):
        game = make(2, {"ghost-play": reading, "rounds": 2})
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            assert state.current in (0, 1)
            assert state.phase in (Phase.PLAY, Phase.CHOOSE)
            legal_now = state.legal_actions()
            state = state.child(legal_now[seed % len(legal_now)])
        for log in state.history:
            assert all(seat in (0, 1) for seat, _ in log.actions)
            ghost_cards = [
                c
                for leader, r in log.tricks
                for i, c in enumerate(r.cards)
                if log.seating[(log.seating.index(leader) + i) % 3] == GHOST
            ]
            assert len(ghost_cards) == 12
            assert sorted(ghost_cards) == sorted(log.deal.pile("ghost"))
            if reading == "top-card":
                assert tuple(ghost_cards) == log.deal.pile("ghost")  # pile order exactly


@clause("LAST-GHOST-5", "LAST-COLLECT-2")
def test_after_a_ghost_win_the_ghost_leads_and_play_goes_on_clockwise() -> None:
    state = act(act(start2(0), "Y1"), "G12")  # the ghost wins trick 1 with B1 and leads G1
    assert legal(state) == [c for c in HANDS2[0] if c != "Y1"]  # no green: any card
    state = act(state, "R1")
    assert state.current == 1
    assert legal(state) == [*run("R", 7, 12), *run("G", 7, 11)]  # last: red or green
    state = act(state, "G7")
    assert state.phase is Phase.CHOOSE and state.current == 1  # G7 beats G1
    assert state.tricks[-1][0] == GHOST


@clause("LAST-GHOST-6", "LAST-GHOST-5", "LAST-SCORE-1")
def test_the_ghost_penalty_is_not_counted() -> None:
    final = finish_round(act(act(start2(0), "Y1"), "G12"))
    assert final.is_terminal()
    assert final.taken[GHOST][0] == cards("Y7")[0]
    assert penalty(final.taken[GHOST]) >= 7
    log = final.history[0]
    assert log.scores[GHOST] == 0
    assert list(log.scores[:2]) == [penalty(final.taken[0]), penalty(final.taken[1])]
    assert dict(log.facts)["ghost"] == GHOST


@clause("LAST-GHOST-6", "LAST-GAME-1")
@pytest.mark.parametrize(("totals", "winners"), [([5, 7, 0], (0,)), ([9, 9, 1], (0, 1))])
def test_the_ghost_is_never_a_winner(totals: list[int], winners: tuple) -> None:
    game = make(2)
    assert tuple(game.ruleset.winners(game, totals)) == winners


@clause("LAST-GHOST-6")
def test_the_ghost_never_wins_a_recorded_game() -> None:
    for seed in range(5):
        state = play_random_game(make(2, {"rounds": 2}), seed=seed)
        assert state.returns()[GHOST] == 0
        assert GHOST not in to_record(state)["winners"]


def two_rounds(reading: str) -> State[Any]:
    """Round 1 starts with seat 1, round 2 with seat 0 (both explicit deals)."""
    game = make(2, {"rounds": 2, "ghost-seat": reading})
    return finish_round(finish_round(game.new_state_from_deals([deal2(1), deal2(0)])))


@clause("LAST-D-GHOSTSEAT", "LAST-GHOST-1", "LAST-GHOST-4")
def test_per_round_the_ghost_is_seated_beside_each_rounds_first_player() -> None:
    state = two_rounds("per-round")
    assert [log.seating for log in state.history] == [(1, 0, 2), (0, 1, 2)]
    for log in state.history:
        leader, result = log.tricks[0]
        assert leader == log.first_leader
        assert names(result.cards)[2] == "B1"  # the ghost's top card, played last


@clause("LAST-D-GHOSTSEAT", "LAST-GHOST-1", "LAST-GHOST-4")
def test_fixed_the_ghost_keeps_its_first_round_place() -> None:
    state = two_rounds("fixed")
    assert [log.seating for log in state.history] == [(1, 0, 2), (1, 0, 2)]
    assert [log.first_leader for log in state.history] == [1, 0]
    leader, result = state.history[1].tricks[0]
    assert leader == 0
    assert names(result.cards)[1] == "B1"  # seat 0 leads, the ghost plays second
    assert names(state.history[0].tricks[0][1].cards)[2] == "B1"


@clause("LAST-D-GHOSTSEAT", "LAST-LEAD-1", "LAST-D-ROUNDS")
@pytest.mark.parametrize("reading", ["per-round", "fixed"])
def test_ghost_seating_in_random_multi_round_games(reading: str) -> None:
    for seed in range(6):
        state = play_random_game(make(2, {"rounds": 4, "ghost-seat": reading}), seed=seed)
        first = state.history[0]
        for log in state.history:
            assert log.first_leader in (0, 1)
            if reading == "per-round":
                assert log.seating == (log.first_leader, 1 - log.first_leader, GHOST)
                assert log.tricks[0][1].cards[2] == log.deal.pile("ghost")[0]
            else:
                assert log.seating == first.seating
            assert to_record(state)["rounds"][log.index]["seating"] == list(log.seating)


@clause("LAST-D-GHOSTSEAT", "LAST-D-GHOSTPLAY")
def test_ghost_options_default_to_top_card_per_round() -> None:
    game = make(2)
    assert game.options["ghost-play"] == "top-card"
    assert game.options["ghost-seat"] == "per-round"


# --- records ----------------------------------------------------------------------------------


@clause("LAST-GHOST-3", "LAST-COLLECT-1", "LAST-D-GHOSTPLAY", "LAST-D-GHOSTSEAT")
@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 2},
        {"rounds": 2, "ghost-play": "first-legal", "ghost-seat": "fixed"},
        {"rounds": 2, "last-play": "free", "unused-points": "last-winner"},
    ],
)
@pytest.mark.parametrize("players", [2, 4])
def test_records_of_the_last_replay_to_the_same_game(players: int, options: dict) -> None:
    state = play_random_game(make(players, options), seed=12)
    record = to_record(state)
    again = replay(record)
    assert to_record(again) == record
    acts = [a["action"] for r in record["rounds"] for a in r["actions"]]
    assert any(a == "keep" for a in acts) or any(a.startswith("swap") for a in acts)


# --- the built examples -----------------------------------------------------------------------


@clause(
    "LAST-PLAY-2",
    "LAST-PLAY-3",
    "LAST-TRICK-2",
    "LAST-TRICK-3",
    "LAST-COLLECT-2",
    "LAST-D-LASTPLAY",
    "LAST-D-UNUSED",
    "LAST-D-GHOSTPLAY",
    "LAST-D-GHOSTSEAT",
)
def test_built_examples_hold_under_every_reading() -> None:
    checks = check_examples(LAST)
    assert len(checks) == 32  # 2 x 2 x 2 x 2 x 2 readings, one sequence
    assert {c.example for c in checks} == {"LAST-EX-BUILT"}
    assert [(c.readings, c.failures) for c in checks if not c.ok] == []
    assert all(c.holds and c.expected for c in checks)


@clause("LAST-TRICK-2", "LAST-TRICK-3", "LAST-COLLECT-2", "LAST-PLAY-3")
def test_built_examples_directly() -> None:
    # Ann 0, Ben 1, Cid 2, Dee 3.
    for leader, trick, winner in [
        (0, ["R5", "R9", "R2", "R7"], 1),
        (1, ["R3", "B8", "B1", "B5"], 2),
        (2, ["Y4", "Y10", "Y1", "G2"], 1),
    ]:
        result = judge(cards(*trick))
        assert (leader + result.winner) % 4 == winner


# --- the model and the registry agree ---------------------------------------------------------


def test_model_cites_only_registry_ids() -> None:
    ruleset = get_ruleset(LAST)
    ids = load_registry(LAST).ids
    assert set(ruleset.implements) <= ids
    assert {c for c in ruleset.clause.values() if c} <= ids


def test_dispute_options_match_the_registry() -> None:
    ruleset = get_ruleset(LAST)
    by_option = {d.option: d for d in load_registry(LAST).disputes if d.option}
    model = {s.name: s for s in ruleset.option_specs if s.dispute}
    assert set(by_option) == set(model)
    for name, spec in model.items():
        assert spec.dispute == by_option[name].id
        if spec.choices:
            assert set(spec.choices) == {r.value for r in by_option[name].readings}
        assert str(spec.default) == by_option[name].default


# --- who starts the trick after the ghost wins (dispute LAST-D-GHOSTLEAD) ----------------------


@clause("LAST-D-GHOSTLEAD", "LAST-GHOST-5", "LAST-COLLECT-2")
@pytest.mark.parametrize("reading", ["ghost", "next"])
def test_after_the_ghost_wins_its_reading_says_who_leads(reading: str) -> None:
    """The ghost keeps the points card of a trick it wins (LAST-GHOST-5); the next trick
    is led by the ghost (``ghost``, by LAST-COLLECT-2) or by the first player after it
    (``next``). Every other trick is led by its predecessor's winner, and a record of
    either reading replays as agreeing under its own options."""
    game = get_ruleset(LAST).make_game(2, {"ghost-lead": reading})
    ghost_wins = 0
    for seed in range(1, 7):
        state = play_random_game(game, seed)
        log = state.history[0]
        for (leader, result), (after, _) in zip(log.tricks, log.tricks[1:], strict=False):
            ring = (
                log.seating[log.seating.index(leader) :] + log.seating[: log.seating.index(leader)]
            )
            winner = ring[result.winner]
            if winner == GHOST:
                ghost_wins += 1
                first = log.seating[(log.seating.index(GHOST) + 1) % 3]
                assert after == (GHOST if reading == "ghost" else first), (seed, log.tricks)
            else:
                assert after == winner
        replayed = replay(to_record(state))  # raises when the log checker disagrees
        assert replayed.history[0].tricks == log.tricks and replayed.returns() == state.returns()
    assert ghost_wins >= 3


def test_the_two_readings_of_the_ghosts_lead_give_different_games() -> None:
    """Not an idle switch: from the same seed the two readings play different games."""
    games = [get_ruleset(LAST).make_game(2, {"ghost-lead": r}) for r in ("ghost", "next")]
    differ = [
        play_random_game(games[0], seed).history[0].tricks
        != play_random_game(games[1], seed).history[0].tricks
        for seed in range(1, 7)
    ]
    assert any(differ)
