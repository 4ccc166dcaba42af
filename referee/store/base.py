"""The match store interface: where matches live between requests, and its errors.

A match is kept as four things, all expiring together after an idle TTL:

- the **record**: a JSON-compatible ``dict`` holding at least ``"version"`` (1 after
  creation, +1 per applied action) and whatever the match service keeps (state, token hashes,
  seed, commitment…);
- the **event log**: every event of every applied action, in order, each carrying its ``seq``,
  its 1-based position in the log (the caller numbers them) — :meth:`MatchStore.events`
  returns those after a given ``seq``;
- the **history**: one entry per commit, in order (a game action, or a step of a rollback
  or a rematch: see :mod:`referee.matches.disputes`); the audit replays it;
- the **idempotency records**: the first response to each ``Idempotency-Key``;
- the **kept states**: the record's state and line at some versions
  (:mod:`referee.matches.kept`), so a rollback replays a few hundred actions, not the match;
- the **creation answer**, when the match was created with an ``Idempotency-Key``: sealed
  (:mod:`referee.matches.sealed`) and kept only for a few minutes, apart from the rest.

Every update is one atomic compare-and-set (:meth:`MatchStore.commit`): either the record, the
new events, the history entry and the idempotency record are all written and the TTL refreshed,
or nothing is.  Each commit and delete also tells the store's :attr:`MatchStore.feed`, which
wakes the match's readers in every process (:mod:`referee.store.feed`).  Implementations: :class:`referee.store.memory.MemoryStore` (one process) and
:class:`referee.store.redis_store.RedisStore`.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from referee.store.feed import Feed


class StoreError(Exception):
    """Base of the store's errors."""


class StoreUnavailable(StoreError):
    """The backing store cannot be reached or refuses the write (HTTP 503
    ``store-unavailable``, ``Retry-After``); ``out_of_memory`` when it answered but refused
    the write for lack of memory (Redis ``OOM`` under ``maxmemory`` with ``noeviction``),
    ``read_only`` when it answered but refuses every write (Redis ``READONLY``: a replica,
    e.g. the old primary after a failover)."""

    def __init__(self, *args: object, out_of_memory: bool = False, read_only: bool = False):
        super().__init__(*args)
        self.out_of_memory = out_of_memory
        self.read_only = read_only


class StoreFull(StoreError):
    """The store holds as many live matches (or as many bytes) as it may: no new match now
    (HTTP 503 ``match-limit-reached``, ``Retry-After``)."""


class MatchNotFound(StoreError):
    """No match with this id (never created, deleted, or expired)."""


class VersionConflict(StoreError):
    """The match is no longer at the expected version; ``current`` is the version it is at."""

    def __init__(self, current: int):
        super().__init__(f"the match is at version {current}")
        self.current = current


class MatchExists(StoreError):
    """A match with this id exists already: nothing was written.  Random ids never collide
    in practice; an id derived from an ``Idempotency-Key`` does when the key is retried."""


class AlreadyRecorded(StoreError):
    """The idempotency key was recorded by another request first: nothing was written."""


class MatchStore(ABC):
    """Where matches live.  Every method may raise :class:`StoreUnavailable`.

    ``feed``: the :class:`~referee.store.feed.Feed` that wakes readers when a match changes.
    """

    feed: Feed

    @abstractmethod
    def ping(self) -> None:
        """Return when the store answers; raise :class:`StoreUnavailable` otherwise."""

    def ready(self) -> None:
        """Return when the store answers and accepts writes (``/readyz``); raise
        :class:`StoreUnavailable` otherwise.  By default :meth:`ping`."""
        self.ping()

    @abstractmethod
    def create(self, match_id: str, record: dict[str, Any], ttl: int,
               events: list[dict[str, Any]] = (),
               kept: tuple[str, int] | None = None) -> None:
        """Store a new match's record and its first ``events`` (the deal's, numbered from 1),
        expiring after ``ttl`` seconds, and with ``kept`` = ``(text, seconds)`` its creation
        answer (sealed), kept ``seconds`` only, in the same atomic step.  Raises
        :class:`StoreFull` when the store is at its cap of live matches, :class:`MatchExists`
        if ``match_id`` is taken (then nothing is written)."""

    @abstractmethod
    def kept(self, match_id: str) -> str | None:
        """The creation answer kept with the match (:meth:`create`), or ``None`` once its
        seconds are over (or the match was made without one, or is gone)."""

    @abstractmethod
    def load(self, match_id: str) -> dict[str, Any]:
        """Return the match's record.  Raises :class:`MatchNotFound`."""

    @abstractmethod
    def commit(self, match_id: str, expected_version: int, record: dict[str, Any],
               action: dict[str, Any], events: list[dict[str, Any]], ttl: int,
               idempotency: tuple[str, dict[str, Any]] | None = None,
               checkpoint: tuple[int, dict[str, Any]] | None = None) -> None:
        """Atomically replace the record if the match is still at ``expected_version``.

        In the same step: append ``events`` to the event log and ``action`` to the action
        list, store ``idempotency`` (``(scoped key, response record)``) and ``checkpoint``
        (``(version, kept state)``, read back by :meth:`checkpoint`) if given, and refresh
        the TTL of every key of the match to ``ttl`` seconds.  Raises
        :class:`MatchNotFound`, :class:`AlreadyRecorded` (the key was recorded first; checked
        before the version) or :class:`VersionConflict`; then nothing is written.
        """

    @abstractmethod
    def read(self, match_id: str, after: int = 0, count: int | None = None
             ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The record and the logged events with ``seq`` > ``after`` (the first ``count`` of
        them, at least 1; ``None``: all), as of one instant (one atomic read).  Raises
        :class:`MatchNotFound`."""

    @abstractmethod
    def events(self, match_id: str, after: int = 0, count: int | None = None
               ) -> list[dict[str, Any]]:
        """The logged events with ``seq`` greater than ``after``, in order (unfiltered): the
        first ``count`` of them (at least 1; ``None``: all), so that a page reads a bounded
        window of a long log, not the whole of it."""

    @abstractmethod
    def actions(self, match_id: str, start: int = 0, count: int | None = None
                ) -> list[dict[str, Any]]:
        """The history entries (one per commit), in order, from the ``start``-th (0: the
        first) on: ``count`` of them (at least 1; ``None``: all)."""

    @abstractmethod
    def checkpoint(self, match_id: str, version: int) -> dict[str, Any] | None:
        """The kept state written with the commit of ``version`` (:meth:`commit`), or
        ``None`` when none was.  Raises :class:`MatchNotFound`."""

    @abstractmethod
    def history_texts(self, match_id: str, start: int = 0, count: int | None = None
                      ) -> list[str]:
        """The history entries of :meth:`actions` as the JSON texts stored, undecoded (the
        audit cuts its answer from them: :mod:`referee.matches.audit`).  An entry this
        version wrote is :func:`referee.store.codec.compact`'s text of it (no space,
        ``\\u`` escapes, keys in insertion order); one an older version wrote into Redis may
        be ``json.dumps``' text with spaces (read both; :func:`referee.store.codec.decode`
        decodes either).  Raises :class:`MatchNotFound`."""

    @abstractmethod
    def recorded(self, match_id: str, key: str) -> dict[str, Any] | None:
        """The response record stored under the scoped idempotency ``key``, or ``None``."""

    @abstractmethod
    def delete(self, match_id: str) -> bool:
        """Delete every key of the match; ``True`` if it existed."""

    def count(self) -> int | None:
        """How many matches are live now (``None`` when the store cannot tell cheaply); read
        by a metrics scrape, never by a request."""
        return None
