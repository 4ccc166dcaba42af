"""``POST /v1/matches/{id}/actions`` writes the service's answer as it is, without
``MatchActedSchema``'s dump (issue 11): the bytes must be those the dump and ``jsonify`` would
have written — the slow path — for every action of a played-out match of every game, seat and
host tokens, and for an answer replayed by its ``Idempotency-Key``."""
from __future__ import annotations

import random

import pytest
from flask import jsonify

from referee.registry import GAMES
from referee.schemas.matches import MatchActedSchema

SCHEMA = MatchActedSchema()


def slow_path(app, body: dict) -> bytes:
    """What flask-smorest's ``@blp.response(200, MatchActedSchema)`` writes for ``body``."""
    with app.app_context():
        return jsonify(SCHEMA.dump(body)).get_data()


def assert_as_dumped(app, response) -> dict:
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert list(body) == list(SCHEMA.fields)  # every field, in the schema's order
    assert response.get_data() == slow_path(app, body)
    return body


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_action_answer_is_what_the_schema_dump_writes(app, client, table, game):
    rng = random.Random(7)
    match = table.create(client, **_setup(game))
    answers = 0
    while True:
        state = match.read("host")
        if state["over"] or answers >= 60:
            break
        choices = [(who, a) for who in state["to_move"] for a in match.legal(who)]
        if not choices:
            choices = [("host", a) for a in match.legal("host")
                       if a["player"] not in match.created["seats"]]
        who, action = rng.choice(choices)
        body = assert_as_dumped(app, match.act(who, action, state["version"]))
        assert body["version"] == state["version"] + 1
        answers += 1
    assert answers >= 10


def test_a_replayed_answer_is_what_the_schema_dump_writes(app, client, table):
    match = table.create(client, **_setup("all-fours"))
    state = match.read("host")
    who = state["to_move"][0]
    action = match.legal(who)[0]
    first = assert_as_dumped(app, match.act(who, action, state["version"], key="k-1"))
    again = match.act(who, action, state["version"], key="k-1")
    assert again.headers["Idempotent-Replayed"] == "true"
    assert assert_as_dumped(app, again) == first


def _setup(game: str) -> dict:
    from bench.payloads import setup_body
    return {"game": game, "seed": 5, **setup_body(game)}
