"""Shared test set-up: Hypothesis profiles.

Tests import the *installed* package (``pip install '.[test]'``); the
repository folders are not on ``sys.path`` (pytest runs with
``--import-mode=importlib``).
"""

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile("default")
