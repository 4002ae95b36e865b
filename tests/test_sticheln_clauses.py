"""One or more unit tests per normative clause of both Sticheln registries.

``sticheln-1993`` clauses have the prefix STI93, the later edition's (``sticheln``) STI.
Each test names the clauses and disputes it exercises with the ``clause`` marker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tricklaw.model.actions import play, select, string_to_action
from tricklaw.model.agents import play_random_game
from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.record import to_record
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.rulesets.sticheln import card_points, score
from tricklaw.model.state import Deal, Game, Phase, State
from tricklaw.model.trick import TrickResult
from tricklaw.proofs.examples import check_examples
from tricklaw.spec import load_registry
from tricklaw.spec.errors import CardError, IllegalActionError, OptionError

clause = pytest.mark.clause

OLD = "sticheln-1993"
NEW = "sticheln"


# --- helpers ----------------------------------------------------------------------------------


def make(ruleset_id: str, players: int, options: Mapping[str, Any] | None = None) -> Game:
    return get_ruleset(ruleset_id).make_game(players, dict(options or {}))


def parse(game_or_id: Game | str, *texts: str) -> list[Card]:
    ruleset = get_ruleset(game_or_id) if isinstance(game_or_id, str) else game_or_id.ruleset
    return ruleset.palette.parse_all(texts)


def names(game: Game, cards: Sequence[Card]) -> list[str]:
    return game.ruleset.palette.format_all(cards)


def judge(
    ruleset_id: str, texts: Sequence[str], options: Mapping[str, Any] | None = None
) -> TrickResult:
    """The result of the complete trick ``texts`` (one card per player, lead first)."""
    players = max(3, len(texts))
    game = make(ruleset_id, players, {"deck": "full"} if ruleset_id == OLD else {})
    if options:
        game = make(ruleset_id, players, {**game.options.as_dict(), **options})
    return game.ruleset.judge_trick(game, parse(ruleset_id, *texts))


def playable(
    ruleset_id: str, follow: str | None, hand: Sequence[str], trick: Sequence[str]
) -> list[str]:
    game = make(ruleset_id, 4, {"follow": follow, "deck": "full"} if follow else {})
    got = game.ruleset.playable(game, tuple(sorted(parse(game, *hand))), tuple(parse(game, *trick)))
    return sorted(names(game, got))


def deck_names(ruleset_id: str, players: int, options: Mapping[str, Any] | None = None) -> set[str]:
    game = make(ruleset_id, players, options)
    return set(names(game, game.ruleset.deck(players, game.options)))


def expected_deck(letters: str, top: int) -> set[str]:
    return {f"{letter}{v}" for letter in letters for v in range(top + 1)}


def make_deal(game: Game, wanted: Mapping[int, Sequence[str]]) -> Deal:
    """A deal in which each seat holds the ``wanted`` cards, filled up from the deck in order."""
    hands = [parse(game, *wanted.get(s, ())) for s in range(game.players)]
    used = {c for h in hands for c in h}
    rest = [c for c in game.ruleset.deck(game.players, game.options) if c not in used]
    for hand in hands:
        while len(hand) < 15:
            hand.append(rest.pop(0))
    piles = (("aside", tuple(rest)),) if rest else ()
    return Deal(tuple(tuple(h) for h in hands), piles)


def act(state: State[Any], text: str) -> State[Any]:
    return state.child(string_to_action(text, state.game.ruleset.palette))


def pick_all(state: State[Any], picks: Mapping[int, str]) -> State[Any]:
    while state.phase is Phase.SELECT:
        state = act(state, f"select {picks[state.current]}")
    return state


def first_round(state: State[Any]) -> State[Any]:
    """Random play (first legal action) until the first round ends or the game is over."""
    while not state.history and not state.is_terminal():
        state = state.child(state.legal_actions()[0])
    return state


# --- players and deck -------------------------------------------------------------------------


@clause("STI93-SETUP-1", "STI-DECK-1")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_three_to_six_players(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    assert ruleset.player_counts == (3, 4, 5, 6)
    for n in (3, 4, 5, 6):
        assert ruleset.make_game(n).players == n
    for n in (0, 1, 2, 7, 8):
        with pytest.raises(OptionError, match=rf"3-6 players, not {n}"):
            ruleset.make_game(n)


@clause("STI93-DECK-1", "STI93-D-DECK")
def test_1993_full_deck_is_90_cards_in_six_colours_0_to_14() -> None:
    ruleset = get_ruleset(OLD)
    assert ruleset.palette.names == ("red", "orange", "yellow", "green", "blue", "purple")
    assert ruleset.palette.letters == ("R", "O", "Y", "G", "B", "P")
    for n in (3, 4, 5, 6):
        deck = deck_names(OLD, n, {"deck": "full"})
        assert deck == expected_deck("ROYGBP", 14)
        assert len(deck) == 90


@clause("STI93-DECK-2", "STI93-DECK-3", "STI93-DECK-4", "STI93-DECK-5", "STI93-DECK-6")
@pytest.mark.parametrize(
    ("players", "letters", "top", "size"),
    [(6, "ROYGBP", 14, 90), (5, "ROYGB", 14, 75), (4, "ROYGB", 11, 60), (3, "ROYGB", 8, 45)],
)
def test_1993_deck_table(players: int, letters: str, top: int, size: int) -> None:
    game = make(OLD, players)
    deck = game.ruleset.deck(players, game.options)
    assert len(deck) == len(set(deck)) == size == 15 * players
    assert set(names(game, deck)) == expected_deck(letters, top)
    if players < 6:
        assert "P0" not in set(names(game, deck))


@clause("STI-DECK-1", "STI-DECK-2", "STI-DECK-3", "STI-DECK-4", "STI-DECK-5")
@pytest.mark.parametrize(
    ("players", "letters", "top", "size"),
    [(3, "RYGBP", 8, 45), (4, "RYGBP", 11, 60), (5, "RYGBP", 14, 75), (6, "RYGBPA", 14, 90)],
)
def test_later_deck_table(players: int, letters: str, top: int, size: int) -> None:
    game = make(NEW, players)
    deck = game.ruleset.deck(players, game.options)
    assert len(deck) == len(set(deck)) == size
    assert set(names(game, deck)) == expected_deck(letters, top)


@clause("STI-DECK-5")
def test_later_palette_has_grey_as_sixth_colour() -> None:
    palette = get_ruleset(NEW).palette
    assert palette.letters == ("R", "Y", "G", "B", "P", "A")
    assert palette.names[5] == "grey"
    assert "O" not in palette.letters


@clause("STI93-D-DECK", "STI93-DECK-2", "STI93-DEAL-2")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_1993_deck_full_deals_15_each_and_sets_the_rest_aside(players: int) -> None:
    game = make(OLD, players, {"deck": "full"})
    state = game.new_initial_state(11)
    deal = state.info.deal
    assert [len(h) for h in deal.hands] == [15] * players
    aside = deal.pile("aside")
    assert len(aside) == 90 - 15 * players
    assert sorted([c for h in deal.hands for c in h] + list(aside)) == sorted(
        game.ruleset.deck(players, game.options)
    )
    assert state.aside == aside  # out of play for the round


# --- deal -------------------------------------------------------------------------------------


@clause("STI93-DEAL-2", "STI-DEAL-1", "STI93-AIM-1")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_all_cards_in_play_are_dealt_15_each(ruleset_id: str, players: int) -> None:
    game = make(ruleset_id, players)
    for seed in (0, 1, 2):
        state = game.new_initial_state(seed)
        deal = state.info.deal
        assert [len(h) for h in deal.hands] == [15] * players
        assert deal.piles == ()  # nothing left over: unused cards go back in the box
        assert sorted(c for h in deal.hands for c in h) == sorted(
            game.ruleset.deck(players, game.options)
        )


@clause("STI93-DEAL-2", "STI-DEAL-1")
@pytest.mark.parametrize(("ruleset_id", "cid"), [(OLD, "STI93-DEAL-2"), (NEW, "STI-DEAL-1")])
def test_deal_with_a_short_hand_is_rejected_naming_the_clause(ruleset_id: str, cid: str) -> None:
    game = make(ruleset_id, 3)
    deal = game.new_initial_state(5).info.deal
    hands = [list(h) for h in deal.hands]
    hands[1].append(hands[0].pop())
    with pytest.raises(CardError, match=rf"seat 0 is dealt 14 cards.*\[{cid}\]"):
        game.new_state_from_deals([Deal(tuple(map(tuple, hands)))])


@clause("STI93-DEAL-1", "STI93-LEAD-1")
def test_1993_seat_0_is_the_first_dealer_and_seat_1_leads() -> None:
    for players in (3, 4, 5, 6):
        state = make(OLD, players).new_initial_state(3)
        assert state.info.dealer == 0
        assert state.first_leader == state.leader == 1
        assert state.current == 1
        assert to_record(state)["rounds"][0]["dealer"] == 0


# --- selecting the misery / unwanted card -----------------------------------------------------


@clause("STI93-SELECT-1", "STI-SELECT-1", "STI-SELECT-2", "STI93-AIM-1")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_each_seat_picks_one_hand_card_in_turn(ruleset_id: str) -> None:
    game = make(ruleset_id, 4)
    state = game.new_initial_state(21)
    leader = state.leader
    assert state.phase is Phase.SELECT
    order = []
    while state.phase is Phase.SELECT:
        seat = state.current
        hand = state.hands[seat]
        assert state.legal_actions() == tuple(select(c) for c in hand)
        order.append(seat)
        choice = hand[len(hand) // 2]
        state = state.child(select(choice))
        assert choice not in state.hands[seat]
        assert len(state.hands[seat]) == 14
        assert state.extra.picked[seat] == choice
    assert order == [(leader + k) % 4 for k in range(4)]
    assert state.phase is Phase.PLAY
    assert state.current == leader
    assert all(len(h) == 14 for h in state.hands)


@clause("STI93-SELECT-2", "STI-SELECT-2")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_picks_are_hidden_until_all_have_picked_then_revealed(ruleset_id: str) -> None:
    game = make(ruleset_id, 4)
    state = game.new_initial_state(8)
    fmt = game.ruleset.palette.format
    picked: dict[int, str] = {}
    while state.phase is Phase.SELECT:
        seat = state.current
        card = state.hands[seat][0]
        state = state.child(select(card))
        picked[seat] = fmt(card)
        if state.phase is Phase.SELECT:
            for viewer in range(4):
                seen = state.observation(viewer)["picked"]
                for s in range(4):
                    if s == viewer and s in picked:
                        assert seen[s] == picked[s]
                    elif s in picked:
                        assert seen[s] == "hidden"
                    else:
                        assert seen[s] is None
    for viewer in range(4):
        assert state.observation(viewer)["picked"] == [picked[s] for s in range(4)]


@clause("STI93-SELECT-2", "STI-SELECT-3", "STI-EX-SELECT")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_several_players_may_pick_the_same_colour(ruleset_id: str) -> None:
    game = make(ruleset_id, 4, {"deck": "full"} if ruleset_id == OLD else {})
    # Maria (0) yellow 2, Jack (1) a red, Gloria (2) and Linus (3) both blue (line 27, 001).
    deal = make_deal(game, {0: ["Y2"], 1: ["R7"], 2: ["B1"], 3: ["B5"]})
    state = pick_all(game.new_state_from_deals([deal]), {0: "Y2", 1: "R7", 2: "B1", 3: "B5"})
    assert state.phase is Phase.PLAY
    misery = [colour_of(c) for c in state.extra.picked]
    assert misery[2] == misery[3]
    assert state.observation(0)["picked"] == ["Y2", "R7", "B1", "B5"]


@clause("STI93-SELECT-3", "STI-SELECT-2")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_picks_stay_face_up_and_unchanged_for_the_whole_round(ruleset_id: str) -> None:
    game = make(ruleset_id, 3)
    state = game.new_initial_state(4)
    while state.phase is Phase.SELECT:
        state = state.child(state.legal_actions()[0])
    picked = state.extra.picked
    shown = state.observation(2)["picked"]
    while not state.history:
        assert state.extra.picked == picked
        assert state.observation(2)["picked"] == shown
        assert game.ruleset.held_aside(state) == picked
        state = state.child(state.legal_actions()[-1])
    assert state.history[0].facts == (("picked", shown),)


@clause("STI93-SELECT-1", "STI-SELECT-2")
@pytest.mark.parametrize(("ruleset_id", "cid"), [(OLD, "STI93-SELECT-1"), (NEW, "STI-SELECT-2")])
def test_illegal_picks_name_the_selection_clause(ruleset_id: str, cid: str) -> None:
    state = make(ruleset_id, 3).new_initial_state(2)
    hand = state.hands[state.current]
    other = state.hands[(state.current + 1) % 3][0]
    with pytest.raises(IllegalActionError) as info:
        state.child(select(other))  # not in the picker's hand
    assert info.value.clause == cid
    assert "not in that seat's hand" in str(info.value)
    with pytest.raises(IllegalActionError) as info:
        state.child(play(hand[0]))  # a play while the game waits for picks
    assert info.value.clause == cid
    assert "expects a select action" in str(info.value)


# --- leading ----------------------------------------------------------------------------------


@clause("STI93-LEAD-1", "STI93-ROUND-2", "STI93-DEAL-1")
@pytest.mark.parametrize("players", [3, 4])
def test_1993_deal_and_first_lead_pass_to_the_left_each_round(players: int) -> None:
    state = play_random_game(make(OLD, players, {"rounds": 7}), seed=5)
    assert len(state.history) == 7
    for r, log in enumerate(state.history):
        assert log.dealer == r % players
        assert log.first_leader == (r + 1) % players
        assert log.actions[0][0] == (r + 1) % players  # the first pick, too, starts there


@clause("STI-LEAD-1", "STI-GAME-1", "STI-D-ROUNDLEAD")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_later_rotate_reading_seat_r_leads_round_r(players: int) -> None:
    state = play_random_game(make(NEW, players, {"round-leader": "rotate"}), seed=9)
    assert [log.first_leader for log in state.history] == list(range(players))
    assert all(log.dealer is None for log in state.history)


@clause("STI-LEAD-1", "STI-D-ROUNDLEAD")
@pytest.mark.parametrize("players", [3, 5])
def test_later_youngest_reading_seat_0_always_leads(players: int) -> None:
    state = play_random_game(make(NEW, players, {"round-leader": "youngest"}), seed=9)
    assert len(state.history) == players
    assert [log.first_leader for log in state.history] == [0] * players


@clause("STI93-LEAD-2", "STI-PLAY-2")
@pytest.mark.parametrize(
    ("ruleset_id", "follow"),
    [(OLD, "free"), (OLD, "follow-or-trump"), (OLD, "must-follow"), (NEW, None)],
)
def test_the_leader_may_lead_any_card(ruleset_id: str, follow: str | None) -> None:
    hand = ["R0", "R5", "Y0", "G7", "B14"]
    assert playable(ruleset_id, follow, hand, []) == sorted(hand)


# --- what may be played -----------------------------------------------------------------------


@clause("STI93-PLAY-2", "STI93-D-FOLLOW")
@pytest.mark.parametrize(
    ("follow", "hand", "trick", "allowed"),
    [
        ("free", ["R2", "B0", "G5"], ["R3"], ["B0", "G5", "R2"]),
        ("free", ["B0", "Y0"], ["R3"], ["B0", "Y0"]),
        # literal reading: anything but an off-colour zero, unless nothing else is held
        ("follow-or-trump", ["R2", "B0", "G5"], ["R3"], ["G5", "R2"]),
        ("follow-or-trump", ["B0", "G5"], ["R3"], ["G5"]),
        ("follow-or-trump", ["R0", "B0"], ["R3"], ["R0"]),
        ("follow-or-trump", ["B0", "Y0"], ["R3"], ["B0", "Y0"]),
        # classic: the start colour if possible, else a trump card, else anything
        ("must-follow", ["R2", "B0", "G5"], ["R3"], ["R2"]),
        ("must-follow", ["R0", "G5"], ["R3", "G9"], ["R0"]),
        ("must-follow", ["B0", "G5", "Y7"], ["R3"], ["G5", "Y7"]),
        ("must-follow", ["B0", "Y0"], ["R3"], ["B0", "Y0"]),
        ("must-follow", ["B3", "R5"], ["B0", "R9"], ["B3"]),  # a led zero fixes the colour
    ],
)
def test_1993_follow_readings(
    follow: str, hand: list[str], trick: list[str], allowed: list[str]
) -> None:
    assert playable(OLD, follow, hand, trick) == sorted(allowed)


@clause("STI93-D-FOLLOW")
def test_1993_default_follow_reading_is_free() -> None:
    game = make(OLD, 4)
    assert game.options["follow"] == "free"
    hand = tuple(sorted(parse(game, "R2", "B0", "G5")))
    assert game.ruleset.playable(game, hand, tuple(parse(game, "R3"))) == hand


@clause("STI-PLAY-2")
@pytest.mark.parametrize(
    ("hand", "trick"),
    [(["R2", "B0", "G5"], ["R3"]), (["R0", "Y0"], ["R3", "G1"]), (["A3", "P0"], ["B0", "B1"])],
)
def test_later_edition_any_card_may_be_played(hand: list[str], trick: list[str]) -> None:
    assert playable(NEW, None, hand, trick) == sorted(hand)


@clause("STI93-PLAY-2", "STI93-D-FOLLOW", "STI93-PLAY-1")
def test_1993_must_follow_violation_raises_naming_the_play_clause() -> None:
    game = make(OLD, 3, {"follow": "must-follow"})
    deal = make_deal(game, {0: ["O1"], 1: ["R5", "O2"], 2: ["R3", "B7", "O3"]})
    state = pick_all(game.new_state_from_deals([deal]), {0: "O1", 1: "O2", 2: "O3"})
    assert state.current == 1
    state = act(state, "R5")
    assert state.current == 2
    with pytest.raises(IllegalActionError) as info:
        act(state, "B7")
    assert info.value.clause == "STI93-PLAY-2"
    assert "follow=must-follow" in str(info.value)
    assert "[STI93-PLAY-2]" in str(info.value)
    after = act(state, "R3")  # following is fine
    assert after.trick == tuple(parse(game, "R5", "R3"))


@clause("STI93-PLAY-2", "STI93-D-FOLLOW")
def test_1993_follow_or_trump_violation_raises_naming_the_play_clause() -> None:
    game = make(OLD, 3, {"follow": "follow-or-trump"})
    deal = make_deal(game, {0: ["O1"], 1: ["R5", "O2"], 2: ["B0", "B7", "O3"]})
    state = act(pick_all(game.new_state_from_deals([deal]), {0: "O1", 1: "O2", 2: "O3"}), "R5")
    with pytest.raises(IllegalActionError) as info:
        act(state, "B0")
    assert info.value.clause == "STI93-PLAY-2"
    assert act(state, "B7").trick == tuple(parse(game, "R5", "B7"))  # a trump card is fine


@clause("STI93-D-FOLLOW", "STI-PLAY-2")
@pytest.mark.parametrize(("ruleset_id", "options"), [(OLD, {"follow": "free"}), (NEW, {})])
def test_free_play_allows_an_off_colour_zero_in_a_game(ruleset_id: str, options: dict) -> None:
    game = make(ruleset_id, 3, options)
    leader = 1 if ruleset_id == OLD else 0
    follower, last = (leader + 1) % 3, (leader + 2) % 3
    wanted = {leader: ["R5", "R8"], follower: ["R3", "B0", "R7"], last: ["R6", "R2"]}
    deal = make_deal(game, wanted)
    state = pick_all(game.new_state_from_deals([deal]), {leader: "R8", follower: "R7", last: "R6"})
    assert state.current == leader
    state = act(state, "R5")
    assert state.current == follower
    assert act(state, "B0").trick == tuple(parse(game, "R5", "B0"))


@clause("STI93-PLAY-1", "STI-PLAY-1")
@pytest.mark.parametrize(("ruleset_id", "cid"), [(OLD, "STI93-PLAY-1"), (NEW, "STI-PLAY-1")])
def test_playing_a_card_not_in_hand_or_a_pick_names_the_turn_clause(
    ruleset_id: str, cid: str
) -> None:
    state = make(ruleset_id, 3).new_initial_state(6)
    while state.phase is Phase.SELECT:
        state = state.child(state.legal_actions()[0])
    seat = state.current
    someone_elses = state.hands[(seat + 1) % 3][0]
    with pytest.raises(IllegalActionError) as info:
        state.child(play(someone_elses))
    assert info.value.clause == cid
    with pytest.raises(IllegalActionError) as info:
        state.child(select(state.hands[seat][0]))
    assert info.value.clause == cid
    assert "expects a play action" in str(info.value)


@clause("STI93-PLAY-1", "STI-PLAY-1")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_play_passes_clockwise_one_card_each(ruleset_id: str) -> None:
    players = 4
    state = play_random_game(make(ruleset_id, players, {"rounds": 2}), seed=13)
    for log in state.history:
        plays = [seat for seat, action in log.actions[players:]]
        assert len(plays) == 14 * players
        for k, (leader, result) in enumerate(log.tricks):
            seats = plays[k * players : (k + 1) * players]
            assert seats == [(leader + i) % players for i in range(players)]
            assert len(result.cards) == players


# --- who takes the trick ----------------------------------------------------------------------


@clause("STI93-TRICK-1", "STI-TRICK-5")
@pytest.mark.parametrize(("ruleset_id", "cid"), [(OLD, "STI93-TRICK-1"), (NEW, "STI-TRICK-5")])
def test_the_lead_card_fixes_the_lead_colour_afresh_each_trick(ruleset_id: str, cid: str) -> None:
    a = judge(ruleset_id, ["R5", "Y3", "R7"])
    b = judge(ruleset_id, ["Y3", "R5", "R7"])
    assert a.winner == 1  # Y3 is the only card not of the red lead
    assert b.winner == 2  # now red is off-colour: R7 is the highest
    assert a.clauses[0] == b.clauses[0] == cid


@clause("STI93-TRICK-2", "STI93-TRICK-4", "STI-TRICK-4")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_an_off_colour_zero_is_no_trump(ruleset_id: str) -> None:
    result = judge(ruleset_id, ["R3", "B0", "R2"])
    assert result.winner == 0
    assert result.taken == ((0, tuple(parse(ruleset_id, "R3", "B0", "R2"))),)


@clause("STI93-TRICK-3")
def test_1993_all_start_colour_highest_wins() -> None:
    result = judge(OLD, ["Y6", "Y5", "Y2", "Y11"])
    assert result.winner == 3
    assert result.clauses == ("STI93-TRICK-1", "STI93-TRICK-3")


@clause("STI93-TRICK-4", "STI93-TRICK-2")
@pytest.mark.parametrize(
    ("cards", "winner"),
    [(["R3", "R2", "B0", "R4"], 3), (["G3", "G0", "G2", "O0"], 0), (["Y0", "Y4", "B0", "Y1"], 1)],
)
def test_1993_only_zeros_off_colour_highest_start_colour_wins(
    cards: list[str], winner: int
) -> None:
    result = judge(OLD, cards)
    assert result.winner == winner
    assert "STI93-TRICK-4" in result.clauses
    assert "STI93-TRICK-2" in result.clauses  # a zero was played and ignored


@clause("STI93-TRICK-5", "STI93-TRICK-2")
@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (["B11", "G6", "R7", "G4"], 2),
        (["B2", "B11", "G1", "B10"], 2),  # any trump card beats the highest start colour
        (["Y3", "O0", "R1", "Y9"], 2),
    ],
)
def test_1993_highest_trump_card_wins(cards: list[str], winner: int) -> None:
    result = judge(OLD, cards)
    assert result.winner == winner
    assert result.clauses[:2] == ("STI93-TRICK-1", "STI93-TRICK-5")


@clause("STI93-TRICK-6")
@pytest.mark.parametrize(
    ("cards", "winner"),
    [(["B11", "O6", "G6", "G4"], 1), (["B11", "G4", "G6", "O6"], 2), (["R1", "B5", "Y5", "G5"], 1)],
)
def test_1993_tied_trumps_the_first_played_wins(cards: list[str], winner: int) -> None:
    result = judge(OLD, cards)
    assert result.winner == winner
    assert "STI93-TRICK-6" in result.clauses


@clause("STI93-TRICK-6")
def test_1993_no_tie_clause_without_a_tie() -> None:
    assert "STI93-TRICK-6" not in judge(OLD, ["B11", "O6", "G7", "G4"]).clauses


@clause("STI93-D-ALLZERO", "STI93-TRICK-4", "STI93-COLLECT-1")
def test_1993_all_zero_trick_leader_takes_by_default() -> None:
    result = judge(OLD, ["B0", "Y0", "G0", "R0"])
    assert result.winner == 0
    assert result.taken == ((0, tuple(parse(OLD, "B0", "Y0", "G0", "R0"))),)
    assert result.aside == ()
    assert result.clauses == ("STI93-TRICK-1", "STI93-TRICK-4")


@clause("STI93-D-ALLZERO")
def test_1993_all_zero_trick_no_winner_reading() -> None:
    result = judge(OLD, ["B0", "Y0", "G0", "R0"], {"all-zero": "no-winner"})
    assert result.winner is None
    assert result.taken == ()
    assert result.aside == tuple(parse(OLD, "B0", "Y0", "G0", "R0"))
    assert "STI93-D-ALLZERO" in result.clauses


@clause("STI93-D-ALLZERO")
def test_1993_all_zero_reading_changes_only_all_zero_tricks() -> None:
    for cards in (["B0", "Y0", "G3"], ["B0", "B1", "Y0"], ["R3", "Y0", "G0"]):
        a = judge(OLD, cards, {"all-zero": "leader-takes"})
        b = judge(OLD, cards, {"all-zero": "no-winner"})
        assert (a.winner, a.taken, a.aside) == (b.winner, b.taken, b.aside)


@clause("STI-TRICK-1", "STI-EX-TRICK-1", "STI-TRICK-4")
@pytest.mark.parametrize(
    ("cards", "winner"),
    [(["B3", "B10", "Y0", "B7"], 1), (["G2", "G8", "G5"], 1), (["B0", "B5", "Y0", "B2"], 1)],
)
def test_later_all_lead_colour_highest_wins(cards: list[str], winner: int) -> None:
    result = judge(NEW, cards)
    assert result.winner == winner
    assert "STI-TRICK-1" in result.clauses


@clause("STI-TRICK-2", "STI-EX-TRICK-2")
@pytest.mark.parametrize(
    ("cards", "winner"),
    [(["Y9", "G5", "R6", "B4"], 2), (["R11", "R14", "Y1"], 2), (["A0", "A3", "P2"], 2)],
)
def test_later_highest_card_not_of_the_lead_colour_wins(cards: list[str], winner: int) -> None:
    result = judge(NEW, cards)
    assert result.winner == winner
    assert "STI-TRICK-2" in result.clauses


@clause("STI-TRICK-3", "STI-EX-TRICK-3")
@pytest.mark.parametrize(
    ("cards", "winner"),
    [(["G11", "R5", "Y5", "G8"], 1), (["G11", "G1", "Y5", "R5"], 2), (["B1", "R4", "Y4", "G4"], 1)],
)
def test_later_tie_earliest_wins(cards: list[str], winner: int) -> None:
    result = judge(NEW, cards)
    assert result.winner == winner
    assert "STI-TRICK-3" in result.clauses


@clause("STI-TRICK-4", "STI93-TRICK-2")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
@pytest.mark.parametrize(
    "cards",
    [["R0", "Y0", "G1", "B0"], ["R0", "R1", "Y0"], ["R2", "Y0", "G0"], ["B0", "Y5", "G3", "R0"]],
)
def test_a_zero_never_wins_when_a_non_zero_is_played(ruleset_id: str, cards: list[str]) -> None:
    for options in ({}, {"zero-lead": "first-nonzero"} if ruleset_id == NEW else {}):
        result = judge(ruleset_id, cards, options)
        assert result.winner is not None
        assert value_of(result.cards[result.winner]) != 0


@clause("STI-TRICK-6")
def test_later_all_zero_trick_has_no_winner() -> None:
    for options in ({}, {"zero-lead": "first-nonzero"}):
        result = judge(NEW, ["B0", "Y0", "G0", "R0"], options)
        assert result.winner is None
        assert result.taken == ()
        assert result.aside == tuple(parse(NEW, "B0", "Y0", "G0", "R0"))
        assert "STI-TRICK-6" in result.clauses


@clause("STI-D-ZEROLEAD", "STI-TRICK-5", "STI-TRICK-4")
def test_zero_lead_readings_differ_on_b0_y5_g3_r0() -> None:
    lead_card = judge(NEW, ["B0", "Y5", "G3", "R0"], {"zero-lead": "lead-card"})
    first_nonzero = judge(NEW, ["B0", "Y5", "G3", "R0"], {"zero-lead": "first-nonzero"})
    assert lead_card.winner == 1  # blue leads: Y5 is the highest off-colour card
    assert first_nonzero.winner == 2  # yellow leads: G3 is the highest off-colour card
    assert lead_card.clauses[0] == "STI-TRICK-5"
    assert first_nonzero.clauses[0] == "STI-D-ZEROLEAD"
    assert make(NEW, 4).options["zero-lead"] == "lead-card"


@clause("STI-D-ZEROLEAD")
def test_zero_lead_reading_does_not_matter_for_a_non_zero_lead() -> None:
    for cards in (["B3", "Y5", "G3", "R0"], ["B3", "B5", "Y0", "R1"]):
        a = judge(NEW, cards, {"zero-lead": "lead-card"})
        b = judge(NEW, cards, {"zero-lead": "first-nonzero"})
        assert (a.winner, a.clauses) == (b.winner, b.clauses)


@clause("STI93-TRICK-1", "STI93-D-ALLZERO")
def test_1993_zero_lead_fixes_the_start_colour() -> None:
    # Blue 0 led: Y5 and G3 are trumps, the highest (Y5) wins.
    assert judge(OLD, ["B0", "Y5", "G3", "R0"]).winner == 1


# --- collecting tricks, in a game -------------------------------------------------------------


@clause("STI93-COLLECT-1", "STI-COLLECT-1")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_trick_winner_takes_the_cards_and_leads_next(ruleset_id: str) -> None:
    game = make(ruleset_id, 3)
    deal = make_deal(game, {0: ["R5", "Y8"], 1: ["R3", "G8"], 2: ["R2", "B7", "B8"]})
    state = pick_all(game.new_state_from_deals([deal]), {0: "Y8", 1: "G8", 2: "B8"})
    leader = state.current
    cards = {0: "R5", 1: "R3", 2: "B7"}
    for _ in range(3):
        state = act(state, cards[state.current])
    # B7 is the only card not of the red lead, so seat 2 takes the trick
    assert state.trick == ()
    assert state.leader == state.current == 2
    assert sorted(state.taken[2]) == sorted(parse(game, "R5", "R3", "B7"))
    assert state.taken[0] == state.taken[1] == ()
    assert state.tricks[-1][0] == leader


@clause("STI-TRICK-6", "STI-COLLECT-1")
def test_later_all_zero_trick_is_set_aside_and_the_leader_leads_again() -> None:
    game = make(NEW, 3)
    deal = make_deal(game, {0: ["R0", "R8"], 1: ["Y0", "Y8"], 2: ["G0", "G8"]})
    state = pick_all(game.new_state_from_deals([deal]), {0: "R8", 1: "Y8", 2: "G8"})
    assert state.current == 0
    for card in ("R0", "Y0", "G0"):
        state = act(state, card)
    assert state.leader == state.current == 0
    assert state.taken == ((), (), ())
    assert sorted(state.aside) == sorted(parse(game, "R0", "Y0", "G0"))
    assert state.tricks[-1][1].winner is None


@clause("STI93-D-ALLZERO", "STI93-COLLECT-1")
@pytest.mark.parametrize(
    ("reading", "leader_takes"), [("leader-takes", True), ("no-winner", False)]
)
def test_1993_all_zero_trick_in_a_game(reading: str, leader_takes: bool) -> None:
    game = make(OLD, 3, {"all-zero": reading})
    deal = make_deal(game, {0: ["Y0", "Y8"], 1: ["R0", "R8"], 2: ["O0", "O8"]})
    state = pick_all(game.new_state_from_deals([deal]), {0: "Y8", 1: "R8", 2: "O8"})
    assert state.current == 1
    for card in ("R0", "O0", "Y0"):
        state = act(state, card)
    assert state.leader == state.current == 1
    zeros = sorted(parse(game, "R0", "O0", "Y0"))
    if leader_takes:
        assert sorted(state.taken[1]) == zeros and state.aside == ()
    else:
        assert state.taken == ((), (), ()) and sorted(state.aside) == zeros


@clause("STI93-COLLECT-1", "STI-COLLECT-1", "STI93-ROUND-1", "STI-ROUND-1")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
@pytest.mark.parametrize("players", [3, 6])
def test_each_round_is_14_tricks_each_led_by_the_previous_winner(
    ruleset_id: str, players: int
) -> None:
    state = play_random_game(make(ruleset_id, players, {"rounds": 2}), seed=17)
    assert len(state.history) == 2
    for log in state.history:
        assert len(log.tricks) == 14
        assert log.tricks[0][0] == log.first_leader
        for (leader, result), (next_leader, _) in zip(log.tricks, log.tricks[1:], strict=False):
            winner = leader if result.winner is None else (leader + result.winner) % players
            assert next_leader == winner


@clause("STI93-ROUND-1", "STI-ROUND-1")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_round_ends_when_the_hands_are_empty_after_the_14th_trick(ruleset_id: str) -> None:
    state = make(ruleset_id, 4).new_initial_state(3)
    while True:
        nxt = state.child(state.legal_actions()[0])
        if nxt.history:
            break
        state = nxt
    assert len(state.tricks) == 13
    assert len(state.trick) == 3
    assert sum(len(h) for h in state.hands) == 1  # the last card of the round
    assert nxt.round_index == 1
    assert len(nxt.history[0].tricks) == 14


# --- scoring ----------------------------------------------------------------------------------


@clause("STI93-SCORE-1", "STI-SCORE-1", "STI-EX-UNWANTED")
def test_misery_colour_cards_count_minus_their_value() -> None:
    g, r = parse(NEW, "G5", "G9"), parse(NEW, "R0")[0]
    green = colour_of(g[0])
    assert card_points(green, [g[0]]) == -5
    assert card_points(green, [g[1]]) == -9
    assert card_points(green, g) == -14
    assert card_points(colour_of(r), [r]) == 0


@clause("STI93-SCORE-2", "STI-SCORE-2")
def test_other_colour_cards_count_plus_one_whatever_their_value() -> None:
    cards = parse(OLD, "R0", "O14", "Y7", "B1")
    green = colour_of(parse(OLD, "G1")[0])
    assert card_points(green, cards) == 4
    assert card_points(green, []) == 0


@clause("STI93-SCORE-3", "STI-SCORE-3", "STI-SCORE-4", "STI93-SCORE-4")
def test_the_picked_card_counts_against_its_owner() -> None:
    picked = parse(NEW, "Y2")[0]
    assert score(picked, []) == -2
    assert score(parse(NEW, "Y0")[0], []) == 0
    assert score(picked, parse(NEW, "Y5", "R3", "G0")) == -2 - 5 + 1 + 1


@clause("STI93-SCORE-4")
def test_1993_every_player_starts_below_zero_unless_the_misery_card_is_a_zero() -> None:
    for text in ("R0", "O3", "B14", "P1"):
        card = parse(OLD, text)[0]
        assert score(card, []) == -value_of(card)
        assert (score(card, []) < 0) == (value_of(card) > 0)


@clause(
    "STI93-SCORE-3", "STI-SCORE-4", "STI93-SCORE-1", "STI93-SCORE-2", "STI-SCORE-1", "STI-SCORE-2"
)
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_round_scores_in_a_game_follow_the_scoring_clauses(ruleset_id: str) -> None:
    state = play_random_game(make(ruleset_id, 4, {"rounds": 2}), seed=23)
    for log in state.history:
        picked = parse(ruleset_id, *dict(log.facts)["picked"])
        taken: list[list[Card]] = [[] for _ in range(4)]
        for leader, result in log.tricks:
            for offset, cards in result.taken:
                taken[(leader + offset) % 4].extend(cards)
        expected = []
        for seat in range(4):
            misery = colour_of(picked[seat])
            pile = [picked[seat], *taken[seat]]
            expected.append(
                sum(-value_of(c) for c in pile if colour_of(c) == misery)
                + sum(1 for c in pile if colour_of(c) != misery)
            )
        assert list(log.scores) == expected


# --- game end and winners ---------------------------------------------------------------------


@clause("STI93-GAME-1", "STI93-D-END")
@pytest.mark.parametrize("rounds", [1, 3, 12])
def test_1993_end_rounds_plays_exactly_n_rounds(rounds: int) -> None:
    state = play_random_game(make(OLD, 3, {"end": "rounds", "rounds": rounds}), seed=2)
    assert state.is_terminal()
    assert len(state.history) == rounds


@clause("STI93-GAME-1", "STI93-D-END")
@pytest.mark.parametrize(("target", "seed"), [(1, 1), (5, 1), (8, 5)])
def test_1993_end_target_stops_after_the_round_a_total_reaches_it(target: int, seed: int) -> None:
    game = make(OLD, 3, {"end": "target", "target": target, "rounds": 1})
    state = play_random_game(game, seed=seed, max_rounds=60)
    assert state.is_terminal()
    totals = [0, 0, 0]
    for k, log in enumerate(state.history):
        totals = [t + s for t, s in zip(totals, log.scores, strict=True)]
        reached = max(totals) >= target
        assert reached == (k == len(state.history) - 1)
    assert list(state.returns()) == totals


@clause("STI93-GAME-2", "STI93-D-END")
def test_1993_default_length_is_10_rounds_target_100() -> None:
    game = make(OLD, 3)
    assert game.options["end"] == "rounds"
    assert game.options["rounds"] == 10
    assert game.options["target"] == 100
    assert len(play_random_game(game, seed=4).history) == 10


@clause("STI-GAME-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_later_game_lasts_as_many_rounds_as_players(players: int) -> None:
    game = make(NEW, players)
    assert game.options["rounds"] == 0
    state = play_random_game(game, seed=players)
    assert state.is_terminal()
    assert len(state.history) == players


@clause("STI93-GAME-3", "STI-GAME-2", "STI-D-GAMETIE")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
@pytest.mark.parametrize(
    ("totals", "winners"),
    [([3, 5, 1], (1,)), ([3, 5, 5, 1], (1, 2)), ([-3, -1, -7], (1,)), ([-2, -2, -2], (0, 1, 2))],
)
def test_highest_total_wins_and_ties_share(
    ruleset_id: str, totals: list[int], winners: tuple
) -> None:
    game = make(ruleset_id, len(totals))
    assert tuple(game.ruleset.winners(game, totals)) == winners


@clause("STI93-GAME-3", "STI-GAME-2")
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_game_totals_are_the_sum_of_round_scores_and_name_the_winners(ruleset_id: str) -> None:
    state = play_random_game(make(ruleset_id, 4, {"rounds": 3}), seed=31)
    totals = [sum(log.scores[s] for log in state.history) for s in range(4)]
    assert list(state.returns()) == totals
    record = to_record(state)
    assert record["winners"] == [s for s in range(4) if totals[s] == max(totals)]


@clause("STI-GAME-2")
def test_later_round_scores_may_be_negative() -> None:
    state = play_random_game(make(NEW, 6), seed=1)
    assert any(s < 0 for log in state.history for s in log.scores)


def test_game_over_state_refuses_actions() -> None:
    state = play_random_game(make(NEW, 3), seed=1)
    assert state.is_terminal() and state.current_player() == -1
    assert state.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        state.child(play(parse(NEW, "R1")[0]))


# --- the worked examples ----------------------------------------------------------------------


@clause(
    "STI93-EX-SEATS",
    "STI93-EX-TRICK-1",
    "STI93-EX-TRICK-2",
    "STI93-EX-TRICK-3",
    "STI93-EX-TRICK-4",
    "STI93-EX-SCORE-AXEL",
    "STI93-EX-SCORE-LORE",
    "STI93-EX-SCORE-ULLI",
    "STI93-EX-SCORE-DORIS",
    "STI-EX-SELECT",
    "STI-EX-TRICK-1",
    "STI-EX-TRICK-2",
    "STI-EX-TRICK-3",
    "STI-EX-SCORE-MARIA",
    "STI-EX-SCORE-JACK",
    "STI93-D-DECK",
    "STI93-D-FOLLOW",
)
@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_worked_examples_hold_exactly_where_their_data_says(ruleset_id: str) -> None:
    checks = check_examples(ruleset_id)
    assert checks
    bad = [(c.example, c.readings, c.failures) for c in checks if not c.ok]
    assert bad == []
    examples = {c.example for c in checks}
    if ruleset_id == OLD:
        assert examples == {
            "STI93-EX-TRICKS",
            "STI93-EX-SCORE-AXEL",
            "STI93-EX-SCORE-LORE",
            "STI93-EX-SCORE-ULLI",
            "STI93-EX-SCORE-DORIS",
        }
    else:
        assert examples == {"STI-EX-TRICKS", "STI-EX-SCORE-MARIA", "STI-EX-SCORE-JACK"}
        assert all(c.holds for c in checks)  # nothing disputed in the later examples


def _sequence_check(readings: dict[str, str]):
    for c in check_examples(OLD):
        if c.example == "STI93-EX-TRICKS" and all(
            dict(c.readings)[k] == v for k, v in readings.items()
        ):
            return c
    raise AssertionError(readings)


@clause("STI93-EX-TRICK-1", "STI93-EX-TRICK-3", "STI93-D-DECK", "STI93-DECK-2")
def test_1993_trick_examples_fail_under_default_readings_on_the_deck_table() -> None:
    check = _sequence_check({"follow": "free", "all-zero": "leader-takes", "deck": "table"})
    assert not check.holds and not check.expected
    text = " ".join(check.failures)
    assert "Y14" in text
    assert "STI93-DECK-2" in text


@clause("STI93-EX-TRICK-2", "STI93-D-FOLLOW", "STI93-PLAY-2")
@pytest.mark.parametrize("follow", ["must-follow", "follow-or-trump"])
def test_1993_trick_examples_fail_under_strict_follow_on_lores_zero(follow: str) -> None:
    check = _sequence_check({"follow": follow, "deck": "full"})
    assert not check.holds
    text = " ".join(check.failures)
    assert "Lore" in text and "B0" in text and "STI93-PLAY-2" in text


@clause("STI93-EX-SEATS", "STI93-D-DECK", "STI93-D-FOLLOW")
def test_1993_trick_examples_hold_under_free_play_with_the_full_deck() -> None:
    for allzero in ("leader-takes", "no-winner"):
        assert _sequence_check({"follow": "free", "all-zero": allzero, "deck": "full"}).holds


@clause(
    "STI93-EX-SEATS", "STI93-EX-TRICK-1", "STI93-EX-TRICK-2", "STI93-EX-TRICK-3", "STI93-EX-TRICK-4"
)
def test_1993_trick_examples_directly() -> None:
    # Seats clockwise: Axel 0, Lore 1, Ulli 2, Doris 3; misery R, B, R, G.
    misery = {0: "R", 1: "B", 2: "R", 3: "G"}
    game = make(OLD, 4, {"deck": "full"})
    tricks = [  # leader, cards, winner seat, points to the winner
        (0, ["Y6", "Y5", "Y2", "Y14"], 3, 4),
        (3, ["R3", "R2", "B0", "R4"], 2, -8),
        (2, ["B14", "P6", "G6", "G4"], 3, -8),
        (3, ["G3", "G0", "G2", "O0"], 3, -4),
    ]
    palette = game.ruleset.palette
    for leader, texts, winner, points in tricks:
        result = game.ruleset.judge_trick(game, parse(game, *texts))
        assert result.winner is not None
        assert (leader + result.winner) % 4 == winner
        colour = palette.letters.index(misery[winner])
        assert card_points(colour, result.taken[0][1]) == points


@clause("STI-EX-SELECT", "STI-EX-TRICK-1", "STI-EX-TRICK-2", "STI-EX-TRICK-3")
def test_later_trick_examples_directly() -> None:
    # Maria 0, Jack 1, Gloria 2, Linus 3.
    game = make(NEW, 4)
    for leader, texts, winner in [
        (0, ["B3", "B10", "Y0", "B7"], 1),
        (1, ["Y9", "G5", "R6", "B4"], 3),
        (3, ["G11", "R5", "Y5", "G8"], 0),
    ]:
        result = game.ruleset.judge_trick(game, parse(game, *texts))
        assert (leader + result.winner) % 4 == winner


@clause("STI93-EX-SCORE-AXEL", "STI93-D-TYPO-114")
def test_axel_scores_3_with_14_other_cards_not_114() -> None:
    others = parse(OLD, *[f"Y{v}" for v in range(14)])
    many = parse(OLD, "Y1") * 114
    assert score(parse(OLD, "R4")[0], [*parse(OLD, "R2", "R5"), *others]) == 3
    assert score(parse(OLD, "R4")[0], [*parse(OLD, "R2", "R5"), *many]) != 3


@clause("STI93-EX-SCORE-LORE", "STI93-EX-SCORE-ULLI", "STI93-EX-SCORE-DORIS")
def test_1993_scoring_examples_directly() -> None:
    assert score(parse(OLD, "B1")[0], []) == -1
    ulli_others = parse(OLD, "B1", "B2", "B3", "B4", "B5")
    assert score(parse(OLD, "R0")[0], [*parse(OLD, "R1", "R3", "R14"), *ulli_others]) == -13
    assert score(parse(OLD, "G4")[0], parse(OLD, "R1", "R2", "B3", "Y9")) == 0


@clause("STI-EX-SCORE-MARIA", "STI-EX-SCORE-JACK")
def test_later_scoring_examples_directly() -> None:
    six = parse(NEW, "R1", "R2", "R3", "G1", "G2", "G3")
    assert score(parse(NEW, "Y2")[0], [*parse(NEW, "Y5", "Y4"), *six]) == -5
    nine = parse(NEW, *[f"B{v}" for v in range(9)])
    assert score(parse(NEW, "R0")[0], [*parse(NEW, "R2", "R4", "R1"), *nine]) == 2


# --- the model and the registries agree -------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_model_cites_only_registry_ids(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    ids = load_registry(ruleset_id).ids
    assert ruleset.implements
    assert set(ruleset.implements) <= ids
    assert {c for c in ruleset.clause.values() if c} <= ids


@pytest.mark.parametrize("ruleset_id", [OLD, NEW])
def test_dispute_options_match_the_registry(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    registry = load_registry(ruleset_id)
    by_option = {d.option: d for d in registry.disputes if d.option}
    model = {s.name: s for s in ruleset.option_specs if s.dispute}
    assert set(by_option) == set(model)
    for name, spec in model.items():
        dispute = by_option[name]
        assert spec.dispute == dispute.id
        assert set(spec.choices) == {r.value for r in dispute.readings}
        assert spec.default == dispute.default
