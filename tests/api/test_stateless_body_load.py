"""The bodies of the stateless endpoints (``legal-actions``: ``{"state", "player"?}``;
``validate`` and ``apply``: ``{"state", "action"}``) are loaded without marshmallow's walk when
they are certainly valid (``referee.schemas.fastcheck.FastLoad``, issue 11): for the bench's
bodies of every game and a few played-out snapshots, and 40 one-place mutations of each, the
load answers exactly what marshmallow's own ``Schema.load`` does — the same value, or the same
``ValidationError`` messages — and every valid body takes the fast path."""
from __future__ import annotations

import random

import pytest
from marshmallow import Schema

from bench.payloads import playout, stateless_bodies
from referee.registry import GAMES
from referee.schemas.common import ActionRequestSchema, LegalActionsRequestSchema
from tests.api.test_fast_load import differences

SCHEMAS = {"validate": ActionRequestSchema, "apply": ActionRequestSchema,
           "legal-actions": LegalActionsRequestSchema}


def valid_bodies(endpoint: str) -> list[dict]:
    """The bench's body of ``endpoint`` for each game, the same with a small snapshot (so a
    mutation lands on the envelope's own fields more often), and some played-out ones."""
    found = []
    for label, (_, body) in stateless_bodies().items():
        if label.endswith(" " + endpoint):
            found += [body, {**body, "state": {"phase": "play"}}]
    for game in sorted(GAMES):
        for state, action in playout(game, 3, limit=12)[1][::4]:
            found.append({"state": state, "action": action} if endpoint != "legal-actions"
                         else {"state": state, "player": action["player"]})
    if endpoint == "legal-actions":
        found += [{"state": body["state"]} for body in found[:4]]  # no player: every player's
    return found


@pytest.mark.parametrize("endpoint", sorted(SCHEMAS))
def test_fast_load_of_a_stateless_body_is_marshmallows_load(endpoint):
    found, refused, accepted = differences(SCHEMAS[endpoint](), random.Random(endpoint),
                                           lambda: valid_bodies(endpoint))
    assert found == []
    assert refused > 30 and accepted > 300, (refused, accepted)  # both answers compared


@pytest.mark.parametrize("endpoint", sorted(SCHEMAS))
def test_every_valid_stateless_body_takes_the_fast_path(monkeypatch, endpoint):
    schema = SCHEMAS[endpoint]()
    monkeypatch.setattr(Schema, "load", lambda *a, **k: pytest.fail("marshmallow loaded"))
    for body in valid_bodies(endpoint):
        assert schema.load(body) == body


def test_the_comparison_finds_a_loader_that_is_wrong(monkeypatch):
    """Proven once: a loader taking every object as it is (unknown keys, a bad player) is
    caught."""
    from referee.schemas import fastcheck
    monkeypatch.setattr(fastcheck, "loader", lambda schema: dict)
    found, _, _ = differences(LegalActionsRequestSchema(), random.Random(1),
                              lambda: valid_bodies("legal-actions"))
    assert found
