"""``tricklaw bench`` says what is true (issue 42, item 5): each process warms up before the
clock starts and the warm-up is reported apart, ``--jobs`` is capped at the CPUs
available, and without numpy the reference engine runs after one note, not a traceback.

No test here times the machine: they check the order of events (one clock for every
process), the accounting of the report, and what the command prints.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import recorded_play
from recorded_play import FOLDER_ENV, SLOW, calls

from tricklaw import bench
from tricklaw.cli import main
from tricklaw.model.rulesets import get_ruleset
from tricklaw.spec.errors import TricklawError

LOWHIGH = ("bench", "lowhigh", "--players", "4")


def bench_line(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """Run ``tricklaw bench`` in this process; its one JSON line."""
    assert main([*LOWHIGH, *args]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1, lines
    report: dict[str, Any] = json.loads(lines[0])
    return report


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_every_process_warms_up_before_the_clock(
    jobs: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each process's first call (the warm-up: one round, slowed by ``SLOW`` seconds) ends
    before the clock starts, every worker makes one, and the shares are played between the
    clock's start and stop: the slow warm-up is in ``warmup_seconds``, not in ``seconds``.
    (Two jobs even on a one-CPU machine: the cap is set to two.)"""
    monkeypatch.setattr(bench, "cores", lambda: 2)
    monkeypatch.setattr(recorded_play, "_warm_in", None)
    monkeypatch.setenv(FOLDER_ENV, str(tmp_path))
    readings: list[float] = []

    def clock() -> float:
        readings.append(time.perf_counter())
        return readings[-1]

    game = get_ruleset("lowhigh").make_game(4, {})
    timing = bench.timed(recorded_play.recorded_play, game, 12, jobs, 1, clock=clock)

    begin, start, end = readings
    assert (timing.rounds, timing.jobs) == (12, jobs)
    assert timing.warmup_seconds == start - begin >= SLOW
    assert timing.seconds == end - start
    made = calls(tmp_path)
    assert len(made) == jobs
    assert (os.getpid() in made) is (jobs == 1)  # one job plays here, two in two workers
    for first, *rest in made.values():
        assert first["slept"] and first["rounds"] == bench.WARMUP_ROUNDS
        assert first["end"] <= start
        assert len(rest) == 1 and not rest[0]["slept"]
        assert start <= rest[0]["start"] and rest[0]["end"] <= end
    assert sum(rest[0]["done"] for _, *rest in made.values()) == 12


def test_a_failed_warm_up_is_raised_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One worker's warm-up fails while the other waits at the barrier: the failure is
    raised (not the other's broken barrier), and nothing waits for the worker that failed."""
    monkeypatch.setattr(bench, "cores", lambda: 2)
    monkeypatch.setenv(FOLDER_ENV, str(tmp_path))
    game = get_ruleset("lowhigh").make_game(4, {})
    with pytest.raises(ValueError, match="a warm-up failed in process"):
        bench.timed(recorded_play.fails_once, game, 12, 2, 1)


def test_the_report_divides_the_rounds_by_the_clock_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rounds_per_s`` is the rounds over the clock's seconds; a long warm-up is reported
    in ``warmup_seconds`` and lowers nothing."""
    timing = bench.Timing(rounds=300, jobs=2, seconds=0.25, warmup_seconds=40.0)
    monkeypatch.setattr(bench, "timed", lambda *args, **kwargs: timing)
    monkeypatch.setattr(bench, "cores", lambda: 2)
    report = bench.bench_rounds(get_ruleset("lowhigh").make_game(4, {}), 300, 3, 1)
    assert report["rounds_per_s"] == 1200.0
    assert (report["seconds"], report["warmup_seconds"]) == (0.25, 40.0)
    assert (report["jobs"], report["jobs_asked"], report["cpus"]) == (2, 3, 2)
    assert (report["engine"], report["vectorised"]) == ("reference", False)


def test_two_jobs_report_the_warm_up_of_both_engines(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two jobs the workers' start and first round (numba's kernels, for the batch
    engine) are measured as the warm-up (it was reported as 0.0 and timed as play)."""
    pytest.importorskip("numpy")
    monkeypatch.setattr(bench, "cores", lambda: 2)
    report = bench_line(capsys, "--rounds", "40", "--jobs", "2")
    assert report["jobs"] == 2 and report["rounds"] >= 40
    assert report["warmup_seconds"] > 0
    assert report["reference_warmup_seconds"] > 0


@pytest.mark.slow
def test_jobs_are_capped_at_the_cpus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """More jobs than CPUs play on the CPUs: with one CPU, ``--jobs 3`` plays in this
    process, and the JSON line says one job of three asked for; the help says so too."""
    monkeypatch.setattr(bench, "cores", lambda: 1)
    monkeypatch.setattr(bench, "play_rounds", recorded_play.recorded_play)
    monkeypatch.setenv(FOLDER_ENV, str(tmp_path))
    report = bench_line(capsys, "--engine", "reference", "--rounds", "4", "--jobs", "3")
    assert report["jobs"] == 1
    assert (report["jobs_asked"], report["cpus"]) == (3, 1)
    assert list(calls(tmp_path)) == [os.getpid()]  # no worker process was started
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    assert "at most the CPUs available" in " ".join(capsys.readouterr().out.split())


NO_NUMPY = (
    "import sys\n"
    "sys.modules['numpy'] = sys.modules['numba'] = None  # the base install: no batch extra\n"
    "from tricklaw.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
"""``tricklaw`` as on an install without the ``batch`` extra: importing numpy or numba fails."""


@pytest.mark.slow
def test_without_numpy_bench_runs_the_reference_after_one_note() -> None:
    """On the base install ``bench`` says in one line that the batch engine needs the
    ``batch`` extra and runs the reference engine alone: exit 0, ``vectorised: false``."""
    argv = [*LOWHIGH, "--rounds", "8", "--jobs", "1"]
    proc = subprocess.run(
        [sys.executable, "-c", NO_NUMPY, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    [note] = proc.stderr.splitlines()
    assert note.startswith("tricklaw: bench: note: the batch engine needs the 'batch' extra")
    assert "numpy, numba" in note and "running the reference engine" in note
    [line] = proc.stdout.splitlines()
    report = json.loads(line)
    assert (report["engine"], report["vectorised"], report["rounds"]) == ("reference", False, 8)
    assert "speedup" not in report


def test_bench_both_without_numpy_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Called directly, the two-engine benchmark refuses without numpy in a TricklawError
    (one line, exit status 2), not an ImportError from inside the engine."""
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(TricklawError, match=r"'batch' extra \(numpy, numba"):
        bench.bench_both(get_ruleset("lowhigh").make_game(4, {}), 8, 1, 1)
