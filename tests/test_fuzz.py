"""The differential fuzzer (tricklaw.fuzz) against tricklaw's own oracle and against
deliberately wrong engines (tests/engines/mutant_engine.py)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tricklaw.fuzz import Engine, fuzz, make_deals, new_case, play_case, replay_case, shrink
from tricklaw.fuzz.engine import ANSWER_LIMIT
from tricklaw.model.replay.records import replay
from tricklaw.model.rng import SplitMix64
from tricklaw.model.rulesets import RULESETS, get_ruleset

clause = pytest.mark.clause

MUTANT = Path(__file__).parent / "engines" / "mutant_engine.py"


def mutant(name: str) -> str:
    return f"{sys.executable} {MUTANT} {name}"


@pytest.mark.slow
def test_the_oracle_agrees_with_itself_on_every_ruleset(tricklaw_script: str) -> None:
    """The comparison itself is right: tricklaw's own oracle passes 100 games of every kind."""
    run = fuzz(
        f"{tricklaw_script} serve --stdio",
        rulesets=list(RULESETS),
        players=None,
        fixed={},
        games=100,
        seed=5,
    )
    assert run.failures == [] and run.games == 100
    assert run.actions > 5000


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "rulesets", "kind", "clauses"),
    [
        ("tie-last", ["sticheln", "sticheln-1993"], "trick", {"STI-TRICK-3", "STI93-TRICK-6"}),
        ("all-zero-missed", ["sticheln"], "trick", {"STI-TRICK-6"}),
        ("follow-free", ["sticheln-1993"], "legal_actions", {"STI93-PLAY-2", "STI93-PLAY-3"}),
        ("no-check", list(RULESETS), "illegal_accepted", None),
    ],
)
def test_wrong_engines_are_caught_and_shrunk(
    name: str, rulesets: list[str], kind: str, clauses: set[str] | None, tmp_path: Path
) -> None:
    run = fuzz(mutant(name), rulesets=rulesets, players=None, fixed={}, games=400, seed=1)
    assert len(run.failures) == 1, run.summary()
    report = run.failures[0]
    found = report["disagreement"]
    assert found["kind"] == kind, found
    if clauses is not None:
        assert clauses & set(found["clauses"]), found
    assert found["clauses"], found
    if name == "follow-free":  # legal under another reading: the game replayed names it
        assert "STI93-D-FOLLOW" in found["disputes"] and found["established"], found
    # The shrunk case: every step is the first legal action unless it must not be.
    assert report["shrunk"] and len(report["actions"]) == found["step"] + 1
    # Its reference record is a valid (unfinished) game record the model replays.
    replay(report["record"])
    # Replaying the written case on the engine gives the same disagreement.
    path = tmp_path / "case.json"
    path.write_text(json.dumps(report))
    again = replay_case(mutant(name), str(path))
    assert again.disagreement is not None and again.disagreement.as_json() == found


@pytest.mark.slow
def test_shrinking_makes_the_case_smaller() -> None:
    """A tie found late in a game shrinks to a case no longer, with choices turned to 0."""
    engine = Engine(mutant("tie-last"))
    try:
        for index in range(200):
            case = new_case(index, 1, ["sticheln"], 4, {})
            outcome = play_case(engine, case)
            if outcome.disagreement is not None:
                break
        else:
            pytest.fail("no tie in 200 games")
        small = shrink(engine, outcome)
    finally:
        engine.close()
    assert small.disagreement is not None and small.disagreement.kind == "trick"
    assert len(small.case.steps) <= len(outcome.case.steps)
    # Cutting steps and turning choices to 0 can only lower the count of other choices
    # (the count of zeros may fall with the steps cut).
    others = sum(choice != 0 for choice, _ in small.case.steps)
    assert others <= sum(choice != 0 for choice, _ in outcome.case.steps)
    assert all(probe is None for _, probe in small.case.steps)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "message"),
    [("garbage", "non-JSON"), ("dies", "exited (status 3)")],
)
def test_engines_that_break_the_protocol_are_reported(name: str, message: str) -> None:
    run = fuzz(mutant(name), rulesets=["lowhigh"], players=3, fixed={}, games=3, seed=1)
    found = run.failures[0]["disagreement"]
    assert found["kind"] == "protocol" and message in found["message"]


@pytest.mark.slow
def test_an_engine_silent_on_hello_is_started_again_and_told_why() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tricklaw", "fuzz", "--games", "3", "--timeout", "1",
         "--engine", mutant("no-hello")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "did not answer 'hello'" in done.stderr and "--declare FILE" in done.stderr
    assert "no disagreement in 3 games" in done.stdout


@pytest.mark.slow
def test_a_silent_engine_times_out() -> None:
    run = fuzz(
        f"{sys.executable} -c 'import time; time.sleep(30)'",
        rulesets=["lowhigh"],
        players=3,
        fixed={},
        games=1,
        seed=1,
        timeout=0.5,
    )
    assert "no answer within 0.5 s" in run.failures[0]["disagreement"]["message"]


@pytest.mark.slow
def test_an_endless_answer_is_refused_before_it_is_held_whole() -> None:
    """Issue 43, item 4: an engine that answers with a line longer than the cap (here
    17 MiB, never ending in a newline) is a protocol error, read no further than the cap."""
    endless = "import sys; sys.stdout.write('x' * (17 << 20)); sys.stdout.flush(); sys.stdin.read()"
    run = fuzz(
        f"{sys.executable} -c {shlex.quote(endless)}",
        rulesets=["lowhigh"], players=3, fixed={}, games=1, seed=1, timeout=30,
    )  # fmt: skip
    found = run.failures[0]["disagreement"]
    assert found["kind"] == "protocol"
    assert f"longer than {ANSWER_LIMIT:,} bytes" in found["message"]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
