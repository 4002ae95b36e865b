"""Shared test set-up: Hypothesis profiles.

Tests import the *installed* package (``pip install '.[test]'``); the
repository folders are not on ``sys.path`` (pytest runs with
``--import-mode=importlib``).
"""

import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile("default")


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
