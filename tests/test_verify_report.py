"""``tricklaw verify``, run once for the whole suite, and its report read closely.

The run is the README's main job: every ruleset, player count and reading. Rather than
run it again for each question, one run for the whole suite (``verify_run`` in
``tests/conftest.py``) writes its JSON report and every test here reads that report: the
exit status and the closing lines, that nothing is unknown or a counterexample, that each
ruleset and player count has every kind of obligation, that every finding is a recorded
dispute, and that the printed counts are the report's.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tricklaw.model.rulesets import RULESETS
from tricklaw.spec import load_registry

pytestmark = [pytest.mark.slow(minutes=10)]

PER_PLAYER_COUNT = {
    "coverage",
    "outcome-exists",
    "outcome-unique",
    "agreement",
    "conservation-base",
    "conservation-step",
    "liveness-action",
    "liveness-round",
    "liveness-play",
    "liveness-game",
    "score-max",
    "score-min",
    "bounds-artifact",
    "self-check",
    "checker rejects",
}
"""The obligations every ruleset has at every player count."""


def test_verify_exits_0_and_says_so(verify_run: Any) -> None:
    proc, report = verify_run.proc, verify_run.report
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    n = Counter(r["status"] for r in report["results"])
    hollow = n["vacuous"] + n["trivial"]
    closing = " ".join(proc.stdout.rstrip().split("\n\n")[-1].split("\n"))
    assert closing.endswith(
        f"{n['proved']} proved; {n['pass']} passed checks; {n['finding']} findings "
        f"(recorded disputes); {n['info']} informational; {hollow} vacuous or trivial as "
        "documented; 0 failed"
    )
    assert closing.startswith(f"{len(report['results'])} obligations in ")
    assert "failures: none" in proc.stdout
    assert report["failed"] == 0


def test_nothing_is_unknown_or_a_counterexample(verify_run: Any) -> None:
    report = verify_run.report
    statuses = Counter(r["status"] for r in report["results"])
    allowed = {"proved", "pass", "finding", "info", "vacuous", "trivial"}
    assert set(statuses) <= allowed, statuses
    assert statuses["proved"] > 0 and statuses["finding"] > 0
    assert report["counts"] == dict(statuses)
    assert set(report["statuses"]) >= allowed | {"unknown", "counterexample", "fail"}


def test_every_hollow_row_is_documented_and_no_answer_is_proved(verify_run: Any) -> None:
    """A vacuous or trivial row carries the reason its ruleset documents; ties-possible is
    informational, never proved; the sampled agreement is a pass, not a proof."""
    report = verify_run.report
    for row in report["results"]:
        if row["status"] in {"vacuous", "trivial"}:
            assert row["expected"], row
        if row["obligation"] == "ties-possible":
            assert row["status"] == "info", row
        if row["obligation"] == "agreement":
            assert row["status"] == "pass", row


def test_every_ruleset_and_player_count_has_every_obligation(verify_run: Any) -> None:
    report = verify_run.report
    seen: dict[tuple[str, str], set[str]] = {}
    for row in report["results"]:
        seen.setdefault((row["ruleset"], row["players"]), set()).add(row["obligation"])
    for ruleset_id, ruleset in RULESETS.items():
        for players in ruleset.player_counts:
            missing = PER_PLAYER_COUNT - seen.get((ruleset_id, str(players)), set())
            assert not missing, f"{ruleset_id} with {players} players lacks {sorted(missing)}"


def test_the_model_equals_the_clauses_on_every_trick_of_every_table(verify_run: Any) -> None:
    """Issue 13's model = clauses for the trick judge: proved (not sampled, not over a
    path budget) for every ruleset, player count and reading, with the paths counted."""
    report = verify_run.report
    rows = [r for r in report["results"] if r["obligation"] == "equivalence-trick"]
    tables = {(r["ruleset"], r["players"]) for r in rows}
    assert tables == {(rid, str(n)) for rid, rs in RULESETS.items() for n in rs.player_counts}
    not_proved = [(r["ruleset"], r["players"], r["reading"], r["detail"]) for r in rows]
    assert all(r["status"] == "proved" for r in rows), [
        row for row, r in zip(not_proved, rows, strict=True) if r["status"] != "proved"
    ]
    assert all(" paths" in r["detail"] for r in rows)


def test_every_finding_is_a_recorded_dispute_with_a_witness(verify_run: Any) -> None:
    report = verify_run.report
    for row in report["results"]:
        if row["status"] != "finding":
            continue
        disputes = {d.id for d in load_registry(row["ruleset"]).disputes}
        named = set(row["clauses"]) | set(re.findall(r"[A-Z0-9]+-D-[A-Z0-9]+", row["detail"]))
        assert disputes & named, row
        assert row["witness"], row


def test_every_bound_is_met_by_its_witness(verify_run: Any) -> None:
    """A proved score bound is tight: its witness replays to exactly the bound."""
    report = verify_run.report
    bounds = [r for r in report["results"] if r["obligation"] in {"score-max", "score-min"}]
    assert bounds
    for row in bounds:
        if row["status"] == "proved":
            assert row["witness"]["score"] == row["witness"]["bound"], row


def test_the_report_is_written_where_asked_and_only_there(verify_run: Any) -> None:
    report = verify_run.report
    assert report["format"] == "tricklaw-verify" and report["version"] == 1
    assert report["scope"]["ruleset"] is None and report["scope"]["players"] is None
    assert not Path("report.json").exists()


def test_the_default_report_fits_80_columns_and_names_every_finding(verify_run: Any) -> None:
    """Issue 15's verify for a person: the default output is the 80-column summary (a line
    is longer only when it is one unbreakable token), every finding's dispute and clauses
    are named whole, and the full table is behind ``--table``."""
    proc, report = verify_run.proc, verify_run.report
    lines = proc.stdout.splitlines()
    assert not [line for line in lines if len(line) > 80 and len(line.split()) > 1]
    assert "obligation" not in lines[0]  # not the table's heading
    words = set(re.split(r"[^A-Za-z0-9-]+", proc.stdout))
    for row in report["results"]:
        if row["status"] == "finding":
            assert row["dispute"] in proc.stdout, row
            assert {c for c in row["clauses"] if ":" not in c} <= words, row
