"""The Z3 obligations bite: each deliberately broken clause (a mutant, defined only here)
makes its obligation fail with the right clause ids, and a time-out is never a proof."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from tricklaw.model.cards import make_card
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.trick import TrickResult
from tricklaw.proofs import conservation, trick_obligations
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.encodings.sticheln import StichelnTrick
from tricklaw.proofs.solver import (
    COUNTEREXAMPLE,
    FINDING,
    INFO,
    PROVED,
    TRIVIAL,
    UNKNOWN,
    Tracked,
    check,
)
from tricklaw.proofs.tricks import Case

clause = pytest.mark.clause
TIMEOUT = 20_000


def encoding(ruleset: str, players: int, **options: str) -> StichelnTrick:
    game = get_ruleset(ruleset).make_game(players, options)
    enc = ENCODINGS[ruleset](game)
    assert isinstance(enc, StichelnTrick)
    return enc


class LatestTieWins(StichelnTrick):
    """Mutant: the tie rule reversed (the latest of equal trumps wins)."""

    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        rules = super().resolution(outcome)
        w = outcome["winner"]
        tie = "STI-TRICK-3" if not self.is_1993 else "STI93-TRICK-6"
        return [
            Tracked(tie, z3.Implies(z3.Or(*self.trumps()), self.latest_of_equal(w, self.trumps())))
            if t.clause == tie
            else t
            for t in rules
        ]


class MissingCase(StichelnTrick):
    """Mutant: the text's all-start-colour case (STI93-TRICK-3) left out."""

    def text_cases(self) -> list[Case]:
        return [c for c in super().text_cases() if c.clause != "STI93-TRICK-3"]


class Unrecorded(StichelnTrick):
    """Mutant: the off-colour-zero overlap no longer recorded as a dispute."""

    def recorded(self) -> Mapping[frozenset[str], str]:
        return {}


def mutant(cls: type[StichelnTrick], ruleset: str, players: int, **options: str) -> StichelnTrick:
    return cls(get_ruleset(ruleset).make_game(players, options))


# --- every obligation holds on the shipped encodings ---------------------------------------


@clause("STI-TRICK-1", "STI-TRICK-2", "STI-TRICK-3", "STI-TRICK-4", "STI-TRICK-6")
@pytest.mark.parametrize("name", sorted(trick_obligations.TRICK_OBLIGATIONS))
def test_shipped_sticheln_obligations_are_proved(name: str) -> None:
    """Each proved, except coverage (its cases cover every trick by their form: trivial,
    as the encoding documents) and ties-possible (an informational answer)."""
    enc = encoding("sticheln", 6)
    out = trick_obligations.TRICK_OBLIGATIONS[name](enc, TIMEOUT)
    expected = {"coverage": TRIVIAL, "ties-possible": INFO}.get(name, PROVED)
    assert out.status == expected, out
    assert expected != TRIVIAL or name in enc.hollow


@clause("STI93-TRICK-3", "STI93-TRICK-4", "STI93-TRICK-5", "STI93-TRICK-6")
def test_1993_cases_are_disjoint_and_cover_every_trick() -> None:
    enc = encoding("sticheln-1993", 4)
    assert trick_obligations.coverage(enc, TIMEOUT).status == TRIVIAL  # by the cases' form
    assert all(o.status == PROVED for _, o in trick_obligations.overlaps(enc, TIMEOUT))


@clause("STI93-D-ALLZERO", "STI93-TRICK-4")
def test_the_all_zero_reading_overlaps_the_1993_zero_case_as_recorded() -> None:
    enc = encoding("sticheln-1993", 4, **{"all-zero": "no-winner"})
    found = dict(trick_obligations.overlaps(enc, TIMEOUT))
    out = found["STI93-TRICK-4 / STI93-D-ALLZERO"]
    assert out.status == FINDING
    assert all(card.endswith("0") for card in out.witness["trick"])


@clause("STI-D-ZEROOFF", "STI-TRICK-2", "STI-TRICK-4")
def test_the_off_colour_zero_contradiction_is_found_with_a_witness() -> None:
    found = dict(trick_obligations.overlaps(encoding("sticheln", 4), TIMEOUT))
    out = found["STI-TRICK-2 / STI-TRICK-4"]
    assert out.status == FINDING
    assert "STI-D-ZEROOFF" in out.detail
    lead = out.witness["trick"][0][0]
    off = [c for c in out.witness["trick"] if c[0] != lead]
    assert off and all(c[1:] == "0" for c in off)


