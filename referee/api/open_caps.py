"""Caps on what one client holds open: streams (``…/stream``) and long-polls (``…/events?wait=``
with ``wait`` > 0) at once, per token and per client address.

| setting | counts | default |
| --- | --- | --- |
| ``REFEREE_STREAMS_PER_TOKEN`` | open streams and long-polls read with one seat or host token (or a stream ticket of it: a ticket counts as its token) | 8 |
| ``REFEREE_STREAMS_PER_ADDRESS`` | open streams and long-polls of one client address (``request.remote_addr``, after ``ProxyFix``), whatever the token | 64 |
| ``REFEREE_STREAM_LEASE_SECONDS`` | how long an open one's slot lasts unless renewed | 60 |

``0`` turns a cap off; ``REFEREE_RATE_LIMITS=off`` turns both off.  Each open stream or
long-poll holds a lease (:mod:`referee.store.leases`) under its token's cap and its address's,
taken when it opens (both or neither) and given back when it ends.  The leases are counted where
the match budgets are (:func:`referee.api.ratelimits.storage`: the Redis of ``REDIS_URL`` or
``REFEREE_RATELIMIT_STORAGE_URI``, so the caps hold across every worker and pod; in the process
otherwise).  A process renews the leases it holds every third of their length
(:class:`Keeper`, one round trip for all of them), so those of a worker that dies lapse
within ``REFEREE_STREAM_LEASE_SECONDS`` instead of holding their slots for ever.

The host's read of a match says how many each seat holds open now (``connections``,
:meth:`OpenCaps.connections`), counted from the same leases.

The next one past a cap answers 429 ``too-many-streams``, naming the cap (``cap``:
``streams-per-token`` or ``streams-per-address``, ``limit``: its size) with ``Retry-After``:
the seconds until the soonest of its leases lapses if its holder stops renewing it.  A limit
storage that does not answer lets the stream open uncounted (logged), as the budgets do.
"""
from __future__ import annotations

import logging
import os
import secrets
import threading
from typing import Any, Mapping

from referee.api.errors import Problem
from referee.store.leases import Full, Leases, MemoryLeases, RedisLeases

log = logging.getLogger("referee.limits")

DEFAULTS = {"STREAMS_PER_TOKEN": 8, "STREAMS_PER_ADDRESS": 64, "STREAM_LEASE_SECONDS": 60}


