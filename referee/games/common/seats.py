"""Seat order helpers: who plays after whom, skipping players who are out."""
from __future__ import annotations

from typing import Container, Sequence


def next_seat(players: Sequence[str], current: str, out: Container[str] = ()) -> str:
    """Return the next player after ``current`` in seat (play) order, skipping ``out``.

    Raises ``ValueError`` if every other player is out.
    """
    n = len(players)
    start = players.index(current)
    for step in range(1, n + 1):
        candidate = players[(start + step) % n]
        if candidate not in out:
            return candidate
    raise ValueError("no player left to move")
