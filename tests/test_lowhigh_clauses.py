"""One or more unit tests per normative clause and dispute of the low-card-takes-high game.

Clauses have the prefix LH. Each test names the clauses and disputes it exercises with the
``clause`` marker. The text calls a trick a "round"; here a round is a whole deal of 15 tricks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tricklaw.model.actions import KEEP, string_to_action
from tricklaw.model.agents import play_random_game
from tricklaw.model.cards import Card
from tricklaw.model.record import to_record
from tricklaw.model.replay.records import replay
from tricklaw.model.rng import SplitMix64, round_seed, shuffled
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.rulesets.lowhigh import HAND_SIZE, TOP_VALUE, judge, score
from tricklaw.model.state import Deal, Game, State
from tricklaw.model.trick import TrickResult
from tricklaw.proofs.examples import check_examples
from tricklaw.spec import load_registry
from tricklaw.spec.errors import CardError, IllegalActionError, OptionError

clause = pytest.mark.clause

LH = "lowhigh"


# --- helpers ----------------------------------------------------------------------------------


def make(players: int, options: Mapping[str, Any] | None = None) -> Game:
    return get_ruleset(LH).make_game(players, dict(options or {}))


def cards(*texts: str) -> list[Card]:
    return get_ruleset(LH).palette.parse_all(texts)


def names(cs: Sequence[Card]) -> list[str]:
    return get_ruleset(LH).palette.format_all(cs)


def run(colour: str, low: int, high: int) -> list[str]:
    return [f"{colour}{v}" for v in range(low, high + 1)]


def act(state: State[Any], text: str) -> State[Any]:
    return state.child(string_to_action(text, get_ruleset(LH).palette))


def legal(state: State[Any]) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def taken_by_offset(result: TrickResult) -> dict[int, list[str]]:
    return {offset: names(cs) for offset, cs in result.taken}


# Three players, values 1-9: every card of the 45-card deck is placed.
HANDS3 = {
    0: run("R", 1, 9) + run("Y", 1, 6),
    1: run("Y", 7, 9) + run("G", 1, 9) + run("B", 1, 3),
    2: run("B", 4, 9) + run("V", 1, 9),
}


def deal3() -> Deal:
    return Deal(tuple(tuple(cards(*HANDS3[s])) for s in range(3)))


def start3(options: Mapping[str, Any] | None = None) -> State[Any]:
    return make(3, options).new_state_from_deals([deal3()])


def trick(state: State[Any], *texts: str) -> State[Any]:
    for text in texts:
        state = act(state, text)
    return state


# --- players, deck, deal ----------------------------------------------------------------------


@clause("LH-SETUP-1")
def test_three_to_six_players() -> None:
    ruleset = get_ruleset(LH)
    assert ruleset.player_counts == (3, 4, 5, 6)
    for n in (3, 4, 5, 6):
        assert ruleset.make_game(n).seats == n
    for n in (0, 2, 7):
        with pytest.raises(OptionError, match=rf"3-6 players, not {n}"):
            ruleset.make_game(n)


@clause("LH-DECK-1")
@pytest.mark.parametrize(
    ("players", "top", "size"), [(3, 9, 45), (4, 12, 60), (5, 15, 75), (6, 18, 90)]
)
def test_deck_table(players: int, top: int, size: int) -> None:
    game = make(players)
    deck = game.ruleset.deck(players, game.options)
    assert TOP_VALUE[players] == top
    assert len(deck) == len(set(deck)) == size == 15 * players
    assert set(names(deck)) == {f"{c}{v}" for c in "RYGBV" for v in range(1, top + 1)}
    assert game.ruleset.palette.letters == ("R", "Y", "G", "B", "V")
    assert game.ruleset.palette.names == ("red", "yellow", "green", "blue", "violet")


@clause("LH-DECK-1")
def test_a_card_outside_the_player_count_deck_is_rejected() -> None:
    game = make(3)
    hands = [list(h) for h in deal3().hands]
    hands[0][0] = cards("R10")[0]  # values stop at 9 with three players
    with pytest.raises(CardError, match="R10, not in the 3-player deck"):
        game.new_state_from_deals([Deal(tuple(map(tuple, hands)))])


@clause("LH-DEAL-1", "LH-DECK-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 99])
def test_the_shuffled_deck_is_dealt_15_each_in_blocks(players: int, seed: int) -> None:
    game = make(players)
    order = shuffled(game.ruleset.deck(players, game.options), SplitMix64(round_seed(seed, 0)))
    deal = game.new_initial_state(seed).info.deal
    assert HAND_SIZE == 15
    assert deal.hands == tuple(tuple(order[15 * k : 15 * (k + 1)]) for k in range(players))
    assert deal.piles == ()  # nothing set aside: the deck is exactly 15 per player
    assert sorted(c for h in deal.hands for c in h) == sorted(order)


@clause("LH-DEAL-1")
def test_a_hand_of_14_is_rejected() -> None:
    hands = [list(h) for h in deal3().hands]
    hands[1].append(hands[0].pop())
    with pytest.raises(
        CardError,
        match=r"seat 0 is dealt 14 cards; with 3 players lowhigh deals 15 each \[LH-DEAL-1\]",
    ):
        make(3).new_state_from_deals([Deal(tuple(map(tuple, hands)))])


# --- playing ----------------------------------------------------------------------------------


@clause("LH-PLAY-1")
def test_the_starting_player_may_play_any_card() -> None:
    state = start3()
    assert state.current == state.leader == 0
    assert legal(state) == HANDS3[0]
    for card in ("R1", "Y6"):
        assert act(state, card).trick == tuple(cards(card))


@clause("LH-PLAY-1")
def test_a_card_not_in_hand_or_a_non_play_action_names_the_turn_clause() -> None:
    state = start3()
    with pytest.raises(IllegalActionError) as info:
        act(state, "G1")
    assert info.value.clause == "LH-PLAY-1"
    assert "not in that seat's hand" in str(info.value)
    with pytest.raises(IllegalActionError) as info:
        state.child(KEEP)
    assert info.value.clause == "LH-PLAY-1"


@clause("LH-PLAY-2")
def test_the_others_must_follow_the_lead_colour() -> None:
    state = act(start3(), "Y2")
    assert state.current == 1  # clockwise
    assert legal(state) == ["Y7", "Y8", "Y9"]
    with pytest.raises(IllegalActionError) as info:
        act(state, "G1")
    assert info.value.clause == "LH-PLAY-2"
    assert "must follow the lead colour" in str(info.value)
    state = act(state, "Y8")
    assert state.current == 2
    assert legal(state) == HANDS3[2]  # seat 2 has no yellow: any card


@clause("LH-PLAY-2")
def test_without_the_lead_colour_any_card_may_be_played() -> None:
    state = act(start3(), "R5")
    assert legal(state) == HANDS3[1]
    assert legal(act(state, "G9")) == HANDS3[2]


@clause("LH-PLAY-2", "LH-PLAY-1")
@pytest.mark.parametrize(
    ("hand", "played", "allowed"),
    [
        (["R1", "Y2", "V3"], [], ["R1", "Y2", "V3"]),
        (["R1", "Y2", "V3"], ["V9"], ["V3"]),
        (["R1", "Y2", "V3", "V8"], ["V9", "R2"], ["V3", "V8"]),  # the first colour, not the last
        (["R1", "Y2"], ["V9", "R2"], ["R1", "Y2"]),
    ],
)
def test_playable(hand: list[str], played: list[str], allowed: list[str]) -> None:
    game = make(4)
    got = game.ruleset.playable(game, tuple(sorted(cards(*hand))), tuple(cards(*played)))
    assert sorted(names(got)) == sorted(allowed)


# --- judging a trick --------------------------------------------------------------------------


@clause("LH-TRICK-1", "LH-TRICK-2", "LH-TRICK-3", "LH-TRICK-4", "LH-TRICK-5", "LH-AIM-1")
@pytest.mark.parametrize(
    ("played", "winner", "taken"),
    [
        (["G4", "G9", "R2", "G7"], 1, {2: ["G9"], 1: ["G4", "R2", "G7"]}),
        (["R3", "Y3", "G1"], 1, {2: ["Y3"], 1: ["R3", "G1"]}),  # highest tie: the later 3
        (["R1", "G9", "V1"], 1, {2: ["G9"], 1: ["R1", "V1"]}),  # lowest tie: the later 1
        (["R9", "G9", "V1"], 1, {2: ["G9"], 1: ["R9", "V1"]}),
        (["B2", "R12", "Y2", "G12"], 3, {2: ["G12"], 3: ["B2", "R12", "Y2"]}),
        (["V1", "R5", "Y8"], 2, {0: ["Y8"], 2: ["V1", "R5"]}),  # the lowest can be the lead
        (["Y8", "R5", "V1"], 0, {2: ["Y8"], 0: ["R5", "V1"]}),  # the highest can be the lead
        (["R10", "V3", "B15", "Y1", "G7"], 2, {3: ["B15"], 2: ["R10", "V3", "Y1", "G7"]}),
        (
            ["R18", "Y17", "G2", "B2", "V2", "R3"],
            0,
            {4: ["R18"], 0: ["Y17", "G2", "B2", "V2", "R3"]},
        ),
    ],
)
def test_lowest_takes_the_highest_and_highest_takes_the_rest(
    played: list[str], winner: int, taken: dict[int, list[str]]
) -> None:
    for reading in ("same-player", "among-rest"):  # no reading matters without an all-equal trick
        result = judge(cards(*played), reading == "among-rest")
        assert result.winner == winner
        assert taken_by_offset(result) == taken
        assert result.aside == ()
        assert result.clauses[:3] == ("LH-TRICK-1", "LH-TRICK-2", "LH-TRICK-3")
        assert "LH-TRICK-4" in result.clauses and "LH-TRICK-5" in result.clauses


@clause("LH-TRICK-2", "LH-TRICK-3")
def test_colour_plays_no_part_in_highest_or_lowest() -> None:
    # The lead colour red holds neither the highest nor the lowest number.
    result = judge(cards("R5", "R6", "V9", "B1"))
    assert result.winner == 2
    assert taken_by_offset(result) == {3: ["V9"], 2: ["R5", "R6", "B1"]}


@clause("LH-D-SAMECARD", "LH-TRICK-1", "LH-TRICK-2", "LH-TRICK-3")
@pytest.mark.parametrize(
    ("played", "reading", "winner", "taken"),
    [
        (["G4", "R4", "Y4"], "same-player", 2, {2: ["G4", "R4", "Y4"]}),
        (["G4", "R4", "Y4"], "among-rest", 2, {1: ["Y4"], 2: ["G4", "R4"]}),
        (["V7", "R7", "G7", "Y7"], "same-player", 3, {3: ["V7", "R7", "G7", "Y7"]}),
        (["V7", "R7", "G7", "Y7"], "among-rest", 3, {2: ["Y7"], 3: ["V7", "R7", "G7"]}),
        (["B1", "V1", "R1", "G1", "Y1"], "among-rest", 4, {3: ["Y1"], 4: ["B1", "V1", "R1", "G1"]}),
    ],
)
def test_a_trick_of_one_value(
    played: list[str], reading: str, winner: int, taken: dict[int, list[str]]
) -> None:
    game = make(len(played), {"same-card": reading})
    result = game.ruleset.judge_trick(game, cards(*played))
    assert result.winner == winner
    assert taken_by_offset(result) == taken
    assert "LH-D-SAMECARD" in result.clauses


@clause("LH-D-SAMECARD")
def test_same_card_default_is_same_player_and_ties_need_all_equal_values() -> None:
    assert make(3).options["same-card"] == "same-player"
    assert "LH-D-SAMECARD" not in judge(cards("G4", "R4", "Y5")).clauses
    assert "LH-D-SAMECARD" not in judge(cards("G4", "R4", "Y5"), True).clauses


@clause("LH-D-SAMECARD", "LH-TRICK-4", "LH-TRICK-5", "LH-LEAD-1")
@pytest.mark.parametrize(
    ("reading", "taken"),
    [
        ("same-player", ((), (), ("R9", "G9", "V9"))),
        ("among-rest", ((), ("V9",), ("R9", "G9"))),
    ],
)
def test_a_trick_of_one_value_in_a_game(reading: str, taken: tuple) -> None:
    state = trick(start3({"same-card": reading}), "R9", "G9", "V9")
    assert state.taken == tuple(tuple(cards(*t)) for t in taken)
    assert state.leader == state.current == 2  # the last 9 is the highest either way


@clause("LH-TRICK-4", "LH-TRICK-5", "LH-LEAD-1", "LH-AIM-1")
def test_in_a_game_the_lowest_player_gains_the_highest_card_and_the_highest_leads() -> None:
    state = trick(start3(), "R5", "G9", "V1")
    assert state.trick == ()
    assert state.taken == ((), tuple(cards("R5", "V1")), tuple(cards("G9")))
    assert state.leader == state.current == 1
    leader, result = state.tricks[-1]
    assert leader == 0 and result.winner == 1


@clause("LH-LEAD-1", "LH-ROUND-1")
@pytest.mark.parametrize("players", [3, 6])
def test_the_highest_cards_player_leads_every_next_trick(players: int) -> None:
    state = play_random_game(make(players, {"rounds": 2}), seed=14)
    for log in state.history:
        assert log.tricks[0][0] == log.first_leader
        for (leader, result), (next_leader, _) in zip(log.tricks, log.tricks[1:], strict=False):
            high = max(range(players), key=lambda i: (result.cards[i] & 31, i))
            assert result.winner == high
            assert next_leader == (leader + high) % players


@clause("LH-COLLECT-1")
def test_captured_cards_are_face_up_for_everyone_grouped_by_colour() -> None:
    state = trick(start3(), "R5", "G9", "V1")  # seat 1 takes R5 V1, seat 2 takes G9
    state = trick(state, "B3", "B9", "R1")  # seat 2 takes B3 R1, seat 0 takes B9
    assert state.taken == (
        tuple(cards("B9")),
        tuple(cards("R5", "V1")),
        tuple(cards("G9", "B3", "R1")),
    )
    for viewer in range(3):
        obs = state.observation(viewer)
        assert obs["captured"] == [["B9"], ["R5", "V1"], ["R1", "G9", "B3"]]
        assert obs["hand"] == names(state.hands[viewer])


@clause("LH-ROUND-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_round_is_15_tricks_and_uses_every_card(players: int) -> None:
    state = make(players).new_initial_state(3)
    while not state.history:
        before = state
        state = state.child(state.legal_actions()[0])
    assert len(before.tricks) == 14 and len(before.trick) == players - 1
    assert sum(len(h) for h in before.hands) == 1
    log = state.history[0]
    assert len(log.tricks) == 15
    assert all(len(r.cards) == players for _, r in log.tricks)
    played = sorted(c for _, r in log.tricks for c in r.cards)
    assert played == sorted(make(players).ruleset.deck(players, make(players).options))


# --- scoring ----------------------------------------------------------------------------------


@clause("LH-SCORE-1", "LH-SCORE-2", "LH-SCORE-3", "LH-SCORE-4", "LH-AIM-1")
@pytest.mark.parametrize(
    ("captured", "points"),
    [
        ([], 0),
        (["R7"], 7),
        (["R7", "R8"], 15),  # two cards: face values
        (["R7", "R8", "R9"], 3),  # three cards: one point each
        (["V18", "V17", "V16", "V15"], 4),
        (["R7", "R8", "Y9"], 24),  # each colour on its own
        (["R7", "R8", "R9", "Y9"], 12),
        (["R1", "Y2", "G3", "B4", "V5"], 15),
        (["R12", "R11", "Y1", "Y2", "Y3", "G6", "B6", "B7", "B8", "B9"], 23 + 3 + 6 + 4),
    ],
)
def test_colour_scoring(captured: list[str], points: int) -> None:
    assert score(cards(*captured)) == points


@clause("LH-SCORE-4", "LH-SCORE-1")
@pytest.mark.parametrize("players", [3, 5])
def test_round_scores_in_a_game_score_each_seats_captured_cards(players: int) -> None:
    for seed in (1, 2):
        state = play_random_game(make(players, {"rounds": 1}), seed=seed)
        log = state.history[0]
        expected = []
        for seat in range(players):
            per_colour = {}
            for c in state.taken[seat]:
                per_colour.setdefault(c >> 5, []).append(c & 31)
            expected.append(sum(sum(v) if len(v) <= 2 else len(v) for v in per_colour.values()))
        assert list(log.scores) == expected
        assert sorted(c for t in state.taken for c in t) == sorted(
            state.game.ruleset.deck(players, state.game.options)
        )


@clause("LH-EX-SCORE", "LH-SCORE-2", "LH-SCORE-3", "LH-SCORE-4")
def test_the_scoring_example_is_52() -> None:
    per_colour = {
        "red": (["R4", "R10", "R11"], 3),
        "yellow": (["Y8"], 8),
        "green": (["G5", "G9"], 14),
        "blue": (["B2", "B3", "B6", "B10", "B12"], 5),
        "violet": (["V10", "V12"], 22),
    }
    for texts, points in per_colour.values():
        assert score(cards(*texts)) == points
    everything = [t for texts, _ in per_colour.values() for t in texts]
    assert score(cards(*everything)) == 52


# --- rounds and the game ----------------------------------------------------------------------


@clause("LH-GAME-1", "LH-SCORE-4")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_as_many_rounds_as_players_and_totals_add_up(players: int) -> None:
    game = make(players)
    assert game.options["rounds"] == 0
    state = play_random_game(game, seed=players + 20)
    assert state.is_terminal()
    assert len(state.history) == players
    totals = tuple(sum(log.scores[s] for log in state.history) for s in range(players))
    assert state.returns() == totals
    assert to_record(state)["winners"] == [s for s in range(players) if totals[s] == max(totals)]


@clause("LH-GAME-1")
def test_the_rounds_option_overrides_the_round_count() -> None:
    assert len(play_random_game(make(5, {"rounds": 2}), seed=1).history) == 2


@clause("LH-GAME-1", "LH-D-GAMETIE")
@pytest.mark.parametrize(
    ("totals", "winners"),
    [
        ([30, 52, 41], (1,)),
        ([10, 12, 12], (1, 2)),
        ([7, 7, 7, 7], (0, 1, 2, 3)),
        ([1, 0, 0, 0, 0, 1], (0, 5)),
    ],
)
def test_the_highest_total_wins_and_ties_share(totals: list[int], winners: tuple) -> None:
    game = make(len(totals))
    assert tuple(game.ruleset.winners(game, totals)) == winners


@clause("LH-D-FIRSTLEAD", "LH-GAME-1", "LH-PLAY-1")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_rotate_seat_r_starts_round_r(players: int) -> None:
    game = make(players, {"first-leader": "rotate"})
    assert make(players).options["first-leader"] == "rotate"  # the default
    state = play_random_game(game, seed=2)
    assert [log.first_leader for log in state.history] == list(range(players))
    assert [log.tricks[0][0] for log in state.history] == list(range(players))


@clause("LH-D-FIRSTLEAD", "LH-PLAY-1")
@pytest.mark.parametrize("players", [3, 5])
def test_seat0_starts_every_round(players: int) -> None:
    state = play_random_game(make(players, {"first-leader": "seat0"}), seed=2)
    assert len(state.history) == players
    assert [log.first_leader for log in state.history] == [0] * players


@clause("LH-D-FIRSTLEAD")
def test_rotate_wraps_around_when_more_rounds_than_players_are_played() -> None:
    state = play_random_game(make(3, {"rounds": 5}), seed=3)
    assert [log.first_leader for log in state.history] == [0, 1, 2, 0, 1]


# --- the worked examples ----------------------------------------------------------------------


@clause("LH-EX-PLAY", "LH-EX-SCORE", "LH-D-SAMECARD", "LH-D-FIRSTLEAD")
def test_worked_examples_hold_under_every_reading() -> None:
    checks = check_examples(LH)
    assert len(checks) == 8  # 2 examples x 2 x 2 readings
    assert {c.example for c in checks} == {"LH-EX-PLAY", "LH-EX-SCORE"}
    assert [(c.example, c.readings, c.failures) for c in checks if not c.ok] == []
    assert all(c.holds for c in checks)


EXAMPLE_HANDS = {  # Zoë 0, Jazzy 1, Josiah 2 (no green), Issac 3; four players, values 1-12
    0: ["G1", "G2", "G3", "G4", "R1", *run("R", 3, 12)],
    1: ["G5", "G6", "G8", "G9", *run("Y", 1, 11)],
    2: ["R2", "Y12", *run("B", 1, 12), "V12"],
    3: ["G7", "G10", "G11", "G12", *run("V", 1, 11)],
}


@clause("LH-EX-PLAY", "LH-PLAY-2", "LH-TRICK-4", "LH-TRICK-5", "LH-LEAD-1", "LH-COLLECT-1")
def test_the_play_example_in_a_four_player_game() -> None:
    deal = Deal(tuple(tuple(cards(*EXAMPLE_HANDS[s])) for s in range(4)))
    state = make(4).new_state_from_deals([deal])
    assert state.current == 0
    state = act(state, "G4")
    assert legal(state) == ["G5", "G6", "G8", "G9"]  # Jazzy must follow green
    state = act(state, "G9")
    assert legal(state) == names(cards(*EXAMPLE_HANDS[2]))  # Josiah has none: any card
    state = act(state, "R2")
    assert legal(state) == ["G7", "G10", "G11", "G12"]
    state = act(state, "G7")
    assert state.taken == ((), tuple(cards("G4", "R2", "G7")), tuple(cards("G9")), ())
    assert state.observation(3)["captured"] == [[], ["R2", "G4", "G7"], ["G9"], []]
    assert state.leader == state.current == 1  # Jazzy starts the next trick
    assert legal(state) == names(state.hands[1])  # with any card


# --- records ----------------------------------------------------------------------------------


@clause("LH-D-SAMECARD", "LH-D-FIRSTLEAD")
@pytest.mark.parametrize(
    "options", [{}, {"same-card": "among-rest", "first-leader": "seat0", "rounds": 2}]
)
def test_records_replay_to_the_same_game(options: dict) -> None:
    state = play_random_game(make(4, options), seed=31)
    record = to_record(state)
    assert to_record(replay(record)) == record


# --- the model and the registry agree ---------------------------------------------------------


def test_model_cites_only_registry_ids() -> None:
    ruleset = get_ruleset(LH)
    ids = load_registry(LH).ids
    assert set(ruleset.implements) <= ids
    assert {c for c in ruleset.clause.values() if c} <= ids


def test_dispute_options_match_the_registry() -> None:
    ruleset = get_ruleset(LH)
    by_option = {d.option: d for d in load_registry(LH).disputes if d.option}
    model = {s.name: s for s in ruleset.option_specs if s.dispute}
    assert set(by_option) == set(model)
    for name, spec in model.items():
        assert spec.dispute == by_option[name].id
        assert set(spec.choices) == {r.value for r in by_option[name].readings}
        assert spec.default == by_option[name].default
