"""pytest-xdist's ``--dist loadgroup`` keeps a group on one worker: the page's browser tests
(tests/test_page_browser.py) share one installed browser and one served page that way.

pytest 9.2 dropped the ``@group`` suffix that xdist puts on a grouped test's id, and the
groups silently stopped holding (pytest-dev/pytest-xdist#1386); pyproject.toml pins pytest
below 9.2, and this test fails if the grouping is lost again.
"""

import os

import pytest

pytestmark = [pytest.mark.xdist_group("grouping-check")]


def test_a_grouped_test_carries_its_group(request: pytest.FixtureRequest) -> None:
    if "PYTEST_XDIST_WORKER" not in os.environ or request.config.getoption("dist") != "loadgroup":
        pytest.skip("not run by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@grouping-check"), request.node.nodeid
