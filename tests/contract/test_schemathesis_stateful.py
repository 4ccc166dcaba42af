"""Stateful property-based testing (schemathesis's state machine) along the OpenAPI links of
``POST /v1/matches``: create a match, then read it (as host and publicly), read its events and
the host's legal actions, act as host with generated actions, read the audit, delete it — in
generated orders.  Every answer must be no 5xx, have a documented status and content type,
and match its documented schema (the same checks as tests/contract/test_schemathesis.py)."""
from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance,
                                               response_schema_conformance,
                                               status_code_conformance)

from schemathesis.generation import GenerationMode

from referee.serving.app import create_app
from tests.contract.helpers import REPO

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]

schema = schemathesis.openapi.from_path(REPO / "openapi.yaml")
schema.app = create_app({"TESTING": True, "REDIS_URL": None,
                         # a stream ends (event: end, reconnect) after 0.3 s: read whole here
                         "STREAM_MAX_SECONDS": 0.3, "STREAM_HEARTBEAT_SECONDS": 0.1})
# schema-valid requests only: the stateless run covers invalid ones; here matches must exist
schema.config.generation.update(modes=[GenerationMode.POSITIVE])
FOLLOWED: list[str] = []


@schema.hook.apply_to(method="POST", path="/v1/matches")
def map_body(context, body):
    """Seat names as a table would type them (generated names are mostly unprintable code
    points, refused by the name rules), so that matches get created and links followed."""
    if isinstance(body, dict) and isinstance(body.get("players"), list):
        body["players"] = [f"seat{i}" for i in range(len(body["players"]))]
        if isinstance(body.get("open_seats"), list):  # open seats among those players
            body["open_seats"] = body["players"][:len(body["open_seats"])]
    return body


@schema.hook.apply_to(method="POST", path="/v1/matches")
def map_headers(context, headers):
    """No ``Idempotency-Key`` on creation here: generated keys repeat across examples, and a
    repeated key answers its first match again (or 422 for another body) instead of making
    the new match the links start from (tests/matches/test_idempotent_create.py tests it)."""
    if isinstance(headers, dict):
        headers.pop("Idempotency-Key", None)
    return headers


@schema.hook.apply_to(method="GET", path="/v1/matches/{match_id}/events")
def map_query(context, query):
    """No long-poll here (``wait`` up to 25 s would make the run wait, not test more): the
    long-poll has its own tests (tests/matches/test_stream.py, test_live_redis.py)."""
    if isinstance(query, dict) and "wait" in query:
        query["wait"] = 0
    return query


class Matches(schema.as_state_machine()):
    """Each step's answer checked with :data:`CHECKS`."""

    def validate_response(self, response, case, **kwargs):
        FOLLOWED.append(case.operation.label)
        case.validate_response(response, checks=CHECKS)


TestMatches = Matches.TestCase
TestMatches.settings = settings(max_examples=100, stateful_step_count=10, deadline=None,
                                derandomize=True, database=None,
                                suppress_health_check=list(HealthCheck))


def test_the_state_machine_followed_the_links_into_match_operations():
    """Runs after the state machine (file order): it reached operations only links lead to."""
    if not FOLLOWED:
        pytest.skip("the state machine was not selected")
    assert "POST /v1/matches" in FOLLOWED
    assert "POST /v1/matches/{match_id}/actions" in FOLLOWED
    assert "GET /v1/matches/{match_id}/audit" in FOLLOWED
