"""Score bounds (:mod:`tricklaw.proofs.bounds`): proved, tight, witnessed and sound.

* Every bound is proved by Z3 over its relaxation and met by a witness that the
  model replays to exactly that score (so every bound here is the exact least or
  greatest round score).
* The values are those the rules give by hand (see each table's reasoning).
* The bounds hold on a few hundred seeded random rounds per ruleset and player
  count, and every sampled round is itself a solution of the relaxation (the
  relaxation is sound on those rounds, score included).
* Gaps and unsound relaxations are reported as such, never as proved.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from tricklaw.errors import TricklawError
from tricklaw.model.agents import play_random_game
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import RoundLog
from tricklaw.proofs import bounds, plans, witnesses
from tricklaw.proofs.obligations import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN, Tracked
from tricklaw.spec import load_registry

clause = pytest.mark.clause
TIMEOUT_MS = 5000
CASES = [(rid, n) for rid, ruleset in RULESETS.items() for n in ruleset.player_counts]
RANDOM_ROUNDS = 300
ADMIT_ROUNDS = 6


@cache
def results(ruleset_id: str, players: int) -> tuple[Result, Result]:
    """(score-max, score-min) of one ruleset and player count, computed once."""
    high, low = bounds.bounds_results(ruleset_id, players, TIMEOUT_MS)
    return high, low


@cache
def sample_rounds(ruleset_id: str, players: int, count: int) -> tuple[RoundLog, ...]:
    """``count`` rounds of seeded random games under the default options."""
    game = RULESETS[ruleset_id].make_game(players)
    logs: list[RoundLog] = []
    seed = 1
    while len(logs) < count:
        state = play_random_game(game, seed, max_rounds=count - len(logs))
        logs += state.history
        seed += 1
    return tuple(logs[:count])


def bound_values(ruleset_id: str, players: int) -> tuple[int, int]:
    high, low = results(ruleset_id, players)
    return high.witness["bound"], low.witness["bound"]


# --- every bound is proved, tight, and witnessed -------------------------------------------


@pytest.mark.parametrize(("ruleset_id", "players"), CASES)
def test_every_bound_is_proved_tight_and_replays(ruleset_id: str, players: int) -> None:
    ids = load_registry(ruleset_id).ids
    for result, name in zip(results(ruleset_id, players), (bounds.MAX, bounds.MIN), strict=True):
        assert result.obligation == name
        assert (result.ruleset, result.players, result.reading) == (
            ruleset_id,
            str(players),
            "default",
        )
        assert result.status == PROVED, result.detail
        witness = result.witness
        assert witness["score"] == witness["bound"]
        assert witnesses.replay_witness(ruleset_id, players, witness) == witness["score"]
        assert witness["scores"][witnesses.SEAT] == witness["score"]
        assert result.clauses, "the proof names the clauses it rests on"
        assert set(result.clauses) <= ids


@clause(
    "STI93-DECK-2",
    "STI93-SELECT-1",
    "STI93-COLLECT-1",
    "STI93-ROUND-1",
    "STI93-SCORE-1",
    "STI93-SCORE-2",
    "STI93-SCORE-3",
    "STI-DECK-1",
    "STI-SELECT-2",
    "STI-COLLECT-1",
    "STI-ROUND-1",
    "STI-SCORE-1",
    "STI-SCORE-2",
    "STI-SCORE-3",
)
@pytest.mark.parametrize("ruleset_id", ["sticheln-1993", "sticheln"])
def test_sticheln_bounds_are_tight(ruleset_id: str) -> None:
    """Greatest: pick the misery zero and win only tricks of other colours: all
    ``(C-1)(T+1)`` of them when that is a multiple of ``n`` (36, 48, 60 for 3-5 players:
    12 tricks, the two other tricks holding only misery cards), else the largest
    multiple (6 players: 75 cards, 72 in 12 tricks; a 13th trick would bring at least
    three misery cards worth at least 6). Least: pick the misery top card ``T`` and take
    the other misery cards in whole tricks: ``-T - T(T-1)/2`` plus one filler card (3-5
    players: 3 tricks of ``n``, a zero of another colour filling the last: -35, -65,
    -104); with 6 players two tricks of misery 2..13 (-104) beat three tricks with four
    fillers (-101)."""
    expected = {3: (36, -35), 4: (48, -65), 5: (60, -104), 6: (72, -104)}
    for players, values in expected.items():
        assert bound_values(ruleset_id, players) == values
        assert all(r.status == PROVED for r in results(ruleset_id, players))


@clause("LH-DECK-1", "LH-TRICK-4", "LH-TRICK-5", "LH-SCORE-2", "LH-SCORE-3", "LH-SCORE-4")
def test_lowhigh_bounds() -> None:
    """Greatest: the top two values of every colour, gained as the lowest card's player
    (LH-TRICK-4): ``5 (2 top - 1)``; three or more cards of a colour score at most ``top``.
    Least: 0, gaining nothing (a middle card in every trick)."""
    for players, top in {3: 9, 4: 12, 5: 15, 6: 18}.items():
        assert bound_values("lowhigh", players) == (5 * (2 * top - 1), 0)


@clause("LAST-DECK-1", "LAST-DEAL-1", "LAST-GHOST-1", "LAST-COLLECT-1", "LAST-SCORE-1")
def test_the_last_bounds() -> None:
    """Greatest penalty: one face-down card per trick, at most the ``H`` highest cards
    (12s, 11s, 10s: 132 for 12 tricks; 102 for 9; 92 for 8). Least: 0, winning nothing."""
    assert {n: bound_values("the-last", n) for n in (2, 3, 4, 5)} == {
        2: (132, 0),
        3: (132, 0),
        4: (102, 0),
        5: (92, 0),
    }


@clause("HUND-DESIG-2", "HUND-FACT-2", "HUND-FACT-3", "HUND-COLLECT-1", "HUND-GAP-2")
def test_hund_bounds() -> None:
    """Greatest: every Plus card and the Hund award, ``S + 3``; least: every Minus card,
    ``-S``, for ``S`` cards a suit (6, 6, 8, 10)."""
    for players, size in {2: 6, 3: 6, 4: 8, 5: 10}.items():
        assert bound_values("hund", players) == (size + 3, -size)


def test_all_bounds_take_little_time() -> None:
    total = sum(r.seconds for rid, n in CASES for r in results(rid, n))
    assert total < 60


# --- soundness on the model's own rounds ---------------------------------------------------


@pytest.mark.parametrize(("ruleset_id", "players"), CASES)
def test_bounds_hold_on_random_rounds(ruleset_id: str, players: int) -> None:
    high, low = bound_values(ruleset_id, players)
    for log in sample_rounds(ruleset_id, players, RANDOM_ROUNDS):
        for seat in range(players):
            assert low <= log.scores[seat] <= high, (log.index, seat, log.scores)


@pytest.mark.parametrize(("ruleset_id", "players"), CASES)
def test_sampled_rounds_are_solutions_of_the_relaxation(ruleset_id: str, players: int) -> None:
    game = RULESETS[ruleset_id].make_game(players)
    for log in sample_rounds(ruleset_id, players, ADMIT_ROUNDS):
        for seat in range(players):
            values = bounds.round_values(game, log, seat)
            assert values["score"] == log.scores[seat]
            assert bounds.relaxation_admits(game, log, seat, TIMEOUT_MS)
            wrong = {**values, "score": log.scores[seat] + 1}
            assert not bounds.relaxation_admits(game, log, seat, TIMEOUT_MS, wrong)


# --- witnesses are checked, gaps are honest ---------------------------------------------


def witness_of(ruleset_id: str, players: int, maximize: bool = True) -> dict[str, Any]:
    high, low = results(ruleset_id, players)
    return dict((high if maximize else low).witness)


def test_replay_rejects_an_unfinished_round() -> None:
    witness = witness_of("sticheln", 4)
    witness["actions"] = witness["actions"][:-1]
    with pytest.raises(TricklawError, match="do not finish"):
        witnesses.replay_witness("sticheln", 4, witness)


@clause("LH-PLAY-2")
def test_replay_rejects_an_illegal_action() -> None:
    """The second card of the first lowhigh trick is swapped for a card of another colour
    from the same hand: the hand still holds the lead colour, so it is illegal."""
    witness = witness_of("lowhigh", 3)
    actions = [dict(a) for a in witness["actions"]]
    second = actions[1]
    hand = witness["deal"]["hands"][second["seat"]]
    lead = actions[0]["action"][0]
    other = next(card for card in hand if card[0] not in (lead, second["action"][0]))
    second["action"] = other
    witness["actions"] = actions
    with pytest.raises(TricklawError):
        witnesses.replay_witness("lowhigh", 3, witness)


def test_replay_rejects_a_seat_acting_out_of_turn() -> None:
    witness = witness_of("hund", 3)
    actions = [dict(a) for a in witness["actions"]]
    actions[0]["seat"] = (actions[0]["seat"] + 1) % 3
    witness["actions"] = actions
    with pytest.raises(TricklawError, match="turn"):
        witnesses.replay_witness("hund", 3, witness)


def test_a_weaker_witness_is_reported_as_a_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Handed the least-score witness for the greatest-score obligation, the result is
    unknown and states both numbers."""
    game = witnesses.witness_game("sticheln", 4)
    relax = bounds.sticheln_relaxation(game)
    low_hint = bounds.prove_bound(relax, False, TIMEOUT_MS).hint
    low = witnesses.drive(game, plans.sticheln_plan(game, low_hint) or pytest.fail("no plan"))
    monkeypatch.setattr(bounds, "find_witness", lambda *_: low)
    result = bounds.bound_result("sticheln", 4, True, TIMEOUT_MS)
    assert result.status == UNKNOWN
    assert result.detail == "proved bound 48, best witness -65"
    assert result.witness["bound"] == 48
    assert result.witness["score"] == -65


