"""Shared test set-up: Hypothesis profiles and the test tiers.

Tests import the *installed* package (``pip install '.[test]'``, or the editable
``pip install -e '.[test]'``); the repository folders are not on ``sys.path`` (pytest
runs with ``--import-mode=importlib``).

Two tiers: ``pytest`` runs everything (CI, the README's test command); ``pytest -m "not
slow"`` is the inner loop. A third, the mutation tier (tests marked ``mutation``: verify
run against planted model bugs, about a minute or more per mutant), runs only when
``TRICKLAW_MUTATION=1`` is set, because a useful sample outlasts CI's budget.
Tests marked ``slow`` each take seconds to minutes (the one
``verify`` run, the docs build, whole-suite static checks, memory and time-out tests).
In the fast tier Hypothesis tries fewer examples (the ``fast`` profile); the full run
tries the full number, so nothing is checked less often in CI.
"""

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tiny

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile(
    "fast",
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")


def pytest_configure(config: pytest.Config) -> None:
    """The fast tier (a marker expression that leaves out ``slow``) uses the ``fast``
    Hypothesis profile, unless a profile was chosen on the command line."""
    chosen = config.getoption("hypothesis_profile", None)
    if chosen is None and "not slow" in (config.getoption("markexpr", "") or ""):
        settings.load_profile("fast")


@pytest.fixture(scope="session")
def tricklaw_script() -> str:
    """The installed ``tricklaw`` console script (beside this Python, else on PATH): the
    command a user runs."""
    beside = Path(sys.executable).parent / "tricklaw"
    if beside.exists():
        return str(beside)
    found = shutil.which("tricklaw")
    assert found, "the tricklaw console script is not installed"
    return found


class VerifyRun(NamedTuple):
    """What the one ``tricklaw verify`` run of the suite left: the finished process, its
    JSON report, and the folder of its SMT-LIB queries (``--smt2``)."""

    proc: subprocess.CompletedProcess[str]
    report: Any
    smt2: Path


@pytest.fixture(scope="session")
def verify_run(tricklaw_script: str, tmp_path_factory: pytest.TempPathFactory) -> VerifyRun:
    """The README's main job, ``tricklaw verify``, run once for the whole suite, whatever
    the number of pytest-xdist workers: the first worker to ask runs it under a file lock
    in the session's shared temporary folder (both cores: verify's own ``--jobs``) while
    the other waits; both then read its files. (An ``xdist_group`` would tie its readers to
    one worker; this lets tests/test_verify_report.py and tests/test_smt2.py's cvc5
    re-check run on both.) ``--smt2`` records every query for that re-check; the results
    do not depend on recording (tests/test_smt2.py). ``fcntl``: the suite runs on POSIX."""
    temp = tmp_path_factory.getbasetemp()
    shared = temp.parent if "PYTEST_XDIST_WORKER" in os.environ else temp
    folder = shared / "verify-run"
    with (shared / "verify-run.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "process.json").exists():
            folder.mkdir(exist_ok=True)
            json_out, smt2_out = str(folder / "report.json"), str(folder / "smt2")
            proc = subprocess.run(
                [tricklaw_script, "verify", "--json", json_out, "--smt2", smt2_out],
                capture_output=True,
                text=True,
                check=False,
                timeout=2400,
            )
            done = {"returncode": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}
            (folder / "process.json").write_text(json.dumps(done), encoding="utf-8")
    done = json.loads((folder / "process.json").read_text(encoding="utf-8"))
    proc = subprocess.CompletedProcess(["tricklaw", "verify"], **done)
    path = folder / "report.json"
    report = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    return VerifyRun(proc, report, folder / "smt2")


def minutes(item: pytest.Item) -> float:
    """A test's expected cost: ``@pytest.mark.slow(minutes=N)`` on the longest tests, 0 for
    other slow tests, -1 for the fast tier."""
    mark = item.get_closest_marker("slow")
    return -1.0 if mark is None else float(mark.kwargs.get("minutes", 0))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest tests first, so that the two workers of pytest-xdist end together (the
    longest-first rule: a ten-minute test started last would run on alone); the order is
    otherwise kept, and every worker computes the same order. Then skip the mutation tier
    unless ``TRICKLAW_MUTATION=1`` asks for it (the skip says so)."""
    items.sort(key=lambda item: -minutes(item))  # stable: ties keep the collection order
    if os.environ.get("TRICKLAW_MUTATION") == "1":
        return
    skip = pytest.mark.skip(reason="the mutation tier: set TRICKLAW_MUTATION=1 to run it")
    for item in items:
        if "mutation" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def registered() -> Iterator[None]:
    """Tiny, the example plug-in game, registered in every layer for the test, and
    removed after it."""
    tiny.register()
    try:
        yield
    finally:
        tiny.unregister()
