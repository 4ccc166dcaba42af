"""The body of ``POST /v1/matches/{id}/actions`` is loaded without marshmallow's walk when it
is certainly valid (``MatchActionSchema`` is a :class:`~referee.schemas.fastcheck.FastLoad`
schema, issue 11): for every action of a played-out match of each game, with and without
``expected_version``, and thousands of one-place mutations of those bodies, its ``load``
answers exactly what marshmallow's own ``Schema.load`` does — the same value, or the same
``ValidationError`` messages — and every valid body takes the fast path."""
from __future__ import annotations

import random

import pytest
from marshmallow import Schema

from bench.payloads import playout
from referee.registry import GAMES
from referee.schemas import fastcheck
from referee.schemas.matches import MatchActionSchema
from tests.api.test_fast_load import _outcome, differences

EDGES = [1, 2**53, 2**63 - 1, 2**63, 0, -1, True, False, "3", 3.0, None, [3], {"v": 3}]


def bodies() -> list[dict]:
    """Action bodies of every game: each action of a random playout, some with an
    ``expected_version`` (valid or not)."""
    found, rng = [], random.Random(3)
    for game in sorted(GAMES):
        for _, action in playout(game, 9, limit=60)[1]:
            body = {"action": action}
            if rng.random() < 0.5:
                body["expected_version"] = rng.choice(EDGES)
            found.append(body)
    return found


def test_fast_load_of_an_action_body_is_marshmallows_load():
    found, refused, accepted = differences(MatchActionSchema(), random.Random(1), bodies, 12)
    assert found == []
    assert refused > 500 and accepted > 500  # both answers are compared, many times


def test_every_valid_action_body_takes_the_fast_path(monkeypatch):
    schema = MatchActionSchema()
    valid = [b for b in bodies() if _outcome(lambda x: Schema.load(schema, x), b)[0] == "loaded"]
    monkeypatch.setattr(Schema, "load", lambda *a, **k: pytest.fail("marshmallow loaded"))
    for body in valid:
        assert schema.load(body) == body
    assert len(valid) > 50


def test_the_comparison_finds_a_loader_that_is_wrong(monkeypatch):
    """Proven once: a loader that answers its input as it is (``expected_version`` ``True``,
    ``0`` or past the range included) is caught."""
    monkeypatch.setattr(fastcheck, "loader", lambda schema: dict)
    found, _, _ = differences(MatchActionSchema(), random.Random(1), bodies, 12)
    assert found
