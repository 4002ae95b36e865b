"""One or more unit tests per normative clause and per dispute of the Hund registry (HUND-*).

Each test names the clauses and disputes it exercises with the ``clause`` marker.
Power order throughout: Trump, Plus, Hund, Minus, Lead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from tricklaw.model.actions import (
    ActionKind,
    card_of,
    designate,
    kind_of,
    leader,
    play,
    string_to_action,
)
from tricklaw.model.agents import play_random_game
from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.record import to_record
from tricklaw.model.replay.records import replay
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.rulesets.hund import lead_decider, round_score, virtual_card
from tricklaw.model.state import Deal, Game, Phase, RoundLog, State
from tricklaw.model.trick import TrickResult
from tricklaw.spec.errors import CardError, IllegalActionError, OptionError, TricklawError

clause = pytest.mark.clause

HUND = "hund"
RULESET = get_ruleset(HUND)
PALETTE = RULESET.palette
LETTERS = "RYGBP"
VIRTUAL = 2
SUIT_SIZE = {2: 6, 3: 6, 4: 8, 5: 10}
MORE_CARDS = {2: 9, 3: 9, 4: 12, 5: 15}
READINGS = ("whole-trick", "from-card", "next-trick")


# --- helpers ----------------------------------------------------------------------------------


def make(players: int, options: Mapping[str, Any] | None = None) -> Game:
    return RULESET.make_game(players, dict(options or {}))


def parse(*texts: str) -> list[Card]:
    return PALETTE.parse_all(texts)


def names(cards: Sequence[Card]) -> list[str]:
    return PALETTE.format_all(cards)


def make_deal(
    game: Game,
    wanted: Mapping[int, Sequence[str]],
    designation: int | None = 3,
    down: Sequence[str] = (),
    up: Sequence[str] = (),
) -> Deal:
    """A deal in which each seat holds the ``wanted`` cards, filled up from the deck in
    canonical order. With two players the virtual player's face-down and face-up rows
    (left to right) start with ``down`` and ``up`` and are filled up the same way."""
    deck = list(RULESET.deck(game.players, game.options))
    size = len(deck) // game.seats
    hands = [parse(*wanted.get(s, ())) for s in range(game.players)]
    downs, ups = parse(*down), parse(*up)
    used = {c for h in hands for c in h} | set(downs) | set(ups)
    rest = [c for c in deck if c not in used]
    for hand in hands:
        assert len(hand) <= size
        while len(hand) < size:
            hand.append(rest.pop(0))
    extras = (("designation", designation),) if designation is not None else ()
    if game.players != 2:
        assert rest == []
        return Deal(tuple(tuple(h) for h in hands), extras=extras)
    n_down = size // 2 if game.options["virtual-odd"] == "extra-up" else size - size // 2
    while len(downs) < n_down:
        downs.append(rest.pop(0))
    ups.extend(rest)
    assert len(downs) == n_down and len(downs) + len(ups) == size
    piles = (("virtual-down", tuple(downs)), ("virtual-up", tuple(ups)))
    return Deal((tuple(hands[0]), tuple(hands[1]), ()), piles, extras=extras)


def act(state: State[Any], *texts: str) -> State[Any]:
    for text in texts:
        state = state.child(string_to_action(text, PALETTE))
    return state


def judge(
    players: int,
    texts: Sequence[str],
    context: Mapping[str, str],
    options: Mapping[str, Any] | None = None,
) -> TrickResult:
    game = make(players, options)
    return RULESET.judge_trick(game, parse(*texts), context)


def finish_round(state: State[Any]) -> State[Any]:
    """Play the first legal action until the round in progress is over."""
    rounds = len(state.history)
    while len(state.history) == rounds and not state.is_terminal():
        state = state.child(state.legal_actions()[0])
    return state


def first_legal_game(game: Game, seed: int) -> State[Any]:
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        state = state.child(state.legal_actions()[0])
    return state


def find_seed(predicate: Callable[[int], bool], limit: int = 200) -> int:
    seed = next((s for s in range(limit) if predicate(s)), None)
    assert seed is not None, "no seed below the limit shows the case"
    return seed


def facts(log: RoundLog) -> dict[str, Any]:
    return dict(log.facts)


def count(cards: Sequence[Card], letter: str) -> int:
    return sum(1 for c in cards if LETTERS[colour_of(c)] == letter)


def text_scores(game: Game, log: RoundLog) -> list[int]:
    """Each seat's round score worked out from the text: +1 per Plus card, -1 per Minus
    card, 3 for a Hund count that is neither the most nor the fewest (per the readings)."""
    powers = facts(log)["powers"]
    taken = log.taken(game.seats)
    plus = powers[1] if len(powers) > 1 else None
    hund = powers[2] if len(powers) > 2 else None
    minus = powers[3] if len(powers) > 3 else None
    ignored = game.players == 2 and game.options["virtual-hund"] == "ignored"
    compared = [s for s in range(game.seats) if not (ignored and s == VIRTUAL)]
    counts = {s: count(taken[s], hund) for s in compared} if hund else {}
    scores = []
    for seat in range(game.seats):
        score = (count(taken[seat], plus) if plus else 0) - (
            count(taken[seat], minus) if minus else 0
        )
        if seat in counts:
            top, low = max(counts.values()), min(counts.values())
            n_top = list(counts.values()).count(top)
            n_low = list(counts.values()).count(low)
            if game.options["hund-tie"] == "excluded":
                left_out = counts[seat] in (top, low)
            else:
                left_out = (counts[seat] == top and n_top == 1) or (
                    counts[seat] == low and n_low == 1
                )
            score += 0 if left_out else 3
        scores.append(score)
    return scores


def lead_counts(game: Game, log: RoundLog) -> list[int]:
    lead_suit = facts(log)["powers"][4]
    return [count(t, lead_suit) for t in log.taken(game.seats)]


# --- players, suits and the deck --------------------------------------------------------------


@clause("HUND-FACT-5", "HUND-TWO-1")
def test_two_to_five_players_and_two_get_a_virtual_third_seat() -> None:
    assert RULESET.player_counts == (2, 3, 4, 5)
    assert [make(n).seats for n in (2, 3, 4, 5)] == [3, 3, 4, 5]
    assert [make(n).players for n in (2, 3, 4, 5)] == [2, 3, 4, 5]
    for n in (0, 1, 6, 7):
        with pytest.raises(OptionError, match=rf"2-5 players, not {n}"):
            make(n)


@clause("HUND-FACT-1", "HUND-GAP-8")
def test_five_suits_red_yellow_green_blue_purple() -> None:
    assert PALETTE.names == ("red", "yellow", "green", "blue", "purple")
    assert PALETTE.letters == ("R", "Y", "G", "B", "P")
    for players in (2, 3, 4, 5):
        for more in ("no", "yes"):
            game = make(players, {"more-cards": more})
            deck = RULESET.deck(players, game.options)
            assert {colour_of(c) for c in deck} == {0, 1, 2, 3, 4}
    assert names(parse("r1", "y2", "g3", "b4", "p5")) == ["R1", "Y2", "G3", "B4", "P5"]
    with pytest.raises(CardError, match="unknown colour 'O'"):
        parse("O1")


@clause("HUND-GAP-1", "HUND-OPT-1", "HUND-FACT-1", "HUND-TWO-1", "HUND-D-VALUES")
@pytest.mark.parametrize("more", ["no", "yes"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deck_is_five_suits_of_values_1_to_the_suit_size(players: int, more: str) -> None:
    size = (MORE_CARDS if more == "yes" else SUIT_SIZE)[players]
    game = make(players, {"more-cards": more})
    assert game.options["values"] == "from-1"  # the default reading
    deck = RULESET.deck(players, game.options)
    assert len(deck) == len(set(deck)) == 5 * size
    assert set(names(deck)) == {f"{s}{v}" for s in LETTERS for v in range(1, size + 1)}
    assert "R0" not in names(deck)


@clause("HUND-OPT-1", "HUND-TWO-1")
def test_suit_sizes_6_6_8_10_and_with_more_cards_9_9_12_15() -> None:
    def top(players: int, more: str) -> int:
        game = make(players, {"more-cards": more})
        return max(value_of(c) for c in RULESET.deck(players, game.options))

    assert [top(n, "no") for n in (2, 3, 4, 5)] == [6, 6, 8, 10]
    assert [top(n, "yes") for n in (2, 3, 4, 5)] == [9, 9, 12, 15]
    assert make(3).options["more-cards"] == "no"


@clause("HUND-D-VALUES", "HUND-GAP-1", "HUND-OPT-1")
@pytest.mark.parametrize("more", ["no", "yes"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_values_from_0_reading_numbers_each_suit_from_0(players: int, more: str) -> None:
    size = (MORE_CARDS if more == "yes" else SUIT_SIZE)[players]
    game = make(players, {"values": "from-0", "more-cards": more})
    deck = RULESET.deck(players, game.options)
    assert len(deck) == 5 * size
    assert set(names(deck)) == {f"{s}{v}" for s in LETTERS for v in range(size)}
    assert f"R{size}" not in names(deck)
    # The designation cards 1-5 still exist in every suit, so the base game works alike.
    assert all(f"{s}{v}" in names(deck) for s in LETTERS for v in range(1, 6))


# --- the deal ---------------------------------------------------------------------------------


@clause("HUND-GAP-2", "HUND-OPT-1", "HUND-TWO-1")
@pytest.mark.parametrize("more", ["no", "yes"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_all_cards_are_dealt_evenly(players: int, more: str) -> None:
    hand = 15 if more == "yes" else 10
    game = make(players, {"more-cards": more})
    deck = sorted(RULESET.deck(players, game.options))
    for seed in (0, 1):
        deal = game.new_initial_state(seed).info.deal
        held = [c for h in deal.hands for c in h] + [c for _, p in deal.piles for c in p]
        assert sorted(held) == deck
        if players == 2:
            assert [len(h) for h in deal.hands] == [hand, hand, 0]
            rows = len(deal.pile("virtual-down")) + len(deal.pile("virtual-up"))
            assert rows == hand  # the virtual player is dealt a hand like the others
        else:
            assert [len(h) for h in deal.hands] == [hand] * players
            assert deal.piles == ()


@clause("HUND-GAP-2")
def test_a_deal_with_unequal_hands_is_rejected_naming_the_clause() -> None:
    game = make(3)
    deal = game.new_initial_state(5).info.deal
    hands = [list(h) for h in deal.hands]
    hands[1].append(hands[0].pop())
    message = r"seat 0 is dealt 9 cards; with 3 players hund deals 10 each \[HUND-GAP-2\]"
    with pytest.raises(CardError, match=message):
        game.new_state_from_deals([Deal(tuple(map(tuple, hands)), extras=deal.extras)])


@clause("HUND-TWO-2")
def test_the_virtual_players_cards_must_lie_in_its_rows() -> None:
    game = make(2)
    deal = game.new_initial_state(5).info.deal
    rows = deal.pile("virtual-down") + deal.pile("virtual-up")
    as_hand = Deal((deal.hands[0], deal.hands[1], rows), extras=deal.extras)
    with pytest.raises(CardError, match=r"\[HUND-TWO-2\]"):
        game.new_state_from_deals([as_hand])


# --- rounds and designated numbers ------------------------------------------------------------


@clause("HUND-GAME-1", "HUND-FACT-5")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_game_lasts_five_rounds_and_the_highest_total_wins(players: int) -> None:
    game = make(players)
    state = play_random_game(game, seed=players)
    assert state.is_terminal()
    assert len(state.history) == 5
    assert [log.index for log in state.history] == [0, 1, 2, 3, 4]
    assert not RULESET.game_over(game, 4, state.returns())
    assert RULESET.game_over(game, 5, state.returns())
    totals = state.returns()
    best = max(totals[:players])
    assert to_record(state)["winners"] == [s for s in range(players) if totals[s] == best]


@clause("HUND-FACT-5", "HUND-GAP-6")
def test_winners_are_the_highest_totals_and_never_the_virtual_player() -> None:
    assert RULESET.winners(make(2), (3, 7, 12)) == (1,)  # seat 2, the virtual, is best
    assert RULESET.winners(make(2), (4, 4, 9)) == (0, 1)
    assert RULESET.winners(make(3), (5, 5, 1)) == (0, 1)
    assert RULESET.winners(make(4), (-2, 0, -1, -3)) == (1,)


@clause("HUND-D-DESIGNATION", "HUND-DESIG-1", "HUND-GAME-1")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_shuffled_designation_turns_up_each_of_1_to_5_once(players: int) -> None:
    game = make(players)
    assert game.options["designation"] == "shuffled"
    orders = set()
    for seed in range(6):
        state = first_legal_game(game, seed)
        numbers = [facts(log)["designation"] for log in state.history]
        assert sorted(numbers) == [1, 2, 3, 4, 5]
        assert numbers == [log.deal.extra("designation") for log in state.history]
        orders.add(tuple(numbers))
    assert len(orders) > 1  # drawn at random, not in a fixed order


@clause("HUND-D-DESIGNATION", "HUND-DESIG-1")
@pytest.mark.parametrize("players", [2, 4])
def test_ascending_designation_round_r_uses_number_r(players: int) -> None:
    game = make(players, {"designation": "ascending"})
    for seed in (0, 3):
        state = game.new_initial_state(seed)
        assert state.extra.designation == 1
        state = first_legal_game(game, seed)
        assert [facts(log)["designation"] for log in state.history] == [1, 2, 3, 4, 5]


@clause("HUND-DESIG-1", "HUND-D-DESIGNATION")
@pytest.mark.parametrize(("values", "number"), [("from-1", 6), ("from-0", 0), ("from-1", None)])
def test_a_deal_without_a_designation_of_1_to_5_is_rejected(
    values: str, number: int | None
) -> None:
    game = make(3, {"values": values})
    deal = make_deal(game, {}, designation=number)
    with pytest.raises(
        CardError, match=rf"designation {number} is not one of 1-5 \[HUND-DESIG-1\]"
    ):
        game.new_state_from_deals([deal])


@clause("HUND-D-DESIGNATION", "HUND-DESIG-1")
def test_explicit_deals_repeating_a_designated_number_are_rejected() -> None:
    game = make(3)
    deal = make_deal(game, {}, designation=3)
    with pytest.raises(TricklawError):
        state = finish_round(game.new_state_from_deals([deal, deal], seed=1))
        assert state.extra.designation == 3  # round 2 designates 3 a second time


@clause("HUND-D-DESIGNATION", "HUND-DESIG-1")
def test_ascending_explicit_deal_with_the_wrong_number_is_rejected() -> None:
    game = make(3, {"designation": "ascending"})
    with pytest.raises(TricklawError):
        game.new_state_from_deals([make_deal(game, {}, designation=5)])


@clause("HUND-AIM-1", "HUND-DESIG-1", "HUND-POWER-1")
@pytest.mark.parametrize("players", [2, 3, 5])
def test_no_suit_holds_a_power_when_a_round_begins(players: int) -> None:
    game = make(players)
    state = game.new_initial_state(7)
    for _ in range(5):
        if state.phase is Phase.CHOOSE:
            state = state.child(state.legal_actions()[0])
        assert state.extra.holders == ()  # nobody knows yet what will score
        assert state.observation(0)["powers"] == {}
        assert state.extra.designation in (1, 2, 3, 4, 5)
        state = finish_round(state)
        log = state.history[-1]
        # By the round's end all five suits got exactly one power each.
        assert sorted(facts(log)["powers"]) == sorted(LETTERS)
    assert state.is_terminal()


# --- playing a trick --------------------------------------------------------------------------


@clause("HUND-PLAY-1", "HUND-GAP-3")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_start_player_leads_and_every_seat_plays_once_in_clockwise_order(players: int) -> None:
    state = make(players).new_initial_state(11)
    assert state.first_leader == state.leader == state.current == 0  # seat 0 starts round 1
    while not state.history:
        trick_leader, seats = state.leader, []
        while True:
            seats.append(state.current)
            before = len(state.tricks)
            state = state.child(state.legal_actions()[-1])
            if len(state.tricks) > before or state.history:
                break
        assert seats == [(trick_leader + k) % players for k in range(players)]
    assert all(len(r.cards) == players for _, r in state.history[0].tricks)
    assert len(state.history[0].tricks) == 10


@clause("HUND-PLAY-2")
@pytest.mark.parametrize(
    ("hand", "trick", "allowed"),
    [
        (["R2", "R5", "Y1", "B6"], ["R3"], ["R2", "R5"]),
        (["R2", "Y1", "B6"], ["Y4", "R6"], ["Y1"]),  # the first card's suit counts
        (["Y1", "B6", "G2"], ["R3"], ["B6", "G2", "Y1"]),  # void: anything
        (["Y1", "B6", "G2"], [], ["B6", "G2", "Y1"]),  # the lead: anything
    ],
)
def test_follow_suit_if_possible(hand: list[str], trick: list[str], allowed: list[str]) -> None:
    game = make(4)
    got = RULESET.playable(game, tuple(sorted(parse(*hand))), tuple(parse(*trick)))
    assert sorted(names(got)) == sorted(allowed)


@clause("HUND-PLAY-2", "HUND-PLAY-1")
def test_an_unfollowed_suit_or_a_foreign_card_is_refused_naming_the_clause() -> None:
    game = make(3)
    deal = make_deal(game, {0: ["R1"], 1: ["R2", "Y6"], 2: ["R3"]})
    state = act(game.new_state_from_deals([deal]), "R1")
    assert names(state.legal_actions()) == names([c for c in state.hands[1] if colour_of(c) == 0])
    with pytest.raises(IllegalActionError, match="must follow suit") as info:
        act(state, "Y6")
    assert info.value.clause == "HUND-PLAY-2"
    with pytest.raises(IllegalActionError, match="not in that seat's hand") as info:
        act(state, "R3")
    assert info.value.clause == "HUND-PLAY-1"
    with pytest.raises(IllegalActionError) as info:
        state.child(leader(0))  # not a card at all
    assert info.value.clause == "HUND-PLAY-1"


@clause("HUND-COLLECT-1", "HUND-GAP-4")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_winner_takes_the_trick_and_leads_the_next(players: int) -> None:
    game = make(players)
    state = finish_round(game.new_initial_state(4))
    log = state.history[0]
    taken = log.taken(game.seats)
    for (lead_a, result), (lead_b, _) in zip(log.tricks, log.tricks[1:], strict=False):
        winner = (lead_a + result.winner) % game.seats
        assert lead_b == winner
        assert result.taken == ((result.winner, result.cards),)
        assert set(result.cards) <= set(taken[winner])
    assert sum(len(t) for t in taken) == len(RULESET.deck(players, game.options))


# --- deciding a trick -------------------------------------------------------------------------


@clause("HUND-TRICK-2")
@pytest.mark.parametrize(
    ("texts", "context", "winner"),
    [
        (["R2", "Y6", "R5"], {"designation": "3"}, 2),  # a higher off-suit card is no use
        (["R2", "Y6", "R5"], {"powers": "B", "designation": "3"}, 2),  # trump held, none played
        (["G4", "G6", "G1", "R6"], {"designation": "2"}, 1),
        (["B1", "R6", "Y6", "G6", "P6"], {"designation": "4"}, 0),
    ],
)
def test_without_trumps_the_highest_card_of_the_first_suit_wins(
    texts: list[str], context: dict[str, str], winner: int
) -> None:
    result = judge(max(3, len(texts)), texts, context)
    assert result.winner == winner
    assert result.clauses == ("HUND-TRICK-2", "HUND-COLLECT-1")
    assert result.taken == ((winner, tuple(parse(*texts))),)


@clause("HUND-TRICK-1", "HUND-POWER-1")
@pytest.mark.parametrize(
    ("texts", "context", "winner"),
    [
        (["R6", "B1", "R5"], {"powers": "B", "designation": "3"}, 1),  # a low trump beats R6
        (["B2", "R6", "B5", "Y6"], {"powers": "B,R", "designation": "3"}, 2),  # highest trump
        (["R6", "P1", "G6", "P4", "P2"], {"powers": "P,G,R", "designation": "3"}, 3),
    ],
)
def test_the_highest_trump_takes_the_trick(
    texts: list[str], context: dict[str, str], winner: int
) -> None:
    result = judge(max(3, len(texts)), texts, context)
    assert result.winner == winner
    assert result.clauses == ("HUND-TRICK-1", "HUND-COLLECT-1")
    trump = context["powers"].split(",")[0]
    assert ("trump", PALETTE.name(LETTERS.index(trump))) in result.facts


@clause("HUND-DESIG-2", "HUND-DESIG-1")
def test_each_designated_card_gives_its_suit_the_next_power_in_play_order() -> None:
    result = judge(5, ["Y3", "R3", "B1", "B3", "P3"], {"designation": "3"})
    assert ("powers", "trump=yellow, plus=red, hund=blue, minus=purple") in result.facts
    assert result.winner == 0  # yellow became trump; Y3 is the only yellow
    result = judge(3, ["G2", "G5", "R2"], {"powers": "B,Y", "designation": "2"})
    assert ("powers", "trump=blue, plus=yellow, hund=green, minus=red") in result.facts
    assert result.winner == 1  # no trump played: G5 is the highest green
    result = judge(3, ["G2", "G5", "R4"], {"designation": "1"})
    assert ("powers", "none") in result.facts


@clause("HUND-D-TRUMPTIMING", "HUND-TRICK-1", "HUND-DESIG-2", "HUND-POWER-1")
@pytest.mark.parametrize(
    ("timing", "winner"), [("whole-trick", 1), ("from-card", 2), ("next-trick", 0)]
)
def test_trump_timing_the_disputes_own_example(timing: str, winner: int) -> None:
    # Red 2 led; blue 6, then blue 3 (the first 3 of the round) from players out of red.
    result = judge(3, ["R2", "B6", "B3"], {"designation": "3"}, {"trump-timing": timing})
    assert result.winner == winner
    assert ("powers", "trump=blue") in result.facts


@clause("HUND-D-TRUMPTIMING")
def test_trump_timing_default_is_whole_trick() -> None:
    assert make(3).options["trump-timing"] == "whole-trick"
    assert judge(3, ["R2", "B6", "B3"], {"designation": "3"}).winner == 1


@clause("HUND-D-TRUMPTIMING", "HUND-TRICK-1", "HUND-TRICK-2", "HUND-DESIG-2")
@pytest.mark.parametrize(
    ("timing", "before", "after"),
    [("whole-trick", 1, 2), ("from-card", 2, 2), ("next-trick", 0, 0)],
)
def test_trump_timing_live_with_a_trump_suit_card_before_and_after_the_designating_card(
    timing: str, before: int, after: int
) -> None:
    game = make(3, {"trump-timing": timing})
    reds = ["R1", "R2", "R3", "R4", "R5", "R6"]
    # B6 falls before the designating B3: the readings all differ.
    deal = make_deal(game, {0: reds, 1: ["B6", "Y1", "Y2", "Y3"], 2: ["B3", "G1", "G2", "G3"]})
    state = act(game.new_state_from_deals([deal]), "R2", "B6", "B3")
    leader_seat, result = state.tricks[0]
    assert leader_seat == 0 and names(result.cards) == ["R2", "B6", "B3"]
    assert state.extra.holders == (3,)  # blue is trump from B3 on
    assert state.extra.trump_trick == 0 and state.extra.trump_pos == 2
    assert result.winner == before
    assert state.leader == before
    assert set(names(state.taken[before])) == {"R2", "B6", "B3"}
    # B6 falls after the designating B3: whole-trick and from-card agree.
    deal = make_deal(game, {0: reds, 1: ["B3", "Y1", "Y2", "Y3"], 2: ["B6", "G1", "G2", "G3"]})
    state = act(game.new_state_from_deals([deal]), "R2", "B3", "B6")
    assert state.extra.trump_pos == 1
    assert state.tricks[0][1].winner == after


@clause("HUND-POWER-1", "HUND-TRICK-1", "HUND-DESIG-2")
@pytest.mark.parametrize("timing", READINGS)
def test_trump_counts_in_every_later_trick_of_the_round(timing: str) -> None:
    game = make(3, {"trump-timing": timing})
    deal = make_deal(
        game,
        {
            0: ["B3", "R1", "R2", "R3", "R4", "R5", "R6", "Y1", "Y2", "Y3"],
            1: ["B1", "B4", "B5", "B6", "G1", "G2", "G3", "G4", "G5", "G6"],
            2: ["B2", "Y4", "Y5", "Y6", "P1", "P2", "P3", "P4", "P5", "P6"],
        },
    )
    state = act(game.new_state_from_deals([deal]), "B3", "B1", "B2")
    assert state.extra.holders == (3,)
    assert state.leader == 0  # B3 takes its own trick under every reading
    state = act(state, "R6", "B4", "Y4")
    assert state.tricks[1][1].winner == 1  # B4 trumps R6
    assert state.tricks[1][1].clauses[0] == "HUND-TRICK-1"
    assert state.leader == 1


@clause("HUND-POWER-1", "HUND-TRICK-2")
def test_trump_lasts_only_until_the_end_of_its_round() -> None:
    game = make(3)
    first = make_deal(game, {}, designation=3)
    probe = finish_round(game.new_state_from_deals([first], seed=0))
    trump = facts(probe.history[0])["powers"][0]
    start = 0 if probe.phase is Phase.CHOOSE else 1  # when asked, the decider names seat 0
    lead_suit = next(x for x in LETTERS if x != trump)
    third = next(x for x in LETTERS if x not in (trump, lead_suit))
    wanted = {
        start: [f"{lead_suit}{v}" for v in range(1, 7)],
        (start + 1) % 3: [f"{trump}{v}" for v in range(1, 7)],
        (start + 2) % 3: [f"{third}6"],
    }
    second = make_deal(game, wanted, designation=5)
    state = finish_round(game.new_state_from_deals([first, second], seed=0))
    if state.phase is Phase.CHOOSE:
        state = state.child(leader(0))
    assert state.leader == start
    assert state.extra.holders == () and state.extra.trump_trick == -1
    # Last round's trump suit, played by a player out of the led suit, is no trump now.
    state = act(state, f"{lead_suit}1", f"{trump}6", f"{third}6")
    result = state.tricks[0][1]
    assert result.winner == 0
    assert result.clauses == ("HUND-TRICK-2", "HUND-COLLECT-1")
    assert state.leader == start


@clause("HUND-DESIG-2", "HUND-DESIG-1")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_powers_are_assigned_the_moment_a_matching_card_falls(players: int) -> None:
    game = make(players)
    state = game.new_initial_state(13)
    number = state.extra.designation
    expected: list[int] = []
    while not state.history:
        action = state.legal_actions()[-1]
        card = card_of(action)
        state = state.child(action)
        if value_of(card) == number:
            expected.append(colour_of(card))
        if state.history:
            assert facts(state.history[0])["powers"] == [LETTERS[s] for s in expected]
        else:
            assert list(state.extra.holders) == expected
            assert list(state.observation(0)["powers"].values()) == [
                PALETTE.name(s) for s in expected
            ]
    assert sorted(expected) == [0, 1, 2, 3, 4]


@clause("HUND-FACT-4")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_lead_suit_is_known_once_four_designated_cards_are_out(players: int) -> None:
    game = make(players)
    for seed in (1, 2):
        state = game.new_initial_state(seed)
        predicted = None
        while not state.history:
            holders = state.extra.holders
            if len(holders) == 4 and predicted is None:
                (predicted,) = set(range(5)) - set(holders)
                number = state.extra.designation
                in_hands = [c for h in state.hands for c in h if value_of(c) == number]
                assert [colour_of(c) for c in in_hands] == [predicted]  # still in a hand
            state = state.child(state.legal_actions()[0])
        assert predicted is not None
        assert facts(state.history[0])["powers"][4] == LETTERS[predicted]


# --- scoring ----------------------------------------------------------------------------------


def score(players: int, piles: Sequence[Sequence[str]], powers: str, **options: str) -> list[int]:
    game = make(players, {k.replace("_", "-"): v for k, v in options.items()})
    holders = [LETTERS.index(x) for x in powers]
    virtual = VIRTUAL if players == 2 else None
    return list(round_score([parse(*p) for p in piles], holders, game.rules, virtual))


@clause("HUND-POWER-2", "HUND-POWER-4", "HUND-FACT-2")
def test_plus_cards_score_1_and_minus_cards_minus_1_each() -> None:
    # Trump R, Plus Y, Hund G, Minus B, Lead P; Hund counts 1/1/1 keep Hund out of it.
    piles = [
        ["Y1", "Y2", "Y3", "B1", "R6", "P6", "G1"],
        ["B2", "B3", "B4", "R1", "G2"],
        ["Y4", "B5", "P1", "P2", "G3"],
    ]
    assert score(3, piles, "RYGBP") == [3 - 1, -3, 1 - 1]
    # Trump and Lead cards are worth nothing.
    assert score(3, [["R1", "R2", "P3"], ["G1"], ["G2"]], "RYGBP") == [0, 0, 0]
    # Only two powers given out: Plus counts, nothing else does.
    assert score(3, [["Y1", "Y2", "B1"], ["G1", "G2"], []], "RY") == [2, 0, 0]


@clause("HUND-POWER-3", "HUND-FACT-3", "HUND-D-HUNDTIE")
@pytest.mark.parametrize(
    ("tie", "expected"), [("excluded", [1, 4, -2, 0]), ("scores", [1, 4, 1, 3])]
)
def test_hund_pays_3_to_all_but_the_most_and_the_fewest(tie: str, expected: list[int]) -> None:
    # Hund counts (green) 3, 2, 1, 1: seat 0 has the most, seats 2 and 3 share the fewest.
    piles = [
        ["Y1", "Y2", "B1", "G1", "G2", "G3"],
        ["G4", "G5", "Y3"],
        ["G6", "B2", "B3"],
        ["G7"],
    ]
    assert score(4, piles, "RYGBP", hund_tie=tie) == expected


@clause("HUND-POWER-3", "HUND-FACT-3", "HUND-D-HUNDTIE")
def test_hund_with_unique_most_and_fewest_pays_the_middle_under_both_readings() -> None:
    piles = [["G1", "G2", "G3", "G4"], ["G5", "G6"], ["G7"], ["G8"], []]  # 4, 2, 1, 1, 0
    for tie in ("excluded", "scores"):
        assert score(5, piles, "RYGBP", hund_tie=tie) == [0, 3, 3, 3, 0]


@clause("HUND-D-HUNDTIE", "HUND-POWER-3")
def test_hund_when_every_count_is_equal() -> None:
    piles = [["G1", "G2"], ["G3", "G4"], ["G5", "G6"], ["G7", "G8"]]
    assert make(4).options["hund-tie"] == "excluded"  # the default
    assert score(4, piles, "RYGBP") == [0, 0, 0, 0]  # everyone has the most and the fewest
    assert score(4, piles, "RYGBP", hund_tie="scores") == [3, 3, 3, 3]


@clause("HUND-D-VIRTUALHUND", "HUND-POWER-3", "HUND-GAP-6", "HUND-TWO-3")
@pytest.mark.parametrize(
    ("piles", "counts", "ignored"),
    [
        # green counts 2, 4 and the virtual 0: counted, seat 0 is in the middle
        ([["G1", "G2"], ["G3", "G4", "G5", "G6"], ["Y1"]], [3, 0, 1], [0, 0, 1]),
        # green counts 4, 0 and the virtual 2: the virtual is in the middle and scores
        ([["G1", "G2", "G3", "G4"], ["Y1"], ["G5", "G6"]], [0, 1, 3], [0, 1, 0]),
        # 3, 3 and the virtual 0: counted, both humans share the most
        ([["G1", "G2", "G3"], ["G4", "G5", "G6"], []], [0, 0, 0], [0, 0, 0]),
    ],
)
def test_virtual_hund_counts_or_ignores_the_virtual_players_cards(
    piles: list[list[str]], counts: list[int], ignored: list[int]
) -> None:
    assert make(2).options["virtual-hund"] == "counts"
    assert score(2, piles, "RYGBP") == counts
    assert score(2, piles, "RYGBP", virtual_hund="ignored") == ignored


@clause("HUND-D-VIRTUALHUND", "HUND-D-HUNDTIE")
def test_virtual_hund_ignored_with_the_two_humans_tied() -> None:
    piles = [["G1", "G2"], ["G3", "G4"], ["G5", "G6"]]
    assert score(2, piles, "RYGBP", virtual_hund="ignored") == [0, 0, 0]
    assert score(2, piles, "RYGBP", virtual_hund="ignored", hund_tie="scores") == [3, 3, 0]
    assert score(2, piles, "RYGBP", hund_tie="scores") == [3, 3, 3]


@clause("HUND-GAP-6", "HUND-POWER-2", "HUND-POWER-4")
def test_the_virtual_player_is_scored_like_any_player() -> None:
    piles = [["G1"], ["G2", "G3", "G4"], ["Y1", "Y2", "Y3", "B1", "G5", "G6"]]
    assert score(2, piles, "RYGBP") == [0, 0, 3 - 1 + 3]


@clause(
    "HUND-POWER-2",
    "HUND-POWER-3",
    "HUND-POWER-4",
    "HUND-FACT-2",
    "HUND-FACT-3",
    "HUND-D-HUNDTIE",
    "HUND-D-VIRTUALHUND",
)
@pytest.mark.parametrize("virtual", ["counts", "ignored"])
@pytest.mark.parametrize("tie", ["excluded", "scores"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_live_round_scores_agree_with_the_text(players: int, tie: str, virtual: str) -> None:
    game = make(players, {"hund-tie": tie, "virtual-hund": virtual})
    for seed in (0, 1):
        state = play_random_game(game, seed)
        for log in state.history:
            assert list(log.scores) == text_scores(game, log)
        totals = [sum(log.scores[s] for log in state.history) for s in range(game.seats)]
        assert list(state.returns()) == totals


# --- the Lead power ---------------------------------------------------------------------------


def decide(
    counts: Sequence[int], *, start: int = 0, tie: str = "nobody", players: int | None = None
) -> int | None:
    players = players or len(counts)
    game = make(players, {"lead-tie": tie})
    taken = [[Card(4 * 32 + 1 + k) for k in range(n)] for n in counts]  # purple cards
    seats = tuple(range(len(counts)))
    return lead_decider(
        taken,
        (0, 1, 2, 3, 4),
        game.rules,
        seating=seats,
        start=start,
        virtual=VIRTUAL if players == 2 else None,
    )


@clause("HUND-POWER-5", "HUND-D-LEADTIE", "HUND-GAP-3")
def test_the_lead_decider_has_the_most_lead_cards() -> None:
    assert decide([1, 2, 5, 0]) == 2
    assert decide([1, 2, 5, 0], tie="earliest") == 2
    assert decide([6, 0, 0, 0, 0]) == 0
    # Ties: nobody, or the first tied seat clockwise from the start player.
    assert decide([1, 3, 0, 3], start=0) is None
    assert decide([1, 3, 0, 3], start=0, tie="earliest") == 1
    assert decide([1, 3, 0, 3], start=2, tie="earliest") == 3
    assert decide([1, 3, 0, 3], start=3, tie="earliest") == 3
    assert decide([1, 3, 0, 3], start=1, tie="earliest") == 1
    assert make(4).options["lead-tie"] == "nobody"


@clause("HUND-GAP-6", "HUND-POWER-5", "HUND-D-LEADTIE")
def test_the_virtual_player_never_decides() -> None:
    assert decide([1, 2, 3], players=2) is None  # the virtual has the most: nobody
    assert decide([1, 2, 3], players=2, tie="earliest") is None
    assert decide([3, 0, 3], players=2, start=1, tie="earliest") is None  # virtual first
    assert decide([3, 0, 3], players=2, start=0, tie="earliest") == 0
    assert decide([1, 4, 1], players=2) == 1
    assert decide([1, 2, 3], players=3) == 2  # a real third player does decide


def _decided_round_0(game: Game) -> Callable[[int], bool]:
    def check(seed: int) -> bool:
        state = finish_round(game.new_initial_state(seed))
        return facts(state.history[0])["lead_decider"] is not None

    return check


@clause("HUND-POWER-5", "HUND-GAP-5")
@pytest.mark.parametrize("named", [0, 1, 2])
def test_the_lead_decider_names_the_start_player_after_the_next_deal(named: int) -> None:
    game = make(3)
    seed = find_seed(_decided_round_0(game))
    state = finish_round(game.new_initial_state(seed))
    decider = facts(state.history[0])["lead_decider"]
    counts = lead_counts(game, state.history[0])
    assert counts[decider] == max(counts) and counts.count(max(counts)) == 1
    # The new round is dealt and seen before the choice.
    assert state.round_index == 1 and state.phase is Phase.CHOOSE
    assert [len(h) for h in state.hands] == [10, 10, 10]
    assert state.current == decider
    assert len(state.observation(decider)["hand"]) == 10
    assert state.legal_actions() == (leader(0), leader(1), leader(2))
    with pytest.raises(IllegalActionError, match="name the start player") as info:
        state.child(play(state.hands[decider][0]))
    assert info.value.clause == "HUND-POWER-5"
    state = state.child(leader(named))
    assert state.phase is Phase.PLAY
    assert state.first_leader == state.leader == state.current == named
    state = finish_round(state)
    log = state.history[1]
    assert log.first_leader == named
    assert log.actions[0] == (decider, leader(named))
    assert log.tricks[0][0] == named
    assert to_record(state)["rounds"][1]["actions"][0] == {
        "seat": decider,
        "action": f"leader {named}",
    }


@clause("HUND-GAP-3", "HUND-D-LEADTIE", "HUND-POWER-5")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_without_a_decider_the_start_passes_to_the_left(players: int) -> None:
    game = make(players)
    checked = 0
    for seed in range(4):
        state = first_legal_game(game, seed)
        for prev, log in zip(state.history, state.history[1:], strict=False):
            decider = facts(prev)["lead_decider"]
            if decider is None:
                assert log.first_leader == (prev.first_leader + 1) % game.seats
                assert all(kind_of(a) is ActionKind.PLAY for _, a in log.actions)
                checked += 1
            else:
                assert log.actions[0] == (decider, leader(log.first_leader))
    assert checked > 0


@clause("HUND-D-LEADTIE", "HUND-POWER-5", "HUND-GAP-3")
def test_lead_tie_readings_differ_on_the_same_round() -> None:
    nobody, earliest = make(4), make(4, {"lead-tie": "earliest"})

    def tied(seed: int) -> bool:
        state = finish_round(nobody.new_initial_state(seed))
        counts = lead_counts(nobody, state.history[0])
        return counts.count(max(counts)) > 1

    seed = find_seed(tied)
    a = finish_round(nobody.new_initial_state(seed))
    b = finish_round(earliest.new_initial_state(seed))
    assert a.history[0].tricks == b.history[0].tricks  # the same play
    counts = lead_counts(nobody, a.history[0])
    first = next(s for s in range(4) if counts[s] == max(counts))  # round 1 starts at seat 0
    assert facts(a.history[0])["lead_decider"] is None
    assert a.phase is Phase.PLAY and a.first_leader == 1
    assert facts(b.history[0])["lead_decider"] == first
    assert b.phase is Phase.CHOOSE and b.current == first


@clause("HUND-GAP-5", "HUND-TWO-3", "HUND-GAP-6")
def test_the_lead_decider_may_name_the_virtual_player() -> None:
    game = make(2)
    seed = find_seed(_decided_round_0(game))
    state = finish_round(game.new_initial_state(seed))
    decider = facts(state.history[0])["lead_decider"]
    assert decider in (0, 1)
    assert state.legal_actions() == (leader(0), leader(1), leader(2))
    state = state.child(leader(VIRTUAL))
    # The virtual player leads at once, by its rule; then seat 0 is to play.
    assert state.first_leader == state.leader == VIRTUAL
    assert len(state.trick) == 1 and state.current == 0
    shown = [up for up, _ in state.extra.columns if up is not None]
    assert state.trick[0] not in state.hands[VIRTUAL]
    assert len(shown) == 4  # one of its five face-up cards was played


@clause("HUND-GAP-5", "HUND-GAME-1")
def test_in_the_final_round_lead_has_no_effect() -> None:
    game = make(3)

    def decided_last(seed: int) -> bool:
        return facts(first_legal_game(game, seed).history[4])["lead_decider"] is not None

    state = first_legal_game(game, find_seed(decided_last))
    assert state.is_terminal() and state.legal_actions() == ()
    assert len(state.history) == 5
    assert state.current_player() == -1


# --- the virtual player -----------------------------------------------------------------------


@clause("HUND-TWO-1", "HUND-TWO-2")
def test_the_virtual_players_columns_face_up_on_face_down() -> None:
    game = make(2)
    state = game.new_initial_state(9)
    deal = state.info.deal
    downs, ups = deal.pile("virtual-down"), deal.pile("virtual-up")
    assert len(downs) == len(ups) == 5
    assert state.extra.columns == tuple(zip(ups, downs, strict=True))
    assert state.observation(0)["virtual_display"] == names(ups)
    assert sorted(state.hands[VIRTUAL]) == sorted(downs + ups)
    assert "virtual_display" in state.observation(1)
    assert not set(names(downs)) & set(state.observation(0)["virtual_display"])


@clause("HUND-TWO-3", "HUND-TWO-4", "HUND-TWO-5", "HUND-TWO-6")
def test_the_virtual_player_follows_its_display_rules_and_reveals_after_a_trick() -> None:
    game = make(2)
    deal = make_deal(
        game,
        {
            0: ["R1", "R5", "Y3", "Y4", "Y5", "G4", "G5", "B4", "B5", "P5"],
            1: ["R6", "G6", "B6", "B2", "Y6", "Y2", "G2", "P3", "R3", "B3"],
        },
        designation=5,
        up=["Y1", "R4", "R2", "G1", "B1"],
        down=["P1", "P2", "G3", "P4", "P6"],
    )
    state = game.new_state_from_deals([deal])
    assert state.current == 0
    # Trick 1: the virtual plays the leftmost red of its display (R4, not Y1 or R2).
    state = act(state, "R1", "R6")
    assert names(state.tricks[0][1].cards) == ["R1", "R6", "R4"]
    assert state.leader == 1 and state.current == 1
    assert [s for s, _ in state.actions] == [0, 1]  # the virtual takes no decisions
    # After the trick the uncovered face-down card is turned up.
    assert names([c for c in state.extra.columns[1] if c is not None]) == ["P2"]
    assert state.extra.columns[1] == (parse("P2")[0], None)
    # Trick 2: green led; the leftmost green shown is G1 (column 4).
    state = act(state, "G6")
    assert names(state.trick) == ["G6", "G1"] and state.current == 0
    assert state.extra.columns[3] == (None, parse("P4")[0])  # not yet turned up
    state = act(state, "G4")
    assert state.extra.columns[3] == (parse("P4")[0], None)
    assert state.leader == 1
    # Trick 3: green led; no green is shown (G3 lies face down), so the leftmost card: Y1.
    state = act(state, "G2")
    assert names(state.trick) == ["G2", "Y1"]
    assert state.observation(0)["virtual_display"] == [None, "P2", "R2", "P4", "B1"]
    assert RULESET.playable(game, state.hands[0], state.trick) == tuple(parse("G5"))


@clause("HUND-TWO-4", "HUND-TWO-5", "HUND-TWO-6", "HUND-TWO-3")
def test_the_virtual_player_leads_its_leftmost_face_up_card() -> None:
    game = make(2)
    deal = make_deal(
        game,
        {0: ["R1", "R2"], 1: ["R3", "R4", "R5"]},
        designation=4,
        up=["Y1", "R6", "G1", "B1", "P1"],
        down=["Y2", "Y3", "G2", "B2", "P2"],
    )
    state = act(game.new_state_from_deals([deal]), "R1", "R3")
    assert names(state.tricks[0][1].cards) == ["R1", "R3", "R6"]  # R6 wins for the virtual
    assert state.tricks[0][1].winner == 2
    assert set(names(state.taken[VIRTUAL])) == {"R1", "R3", "R6"}
    # It leads at once: the leftmost face-up card, Y1; column 2's Y3 was turned up.
    assert state.leader == VIRTUAL and names(state.trick) == ["Y1"]
    assert state.current == 0
    assert state.extra.columns[0] == (None, parse("Y2")[0])
    assert state.extra.columns[1] == (parse("Y3")[0], None)
    assert names([virtual_card(state.extra.columns, ())]) == ["Y3"]
    assert names([virtual_card(state.extra.columns, tuple(parse("B5")))]) == ["B1"]


@clause("HUND-D-VIRTUALODD", "HUND-TWO-2", "HUND-TWO-6", "HUND-OPT-1", "HUND-GAP-2")
@pytest.mark.parametrize(("odd", "n_down", "n_up"), [("extra-down", 8, 7), ("extra-up", 7, 8)])
def test_virtual_odd_hand_of_15(odd: str, n_down: int, n_up: int) -> None:
    game = make(2, {"more-cards": "yes", "virtual-odd": odd})
    state = game.new_initial_state(6)
    deal = state.info.deal
    downs, ups = deal.pile("virtual-down"), deal.pile("virtual-up")
    assert (len(downs), len(ups)) == (n_down, n_up)
    columns = state.extra.columns
    assert len(columns) == 8
    assert [c for c, _ in columns if c is not None] == list(ups)
    shown = state.observation(0)["virtual_display"]
    if odd == "extra-down":
        assert columns[7] == (None, downs[7])  # uncovered, still face down
        assert shown[7] is None and len([s for s in shown if s]) == 7
    else:
        assert columns[7] == (ups[7], None)  # nothing beneath the eighth face-up card
        assert len([s for s in shown if s]) == 8
    while not state.tricks:
        state = state.child(state.legal_actions()[0])
    played = state.tricks[0][1].cards
    if odd == "extra-down":
        assert downs[7] not in played
        assert state.extra.columns[7] == (downs[7], None)  # turned up after the first trick
    assert make(2).options["virtual-odd"] == "extra-down"


@clause("HUND-TWO-2", "HUND-D-VIRTUALODD")
@pytest.mark.parametrize("n_down", [3, 10])
def test_a_deal_with_the_virtual_rows_not_split_in_half_is_rejected(n_down: int) -> None:
    game = make(2)
    deal = game.new_initial_state(1).info.deal
    rows = deal.pile("virtual-down") + deal.pile("virtual-up")
    piles = (("virtual-down", rows[:n_down]), ("virtual-up", rows[n_down:]))
    with pytest.raises(CardError):
        game.new_state_from_deals([Deal(deal.hands, piles, extras=deal.extras)])


@clause("HUND-TWO-2", "HUND-TWO-4")
def test_a_record_with_no_face_up_virtual_card_is_refused_by_name() -> None:
    game = make(2)
    state = finish_round(game.new_initial_state(1))
    record = json.loads(json.dumps(to_record(state)))
    deal = record["rounds"][0]["deal"]
    rows = deal["piles"]["virtual-down"] + deal["piles"]["virtual-up"]
    deal["piles"] = {"virtual-down": rows, "virtual-up": []}
    with pytest.raises(TricklawError):
        replay(record)


# --- the custom option 'designation sets' -----------------------------------------------------


def choose_sets(state: State[Any], texts: Sequence[str]) -> tuple[State[Any], list[int]]:
    seats = []
    for text in texts:
        assert state.phase is Phase.CHOOSE and state.extra.choosing == "sets"
        seats.append(state.current)
        state = act(state, f"designate {text}")
    return state, seats


@clause("HUND-OPT-2", "HUND-GAP-7")
@pytest.mark.parametrize(
    ("players", "order"), [(3, [1, 2, 0, 1, 2]), (4, [1, 2, 3, 0, 1]), (5, [1, 2, 3, 4, 0])]
)
def test_sets_are_chosen_in_turn_from_the_second_player(players: int, order: list[int]) -> None:
    game = make(players, {"designation-mode": "sets"})
    state = game.new_initial_state(3)
    assert state.info.deal.extra("designation") is None
    assert state.leader == 0 and state.extra.sets == ()
    state, seats = choose_sets(state, ["R2", "Y4", "G1", "B5", "P3"])
    assert seats == order
    assert names(state.extra.sets) == ["R2", "Y4", "G1", "B5", "P3"]
    assert state.phase is Phase.PLAY and state.current == 0 and state.extra.choosing == ""
    state = finish_round(state)
    log_facts = facts(state.history[0])
    assert log_facts["sets"] == ["R2", "Y4", "G1", "B5", "P3"]
    assert log_facts["designation"] is None
    assert sorted(log_facts["powers"]) == sorted(LETTERS)  # five distinct-suit sets: all assigned


@clause("HUND-GAP-7", "HUND-OPT-2")
def test_the_virtual_player_chooses_no_set() -> None:
    game = make(2, {"designation-mode": "sets"})
    state = game.new_initial_state(3)
    state, seats = choose_sets(state, ["R2", "Y4", "G1", "B5", "P3"])
    assert seats == [1, 0, 1, 0, 1]
    assert state.phase is Phase.PLAY and state.current == 0


@clause("HUND-GAP-7", "HUND-OPT-2", "HUND-POWER-5", "HUND-GAP-3")
@pytest.mark.parametrize("players", [2, 3])
def test_sets_are_chosen_afresh_each_round_once_the_start_player_is_known(players: int) -> None:
    game = make(players, {"designation-mode": "sets"})
    state = game.new_initial_state(5)
    for _ in range(5):
        if state.extra.choosing == "leader":
            assert state.extra.sets == ()
            state = state.child(state.legal_actions()[-1])  # names the last seat
        start = state.leader
        assert state.extra.choosing == "sets" and state.extra.sets == ()
        order = []
        while state.phase is Phase.CHOOSE:
            order.append(state.current)
            state = state.child(state.legal_actions()[0])
        turns = [(start + k) % game.seats for k in range(1, 3 * game.seats)]
        assert order == [s for s in turns if players > 2 or s != VIRTUAL][:5]
        state = finish_round(state)
    assert state.is_terminal()


@clause("HUND-OPT-2", "HUND-D-VALUES")
@pytest.mark.parametrize(
    ("players", "options", "values"),
    [
        (3, {}, range(1, 7)),
        (4, {}, range(1, 9)),
        (3, {"values": "from-0"}, range(0, 6)),
        (5, {"more-cards": "yes"}, range(1, 16)),
    ],
)
def test_every_card_value_in_use_may_be_a_designation_card(
    players: int, options: dict[str, str], values: range
) -> None:
    game = make(players, {"designation-mode": "sets", **options})
    state = game.new_initial_state(1)
    expected = tuple(designate(parse(f"{s}{v}")[0]) for s in LETTERS for v in values)
    assert state.legal_actions() == expected


@clause("HUND-D-SETSUITS", "HUND-OPT-2")
def test_set_suits_distinct_or_any() -> None:
    distinct = make(3, {"designation-mode": "sets"})
    assert distinct.options["set-suits"] == "distinct"
    state = act(distinct.new_initial_state(2), "designate R3")
    legal = set(names([card_of(a) for a in state.legal_actions()]))
    assert not any(t.startswith("R") for t in legal)  # red is taken
    assert not any(t.endswith("3") for t in legal)  # so is the designation card 3
    assert legal == {f"{s}{v}" for s in "YGBP" for v in (1, 2, 4, 5, 6)}
    with pytest.raises(IllegalActionError, match="designate a set") as info:
        act(state, "designate R5")
    assert info.value.clause == "HUND-OPT-2"
    state = act(state, "designate Y5", "designate G1", "designate B2")
    assert names([card_of(a) for a in state.legal_actions()]) == ["P4", "P6"]
    any_suit = make(3, {"designation-mode": "sets", "set-suits": "any"})
    state = act(any_suit.new_initial_state(2), "designate R3")
    legal = set(names([card_of(a) for a in state.legal_actions()]))
    assert legal == {f"{s}{v}" for s in LETTERS for v in (1, 2, 4, 5, 6)}
    state = act(state, "designate R5", "designate R1", "designate R2", "designate R4")
    assert names(state.extra.sets) == ["R3", "R5", "R1", "R2", "R4"]
    assert state.phase is Phase.PLAY


@clause("HUND-D-SETMATCH", "HUND-OPT-2")
@pytest.mark.parametrize(
    ("match", "winner", "powers"),
    [
        ("card", 1, "trump=red"),  # only R3 itself matches the set R3
        ("value", 0, "trump=yellow, plus=red, hund=blue"),  # Y3 (3), R3 (3), B1 (1)
    ],
)
def test_set_match_card_or_value(match: str, winner: int, powers: str) -> None:
    options = {"designation-mode": "sets", "set-match": match}
    result = judge(3, ["Y3", "R3", "B1"], {"sets": "R3,Y7,G1,B2,P4"}, options)
    assert result.winner == winner
    assert ("powers", powers) in result.facts
    assert make(3).options["set-match"] == "card"


@clause("HUND-D-SETREPEAT", "HUND-OPT-2")
@pytest.mark.parametrize(
    ("repeat", "powers", "winner"),
    [
        ("skip", "trump=yellow, plus=red, hund=blue", 0),
        ("stack", "trump=yellow, plus=red, hund=yellow, minus=blue", 0),
    ],
)
def test_set_repeat_skip_or_stack(repeat: str, powers: str, winner: int) -> None:
    options = {"designation-mode": "sets", "set-match": "value", "set-repeat": repeat}
    # Y3 matches (3), R3 matches (3), Y1 matches (1) though yellow holds a power, B2 (2).
    result = judge(4, ["Y3", "R3", "Y1", "B2"], {"sets": "R3,Y7,G1,B2,P4"}, options)
    assert ("powers", powers) in result.facts
    assert result.winner == winner
    assert make(3).options["set-repeat"] == "skip"


@clause("HUND-D-SETREPEAT", "HUND-D-SETSUITS", "HUND-OPT-2", "HUND-DESIG-1")
@pytest.mark.parametrize(("repeat", "powers"), [("skip", ["R"]), ("stack", ["R"] * 5)])
def test_five_sets_of_one_suit_live(repeat: str, powers: list[str]) -> None:
    options = {"designation-mode": "sets", "set-suits": "any", "set-repeat": repeat}
    game = make(3, options)
    state, _ = choose_sets(game.new_initial_state(8), ["R1", "R2", "R3", "R4", "R5"])
    state = finish_round(state)
    log = state.history[0]
    assert facts(log)["powers"] == powers
    assert list(log.scores) == text_scores(game, log)
    if repeat == "skip":
        assert log.scores == (0, 0, 0)  # only Trump was given out
        assert facts(log)["lead_decider"] is None


@clause("HUND-D-SETMATCH", "HUND-D-SETREPEAT", "HUND-OPT-2", "HUND-DESIG-2")
@pytest.mark.parametrize("match", ["card", "value"])
@pytest.mark.parametrize("repeat", ["skip", "stack"])
def test_live_sets_hand_out_powers_as_matching_cards_fall(match: str, repeat: str) -> None:
    options = {"designation-mode": "sets", "set-match": match, "set-repeat": repeat}
    game = make(4, options)
    state, _ = choose_sets(game.new_initial_state(4), ["R2", "Y4", "G1", "B5", "P3"])
    sets = set(names(state.extra.sets))
    expected: list[int] = []
    while not state.history:
        action = state.legal_actions()[-1]
        card = card_of(action)
        state = state.child(action)
        hit = names([card])[0] in sets if match == "card" else value_of(card) in {1, 2, 3, 4, 5}
        if hit and len(expected) < 5 and (repeat == "stack" or colour_of(card) not in expected):
            expected.append(colour_of(card))
        if state.history:
            assert facts(state.history[0])["powers"] == [LETTERS[s] for s in expected]
        else:
            assert list(state.extra.holders) == expected
    assert len(expected) == 5
    if repeat == "skip":
        assert sorted(expected) == [0, 1, 2, 3, 4]
