"""One Redis setting for everything: ``REDIS_URL`` → a redis-py client (and the storage URI
Flask-Limiter / ``limits`` understands), in the ``limits`` convention of URL schemes:

| ``REDIS_URL`` | topology | client |
| --- | --- | --- |
| ``redis://[:pw@]host:port/db``, ``rediss://…`` | one server (TLS for ``rediss``) | ``redis.Redis`` |
| ``redis+unix:///path/redis.sock`` | one server on a Unix socket | ``redis.Redis`` |
| ``redis+cluster://[:pw@]h1:p1,h2:p2`` | Redis Cluster (any reachable nodes) | ``redis.cluster.RedisCluster`` |
| ``redis+sentinel://[:pw@]h1:p1,h2:p2/<master>[/db]`` | Sentinel: the master it names | ``Sentinel.master_for`` |

:func:`redis_client` builds the client (``**options`` go to redis-py, e.g. timeouts); with
``max_connections`` its connections (per node of a cluster) come from a *blocking* pool of at
most that many, where a caller finding them all busy waits up to ``pool_timeout`` seconds for
one (then redis-py's ``ConnectionError``), instead of opening without bound or failing at once
— a gevent worker serving hundreds of streams opens them in bursts.
:func:`limiter_storage` gives Flask-Limiter the same Redis, whatever the topology.  Raises :class:`ValueError`
for a URL of another scheme or without a host.  A Redis Cluster client contacts the cluster
when it is built; the others connect on first use.
"""
from __future__ import annotations

import threading
from typing import Any
from urllib.parse import unquote, urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.sentinel import Sentinel, SentinelConnectionPool

from referee.store.readiness import use_os_poll

SCHEMES = ("redis", "rediss", "redis+unix", "redis+cluster", "redis+sentinel")
"""The URL schemes :func:`redis_client` accepts (those of ``limits``' Redis storages)."""


def topology(url: str) -> str:
    """``"single"``, ``"cluster"`` or ``"sentinel"`` for ``url``; :class:`ValueError` if the
    scheme is none of :data:`SCHEMES`."""
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme not in SCHEMES:
        raise ValueError(f"REDIS_URL: scheme {scheme!r} is not one of {', '.join(SCHEMES)}")
    return {"redis+cluster": "cluster", "redis+sentinel": "sentinel"}.get(scheme, "single")


def _hosts(netloc: str, default_port: int) -> tuple[list[tuple[str, int]], str | None]:
    """``[(host, port)]`` and the password of a ``[:pw@]h1:p1,h2:p2`` netloc."""
    password = None
    if "@" in netloc:
        auth, netloc = netloc.rsplit("@", 1)
        password = unquote(auth.split(":", 1)[1] if ":" in auth else auth) or None
    hosts = []
    for part in filter(None, netloc.split(",")):
        host, sep, port = part.rpartition(":")
        if not sep or not port.isdigit():
            host, port = part, ""
        hosts.append((host.strip("[]"), int(port) if port else default_port))
    if not hosts:
        raise ValueError("REDIS_URL: no host")
    return hosts, password


