"""The in-process match store: the embedded default when ``REDIS_URL`` is unset.

Everything lives in one dict guarded by a lock, so it is safe across the threads of one process
but not shared between processes (``referee serve`` keeps one worker without Redis).  Values
are kept as JSON text, as in Redis, so no caller ever holds a reference into the store (the
history entries as compact text, :func:`referee.store.codec.compact`, as Redis keeps them).
Expiry is checked lazily on every access against ``clock`` (``time.monotonic`` by default).
``max_matches`` and ``max_bytes`` (the JSON text kept, all matches together) cap what it holds:
a new match past either is :class:`StoreFull` (expired matches are swept first).
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from referee.store.base import (AlreadyRecorded, MatchExists, MatchNotFound, MatchStore,
                                StoreFull, VersionConflict)
from referee.store.codec import compact
from referee.store.feed import Feed


@dataclass
class _Entry:
    record: str
    expires_at: float
    events: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    recorded: dict[str, str] = field(default_factory=dict)
    checkpoints: dict[int, str] = field(default_factory=dict)
    size: int = 0
    kept: tuple[str, float] | None = None  # (sealed creation answer, when it goes)


class MemoryStore(MatchStore):
    """Matches in this process's memory (thread-safe)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 max_matches: int | None = None, max_bytes: int | None = None):
        self._clock = clock
        self._lock = threading.Lock()
        self._matches: dict[str, _Entry] = {}
        self.max_matches, self.max_bytes = max_matches, max_bytes
        self._bytes = 0  # JSON text held by every entry
        self.feed = Feed()

    def _full(self) -> bool:
        return ((self.max_matches is not None and len(self._matches) >= self.max_matches) or
                (self.max_bytes is not None and self._bytes >= self.max_bytes))

    def _sweep(self) -> None:
        """Drop every expired match (only when at a cap: it scans them all)."""
        now = self._clock()
        for match_id in [m for m, e in self._matches.items() if e.expires_at <= now]:
            self._drop(match_id)

    def _drop(self, match_id: str) -> None:
        self._bytes -= self._matches.pop(match_id).size

    def _grow(self, entry: _Entry, *texts: str) -> None:
        added = sum(map(len, texts))
        entry.size += added
        self._bytes += added

    def ping(self) -> None:
        """Always answers: the store is this process."""

    def _live(self, match_id: str) -> _Entry:
        entry = self._matches.get(match_id)
        if entry is not None and entry.expires_at <= self._clock():
            self._drop(match_id)
            entry = None
        if entry is None:
            raise MatchNotFound(match_id)
        return entry

    def create(self, match_id: str, record: dict[str, Any], ttl: int,
               events: list[dict[str, Any]] = (),
               kept: tuple[str, int] | None = None) -> None:
        """Store a new match (see :meth:`MatchStore.create`)."""
        with self._lock:
            try:
                self._live(match_id)
            except MatchNotFound:
                if self._full():
                    self._sweep()
                if self._full():
                    raise StoreFull(f"{len(self._matches)} matches, {self._bytes} bytes")
                entry = self._matches[match_id] = _Entry(json.dumps(record), self._clock() + ttl)
                entry.events = [json.dumps(ev) for ev in events]
                if kept is not None:
                    entry.kept = (kept[0], self._clock() + kept[1])
                self._grow(entry, entry.record, *entry.events, kept[0] if kept else "")
                return
        raise MatchExists(f"match {match_id} exists")

    def kept(self, match_id: str) -> str | None:
        """The sealed creation answer while it is kept (see :meth:`MatchStore.kept`)."""
        with self._lock:
            try:
                kept = self._live(match_id).kept
            except MatchNotFound:
                return None
        return kept[0] if kept is not None and kept[1] > self._clock() else None

    def load(self, match_id: str) -> dict[str, Any]:
        """The match's record (see :meth:`MatchStore.load`)."""
        with self._lock:
            return json.loads(self._live(match_id).record)

    def commit(self, match_id, expected_version, record, action, events, ttl,
               idempotency=None, checkpoint=None) -> None:
        """Compare-and-set under the lock (see :meth:`MatchStore.commit`)."""
        with self._lock:
            entry = self._live(match_id)
            if idempotency is not None and idempotency[0] in entry.recorded:
                raise AlreadyRecorded(idempotency[0])
            current = json.loads(entry.record)["version"]
            if current != expected_version:
                raise VersionConflict(current)
            old = len(entry.record)
            entry.record = json.dumps(record)
            new_events = [json.dumps(ev) for ev in events]
            entry.events += new_events
            entry.actions.append(compact(action))
            self._grow(entry, entry.record, entry.actions[-1], *new_events)
            entry.size -= old
            self._bytes -= old
            if idempotency is not None:
                entry.recorded[idempotency[0]] = json.dumps(idempotency[1])
                self._grow(entry, entry.recorded[idempotency[0]])
            if checkpoint is not None:
                entry.checkpoints[checkpoint[0]] = json.dumps(checkpoint[1])
                self._grow(entry, entry.checkpoints[checkpoint[0]])
            entry.expires_at = self._clock() + ttl
        self.feed.notify(match_id)

    def read(self, match_id: str, after: int = 0, count: int | None = None
             ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Record and events after ``after`` under one lock (see :meth:`MatchStore.read`)."""
        with self._lock:
            entry = self._live(match_id)
            return (json.loads(entry.record),
                    [json.loads(ev) for ev in entry.events[_window(after, count)]])

    def events(self, match_id: str, after: int = 0, count: int | None = None
               ) -> list[dict[str, Any]]:
        """Events with ``seq`` > ``after`` (see :meth:`MatchStore.events`)."""
        with self._lock:
            return [json.loads(ev) for ev in self._live(match_id).events[_window(after, count)]]

    def actions(self, match_id: str, start: int = 0, count: int | None = None
                ) -> list[dict[str, Any]]:
        """History entries from ``start`` (see :meth:`MatchStore.actions`)."""
        with self._lock:
            return [json.loads(a) for a in self._live(match_id).actions[_window(start, count)]]

    def checkpoint(self, match_id: str, version: int) -> dict[str, Any] | None:
        """The kept state of ``version`` (see :meth:`MatchStore.checkpoint`)."""
        with self._lock:
            raw = self._live(match_id).checkpoints.get(version)
        return None if raw is None else json.loads(raw)

    def history_texts(self, match_id: str, start: int = 0, count: int | None = None
                      ) -> list[str]:
        """History entries from ``start`` as stored (see :meth:`MatchStore.history_texts`)."""
        with self._lock:
            return self._live(match_id).actions[_window(start, count)]

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
            self._drop(match_id)
        self.feed.notify(match_id)
        return True


def _window(after: int, count: int | None) -> slice:
    """The positions of the ``count`` (at least 1) elements from index ``after`` (the events
    after ``seq`` ``after``; ``None``: all of them)."""
    start = max(after, 0)
    return slice(start, None if count is None else start + max(count, 1))
