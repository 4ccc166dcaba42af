"""The MatchStore contract, run on both implementations: the in-process store (with a fake
clock) and the Redis store (on the test Redis, under a key prefix of its own)."""
from __future__ import annotations

import json

import pytest
import redis

from referee.store import (AlreadyRecorded, MatchNotFound, MemoryStore, StoreError,
                           StoreUnavailable, VersionConflict, make_store)
from referee.store.redis_store import RedisStore
from tests import topologies

TTL = 600


class Clock:
    """A clock the test moves by hand."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["memory", *(f"redis-{t}" for t in topologies.selected())])
def store(request):
    """Each implementation in turn (Redis on each topology of ``REFEREE_TEST_TOPOLOGIES``);
    the memory store's clock is ``store.test_clock``."""
    if request.param == "memory":
        clock = Clock()
        made = MemoryStore(clock=clock)
        made.test_clock = clock
        yield made
        return
    url = request.getfixturevalue("redis_url_of")(request.param.removeprefix("redis-"))
    with request.getfixturevalue("redis_key_prefix")(url) as prefix:
        yield RedisStore(url, prefix=prefix)


def record(version: int, **extra) -> dict:
    return {"version": version, "state": {"turn": version}, **extra}


def events(first_seq: int, count: int, version: int) -> list[dict]:
    return [{"type": "played", "seq": first_seq + i, "version": version} for i in range(count)]


def test_create_then_load_returns_the_record(store):
    store.create("m1aaaaaaaaaaaaaaaa", record(1, game="all-fours"), TTL)
    assert store.load("m1aaaaaaaaaaaaaaaa") == {"version": 1, "state": {"turn": 1},
                                                "game": "all-fours"}
    assert store.events("m1aaaaaaaaaaaaaaaa") == []
    assert store.actions("m1aaaaaaaaaaaaaaaa") == []


def test_an_unknown_match_is_not_found(store):
    with pytest.raises(MatchNotFound):
        store.load("nosuchmatchaaaaaaa")
    with pytest.raises(MatchNotFound):
        store.events("nosuchmatchaaaaaaa")
    with pytest.raises(MatchNotFound):
        store.commit("nosuchmatchaaaaaaa", 1, record(2), {"type": "x"}, [], TTL)


def test_creating_a_taken_id_fails_and_keeps_the_first(store):
    store.create("m2aaaaaaaaaaaaaaaa", record(1, owner="first"), TTL)
    with pytest.raises(StoreError):
        store.create("m2aaaaaaaaaaaaaaaa", record(1, owner="second"), TTL)
    assert store.load("m2aaaaaaaaaaaaaaaa")["owner"] == "first"


def test_commit_at_the_expected_version_writes_record_events_and_action(store):
    mid = "m3aaaaaaaaaaaaaaaa"
    store.create(mid, record(1), TTL)
    store.commit(mid, 1, record(2), {"type": "stand"}, events(1, 2, 2), TTL)
    store.commit(mid, 2, record(3), {"type": "play"}, events(3, 1, 3), TTL)
    assert store.load(mid)["version"] == 3
    assert [ev["seq"] for ev in store.events(mid)] == [1, 2, 3]
    assert [ev["seq"] for ev in store.events(mid, after=2)] == [3]
    assert store.events(mid, after=3) == []
    assert store.actions(mid) == [{"type": "stand"}, {"type": "play"}]


def test_commit_at_a_stale_version_raises_and_writes_nothing(store):
    mid = "m4aaaaaaaaaaaaaaaa"
    store.create(mid, record(1), TTL)
    store.commit(mid, 1, record(2), {"type": "stand"}, events(1, 1, 2), TTL)
    with pytest.raises(VersionConflict) as caught:
        store.commit(mid, 1, record(2, late=True), {"type": "beg"}, events(2, 1, 2), TTL,
                     ("key-a", {"status": 200}))
    assert caught.value.current == 2
    assert store.load(mid) == record(2)
    assert len(store.events(mid)) == 1
    assert store.actions(mid) == [{"type": "stand"}]
    assert store.recorded(mid, "key-a") is None


