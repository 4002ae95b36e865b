"""Liveness and progress (proofs/liveness.py, proofs/game_end.py, proofs/liveness_checks.py):
every ruleset proved live at every player count; planted bugs in a machine, a model's
game end or its bounds are caught; the endless Sticheln game is a replayed finding.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import z3

from tricklaw.model import get_ruleset
from tricklaw.model.agents import play_random_game, random_states
from tricklaw.model.rng import SplitMix64
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import Game
from tricklaw.proofs import game_end, liveness, liveness_checks, play_lemma
from tricklaw.proofs.solver import (
    COUNTEREXAMPLE,
    FAIL,
    FINDING,
    PROVED,
    VACUOUS,
    Tracked,
)
from tricklaw.spec.errors import TricklawError
from tricklaw.verify.checks import walk_random_game

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tiny

TIMEOUT = 30_000


def _statuses(ruleset_id: str, players: int, options: dict[str, str] | None = None) -> Any:
    ruleset = get_ruleset(ruleset_id)
    return liveness_checks.results(ruleset, players, options or {}, TIMEOUT)


@pytest.mark.slow
def test_tiny_is_live_at_every_table(registered: None) -> None:
    for players in (2, 3):
        results = _statuses("tiny", players)
        assert {r.obligation for r in results} == {
            "liveness-action",
            "liveness-round",
            "liveness-play",
            "liveness-game",
        }
        assert all(r.status == PROVED for r in results), [(r.obligation, r.detail) for r in results]
        game = next(r for r in results if r.obligation == "liveness-round")
        assert game.witness["decisions"] == 12 // players * players


@pytest.mark.slow
def test_lowhigh_round_bound_is_the_cards_dealt_plus_the_tricks() -> None:
    results = {r.obligation: r for r in _statuses("lowhigh", 3)}
    assert results["liveness-round"].status == PROVED
    # 45 cards played and 15 tricks closed; 45 decisions, the model's max_decisions.
    assert results["liveness-round"].witness == {
        "actions": 60,
        "decisions": 45,
        "max_decisions": 45,
    }
    assert "LH-PLAY-1" in results["liveness-action"].clauses


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", sorted(RULESETS.ids()))
def test_every_ruleset_is_live_or_a_recorded_finding(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    for players in ruleset.player_counts:
        for r in liveness_checks.results(ruleset, players, {}, TIMEOUT):
            if r.status == FINDING:
                assert (r.machine, r.dispute) == ("liveness", "STI93-D-END"), r
                assert "end=target" in r.reading
            else:
                assert r.status == PROVED, (players, r.obligation, r.reading, r.detail)


# --- planted bugs in a machine ---------------------------------------------------------------


def _tiny_machine(players: int = 3) -> liveness.Progress:
    game = tiny.TINY.make_game(players)
    return tiny.encoding.progress(game)


def _with_step(p: liveness.Progress, index: int, step: liveness.Step) -> liveness.Progress:
    steps = list(p.steps)
    steps[index] = step
    return dataclasses.replace(p, steps=tuple(steps))


def test_the_untouched_tiny_machine_proves() -> None:
    p = _tiny_machine()
    assert liveness.base(p, TIMEOUT).status == PROVED
    assert liveness.enabled(p, TIMEOUT).status == PROVED
    assert all(liveness.step(p, s, TIMEOUT).status == PROVED for s in p.steps)
    assert liveness.premises_live(p, TIMEOUT) == []


def test_a_play_rule_that_can_forbid_every_card_is_caught() -> None:
    p = _tiny_machine()
    play = p.steps[0]

    def stingy(v: liveness.Vars) -> Any:
        pre, changed = play.apply(v)
        return z3.And(pre, liveness.held(v, 3, v["cur"]) >= 2), changed  # the last card: never

    out = liveness.enabled(_with_step(p, 0, dataclasses.replace(play, apply=stingy)), TIMEOUT)
    assert out.status == COUNTEREXAMPLE
    assert out.witness["t"] < 3 and out.witness["k"] == 1  # the last trick, nobody can play


def test_a_round_end_that_is_never_reached_is_caught() -> None:
    p = _tiny_machine()
    close = p.steps[1]

    def endless(v: liveness.Vars) -> Any:
        pre, changed = close.apply(v)
        return pre, {**changed, "k": v["k"], "over": z3.IntVal(0)}  # no trick ever counted

    out = liveness.step(p, dataclasses.replace(close, apply=endless), TIMEOUT)
    assert out.status == COUNTEREXAMPLE
    assert out.witness["rank"] is False


def test_a_step_that_loses_a_card_breaks_the_invariant() -> None:
    p = _tiny_machine()
    play = p.steps[0]

    def careless(v: liveness.Vars) -> Any:
        pre, changed = play.apply(v)
        return pre, {**changed, "h0": v["h0"] - 1}  # seat 0 loses a card whoever plays

    out = liveness.step(p, dataclasses.replace(play, apply=careless), TIMEOUT)
    assert out.status == COUNTEREXAMPLE
    assert out.witness["invariant"] is False


def test_vacuous_premises_are_reported() -> None:
    p = _tiny_machine()
    never = dataclasses.replace(p.steps[0], apply=lambda v: (z3.BoolVal(False), {}))
    empty = liveness.premises_live(_with_step(p, 0, never), TIMEOUT)
    assert empty == ["the guard of 'a card played'"]
    nothing = dataclasses.replace(p, invariant=lambda v: z3.BoolVal(False))
    assert "the invariant (round under way)" in liveness.premises_live(nothing, TIMEOUT)
    # ... and the induction over an empty invariant holds of nothing: the solver's own
    # check reports each step vacuous, never proved.
    assert all(liveness.step(nothing, s, TIMEOUT).status == VACUOUS for s in nothing.steps)


class _MustFollowOnly(tiny.encoding.TinyPlay):  # type: ignore[misc,name-defined]
    """Tiny's play rule with the fallback lost: the led colour, held or not."""

    def rule(self, held: Any, trick: Any, card: Any) -> list[Tracked]:
        return [Tracked("TINY-PLAY-1", card[0] == trick[0][0])] if trick else []


