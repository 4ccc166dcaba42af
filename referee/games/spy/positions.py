"""The position model of a spy base (shared/rules/spy.md, "Position model").

A base is a cyclic list ``c[0..n-1]`` counted from its holder's left, Spy excluded.  The Spy sits
in gap ``g`` (0 ≤ g < n), just left of ``c[g]``.  Facing right it faces ``c[g]``; facing left
``c[(g − 1) mod n]``.  Moving k spaces: right ``g := (g + k) mod n``, left ``g := (g − k) mod n``
(SPY-M1, SPY-M3: passing an end costs no movement).
"""
from __future__ import annotations

LEFT, RIGHT = "left", "right"
FACINGS = (LEFT, RIGHT)
MIRRORS = ("across", "same")


def faced_index(gap: int, facing: str, size: int) -> int:
    """Return the index of the card a Spy in ``gap`` facing ``facing`` faces (SPY-M3)."""
    return gap % size if facing == RIGHT else (gap - 1) % size


def moved_gap(gap: int, facing: str, steps: int, size: int) -> int:
    """Return the gap a Spy reaches moving ``steps`` spaces the way it faces (SPY-M1, SPY-M3)."""
    return (gap + steps) % size if facing == RIGHT else (gap - steps) % size


def turned_round(facing: str) -> str:
    """Return the other facing (SPY-M4)."""
    return LEFT if facing == RIGHT else RIGHT


def mirror_index(index: int, size: int, mirror: str) -> int:
    """Return the opponent's index spied on when your Spy faces your ``index`` (SPY-P1).

    ``mirror`` ``"across"`` (default) maps ``i`` to ``n − 1 − i``; ``"same"`` keeps ``i``.
    """
    return size - 1 - index if mirror == "across" else index