def test_a_kept_state_is_written_with_its_commit_only(store):
    # referee.matches.kept: the state kept at a version is part of that version's commit; a
    # refused commit writes none, and a delete takes them with the rest
    mid = "m4baaaaaaaaaaaaaaa"
    store.create(mid, record(1), TTL)
    kept = {"state": {"turn": 2, "hand": ["5S", "ĀH"]}, "line": [[2, 2]], "actions": 1}
    store.commit(mid, 1, record(2), {"type": "stand"}, [], TTL, None, (2, kept))
    with pytest.raises(VersionConflict):
        store.commit(mid, 1, record(2), {"type": "beg"}, [], TTL, None, (3, kept))
    assert store.checkpoint(mid, 2) == kept
    assert store.checkpoint(mid, 3) is None and store.checkpoint(mid, 1) is None
    store.delete(mid)
    with pytest.raises(MatchNotFound):
        store.checkpoint(mid, 2)


def test_an_idempotency_record_is_written_with_the_commit_and_blocks_a_second(store):
    mid = "m5aaaaaaaaaaaaaaaa"
    store.create(mid, record(1), TTL)
    first = {"request": "abc", "status": 200, "body": {"version": 2}}
    store.commit(mid, 1, record(2), {"type": "stand"}, events(1, 1, 2), TTL, ("key-a", first))
    assert store.recorded(mid, "key-a") == first
    assert store.recorded(mid, "key-b") is None
    # The same key again, even at the right version: nothing is written.
    with pytest.raises(AlreadyRecorded):
        store.commit(mid, 2, record(3), {"type": "play"}, events(2, 1, 3), TTL,
                     ("key-a", {"request": "def"}))
    assert store.load(mid)["version"] == 2
    assert store.actions(mid) == [{"type": "stand"}]
    assert store.recorded(mid, "key-a") == first


def test_delete_removes_every_part_of_the_match(store):
    mid = "m6aaaaaaaaaaaaaaaa"
    store.create(mid, record(1), TTL)
    store.commit(mid, 1, record(2), {"type": "stand"}, events(1, 1, 2), TTL, ("k", {"s": 1}))
    assert store.delete(mid) is True
    assert store.delete(mid) is False
    with pytest.raises(MatchNotFound):
        store.load(mid)
    with pytest.raises(MatchNotFound):
        store.actions(mid)
    if isinstance(store, RedisStore):
        assert store.client.exists(*store.keys(mid)) == 0


def test_memory_store_expires_an_idle_match_and_each_update_refreshes_it():
    clock = Clock()
    store = MemoryStore(clock=clock)
    store.create("m7aaaaaaaaaaaaaaaa", record(1), 100)
    clock.now += 99
    store.commit("m7aaaaaaaaaaaaaaaa", 1, record(2), {"type": "stand"}, [], 100)
    clock.now += 99  # 198 s after creation, 99 s after the update: still there
    assert store.load("m7aaaaaaaaaaaaaaaa")["version"] == 2
    clock.now += 1
    with pytest.raises(MatchNotFound):
        store.load("m7aaaaaaaaaaaaaaaa")


def test_redis_keys_share_one_slot_and_every_update_refreshes_their_ttl(redis_url,
                                                                        redis_prefix):
    store = RedisStore(redis_url, prefix=redis_prefix)
    mid = "m8aaaaaaaaaaaaaaaa"
    store.create(mid, record(1), 100, kept=("sealed answer", 30))
    keys = store.keys(mid)
    assert keys[0] == f"{redis_prefix}:match:{{{mid}}}"
    assert {redis.crc.key_slot(k.encode()) for k in keys} == {redis.crc.key_slot(mid.encode())}
    assert 0 < store.client.ttl(keys[0]) <= 100
    store.commit(mid, 1, record(2), {"type": "stand"}, events(1, 1, 2), 5000, ("k", {"s": 1}),
                 (2, {"state": {}, "line": [[2, 2]], "actions": 1}))
    for key in keys[:4] + keys[5:]:
        assert 4900 < store.client.ttl(key) <= 5000, key
    assert 0 < store.client.ttl(keys[4]) <= 30  # a kept creation answer keeps its own window


