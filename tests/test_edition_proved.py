"""The edition diff's score, rounds, game-end and winner aspects, decided over every input
(:mod:`tricklaw.proofs.edition_score`, :mod:`tricklaw.proofs.edition_game`).

* the Sticheln editions: each of the four aspects is *proved* (or differs with its
  recorded witness) at every player count, and the ``how`` says what was covered;
* changes planted far outside the old bounded domains (a round number beyond 1000, a
  total beyond 1000, totals outside -1..1) are found, each with its smallest witness;
* a score encoding changed together with its model's score is a difference with the
  smallest round; an encoding that no longer equals its model leaves the aspect unknown;
* a path the executor cannot follow leaves the aspect unknown, never proved;
* the machinery on a game it was not written for: planted second editions of Tiny.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import z3

from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import Game
from tricklaw.proofs import edition_score, plain
from tricklaw.proofs.edition_aspects import compare
from tricklaw.proofs.edition_sides import Side
from tricklaw.proofs.scores import SCORES, CardTerm
from tricklaw.proofs.scores.sticheln import StichelnScore
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tiny.editions import BonusTinyScore, EndlessTiny, LateTiny, with_bonus
from tiny.encoding import TinyScore
from tiny.model import Tiny

A, B = "sticheln-1993", "sticheln"
COUNTS = [3, 4, 5, 6]
MS = 30_000


def _sides(**options: str) -> tuple[Side, Side]:
    """The 1993 edition under ``options``, the later one under its defaults."""
    return Side(RULESETS[A], options), Side(RULESETS[B])


# --- the Sticheln editions ------------------------------------------------------------------


@pytest.mark.slow
def test_the_sticheln_editions_agree_on_score_game_end_and_winner_on_every_input() -> None:
    a, b = _sides()
    for aspect in ("game-end", "winner"):
        out = compare(aspect, a, b, COUNTS, MS)
        assert out.status == PROVED, (aspect, out)
        assert "every vector of integer totals" in out.how and "paths)" in out.how
    score = compare("score", a, b, COUNTS, MS)
    assert score.status == PROVED, score
    assert "proved equal to its model" in score.how and "seeded random rounds" in score.how
    assert "STI-SCORE-1" in score.clauses and "STI93-SCORE-1" in score.clauses


def test_the_rounds_differ_with_the_recorded_witness() -> None:
    out = compare("rounds", *_sides(), COUNTS, MS)
    assert out.status == COUNTEREXAMPLE
    assert out.witness == {"players": 3, A: 10, B: 3}
    assert "every round number" in out.how


def test_the_1993_target_reading_ends_the_game_on_the_smallest_total() -> None:
    out = compare("game-end", *_sides(end="target"), COUNTS, MS)
    assert out.status == COUNTEREXAMPLE
    assert out.witness == {"players": 3, "round": 1, "totals": [100, 0, 0], A: True, B: False}
    assert "the totals end the game in sticheln-1993 only" in out.summary


def test_the_1993_target_reading_never_ends_a_game_at_zero() -> None:
    out = compare("rounds", *_sides(end="target"), COUNTS, MS)
    assert out.status == COUNTEREXAMPLE and out.witness == {"players": 3, A: None, B: 3}
    assert "no end rounds in sticheln-1993" in out.summary


def test_a_game_tie_reading_differs_at_totals_zero() -> None:
    out = compare("winner", *_sides(**{"game-tie": "nobody"}), COUNTS, MS)
    assert out.status == COUNTEREXAMPLE
    assert out.witness == {"players": 3, "totals": [0, 0, 0], A: [], B: [0, 1, 2]}


# --- planted changes beyond the old bounded domains ------------------------------------------


def _plant(monkeypatch: pytest.MonkeyPatch, name: str, function: object) -> None:
    """Replace a method of the later edition (and of its plain copy on a compiled install,
    which the executor runs)."""
    later = type(RULESETS[B])
    monkeypatch.setattr(later, name, function)
    if plain.compiled_install():
        copy = plain.plain_module(later.__module__)
        monkeypatch.setattr(getattr(copy, later.__name__), name, function)


def test_a_game_end_beyond_every_bounded_total_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    def far_target(self: Any, game: Game, played: int, totals: tuple[int, ...]) -> bool:
        return played >= game.players or max(totals) >= 5000  # beyond the old +-1000

    _plant(monkeypatch, "game_over", far_target)
    out = compare("game-end", *_sides(), COUNTS, MS)
    assert out.status == COUNTEREXAMPLE
    assert out.witness == {"players": 3, "round": 1, "totals": [5000, 0, 0], A: False, B: True}


def test_a_tie_rule_that_prolongs_the_game_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    def replay_ties(self: Any, game: Game, played: int, totals: tuple[int, ...]) -> bool:
        best = max(totals)
        return played >= game.players and sum(1 for t in totals if t == best) == 1

    _plant(monkeypatch, "game_over", replay_ties)
    out = compare("game-end", *_sides(), COUNTS, MS)
    assert out.status == COUNTEREXAMPLE
    # after the third round, tied totals (zeros) go on, untied ones end the game
    assert out.witness == {"players": 3, "round": 3, "totals": [1, 0, 0], A: False, B: True}
    assert "the totals end the game in sticheln only" in out.summary


def test_a_winner_rule_outside_small_totals_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    original = type(RULESETS[A]).winners

    def runaway(self: Any, game: Game, totals: Sequence[int]) -> tuple[int, ...]:
        if totals[0] > 10**6:
            return (game.players - 1,)  # a planted rule for runaway totals
        return original(self, game, totals)

    if plain.compiled_install():
        pytest.skip("the planted rule calls the compiled base method with proxy integers")
    _plant(monkeypatch, "winners", runaway)
    out = compare("winner", *_sides(), COUNTS, MS)
    assert out.status == COUNTEREXAMPLE
    assert out.witness == {"players": 3, "totals": [1000001, 0, 0], A: [0], B: [2]}


def test_a_path_the_executor_cannot_follow_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    def as_text(self: Any, game: Game, played: int, totals: tuple[int, ...]) -> bool:
        return len(f"{played}") > 1  # a round number formatted as text: not followed

    _plant(monkeypatch, "game_over", as_text)
    for aspect in ("rounds", "game-end"):
        out = compare(aspect, *_sides(), COUNTS, MS)
        assert out.status == UNKNOWN and "not covered" in out.summary, out


# --- the score encodings -----------------------------------------------------------------------


class _WrongScore(StichelnScore):
    """A planted encoding that no longer states its model's score."""

    def score(
        self, pile: Mapping[Any, z3.BoolRef], cards: Mapping[str, CardTerm]
    ) -> tuple[z3.ArithRef, tuple[str, ...]]:
        total, ids = super().score(pile, cards)
        return total + 1, ids


