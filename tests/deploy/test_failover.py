"""Sentinel failover mid-match: the master is killed while a match is played; clients retry
503 answers with the same Idempotency-Key; when the match is read back from the new master,
every accepted move is there, once, in order.  Each update is acknowledged by every replica
(``REDIS_WAIT_REPLICAS=2``, the set's two) before it is accepted, so whichever the Sentinel
promotes has it — and an update too few replicas acknowledged is refused (503), never
reported accepted.  (With ``1`` of two, CI once saw the Sentinel promote the replica that had
not acknowledged: the new master had no match at all, 404.)"""
from __future__ import annotations

import random
import time

import pytest

from referee.serving.app import create_app
from referee.store import StoreUnavailable
from referee.store.redis_store import RedisStore
from tests import topologies

RETRY_SECONDS = 30


@pytest.fixture
def sentinel_set(tmp_path):
    with topologies.private("sentinel", tmp_path, down_after_ms=1000) as made:
        yield made


def until_answered(send, seen_503: list):
    """``send()`` again while it answers 503 (the store is failing over), noting each 503 in
    ``seen_503``; the last answer."""
    deadline = time.monotonic() + RETRY_SECONDS
    while True:
        response = send()
        if response.status_code != 503 or time.monotonic() > deadline:
            return response
        seen_503.append(response.get_json()["type"])
        time.sleep(0.2)


def test_a_sentinel_failover_mid_match_keeps_every_accepted_move(sentinel_set):
    app = create_app({"TESTING": True, "REDIS_URL": sentinel_set.url, "REDIS_WAIT_REPLICAS": 2})
    client = app.test_client()
    created = client.post("/v1/matches", json={"game": "all-fours", "players": ["ana", "ben"],
                                                "dealer": "ana", "seed": 3})
    assert created.status_code == 201
    match = created.get_json()
    url = f"/v1/matches/{match['id']}"
    host = {"Authorization": f"Bearer {match['host_token']}"}
    first_master = sentinel_set.master_port()
    rng = random.Random(3)
    accepted: list[dict] = []
    seen_503: list[str] = []  # answers that said "retry": the failover, as clients see it
    for move in range(24):
        if move == 6:  # the master dies mid-match (a crash: SIGKILL)
            next(s for s in sentinel_set.servers if s.port == first_master).stop()
        legal = until_answered(lambda: client.get(f"{url}/legal-actions", headers=host),
                               seen_503)
        assert legal.status_code == 200, legal.get_json()
        body = legal.get_json()
        if not body["to_move"]:
            break
        seat = body["to_move"][0]
        action = rng.choice([a for a in body["actions"] if a["player"] == seat])
        headers = {"Authorization": f"Bearer {match['seats'][seat]}",
                   "If-Match": f'"{body["version"]}"', "Idempotency-Key": f"move-{move}"}
        moved = until_answered(lambda: client.post(f"{url}/actions", json={"action": action},
                                                   headers=headers), seen_503)
        assert moved.status_code == 200, moved.get_json()
        assert moved.get_json()["version"] == body["version"] + 1
        accepted.append(action)
    assert sentinel_set.master_port() != first_master  # the Sentinel did fail over …
    assert seen_503 and set(seen_503) == {"/problems/store-unavailable"}  # … mid-match
    store = app.extensions["referee.store"]
    # Each history entry is {"version": v, "action": a} (referee/matches/history.py): one per
    # commit, the version it produced running 2, 3, … with no gap.
    history = store.actions(match["id"])
    assert [entry["action"] for entry in history] == accepted
    assert [entry["version"] for entry in history] == list(range(2, len(accepted) + 2))
    assert store.load(match["id"])["version"] == len(accepted) + 1
    events = store.events(match["id"])
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_an_update_too_few_replicas_acknowledged_is_refused_and_its_retry_replayed(
        sentinel_set):
    # Two replicas exist: waiting for three cannot succeed, so the update is not accepted.
    # (How many of the two acknowledge within WAIT_MS depends on timing: 1 was seen in CI.)
    store = RedisStore(sentinel_set.url, prefix="wait-test", wait_replicas=3)
    store.create("m1", {"version": 1, "game": "all-fours"}, 60)
    with pytest.raises(StoreUnavailable, match=r"\b[0-2] of 3 replicas acknowledged"):
        store.commit("m1", 1, {"version": 2}, {"type": "stand"}, [], 60,
                     idempotency=("k1", {"status": 200}))
    # It was written on the master: the retry with the same key
    # finds it recorded, so the move is applied once.
    assert store.recorded("m1", "k1") == {"status": 200}
    assert store.actions("m1") == [{"type": "stand"}]
    enough = RedisStore(sentinel_set.url, prefix="wait-test", wait_replicas=2)
    enough.commit("m1", 2, {"version": 3}, {"type": "beg"}, [], 60)
    assert enough.load("m1")["version"] == 3
