"""Snapshots this process has already checked and passed (issue 11).

At a table every phone asks about the same snapshot after each move (its legal actions, then
``validate`` or ``apply`` of a proposal), and a snapshot's check (the type check of the game's
``StateSchema``, then the engine's ``check_snapshot``) is a pure function of the game and the
snapshot's JSON.  So :func:`referee.matches.loading.load_state` remembers the snapshots that passed,
and a snapshot it has passed before passes again without the check being run: the same verdict,
computed once.

- The key is a BLAKE2b digest (128 bits) of the game's name and the snapshot's JSON as orjson
  writes it, keys in the order sent: two snapshots share a key only if they are the same JSON
  (``1`` and ``1.0``, ``true`` and ``1``, any two strings that differ, are different bytes).
- Only passes are remembered: a refused snapshot is checked, and refused, every time.
- A snapshot orjson cannot write (an integer past 64 bits, which a request may hold up to the
  request guard's 80 digits) is not remembered: it is checked every time.  Nor is one that
  orjson writes as other JSON than it holds: NaN and the infinities (a request may hold
  ``NaN``, ``1e400``) are written ``null``, so a JSON text holding ``null`` is remembered only
  when it reads back equal to the snapshot (``"winner": NaN`` must not pass as the
  ``"winner": null`` that passed).
- The memo holds at most :data:`SIZE` digests (16 bytes each), per worker process, and is
  emptied whole when full.  ``REFEREE_SNAPSHOT_MEMO`` sets the size; ``0`` turns it off (every
  snapshot then checked, as ``bench`` measures the path of a new snapshot).
"""
from __future__ import annotations

import hashlib
import os
from typing import Any

import orjson

SIZE = 4096
"""Default number of remembered digests (``REFEREE_SNAPSHOT_MEMO``)."""


class CheckedMemo:
    """A bounded set of digests of snapshots that passed their check.

    ``key(game, state)`` → the digest (``bytes``) or ``None`` when ``state`` is not
    remembered (memo off, or JSON orjson cannot write exactly); ``key in memo``; ``memo.add(key)``.
    Thread-safe as far as it needs to be: a lookup and an insert are single dict operations,
    and a race at the size bound only empties the memo early."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._seen: dict[bytes, None] = {}

    def key(self, game: str, state: dict[str, Any], finite: bool | None = None
            ) -> bytes | None:
        """The digest of ``state`` for ``game``; ``None`` if it is not to be remembered.

        ``finite``: whether ``state`` is known to hold no NaN or infinity (the request
        guard notes every one it parses, ``g.json_nonfinite``: orjson refuses them, so they
        only come through the standard library's parser).  ``True`` spares the read-back
        test; ``False`` is never remembered; ``None`` (not known) reads the text back and
        compares whenever it holds ``null``."""
        if self.size <= 0 or finite is False:
            return None
        try:
            text = orjson.dumps(state)
        except (orjson.JSONEncodeError, TypeError):
            return None
        if finite is None and b"null" in text and orjson.loads(text) != state:
            return None  # a NaN or an infinity, written as null (never equal to None)
        digest = hashlib.blake2b(game.encode(), digest_size=16)
        digest.update(b"\0")
        digest.update(text)
        return digest.digest()

    def __contains__(self, key: bytes | None) -> bool:
        return key is not None and key in self._seen

    def add(self, key: bytes | None) -> None:
        """Remember a passed snapshot's ``key`` (``None``: nothing)."""
        if key is None:
            return
        if len(self._seen) >= self.size:
            self._seen.clear()
        self._seen[key] = None

    def clear(self) -> None:
        """Forget every snapshot."""
        self._seen.clear()


MEMO = CheckedMemo(int(os.environ.get("REFEREE_SNAPSHOT_MEMO", SIZE)))
"""The process's memo, used by :func:`referee.matches.loading.load_state`."""
