"""Which test tier this run is (tests/conftest.py sets it), for tests that choose their
own Hypothesis example count: :func:`examples` gives the full count in the whole run
(CI) and a tenth of it in the fast tier, as the ``fast`` profile does for the others."""

from __future__ import annotations

FAST = False
"""Whether this run is the fast tier (``pytest -m "not slow"``), set by tests/conftest.py
before any test module is imported."""

FAST_FLOOR = 20
"""The fewest examples :func:`examples` gives in the fast tier (the ``fast`` profile's)."""


def examples(full: int) -> int:
    """``full`` Hypothesis examples in the whole run; in the fast tier a tenth of them,
    but at least :data:`FAST_FLOOR` (and never more than ``full``)."""
    return min(full, max(FAST_FLOOR, full // 10)) if FAST else full
