"""When Redis is down the match endpoints answer 503 ``store-unavailable`` with
``Retry-After``, the stateless endpoints keep working, and nothing is ever half-written."""
from __future__ import annotations

import pytest
import redis

from referee.serving.app import create_app
from tests import topologies




@pytest.fixture(params=topologies.selected())
def private_redis(request, tmp_path):
    """A Redis of this test alone, of each topology of ``REFEREE_TEST_TOPOLOGIES`` (one
    server, a cluster, a Sentinel set), which the test may stop, start again and pause."""
    with topologies.private(request.param, tmp_path) as server:
        yield server


def _assert_503(response):
    assert response.status_code == 503, response.get_json()
    assert response.headers["Retry-After"] == "1"
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["type"] == "/problems/store-unavailable"


def test_redis_down_is_503_with_retry_after_then_service_resumes(private_redis, table):
    client = create_app({"TESTING": True, "REDIS_URL": private_redis.url}).test_client()
    match = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                         seed=1)
    assert match.act("ben", {"type": "stand", "player": "ben"}, version=1).status_code == 200

    private_redis.stop()
    _assert_503(match.get("ben"))
    _assert_503(match.get(None, "/events"))
    _assert_503(match.act("ben", {"type": "beg", "player": "ben"}, version=2))
    _assert_503(client.post("/v1/matches", json={"game": "all-fours", "players": ["a", "b"]}))
    _assert_503(client.get("/readyz"))
    # The stateless endpoints do not need the store.
    assert client.get("/livez").status_code == 200
    assert client.get("/v1/games").status_code == 200
    setup = client.post("/v1/games/all-fours/setup", json={"players": ["a", "b"], "seed": 1})
    assert setup.status_code == 200

    private_redis.start()
    assert client.get("/readyz").status_code == 200
    # The server kept nothing on disk: the old match is gone, and says so.
    assert match.get("ben").status_code == 404
    fresh = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                         seed=1)
    response = fresh.act("ben", {"type": "stand", "player": "ben"}, version=1)
    assert response.status_code == 200 and response.get_json()["version"] == 2


def test_a_redis_that_hangs_is_503_after_the_socket_timeout(private_redis, table):
    client = create_app({"TESTING": True, "REDIS_URL": private_redis.url}).test_client()
    match = table.create(client, game="all-fours", players=["ana", "ben"], seed=1)
    private_redis.pause(True)  # accepts connections, never answers
    try:
        _assert_503(match.act("ben", {"type": "stand", "player": "ben"}, version=1))
    finally:
        private_redis.pause(False)
    assert _read_once_it_answers(match, None)["version"] == 1


def _count_socket_timeouts(monkeypatch) -> list:
    """A list that grows by one at each Redis reply that timed out (redis-py's
    ``read_response``: one per round trip that waited ``SOCKET_TIMEOUT`` in vain)."""
    timeouts: list = []
    read = redis.connection.AbstractConnection.read_response

    def counted(self, *args, **kwargs):
        try:
            return read(self, *args, **kwargs)
        except redis.TimeoutError:
            timeouts.append(self.port)
            raise
    monkeypatch.setattr(redis.connection.AbstractConnection, "read_response", counted)
    return timeouts


def test_a_hung_redis_costs_a_match_call_one_timeout_with_the_budgets_on(
        private_redis, table, monkeypatch):
    """With the budgets in the match store's Redis, a match call's first round trip counts
    them and reads the record (``RedisStore.load_along``).  When that times out the store is
    what does not answer: 503 then, after one timeout — not a second one reading the record
    again (the budgets' fail-open is for a counter's own error)."""
    client = create_app({"TESTING": True, "REDIS_URL": private_redis.url,
                         "RATE_LIMITS_ENABLED": True}).test_client()
    match = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                         seed=1)
    timeouts = _count_socket_timeouts(monkeypatch)
    private_redis.pause(True)  # accepts connections, never answers
    try:
        _assert_503(match.get("ben"))
        assert len(timeouts) == 1
        _assert_503(match.act("ben", {"type": "stand", "player": "ben"}, version=1))
        assert len(timeouts) == 2
    finally:
        private_redis.pause(False)
    assert _read_once_it_answers(match, "ben")["version"] == 1  # nothing was written


def _read_once_it_answers(match, who):
    """The match as ``who`` sees it, once the store answers again after a pause: a pause past
    the Sentinels' down-after-milliseconds (1 s in the test topology) has them look for a new
    master, and until they settle a read is 503 (``MasterNotFoundError``), not a lost write."""
    topologies.wait_until(lambda: match.get(who).status_code == 200,
                          "the store to answer after the pause")
    return match.read(who)


@pytest.fixture
def on_redis(redis_app, table):
    """``(store, match)``: a 2-player All Fours match on the test Redis, ben to stand or beg."""
    match = table.create(redis_app.test_client(), game="all-fours", players=["ana", "ben"],
                         dealer="ana", seed=1)
    return redis_app.extensions["referee.store"], match


