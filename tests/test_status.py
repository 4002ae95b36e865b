"""Statuses that mean what they say (issue 14, parts 1 and 7).

* ``proved`` only for an unsat whose premises are satisfiable and whose claim is not
  true on its own; else ``vacuous`` or ``trivial`` (:func:`tricklaw.proofs.solver.classify`),
  which fail verify unless the ruleset documents them;
* whether ties are possible is ``info``, never ``proved``;
* a score bound the model's round does not meet is a ``counterexample`` with the round;
* the summary line counts every status and never counts a finding as passed;
* a citation on an always-true assertion is *hollow*: it is no proof in the
  traceability matrix.

Each test here fails on the behaviour before these statuses existed.
"""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path
from types import ModuleType

import pytest
import z3

from tricklaw.model.rulesets import get_ruleset
from tricklaw.proofs import trick_obligations
from tricklaw.proofs.bounds import results as bound_results
from tricklaw.proofs.bounds.prove import Bound, prove_bound
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.obligations import trick_results
from tricklaw.proofs.results import Result, fails
from tricklaw.proofs.solver import Tracked, check, fresh_context, optimum
from tricklaw.proofs.statuses import (
    COUNTEREXAMPLE,
    FAIL,
    FINDING,
    INFO,
    PASS,
    PROVED,
    STATUSES,
    TRIVIAL,
    VACUOUS,
)
from tricklaw.proofs.tricks import TrickEncoding
from tricklaw.verify import summary_lines

clause = pytest.mark.clause
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _fresh_z3() -> object:
    with fresh_context():
        yield


def test_an_unsat_with_unsatisfiable_premises_is_vacuous() -> None:
    x = z3.Int("x")
    premises = [Tracked("A-1", x > 0), Tracked("A-2", x < 0)]
    out = check([*premises, Tracked("claim:x-is-one", x != 1)], 1000)
    assert out.status == VACUOUS
    assert "premises" in out.detail


def test_an_unsat_whose_claim_is_false_on_its_own_is_trivial() -> None:
    x, y = z3.Ints("x y")
    claim = Tracked("claim:p-or-not-p", z3.Not(z3.Or(y > 0, y <= 0)))
    out = check([Tracked("A-1", x > 0), claim], 1000)
    assert out.status == TRIVIAL
    assert check([Tracked("A-1", x > 0), claim], 1000, hollow=False).status == PROVED


def test_a_real_theorem_is_proved_and_a_failing_claim_is_a_counterexample() -> None:
    x = z3.Int("x")
    assert check([Tracked("A-1", x > 0), Tracked("claim:x-positive", x <= 0)], 1000).status == (
        PROVED
    )
    assert check([Tracked("A-1", x > 0), Tracked("claim:x-big", x <= 5)], 1000).status == (
        COUNTEREXAMPLE
    )
    # A question about the premises themselves (no claim) is answered as asked.
    assert check([Tracked("A-1", x > 0), Tracked("A-2", x < 0)], 1000).status == PROVED


def test_an_unsatisfiable_relaxation_has_no_optimum_rather_than_an_unknown_one() -> None:
    x = z3.Int("x")
    status, value, _ = optimum([Tracked("A-1", x > 0), Tracked("A-2", x < 0)], x, True, 1000)
    assert (status, value) == (VACUOUS, None)


def _encoding(ruleset_id: str, players: int) -> TrickEncoding:
    rs = get_ruleset(ruleset_id)
    game = rs.make_game(players)
    cls = ENCODINGS[ruleset_id]
    return cls(game, cls.contexts(game)[0])


@clause("LH-TRICK-2", "HUND-TRICK-1")
def test_ties_possible_is_information_either_way() -> None:
    possible = trick_obligations.ties_possible(_encoding("lowhigh", 3), 5000)
    impossible = trick_obligations.ties_possible(_encoding("hund", 3), 5000)
    assert (possible.status, impossible.status) == (INFO, INFO)
    assert possible.witness and "possible" in possible.detail
    assert "no tie" in impossible.detail