def settings(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Flask config of the caps from ``env`` (default ``os.environ``)."""
    env = os.environ if env is None else env
    out: dict[str, Any] = {name: int(env.get(f"REFEREE_{name}") or value)
                           for name, value in DEFAULTS.items() if name != "STREAM_LEASE_SECONDS"}
    out["STREAM_LEASE_SECONDS"] = float(env.get("REFEREE_STREAM_LEASE_SECONDS") or
                                        DEFAULTS["STREAM_LEASE_SECONDS"])
    return out


class Lease:
    """One open stream's or long-poll's slot under its caps; :meth:`release` gives it back
    (once; later calls do nothing)."""

    def __init__(self, caps: "OpenCaps | None" = None, lease: str = "",
                 keys: tuple[str, ...] = ()):
        self._caps, self.id, self.keys = caps, lease, keys

    def release(self) -> None:
        """Give the slot back (the keeper stops renewing it)."""
        caps, self._caps = self._caps, None
        if caps is not None:
            caps.release(self)


class Keeper:
    """Renews the leases this process holds, every third of their length, in one call for
    all of them, on a thread (a greenlet under gevent) that runs while any is held."""

    def __init__(self, leases: Leases):
        self.leases = leases
        self.held: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def hold(self, lease: Lease) -> None:
        """Keep ``lease`` alive from now on."""
        with self._lock:
            self.held[lease.id] = lease.keys
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="lease-keeper",
                                                daemon=True)
                self._thread.start()

    def drop(self, lease: Lease) -> None:
        """Stop renewing ``lease``."""
        with self._lock:
            self.held.pop(lease.id, None)

    def _run(self) -> None:
        while True:
            self._wake.wait(self.leases.seconds / 3)
            with self._lock:
                held = dict(self.held)
                if not held:
                    self._thread = None
                    return
            try:
                self.leases.renew(held)
            except Exception as exc:  # noqa: BLE001 - a renewal missed: retried next time
                log.warning("stream leases not renewed (limit storage: %s)",
                            type(exc).__name__)


MAX_UNRELEASED = 10_000
"""Leases whose release failed that a process remembers to give back (more lapse alone)."""


class OpenCaps:
    """The caps of one app: ``per_token`` and ``per_address`` (``0``: no such cap), counted
    in ``leases``."""

    def __init__(self, leases: Leases, per_token: int, per_address: int):
        self.leases, self.per_token, self.per_address = leases, per_token, per_address
        self.keeper = Keeper(leases)
        self._unreleased: dict[str, tuple[str, ...]] = {}  # lease id -> its cap keys
        self._lock = threading.Lock()

    def open(self, token_hash: str | None, address: str) -> Lease:
        """A lease for one stream or long-poll of the token whose stored hash is
        ``token_hash`` (``None``: the public, no token cap) from ``address``; 429
        ``too-many-streams`` when a cap is full."""
        caps = []
        if token_hash is not None and self.per_token > 0:
            caps.append(("streams-per-token", _token_key(token_hash), self.per_token))
        if self.per_address > 0:
            caps.append(("streams-per-address", f"ip:{address}", self.per_address))
        if not caps:
            return Lease()
        self._release_unreleased()
        lease = Lease(self, secrets.token_hex(8), tuple(key for _, key, _ in caps))
        try:
            self.leases.acquire(lease.id, [(key, size) for _, key, size in caps])
        except Full as full:
            name, _, size = caps[full.index]
            raise _too_many(name, size, full.retry_after) from None
        except Exception as exc:  # noqa: BLE001 - fail open, as the budgets do
            log.warning("stream caps not counted (limit storage: %s); stream let through",
                        type(exc).__name__)
            return Lease()
        self.keeper.hold(lease)
        return lease

    def connections(self, record: dict[str, Any]) -> dict[str, int] | None:
        """How many streams and long-polls each seat of match ``record`` holds open now (its
        token's leases, a ticket's counted as its token's; ``0`` for a seat not yet claimed),
        in seat order: ``{"ana": 1, "ben": 0}``.  ``None`` when they are not counted (no cap
        per token) or the limit storage does not answer.  A stream whose phone went away
        counts until the server sees it closed (its next heartbeat) or its lease lapses."""
        if self.per_token <= 0:
            return None
        seats = record["seats"]
        try:
            return {seat: self.leases.count(_token_key(seats[seat])) if seats.get(seat) else 0
                    for seat in record["players"]}
        except Exception as exc:  # noqa: BLE001 - unknown, not a failed read
            log.warning("open streams not counted (limit storage: %s)", type(exc).__name__)
            return None

    def release(self, lease: Lease) -> None:
        """Give ``lease`` back (a storage error leaves it to lapse by itself)."""
        self.keeper.drop(lease)
        try:
            self.leases.release(lease.id, lease.keys)
        except Exception as exc:  # noqa: BLE001 - given back later, or it lapses
            log.warning("stream lease not released (limit storage: %s); given back at the "
                        "next stream opened here, or it lapses", type(exc).__name__)
            with self._lock:
                if len(self._unreleased) < MAX_UNRELEASED:
                    self._unreleased[lease.id] = lease.keys

    def _release_unreleased(self) -> None:
        """Give back the leases whose release failed (the limit storage was down when their
        streams ended), before a new one is counted: a seat whose streams a Redis restart
        ended is not held at its cap until they lapse.  Those that fail again stay."""
        with self._lock:
            pending, self._unreleased = self._unreleased, {}
        for lease, keys in pending.items():
            try:
                self.leases.release(lease, keys)
            except Exception:  # noqa: BLE001 - the storage is still down: later, or it lapses
                with self._lock:
                    self._unreleased[lease] = keys


def _token_key(token_hash: str) -> str:
    """The cap key of the token whose stored hash is ``token_hash``."""
    return f"token:{token_hash[:32]}"


def _too_many(cap: str, size: int, wait: int) -> Problem:
    if cap == "streams-per-token":
        detail = (f"Too many open streams for this token: it may hold {size} streams and "
                  f"long-polls at once; close one, or retry in {wait} seconds.")
        field = "Authorization"
    else:
        detail = (f"Too many open streams from this address: it may hold {size} streams and "
                  f"long-polls at once; close one, or retry in {wait} seconds.")
        field = "client"
    return Problem("too-many-streams", detail, cap=cap, limit=size,
                   errors=[{"field": field, "message": f"{size} streams already open"}],
                   headers={"Retry-After": str(wait)})


def make(config: Mapping[str, Any], storage: Any, prefix: str) -> OpenCaps | None:
    """The app's caps, counted in the limit ``storage`` (a ``limits`` storage: Redis ones
    share the leases, any other counts in this process), or ``None`` when both caps are off."""
    per_token, per_address = config["STREAMS_PER_TOKEN"], config["STREAMS_PER_ADDRESS"]
    if per_token <= 0 and per_address <= 0:
        return None
    seconds = config["STREAM_LEASE_SECONDS"]
    if hasattr(storage, "get_connection"):
        leases: Leases = RedisLeases(storage.get_connection, prefix, seconds)
    else:
        leases = MemoryLeases(seconds)
    return OpenCaps(leases, per_token, per_address)
