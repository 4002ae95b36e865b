"""The tie and gap detector (tricklaw.proofs.ties) and the game-winner tie switch
(option ``game-tie`` of every ruleset): the detector finds what it must, and fails where a
registry hides a tie, names a tie-break that is not there, or records a tie that cannot
arise."""

from __future__ import annotations

import dataclasses
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import z3

from tricklaw import spec
from tricklaw.model.agents import random_states
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.proofs import ties
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.quantities import TIES, CardQuantity, PlayerQuantity, every_card
from tricklaw.proofs.results import fails
from tricklaw.proofs.solver import Tracked
from tricklaw.spec import Pick, load_registry, parse_registry
from tricklaw.spec.errors import SpecError

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


clause = pytest.mark.clause

MUTANT = HERE / "engines" / "mutant_engine.py"
TIMEOUT = 30_000


def _tiny_data() -> dict[str, Any]:
    return tomllib.loads((HERE / "tiny" / "spec" / "tiny.toml").read_text("utf-8"))


def _with_registry(monkeypatch: pytest.MonkeyPatch, data: dict[str, Any]) -> None:
    """The detector reads ``data`` as Tiny's registry."""
    registry = parse_registry(data, "tiny.toml")
    monkeypatch.setattr(ties, "load_registry", lambda _: registry)


def _clause(data: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in data["clause"] if c["id"] == cid)


# --- what the detector finds ------------------------------------------------------------------


def test_tinys_game_tie_is_found_with_a_replayable_witness(registered: None) -> None:
    ruleset = get_ruleset("tiny")
    for players in (2, 3):
        results = ties.tie_results(ruleset, players, {}, TIMEOUT)
        game = next(r for r in results if r.obligation.startswith("tie TINY-GAME-1"))
        assert (game.status, game.machine, game.dispute) == ("finding", "tie", "TINY-D-TIE")
        # The witness is a game of the model: replaying its seed gives the tied totals.
        *_, state = random_states(ruleset.make_game(players), game.witness["seed"], max_rounds=None)
        assert list(state.returns()) == game.witness["values"]
        assert sorted(game.witness["values"])[-1] == sorted(game.witness["values"])[-2]
        trick = next(r for r in results if r.obligation.startswith("tie TINY-TRICK-1"))
        assert trick.status == "proved" and "TINY-DECK-1" in trick.clauses


