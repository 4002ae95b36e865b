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
In the fast tier Hypothesis tries fewer examples (the ``fast`` profile; a test that sets
its own count takes ``tier.examples(count)``, a tenth of it: tests/tier.py); the full run
tries the full number, so nothing is checked less often in CI.
"""

import ast
import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tier

# verify's result cache keys rows by the files on disk; a test that patches the model in
# memory would be answered from it. Tests that want the cache name a folder (--cache).
os.environ["TRICKLAW_VERIFY_CACHE"] = "off"

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
        tier.FAST = True  # tests that set their own count take tier.examples(count)


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


VERIFY_LIMIT = 2400.0
"""Seconds the suite's verify run may take before it is stopped (and its readers fail)."""

VERIFY_WRAPPER = """
import json, os, subprocess, sys
script, folder, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
command = [script, "verify", "--json", folder + "/report.json", "--smt2", folder + "/smt2"]
try:
    proc = subprocess.run(command, capture_output=True, text=True, check=False, timeout=limit)
    done = {"returncode": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}
except subprocess.TimeoutExpired:
    done = {"returncode": -1, "stdout": "", "stderr": f"verify ran over {limit} s"}
with open(folder + "/process.json.part", "w", encoding="utf-8") as fh:
    json.dump(done, fh)
os.replace(folder + "/process.json.part", folder + "/process.json")
"""
"""The background run: ``tricklaw verify --json --smt2`` into ``folder``, then its exit
status and output as ``process.json`` (written whole, then renamed: a reader never sees
half of it)."""

_LAUNCHED: list[subprocess.Popen[bytes]] = []
"""The verify run this process started, if it did (see :func:`pytest_sessionfinish`)."""


def _uses_verify(item: pytest.Item) -> bool:
    return "verify_run" in getattr(item, "fixturenames", ())


def _shared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's temporary folder shared by every pytest-xdist worker."""
    temp = tmp_path_factory.getbasetemp()
    return temp.parent if "PYTEST_XDIST_WORKER" in os.environ else temp


def _start_verify(tricklaw_script: str, shared: Path) -> Path:
    """Start the suite's one verify run in the background unless a worker already has
    (a file lock in the shared folder decides); its folder."""
    folder = shared / "verify-run"
    with (shared / "verify-run.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "started").exists():
            folder.mkdir(exist_ok=True)
            wrapper = [sys.executable, "-c", VERIFY_WRAPPER, tricklaw_script, str(folder)]
            _LAUNCHED.append(
                subprocess.Popen(
                    [*wrapper, str(VERIFY_LIMIT)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
            (folder / "started").write_text(str(time.time()), encoding="utf-8")
    return folder


@pytest.fixture(scope="session", autouse=True)
def _verify_in_background(
    request: pytest.FixtureRequest, tricklaw_script: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Start verify at a worker's first test when any collected test reads it: it then
    runs beside the other tests (its readers run last: :func:`pytest_collection_modifyitems`)
    instead of holding a worker idle on its lock."""
    if any(_uses_verify(item) for item in request.session.items):
        _start_verify(tricklaw_script, _shared(tmp_path_factory))


@pytest.fixture(scope="session")
def verify_run(tricklaw_script: str, tmp_path_factory: pytest.TempPathFactory) -> VerifyRun:
    """The README's main job, ``tricklaw verify``, run once for the whole suite, whatever
    the number of pytest-xdist workers: started in the background at the session's start
    (:func:`_verify_in_background`; both cores: verify's own ``--jobs``), and read by
    every worker once it has finished. (An ``xdist_group`` would tie its readers to one
    worker; this lets tests/test_verify_report.py and tests/test_smt2.py's cvc5 re-check
    run on both.) ``--smt2`` records every query for that re-check; the results do not
    depend on recording (tests/test_smt2.py). ``fcntl``: the suite runs on POSIX."""
    folder = _start_verify(tricklaw_script, _shared(tmp_path_factory))
    started = float((folder / "started").read_text(encoding="utf-8"))
    while not (folder / "process.json").exists():
        assert time.time() - started < VERIFY_LIMIT + 60, "the background verify never ended"
        time.sleep(1)
    done = json.loads((folder / "process.json").read_text(encoding="utf-8"))
    proc = subprocess.CompletedProcess(["tricklaw", "verify"], **done)
    path = folder / "report.json"
    report = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    return VerifyRun(proc, report, folder / "smt2")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A process that started verify waits for it at its end (another worker's readers
    may still need it), unless the run was interrupted or stopped early, when verify is
    stopped."""
    for proc in _LAUNCHED:
        if exitstatus == pytest.ExitCode.INTERRUPTED or session.shouldstop:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()


def minutes(item: pytest.Item) -> float:
    """A test's expected cost: ``@pytest.mark.slow(minutes=N)`` on the longest tests, 0 for
    other slow tests, -1 for the fast tier."""
    mark = item.get_closest_marker("slow")
    return -1.0 if mark is None else float(mark.kwargs.get("minutes", 0))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest tests first, so that the two workers of pytest-xdist end together (the
    longest-first rule: a ten-minute test started last would run on alone), except that
    the readers of the background verify run (``verify_run``) come after every other
    test, so that verify runs beside them; the order is otherwise kept, and every worker
    computes the same order. Then skip the mutation tier
    unless ``TRICKLAW_MUTATION=1`` asks for it (the skip says so)."""
    # stable: ties keep the collection order
    items.sort(key=lambda item: (_uses_verify(item), -minutes(item)))
    if os.environ.get("TRICKLAW_MUTATION") == "1":
        return
    skip = pytest.mark.skip(reason="the mutation tier: set TRICKLAW_MUTATION=1 to run it")
    for item in items:
        if "mutation" in item.keywords:
            item.add_marker(skip)


def _slow_as_a_whole(path: Path) -> bool:
    """Whether a test module marks itself slow as a whole (a module-level ``pytestmark``
    that holds ``pytest.mark.slow``), read from its source without importing it."""
    source = path.read_text(encoding="utf-8")
    if "pytestmark" not in source:
        return False
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in targets):
            return "mark.slow" in ast.unparse(node.value)
    return False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The fast tier does not import a module that is slow as a whole: its tests would
    all be deselected, and importing it alone costs seconds (schemathesis reads the
    oracle's OpenAPI document at import). None: pytest's own rules decide."""
    if tier.FAST and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        return True if _slow_as_a_whole(collection_path) else None
    return None


@pytest.fixture
def registered() -> Iterator[None]:
    """Tiny, the example plug-in game, registered in every layer for the test, and
    removed after it."""
    tiny.register()
    try:
        yield
    finally:
        tiny.unregister()
