"""Where matches live: :func:`make_store` picks Redis when ``REDIS_URL`` is set, else memory.

``base`` the interface (atomic compare-and-set :meth:`MatchStore.commit`), ``redis_store`` and
``memory`` its two implementations, ``feed`` the change feed streams wait on, ``codec`` the
stored JSON, ``connect`` / ``readiness`` the Redis connection and its health.

Layer 1.  May import: ``referee.games``, and its own layer: ``referee.store``, ``referee.i18n``,
``referee.rulebook``, ``referee.schemas``, ``referee.registry``, ``referee.ops``,
``referee.refusals``, ``referee.json_digits``; never ``referee.matches``, ``referee.api`` or
``referee.serving`` (``tests/test_layers.py``).
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.store.base import (AlreadyRecorded, MatchExists, MatchNotFound, MatchStore,
                                StoreError, StoreFull, StoreUnavailable, VersionConflict)
from referee.store.memory import MemoryStore

__all__ = ["AlreadyRecorded", "MatchExists", "MatchNotFound", "MatchStore", "MemoryStore",
           "StoreError", "StoreFull", "StoreUnavailable", "VersionConflict", "make_store"]


def make_store(config: Mapping[str, Any]) -> MatchStore:
    """The store for ``config``: a :class:`~referee.store.redis_store.RedisStore` on
    ``REDIS_URL`` (any topology of :mod:`referee.store.connect`; keys under
    ``REDIS_KEY_PREFIX``, default ``referee``; ``REDIS_WAIT_REPLICAS`` replicas acknowledge
    each update) when it is set, else an in-process :class:`MemoryStore`.  Connects lazily:
    no Redis call happens here.  Raises :class:`ValueError` for a ``REDIS_URL`` of an unknown
    scheme.
    ``MAX_LIVE_MATCHES`` caps the live matches of either; ``MEMORY_STORE_MAX_BYTES`` the
    in-process store's size."""
    url = config.get("REDIS_URL")
    cap = config.get("MAX_LIVE_MATCHES")
    if not url:
        return MemoryStore(max_matches=cap, max_bytes=config.get("MEMORY_STORE_MAX_BYTES"))
    from referee.store.redis_store import RedisStore
    return RedisStore(url, prefix=config.get("REDIS_KEY_PREFIX") or "referee",
                      wait_replicas=int(config.get("REDIS_WAIT_REPLICAS") or 0),
                      max_matches=cap)
