"""``Idempotency-Key``: a retried request is applied once and answered the same.

A key is 1–255 visible ASCII characters (a UUID is a good choice), scoped to the caller (two
seats never collide).  The store keeps, under the scoped key, a fingerprint of the request and
its first 200 answer, written in the same atomic commit as the change it made
(:meth:`referee.store.MatchStore.commit`); a retry with the same key and the same request gets
that answer again (``Idempotent-Replayed: true``), with another request 422
``idempotency-key-reused``.  Refusals are not recorded, so a corrected retry may pass.  Match
actions and every rollback step (propose, withdraw, vote) take a key.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any

from referee.matches.callers import Caller
from referee.refusals import IdempotencyKeyReused, InvalidInput

IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")
"""An ``Idempotency-Key``: 1–255 visible ASCII characters (a UUID is a good choice)."""


def fingerprint(data: Any) -> str:
    """SHA-256 hex of ``data`` as canonical JSON (sorted keys, no spaces): what an
    idempotency record remembers of its request."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":"))
                          .encode()).hexdigest()


@dataclass(frozen=True)
class Once:
    """One keyed request: the scoped key it is stored under and its fingerprint."""

    scoped: str
    request: str

    def record(self, body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """What the store keeps of its 200 answer ``body``."""
        return self.scoped, {"request": self.request, "status": 200, "body": body}


def once(caller: Caller, key: str | None, request: Any) -> Once | None:
    """The :class:`Once` of ``key`` sent by ``caller`` for ``request`` (any JSON data naming
    the operation and its input), or ``None`` without a key; 422 ``invalid-input`` for a key
    that is not 1-255 visible ASCII characters."""
    if key is None:
        return None
    if not IDEMPOTENCY_KEY.fullmatch(key):
        raise InvalidInput("Idempotency-Key must be 1-255 visible ASCII "
                           "characters.", errors=[{"field": "Idempotency-Key",
                                                   "message": "not 1-255 visible ASCII characters"}])
    scoped = hashlib.sha256(f"{caller.role}:{caller.seat or ''}\n{key}".encode()).hexdigest()
    return Once(scoped, fingerprint(request))


def replay(prior: dict[str, Any], keyed: Once) -> tuple[int, dict[str, Any], bool]:
    """``(status, body, True)``: the first answer to ``keyed``'s key, or 422
    ``idempotency-key-reused`` when this request differs from the one that used it."""
    if not hmac.compare_digest(prior["request"], keyed.request):
        raise IdempotencyKeyReused("This Idempotency-Key was used for another "
                                   "request (another body, version or endpoint); use a new key.",
                                   errors=[{"field": "Idempotency-Key",
                                            "message": "already used"}])
    return prior["status"], prior["body"], True
