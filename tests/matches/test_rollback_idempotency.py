"""Rollback steps honour ``Idempotency-Key`` like match actions (issue 14): a retried propose,
withdraw or vote is applied once and answered the same (``Idempotent-Replayed: true``), the
same key with another body is 422 ``idempotency-key-reused``; on the in-process store and on
Redis (every topology of REFEREE_TEST_TOPOLOGIES)."""
from __future__ import annotations

import random

import pytest

from referee.serving.app import create_app
from tests import topologies
from tests.matches.conftest import Table, bearer

FOUR = ["ana", "ben", "cy", "dee"]
SETUP = {"game": "all-fours", "players": FOUR, "dealer": "ana", "seed": 42,
         "sides": {"X": ["ana", "cy"], "Y": ["ben", "dee"]}}


@pytest.fixture(params=["memory", *(f"redis-{t}" for t in topologies.selected())])
def store(request):
    """``"memory"`` or the Redis URL and key prefix of one topology."""
    if request.param == "memory":
        yield None
        return
    url = request.getfixturevalue("redis_url_of")(request.param.removeprefix("redis-"))
    with request.getfixturevalue("redis_key_prefix")(url) as prefix:
        yield url, prefix


def two_apps(store):
    """Two clients of the same match store (two app instances on Redis; one on memory)."""
    if store is None:
        client = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
        return client, client
    url, prefix = store
    wait = 1 if url.startswith("redis+sentinel") else 0
    config = {"TESTING": True, "REDIS_URL": url, "REDIS_KEY_PREFIX": prefix,
              "REDIS_WAIT_REPLICAS": wait}
    return create_app(config).test_client(), create_app(config).test_client()


def played(client, moves=3, **extra):
    game = Table.create(client, **{**SETUP, **extra})
    rng = random.Random(3)
    for _ in range(moves):
        game.step(rng)
    return game


def keyed(game, who, key, **more):
    return {**bearer(game.token(who)), "Idempotency-Key": key, **more}


def events_of(game, kind):
    return [e for e in game.read("host") and game.client.get(
        game.url + "/events", headers=bearer(game.token("host"))).get_json()["events"]
        if e["type"] == kind]


def test_a_retried_proposal_is_made_once_and_answered_the_same(store):
    first_app, second_app = two_apps(store)
    game = played(first_app)
    version = game.read("host")["version"]  # 4: three moves made
    body = {"to_version": 2, "reason": "that card was played by mistake"}
    headers = keyed(game, "host", "undo-1", **{"If-Match": f'"{version}"'})
    first = first_app.post(game.url + "/rollback", json=body, headers=headers)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    assert first.get_json()["status"] == "pending" and first.get_json()["version"] == version + 1
    again = second_app.post(game.url + "/rollback", json=body, headers=headers)  # other app
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert again.headers["ETag"] == f'"{version + 1}"'
    assert game.read("host")["version"] == version + 1  # proposed once, not twice (no 409)
    assert len(events_of(game, "rollback_proposed")) == 1
    other = first_app.post(game.url + "/rollback", json={**body, "to_version": 3},
                           headers=headers)
    assert other.status_code == 422
    assert other.get_json()["type"] == "/problems/idempotency-key-reused"
    assert other.get_json()["errors"][0]["field"] == "Idempotency-Key"


def test_a_retried_deciding_vote_applies_the_rollback_once(store):
    first_app, second_app = two_apps(store)
    game = played(first_app)
    version = game.read("host")["version"]
    proposal = first_app.post(game.url + "/rollback", json={
        "to_version": 2, "reason": "misdeal"}, headers={**bearer(game.token("host")),
                                                         "If-Match": f'"{version}"'})
    number = proposal.get_json()["rollback"]["proposal"]
    for seat in FOUR[:3]:
        assert first_app.post(game.url + "/rollback/votes", json={
            "proposal": number, "approve": True},
            headers=bearer(game.token(seat))).get_json()["status"] == "pending"
    vote = {"proposal": number, "approve": True}
    headers = keyed(game, "dee", "vote-dee")
    applied = first_app.post(game.url + "/rollback/votes", json=vote, headers=headers)
    assert applied.status_code == 200 and applied.get_json()["status"] == "applied"
    # Without the key the retry would be 409 no-rollback (decided); with it, the same 200.
    again = second_app.post(game.url + "/rollback/votes", json=vote, headers=headers)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == applied.get_json()
    assert len(events_of(game, "rollback_applied")) == 1
    assert first_app.post(game.url + "/rollback/votes", json=vote, headers=bearer(
        game.token("dee"))).status_code == 409
    reused = first_app.post(game.url + "/rollback/votes", json={**vote, "approve": False},
                            headers=headers)
    assert reused.status_code == 422
    assert reused.get_json()["type"] == "/problems/idempotency-key-reused"


def test_a_retried_withdrawal_is_answered_the_same_not_409(store):
    first_app, second_app = two_apps(store)
    game = played(first_app)
    version = game.read("host")["version"]
    first_app.post(game.url + "/rollback", json={"to_version": 2, "reason": "x y"},
                   headers={**bearer(game.token("host")), "If-Match": f'"{version}"'})
    headers = keyed(game, "host", "withdraw-1")
    withdrawn = first_app.delete(game.url + "/rollback", headers=headers)
    assert withdrawn.status_code == 200 and withdrawn.get_json()["status"] == "withdrawn"
    again = second_app.delete(game.url + "/rollback", headers=headers)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == withdrawn.get_json()
    assert len(events_of(game, "rollback_withdrawn")) == 1
    assert first_app.delete(game.url + "/rollback",
                            headers=bearer(game.token("host"))).status_code == 409


def test_table_mode_a_retried_host_rollback_undoes_once(store):
    first_app, second_app = two_apps(store)
    game = played(first_app, mode="table", moves=0)
    # Table mode: the host enters the moves (any player) and decides rollbacks alone.
    rng = random.Random(5)
    for _ in range(3):
        read = game.read("host")
        action = rng.choice(game.legal("host"))
        assert game.act("host", action, read["version"]).status_code == 200
    version = game.read("host")["version"]
    headers = keyed(game, "host", "undo-table", **{"If-Match": f'"{version}"'})
    body = {"to_version": 2, "reason": "she had not passed yet"}
    applied = first_app.post(game.url + "/rollback", json=body, headers=headers)
    assert applied.status_code == 200 and applied.get_json()["status"] == "applied"
    again = second_app.post(game.url + "/rollback", json=body, headers=headers)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == applied.get_json()
    assert game.read("host")["version"] == version + 1
    assert len(events_of(game, "rollback_applied")) == 1


def test_a_key_used_for_an_action_cannot_be_reused_for_a_rollback_vote():
    client, _ = two_apps(None)
    game = Table.create(client, **SETUP)
    seat = game.read("host")["to_move"][0]
    refused = client.post(game.url + "/rollback/votes", json={"proposal": 2, "approve": True},
                          headers=keyed(game, seat, "fresh"))
    assert refused.status_code == 409  # nothing pending: a refusal is not recorded
    assert game.act(seat, game.legal(seat)[0], 1, key="shared").status_code == 200
    vote = client.post(game.url + "/rollback/votes", json={"proposal": 2, "approve": True},
                       headers=keyed(game, seat, "shared"))
    assert vote.status_code == 422
    assert vote.get_json()["type"] == "/problems/idempotency-key-reused"
