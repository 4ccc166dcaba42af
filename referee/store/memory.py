"""The in-process match store: the embedded default when ``REDIS_URL`` is unset.

Everything lives in one dict guarded by a lock, so it is safe across the threads of one process
but not shared between processes (``referee serve`` keeps one worker without Redis).  Values
are kept as JSON text, as in Redis, so no caller ever holds a reference into the store.
Expiry is checked lazily on every access against ``clock`` (``time.monotonic`` by default).
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from referee.store.base import (AlreadyRecorded, MatchNotFound, MatchStore, StoreError,
                                VersionConflict)


@dataclass
class _Entry:
    record: str
    expires_at: float
    events: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    recorded: dict[str, str] = field(default_factory=dict)


class MemoryStore(MatchStore):
    """Matches in this process's memory (thread-safe)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self._matches: dict[str, _Entry] = {}

    def ping(self) -> None:
        """Always answers: the store is this process."""

    def _live(self, match_id: str) -> _Entry:
        entry = self._matches.get(match_id)
        if entry is not None and entry.expires_at <= self._clock():
            del self._matches[match_id]
            entry = None
        if entry is None:
            raise MatchNotFound(match_id)
        return entry

    def create(self, match_id: str, record: dict[str, Any], ttl: int) -> None:
        """Store a new match (see :meth:`MatchStore.create`)."""
        with self._lock:
            try:
                self._live(match_id)
            except MatchNotFound:
                self._matches[match_id] = _Entry(json.dumps(record), self._clock() + ttl)
                return
        raise StoreError(f"match {match_id} exists")

    def load(self, match_id: str) -> dict[str, Any]:
        """The match's record (see :meth:`MatchStore.load`)."""
        with self._lock:
            return json.loads(self._live(match_id).record)

    def commit(self, match_id, expected_version, record, action, events, ttl,
               idempotency=None) -> None:
        """Compare-and-set under the lock (see :meth:`MatchStore.commit`)."""
        with self._lock:
            entry = self._live(match_id)
            if idempotency is not None and idempotency[0] in entry.recorded:
                raise AlreadyRecorded(idempotency[0])
            current = json.loads(entry.record)["version"]
            if current != expected_version:
                raise VersionConflict(current)
            entry.record = json.dumps(record)
            entry.events += [json.dumps(ev) for ev in events]
            entry.actions.append(json.dumps(action))
            if idempotency is not None:
                entry.recorded[idempotency[0]] = json.dumps(idempotency[1])
            entry.expires_at = self._clock() + ttl

    def events(self, match_id: str, after: int = 0) -> list[dict[str, Any]]:
        """Events with ``seq`` > ``after`` (see :meth:`MatchStore.events`)."""
        with self._lock:
            return [json.loads(ev) for ev in self._live(match_id).events[max(after, 0):]]

    def actions(self, match_id: str) -> list[dict[str, Any]]:
        """Every applied action (see :meth:`MatchStore.actions`)."""
        with self._lock:
            return [json.loads(a) for a in self._live(match_id).actions]

    def recorded(self, match_id: str, key: str) -> dict[str, Any] | None:
        """The response stored under ``key`` (see :meth:`MatchStore.recorded`)."""
        with self._lock:
            raw = self._live(match_id).recorded.get(key)
        return None if raw is None else json.loads(raw)

    def count(self) -> int:
        """How many matches have not expired (see :meth:`MatchStore.count`)."""
        now = self._clock()
        with self._lock:
            return sum(1 for entry in list(self._matches.values()) if entry.expires_at > now)

    def delete(self, match_id: str) -> bool:
        """Forget the match (see :meth:`MatchStore.delete`)."""
        with self._lock:
            try:
                self._live(match_id)
            except MatchNotFound:
                return False
            del self._matches[match_id]
            return True