def test_no_witness_is_reported_as_a_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "find_witness", lambda *_: None)
    result = bounds.bound_result("the-last", 3, False, TIMEOUT_MS)
    assert result.status == UNKNOWN
    assert result.detail == "proved bound 0, no witness"


def test_an_unsound_relaxation_is_a_counterexample(monkeypatch: pytest.MonkeyPatch) -> None:
    """A relaxation wrongly capping Hund's score at 5 is refuted by the witness of 9 (the
    Hund plans are built from the rules alone, not from the relaxation's optimum)."""

    def capped(game: Any) -> bounds.Relaxation:
        relax = bounds.hund_relaxation(game)
        relax.assertions.append(Tracked("HUND-FACT-2", relax.score <= 5))
        return relax

    monkeypatch.setitem(bounds.RELAXATIONS, "hund", capped)
    result = bounds.bound_result("hund", 3, True, TIMEOUT_MS)
    assert result.status == COUNTEREXAMPLE
    assert (result.witness["bound"], result.witness["score"]) == (5, 9)
    assert "unsound" in result.detail


def test_a_bound_z3_cannot_reach_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        bounds, "optimum", lambda *_args, **_kwargs: (UNKNOWN, None, None), raising=True
    )
    result = bounds.bound_result("hund", 3, True, TIMEOUT_MS)
    assert result.status == UNKNOWN
    assert result.detail.startswith("bound not proved")
    assert "best witness 9" in result.detail


def test_results_are_json_ready() -> None:
    for result in results("hund", 2):
        data = json.loads(json.dumps(result.witness))
        assert data["deal"]["piles"]["virtual-up"]
        assert witnesses.replay_witness("hund", 2, data) == data["score"]
