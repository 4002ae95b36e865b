"""Hypothesis properties of random Hund games (2-5 players, every reading, both custom
options), and a state machine that plays whole Hund games action by action."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from tier import examples

from tricklaw.model import deserialize
from tricklaw.model.actions import ActionKind, card_of, designate, kind_of, leader
from tricklaw.model.agents import random_states
from tricklaw.model.cards import Card, colour_of, make_card, value_of
from tricklaw.model.invariants import violations
from tricklaw.model.record import to_record
from tricklaw.model.replay.records import replay
from tricklaw.model.rng import MASK64
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game, Phase, RoundLog, State
from tricklaw.spec.errors import IllegalActionError

clause = pytest.mark.clause

RULESET = get_ruleset("hund")
LETTERS = "RYGBP"
VIRTUAL = 2
SETTINGS = settings(max_examples=25, deadline=None, database=None)


# --- strategies and helpers -------------------------------------------------------------------


@st.composite
def hund_games(draw: st.DrawFn) -> tuple[Game, int]:
    """Any player count, any reading of every dispute and both custom options, and a seed."""
    players = draw(st.sampled_from(RULESET.player_counts))
    options = {s.name: draw(st.sampled_from(s.choices)) for s in RULESET.option_specs}
    return RULESET.make_game(players, options), draw(st.integers(0, MASK64))


def walk(game: Game, seed: int) -> Iterator[State[Any]]:
    """Every state of a whole game played by the seeded random agent."""
    return random_states(game, seed, max_rounds=None)  # these games always end


def last_state(game: Game, seed: int) -> State[Any]:
    *_, state = walk(game, seed)
    return state


def facts(log: RoundLog) -> dict[str, Any]:
    return dict(log.facts)


def suit_count(cards: Sequence[Card], letter: str | None) -> int:
    return 0 if letter is None else sum(1 for c in cards if LETTERS[colour_of(c)] == letter)


def text_scores(game: Game, log: RoundLog) -> list[int]:
    """The round's scores by the text: +1 Plus, -1 Minus, 3 for a middling Hund count."""
    powers = facts(log)["powers"]
    power = dict(zip(("trump", "plus", "hund", "minus", "lead"), powers, strict=False))
    taken = log.taken(game.seats)
    ignored = game.players == 2 and game.options["virtual-hund"] == "ignored"
    compared = [s for s in range(game.seats) if not (ignored and s == VIRTUAL)]
    counts = {s: suit_count(taken[s], power["hund"]) for s in compared} if "hund" in power else {}
    out = []
    for seat in range(game.seats):
        points = suit_count(taken[seat], power.get("plus")) - suit_count(
            taken[seat], power.get("minus")
        )
        if seat in counts:
            values = list(counts.values())
            top, low = max(values), min(values)
            if game.options["hund-tie"] == "excluded":
                out_of_it = counts[seat] in (top, low)
            else:
                out_of_it = (counts[seat] == top and values.count(top) == 1) or (
                    counts[seat] == low and values.count(low) == 1
                )
            points += 0 if out_of_it else 3
        out.append(points)
    return out


def text_decider(game: Game, log: RoundLog) -> int | None:
    """Who names the next start player, by the text and the readings."""
    powers = facts(log)["powers"]
    if len(powers) < 5:
        return None
    counts = [suit_count(t, powers[4]) for t in log.taken(game.seats)]
    tied = [s for s in range(game.seats) if counts[s] == max(counts)]
    if len(tied) > 1:
        if game.options["lead-tie"] == "nobody":
            return None
        clockwise = [(log.first_leader + k) % game.seats for k in range(game.seats)]
        tied = [next(s for s in clockwise if s in tied)]
    return None if game.players == 2 and tied[0] == VIRTUAL else tied[0]


# --- whole games ------------------------------------------------------------------------------