@clause("STI-TRICK-3")
def test_ties_are_possible_in_sticheln_and_impossible_in_the_last() -> None:
    assert "witness" in trick_obligations.ties_possible(encoding("sticheln", 3), TIMEOUT).detail
    last = ENCODINGS["the-last"](get_ruleset("the-last").make_game(4))
    out = trick_obligations.ties_possible(last, TIMEOUT)
    assert out.status == INFO and "no tie" in out.detail


# --- the mutants are caught ------------------------------------------------------------


@clause("STI-TRICK-3")
def test_a_reversed_tie_rule_fails_the_tie_obligation_naming_the_tie_clause() -> None:
    out = trick_obligations.tie_broken_as_written(mutant(LatestTieWins, "sticheln", 4), TIMEOUT)
    assert out.status == COUNTEREXAMPLE
    assert "STI-TRICK-3" in out.clauses


@pytest.mark.slow
@clause("STI93-TRICK-6")
def test_a_reversed_tie_rule_disagrees_with_the_model_on_a_printed_trick() -> None:
    enc = mutant(LatestTieWins, "sticheln-1993", 3)
    cases = trick_obligations.tricks(3, 5, range(9), symmetric=True)
    out, _ = trick_obligations.agreement(enc, cases, TIMEOUT)
    assert out.status == COUNTEREXAMPLE
    assert out.witness["model"] != out.witness["encoding"]
    assert len(out.witness["trick"]) == 3


@clause("STI93-TRICK-3")
def test_a_missing_case_leaves_a_gap_with_a_witness() -> None:
    out = trick_obligations.coverage(mutant(MissingCase, "sticheln-1993", 4), TIMEOUT)
    assert out.status == COUNTEREXAMPLE
    trick = out.witness["trick"]
    assert len({card[0] for card in trick}) == 1  # the witness is all one colour


@clause("STI-D-ZEROOFF")
def test_an_unrecorded_overlap_is_a_counterexample_not_a_finding() -> None:
    found = dict(trick_obligations.overlaps(mutant(Unrecorded, "sticheln", 4), TIMEOUT))
    assert found["STI-TRICK-2 / STI-TRICK-4"].status == COUNTEREXAMPLE


@clause("STI-TRICK-2")
def test_a_wrong_model_disagrees_with_the_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = get_ruleset("sticheln")
    real = ruleset.judge_trick

    def leader_always_wins(game: Any, cards: Any, context: Any = None) -> TrickResult:
        result = real(game, cards, context)
        return dataclasses.replace(result, winner=0)

    monkeypatch.setattr(ruleset, "judge_trick", leader_always_wins)
    enc = encoding("sticheln", 3)
    out, _ = trick_obligations.agreement(
        enc, trick_obligations.tricks(3, 5, range(9), True), TIMEOUT
    )
    assert out.status == COUNTEREXAMPLE
    assert out.witness["model"]["winner"] == 0


def test_a_card_dropped_by_a_transition_breaks_conservation_naming_it() -> None:
    ruleset = get_ruleset("sticheln")
    machine = conservation.machine("sticheln", 4, ruleset.clause)

    def drop(places: conservation.Places, c: z3.ArithRef) -> tuple[z3.BoolRef, conservation.Places]:
        return z3.BoolVal(True), {"trick": z3.EmptySet(z3.IntSort())}  # taken forgets the trick

    broken = conservation.Transition("seat 0 takes the trick", "STI-COLLECT-1", drop)
    out = conservation.step(machine, broken, TIMEOUT)
    assert out.status == COUNTEREXAMPLE
    assert "STI-COLLECT-1" in out.clauses
    assert "card" in out.witness


def test_a_duplicated_card_breaks_conservation() -> None:
    machine = conservation.machine("lowhigh", 3, get_ruleset("lowhigh").clause)

    def copy(places: conservation.Places, c: z3.ArithRef) -> tuple[z3.BoolRef, conservation.Places]:
        return z3.IsMember(c, places["trick"]), {"taken0": z3.SetAdd(places["taken0"], c)}

    out = conservation.step(machine, conservation.Transition("copy", "LH-TRICK-4", copy), TIMEOUT)
    assert out.status == COUNTEREXAMPLE


@pytest.mark.slow
def test_every_shipped_transition_keeps_every_card() -> None:
    for ruleset in ("sticheln-1993", "the-last", "lowhigh", "hund"):
        rules = get_ruleset(ruleset)
        machine = conservation.machine(
            ruleset, rules.make_game(rules.player_counts[0]).seats, rules.clause
        )
        assert conservation.base(machine, TIMEOUT).status == PROVED
        for transition in machine.transitions:
            out = conservation.step(machine, transition, TIMEOUT)
            assert out.status == PROVED, (ruleset, transition.name)
            assert transition.clause in out.clauses, (ruleset, transition.name)


