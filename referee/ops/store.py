"""Instrumentation of the match store, without wrapping it (tests and callers keep the store
object itself): each public method of the instance is replaced by one that notes the match
served (id, game, version) for the logs and the verdict metric, counts created matches, and
counts :class:`~referee.store.StoreUnavailable` failures by operation."""
from __future__ import annotations

import functools

from flask import g, has_request_context

from referee.ops import metrics
from referee.store import MatchStore, StoreUnavailable

OPERATIONS = ("ping", "ready", "create", "load", "load_along", "commit", "events", "actions",
              "history_texts", "checkpoint", "read", "recorded", "kept", "delete")
"""The methods instrumented (``load_along``: a store that has it, the Redis one)."""


def _note(match_id: str, record: dict) -> None:
    if has_request_context():
        g.referee_match = (match_id, record.get("game"), record.get("version"))


def instrument(store: MatchStore) -> MatchStore:
    """Instrument ``store`` in place (see the module docstring) and return it."""
    for name in OPERATIONS:
        method = getattr(store, name, None)
        if method is None:
            continue

        @functools.wraps(method)
        def counted(*args, _method=method, _name=name, **kwargs):
            try:
                result = _method(*args, **kwargs)
            except StoreUnavailable:
                metrics.STORE_ERRORS.labels(_name).inc()
                raise
            if _name == "load":
                _note(args[0], result)
            elif _name == "load_along" and result[0] is not None:
                _note(args[0], result[0])
            elif _name == "commit":
                _note(args[0], kwargs.get("record") or args[2])
            elif _name == "create":
                record = kwargs.get("record") or args[1]
                _note(args[0], record)
                metrics.MATCHES_CREATED.labels(record.get("game", "unknown")).inc()
            return result
        setattr(store, name, counted)
    return store