@pytest.mark.slow
@clause(
    "HUND-DESIG-1",
    "HUND-DESIG-2",
    "HUND-GAP-2",
    "HUND-OPT-1",
    "HUND-OPT-2",
    "HUND-TWO-3",
    "HUND-D-TRUMPTIMING",
    "HUND-D-VALUES",
    "HUND-D-VIRTUALODD",
    "HUND-D-DESIGNATION",
    "HUND-D-SETSUITS",
    "HUND-D-SETMATCH",
    "HUND-D-SETREPEAT",
)
@SETTINGS
@given(config=hund_games())
def test_every_state_keeps_the_invariants_and_powers_are_given_once(
    config: tuple[Game, int],
) -> None:
    game, seed = config
    rules = game.options.as_dict()
    deck = sorted(RULESET.deck(game.players, game.options))
    previous: tuple[int, ...] = ()
    round_index = 0
    steps = 0
    for state in walk(game, seed):
        steps += 1
        assert violations(state) == [], violations(state)
        if state.is_terminal():
            assert state.legal_actions() == ()
            break
        legal = state.legal_actions()
        assert legal and list(legal) == sorted(set(legal))
        assert not (game.players == 2 and state.current == VIRTUAL)  # it never waits for input
        held = [c for h in state.hands for c in h] + list(state.trick)
        held += [c for t in state.taken for c in t]
        assert sorted(held) == deck
        holders = state.extra.holders
        if state.round_index != round_index:
            round_index, previous = state.round_index, ()
        # Powers are only ever added, in order, at most five, each to one suit.
        assert holders[: len(previous)] == previous and len(holders) <= 5
        assert all(0 <= s < 5 for s in holders)
        if rules["set-repeat"] == "skip":
            assert len(set(holders)) == len(holders)
        previous = holders
        if state.phase is Phase.CHOOSE:
            assert state.extra.choosing in ("leader", "sets")
            kinds = {kind_of(a) for a in legal}
            assert kinds == (
                {ActionKind.LEADER} if state.extra.choosing == "leader" else {ActionKind.DESIGNATE}
            )
        else:
            assert all(kind_of(a) is ActionKind.PLAY for a in legal)
    assert state.is_terminal() and len(state.history) == 5
    for log in state.history:
        powers = facts(log)["powers"]
        assert len(powers) <= 5
        if rules["set-repeat"] == "skip":
            assert len(set(powers)) == len(powers)
        if rules["designation-mode"] == "drawn" or (
            rules["set-suits"] == "distinct" and rules["set-match"] == "card"
        ):
            assert sorted(powers) == sorted(LETTERS)  # one power per suit
    if rules["designation-mode"] == "drawn":
        assert sorted(facts(log)["designation"] for log in state.history) == [1, 2, 3, 4, 5]
    assert steps > 5 * 10


@pytest.mark.slow
@clause(
    "HUND-POWER-2",
    "HUND-POWER-3",
    "HUND-POWER-4",
    "HUND-FACT-2",
    "HUND-FACT-3",
    "HUND-GAP-6",
    "HUND-D-HUNDTIE",
    "HUND-D-VIRTUALHUND",
    "HUND-D-GAMETIE",
)
@SETTINGS
@given(config=hund_games())
def test_scores_equal_the_recount_and_the_text(config: tuple[Game, int]) -> None:
    game, seed = config
    state = last_state(game, seed)
    for log in state.history:
        assert log.scores == RULESET.recount_scores(game, log)
        assert list(log.scores) == text_scores(game, log)
    totals = [sum(log.scores[s] for log in state.history) for s in range(game.seats)]
    assert list(state.returns()) == totals
    best = max(totals[: game.players])
    tied = tuple(s for s in range(game.players) if totals[s] == best)
    tie_break = game.options.text("game-tie")  # HUND-D-GAMETIE
    expected = {"shared": tied, "nobody": tied if len(tied) == 1 else (), "first-seat": tied[:1]}
    assert RULESET.winners(game, totals) == expected[tie_break]


@clause("HUND-POWER-5", "HUND-GAP-3", "HUND-GAP-5", "HUND-GAP-6", "HUND-GAP-7", "HUND-D-LEADTIE")
@SETTINGS
@given(config=hund_games())
def test_the_lead_decider_and_the_start_player_follow_the_text(config: tuple[Game, int]) -> None:
    game, seed = config
    state = last_state(game, seed)
    assert state.history[0].first_leader == 0
    assert facts(state.history[-1])["lead_decider"] == text_decider(game, state.history[-1])
    for prev, log in zip(state.history, state.history[1:], strict=False):
        decider = facts(prev)["lead_decider"]
        assert decider == text_decider(game, prev)
        choices = [(s, a) for s, a in log.actions if kind_of(a) is ActionKind.LEADER]
        if decider is None:
            assert choices == []
            assert log.first_leader == (prev.first_leader + 1) % game.seats
        else:
            assert log.actions[0] == (decider, leader(log.first_leader))
            assert choices == [log.actions[0]]
    for log in state.history:
        sets = [(s, a) for s, a in log.actions if kind_of(a) is ActionKind.DESIGNATE]
        if game.options["designation-mode"] == "sets":
            turns = [(log.first_leader + k) % game.seats for k in range(1, 3 * game.seats)]
            expected = [s for s in turns if game.players > 2 or s != VIRTUAL][:5]
            assert [s for s, _ in sets] == expected
            assert facts(log)["sets"] == [RULESET.palette.format(card_of(a)) for _, a in sets]
            assert facts(log)["designation"] is None
        else:
            assert sets == []
            assert facts(log)["sets"] == []