def test_an_untied_pick_is_a_counterexample(
    registered: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A planted pick with no tie rule: the registry forgets TINY-D-TIE."""
    data = _tiny_data()
    del _clause(data, "TINY-GAME-1")["picks"][0]["tie"]
    _with_registry(monkeypatch, data)
    results = ties.tie_results(get_ruleset("tiny"), 2, {}, TIMEOUT)
    game = next(r for r in results if r.obligation.startswith("tie TINY-GAME-1"))
    assert game.status == "counterexample" and "neither the text nor a dispute" in game.detail


def test_a_newly_marked_card_pick_that_can_tie_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lowhigh's highest number with its tie-break struck out: two equal numbers in a trick."""
    ruleset = get_ruleset("lowhigh")
    registry = load_registry("lowhigh")
    clauses = tuple(
        dataclasses.replace(c, picks=(Pick("card", "highest", "number"),))
        if c.id == "LH-TRICK-2"
        else c
        for c in registry.clauses
    )
    monkeypatch.setattr(
        ties, "load_registry", lambda _: dataclasses.replace(registry, clauses=clauses)
    )
    results = ties.tie_results(ruleset, 3, {}, TIMEOUT)
    bad = [r for r in results if r.obligation.startswith("tie LH-TRICK-2")]
    # One row per reading of the trick encoding's ``same-card`` (issue 14, part 3).
    assert [r.reading for r in bad] == ["same-card=same-player", "same-card=among-rest"]
    assert [r.status for r in bad] == ["counterexample"] * 2
    values = [int(card[1:]) for card in bad[0].witness["trick"]]
    assert max(values) == sorted(values)[-2]


def test_a_tie_break_clause_the_trick_rule_does_not_state_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lowhigh's highest number, its tie said to be broken by the scoring clause."""
    registry = load_registry("lowhigh")
    clauses = tuple(
        dataclasses.replace(c, picks=(Pick("card", "highest", "number", "LH-SCORE-1"),))
        if c.id == "LH-TRICK-2"
        else c
        for c in registry.clauses
    )
    monkeypatch.setattr(
        ties, "load_registry", lambda _: dataclasses.replace(registry, clauses=clauses)
    )
    results = ties.tie_results(get_ruleset("lowhigh"), 3, {}, TIMEOUT)
    bad = [r for r in results if r.obligation.startswith("tie LH-TRICK-2")]
    # One row per reading of the trick encoding's ``same-card`` (issue 14, part 3).
    assert [r.reading for r in bad] == ["same-card=same-player", "same-card=among-rest"]
    assert [r.status for r in bad] == ["counterexample"] * 2
    assert "states no such rule" in bad[0].detail


def test_a_tie_dispute_without_a_switch_fails(
    registered: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _tiny_data()
    data["dispute"][0]["option"] = ""
    _with_registry(monkeypatch, data)
    results = ties.tie_results(get_ruleset("tiny"), 3, {}, TIMEOUT)
    game = next(r for r in results if r.obligation.startswith("tie TINY-GAME-1"))
    assert game.status == "counterexample" and "without a switch" in game.detail


def test_a_missing_quantity_fails(registered: None, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _tiny_data()
    _clause(data, "TINY-TRICK-1")["picks"][0]["quantity"] = "colour-count"
    _with_registry(monkeypatch, data)
    results = ties.tie_results(get_ruleset("tiny"), 2, {}, TIMEOUT)
    assert [r.status for r in results if "colour-count" in r.obligation] == ["fail"]


def _odd_points(game: Any, values: Any) -> list[Tracked]:
    """A planted relaxation: non-negative points summing to an odd number."""
    return [Tracked("TINY-SCORE-1", z3.And(*[v >= 0 for v in values], z3.Sum(*values) == 5))]


@pytest.mark.slow
def test_z3_proves_a_tie_impossible_and_a_stale_tie_dispute_fails(
    registered: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two players and an odd sum the totals can never tie: proved by Z3 from the
    relaxation alone (no game shows one); TINY-D-TIE then records a tie that cannot arise."""
    quantities = {
        **TIES["tiny"],
        "total": PlayerQuantity(observe=lambda game, state: (), relaxation=_odd_points),
    }
    monkeypatch.setattr(ties, "TIES", {"tiny": quantities})
    results = ties.ties(get_ruleset("tiny"), (2,), {}, TIMEOUT, complete=True)
    game = next(r for r in results if r.obligation.startswith("tie TINY-GAME-1"))
    assert game.status == "proved" and game.clauses == ("TINY-SCORE-1", "claim:tie")
    register = results[-1]
    assert register.obligation == "ties-register" and register.status == "fail"
    assert "TINY-D-TIE" in register.detail


@pytest.mark.slow
def test_a_relaxation_that_allows_a_tie_no_game_shows_is_undecided(
    registered: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    quantities = {**TIES["tiny"], "total": PlayerQuantity(observe=lambda game, state: ())}
    monkeypatch.setattr(ties, "TIES", {"tiny": quantities})
    results = ties.tie_results(get_ruleset("tiny"), 2, {}, TIMEOUT)
    game = next(r for r in results if r.obligation.startswith("tie TINY-GAME-1"))
    assert game.status == "fail"  # undecided; "unknown" is only a solver's own answer
    assert game.detail.startswith("undecided")


def test_play_order_never_ties_and_every_card_by_number_can() -> None:
    enc = ENCODINGS["lowhigh"](get_ruleset("lowhigh").make_game(3))
    order = TIES["lowhigh"]["play-order"]
    assert isinstance(order, CardQuantity)
    last = Pick("card", "last", "play-order")
    # True by construction (places in the play order are distinct): trivial, documented.
    assert ties.card_tie(enc, "LH-TRICK-2", order, last, TIMEOUT).status == "trivial"
    assert order.hollow
    number = CardQuantity(every_card)
    lowest = Pick("card", "lowest", "number")
    assert ties.card_tie(enc, "LH-TRICK-3", number, lowest, TIMEOUT).status == "counterexample"


OK = {"proved", "pass", "finding"}


@pytest.mark.slow
def test_every_ruleset_passes_the_detector() -> None:
    """Every pick of every registry: a proof, a text tie-break, or a recorded dispute with
    its switch; and the register check holds."""
    for ruleset in RULESETS.values():
        results = ties.ties(ruleset, ruleset.player_counts, {}, TIMEOUT, complete=True)
        # A trivial row (a pick by play order) passes where its quantity documents it.
        bad = [r for r in results if fails(r) or r.status not in {*OK, "trivial"}]
        assert not bad, bad
        assert all(r.machine == "tie" and r.dispute for r in results if r.status == "finding")


@pytest.mark.slow
@clause("STI93-DEAL-1", "STI93-D-DRAWTIE")
def test_the_draw_for_the_first_dealer_can_tie_and_the_text_is_silent() -> None:
    """Found by Z3 from the deck alone (the model does not play the draw): two players
    draw the same highest value in different colours."""
    results = ties.tie_results(get_ruleset("sticheln-1993"), 4, {}, TIMEOUT)
    draw = next(r for r in results if r.obligation.startswith("tie STI93-DEAL-1"))
    assert (draw.status, draw.dispute) == ("finding", "STI93-D-DRAWTIE")
    values = sorted(draw.witness["values"])
    assert values[-1] == values[-2] and "no switch" in draw.detail


@pytest.mark.slow
@clause("LAST-GAME-1", "LAST-D-GAMETIE")
def test_the_last_finds_its_game_tie_at_every_count() -> None:
    results = ties.ties(get_ruleset("the-last"), (2, 3, 4, 5), {}, TIMEOUT, complete=True)
    found = {r.players for r in results if r.dispute == "LAST-D-GAMETIE"}
    assert found == {"2", "3", "4", "5"}
    assert results[-1].status == "pass"


# --- the registry field -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"what": "suit"}, "picks what"),
        ({"by": "middle"}, "picks by"),
        ({"quantity": ""}, "quantity"),
        ({"tie": "TINY-NOPE"}, "unknown id"),
        ({"tie": "TINY-D-TIE"}, "does not cite it"),
        ({"colour": "red"}, "unknown field"),
    ],
)
def test_bad_picks_are_rejected(change: dict[str, str], message: str) -> None:
    data = _tiny_data()
    _clause(data, "TINY-TRICK-1")["picks"][0].update(change)
    sources = HERE / "tiny" / "spec"
    spec.add_folder(sources)  # type: ignore[arg-type]
    try:
        with pytest.raises(SpecError, match=message):
            parse_registry(data, "tiny.toml")
    finally:
        spec.remove_folder(sources)  # type: ignore[arg-type]


# --- the game-winner tie switch ---------------------------------------------------------------


@clause("STI93-D-GAMETIE", "STI-D-GAMETIE", "LAST-D-GAMETIE", "LH-D-GAMETIE", "HUND-D-GAMETIE")
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_ruleset_switches_its_game_tie(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    players = ruleset.player_counts[-1]
    dispute = next(s.dispute for s in ruleset.option_specs if s.name == "game-tie")
    assert dispute in {d.id for d in load_registry(ruleset_id).disputes}
    lowest_wins = ruleset_id == "the-last"  # the smallest penalty wins (LAST-GAME-1)
    best = 1 if lowest_wins else 9
    totals = [5] * players
    totals[1] = totals[3] = best
    expected = {"shared": (1, 3), "nobody": (), "first-seat": (1,)}
    for reading, winners in expected.items():
        game = ruleset.make_game(players, {"game-tie": reading})
        assert ruleset.winners(game, totals) == winners, reading
        single = list(totals)
        single[3] = 5
        assert ruleset.winners(game, single) == (1,)


@pytest.mark.slow
def test_an_engine_with_another_tie_break_passes_only_with_its_option() -> None:
    from tricklaw.fuzz import fuzz

    engine = f"{sys.executable} {MUTANT} first-seat"
    rulesets = list(RULESETS)
    clean = fuzz(
        engine, rulesets=rulesets, players=None, fixed={"game-tie": "first-seat"}, games=200, seed=1
    )
    assert clean.failures == [] and clean.games == 200
    caught = fuzz(engine, rulesets=rulesets, players=None, fixed={}, games=200, seed=1)
    assert len(caught.failures) == 1
    found = caught.failures[0]["disagreement"]
    assert found["kind"] == "end" and "winners" in found["message"]
