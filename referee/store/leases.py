"""Leases: counted slots that expire unless renewed, shared by every worker and pod.

A *cap* is a key (say ``seat:<match>:s2`` or ``ip:203.0.113.7``) and a size: at most that many
leases may be held under the key at once.  :meth:`Leases.acquire` takes one lease under
several keys at once, all or none; :meth:`Leases.renew` keeps held leases alive;
:meth:`Leases.release` gives one back.  A lease not renewed for ``seconds`` lapses by itself,
so the slots of a process that died (``kill -9``, a lost pod) come back after at most that
long, never leaking.

Two implementations with the same behaviour: :class:`RedisLeases` (one sorted set per key,
member = lease id, score = expiry in milliseconds of the Redis server's clock, so pods whose
clocks differ agree; each call one Lua script) and :class:`MemoryLeases` (this process only).
Under Redis Cluster every key carries one hash tag (``{<prefix>:open}``): one script may
check and take them all atomically.
"""
from __future__ import annotations

import math
import threading
import time
from typing import Any, Callable, Sequence

ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then
    local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    return {i, tonumber(first[2]) - now}
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', key, ARGV[2])
end
return {0, 0}
"""
"""KEYS: the caps' keys.  ARGV: lease id, lease milliseconds, each key's size.  Returns ``{0,
0}`` when taken, else ``{i, ms}``: the 1-based index of the first full cap and the
milliseconds until its soonest lease lapses unless renewed."""

RENEW = """
local t = redis.call('TIME')
local expiry = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, expiry, ARGV[i + 1])
  redis.call('PEXPIRE', key, ARGV[1])
end
return #KEYS
"""
"""KEYS: one key per (key, lease) pair.  ARGV: lease milliseconds, then the lease id of each
key.  A lease that had lapsed (a renewal came too late) is counted again: it is still held."""

RELEASE = """
for i, key in ipairs(KEYS) do redis.call('ZREM', key, ARGV[1]) end
return 1
"""
"""KEYS: the lease's keys.  ARGV: the lease id."""


class Full(Exception):
    """No lease: the cap at ``index`` (of the keys given) is full; one of its leases lapses in
    ``retry_after`` seconds at the latest unless its holder renews it."""

    def __init__(self, index: int, retry_after: int):
        super().__init__(f"cap {index} is full")
        self.index, self.retry_after = index, retry_after


class Leases:
    """Leases lasting ``seconds`` unless renewed (see the module docstring)."""

    seconds: float

    def acquire(self, lease: str, caps: Sequence[tuple[str, int]]) -> None:
        """Take lease ``lease`` under every key of ``caps`` (``[(key, size)]``), or none:
        :class:`Full` naming the first full cap.  Store errors propagate."""
        raise NotImplementedError

    def renew(self, held: dict[str, Sequence[str]]) -> None:
        """Extend every lease of ``held`` (lease id → its keys) by :attr:`seconds` from now."""
        raise NotImplementedError

    def release(self, lease: str, keys: Sequence[str]) -> None:
        """Give lease ``lease`` back under ``keys``."""
        raise NotImplementedError

    def count(self, key: str) -> int:
        """How many live leases ``key`` holds now (tests, metrics)."""
        raise NotImplementedError


class RedisLeases(Leases):
    """Leases in Redis: ``connection()`` gives a redis-py client (single, Sentinel master or
    Cluster); every key is ``<prefix>:{<prefix>:open}:<key>`` (one Cluster slot)."""

    def __init__(self, connection: Callable[[], Any], prefix: str, seconds: float):
        self.connection, self.seconds = connection, seconds
        self._head = f"{prefix}:{{{prefix}:open}}:"
        self._scripts: dict[str, Any] = {}

    def _run(self, name: str, keys: list[str], args: list[Any]) -> Any:
        script = self._scripts.get(name)
        if script is None:  # registered once; EVALSHA, loaded again on NOSCRIPT by redis-py
            script = self._scripts[name] = self.connection().register_script(
                {"acquire": ACQUIRE, "renew": RENEW, "release": RELEASE}[name])
        return script(keys=keys, args=args)

    def key(self, key: str) -> str:
        """The Redis key of cap ``key``."""
        return self._head + key

    def _ms(self) -> int:
        return max(1, int(self.seconds * 1000))

    def acquire(self, lease: str, caps: Sequence[tuple[str, int]]) -> None:
        index, wait = self._run("acquire", [self.key(k) for k, _ in caps],
                                [lease, self._ms(), *(size for _, size in caps)])
        if int(index):
            raise Full(int(index) - 1, max(1, math.ceil(int(wait) / 1000)))

    def renew(self, held: dict[str, Sequence[str]]) -> None:
        pairs = [(self.key(k), lease) for lease, keys in held.items() for k in keys]
        if pairs:
            self._run("renew", [k for k, _ in pairs], [self._ms(), *(le for _, le in pairs)])

    def release(self, lease: str, keys: Sequence[str]) -> None:
        self._run("release", [self.key(k) for k in keys], [lease])

    def count(self, key: str) -> int:
        now_ms = int(time.time() * 1000)  # the test's clock: close enough to the server's
        return int(self.connection().zcount(self.key(key), now_ms, "+inf"))


class MemoryLeases(Leases):
    """Leases in this process (no Redis): the same rules, ``clock`` seconds (monotonic)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic):
        self.seconds, self._clock = seconds, clock
        self._lock = threading.Lock()
        self._caps: dict[str, dict[str, float]] = {}  # key -> lease id -> expiry

    def _live(self, key: str, now: float) -> dict[str, float]:
        held = self._caps.get(key, {})
        for lease in [le for le, expiry in held.items() if expiry <= now]:
            del held[lease]
        return held

    def acquire(self, lease: str, caps: Sequence[tuple[str, int]]) -> None:
        with self._lock:
            now = self._clock()
            for index, (key, size) in enumerate(caps):
                held = self._live(key, now)
                if len(held) >= size:
                    raise Full(index, max(1, math.ceil(min(held.values()) - now)))
            for key, _ in caps:
                self._caps.setdefault(key, {})[lease] = now + self.seconds

    def renew(self, held: dict[str, Sequence[str]]) -> None:
        with self._lock:
            expiry = self._clock() + self.seconds
            for lease, keys in held.items():
                for key in keys:
                    self._caps.setdefault(key, {})[lease] = expiry

    def release(self, lease: str, keys: Sequence[str]) -> None:
        with self._lock:
            for key in keys:
                held = self._caps.get(key)
                if held is not None:
                    held.pop(lease, None)
                    if not held:
                        del self._caps[key]

    def count(self, key: str) -> int:
        with self._lock:
            return len(self._live(key, self._clock()))
