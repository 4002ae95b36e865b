"""The tiers' Hypothesis counts (tests/tier.py): a test that sets its own example count
gets all of it in the whole run (CI) and a tenth, at least the ``fast`` profile's, in the
fast tier."""

from __future__ import annotations

import pytest
import tier
from hypothesis import settings


def test_the_fast_tier_is_the_run_that_leaves_out_slow(request: pytest.FixtureRequest) -> None:
    chosen = request.config.getoption("hypothesis_profile", None)
    fast = chosen is None and "not slow" in (request.config.getoption("markexpr", "") or "")
    assert fast == tier.FAST
    if chosen is None:  # the fast profile's count, or Hypothesis's own
        assert settings.default.max_examples == (tier.FAST_FLOOR if fast else 100)


def test_examples_is_the_full_count_outside_the_fast_tier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tier, "FAST", False)
    assert [tier.examples(n) for n in (8, 150, 3000)] == [8, 150, 3000]
    monkeypatch.setattr(tier, "FAST", True)
    assert [tier.examples(n) for n in (8, 150, 3000)] == [8, 20, 300]