def test_a_play_rule_that_forbids_every_card_of_some_hand_is_caught(registered: None) -> None:
    game = tiny.TINY.make_game(3)
    assert all(o.status == PROVED for o in play_lemma.play_lemma(game, {}, TIMEOUT)[0])
    enc = _MustFollowOnly(game)
    assert play_lemma.some_card_legal(enc, 0, TIMEOUT)[0].status == PROVED  # the lead is free
    out, _ = play_lemma.some_card_legal(enc, 1, TIMEOUT)
    assert out.status == COUNTEREXAMPLE
    led = out.witness["trick"][0][0]
    assert out.witness["hand"] and all(
        tiny.TINY.palette.parse(c) >> 5 != led for c in out.witness["hand"]
    )


class _LastSeatStingy(tiny.encoding.TinyPlay):  # type: ignore[misc,name-defined]
    """Tiny's play rule forbidding every card to the last seat of a trick (it reads the
    trick's length, so no position may stand for another)."""

    def rule(self, held: Any, trick: Any, card: Any) -> list[Tracked]:
        last = len(trick) == self.size - 1
        return [Tracked("TINY-PLAY-1", z3.BoolVal(not last))]


def test_a_rule_that_reads_the_position_is_proved_at_every_position(registered: None) -> None:
    game = tiny.TINY.make_game(3)
    _, proved = play_lemma.play_lemma(game, {}, TIMEOUT)
    assert proved == 2  # Tiny's rule reads only the first card: position 1 stands for 2
    outs, proved = play_lemma.positions(_LastSeatStingy(game), TIMEOUT)
    assert proved == 3
    assert [o.status for o in outs] == [PROVED, PROVED, COUNTEREXAMPLE]


# --- planted bugs in the model ---------------------------------------------------------------


class _NeverOver(type(tiny.TINY)):  # type: ignore[misc]
    """Tiny whose game never ends."""

    def game_over(self, game: Game, rounds_played: int, totals: tuple[int, ...]) -> bool:
        return False