def test_redis_store_that_cannot_connect_raises_store_unavailable():
    # Port 1 on the loopback: nothing listens there, the connection is refused at once.
    store = RedisStore("redis://127.0.0.1:1/0")
    with pytest.raises(StoreUnavailable):
        store.ping()
    with pytest.raises(StoreUnavailable):
        store.load("m9aaaaaaaaaaaaaaaa")


def test_make_store_picks_redis_only_when_redis_url_is_set():
    assert isinstance(make_store({"REDIS_URL": None}), MemoryStore)
    made = make_store({"REDIS_URL": "redis://127.0.0.1:1/0", "REDIS_KEY_PREFIX": "p"})
    assert isinstance(made, RedisStore) and made.prefix == "p"


def test_read_gives_the_record_and_the_events_after_a_seq_at_once(store):
    mid = "m9aaaaaaaaaaaaaaaa"
    store.create(mid, record(1), TTL)
    store.commit(mid, 1, record(2), {"type": "stand"}, events(1, 2, 2), TTL)
    got, logged = store.read(mid, after=1)
    assert got["version"] == 2 and [ev["seq"] for ev in logged] == [2]
    with pytest.raises(MatchNotFound):
        store.read("nosuchmatchaaaaaaa")


def test_a_commit_and_a_delete_wake_the_watches_of_their_match_only(store):
    mid, other = "maaaaaaaaaaaaaaaaa", "mbbbbbbbbbbbbbbbbb"
    store.create(mid, record(1), TTL)
    store.create(other, record(1), TTL)
    with store.feed.watch(mid) as watch, store.feed.watch(other) as quiet:
        watch.wait(1.0)  # the Redis feed wakes every watch once it has subscribed
        watch.clear()
        quiet.wait(1.0)
        quiet.clear()
        store.commit(mid, 1, record(2), {"type": "stand"}, events(1, 1, 2), TTL)
        assert watch.wait(5.0)
        assert not quiet.wait(0.2)
        watch.clear()
        store.delete(mid)
        assert watch.wait(5.0)
    assert store.feed.watching() == 0


def test_a_commit_of_thousands_of_events_logs_each_once_in_order(store):
    """The commit script pushes the events 1000 at a time (Lua's unpack has a stack limit):
    2,500 cross two chunk boundaries."""
    mid = "m7aaaaaaaaaaaaaaaa"
    store.create(mid, record(1), TTL)
    store.commit(mid, 1, record(2), {"type": "replay"}, events(1, 2500, 2), TTL)
    assert [ev["seq"] for ev in store.events(mid)] == list(range(1, 2501))
    assert [ev["seq"] for ev in store.events(mid, after=999)] == list(range(1000, 2501))


def test_history_texts_are_each_entry_s_compact_json_as_stored(store):
    # The audit cuts its answer from them (referee.matches.audit): each the standard library's
    # compact text of the entry committed (\u escapes, keys in their order); an entry an older
    # version wrote into Redis with spaces comes back as it was written.
    mid = "m9aaaaaaaaaaaaaaaa"
    store.create(mid, record(1), TTL)
    entries = [{"version": 2, "action": {"type": "play", "player": "zoë", "card": "7♥"}},
               {"version": 3, "rollback": {"step": "vote", "player": "李雷"}},
               {"version": 4, "action": {"type": "stand", "player": "ana"}}]
    for entry in entries:
        store.commit(mid, entry["version"] - 1, record(entry["version"]), entry, [], TTL)
    texts = store.history_texts(mid)
    assert texts[0] == ('{"version":2,"action":{"type":"play","player":"zo\\u00eb",'
                        '"card":"7\\u2665"}}')
    assert texts == [json.dumps(entry, separators=(",", ":")) for entry in entries]
    assert store.history_texts(mid, 1, 1) == texts[1:2] and store.history_texts(mid, 3) == []
    if isinstance(store, RedisStore):
        store.client.rpush(store.keys(mid)[2], json.dumps({"version": 5, "action": {}}))
        assert store.history_texts(mid, 3) == ['{"version": 5, "action": {}}']
    with pytest.raises(MatchNotFound):
        store.history_texts("nosuchmatchaaaaaaa")