@pytest.fixture
def later_score() -> Iterator[Any]:
    SCORES.load()

    def use(cls: type[StichelnScore]) -> None:
        SCORES.unregister(B)
        SCORES.register(B, cls)

    try:
        yield use
    finally:
        use(StichelnScore)


@pytest.mark.slow
def test_a_planted_score_rule_is_found_with_the_smallest_round(later_score: Any) -> None:
    later_score(with_bonus(StichelnScore))
    out = compare("score", *_sides(), COUNTS, MS)
    assert out.status == COUNTEREXAMPLE
    assert out.witness == {"players": 3, "seat": 0, "pile": [], "picked": "R0", A: 0, B: 1}
    assert "scores 0 in sticheln-1993, 1 in sticheln" in out.summary


@pytest.mark.slow
def test_an_encoding_not_equal_to_its_model_proves_nothing(later_score: Any) -> None:
    later_score(_WrongScore)
    out = edition_score.proved(*_sides(), [3], MS)
    assert out.status == UNKNOWN and "not proved equal to its model" in out.summary


@pytest.mark.slow
def test_a_deck_reading_is_compared_on_the_common_cards() -> None:
    out = compare("score", *_sides(deck="full"), COUNTS, MS)
    assert out.status == PROVED and "cards both decks have" in out.how


# --- a game the diff was not written for ---------------------------------------------------


@pytest.mark.slow
def test_the_game_aspects_on_tiny() -> None:
    tiny, late, endless = Side(Tiny()), Side(LateTiny()), Side(EndlessTiny())
    out = compare("rounds", tiny, late, [2, 3], MS)
    assert out.status == COUNTEREXAMPLE and out.witness == {
        "players": 2,
        "tiny": 1,
        "tiny-late": 2000,
    }
    out = compare("rounds", tiny, endless, [2, 3], MS)
    assert out.witness == {"players": 2, "tiny": 1, "tiny-endless": None}
    out = compare("game-end", late, endless, [2, 3], MS)
    assert out.status == COUNTEREXAMPLE
    assert out.witness == {
        "players": 2,
        "round": 7,
        "totals": [11, 0],
        "tiny-late": False,
        "tiny-endless": True,
    }
    assert compare("winner", tiny, late, [2, 3], MS).status == PROVED
    nobody = Side(LateTiny(), {"tie": "nobody"})
    out = compare("winner", tiny, nobody, [2, 3], MS)
    assert out.status == COUNTEREXAMPLE
    assert out.witness == {"players": 2, "totals": [0, 0], "tiny": [0, 1], "tiny-late": []}
    # the same ruleset on both sides, under two readings: the sides are told apart
    out = compare("winner", tiny, Side(Tiny(), {"tie": "nobody"}), [2, 3], MS)
    assert out.status == COUNTEREXAMPLE and out.witness["totals"] == [0, 0]


@pytest.mark.slow
def test_the_score_aspect_on_tiny() -> None:
    SCORES.load()
    SCORES.register("tiny", TinyScore)
    SCORES.register("tiny-late", TinyScore)
    try:
        tiny, late = Side(Tiny()), Side(LateTiny())
        out = compare("score", tiny, late, [2, 3], MS)
        assert out.status == PROVED, out
        SCORES.unregister("tiny-late")
        SCORES.register("tiny-late", BonusTinyScore)
        out = compare("score", tiny, late, [2, 3], MS)
        assert out.status == COUNTEREXAMPLE
        assert out.witness == {"players": 2, "seat": 0, "pile": [], "tiny": 0, "tiny-late": 1}
    finally:
        SCORES.unregister("tiny")
        SCORES.unregister("tiny-late")
