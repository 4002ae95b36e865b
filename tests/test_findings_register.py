"""The register's ``found_by`` is held to verify's findings (proofs/findings.py)."""

from __future__ import annotations

import pytest

from tricklaw.proofs.findings import found, register_check
from tricklaw.proofs.results import Result
from tricklaw.spec import DETECTORS, load_registry, parse_registry
from tricklaw.spec.errors import SpecError

RULESET = "sticheln"


def _finding(dispute: str, machine: str, ruleset: str = RULESET) -> Result:
    return Result("overlap", ruleset, "3", "default", "finding", 0.0, (), "", {}, machine, dispute)


def _declared() -> dict[str, tuple[str, ...]]:
    return {d.id: d.found_by for d in load_registry(RULESET).disputes}


def _matching_findings() -> list[Result]:
    return [_finding(d, m) for d, machines in _declared().items() for m in machines]


def test_the_register_names_a_machine_for_some_dispute() -> None:
    # Otherwise every test below would pass on an empty register.
    assert any(_declared().values())


def test_findings_that_match_the_register_pass() -> None:
    result = register_check(RULESET, _matching_findings(), complete=True)
    assert result.status == "pass", result.detail
    assert "found by machine" in result.detail


def test_a_finding_without_a_detector_fails() -> None:
    results = [*_matching_findings(), _finding("STI-D-ZEROOFF", "")]
    assert register_check(RULESET, results, complete=True).status == "fail"


def test_a_finding_of_an_unrecorded_dispute_fails() -> None:
    results = [*_matching_findings(), _finding("STI-D-NOSUCH", "tie")]
    result = register_check(RULESET, results, complete=True)
    assert result.status == "fail"
    assert "STI-D-NOSUCH" in result.detail


def test_a_detector_the_register_does_not_name_fails() -> None:
    dispute, machines = next((d, m) for d, m in _declared().items() if m)
    other = next(m for m in DETECTORS if m not in machines)
    results = [*_matching_findings(), _finding(dispute, other)]
    result = register_check(RULESET, results, complete=True)
    assert result.status == "fail"
    assert f"found by {other}" in result.detail


def test_a_declared_detector_that_found_nothing_fails_only_on_a_complete_run() -> None:
    assert register_check(RULESET, [], complete=True).status == "fail"
    assert register_check(RULESET, [], complete=False).status == "pass"


def test_findings_of_other_rulesets_are_not_counted() -> None:
    results = [*_matching_findings(), _finding("LH-D-NOSUCH", "tie", ruleset="lowhigh")]
    assert register_check(RULESET, results, complete=True).status == "pass"
    assert "LH-D-NOSUCH" not in found(results, RULESET)


def test_an_unknown_detector_in_the_registry_is_refused() -> None:
    data = {
        "ruleset": "x",
        "source": "001_e30e3e0d532f54b4.txt",
        "prefix": "X",
        "dispute": [
            {
                "id": "X-D-A",
                "title": "t",
                "question": "q",
                "kind": "gap",
                "lines": [[1, 1]],
                "default": "a",
                "reason": "r",
                "found_by": ["intuition"],
                "reading": [{"value": "a", "summary": "s"}],
            }
        ],
    }
    with pytest.raises(SpecError, match="unknown detector 'intuition'"):
        parse_registry(data, "x.toml")
