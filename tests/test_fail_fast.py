"""``tricklaw verify --fail-fast``: a run that stops at its first failure; ``--skip
STEP``, a run that leaves steps out and says so; and how the mutation harness settles
a fast run's kill that the strict score does not count (:func:`settle`).

It must fail exactly when the whole run fails: with no failure it runs everything and
gives the same rows; with one it stops (units not started are not run, running ones are
stopped, no worker process is left behind), says so in a row, and leaves out the checks
of completeness that a partial run cannot pass. The planted bug runs in a plain copy of
the package (:mod:`planted`), so it holds on a compiled install too.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from planted import run_patched

from tricklaw.model.rulesets import RULESETS
from tricklaw.mutation.verdicts import KILLED, SURVIVED, settle
from tricklaw.verify import Scope, collect, run
from tricklaw.verify.run import FAIL_FAST_ORDER, RULESET_CHECKS, STEP_NAMES


def _rows(results: list[Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in asdict(r).items() if k != "seconds"} for r in results]


@pytest.mark.slow
def test_a_run_without_failure_is_the_whole_run() -> None:
    whole = collect(Scope("lowhigh", players=3))
    fast = collect(Scope("lowhigh", players=3, fail_fast=True))
    assert _rows(fast) == _rows(whole)
    assert not any(r.obligation == "fail-fast" for r in fast)


STOP = """
import json, multiprocessing, subprocess, sys
from tricklaw.mutation.verdicts import KILLED, SURVIVED, settle
from tricklaw.verify import Scope, collect
from tricklaw.verify.run import RULESET_CHECKS, STEP_NAMES
from tricklaw.proofs.results import fails

rows = collect(Scope("lowhigh", jobs=2, fail_fast=True))
left = len(multiprocessing.active_children())
cli = subprocess.run(
    [sys.executable, "-m", "tricklaw", "verify", "lowhigh", "-j", "2", "--fail-fast",
     "--json", "out.json"], capture_output=True, text=True)
report = json.load(open("out.json"))
print(json.dumps({
    "rows": [[r.obligation, r.players, r.status, fails(r)] for r in rows],
    "left": left,
    "code": cli.returncode,
    "scope": report["scope"],
    "failed": report["failed"],
    "fast": [r["detail"] for r in report["results"] if r["obligation"] == "fail-fast"],
}))
"""


@pytest.mark.slow
def test_a_failing_run_stops_early_says_so_and_leaves_no_worker(tmp_path: Path) -> None:
    """lowhigh's tie rule reversed (the earlier of two equal highs wins): the cheap unit
    and the 3-player table start first; whichever fails first stops the run, and the
    larger tables' proofs are not run."""
    out = run_patched(
        tmp_path,
        "model/rulesets/lowhigh.py",
        "if card & 31 >= trick[high] & 31:",
        "if card & 31 > trick[high] & 31:",
        STOP,
    )
    rows = out["rows"]
    assert any(failing for *_, failing in rows)
    stopped = [r for r in rows if r[0] == "fail-fast"]
    assert len(stopped) == 1 and stopped[0][2] == "info"
    assert not any(r[0] == "equivalence" and r[1] == "5" for r in rows)  # the heaviest
    assert not any(r[0] == "findings-register" and r[3] for r in rows)  # not complete
    assert out["left"] == 0
    assert out["code"] == 1 and out["failed"] >= 1 and out["scope"]["fail_fast"] is True
    assert len(out["fast"]) == 1 and "did not finish" in out["fast"][0]


PAST = """
import json
from tricklaw.verify import Scope, collect
from tricklaw.verify.run import fell
from tricklaw.proofs.results import fails

def failing(past):
    rows = collect(Scope("hund", jobs=0, fail_fast=True, past_falls=past, skip=("vectors",)))
    return [[r.obligation, fell(r)] for r in rows if fails(r)]

print(json.dumps({"stop": failing(False), "past": failing(True)}))
"""


@pytest.mark.slow
def test_past_falls_goes_on_to_a_row_a_step_reported(tmp_path: Path) -> None:
    """Hund's round score reading the suit of a power no card has named: the model
    raises in the self-check's games (a step that falls over), and the rule checks
    report counterexamples. ``--fail-fast`` stops at the fall; with ``--past-falls`` it
    goes on to the first reported row, which is what the mutation harness needs."""
    out = run_patched(
        tmp_path,
        "model/rulesets/hund/rules.py",
        "if power >= len(holders):",
        "if power > len(holders):",
        PAST,
    )
    assert out["stop"] and all(fallen for _, fallen in out["stop"])
    reported = [name for name, fallen in out["past"] if not fallen]
    assert reported and any(fallen for _, fallen in out["past"])


