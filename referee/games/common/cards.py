"""The standard 52-card French-suited pack: card codes, ranks and suits.

A card code is rank + suit: ranks ``2``–``10``, ``J``, ``Q``, ``K``, ``A``; suits ``C``, ``D``,
``H``, ``S`` (``"10H"``, ``"JS"``, ``"AD"``).  Ace is high.
"""
from __future__ import annotations

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
PACK = tuple(rank + suit for suit in SUITS for rank in RANKS)
PACK_SET = frozenset(PACK)
"""The 52 card codes, for membership tests."""


def is_card(value: object) -> bool:
    """True when ``value`` is the code of a card of the 52-card pack."""
    return isinstance(value, str) and value in PACK_SET


def rank_of(card: str) -> str:
    """Rank part of a card code (``"10H"`` → ``"10"``)."""
    return card[:-1]


def suit_of(card: str) -> str:
    """Suit letter of a card code (``"10H"`` → ``"H"``)."""
    return card[-1]


_RANK_VALUE = {rank: i for i, rank in enumerate(RANKS)}


def rank_value(card: str) -> int:
    """Rank order, 0 for a two up to 12 for an ace (A high, AF-D1)."""
    found = _RANK_VALUE.get(card[:-1])
    return RANKS.index(rank_of(card)) if found is None else found  # ValueError as before


def describe(card: str) -> str:
    """A card for people: ``"10H"`` → ``"10 of hearts"``."""
    names = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
    rank = rank_of(card)
    return f"{names.get(rank, rank)} of {SUIT_NAMES[suit_of(card)]}"
