"""Idempotent creation (issue 22 item 2): ``POST /v1/matches`` with an ``Idempotency-Key``
answers a retry with the first 201 again — the same match and tokens — for
``REFEREE_CREATE_REPLAY_SECONDS``; the same key with another body is 422
``idempotency-key-reused``, and so is the key after the window.  The kept answer is sealed
(no token readable in the store) and goes with its window.  In-process store and Redis (every
topology of REFEREE_TEST_TOPOLOGIES); the stores' ``MatchExists`` and ``kept``."""
from __future__ import annotations

import json
import threading

import pytest

from referee.matches.creation import match_id_of
from referee.matches.sealed import seal, unseal
from referee.serving.app import create_app
from referee.store import MatchExists, MemoryStore
from tests import topologies

KEY = "0f9c3b7e-5d1a-4c2b-9e8f-7a6b5c4d3e2f"
BODY = {"game": "all-fours", "players": ["ana", "ben"], "dealer": "ana", "seed": 42,
        "open_seats": ["ben"]}



def create(client, body=BODY, key=KEY):
    return client.post("/v1/matches", json=body, headers={"Idempotency-Key": key} if key else {})


def test_a_retry_gets_the_first_answer_again(clients):
    one, two = clients
    first = create(one)
    again = create(two)
    assert first.status_code == again.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()  # the same id, tokens, invite and recovery code
    assert again.headers["Location"] == first.headers["Location"]
    created = first.get_json()
    assert created["id"] == match_id_of(KEY)
    ana = one.get(f"/v1/matches/{created['id']}",
                  headers={"Authorization": f"Bearer {created['seats']['ana']}"})
    assert ana.status_code == 200 and ana.get_json()["version"] == 1
    claimed = two.post(f"/v1/matches/{created['id']}/claim",
                       json={"code": created["invites"]["ben"]["code"]})
    assert claimed.status_code == 200  # the replayed invite is the one that works
    assert create(one).get_json() == created  # still replayed after the match moved on


def test_the_same_key_with_another_body_is_422(clients):
    one, two = clients
    assert create(one).status_code == 201
    for body in ({**BODY, "seed": 43}, {**BODY, "open_seats": []},
                 {k: v for k, v in BODY.items() if k != "open_seats"}):
        refused = create(two, body)
        assert refused.status_code == 422, refused.get_json()
        assert refused.get_json()["type"] == "/problems/idempotency-key-reused"
        assert refused.get_json()["errors"][0]["field"] == "Idempotency-Key"


@pytest.mark.parametrize("key, status", [("k" * 31, 422), ("k" * 32, 201), ("k" * 255, 201),
                                         ("k" * 256, 422), ("é" * 32, 422)])
def test_a_creation_key_is_32_to_255_visible_ascii_characters(client, key, status):
    answer = client.post("/v1/matches", json=BODY, headers={"Idempotency-Key": key})
    assert answer.status_code == status, answer.get_json()
    if status == 422:
        assert answer.get_json()["errors"][0]["field"] == "Idempotency-Key"


def test_the_kept_answer_is_sealed_and_has_its_own_expiry(clients):
    client, _ = clients
    created = create(client).get_json()
    store = client.application.extensions["referee.store"]
    kept = store.kept(created["id"])
    secrets = [created["host_token"], created["recovery_code"], created["seats"]["ana"],
               created["invites"]["ben"]["code"]]
    assert not any(secret in kept for secret in secrets)
    assert unseal(f"create\n{KEY}", kept)["body"] == created
    assert unseal(f"create\n{KEY[:-1]}x", kept) is None  # another key opens nothing
    if hasattr(store, "client"):  # Redis: the key expires after the window, not the match's
        ttl = store.client.ttl(store.keys(created["id"])[4])
        assert 590 <= ttl <= 600
        assert store.client.ttl(store.keys(created["id"])[0]) > 86000


def test_after_the_window_the_key_is_spent_and_the_answer_gone():
    now = [1000.0]
    app = create_app({"TESTING": True, "REDIS_URL": None})
    app.extensions["referee.store"] = MemoryStore(clock=lambda: now[0])
    client = app.test_client()
    created = create(client).get_json()
    now[0] += 599
    assert create(client).get_json() == created
    now[0] += 2
    assert app.extensions["referee.store"].kept(created["id"]) is None
    late = create(client)
    assert late.status_code == 422 and created["id"] in late.get_json()["detail"]
    assert client.get(f"/v1/matches/{created['id']}").status_code == 200  # the match stays


def test_retries_racing_make_one_match(clients):
    one, two = clients
    answers = []
    barrier = threading.Barrier(4)

    def go(client):
        barrier.wait()
        answers.append(create(client))
    threads = [threading.Thread(target=go, args=(c,)) for c in (one, two, one, two)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [201] * 4
    assert len({json.dumps(a.get_json(), sort_keys=True) for a in answers}) == 1
    assert sorted(a.headers.get("Idempotent-Replayed", "") for a in answers) == \
        ["", "true", "true", "true"]


def test_without_a_key_each_create_makes_its_own_match(client):
    ids = {create(client, key=None).get_json()["id"] for _ in range(3)}
    assert len(ids) == 3 and match_id_of(KEY) not in ids


def test_a_store_refuses_an_id_it_holds_and_keeps_the_sealed_answer(store_for):
    store = store_for
    record = {"version": 1, "note": "first"}
    store.create("m" * 22, record, 60, [], (seal("x", {"a": 1}), 30))
    with pytest.raises(MatchExists):
        store.create("m" * 22, {"version": 1, "note": "second"}, 60, [], ("other", 30))
    assert store.load("m" * 22)["note"] == "first"
    assert unseal("x", store.kept("m" * 22)) == {"a": 1}
    store.create("n" * 22, record, 60)
    assert store.kept("n" * 22) is None and store.kept("o" * 22) is None
    store.delete("m" * 22)
    assert store.kept("m" * 22) is None


@pytest.fixture(params=["memory", *(f"redis-{t}" for t in topologies.selected())])
def store_for(request):
    """A bare match store: in-process, or Redis under a key prefix of its own."""
    if request.param == "memory":
        yield MemoryStore()
        return
    from referee.store.redis_store import RedisStore
    url = request.getfixturevalue("redis_url_of")(request.param.removeprefix("redis-"))
    with request.getfixturevalue("redis_key_prefix")(url) as prefix:
        yield RedisStore(url, prefix=prefix)


def test_a_retry_that_reads_between_the_racer_s_match_and_its_kept_answer_is_replayed():
    """The race CI's Sentinel run caught ([422, 201, 201, 201]): a retry read no kept answer,
    then the racing first request created the match and its kept answer in one atomic write,
    then the retry found the match and called the key expired.  Now it reads the kept answer
    again once the match exists (and only a match without one is past the window)."""
    from types import SimpleNamespace

    from referee.matches import creation

    key = "k" * 40
    sealed = seal(f"create\n{key}", {"request": "fp", "body": {"id": "m1"}})
    reads = iter([None, sealed])
    store = SimpleNamespace(kept=lambda _id: next(reads), load=lambda _id: {"version": 1})
    svc = SimpleNamespace(store=store, replay_seconds=600)
    assert creation._replay(svc, "m1", key, "fp") == (201, {"id": "m1"}, True)
    gone = SimpleNamespace(kept=lambda _id: None, load=lambda _id: {"version": 1})
    with pytest.raises(creation.IdempotencyKeyReused):  # a match whose answer expired
        creation._replay(SimpleNamespace(store=gone, replay_seconds=600), "m1", key, "fp")
