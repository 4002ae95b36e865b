"""Wilson's score interval for a share (95 % unless told): the interval every rate of
``tricklaw impact`` is given with; it stays inside [0, 1] and is not empty at 0 or n
successes, where the normal approximation fails for the rare events disputes are about."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The standard normal quantile of 0.975."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``trials`` (0..1 for no trials)."""
    if trials <= 0:
        return (0.0, 1.0)
    if successes == 0:  # the exact ends, free of rounding
        return (0.0, _bound(0, trials, z)[1])
    if successes == trials:
        return (_bound(trials, trials, z)[0], 1.0)
    return _bound(successes, trials, z)


def _bound(successes: int, trials: int, z: float) -> tuple[float, float]:
    """Wilson's formula itself."""
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