class _FewDecisions(type(tiny.TINY)):  # type: ignore[misc]
    """Tiny whose bound on a round's decisions is too small."""

    def max_decisions(self, game: Game) -> int:
        return 5


def test_a_model_game_that_never_ends_is_caught(registered: None) -> None:
    game = _NeverOver().make_game(2)
    out = game_end.fixed_rounds(tiny.encoding.ending(game), game, TIMEOUT)
    assert out.status == "fail"
    assert "game_over is false after 1 rounds" in out.detail


def test_a_model_bound_on_decisions_too_small_is_caught(registered: None) -> None:
    ruleset = _FewDecisions()
    p = tiny.encoding.progress(ruleset.make_game(2))
    steps = [(s.name, liveness.step(p, s, TIMEOUT)) for s in p.steps]
    most = ruleset.max_decisions(ruleset.make_game(2))
    status, detail, _ = liveness_checks.round_result(p, steps, most, TIMEOUT)
    assert status == "fail" and "exceed the model's max_decisions 5" in detail


def test_a_round_longer_than_max_decisions_stops_every_random_walk(registered: None) -> None:
    """The agents hold each round to the model's max_decisions, the bound liveness-round
    proves of the clauses: a round that outgrows it raises, naming the bound, where an
    endless round would hang the walks (verify's self-check, the vectors, the fingerprint)."""
    game = _FewDecisions().make_game(2)
    over = "round 1 has taken 6 actions, more than the ruleset's max_decisions 5"
    with pytest.raises(TricklawError, match=over):
        list(random_states(game, 1, max_rounds=1))
    with pytest.raises(TricklawError, match=re.escape("max_decisions 5 (liveness-round)")):
        play_random_game(game, 1, max_rounds=1)
    with pytest.raises(TricklawError, match="seed 1: round 1 has taken 6 actions"):
        walk_random_game(game, 1)
    whole = tiny.TINY.make_game(2)  # the bound the model keeps: every walk ends
    assert play_random_game(whole, 1).is_terminal() and walk_random_game(whole, 1).is_terminal()


def test_a_machine_dealing_other_hands_than_the_model_is_caught() -> None:
    p = _tiny_machine(2)
    steps = [(s.name, liveness.step(p, s, TIMEOUT)) for s in p.steps]
    status, detail, _ = liveness_checks.action_result(p, steps, 5, TIMEOUT)
    assert status == "fail" and "deals 6 cards, the model 5" in detail


# --- the game's end ---------------------------------------------------------------------------


def test_the_sticheln_target_game_need_never_end() -> None:
    ruleset = get_ruleset("sticheln-1993")
    game = ruleset.make_game(3, {"end": "target"})
    ending = game_end.Ending(
        "STI93-GAME-1", lambda r, t: z3.Or(*[x >= 100 for x in t]), None, "STI93-D-END"
    )
    out = game_end.endless(game, ending, 3)
    assert out.status == FINDING and (out.machine, out.dispute) == ("liveness", "STI93-D-END")
    rounds = out.witness["rounds"]
    assert len(rounds) == 3 and all(max(r["scores"]) <= 0 for r in rounds)
    assert all(max(t) <= 0 for t in out.witness["totals"])


