"""Where matches live: :func:`make_store` picks Redis when ``REDIS_URL`` is set, else memory."""
from __future__ import annotations

from typing import Any, Mapping

from referee.store.base import (AlreadyRecorded, MatchNotFound, MatchStore, StoreError,
                                StoreUnavailable, VersionConflict)
from referee.store.memory import MemoryStore

__all__ = ["AlreadyRecorded", "MatchNotFound", "MatchStore", "MemoryStore", "StoreError",
           "StoreUnavailable", "VersionConflict", "make_store"]


def make_store(config: Mapping[str, Any]) -> MatchStore:
    """The store for ``config``: a :class:`~referee.store.redis_store.RedisStore` on
    ``REDIS_URL`` (keys under ``REDIS_KEY_PREFIX``, default ``referee``) when it is set, else
    an in-process :class:`MemoryStore`.  Connects lazily: no Redis call happens here."""
    url = config.get("REDIS_URL")
    if not url:
        return MemoryStore()
    from referee.store.redis_store import RedisStore
    return RedisStore(url, prefix=config.get("REDIS_KEY_PREFIX") or "referee")
