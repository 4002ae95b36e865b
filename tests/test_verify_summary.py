"""The 80-column summary of ``tricklaw verify`` (:mod:`tricklaw.verify.summary`), on
made-up rows: widths, unbroken clause ids, failures and findings in full, grouping, and
the closing lines (issue 15, part 5)."""

from __future__ import annotations

import io
import re

import pytest

from tricklaw.model.rulesets import get_ruleset
from tricklaw.proofs.results import Result
from tricklaw.proofs.statuses import (
    COUNTEREXAMPLE,
    FINDING,
    INFO,
    PASS,
    PROVED,
    STATUSES,
    TRIVIAL,
    VACUOUS,
)
from tricklaw.verify.report import render
from tricklaw.verify.summary import WIDTH, summary, summary_lines
from tricklaw.verify.witness_text import MAX_LINES, witness_lines

LONG_IDS = ("STI93-EX-TRICK-1", "STI93-DECK-4P-REMOVE", "HUND-DESIG-2")


def _row(status: str, players: str = "4", **kw: object) -> Result:
    return Result(
        "tie-rule", "sticheln-1993", players, "follow=strict, zero=any", status, 0.1, **kw
    )  # type: ignore[arg-type]


def _rows() -> list[Result]:
    finding = {
        "clauses": LONG_IDS,
        "detail": "two cards of the same value " * 6,
        "witness": {"trick": ["R3", "R2", "B0", "R4"], "seat": 2},
        "machine": "tie",
        "dispute": "STI93-D-TIE",
    }
    return [
        _row(PROVED),
        _row(PASS),
        _row(INFO),
        _row(FINDING, "3", **finding),
        _row(FINDING, "4", **finding),
        _row(FINDING, "5", **finding),
        _row(VACUOUS, expected="no tie can arise in this deck"),
        _row(TRIVIAL),  # undocumented: fails
        _row(COUNTEREXAMPLE, clauses=("LH-TRICK-1",), witness={"trick": ["G1", "G2"]}),
    ]


def test_every_line_fits_and_no_clause_id_is_broken() -> None:
    text = summary(_rows(), 2.5)
    assert all(len(line) <= WIDTH for line in text.splitlines()), text
    words = set(re.split(r"[^A-Za-z0-9-]+", text))
    assert set(LONG_IDS) | {"LH-TRICK-1", "STI93-D-TIE"} <= words


def test_failures_are_in_full_and_findings_grouped_by_dispute() -> None:
    text = summary(_rows(), 2.5)
    assert "failures (2):" in text
    assert "* counterexample: sticheln-1993 tie-rule" in text
    assert "* trivial: sticheln-1993 tie-rule" in text
    assert "findings (3 rows, 1 distinct; each is a recorded dispute):" in text
    assert "[tie found STI93-D-TIE]" in text
    assert "players 3, 4, 5" in text and "(3 rows; the detail above is the first's)" in text
    assert "seat: 2" in text and "trick: [R3, R2, B0, R4]" in text  # the witness


@pytest.mark.parametrize("status", sorted(STATUSES))
def test_every_status_is_explained(status: str) -> None:
    assert f"  {status} " in summary(_rows(), 1.0)


def test_the_counts_table_counts_each_row_once() -> None:
    text = summary(_rows(), 1.0)
    total = next(line for line in text.splitlines() if line.startswith("  total"))
    # proved, pass, info, finding x3, hollow (documented vacuous), failed x2
    assert total.split()[1:] == ["1", "1", "1", "3", "1", "2"]
    assert text.splitlines()[0].split() == [
        "by",
        "ruleset",
        "proved",
        "pass",
        "info",
        "finding",
        "hollow",
        "unknown",
        "failed",
    ]


def test_the_closing_lines_count_findings_apart_from_passes() -> None:
    text = summary(_rows(), 1.0)
    closing = " ".join(text.rstrip().split("\n\n")[-1].split("\n"))
    assert closing == " ".join(summary_lines(_rows(), 1.0))
    assert closing.endswith(
        "1 proved; 1 passed checks; 3 findings (recorded disputes); 1 informational; "
        "1 vacuous or trivial as documented; 2 failed"
    )


def test_no_failures_and_no_findings_say_so() -> None:
    text = summary([_row(PROVED)], 1.0)
    assert "failures: none" in text and "findings: none" in text


def test_the_full_table_is_still_there() -> None:
    out = io.StringIO()
    render(_rows(), out)
    assert "obligation" in out.getvalue() and "counterexample" in out.getvalue()


def test_a_witness_says_only_the_options_that_differ_from_the_defaults() -> None:
    """Issue 46: a Hund tie witness once repeated all thirteen of its options."""
    options = {s.name: s.default for s in get_ruleset("hund").option_specs}
    assert len(options) > 10
    plain = witness_lines({"seed": 1, "options": options, "values": [3, 0, 3]}, "hund")
    assert plain == ["witness:", "  options: the defaults", "  seed: 1", "  values: [3, 0, 3]"]
    changed = {**options, "hund-tie": "scores"}
    [said] = [line for line in witness_lines({"options": changed}, "hund") if "options" in line]
    assert said == "  options: hund-tie=scores (the others at their defaults)"
    # A game the registry does not know: its defaults are unknown, so every option is said.
    [said] = witness_lines({"options": {"a": 1}}, "no-such-game")[1:]
    assert said == "  options: a=1"


def test_a_long_witness_is_cut_and_points_to_the_json_report() -> None:
    state = {"hands": [[f"R{v}" for v in range(1, 10)] for _ in range(20)], "phase": "play"}
    lines = witness_lines({"state": state, "rank": {"before": 12, "after": 12}}, "the-last")
    assert lines[1] == "  rank: before=12, after=12"
    assert len(lines) == MAX_LINES + 1
    assert lines[-1].endswith("more lines in the --json report")
    assert witness_lines({"traceback": "..."}, "hund") == []  # kept for the JSON report