class BlockingSentinelPool(SentinelConnectionPool, redis.BlockingConnectionPool):
    """The Sentinel master's pool, blocking like :class:`redis.BlockingConnectionPool` (redis-py
    has no blocking Sentinel pool): Sentinel's address lookup, the blocking pool's bound.

    Every new connection asks the Sentinels where the master is; a burst of new connections
    (a hundred streams opening at once) would send as many lookups at once, more than the
    Sentinel client's own pool holds (redis-py's default: 100 connections), and the rest fail
    (``MaxConnectionsError``, reported as ``MasterNotFoundError``: a 503).  Lookups here are
    single-flight: one at a time, and a caller that waited while another looked up takes that
    answer (never an older one: no cache outlives the lookup).

    redis-py's connections ask the pool's *proxy* (``connection_kwargs["connection_pool"]``),
    not the pool, so the proxy's lookup is routed through :meth:`get_master_address` too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lookup = threading.Lock()
        self._lookups = 0
        self._master: Any = None
        self.proxy.get_master_address = self.get_master_address

    def get_master_address(self):
        """The master's ``(host, port)`` (one Sentinel lookup for the callers that waited);
        :class:`redis.sentinel.MasterNotFoundError` when no Sentinel names a master."""
        seen = self._lookups
        with self._lookup:
            if self._lookups != seen:  # looked up while this caller waited
                return self._master
            self._master = type(self.proxy).get_master_address(self.proxy)
            self._lookups += 1
            return self._master


def redis_client(url: str, *, max_connections: int | None = None,
                 pool_timeout: float = 1.0, **options: Any) -> redis.Redis | RedisCluster:
    """A redis-py client for ``url`` (see the module docstring for the schemes).

    ``options`` are redis-py connection keywords (``socket_timeout``, ``decode_responses``,
    ``retry``…), applied to every node of a cluster and to the Sentinel's master.  With
    ``max_connections`` (> 0) the client holds at most that many connections (per cluster
    node) in a blocking pool that waits up to ``pool_timeout`` seconds for a free one; without
    it, redis-py's default pool (unbounded).  Raises :class:`ValueError` for a bad URL and, for
    a cluster, redis-py's connection errors (``RedisClusterException``) when no node answers."""
    kind = topology(url)
    use_os_poll()  # under gevent: the pool's zero-timeout readiness check skips the hub
    pool: dict[str, Any] = {}
    if max_connections is not None:
        pool = {"max_connections": max_connections, "timeout": pool_timeout}
    if kind == "single":
        if url.startswith("redis+unix://"):
            url = "unix://" + url[len("redis+unix://"):]
        if not pool:
            return redis.Redis.from_url(url, **options)
        return redis.Redis.from_pool(
            redis.BlockingConnectionPool.from_url(url, **pool, **options))
    parts = urlsplit(url)
    if kind == "cluster":
        hosts, password = _hosts(parts.netloc, 6379)
        nodes = [ClusterNode(h, p) for h, p in hosts]
        if not pool:
            return RedisCluster(startup_nodes=nodes, password=password, **options)
        # redis-py hands ``connection_pool_class`` and its keywords (``timeout``) to each node's
        # pool only for a client built from a URL; otherwise they go to ``Redis()``, which
        # refuses them.  The first host is that URL, every host a startup node.
        pool["connection_pool_class"] = redis.BlockingConnectionPool
        return RedisCluster(url=f"redis://{nodes[0].host}:{nodes[0].port}", startup_nodes=nodes,
                            password=password, **pool, **options)
    hosts, password = _hosts(parts.netloc, 26379)
    path = [p for p in parts.path.split("/") if p]
    if not path:
        raise ValueError("REDIS_URL: redis+sentinel:// needs the master's name as its path")
    sentinel_options = {k: v for k, v in options.items()
                        if k in ("socket_timeout", "socket_connect_timeout")}
    sentinel = Sentinel(hosts, sentinel_kwargs=sentinel_options)
    db = int(path[1]) if len(path) > 1 else 0
    if pool:
        pool["connection_pool_class"] = BlockingSentinelPool
    return sentinel.master_for(path[0], password=password, db=db, **pool, **options)


def limiter_storage(url: str, **options: Any) -> tuple[str, dict[str, Any]]:
    """``(storage URI, storage options)`` for Flask-Limiter (the ``limits`` library) on the
    Redis of ``url``, every scheme of :data:`SCHEMES`; ``options`` (redis-py connection
    keywords such as ``socket_timeout``) go to the Redis connections.

    ``limits`` takes the same schemes, but reads two parts of a Sentinel URL differently:
    the path must be the master's name alone (``limits`` would join ``/<master>/<db>`` into
    one name), and a password in the URL would also be sent to the Sentinels, which this
    service never authenticates to (:func:`redis_client`).  So for ``redis+sentinel://`` the
    URI keeps the Sentinel hosts and master name, and the password and database go in the
    options (the Sentinels' own connections get the timeouts only; the master is used for
    reads too, as by the match store).  The other schemes are returned as they are.
    :class:`ValueError` as :func:`topology`."""
    kind = topology(url)
    if kind != "sentinel":
        return url, dict(options)
    parts = urlsplit(url)
    hosts, password = _hosts(parts.netloc, 26379)
    path = [p for p in parts.path.split("/") if p]
    if not path:
        raise ValueError("REDIS_URL: redis+sentinel:// needs the master's name as its path")
    netloc = ",".join(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in hosts)
    sentinel_kwargs = {k: v for k, v in options.items()
                       if k in ("socket_timeout", "socket_connect_timeout")}
    out: dict[str, Any] = {**options, "db": int(path[1]) if len(path) > 1 else 0,
                           "use_replicas": False,
                           "sentinel_kwargs": {**sentinel_kwargs, "password": None}}
    if password:
        out["password"] = password
    return f"redis+sentinel://{netloc}/{path[0]}", out
