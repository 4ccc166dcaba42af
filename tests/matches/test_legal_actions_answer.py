"""``GET /v1/matches/{id}/legal-actions`` (the flat form, a phone's) writes the service's
answer as it is, without ``MatchLegalActionsSchema``'s dump (issue 25: a table reads it
before every move): the bytes must be those the dump and ``jsonify`` would have written — the
slow path — at every version of a played-out match of every game, for each seat's token and
the host's, on both stores; and a difference between the two is caught (the last test)."""
from __future__ import annotations

import random

import pytest
from flask import jsonify

from bench.payloads import setup_body
from referee.registry import GAMES
from referee.schemas.matches import MatchLegalActionsSchema
from referee.serving.app import create_app
from tests import topologies

SCHEMA = MatchLegalActionsSchema()
READS = 40
"""Versions read per match (or the whole match when shorter)."""


def slow_path(app, body: dict) -> bytes:
    """What flask-smorest's ``@blp.response(200, MatchLegalActionsSchema)`` writes."""
    with app.app_context():
        return jsonify(SCHEMA.dump(body)).get_data()


@pytest.fixture(params=["memory", *(f"redis-{t}" for t in topologies.selected())])
def app(request):
    """An app on the in-process store, or on the test Redis (each topology of
    ``REFEREE_TEST_TOPOLOGIES``) under a prefix of its own."""
    config = {"TESTING": True, "REDIS_URL": None, "RATE_LIMITS_ENABLED": False}
    if request.param == "memory":
        yield create_app(config)
        return
    url = request.getfixturevalue("redis_url_of")(request.param.removeprefix("redis-"))
    with request.getfixturevalue("redis_key_prefix")(url) as prefix:
        yield create_app({**config, "REDIS_URL": url, "REDIS_KEY_PREFIX": prefix})


def _every_answer(app, table, game):
    """Each seat's and the host's legal-actions answer at each version of a random playout."""
    client = app.test_client()
    match = table.create(client, game=game, seed=5, **setup_body(game))
    rng = random.Random(5)
    for _ in range(READS):
        answers = {who: match.get(who, "/legal-actions")
                   for who in [*match.created["seats"], "host"]}
        yield from answers.values()
        if not match.read("host")["to_move"] or match.step(rng) is None:
            return


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_legal_actions_answer_is_what_the_schema_dump_writes(app, table, game):
    seen = 0
    for response in _every_answer(app, table, game):
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        # every field of the flat form, in the schema's order
        assert list(body) == [name for name in SCHEMA.fields if name != "groups"]
        assert response.get_data() == slow_path(app, body)
        seen += 1
    assert seen >= 20


def test_a_difference_from_the_dump_is_caught(app, table, monkeypatch):
    """The comparison above is shown to fail: an answer whose fields come in another order
    than the schema's is not what the dump writes."""
    from referee.matches.service import MatchService
    plain = MatchService.legal_actions
    monkeypatch.setattr(MatchService, "legal_actions", lambda self, record, caller: dict(
        reversed(list(plain(self, record, caller).items()))))
    response = next(_every_answer(app, table, "coup"))
    assert response.get_data() != slow_path(app, response.get_json())
