"""A verify worker killed from outside (the system's answer to a process that takes all
the memory, as a mutated model can) is a ``fail`` row naming the unit, not a traceback
that ends verify with no report (tricklaw/verify/run.py ``_lost``, tricklaw/verify/pool.py)."""

from __future__ import annotations

import multiprocessing
import threading
from functools import partial

import pytest

from tricklaw.mutation import verdicts
from tricklaw.proofs.results import fails
from tricklaw.verify import Scope, collect

KILLED = partial(exec, "import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
"""A worker's set-up that kills its own process, as the out-of-memory killer does. Built
from builtins, so a worker unpickles it whatever its ``sys.path``: a function of this
module that a worker cannot import breaks the pool too, and the test would pass for
that reason instead."""


@pytest.mark.slow
@pytest.mark.parametrize("fail_fast", [False, True])
def test_a_worker_killed_from_outside_is_a_fail_row_for_its_unit(fail_fast: bool) -> None:
    rows = collect(Scope("lowhigh", players=3, jobs=1, setup=KILLED, fail_fast=fail_fast))
    dead = [r for r in rows if r.obligation == verdicts.WORKER]  # the harness's name for it
    assert dead and all(fails(r) and "killed from outside" in r.detail for r in dead)
    if not fail_fast:  # a fast run stops at the first unit it lost
        assert ("lowhigh", "3") in {(r.ruleset, r.players) for r in dead}  # each unit named
    assert "BrokenProcessPool" in dead[0].witness["exception"]


DECK_SHORT_AT_FIVE = partial(
    exec, "from tricklaw.model.rulesets import lowhigh; lowhigh.TOP_VALUE[5] = 14"
)
"""A worker's set-up planting a bug: lowhigh's top value at 5 players one short, so the
model's own games jam (LH-DECK-1) and the unit fails at once. Built from builtins so that
a worker unpickles it whatever its ``sys.path`` (a function of this module may not be
importable there: CI's first run of this test broke the pool on ``No module named
'tests'``)."""


@pytest.mark.slow
@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_fast_run_that_fails_leaves_no_thread_or_process_behind(jobs: int) -> None:
    """``--fail-fast`` stops the pool at the first failing unit; the pool's manager thread
    must end with it, else the interpreter waits for that thread at exit, for ever (the
    report printed, the process never ending: found with a planted bug, ``-j 1``). And
    end cleanly: a manager thread that fails prints a traceback on stderr (Python
    3.11's failed in every run of this test, at either number of workers, until
    ``pool._stop`` shut the pool down only once no worker was left)."""
    threads = set(threading.enumerate())
    rows = collect(Scope("lowhigh", players=5, jobs=jobs, setup=DECK_SHORT_AT_FIVE, fail_fast=True))
    assert any(map(fails, rows))
    broken = [r for r in rows if r.obligation == verdicts.WORKER]
    assert not broken, broken  # the bug, not a broken pool
    left = set(threading.enumerate()) - threads
    assert {t for t in left if not t.daemon} == set()  # a daemon does not hold up the exit
    assert multiprocessing.active_children() == []