@pytest.mark.slow
@settings(max_examples=20, deadline=None, database=None)
@given(config=hund_games(), cut=st.floats(0, 1))
def test_records_round_trip_through_replay(config: tuple[Game, int], cut: float) -> None:
    game, seed = config
    states = list(walk(game, seed))
    for state in (states[-1], states[int(cut * (len(states) - 1))]):
        record = json.loads(json.dumps(to_record(state)))
        restored = replay(record)
        assert to_record(restored) == record
        assert restored.legal_actions() == state.legal_actions()
        assert restored.current_player() == state.current_player()
        assert restored.returns() == state.returns()
        assert restored.extra == state.extra


@pytest.mark.slow
@clause("HUND-TWO-2", "HUND-TWO-4", "HUND-TWO-5", "HUND-TWO-6", "HUND-D-VIRTUALODD")
@SETTINGS
@given(config=hund_games())
def test_the_virtual_player_plays_by_its_display_rules(config: tuple[Game, int]) -> None:
    game, seed = config
    game = RULESET.make_game(2, game.options.as_dict())
    state = last_state(game, seed)
    for log in state.history:
        downs, ups = log.deal.pile("virtual-down"), log.deal.pile("virtual-up")
        size = len(downs) + len(ups)
        extra_up = game.options["virtual-odd"] == "extra-up"
        assert len(ups) == ((size + 1) // 2 if extra_up else size // 2)
        columns: list[list[Card | None]] = [
            [ups[i] if i < len(ups) else None, downs[i] if i < len(downs) else None]
            for i in range(max(len(ups), len(downs)))
        ]
        for leader_seat, result in log.tricks:
            pos = (VIRTUAL - leader_seat) % 3
            before = result.cards[:pos]
            shown = [(i, up) for i, (up, _) in enumerate(columns) if up is not None]
            suited = [(i, c) for i, c in shown if before and colour_of(c) == colour_of(before[0])]
            i, card = (suited or shown)[0]
            assert result.cards[pos] == card
            columns[i][0] = None
            for column in columns:
                if column[0] is None and column[1] is not None:
                    column[0], column[1] = column[1], None
        assert all(c == [None, None] for c in columns)


# --- single tricks ----------------------------------------------------------------------------


@st.composite
def contexts(draw: st.DrawFn) -> tuple[int, list[int], list[Card]]:
    """A designated number, the powers already held (suits whose card of that number is out),
    and a trick of 3-5 distinct cards consistent with them."""
    number = draw(st.integers(1, 5))
    held = draw(st.lists(st.integers(0, 4), unique=True, max_size=4))
    n = draw(st.integers(3, 5))
    pool = [
        make_card(s, v) for s in range(5) for v in range(1, 7) if not (v == number and s in held)
    ]
    cards = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))
    return number, held, cards


def text_winner(timing: str, number: int, held: list[int], cards: list[Card]) -> int:
    """Who takes the trick by lines 7, 11 and 15 of the text, under a trump-timing reading."""
    designating = [i for i, c in enumerate(cards) if value_of(c) == number]
    if held:
        trump, counted_from = held[0], 0
    elif designating:
        trump = colour_of(cards[designating[0]])
        counted_from = {"whole-trick": 0, "from-card": designating[0]}.get(timing, len(cards))
    else:
        trump, counted_from = None, len(cards)
    trumps = [i for i in range(counted_from, len(cards)) if colour_of(cards[i]) == trump]
    if trumps:
        return max(trumps, key=lambda i: value_of(cards[i]))
    lead = colour_of(cards[0])
    return max(
        (i for i, c in enumerate(cards) if colour_of(c) == lead), key=lambda i: value_of(cards[i])
    )


@clause("HUND-TRICK-1", "HUND-TRICK-2", "HUND-COLLECT-1", "HUND-DESIG-2", "HUND-D-TRUMPTIMING")
@settings(max_examples=examples(200), deadline=None, database=None)
@given(case=contexts(), timing=st.sampled_from(["whole-trick", "from-card", "next-trick"]))
def test_judge_trick_agrees_with_the_text(
    case: tuple[int, list[int], list[Card]], timing: str
) -> None:
    number, held, cards = case
    game = RULESET.make_game(max(3, len(cards)), {"trump-timing": timing})
    context = {"designation": str(number), "powers": ",".join(LETTERS[s] for s in held)}
    result = RULESET.judge_trick(game, cards, context)
    assert result.winner == text_winner(timing, number, held, cards)
    assert result.taken == ((result.winner, tuple(cards)),)
    assert result.aside == ()
    new = [colour_of(c) for c in cards if value_of(c) == number]
    powers = ("trump", "plus", "hund", "minus", "lead")
    assigned = ", ".join(
        f"{p}={RULESET.palette.name(s)}" for p, s in zip(powers, held + new, strict=False)
    )
    assert ("powers", assigned or "none") in result.facts


