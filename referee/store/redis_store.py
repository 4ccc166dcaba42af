"""The Redis match store: matches shared by every worker process, each update atomic.

Keys of match ``<id>`` (``<prefix>`` defaults to ``referee``), all with the hash tag ``{<id>}``
so they sit in one Redis Cluster slot and one Lua script may touch them all:

| key | type | holds |
| --- | --- | --- |
| ``<prefix>:match:{<id>}`` | hash | ``version`` and ``record`` (the record, compressed) |
| ``<prefix>:match:{<id>}:events`` | list | one event per element (compressed), ``seq`` = position |
| ``<prefix>:match:{<id>}:actions`` | list | the history: one JSON entry per commit |
| ``<prefix>:match:{<id>}:idem`` | hash | scoped idempotency key → JSON response record |
| ``<prefix>:match:{<id>}:states`` | hash | version → kept state (:mod:`referee.matches.kept`, compressed like the record) |
| ``<prefix>:match:{<id>}:kept`` | string | the sealed creation answer of a match created with an ``Idempotency-Key``, with a TTL of its own (minutes) |

How each is written and read back: :mod:`referee.store.codec` (compact JSON; the record
zlib-compressed, events deflated with a preset dictionary; older plain JSON still reads).
| ``<prefix>:live`` | sorted set | match id → when its creation TTL ends (the cap's count) |

Every commit and delete publishes the match id on the pub/sub channel ``<prefix>:changes``
(:class:`referee.store.feed.RedisFeed` listens to it, one subscription per process).

Every key expires after the idle TTL, refreshed by each update.  An update is one Lua script
(:data:`COMMIT`): it checks the idempotency key and the version before writing anything, so a
script either writes everything or nothing.  The idempotency records share one hash (not a key
each) so that ``DELETE`` removes every key of a match at once and they expire with the match.

Every Redis failure (connection refused or lost, timeouts, ``OOM`` under ``maxmemory`` with
``noeviction``, ``READONLY`` replicas, ``CLUSTERDOWN``…) becomes :class:`StoreUnavailable`
(HTTP 503); a script refused for memory writes nothing.  The client uses short
socket timeouts and no automatic retry (a retried write could not tell whether the first
attempt landed — clients retry with an ``Idempotency-Key`` instead).

The URL picks the topology (:mod:`referee.store.connect`: one server, Redis Cluster or
Sentinel); the client is made on first use, so a cluster that is down at start-up is a 503,
not a crash.  With ``wait_replicas`` = N > 0 every update is followed, on the same connection
and in the same round trip, by ``WAIT N`` (:data:`WAIT_MS`): an update no N replicas
acknowledged answers 503 (the client's retry with its ``Idempotency-Key`` then replays it, or
applies it afresh if a failover lost it), so a failover never loses an accepted move.
"""
from __future__ import annotations

import functools
import threading
import time
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisClusterException
from redis.retry import Retry

from referee.store.base import (AlreadyRecorded, MatchExists, MatchNotFound, MatchStore,
                                StoreFull, StoreUnavailable, VersionConflict)
from referee.store import codec
from referee.store.connect import redis_client, topology
from referee.store.feed import RedisFeed

CONNECT_TIMEOUT = 0.5
"""Seconds to wait for a TCP connection to Redis before answering 503."""

SOCKET_TIMEOUT = 1.0
"""Seconds to wait for a Redis reply before answering 503."""

MAX_CONNECTIONS = 200
"""Redis connections per process (per node of a cluster) at most, in a blocking pool
(:func:`referee.store.connect.redis_client`): a gevent worker opening more than 100 streams at
once (each a read; the change feed holds one more connection) waits for a free connection, up
to ``SOCKET_TIMEOUT``, then answers 503 — it neither fails at once nor opens without bound."""

WAIT_MS = 500
"""Milliseconds an update waits for ``wait_replicas`` replicas to acknowledge it."""

_DOWN = (redis.RedisError, RedisClusterException)
"""Every redis-py error: connection, timeout, OOM, READONLY, cluster (no master for a slot,
TRYAGAIN; ``RedisClusterException`` — "cannot be connected" when no node answers — is not a
``RedisError``) and script errors: all mean "the store cannot take this now" (503)."""

READY_KEY_SECONDS = 10
"""TTL of the key :meth:`RedisStore.ready` writes."""

CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'record', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
if ARGV[4] ~= '' then redis.call('SET', KEYS[3], ARGV[4], 'EX', ARGV[5]) end
if #ARGV > 5 then
  redis.call('DEL', KEYS[2])
  for i = 6, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
  redis.call('EXPIRE', KEYS[2], ARGV[3])
end
return 1
"""
"""KEYS: match, events, kept.  ARGV: version, record JSON, ttl, the sealed creation answer ('' for
none), its seconds, event JSON… (the deal's).  Returns 0 if the id is taken (nothing written)."""

COMMIT = """
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return {'missing'} end
if ARGV[5] ~= '' and redis.call('HEXISTS', KEYS[4], ARGV[5]) == 1 then
  return {'recorded'}
end
if current ~= ARGV[1] then return {'conflict', current} end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'record', ARGV[3])
redis.call('RPUSH', KEYS[3], ARGV[7])
for i = 12, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[4], ARGV[5], ARGV[6]) end
if ARGV[10] ~= '' then redis.call('HSET', KEYS[5], ARGV[10], ARGV[11]) end
for i = 1, 5 do redis.call('EXPIRE', KEYS[i], ARGV[4]) end
redis.call('PUBLISH', ARGV[8], ARGV[9])
return {'ok'}
"""
"""KEYS: match, events, actions, idem, states.  ARGV: expected version, new version, record
JSON, ttl, idempotency key ('' for none), its response JSON, history entry JSON, notice
channel, match id, kept state's version ('' for none), the kept state, event JSON….  Every
check comes before the first write; the notice is published after the last.  The events go
in one RPUSH per 1000 (Lua's ``unpack`` has a stack limit)."""

READ = """
local record = redis.call('HGET', KEYS[1], 'record')
if not record then return false end
return {record, redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])}
"""
"""KEYS: match, events.  ARGV: first and last event index (-1: the end).  The record and those
events, at one instant; nil when the match does not exist."""


def _guarded(method):
    """Turn Redis connection failures and timeouts into :class:`StoreUnavailable`, marked
    ``out_of_memory`` for ``OOM`` and ``read_only`` for ``READONLY`` (a Redis that answers but
    refuses the write)."""
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except _DOWN as exc:
            full = isinstance(exc, redis.exceptions.OutOfMemoryError) or str(exc).startswith(
                "OOM")
            read_only = isinstance(exc, redis.exceptions.ReadOnlyError) or str(
                exc).startswith("READONLY")
            raise StoreUnavailable(f"Redis: {type(exc).__name__}", out_of_memory=full,
                                   read_only=read_only) from None
    return wrapper


class RedisStore(MatchStore):
    """Matches in Redis (see the module docstring for the keys)."""

    def __init__(self, url: str, prefix: str = "referee", client: redis.Redis | None = None,
                 wait_replicas: int = 0, max_matches: int | None = None):
        self.url = url
        self.prefix = prefix
        self.max_matches = max_matches
        self.live_key = f"{prefix}:live"
        self.topology = topology(url)
        self.wait_replicas = wait_replicas if self.topology != "cluster" else 0
        self._client = client
        self._lock = threading.Lock()
        self._scripts: dict[str, Any] = {}
        self._create = functools.partial(self._run, CREATE)
        self._commit = self._commit_replicated
        self.channel = f"{prefix}:changes"
        self.feed = RedisFeed(lambda: self.client, self.channel)

    @property
    def client(self) -> redis.Redis:
        """The redis-py client of :attr:`url`, made on first use (short timeouts, no retry,
        a blocking pool of :data:`MAX_CONNECTIONS`)."""
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = redis_client(
                        self.url, max_connections=MAX_CONNECTIONS, pool_timeout=SOCKET_TIMEOUT,
                        socket_connect_timeout=CONNECT_TIMEOUT,
                        socket_timeout=SOCKET_TIMEOUT, retry=Retry(NoBackoff(), 0),
                        decode_responses=True)
        return self._client

    def _run(self, source: str, keys: list[str], args: list[Any], client: Any = None):
        """Run Lua ``source`` (EVALSHA, loading it if needed) on ``client`` (default the
        store's client; a pipeline queues it)."""
        script = self._scripts.get(source)
        if script is None:
            script = self._scripts[source] = self.client.register_script(source)
        return script(keys=keys, args=args, client=client)

    def _commit_replicated(self, keys: list[str], args: list[Any]) -> list[str]:
        """Run :data:`COMMIT`; with ``wait_replicas``, ``WAIT`` in the same round trip and
        :class:`StoreUnavailable` when too few replicas acknowledged an applied update."""
        if not self.wait_replicas:
            return self._run(COMMIT, keys, args)
        pipe = self.client.pipeline(transaction=False)
        self._run(COMMIT, keys, args, client=pipe)
        pipe.execute_command("WAIT", self.wait_replicas, WAIT_MS)
        outcome, acknowledged = pipe.execute()
        if outcome[0] == "ok" and acknowledged < self.wait_replicas:
            raise StoreUnavailable(f"Redis: {acknowledged} of {self.wait_replicas} replicas "
                                   "acknowledged the update")
        return outcome

    def keys(self, match_id: str) -> list[str]:
        """The match's keys: record, events, actions, idempotency records, kept creation
        answer, kept states (a commit refreshes the TTL of all but the creation answer)."""
        base = f"{self.prefix}:match:{{{match_id}}}"
        return [base, f"{base}:events", f"{base}:actions", f"{base}:idem", f"{base}:kept",
                f"{base}:states"]

    @_guarded
    def ping(self) -> None:
        """PING Redis (see :meth:`MatchStore.ping`)."""
        self.client.ping()

    @_guarded
    def ready(self) -> None:
        """Write a short-lived key (``<prefix>:ready``): a Redis that answers but refuses
        writes (OOM, READONLY) is not ready (see :meth:`MatchStore.ready`)."""
        self.client.set(f"{self.prefix}:ready", "1", ex=READY_KEY_SECONDS)

    @_guarded
    def create(self, match_id: str, record: dict[str, Any], ttl: int,
               events: list[dict[str, Any]] = (),
               kept: tuple[str, int] | None = None) -> None:
        """Store a new match (see :meth:`MatchStore.create`); with ``max_matches``, two round
        trips more (count, then add to ``<prefix>:live``)."""
        now = time.time()
        if self.max_matches is not None:
            pipe = self.client.pipeline(transaction=False)
            pipe.zremrangebyscore(self.live_key, "-inf", now)
            pipe.zcard(self.live_key)
            if pipe.execute()[1] >= self.max_matches:
                raise StoreFull(f"{self.max_matches} live matches")
        keys = self.keys(match_id)
        created = self._create(keys=[keys[0], keys[1], keys[4]],
                               args=[record["version"], codec.encode_record(record), ttl,
                                     *(kept if kept is not None else ("", 0))]
                               + [codec.encode_event(ev) for ev in events])
        if not created:
            raise MatchExists(f"match {match_id} exists")
        if self.max_matches is not None:
            self.client.zadd(self.live_key, {match_id: now + ttl})

    @_guarded
    def load(self, match_id: str) -> dict[str, Any]:
        """The match's record (see :meth:`MatchStore.load`)."""
        raw = self.client.hget(self.keys(match_id)[0], "record")
        if raw is None:
            raise MatchNotFound(match_id)
        return codec.decode(raw)

    @_guarded
    def kept(self, match_id: str) -> str | None:
        """The sealed creation answer while its key lives (see :meth:`MatchStore.kept`)."""
        return self.client.get(self.keys(match_id)[4])

    @_guarded
    def load_along(self, match_id: str, calls: list[tuple[Any, ...]]
                   ) -> tuple[dict[str, Any] | None, list[Any]]:
        """The match's record (``None`` if there is none) and the replies to ``calls`` (Redis
        commands, e.g. the EVALSHA of a rate-limit counter; an error reply is returned as its
        exception), all in one round trip: a pipeline, whose commands a Cluster sends to the
        node of each key."""
        pipe = self.client.pipeline(transaction=False)
        for call in calls:
            pipe.execute_command(*call)
        pipe.hget(self.keys(match_id)[0], "record")
        *replies, raw = pipe.execute(raise_on_error=False)
        if isinstance(raw, Exception):
            raise raw
        return (None if raw is None else codec.decode(raw)), replies

    @_guarded
    def commit(self, match_id, expected_version, record, action, events, ttl,
               idempotency=None, checkpoint=None) -> None:
        """One Lua script (:data:`COMMIT`; see :meth:`MatchStore.commit`)."""
        key, response = idempotency if idempotency is not None else ("", None)
        kept = ((checkpoint[0], codec.encode_record(checkpoint[1])) if checkpoint is not None
                else ("", ""))
        args = [expected_version, record["version"], codec.encode_record(record), ttl, key,
                codec.compact(response), codec.compact(action), self.channel, match_id, *kept
                ] + [codec.encode_event(ev) for ev in events]
        keys = self.keys(match_id)
        outcome = self._commit(keys=keys[:4] + keys[5:], args=args)
        if outcome[0] == "missing":
            raise MatchNotFound(match_id)
        if outcome[0] == "recorded":
            raise AlreadyRecorded(key)
        if outcome[0] == "conflict":
            raise VersionConflict(int(outcome[1]))

    @_guarded
    def read(self, match_id: str, after: int = 0, count: int | None = None
             ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """One Lua read (:data:`READ`; see :meth:`MatchStore.read`)."""
        found = self._run(READ, self.keys(match_id)[:2], list(_span(after, count)))
        if not found:
            raise MatchNotFound(match_id)
        return codec.decode(found[0]), [codec.decode(item) for item in found[1]]

    @_guarded
    def events(self, match_id: str, after: int = 0, count: int | None = None
               ) -> list[dict[str, Any]]:
        """Events with ``seq`` > ``after`` (see :meth:`MatchStore.events`)."""
        return self._list(match_id, 1, *_span(after, count))

    @_guarded
    def actions(self, match_id: str, start: int = 0, count: int | None = None
                ) -> list[dict[str, Any]]:
        """History entries from ``start`` (see :meth:`MatchStore.actions`)."""
        return self._list(match_id, 2, *_span(start, count))

    @_guarded
    def checkpoint(self, match_id: str, version: int) -> dict[str, Any] | None:
        """The kept state of ``version`` (see :meth:`MatchStore.checkpoint`)."""
        raw = self._of_existing(match_id, lambda pipe, keys: pipe.hget(keys[5], version))
        return None if raw is None else codec.decode(raw)

    @_guarded
    def history_texts(self, match_id: str, start: int = 0, count: int | None = None
                      ) -> list[str]:
        """History entries from ``start`` as stored (see :meth:`MatchStore.history_texts`)."""
        return self._texts(match_id, 2, *_span(start, count))

    @_guarded
    def recorded(self, match_id: str, key: str) -> dict[str, Any] | None:
        """The response stored under ``key`` (see :meth:`MatchStore.recorded`)."""
        raw = self.client.hget(self.keys(match_id)[3], key)
        return None if raw is None else codec.decode(raw)

    @_guarded
    def delete(self, match_id: str) -> bool:
        """DEL every key of the match at once, then publish the notice (see
        :meth:`MatchStore.delete`)."""
        if self.max_matches is not None:
            self.client.zrem(self.live_key, match_id)
        deleted = self.client.delete(*self.keys(match_id))
        self.client.publish(self.channel, match_id)
        return deleted > 0

    @_guarded
    def count(self) -> int:
        """How many matches are live (SCAN of every master: O(keys), for a metrics scrape)."""
        return sum(1 for _ in self.client.scan_iter(match=f"{self.prefix}:match:{{*}}",
                                                     count=1000))

    def _list(self, match_id: str, which: int, start: int, stop: int = -1
              ) -> list[dict[str, Any]]:
        """Elements ``start`` to ``stop`` (-1: the last) of list key ``which`` of a match that
        exists (one round trip), decoded."""
        return [codec.decode(item) for item in self._texts(match_id, which, start, stop)]

    def _texts(self, match_id: str, which: int, start: int, stop: int = -1) -> list[str]:
        """:meth:`_list`'s elements as stored (text)."""
        return self._of_existing(
            match_id, lambda pipe, keys: pipe.lrange(keys[which], start, stop))

    def _of_existing(self, match_id: str, read) -> Any:
        """The reply of the one command ``read(pipeline, keys)`` queues (one of the match's
        keys), sent with an ``EXISTS`` of its record in one round trip;
        :class:`MatchNotFound` when the match does not exist."""
        keys = self.keys(match_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.exists(keys[0])
        read(pipe, keys)
        exists, reply = pipe.execute()
        if not exists:
            raise MatchNotFound(match_id)
        return reply


def _span(after: int, count: int | None) -> tuple[int, int]:
    """``LRANGE``'s start and stop of the ``count`` (at least 1) elements from index
    ``after`` (the events after ``seq`` ``after``; ``None``: all of them, stop -1)."""
    start = max(after, 0)
    if count is None:
        return start, -1
    return start, min(start + max(count, 1) - 1, 2 ** 63 - 1)  # a Redis index is 64-bit
