"""One-pass set tests of a list of card names, for a snapshot check's usual case (issue 11):
the detailed per-card pass, which names each problem and its place, runs only when such a
test fails.  A JSON value is hashable unless it is a list or an object; an unhashable entry
fails the test (the detailed pass says what it makes of it).  Only a ``str`` equals a card
name, so ``1``, ``true`` or ``null`` is never taken for one."""
from __future__ import annotations

from typing import AbstractSet, Any, Sequence

from referee.games.base import UNKNOWN


def all_in(allowed: AbstractSet[str], items: Sequence[Any]) -> bool:
    """True when every entry of ``items`` is in ``allowed`` (card names); False when one is
    not, or is unhashable."""
    try:
        return allowed.issuperset(items)
    except TypeError:
        return False


def distinct_in(cards: Sequence[Any], deck: AbstractSet[str], unknown_ok: bool) -> bool:
    """True when every entry of ``cards`` — but ``"unknown"`` where ``unknown_ok`` — is a card
    of ``deck`` and none is there twice; False otherwise, or for an unhashable entry."""
    known = [card for card in cards if card != UNKNOWN] if unknown_ok else cards
    try:
        return len(set(known)) == len(known) and deck.issuperset(known)
    except TypeError:
        return False