def test_a_failure_before_the_write_leaves_version_events_and_actions_unchanged(
        on_redis, monkeypatch):
    store, match = on_redis
    assert match.act("ben", {"type": "stand", "player": "ben"}, version=1).status_code == 200
    before = store.load(match.id), store.events(match.id), store.actions(match.id)

    def connection_lost(*args, **kwargs):
        raise redis.ConnectionError("connection lost")

    monkeypatch.setattr(store, "_commit", connection_lost)  # the read worked, the write fails
    play = match.legal("ben")[0]
    _assert_503(match.act("ben", play, version=2, key="ben-lead"))
    assert (store.load(match.id), store.events(match.id), store.actions(match.id)) == before
    monkeypatch.undo()
    # The retry with the same key is a first attempt: applied once.
    response = match.act("ben", play, version=2, key="ben-lead")
    assert response.status_code == 200 and "Idempotent-Replayed" not in response.headers
    assert store.actions(match.id) == before[2] + [{"version": 3, "action": play}]


def test_a_reply_lost_after_the_write_is_recovered_by_retrying_with_the_key(
        on_redis, monkeypatch):
    store, match = on_redis
    script = store._commit

    def written_then_lost(*args, **kwargs):
        script(*args, **kwargs)
        raise redis.TimeoutError("reply lost")

    monkeypatch.setattr(store, "_commit", written_then_lost)
    stand = {"type": "stand", "player": "ben"}
    _assert_503(match.act("ben", stand, version=1, key="ben-stand"))
    monkeypatch.undo()
    # It was applied (all of it: record, event, action, idempotency record) …
    assert store.load(match.id)["version"] == 2
    assert store.actions(match.id) == [{"version": 2, "action": stand}]
    # … and the client's retry with the same key gets the first answer, not a second move.
    retry = match.act("ben", stand, version=1, key="ben-stand")
    assert retry.status_code == 200 and retry.headers["Idempotent-Replayed"] == "true"
    assert retry.get_json()["version"] == 2
    assert store.actions(match.id) == [{"version": 2, "action": stand}]


def _admin_of(private_redis) -> redis.Redis:
    """A client that reconfigures the one test server (CONFIG SET, REPLICAOF): a single Redis
    only; the topology runs cover outages by stopping servers."""
    if not private_redis.url.startswith("redis://"):
        pytest.skip("CONFIG SET on one server: a single Redis only")
    return redis.Redis.from_url(private_redis.url)


def test_a_full_redis_under_noeviction_is_503_and_not_ready_and_nothing_is_written(
        private_redis, table):
    """``maxmemory`` reached with ``noeviction``: Redis refuses every write with OOM."""
    client = create_app({"TESTING": True, "REDIS_URL": private_redis.url}).test_client()
    match = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                         seed=1)
    admin = _admin_of(private_redis)
    admin.config_set("maxmemory-policy", "noeviction")
    admin.config_set("maxmemory", "1")  # below what it already uses: every write is OOM
    try:
        refused = match.act("ben", {"type": "stand", "player": "ben"}, version=1)
        _assert_503(refused)  # it answers, so the detail says it refuses writes, not "down"
        assert refused.get_json()["detail"].startswith(
            "The match store refuses writes: it is out of memory.")
        burmese = client.post("/v1/matches", json={"game": "spy", "players": ["a", "b"]},
                              headers={"Accept-Language": "my"})
        _assert_503(burmese)
        assert "မှတ်ဉာဏ် ပြည့်နေ" in burmese.get_json()["detail"]  # out of memory
        assert "မဖြေပါ" not in burmese.get_json()["detail"]  # not "does not answer"
        _assert_503(client.post("/v1/matches", json={"game": "spy", "players": ["a", "b"]}))
        _assert_503(client.get("/readyz"))  # it answers PING, but refuses writes
        assert client.get("/livez").status_code == 200
        assert match.read("ben")["version"] == 1  # reads still work; nothing was written
    finally:
        admin.config_set("maxmemory", "0")
    assert client.get("/readyz").status_code == 200
    assert match.act("ben", {"type": "stand", "player": "ben"}, version=1).status_code == 200


def test_a_counter_refused_by_a_full_redis_still_lets_a_read_through(private_redis, table,
                                                                     caplog):
    """Under OOM the budgets' counter script (a write) is refused while the record is read in
    the same round trip: only the budget part failed, so the budgets fail open and the read
    answers 200 (the 503 at once is for a round trip that could not read the record)."""
    client = create_app({"TESTING": True, "REDIS_URL": private_redis.url,
                         "RATE_LIMITS_ENABLED": True}).test_client()
    match = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                         seed=1)
    admin = _admin_of(private_redis)
    admin.config_set("maxmemory-policy", "noeviction")
    admin.config_set("maxmemory", "1")
    try:
        assert match.read("ben")["version"] == 1
    finally:
        admin.config_set("maxmemory", "0")
    assert [r.getMessage() for r in caplog.records if r.name == "referee.limits"] == [
        "match budgets not counted (limit storage: OutOfMemoryError); request let through"]


