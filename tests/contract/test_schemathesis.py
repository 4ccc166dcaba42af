"""Property-based API testing (schemathesis) against the committed ``openapi.yaml``.

Every documented operation gets generated requests — bodies that fit its schemas and bodies
that do not — sent in-process to the WSGI app.  Each answer must be no 5xx
(``not_a_server_error``), have a documented status (``status_code_conformance``) and content
type (``content_type_conformance``), and match the documented schema
(``response_schema_conformance``).  ``EXAMPLES`` bounds the random part (20 per operation:
the coverage phase already sends every boundary and negative case, so more random examples
mostly repeat them); the run is several thousand requests (at least 3,000, checked below),
about half a minute on two cores.
"""
from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance,
                                               response_schema_conformance,
                                               status_code_conformance)

from referee.serving.app import create_app
from tests.contract.helpers import REPO

EXAMPLES = 20
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]

schema = schemathesis.openapi.from_path(REPO / "openapi.yaml")
schema.app = create_app({"TESTING": True, "REDIS_URL": None,
                         # a stream ends (event: end, reconnect) after 0.3 s: read whole here
                         "STREAM_MAX_SECONDS": 0.3, "STREAM_HEARTBEAT_SECONDS": 0.1})
schema.config.phases.update(phases=["examples", "coverage", "fuzzing"])
SENT: list[str] = []  # the label of every generated request, e.g. "POST /v1/matches"


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_answers_as_documented(case):
    """One operation: its schema's examples, the coverage phase's boundary and negative cases
    (missing fields, wrong types, …), then ``EXAMPLES`` random requests (fixed seed)."""
    SENT.append(case.operation.label)
    case.call_and_validate(checks=CHECKS)


def test_the_run_covered_every_operation_with_thousands_of_requests():
    """Runs after the generated tests (pytest keeps file order): nothing was vacuous."""
    operations = {result.ok().label for result in schema.get_all_operations()}
    if set(SENT) != operations:
        pytest.skip("only part of the schemathesis run was selected")
    assert len(SENT) >= 3000, len(SENT)
