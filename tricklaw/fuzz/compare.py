"""The comparison: the engine's answers (state views, ``apply`` results, tricks) held
against the model's, step by step; the first difference is raised as a
:class:`~tricklaw.fuzz.cases.Disagreement` of a kind (legal actions, trick, scores, ...)
with the clauses at stake."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from tricklaw.fuzz.cases import Case, Disagreement, Step
from tricklaw.fuzz.engine import Engine
from tricklaw.model import actions
from tricklaw.model.cards import Card
from tricklaw.model.record import new_tricks, trick_json
from tricklaw.model.replay.citation import (
    Citation,
    cite,
    legal_of,
    replayed_answer,
    scores_from,
    totals_of,
    trick_answer,
)
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import State
from tricklaw.spec.errors import TricklawError


class MismatchError(Exception):
    def __init__(self, disagreement: Disagreement) -> None:
        super().__init__(disagreement.message)
        self.disagreement = disagreement


@dataclass(slots=True)
class Match:
    """The engine and the model playing one case, compared after every answer."""

    engine: Engine
    case: Case
    state: State[Any]
    step: int = -1
    taken: list[Step] = field(default_factory=list)
    game_id: str = ""

    @property
    def ruleset(self) -> Ruleset[Any]:
        return self.state.game.ruleset

    def fail(
        self, kind: str, message: str, expected: Any, got: Any, cited: Sequence[str] | Citation
    ) -> NoReturn:
        if not isinstance(cited, Citation):
            cited = Citation(tuple(cited))
        raise MismatchError(
            Disagreement(
                kind,
                self.step,
                message,
                expected,
                got,
                cited.clauses,
                cited.disputes,
                cited.established,
                cited,
            )
        )

    def cite(
        self,
        point: str,
        clauses: Sequence[str] = (),
        extract: Callable[[State[Any]], Any] | None = None,
        got: Any = None,
    ) -> Citation:
        """The citation ``tricklaw check`` gives the same divergence; with ``extract``
        (the rules' answer read off a state) and ``got`` (the engine's), the disputes
        whose readings change that answer are established by playing the game again
        under each reading (:func:`~tricklaw.model.replay.citation.replayed_answer`)."""
        answer = replayed_answer(self.state, extract) if extract is not None else None
        return cite(self.state.game, point, clauses, answer, got)

    def shape(self, value: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
        if not isinstance(value, dict) or key not in value or not isinstance(value[key], kind):
            self.fail(
                "protocol", f"{where}: the engine's answer lacks a valid {key!r}", None, value, ()
            )
        return value[key]

    def cards(self, texts: Any, where: str) -> list[str]:
        """Card texts in canonical notation (the engine may write ``r5``)."""
        palette = self.ruleset.palette
        if not isinstance(texts, list):
            self.fail("protocol", f"{where}: expected a list of cards", None, texts, ())
        try:
            return palette.format_all(palette.parse_all(texts))
        except (TricklawError, AttributeError, TypeError):
            self.fail("protocol", f"{where}: not cards of {self.ruleset.id}", None, texts, ())

    def same_hands(self, got: Any, hands: Sequence[Sequence[Card]]) -> bool:
        """Whether ``got`` lists ``hands`` card for card, written as tricklaw writes them
        (any order, any letter case); anything else is left to the exact comparison."""
        notation = self.ruleset.palette.notation
        try:
            return len(got) == len(hands) and all(
                len(texts) == len(hand)
                and {t.upper() for t in texts} == {notation[c] for c in hand}
                for texts, hand in zip(got, hands, strict=True)
            )
        except (TypeError, AttributeError):
            return False

    def actions_of(self, texts: Any, where: str) -> set[str]:
        palette = self.ruleset.palette
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            self.fail("protocol", f"{where}: expected a list of actions", None, texts, ())
        try:
            return {
                actions.action_to_string(actions.string_to_action(t, palette), palette)
                for t in texts
            }
        except TricklawError:
            self.fail("protocol", f"{where}: not actions of {self.ruleset.id}", None, texts, ())

    def compare_view(self, view: Any, where: str) -> None:
        """The engine's state view against the model's state."""
        state = self.state
        self.shape(view, "legal_actions", list, where)
        if view.get("terminal") is not state.is_terminal():
            self.fail(
                "end",
                f"{where}: the engine says terminal = {view.get('terminal')}; the rules say "
                f"{state.is_terminal()}",
                state.is_terminal(),
                view.get("terminal"),
                self.cite("end", (), State.is_terminal, view.get("terminal")),
            )
        if view.get("totals") != list(state.returns()):
            self.fail(
                "totals",
                f"{where}: the engine's totals are {view.get('totals')}; the rules give "
                f"{list(state.returns())}",
                list(state.returns()),
                view.get("totals"),
                self.cite("totals", (), totals_of, view.get("totals")),
            )
        hands = view.get("hands")
        if hands is not None and not self.same_hands(hands, state.hands):
            expected_hands = [sorted(self.ruleset.palette.format_all(h)) for h in state.hands]
            got_hands = [
                sorted(self.cards(h, f"{where}.hands"))
                for h in self.shape(view, "hands", list, where)
            ]
            if got_hands != expected_hands:
                self.fail(
                    "deal",
                    f"{where}: the engine's hands differ from the rules' hands",
                    expected_hands,
                    got_hands,
                    self.cite("deal"),
                )
        if state.is_terminal():
            return
        if view.get("current_player") != state.current_player():
            self.fail(
                "turn",
                f"{where}: the engine says seat {view.get('current_player')} acts; the rules "
                f"say seat {state.current_player()}",
                state.current_player(),
                view.get("current_player"),
                self.cite("turn", (), State.current_player, view.get("current_player")),
            )
        legal = state.legal_actions()
        expected = {state.action_to_string(a) for a in legal}
        listed = view["legal_actions"]
        if len(listed) == len(expected) and set(listed) == expected:  # as tricklaw writes them
            return
        got = self.actions_of(listed, f"{where}.legal_actions")
        if got != expected:
            palette = self.ruleset.palette
            extra, missing = sorted(got - expected), sorted(expected - got)
            clauses = sorted(
                {
                    self.ruleset.forbidding_clause(state, actions.string_to_action(t, palette))
                    for t in extra + missing
                }
            )
            self.fail(
                "legal_actions",
                f"{where}: seat {state.current_player()}'s legal actions differ: the engine "
                f"also allows {extra or 'nothing more'}, and lacks {missing or 'nothing'}",
                sorted(expected),
                sorted(got),
                self.cite("illegal", clauses, legal_of, sorted(got)),
            )

    def compare_apply(self, before: State[Any], action: int, result: Any, where: str) -> None:
        """The engine's ``apply`` answer against the model's step from ``before``."""
        state = self.state
        palette = self.ruleset.palette
        tricks = self.shape(result, "tricks", list, where)
        expected_tricks = [
            ({**trick_json(leader, res, seating, palette), "index": t}, res.clauses)
            for t, leader, res, seating in new_tricks(
                state, (len(before.history), len(before.tricks))
            )
        ]
        if len(tricks) != len(expected_tricks):
            self.fail(
                "trick",
                f"{where}: the engine reports {len(tricks)} completed tricks; the rules "
                f"complete {len(expected_tricks)}",
                len(expected_tricks),
                len(tricks),
                self.cite("collect"),
            )
        for n, (got, (expected, clauses)) in enumerate(zip(tricks, expected_tricks, strict=True)):
            self.compare_trick(got, expected, clauses, f"{where}.tricks[{n}]", (before, action))
        rounds = self.shape(result, "rounds", list, where)
        finished = state.history[len(before.history) :]
        got_scores = [r.get("scores") if isinstance(r, dict) else r for r in rounds]
        expected_scores = [list(log.scores) for log in finished]
        if got_scores != expected_scores:
            self.fail(
                "scores",
                f"{where}: the engine's round scores are {got_scores}; the rules give "
                f"{expected_scores}",
                expected_scores,
                got_scores,
                self.cite("scores", (), scores_from(len(before.history)), got_scores),
            )
        self.compare_view(self.shape(result, "state", dict, where), f"{where}.state")
        if state.is_terminal():
            game = state.game
            winners = list(game.ruleset.winners(game, state.returns()))
            if result.get("winners") != winners:
                self.fail(
                    "end",
                    f"{where}: the engine's winners are {result.get('winners')}; the rules "
                    f"name {winners}",
                    winners,
                    result.get("winners"),
                    cite(
                        game,
                        "winners",
                        answer=lambda g: list(g.ruleset.winners(g, state.returns())),
                        got=result.get("winners"),
                    ),
                )

    def compare_trick(
        self,
        got: Any,
        expected: dict[str, Any],
        clauses: Sequence[str],
        where: str,
        completed_by: tuple[State[Any], int],
    ) -> None:
        if not isinstance(got, dict):
            self.fail("protocol", f"{where}: expected a trick object", expected, got, ())
        taken = got.get("taken", {})
        normal = {
            "leader": got.get("leader"),
            "cards": self.cards(got.get("cards"), f"{where}.cards"),
            "winner": got.get("winner"),
            "taken": {
                str(k): sorted(self.cards(v, f"{where}.taken.{k}"))
                for k, v in (taken.items() if isinstance(taken, dict) else ())
            },
            "aside": sorted(self.cards(got.get("aside", []), f"{where}.aside")),
        }
        want = {
            "leader": expected["leader"],
            "cards": expected["cards"],
            "winner": expected["winner"],
            "taken": {k: sorted(v) for k, v in expected["taken"].items()},
            "aside": sorted(expected["aside"]),
        }
        for key, value in want.items():
            if normal[key] != value:
                self.fail(
                    "trick",
                    f"{where}: the engine says {key} = {json.dumps(normal[key])}; the rules "
                    f"give {json.dumps(value)}",
                    value,
                    normal[key],
                    cite(
                        self.state.game,
                        "trick",
                        clauses,
                        answer=trick_answer(*completed_by, expected["index"], key),
                        got=normal[key],
                    ),
                )
