"""schemathesis against the HTTP oracle's OpenAPI document (issue 16 part 1): every
operation, with generated bodies that fit its schema and bodies that break it, must
answer a status and a body the document declares, and never a server error.

The application runs in process (ASGI, ``schemathesis.openapi.from_asgi``); the test
client calls itself ``testserver``, which the Host guard is told to accept. Each
operation gets at most :data:`EXAMPLES` examples, to keep the whole run near 30 s.

A body that breaks the schema may be rejected with 413 too: a generated one can be
larger than the oracle's limit (a 4 MB list of deals did, in CI).

Every check of schemathesis runs but ``positive_data_acceptance``: a body that fits the
schema may still name no open game or no ruleset (the document cannot say which ids
exist), and the oracle rightly answers it with a declared 400 or 404, which the
``status_code_conformance`` check still holds to the document."""

from __future__ import annotations

from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="pip install '.[test]'")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from tricklaw.http.app import create_app  # noqa: E402
from tricklaw.http.guards import LOOPBACK, Policy  # noqa: E402

EXAMPLES = 100
"""Examples per operation (13 operations)."""

pytestmark = [pytest.mark.slow]

app = create_app(Policy(hosts=LOOPBACK | {"testserver"}), max_games=200)
REJECTIONS = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]
"""The statuses that reject a body that breaks the schema: schemathesis's own list, and 413
(a body over the oracle's size limit, refused by its length before it is read)."""
config = schemathesis.config.SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": [*REJECTIONS, "5xx"]}}}
)
schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=config)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_oracle_keeps_its_openapi_contract(case: Any) -> None:
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