def test_a_read_only_replica_is_503_and_not_ready(private_redis, table, free_port):
    """READONLY: the Redis became a replica (a failover moved the primary elsewhere)."""
    client = create_app({"TESTING": True, "REDIS_URL": private_redis.url}).test_client()
    match = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                         seed=1)
    admin = _admin_of(private_redis)
    admin.execute_command("REPLICAOF", "127.0.0.1", str(free_port()))  # a primary that is not there
    try:
        refused = match.act("ben", {"type": "stand", "player": "ben"}, version=1)
        _assert_503(refused)  # it answers, so the detail says it refuses writes, not "down"
        assert refused.get_json()["detail"] == (
            "The match store refuses writes: it is a read-only replica (as after a failover). "
            "Nothing was written; try again shortly. The stateless /v1/games endpoints still "
            "work.")
        burmese = client.post("/v1/matches", json={"game": "spy", "players": ["a", "b"]},
                              headers={"Accept-Language": "my"})
        _assert_503(burmese)
        assert "ဖတ်ရန်သာ ရသော မိတ္တူဆာဗာ" in burmese.get_json()["detail"]  # a read-only replica
        assert "မဖြေပါ" not in burmese.get_json()["detail"]  # not "does not answer"
        _assert_503(client.get("/readyz"))
        assert match.read("ben")["version"] == 1  # reads still work; nothing was written
    finally:
        admin.execute_command("REPLICAOF", "NO", "ONE")
    assert client.get("/readyz").status_code == 200


@pytest.mark.parametrize("error", [redis.exceptions.ClusterDownError("CLUSTERDOWN"),
                                   redis.exceptions.OutOfMemoryError("OOM"),
                                   redis.exceptions.ResponseError("MASTERDOWN")])
def test_every_redis_error_is_store_unavailable(on_redis, monkeypatch, error):
    store, match = on_redis

    def fails(*args, **kwargs):
        raise error

    monkeypatch.setattr(store.client, "hget", fails)
    _assert_503(match.get("ben"))


def test_events_after_past_a_64_bit_integer_is_422_not_500(on_redis):
    _, match = on_redis
    response = match.get(None, "/events?after=9223372036854775808")
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["errors"][0]["field"] == "query.after"
    assert match.get(None, "/events?after=9223372036854775807").get_json()["events"] == []


def _chunks_until(chunks, start: str, most: int = 50) -> list[str]:
    """The stream's next messages, through the chunk holding the first that starts ``start``
    (what one change brings, its events and view, comes in one chunk: split into messages)."""
    seen = []
    for _ in range(most):
        messages = [m + "\n\n" for m in next(chunks).decode().split("\n\n") if m]
        seen += messages
        if any(m.startswith(start) for m in messages):
            return seen
    raise AssertionError(f"no {start!r} in {most} chunks: {seen}")


def test_a_stream_rides_out_a_hung_redis_and_ends_with_reconnect_when_it_closes(
        private_redis, table):
    """README "Live": a stream reads the store only when a notice wakes it, so a Redis that
    hangs without closing its connections (SIGSTOP) leaves it open — heartbeats, no read, no
    end — for longer than a read's timeout, and the first move after it comes through; a Redis
    whose connections close (stopped: the change feed's subscription breaks and wakes every
    stream, whose read fails) ends it with ``reason`` ``reconnect``.  One server (its
    subscription is watched through it)."""
    client = create_app({"TESTING": True, "REDIS_URL": private_redis.url,
                         "STREAM_HEARTBEAT_SECONDS": 0.4}).test_client()
    match = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana",
                         seed=1)
    opened = client.get(match.url + "/stream", buffered=False,
                        headers={"Authorization": f"Bearer {match.token('ben')}"})
    chunks = opened.iter_encoded()
    try:
        assert _chunks_until(chunks, "event: view")[0] == "retry: 2000\n\n"
        # The feed subscribes with the first watch and then wakes every stream to read again
        # (a notice may have been missed): a read in the hang would time out and end the
        # stream. So wait for the subscription, and a heartbeat: that read is done.
        admin = _admin_of(private_redis)
        topologies.wait_until(lambda: admin.pubsub_numsub("referee:changes")[0][1] == 1,
                              "the change feed's subscription")
        assert _chunks_until(chunks, ": heartbeat")[-1] == ": heartbeat\n\n"
        private_redis.pause(True)
        try:
            # Four heartbeats: 1.6 s without a read, past SOCKET_TIMEOUT (1 s).
            assert [next(chunks).decode() for _ in range(4)] == [": heartbeat\n\n"] * 4
        finally:
            private_redis.pause(False)
        assert match.act("ben", {"type": "stand", "player": "ben"}, version=1).status_code == 200
        moved = _chunks_until(chunks, "event: view")
        assert [m for m in moved if m.startswith("id:")] == [
            'id: 3\nevent: event\ndata: {"type":"stand","player":"ben","seq":3,"version":2}'
            '\n\n']
        private_redis.stop()
        assert _chunks_until(chunks, "event: end")[-1] == (
            'event: end\ndata: {"version":2,"reason":"reconnect"}\n\n')
    finally:
        opened.close()