@clause("HUND-TRICK-1", "LH-TRICK-2")
def test_a_tie_rule_where_no_tie_can_arise_is_vacuous_and_documented() -> None:
    hund = _encoding("hund", 3)
    out = trick_obligations.tie_broken_as_written(hund, 5000)
    assert out.status == VACUOUS
    assert hund.hollow.get("tie-rule")
    assert trick_obligations.tie_broken_as_written(_encoding("lowhigh", 3), 5000).status == PROVED


@clause("LAST-TRICK-2")
def test_coverage_by_one_unguarded_case_is_trivial() -> None:
    out = trick_obligations.coverage(_encoding("the-last", 3), 5000)
    assert out.status == TRIVIAL
    assert "LAST-TRICK-2" in out.clauses


@clause("LAST-TRICK-2", "LAST-TRICK-3")
def test_the_trick_rows_of_a_ruleset_are_honest() -> None:
    """The-last at three players: one text case (overlap trivial, documented), no tie
    (tie-rule vacuous, documented), ties-possible informational, the sampled agreement a
    pass (a sample is not a proof), and no row failing verify."""
    rows = {r.obligation: r for r in trick_results(get_ruleset("the-last"), 3, {}, 5000)}
    assert rows["overlap"].status == TRIVIAL and rows["overlap"].expected
    assert rows["tie-rule"].status == VACUOUS and rows["tie-rule"].expected
    assert rows["ties-possible"].status == INFO
    assert rows["agreement"].status == PASS
    assert rows["outcome-unique"].status == PROVED
    assert not [r.obligation for r in rows.values() if fails(r)]


def _row(status: str, expected: str = "") -> Result:
    return Result("x", "r", "3", "default", status, 0.0, expected=expected)


def test_hollow_rows_fail_unless_documented_and_findings_are_not_passes() -> None:
    assert fails(_row(VACUOUS)) and fails(_row(TRIVIAL))
    assert not fails(_row(VACUOUS, "no tie can arise")) and not fails(_row(TRIVIAL, "why"))
    assert not fails(_row(FINDING)) and not fails(_row(INFO))
    rows = [_row(PROVED), _row(PASS), _row(FINDING), _row(INFO), _row(VACUOUS, "why")]
    counts, verdict = summary_lines(rows, 1.0)
    assert "1 proved" in counts and "1 finding" in counts and "1 vacuous" in counts
    assert verdict == (
        "1 proved; 1 passed checks; 1 findings (recorded disputes); 1 informational; "
        "1 vacuous or trivial as documented; 0 failed"
    )
    assert "1 failed" in summary_lines([*rows, _row(TRIVIAL)], 1.0)[1]


def test_every_status_is_documented_in_the_help() -> None:
    from tricklaw.cli import main

    out = io.StringIO()
    with pytest.raises(SystemExit), pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdout", out)
        main(["verify", "--help"])
    for status in STATUSES:
        assert f"  {status} " in out.getvalue()


