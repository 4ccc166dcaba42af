"""The Redis client's bounded blocking connection pool (referee.store.connect.redis_client with
``max_connections``; the store's :data:`MAX_CONNECTIONS`): more than 100 stream opens at once
in one process all read, never holding more connections than the bound; a caller finding every
connection busy waits ``pool_timeout`` and then gets a 503, not an unbounded new connection."""
from __future__ import annotations

import threading
import time

import pytest
import redis
from redis.sentinel import SentinelConnectionPool, SentinelConnectionPoolProxy

from referee.serving.app import create_app
from referee.store import StoreUnavailable
from referee.store.connect import BlockingSentinelPool, redis_client
from referee.store.redis_store import MAX_CONNECTIONS, SOCKET_TIMEOUT, RedisStore
from tests.matches.conftest import bearer

OPENS = 120
"""Stream opens at once (each one read of the store) in one process: above 100."""


def _pools(client):
    """The connection pool of each node a client talks to (one for a single Redis)."""
    if hasattr(client, "get_nodes"):  # RedisCluster: a pool per node
        return [node.redis_connection.connection_pool for node in client.get_nodes()]
    return [client.connection_pool]


def test_the_store_client_holds_one_blocking_pool_of_max_connections(redis_url, redis_prefix):
    store = RedisStore(redis_url, prefix=redis_prefix)
    store.ping()
    for pool in _pools(store.client):
        assert isinstance(pool, redis.BlockingConnectionPool)
        assert pool.max_connections == MAX_CONNECTIONS > OPENS
        assert pool.timeout == SOCKET_TIMEOUT


def test_a_sentinel_master_gets_a_blocking_sentinel_pool_without_connecting():
    bounded = redis_client("redis+sentinel://127.0.0.1:1/mymaster", max_connections=7,
                           pool_timeout=0.25)
    pool = bounded.connection_pool
    assert isinstance(pool, BlockingSentinelPool) and isinstance(pool, SentinelConnectionPool)
    assert (pool.max_connections, pool.timeout, pool.service_name) == (7, 0.25, "mymaster")
    default = redis_client("redis+sentinel://127.0.0.1:1/mymaster").connection_pool
    assert not isinstance(default, redis.BlockingConnectionPool)


def at_once(target, timeout: float) -> None:
    """Run ``target`` in :data:`OPENS` threads (it waits on a barrier of its own) and join
    them, each for at most ``timeout`` seconds."""
    threads = [threading.Thread(target=target) for _ in range(OPENS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)


def test_a_burst_of_new_sentinel_connections_asks_the_sentinels_once(monkeypatch):
    """120 connections opening at once ask where the master is: one Sentinel lookup serves
    the callers that waited for it (one each overflowed the Sentinel client's pool of 100:
    MasterNotFoundError, 503), and every caller gets the answer of a lookup made after it
    asked.  Asked as a connection asks: through the pool's proxy (redis-py's
    ``connection_kwargs["connection_pool"]``), which bypassed the single flight before."""
    pool = redis_client("redis+sentinel://127.0.0.1:1/mymaster", max_connections=7,
                        pool_timeout=0.25).connection_pool
    lookups = []

    def lookup(self):
        lookups.append(1)
        time.sleep(0.2)  # a Sentinel answering slowly
        return ("10.0.0.%d" % len(lookups), 6379)

    monkeypatch.setattr(SentinelConnectionPoolProxy, "get_master_address", lookup)
    connection = pool.make_connection()
    barrier = threading.Barrier(OPENS)
    answers = []

    def ask():
        barrier.wait()
        answers.append(connection.connection_pool.get_master_address())

    at_once(ask, 30)
    assert len(answers) == OPENS
    assert len(lookups) <= 3  # the first, and at most a second for those arriving during it
    assert pool.get_master_address() == ("10.0.0.%d" % (len(lookups)), 6379)  # a fresh lookup


def test_more_than_100_stream_opens_at_once_all_read_within_the_bound(redis_url, redis_prefix,
                                                                     table):
    """AF-B1 table: 120 threads open the same seat's stream at one instant (a barrier)."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "REDIS_KEY_PREFIX": redis_prefix,
                      "STREAM_HEARTBEAT_SECONDS": 0.05})
    client = app.test_client()
    game = table.create(client, game="all-fours", players=["ana", "ben"], dealer="ana", seed=1)
    barrier = threading.Barrier(OPENS)
    first: list = []

    def open_one():
        local = app.test_client()
        barrier.wait()
        response = local.get(game.url + "/stream", headers=bearer(game.token("ben")),
                             buffered=False)
        chunks = response.iter_encoded()
        text = ""
        while "event: view" not in text:
            text += next(chunks).decode()
        response.close()
        first.append((response.status_code, text))

    at_once(open_one, 60)
    assert len(first) == OPENS
    assert all(status == 200 and '"version":1' in text for status, text in first)
    for pool in _pools(app.extensions["referee.store"].client):
        assert isinstance(pool, redis.BlockingConnectionPool)


def test_every_connection_busy_waits_pool_timeout_then_is_store_unavailable(redis_url,
                                                                           redis_prefix):
    client = redis_client(redis_url, max_connections=2, pool_timeout=0.3,
                          decode_responses=True)
    if hasattr(client, "get_nodes"):
        pytest.skip("one pool per cluster node: checked on a single Redis and Sentinel")
    store = RedisStore(redis_url, prefix=redis_prefix, client=client)
    store.ping()
    held = [client.connection_pool.get_connection() for _ in range(2)]
    try:
        start = time.monotonic()
        with pytest.raises(StoreUnavailable):
            store.ping()
        waited = time.monotonic() - start
        # waited pool_timeout (0.3 s), then gave up: bounded (a loaded machine may add seconds)
        assert 0.25 <= waited < 10.0
    finally:
        for connection in held:
            client.connection_pool.release(connection)
    store.ping()  # a released connection serves the next caller
