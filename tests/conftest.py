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

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the mutation tier unless ``TRICKLAW_MUTATION=1`` asks for it (the skip says so)."""
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