@pytest.mark.slow
@clause("LH-SCORE-1")
def test_a_bound_the_model_does_not_meet_is_a_counterexample_with_the_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A proved bound the model's round on the plan falls short of (or goes beyond) is a
    counterexample with that round, not an unknown."""
    real = prove_bound  # the one results.py calls, replaced there below

    def shifted(relax: object, maximize: bool, timeout_ms: int) -> Bound:
        bound = real(relax, maximize, timeout_ms)  # type: ignore[arg-type]
        assert bound.status == PROVED and bound.value is not None
        bound.value += 1 if maximize else -1
        return bound

    monkeypatch.setattr(bound_results, "prove_bound", shifted)
    out = bound_results.bound_result("lowhigh", 3, True, 30_000)
    assert out.status == COUNTEREXAMPLE
    assert "disagree" in out.detail and out.witness.get("score") is not None

    def lowered(relax: object, maximize: bool, timeout_ms: int) -> Bound:
        bound = real(relax, maximize, timeout_ms)  # type: ignore[arg-type]
        assert bound.value is not None
        bound.value -= 1
        return bound

    monkeypatch.setattr(bound_results, "prove_bound", lowered)
    out = bound_results.bound_result("lowhigh", 3, True, 30_000)
    assert out.status == COUNTEREXAMPLE and "outside the relaxation" in out.detail


@pytest.mark.slow
def test_a_bound_with_no_witness_fails_rather_than_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bound_results, "find_witness", lambda *args: None)
    assert bound_results.bound_result("lowhigh", 3, True, 30_000).status == FAIL


# --- part 7: hollow citations are no proof ------------------------------------------------


def _trace() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "tricklaw_trace", ROOT / "docs" / "_ext" / "tricklaw_trace.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tricklaw_trace"] = module
    spec.loader.exec_module(module)
    return module


def test_a_citation_on_an_always_true_assertion_is_hollow() -> None:
    trace = _trace()
    assert trace.citation_kind('Tracked("LH-TRICK-1", z3.BoolVal(True)),') == "hollow"
    assert trace.citation_kind('Tracked("LH-TRICK-2", highest),') == "assertion"
    assert trace.citation_kind('Case("LH-TRICK-1", guard)') == "assertion"
    assert trace.citation_kind('Case("LH-TRICK-1", z3.BoolVal(True))') == "hollow"
    assert trace.citation_kind('"""the rule (LH-TRICK-1)"""') == "mention"


@pytest.mark.slow
def test_no_always_true_assertion_is_left_in_the_proofs() -> None:
    """The only hollow citations left are unguarded text cases (a rule with one case for
    every trick), which the coverage obligation reports as trivial."""
    _, proof, _ = _trace().all_citations()
    hollow = [c for cs in proof.values() for c in cs if c.how == "hollow"]
    lines = {
        (c.path, c.line): (ROOT / c.path).read_text("utf-8").splitlines()[c.line - 1]
        for c in hollow
    }
    assert hollow and all("Case(" in line for line in lines.values()), lines


@pytest.mark.slow
@clause("LH-TRICK-1", "HUND-POWER-1")
@pytest.mark.parametrize(
    ("ruleset_id", "clause_id"), [("lowhigh", "LH-TRICK-1"), ("hund", "HUND-POWER-1")]
)
def test_the_clauses_once_carried_by_hollow_citations_show_as_unproved(
    ruleset_id: str, clause_id: str
) -> None:
    """LH-TRICK-1 and HUND-POWER-1 met "has a proof" only through always-true assertions:
    the matrix now shows that no assertion states them, with the encoding's reason."""
    trace = _trace()
    row = next(t for t in trace.trace(ruleset_id) if t.clause_id == clause_id)
    assert row.needs_proof and not row.asserted
    assert row.unasserted and "proof" not in row.gaps()
    # Without the declared reason, the same row is a gap: mentions are no proof.
    row.unasserted = ""
    assert row.gaps() == ["proof"]


def test_every_status_is_documented_in_the_docs() -> None:
    """In the introduction, and in full on the page on verify (once the README's)."""
    verify = (ROOT / "docs" / "verify.md").read_text("utf-8")
    intro = (ROOT / "docs" / "intro.md").read_text("utf-8")
    for status in STATUSES:
        assert f"- `{status}`:" in verify and f"- `{status}`:" in intro, status


@clause("HUND-TRICK-1", "HUND-TRICK-2")
def test_cases_disjoint_only_because_one_never_applies_are_vacuous() -> None:
    """Before any suit is trump, Hund's trump case matches no trick: its pair with the lead
    case is disjoint vacuously, not proved; with a trump suit it is a real proof."""
    hund = get_ruleset("hund").make_game(3)
    cls = ENCODINGS["hund"]
    contexts = cls.contexts(hund)
    ((_, none),) = trick_obligations.overlaps(cls(hund, contexts[0]), 5000)
    assert none.status == VACUOUS and "HUND-TRICK-1" in none.detail
    trump = next(c for c in contexts if c.get("trump") is not None)
    ((_, real),) = trick_obligations.overlaps(cls(hund, trump), 5000)
    assert real.status == PROVED