# --- a state machine over whole games ---------------------------------------------------------


class WholeHundGames(RuleBasedStateMachine):
    """Apply actions chosen by Hypothesis to Hund games (the virtual player and both custom
    options included); start a new game whenever one is over."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.seed = 0
        self.state: State[Any] | None = None
        self.round_powers: tuple[int, tuple[int, ...]] = (0, ())

    def _start(self, game: Game, seed: int) -> None:
        self.game, self.seed = game, seed
        self.state = game.new_initial_state(seed)
        self.round_powers = (0, ())

    @initialize(config=hund_games())
    def start(self, config: tuple[Game, int]) -> None:
        self._start(*config)

    @precondition(lambda self: self.state is not None and not self.state.is_terminal())
    @rule(data=st.data())
    def take_a_legal_action(self, data: st.DataObject) -> None:
        assert self.state is not None
        legal = self.state.legal_actions()
        index = data.draw(st.integers(0, len(legal) - 1), label="action index")
        before = self.state
        self.state = self.state.child(legal[index])
        assert self.state != before
        assert len(self.state.history) >= len(before.history)

    @precondition(lambda self: self.state is not None and not self.state.is_terminal())
    @rule(last=st.booleans())
    def race_to_the_end_of_the_round(self, last: bool) -> None:
        """Take the first (or last) legal action until the round ends."""
        assert self.state is not None
        rounds = len(self.state.history)
        while not self.state.is_terminal() and len(self.state.history) == rounds:
            legal = self.state.legal_actions()
            self.state = self.state.child(legal[-1] if last else legal[0])

    @precondition(lambda self: self.state is not None and not self.state.is_terminal())
    @rule(data=st.data())
    def an_illegal_action_is_refused_and_changes_nothing(self, data: st.DataObject) -> None:
        assert self.state is not None and self.game is not None
        legal = set(self.state.legal_actions())
        deck = RULESET.deck(self.game.players, self.game.options)
        candidates = [a for c in deck for a in (int(c), designate(c)) if a not in legal]
        candidates += [leader(s) for s in range(self.game.seats) if leader(s) not in legal]
        action = data.draw(st.sampled_from(candidates), label="illegal action")
        before = self.state
        with pytest.raises(IllegalActionError) as info:
            self.state.child(action)
        assert info.value.clause in {"HUND-PLAY-1", "HUND-PLAY-2", "HUND-POWER-5", "HUND-OPT-2"}
        assert self.state is before

    @precondition(lambda self: self.state is not None)
    @rule()
    def serialize_round_trip(self) -> None:
        assert self.state is not None
        restored = deserialize(self.state.serialize())
        assert to_record(restored, self.seed) == to_record(self.state)
        assert restored.legal_actions() == self.state.legal_actions()
        assert restored.current_player() == self.state.current_player()
        assert restored.returns() == self.state.returns()
        assert restored.extra == self.state.extra

    @precondition(lambda self: self.state is not None and self.state.is_terminal())
    @rule(config=hund_games())
    def restart_when_over(self, config: tuple[Game, int]) -> None:
        assert self.state is not None and self.game is not None
        assert len(self.state.history) == 5
        assert self.state.current_player() == -1 and self.state.legal_actions() == ()
        for log in self.state.history:
            assert list(log.scores) == text_scores(self.game, log)
        event("a Hund game was played to its end")
        self._start(*config)

    @invariant()
    def no_invariant_is_broken(self) -> None:
        if self.state is not None:
            assert violations(self.state) == []

    @invariant()
    def the_virtual_player_never_waits_for_a_decision(self) -> None:
        if self.state is not None and self.game is not None and self.game.players == 2:
            assert self.state.current_player() != VIRTUAL

    @invariant()
    def powers_only_grow_within_a_round(self) -> None:
        if self.state is None or self.game is None or self.state.is_terminal():
            return
        index, previous = self.round_powers
        holders = self.state.extra.holders
        if index == self.state.round_index:
            assert holders[: len(previous)] == previous
        assert len(holders) <= 5
        if self.game.options["set-repeat"] == "skip":
            assert len(set(holders)) == len(holders)
        self.round_powers = (self.state.round_index, holders)


TestWholeHundGames = WholeHundGames.TestCase
TestWholeHundGames.settings = settings(
    max_examples=12, stateful_step_count=40, deadline=None, database=None
)
TestWholeHundGames.pytestmark = [pytest.mark.slow]
