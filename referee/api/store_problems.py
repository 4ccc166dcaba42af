"""The answers of a match store that cannot take a call: 503 ``store-unavailable`` (the store
does not answer, or refuses writes: out of memory, read-only) and 503 ``match-limit-reached``
(it holds as many live matches as it may), each with ``Retry-After``; nothing was written.
Registered as the app's handlers of :class:`referee.store.StoreUnavailable` and
:class:`referee.store.StoreFull`."""
from __future__ import annotations

import logging

from flask import request

from referee.api.errors import problem_response
from referee.store import StoreFull, StoreUnavailable

log = logging.getLogger("referee.api")

RETRY_AFTER_SECONDS = 1
"""``Retry-After`` of a 503 ``store-unavailable``."""


def store_unavailable(exc: StoreUnavailable):
    """503 ``store-unavailable`` with ``Retry-After`` (nothing was written): the store does not
    answer, or it answers but refuses writes because it is out of memory
    (``exc.out_of_memory``) or read-only (``exc.read_only``: a replica).  Logged with the
    method, path and cause only."""
    log.warning("match store unavailable on %s %s: %s", request.method, request.path, exc)
    detail = ("The match store does not answer; try again shortly. The stateless /v1/games "
              "endpoints still work.")
    if getattr(exc, "out_of_memory", False):
        detail = ("The match store refuses writes: it is out of memory. Nothing was written; "
                  "try again later. The stateless /v1/games endpoints still work.")
    elif getattr(exc, "read_only", False):
        detail = ("The match store refuses writes: it is a read-only replica (as after a "
                  "failover). Nothing was written; try again shortly. The stateless /v1/games "
                  "endpoints still work.")
    return problem_response("store-unavailable", detail,
                            headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def store_full(exc: StoreFull):
    """503 ``match-limit-reached`` with ``Retry-After``: the store holds as many live matches
    as it may (``REFEREE_MAX_LIVE_MATCHES``, ``REFEREE_MEMORY_STORE_MAX_BYTES``); nothing was
    written."""
    log.warning("match store full on %s %s: %s", request.method, request.path, exc)
    return problem_response("match-limit-reached", "The service holds as many live matches as "
                            "it may; try again later.", headers={"Retry-After": "60"})