def test_a_skipped_step_is_left_out_and_named() -> None:
    """Every step but the registry's checks left out: their rows only, the shuffle
    vectors, a ``skipped`` row naming the rest, and the register judged as partial."""
    skip = tuple(name for name in STEP_NAMES if name != "registry")
    rows = collect(Scope("lowhigh", players=3, skip=skip))
    names = [r.obligation for r in rows]
    assert "registry" in names and "self-check" not in names and "agreement" not in names
    assert not any(name.startswith(("example", "vectors", "equivalence")) for name in names)
    skipped = [r for r in rows if r.obligation == "skipped"]
    assert len(skipped) == 1 and skipped[0].status == "info"
    assert all(name in skipped[0].detail for name in ("vectors", "equivalence"))
    assert "findings-register" in names and not any(r.status == "fail" for r in rows)
    assert RULESET_CHECKS[0] == "registry"


def test_fail_fast_runs_each_step_over_every_table_quick_steps_first() -> None:
    """Under ``--fail-fast`` a unit is one step, and the units run step by step over
    every table in :data:`FAIL_FAST_ORDER` (which names every step once): every table's
    self-check before any table's trick obligations, every step before the model =
    clauses proofs. A whole run keeps one unit per table."""
    assert sorted(FAIL_FAST_ORDER) == sorted(STEP_NAMES)
    rulesets = list(RULESETS.values())
    fast = run._units(Scope(fail_fast=True), rulesets)
    assert all(u.step for u in fast if u.ruleset)
    order = [u.step or run.EDITION_DIFF for u in sorted(fast, key=lambda u: u.rank)]
    last_self_check = max(i for i, name in enumerate(order) if name == "self-check")
    assert last_self_check < order.index("trick obligations")
    assert order.index("equivalence") > order.index("symmetries") > last_self_check
    assert order.count("self-check") == sum(len(r.player_counts) for r in rulesets)
    whole = run._units(Scope(), rulesets)
    assert {u.step for u in whole} == {"", "equivalence"}
    skipped = run._units(Scope(fail_fast=True, skip=("self-check",)), rulesets)
    assert "self-check" not in {u.step for u in skipped}


Run = tuple[bool, tuple[str, ...], bool]
"""How a fake verify is run: ``(fail_fast, skip, past_falls)``."""


def _judge(answers: dict[Run, str], calls: list[Run]) -> Any:
    """A fake verify: the kind of kill (or ``survived``) for each way it is run."""

    def judge(*, fail_fast: bool, skip: tuple[str, ...] = (), past_falls: bool = False) -> Any:
        calls.append((fail_fast, skip, past_falls))
        kind = answers[(fail_fast, skip, past_falls)]
        return (SURVIVED, [], "") if kind == SURVIVED else (KILLED, [{"kind": kind}], kind)

    return judge


FAST: Run = (True, (), False)
AGAIN: Run = (True, ("vectors",), True)
"""The settling run: past the steps that fell over, without the vectors."""
WHOLE: Run = (False, (), False)


@pytest.mark.parametrize(
    ("answers", "runs", "kind"),
    [
        # a kill the strict score counts: the fast run is the answer
        ({FAST: "obligation"}, [FAST], "obligation"),
        # the vectors first, and another row fails without them: no whole run
        ({FAST: "vectors", AGAIN: "counterexample"}, [FAST, AGAIN], "counterexample"),
        # a crash first, and a row a step reported fails past it: no whole run
        ({FAST: "model-exception", AGAIN: "obligation"}, [FAST, AGAIN], "obligation"),
        ({FAST: "unknown", AGAIN: "counterexample"}, [FAST, AGAIN], "counterexample"),
        # the vectors or the crash alone: only a whole run says
        ({FAST: "vectors", AGAIN: SURVIVED, WHOLE: "vectors"}, [FAST, AGAIN, WHOLE], "vectors"),
        (
            {FAST: "vectors", AGAIN: "step-exception", WHOLE: "obligation"},
            [FAST, AGAIN, WHOLE],
            "obligation",
        ),
        (
            {FAST: "model-exception", AGAIN: "model-exception", WHOLE: "model-exception"},
            [FAST, AGAIN, WHOLE],
            "model-exception",
        ),
    ],
)
def test_a_kill_outside_the_strict_score_is_settled_as_a_whole_run_would(
    answers: dict[Run, str], runs: list[Run], kind: str
) -> None:
    calls: list[Run] = []
    outcome = settle(_judge(answers, calls), fast=True)
    assert outcome[0] == KILLED and outcome[2] == kind and calls == runs


def test_without_fail_fast_one_whole_run_is_the_answer() -> None:
    calls: list[Run] = []
    outcome = settle(_judge({WHOLE: "vectors"}, calls), fast=False)
    assert outcome[2] == "vectors" and calls == [WHOLE]
