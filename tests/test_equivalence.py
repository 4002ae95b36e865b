"""Model = clauses by symbolic execution (tricklaw.proofs.symbolic, .equivalence, .plain):
the executor on small functions, the trick proofs for a real game and the plug-in Tiny,
and a planted model bug on a rare six-player trick, which the proof must catch."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import z3

from tricklaw.model import get_ruleset
from tricklaw.model.cards import Card
from tricklaw.model.rulesets import lowhigh
from tricklaw.model.trick import TrickResult
from tricklaw.proofs import equivalence, plain, symbolic
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


X, Y = z3.Int("x"), z3.Int("y")
SMALL = [X >= 0, X < 3, Y >= 0, Y < 3]


def _explore(run: Any, domain: Sequence[z3.BoolRef] = SMALL) -> symbolic.Exploration:
    return symbolic.Explorer(domain, ["x", "y"]).explore(run)


def _proved_equal(found: symbolic.Exploration, want: z3.ArithRef) -> str:
    out = z3.Int("out")
    proof = equivalence.prove_paths(
        [*SMALL, out == want],
        {"out": out},
        found.paths,
        lambda p, _: None if p.error or p.unsupported else symbolic.z3_value(p.result),
        5_000,
    )
    return proof.status


def test_a_branch_forks_into_two_paths_and_the_proof_holds() -> None:
    def biggest() -> Any:
        x, y = symbolic.variable("x"), symbolic.variable("y")
        return x if x > y else y

    found = _explore(biggest)
    assert len(found.paths) == 2 and not found.uncovered
    assert _proved_equal(found, z3.If(X > Y, X, Y)) == PROVED
    assert _proved_equal(found, X) == COUNTEREXAMPLE  # a wrong claim is not proved


def test_builtins_fork_soundly_max_in_and_index() -> None:
    def code() -> Any:
        x, y = symbolic.variable("x"), symbolic.variable("y")
        names = ("a", "b", "c")
        pick = names[x]  # an index: a case split over the three values of x
        return (max([x, y]) if pick in ("a", "b") else 7) + (1 if y in (x,) else 0)

    found = _explore(code)
    assert not found.uncovered
    want = z3.If(X < 2, z3.If(X > Y, X, Y), 7) + z3.If(X == Y, 1, 0)
    assert _proved_equal(found, want) == PROVED


def test_a_condition_decided_once_is_not_forked_again_and_facts_must_be_proved() -> None:
    def code() -> Any:
        x, y = symbolic.variable("x"), symbolic.variable("y")
        first = 1 if x == y else 0
        return first + (1 if x == y else 0)  # the same test again

    found = _explore(code)
    assert len(found.paths) == 2  # x == y decided once per run
    assert all(len(p.steps) == 1 for p in found.paths)
    assert _proved_equal(found, z3.If(X == Y, 2, 0)) == PROVED
    different = symbolic.make("!=", ("v", "x"), ("v", "y"))
    # On a domain where x and y always differ, the fact is proved and nothing forks...
    apart = [*SMALL, X != Y]
    found = symbolic.Explorer(apart, ["x", "y"], facts=[different]).explore(code)
    assert len(found.paths) == 1 and found.paths[0].steps == ()
    # ...on one where they need not, the fact is refused, and both branches are explored.
    found = symbolic.Explorer(SMALL, ["x", "y"], facts=[different]).explore(code)
    assert len(found.paths) == 2
    assert _proved_equal(found, z3.If(X == Y, 2, 0)) == PROVED


def test_unsupported_operations_leave_paths_uncovered_never_guessed() -> None:
    def code() -> Any:
        x = symbolic.variable("x")
        return x | 1 if x > 0 else 0

    found = _explore(code)
    assert len(found.uncovered) == 1 and "bitwise or" in found.uncovered[0].unsupported
    # The uncovered path is reachable, so the proof cannot be completed.
    assert _proved_equal(found, z3.If(X > 0, X, 0)) == COUNTEREXAMPLE


def test_exceptions_are_path_results_and_bit_operations_are_exact() -> None:
    def code() -> Any:
        x = symbolic.variable("x") * 40 + symbolic.variable("y")
        if x >> 5 == 2:
            raise ValueError("planted")
        return (x & 31) + (x // 3) % 4 - abs(-x)

    found = _explore(code)
    assert any("planted" in p.error for p in found.paths)
    ints = [(x, y) for x in range(3) for y in range(3)]
    for x, y in ints:
        value = x * 40 + y
        if value >> 5 == 2:
            continue
        path = next(
            p
            for p in found.covered
            if not p.error
            and z3.simplify(z3.substitute(p.condition, (X, z3.IntVal(x)), (Y, z3.IntVal(y)))).eq(
                z3.BoolVal(True)
            )
        )
        got = z3.simplify(
            z3.substitute(symbolic.z3_value(path.result), (X, z3.IntVal(x)), (Y, z3.IntVal(y)))
        )
        assert got.as_long() == (value & 31) + (value // 3) % 4 - abs(-value)


@pytest.mark.parametrize("players", [3, 4])
def test_lowhigh_tricks_proved_equal_on_every_input(players: int) -> None:
    ruleset = get_ruleset("lowhigh")
    results = equivalence.equivalence_results(ruleset, players, {}, 30_000)
    assert {r.reading for r in results} == {"same-card=same-player", "same-card=among-rest"}
    assert all(r.status == PROVED for r in results), [(r.reading, r.detail) for r in results]
    assert all("paths" in r.detail for r in results)


def test_an_exploration_leaves_no_symbolic_key_in_the_models_caches() -> None:
    """The Last's judge caches its facts by (colour, position): explored symbolically,
    the cache would keep symbolic keys, and the next concrete trick with an equal hash
    would compare with one outside any exploration."""
    ruleset = get_ruleset("the-last")
    game = ruleset.make_game(3)
    enc = ENCODINGS["the-last"](game)
    assert equivalence.trick_equivalence(enc, 30_000).status == PROVED
    for trick in (["R1", "Y5", "G3"], ["Y2", "Y4", "R1"], ["G7", "B1", "G2"]):
        cards = [Card(c) for c in ruleset.palette.parse_all(trick)]
        assert ruleset.judge_trick(game, cards).winner is not None


@pytest.mark.slow
def test_the_plain_copy_of_the_model_runs_and_proves_the_same() -> None:
    ruleset = get_ruleset("lowhigh")
    enc = ENCODINGS["lowhigh"](ruleset.make_game(3))
    run = plain.runner(enc, force=True)
    assert run.__self__.game.ruleset is not ruleset  # type: ignore[attr-defined]
    assert type(run.__self__.game.ruleset).__module__.startswith(plain.PREFIX)  # type: ignore[attr-defined]
    cards = [Card(c) for c in ruleset.palette.parse_all(["R1", "Y5", "G3"])]
    assert run(cards) == enc.model_answer(cards)


def test_tiny_is_proved_equal_at_every_count(registered: None) -> None:
    ruleset = get_ruleset("tiny")
    for players in ruleset.player_counts:
        results = equivalence.equivalence_results(ruleset, players, {}, 30_000)
        assert results and all(r.status == PROVED for r in results), results


def _rare_bug(real: Any) -> Any:
    """lowhigh's judge with a bug on six-card tricks whose first and last cards show the
    same number and whose second card shows 17: the winner moves one seat on."""

    def judge(cards: Sequence[Card], lowest_among_rest: bool = False) -> TrickResult:
        result: TrickResult = real(cards, lowest_among_rest)
        if len(cards) == 6 and cards[0] & 31 == cards[5] & 31 and cards[1] & 31 == 17:
            assert result.winner is not None
            moved = (result.winner + 1) % 6
            return TrickResult(result.cards, moved, ((moved, result.cards),), (), result.clauses)
        return result

    return judge


@pytest.mark.slow
def test_a_planted_bug_on_a_rare_six_player_trick_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lowhigh, "judge", _rare_bug(lowhigh.judge))
    if plain.compiled_install():  # the executor runs the plain copy: plant it there too
        copy = plain.plain_module(lowhigh.__name__)
        monkeypatch.setattr(copy, "judge", _rare_bug(copy.judge))
    ruleset = get_ruleset("lowhigh")
    game = ruleset.make_game(6)
    enc = ENCODINGS["lowhigh"](game)
    out = equivalence.trick_equivalence(enc, 30_000, budget=10**9)
    assert out.status == COUNTEREXAMPLE, out
    trick = out.witness["trick"]
    values = [int(card[1:]) for card in trick]
    assert values[0] == values[5] and values[1] == 17
    assert out.witness["model"] != out.witness["encoding"]
    # The concrete model (the copy the executor ran) on the witness shows the bug too.
    cards = ruleset.palette.parse_all(trick)
    assert plain.runner(enc)(cards) == out.witness["model"]
    assert out.machine == "equivalence"


def test_an_unknown_is_never_reported_as_proved() -> None:
    ruleset = get_ruleset("lowhigh")
    enc = ENCODINGS["lowhigh"](ruleset.make_game(4))
    proof = equivalence.prove_paths(
        [t.formula for t in enc.domain()], enc.outcome, [], lambda p, k: None, 5_000
    )
    assert proof.status in (COUNTEREXAMPLE, UNKNOWN)  # no path: nothing is covered


@pytest.mark.slow
def test_verify_reports_the_proof_per_reading_and_the_sample_behind_it() -> None:
    from tricklaw.verify import Scope, collect

    results = collect(Scope("lowhigh", players=3))
    proofs = [r for r in results if r.obligation == "equivalence-trick"]
    assert {r.reading for r in proofs} == {"same-card=same-player", "same-card=among-rest"}
    assert all(r.status == PROVED and "paths" in r.detail for r in proofs)
    samples = [r for r in results if r.obligation == "agreement"]
    assert samples and all("seeded random tricks" in r.detail for r in samples)


def test_over_the_path_budget_nothing_is_claimed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKLAW_EQUIVALENCE_PATHS", "5")
    assert equivalence.path_budget() == 5
    ruleset = get_ruleset("lowhigh")
    out = equivalence.trick_equivalence(ENCODINGS["lowhigh"](ruleset.make_game(4)), 30_000)
    assert out.status == "pass" and out.detail.startswith("NOT PROVED")
    monkeypatch.setenv("TRICKLAW_EQUIVALENCE_PATHS", "0")
    assert equivalence.path_budget() >= 10**9