@pytest.mark.slow
@pytest.mark.clause("STI93-GAME-1")
def test_a_target_reached_that_the_model_lets_pass_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the run at 07d03eb: ``sticheln.Sticheln.game_over.L430.cmp-boundary``
    (over once a total passes the target, not reaches it) survived verify: with no fixed
    number of rounds only the endless search ran, and it never meets the target. The
    model's end is now held to the clause's at the edges Z3 finds (a total of 99, 100,
    101 for the target 100) before the search."""
    ruleset = get_ruleset("sticheln-1993")
    game = ruleset.make_game(4, {"end": "target"})
    ending = liveness.LIVENESS["sticheln-1993"].ending(game)
    assert game_end.end_disagreement(ending, game, TIMEOUT) is None
    real = type(ruleset).game_over

    def passes(self: Any, game: Game, rounds: int, totals: tuple[int, ...]) -> bool:
        if game.options.text("end") == "target":
            return max(totals) > game.options.number("target")
        return real(self, game, rounds, totals)

    monkeypatch.setattr(type(ruleset), "game_over", passes)
    out = game_end.end_disagreement(ending, game, TIMEOUT)
    assert out is not None and out.status == FAIL, out
    assert out.witness == {"rounds": 1, "totals": [100] * 4, "clause says over": True}
    rows = [
        r
        for r in _statuses("sticheln-1993", 4, {"end": "target"})
        if r.obligation == "liveness-game"
    ]
    assert [r.status for r in rows] == [FAIL] * len(rows) and rows


def test_a_tampered_cycle_does_not_replay() -> None:
    ruleset = get_ruleset("sticheln-1993")
    game = ruleset.make_game(3, {"end": "target"})
    ending = game_end.Ending("STI93-GAME-1", lambda r, t: z3.BoolVal(False), None, "STI93-D-END")
    state = game.new_initial_state(1)
    _, plays = game_end.quiet_round(state, SplitMix64(1))
    deals = [state.info.deal] * 3
    problem, _ = game_end.replay_cycle(game, ending, deals, [plays[1:]] * 3)  # a pick lost
    assert problem


def test_a_target_every_round_approaches_is_not_called_endless(registered: None) -> None:
    # Tiny gives a point a trick, so every round someone scores: no endless cycle exists,
    # and the search must say it found none (a fail: undecided by the search, and not a
    # solver's unknown), never "finding" nor "proved".
    game = tiny.TINY.make_game(2)
    ending = game_end.Ending("TINY-GAME-1", lambda r, t: z3.Or(*[x >= 10 for x in t]), None)
    out = game_end.endless(game, ending, 2)
    assert out.status == FAIL


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS.ids()))
def test_the_models_rounds_take_no_more_decisions_than_the_machine_proves(
    ruleset_id: str,
) -> None:
    # The machine is written from the clauses; the model's random rounds must fit it: a
    # model with a decision the machine does not count would exceed the proved bound.
    from tricklaw.model.agents import play_random_game

    ruleset = get_ruleset(ruleset_id)
    players = ruleset.player_counts[0]
    game = ruleset.make_game(players)
    p = liveness.LIVENESS[ruleset_id].progress(game)
    bound = liveness.bound(p, p.decisions, TIMEOUT)
    assert bound is not None
    for seed in range(1, 4):
        state = play_random_game(game, seed, max_rounds=2)
        logs = state.info.history
        assert logs
        assert all(len(log.actions) <= bound for log in logs), [len(x.actions) for x in logs]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", sorted(RULESETS.ids()))
def test_every_state_the_model_reaches_satisfies_the_machines_invariant(
    ruleset_id: str,
) -> None:
    # The machine is written from the clauses, the model from the same clauses: the
    # model's reachable states, read as the machine's variables, must satisfy the
    # invariant the induction proved (else the machine proves things of another game).
    from tricklaw.model.agents import random_states

    ruleset = get_ruleset(ruleset_id)
    for players in (ruleset.player_counts[0], ruleset.player_counts[-1]):
        game = ruleset.make_game(players)
        p = liveness.LIVENESS[ruleset_id].progress(game)
        assert p.observe is not None
        seen = 0
        for state in random_states(game, seed=players, max_rounds=2):
            if state.is_terminal():
                continue
            values = p.observe(state)
            assert liveness.holds_at(p, values), (players, values)
            seen += 1
        assert seen > 2 * players


def test_a_state_outside_the_invariant_is_told_apart() -> None:
    p = _tiny_machine(2)
    game = tiny.TINY.make_game(2)
    state = game.new_initial_state(1)
    values = p.observe(state) if p.observe else {}
    assert liveness.holds_at(p, values)
    assert not liveness.holds_at(p, {**values, "h1": values["h1"] - 1})  # a card gone