# --- honesty ------------------------------------------------------------------------------


def test_a_time_out_is_unknown_never_proved() -> None:
    x, y, z = z3.Ints("x y z")
    hard = z3.And(x > 1, y > 1, z > 1, x * x * x + y * y * y == z * z * z, x < 10**40)
    out = check([Tracked("claim:fermat-3", hard)], timeout_ms=1)
    assert out.status == UNKNOWN


def test_verify_counts_unknown_as_not_proved() -> None:
    from tricklaw.verify import BAD

    assert UNKNOWN in BAD and COUNTEREXAMPLE in BAD and PROVED not in BAD


def test_card_numbers_in_encodings_match_the_model() -> None:
    enc = encoding("sticheln", 4)
    solver = z3.Solver()
    solver.add(*[t.formula for t in enc.domain()])
    solver.add(*enc.fix((make_card(0, 11), make_card(1, 0), make_card(4, 5), make_card(2, 7))))
    assert solver.check() == z3.sat
    solver.add(*enc.fix((make_card(0, 12), make_card(1, 0), make_card(4, 5), make_card(2, 7))))
    assert solver.check() == z3.unsat  # R12 is not in the four-player deck (values 0-11)


# --- the verify command ---------------------------------------------------------------------


def _verify(*args: str) -> Any:
    import subprocess
    import sys
    from pathlib import Path

    exe = Path(sys.executable).parent / "tricklaw"
    return subprocess.run(
        [str(exe), "verify", *args], check=False, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_verify_writes_a_json_report_with_every_obligation(tmp_path: Any) -> None:
    import json

    path = tmp_path / "report.json"
    proc = _verify("lowhigh", "--players", "3", "--json", str(path))
    assert proc.returncode == 0, proc.stdout[-2000:]
    report = json.loads(path.read_text())
    assert report["format"] == "tricklaw-verify"
    names = {r["obligation"] for r in report["results"]}
    assert {"coverage", "outcome-unique", "agreement", "conservation-step"} <= names
    # Worked examples keep the player count of their text; everything else is scoped.
    scoped = [r for r in report["results"] if not r["obligation"].startswith("example")]
    assert all(r["players"] in {"3", "all", ""} for r in scoped)
    assert report["failed"] == 0
    assert all(r["status"] not in {"fail", "counterexample", "unknown"} for r in report["results"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope"], "unknown ruleset 'nope'"),
        (["sticheln", "--players", "9"], "sticheln is for 3-6 players, not 9"),
        (["sticheln", "--option", "zero-lead=x"], "has no reading 'x'"),
        (["--timeout", "0"], "--timeout must be at least 1"),
    ],
)
def test_verify_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    proc = _verify(*args)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tricklaw: error:") and message in lines[0]


# --- model and encoding agree on Hypothesis-sampled large tricks ---------------------------


LARGE = [
    ("sticheln-1993", 6, {}),
    ("sticheln-1993", 5, {"all-zero": "no-winner"}),
    ("sticheln", 6, {"zero-lead": "first-nonzero"}),
    ("the-last", 5, {}),
    ("lowhigh", 6, {"same-card": "among-rest"}),
    ("hund", 5, {"trump-timing": "from-card", "more-cards": "yes"}),
]


@pytest.mark.slow
@clause("STI93-TRICK-5", "STI-TRICK-2", "LAST-TRICK-3", "LH-TRICK-4", "HUND-TRICK-1")
@settings(max_examples=60, deadline=None, database=None)
@given(data=st.data())
def test_model_and_encoding_agree_on_sampled_large_tricks(data: st.DataObject) -> None:
    ruleset_id, players, options = data.draw(st.sampled_from(LARGE))
    ruleset = get_ruleset(ruleset_id)
    game = ruleset.make_game(players, options)
    deck = ruleset.deck(players, game.options)
    cards = data.draw(st.permutations(deck))[: game.seats]
    contexts = ENCODINGS[ruleset_id].contexts(game)
    context = data.draw(st.sampled_from(contexts))
    enc = ENCODINGS[ruleset_id](game, context)
    out, count = trick_obligations.agreement(enc, [tuple(cards)], TIMEOUT)
    assert count == 1
    assert out.status == PROVED, out.witness
