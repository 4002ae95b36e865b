"""A Hypothesis state machine that plays whole games action by action, under every reading."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tricklaw.model import deserialize
from tricklaw.model.invariants import violations
from tricklaw.model.record import to_record
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Game, State
from tricklaw.spec.errors import IllegalActionError

clause = pytest.mark.clause


def games(ruleset_id: str) -> st.SearchStrategy[tuple[Game, int]]:
    """Games of one ruleset: any player count and reading of every dispute, kept short."""

    @st.composite
    def build(draw: st.DrawFn) -> tuple[Game, int]:
        ruleset = get_ruleset(ruleset_id)
        players = draw(st.sampled_from(ruleset.player_counts))
        options: dict[str, Any] = {
            s.name: draw(st.sampled_from(s.choices)) for s in ruleset.option_specs if s.choices
        }
        names = {s.name for s in ruleset.option_specs}
        if "rounds" in names:
            options["rounds"] = draw(st.integers(1, 2))
        if "target" in names:
            options["target"] = draw(st.integers(1, 3))
        return ruleset.make_game(players, options), draw(st.integers(0, 2**64 - 1))

    return build()


class WholeGames(RuleBasedStateMachine):
    """Apply legal actions chosen by Hypothesis; start a new game whenever one is over."""

    ruleset_id = "sticheln"

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.seed = 0
        self.state: State[Any] | None = None
        self.actions_taken = 0
        self.games_finished = 0

    def _start(self, game: Game, seed: int) -> None:
        self.game, self.seed = game, seed
        self.state = game.new_initial_state(seed)

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        self._start(*data.draw(games(self.ruleset_id), label="game"))

    @precondition(lambda self: self.state is not None and not self.state.is_terminal())
    @rule(data=st.data())
    def take_a_legal_action(self, data: st.DataObject) -> None:
        assert self.state is not None
        legal = self.state.legal_actions()
        assert legal
        index = data.draw(st.integers(0, len(legal) - 1), label="action index")
        before = self.state
        self.state = self.state.child(legal[index])
        self.actions_taken += 1
        assert self.state != before
        assert len(self.state.history) >= len(before.history)

    @precondition(lambda self: self.state is not None and not self.state.is_terminal())
    @rule()
    def race_to_the_end_of_the_trick(self) -> None:
        """Take the first legal action until a trick closes, so that round ends come often."""
        assert self.state is not None
        start_tricks = len(self.state.tricks)
        start_round = len(self.state.history)
        while (
            not self.state.is_terminal()
            and len(self.state.tricks) == start_tricks
            and len(self.state.history) == start_round
        ):
            self.state = self.state.child(self.state.legal_actions()[0])

    @precondition(lambda self: self.state is not None and not self.state.is_terminal())
    @rule(data=st.data())
    def an_illegal_action_is_refused_and_changes_nothing(self, data: st.DataObject) -> None:
        assert self.state is not None and self.game is not None
        legal = set(self.state.legal_actions())
        deck = self.game.ruleset.deck(self.game.players, self.game.options)
        candidates = [a for c in deck for a in (int(c), (1 << 8) | c) if a not in legal]
        action = data.draw(st.sampled_from(candidates), label="illegal action")
        before = self.state
        with pytest.raises(IllegalActionError):
            self.state.child(action)
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
        assert restored.is_terminal() == self.state.is_terminal()

    @precondition(lambda self: self.state is not None and self.state.is_terminal())
    @rule(data=st.data())
    def restart_when_over(self, data: st.DataObject) -> None:
        assert self.state is not None
        assert self.state.legal_actions() == ()
        assert self.state.current_player() == -1
        self.games_finished += 1
        event("a game was played to its end")
        self._start(*data.draw(games(self.ruleset_id), label="next game"))

    @invariant()
    def no_invariant_is_broken(self) -> None:
        if self.state is not None:
            assert violations(self.state) == []

    @invariant()
    def totals_are_the_sum_of_round_scores(self) -> None:
        if self.state is not None:
            seats = len(self.state.returns())
            assert all(len(log.scores) == seats for log in self.state.history)
            totals = tuple(sum(log.scores[s] for log in self.state.history) for s in range(seats))
            assert self.state.returns() == totals


def _test_case(ruleset_id: str) -> type:
    machine = type(f"WholeGames_{ruleset_id}", (WholeGames,), {"ruleset_id": ruleset_id})
    case = machine.TestCase
    case.settings = settings(max_examples=12, stateful_step_count=80, deadline=None, database=None)
    case.pytestmark = [pytest.mark.slow]
    return case


# One test case per ruleset, so that a failure names the ruleset.
for _id in RULESETS:
    globals()[f"TestWholeGames_{_id.replace('-', '_')}"] = _test_case(_id)
del _id