def test_a_step_that_falls_over_is_a_fail_row_and_verify_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A step that raises (a model crashing on an input the step gave it) becomes one
    ``fail`` row naming the exception and where it was raised; the other steps still
    report. The model refusing an input a step made (an OptionError) is such a row too
    (a designation table shifted made verify end in what read as the user's error); the
    user's own bad option value is refused before any step, in one line."""
    from tricklaw.spec.errors import OptionError
    from tricklaw.verify import run

    def falls(*_: object) -> list[Result]:
        raise IndexError("tuple index out of range")  # as a mutated model's would

    def reports(ruleset: object, n: int, *_: object) -> list[Result]:
        return [Result("reports", "lowhigh", str(n), "", PASS, 0.0)]

    monkeypatch.setattr(run, "PLAYER_STEPS", (("falls", falls), ("reports", reports)))
    results, _ = run._run_unit(run.Scope(), run.Unit("lowhigh", 3))
    assert [(r.obligation, r.status) for r in results] == [("falls", FAIL), ("reports", PASS)]
    assert fails(results[0]) and "IndexError" in results[0].detail
    assert (
        results[0].witness["frame"].endswith(f"test_status.py:{falls.__code__.co_firstlineno + 1}")
    )

    def refuses(*_: object) -> list[Result]:  # as a model refusing a card of the clauses
        raise OptionError("hund trick context designation: 1 is not a designation card")

    (row,) = run.guarded("x", "hund", 3, refuses)
    assert row.status == FAIL and "OptionError: hund trick context designation" in row.detail
    with pytest.raises(OptionError, match="rounds"):  # the user's own bad value: before any step
        run.collect(run.Scope(ruleset="lowhigh", options={"rounds": "many"}))


def test_the_shuffle_step_falling_over_is_a_fail_row_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first step (the shuffle vectors, which deal through the model) is guarded like
    the others: a model that crashes on its first deal fails verify with a report, not a
    traceback (a mutant of the round's start was a crash of verify itself)."""
    from tricklaw.verify import run

    def falls() -> Result:
        raise TypeError("'NoneType' object is not iterable")  # as a mutated deal's would

    monkeypatch.setattr(run, "shuffle_check", falls)
    results = run.collect(run.Scope(ruleset="lowhigh", fail_fast=True))
    first = results[0]
    assert (first.obligation, first.status) == ("shuffle-vectors", FAIL)
    assert "TypeError" in first.detail and any(r.obligation == "fail-fast" for r in results)


def test_a_deep_fall_keeps_its_traceback_readable() -> None:
    """A fallen step's row keeps the innermost frames of a long traceback and its first
    line, so that it still reads as a traceback (the mutation harness parses it: a cut
    header made a model's own IndexError a harness error)."""
    from tricklaw.mutation.verdicts import crash_kind
    from tricklaw.verify import run

    def ping(n: int) -> list[Result]:  # frames that differ in turn: none is folded
        empty: list[list[Result]] = []
        return pong(n - 1) if n else empty[n]

    def pong(n: int) -> list[Result]:
        return ping(n - 1)

    (row,) = run.guarded("x", "lowhigh", 3, lambda: ping(100))
    text = row.witness["traceback"]
    assert text.startswith("Traceback (most recent call last):\n")
    assert len(text) < run.TRACEBACK_CHARS + 100 and text.rstrip().endswith(
        "list index out of range"
    )
    kind, what = crash_kind(text, Path("/nowhere"), [], stepped=True)
    assert kind == "step-exception" and "IndexError" in what
