"""The abuse limits count in the match store's Redis, whatever its topology: the ``limits``
storage URI and options are derived from REDIS_URL (issue 12 item 5), no second setting."""
from __future__ import annotations

import pytest

from referee.api.ratelimits import storage
from referee.store.connect import limiter_storage

TIMEOUTS = {"socket_connect_timeout": 0.5, "socket_timeout": 1.0}


@pytest.mark.parametrize("url", [
    "redis://127.0.0.1:6379/0", "rediss://:pw@cache.example:6380/2",
    "redis+unix:///run/redis.sock", "redis+cluster://:pw@10.0.0.1:7000,10.0.0.2:7001"])
def test_single_unix_and_cluster_urls_are_the_limits_uri(url):
    assert limiter_storage(url) == (url, {})
    assert storage({"REDIS_URL": url}) == (url, TIMEOUTS)


def test_a_sentinel_url_keeps_hosts_and_master_and_moves_db_and_password_to_options():
    uri, options = limiter_storage("redis+sentinel://:s3cret@10.0.0.1:26379,10.0.0.2/referee/3",
                                   socket_timeout=1.0)
    # limits would read "/referee/3" as the master "referee3", and send the password to the
    # Sentinels too: the master's name alone, its password and db for the master only.
    assert uri == "redis+sentinel://10.0.0.1:26379,10.0.0.2:26379/referee"
    assert options == {"socket_timeout": 1.0, "db": 3, "password": "s3cret",
                       "use_replicas": False,
                       "sentinel_kwargs": {"socket_timeout": 1.0, "password": None}}
    assert limiter_storage("redis+sentinel://[::1]:5000/m")[0] == "redis+sentinel://[::1]:5000/m"
    assert limiter_storage("redis+sentinel://h/m")[1]["db"] == 0


def test_the_limits_library_builds_a_storage_of_each_topology():
    from limits.storage import RedisClusterStorage, RedisSentinelStorage, RedisStorage
    from limits.storage import storage_from_string
    built = storage_from_string(limiter_storage("redis://127.0.0.1:1/0")[0])
    assert isinstance(built, RedisStorage)
    uri, options = limiter_storage("redis+sentinel://127.0.0.1:1/referee/2")
    sentinel = storage_from_string(uri, **options)
    assert isinstance(sentinel, RedisSentinelStorage) and sentinel.service_name == "referee"
    assert sentinel.storage.connection_pool.connection_kwargs["db"] == 2
    assert RedisClusterStorage.STORAGE_SCHEME[0] == limiter_storage(
        "redis+cluster://127.0.0.1:1")[0].split("://")[0]


def test_an_explicit_storage_uri_wins_and_no_redis_counts_in_memory():
    assert storage({"RATELIMIT_STORAGE_URI": "memcached://m:11211",
                    "REDIS_URL": "redis://r/0"}) == ("memcached://m:11211", {})
    assert storage({"RATELIMIT_STORAGE_URI": "redis://other/1"}) == ("redis://other/1", TIMEOUTS)
    assert storage({"REDIS_URL": None}) == ("memory://", {})
    with pytest.raises(ValueError):
        storage({"REDIS_URL": "http://nope"})
