"""Seeded, reproducible shuffles: the only source of chance in every engine.

A seed is an integer (the service draws 256-bit ones) or a string.  ``shuffled(items, seed,
"deal", 3)`` always gives the same order for the same arguments on every machine, so a match
replays exactly from its seed and its action list (the audit of the matches API).
"""
from __future__ import annotations

import hashlib
import random
from typing import Sequence, TypeVar

T = TypeVar("T")


def rng(seed: int | str, *purpose: object) -> random.Random:
    """Return a ``random.Random`` derived from ``seed`` and a purpose path.

    Different purposes (``"deal", hand_no``; ``"court", step_no``) give independent streams.
    """
    material = ":".join(str(part) for part in (seed, *purpose)).encode()
    return random.Random(hashlib.sha256(material).digest())


def shuffled(items: Sequence[T], seed: int | str, *purpose: object) -> list[T]:
    """Return a new list with ``items`` in the order the seeded shuffle gives."""
    out = list(items)
    rng(seed, *purpose).shuffle(out)
    return out


def redealt(cards: Sequence[str], seed: int | str, *purpose: object) -> list[str]:
    """``cards`` dealt afresh: put in one fixed (sorted) order, then in the order the seeded
    shuffle gives.  The result depends on which cards they are and on ``seed`` alone, never on
    the order they were in (a rollback's reshuffle, ``Engine.reshuffle_hidden``)."""
    return shuffled(sorted(cards), seed, *purpose)
