"""The Gnoming A Round deck (GN-C1) and the facts about its cards and layouts.

Cards are strings: ``"3"``…``"8"`` (positive), ``"-1"``…``"-4"`` (negative), ``"M"`` (Mulligan)
and ``"H"`` (Hazard).  A layout is 3×3; positions are ``(row, col)`` with row 0 at the top.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from referee.games.base import UNKNOWN

MULLIGAN = "M"
HAZARD = "H"

POSITIVE_COUNTS = {"3": 14, "4": 14, "5": 14, "6": 14, "7": 13, "8": 13}
NEGATIVE_COUNTS = {"-1": 6, "-2": 8, "-3": 5, "-4": 3}
DECK_COUNTS: dict[str, int] = {**POSITIVE_COUNTS, **NEGATIVE_COUNTS, MULLIGAN: 3, HAZARD: 3}
"""GN-C1: how many of each card the 110-card deck holds (82 positive, 22 negative, 6 special)."""

CARD_NAMES = frozenset(DECK_COUNTS)
"""The card names of the GN-C1 deck, for set tests."""
DECK: tuple[str, ...] = tuple(card for card, n in DECK_COUNTS.items() for _ in range(n))
DECK_SIZE = len(DECK)  # 110

SIZE = 3
POSITIONS: tuple[tuple[int, int], ...] = tuple((r, c) for r in range(SIZE) for c in range(SIZE))
LINES: tuple[tuple[str, int, tuple[tuple[int, int], ...]], ...] = (
    tuple(("row", i, tuple((i, c) for c in range(SIZE))) for i in range(SIZE))
    + tuple(("column", i, tuple((r, i) for r in range(SIZE))) for i in range(SIZE)))
"""The six lines of a layout (GN-P1): ``(kind, index, positions)``."""

HAZARD_POINTS = 10  # GN-P6
OUT_FIRST_BONUS = 5  # GN-P7
CARDS_TEXT = ", ".join(f'"{card}"' for card in DECK_COUNTS)


def is_card(card: Any) -> bool:
    """True for a card name of the GN-C1 deck (not ``"unknown"``)."""
    return isinstance(card, str) and card in DECK_COUNTS


def is_positive(card: str) -> bool:
    """True for ``"3"``…``"8"``: the cards that score face value and form sets (GN-P1, P2)."""
    return card in POSITIVE_COUNTS


def is_negative(card: str) -> bool:
    """True for ``"-1"``…``"-4"``: always scored at face value (GN-P3)."""
    return card in NEGATIVE_COUNTS


def value(card: str) -> int:
    """Face value of a positive or negative card; ``ValueError`` for ``"M"`` and ``"H"``."""
    if card in POSITIVE_COUNTS or card in NEGATIVE_COUNTS:
        return int(card)
    raise ValueError(f"card {card!r} has no face value")


def over_deck(cards: Iterable[str]) -> list[dict[str, Any]]:
    """Message params ``{count, card, copies}`` (``card`` quoted) of every card seen more often
    than the GN-C1 deck holds it (``"unknown"`` is not counted)."""
    counts = Counter(cards)
    counts.pop(UNKNOWN, None)
    return [{"count": counts[card], "entered": repr(card), "copies": DECK_COUNTS[card]}
            for card in DECK_COUNTS if counts[card] > DECK_COUNTS[card]]


def is_position(pos: Any) -> bool:
    """True for ``[row, col]`` (list or tuple) with both in 0–2."""
    return (isinstance(pos, (list, tuple)) and len(pos) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < SIZE
                    for x in pos))


def pos_name(pos: Iterable[int]) -> str:
    """``[1, 2]`` → ``"(1, 2)"`` for messages."""
    r, c = pos
    return f"({r}, {c})"