def test_no_process_the_engine_started_outlives_the_run(tmp_path: Path) -> None:
    """Issue 43, item 4: the engine starts a child that would sleep for ten minutes and
    then answers nothing; once the run is over, the child is gone too."""
    pid_file = tmp_path / "child.pid"
    engine = (
        "import subprocess, sys, time; "
        "child = subprocess.Popen(['sleep', '600']); "
        f"open({str(pid_file)!r}, 'w').write(str(child.pid)); "
        "time.sleep(600)"
    )
    run = fuzz(
        f"{sys.executable} -c {shlex.quote(engine)}",
        rulesets=["lowhigh"], players=3, fixed={}, games=1, seed=1, timeout=1,
    )  # fmt: skip
    assert "no answer within 1 s" in run.failures[0]["disagreement"]["message"]
    child = int(pid_file.read_text())
    for _ in range(50):  # the kill is sent; the child's parent may take a moment to reap it
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        stat = Path(f"/proc/{child}/stat")
        if stat.is_file() and ") Z " in stat.read_text():
            break  # a zombie: dead, waiting for its parent (init) to reap it
        time.sleep(0.1)
    else:
        os.kill(child, signal.SIGKILL)
        pytest.fail("the engine's child outlived the fuzz run")


def test_generated_deals_are_legal_deals_of_every_ruleset() -> None:
    for ruleset in RULESETS.values():
        for players in ruleset.player_counts:
            game = ruleset.make_game(players)
            ruleset.check_deals(
                game, make_deals(game, 5 if ruleset.id == "hund" else 3, SplitMix64(players))
            )


def test_cases_are_reproducible() -> None:
    assert new_case(3, 9, list(RULESETS), None, {}) == new_case(3, 9, list(RULESETS), None, {})
    assert new_case(3, 9, list(RULESETS), None, {}) != new_case(4, 9, list(RULESETS), None, {})
    fixed = new_case(0, 1, ["sticheln-1993"], 5, {"follow": "must-follow"})
    assert fixed.players == 5 and fixed.options["follow"] == "must-follow"
    assert get_ruleset(fixed.ruleset).id == "sticheln-1993"


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [script, "fuzz", *args], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.mark.slow
def test_the_command_reports_a_case_and_exits_1(tricklaw_script: str, tmp_path: Path) -> None:
    proc = _run(
        tricklaw_script,
        "sticheln",
        "--engine",
        mutant("all-zero-missed"),
        "--games",
        "300",
        "--out",
        str(tmp_path),
    )
    assert proc.returncode == 1, proc.stderr
    assert "disagrees (sticheln" in proc.stdout and "STI-TRICK-6" in proc.stdout
    case: dict[str, Any] = json.loads((tmp_path / "fuzz-1.json").read_text())
    assert case["format"] == "tricklaw-fuzz-case"
    proc = _run(
        tricklaw_script,
        "--engine",
        mutant("all-zero-missed"),
        "--replay",
        str(tmp_path / "fuzz-1.json"),
    )
    assert proc.returncode == 1 and proc.stdout.startswith("disagrees (sticheln, ")
    # a case file given to check says what to do with it (issue 43, item 6)
    checked = subprocess.run(
        [tricklaw_script, "check", str(tmp_path / "fuzz-1.json")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 2 and "fuzz case file" in checked.stderr
    assert "--replay" in checked.stderr and checked.stderr.count("\n") == 1
    proc = _run(
        tricklaw_script,
        "--engine",
        f"{tricklaw_script} serve --stdio",
        "--replay",
        str(tmp_path / "fuzz-1.json"),
    )
    assert proc.returncode == 0 and "agrees" in proc.stdout


@pytest.mark.slow
def test_the_command_answers_in_json(tricklaw_script: str, tmp_path: Path) -> None:
    """``--json``: one object with the run's counts and each disagreement with its case
    file (exit 1); ``--replay --json`` the case's verdict on each engine."""
    engine = mutant("all-zero-missed")
    args = ["sticheln", "--engine", engine, "--games", "300", "--out", str(tmp_path), "--json"]
    proc = _run(tricklaw_script, *args)
    assert proc.returncode == 1, proc.stderr
    run = json.loads(proc.stdout)
    assert run["status"] == "disagrees" and run["games"] <= 300 and run["actions"] > 0
    [case] = run["disagreements"]
    assert case["ruleset"] == "sticheln" and "STI-TRICK-6" in case["clauses"]
    assert Path(case["case"]).exists() and run["departures"] == []
    wrong = _run(tricklaw_script, "--engine", engine, "--replay", case["case"], "--json")
    assert wrong.returncode == 1 and json.loads(wrong.stdout)["status"] == "disagrees"
    oracle = f"{tricklaw_script} serve --stdio"
    right = _run(tricklaw_script, "--engine", oracle, "--replay", case["case"], "--json")
    assert right.returncode == 0 and json.loads(right.stdout)["status"] == "agrees"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--engine", "/no/such/engine"], "cannot start the engine"),
        (["--engine", "x", "--players", "3"], "--players needs a RULESET"),
        (["sticheln", "--engine", "x", "--players", "9"], "3-6 players"),
        (["sticheln", "--engine", "x", "--option", "nope=1"], "nope"),
        (["--engine", "x", "--replay", "/no/such/file"], "cannot read"),
        (["--engine", "'unclosed"], "--engine"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tricklaw_script: str, args: list[str], message: str
) -> None:
    proc = _run(tricklaw_script, *args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert message in proc.stderr, proc.stderr
