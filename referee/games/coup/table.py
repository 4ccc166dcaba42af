"""Card knowledge: which face-down cards the referee knows, and what an ``"unknown"`` card may
still be (COUP-X1).

In digital mode every card is known and matching a named card is an exact match.  In table
mode a named character matches a known copy in the pool first; failing that, an unknown card,
provided a copy of that character is not already accounted for by the known cards (face-up
cards, known cards in hands, the court deck, the set-aside piles and an exchange's draw).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from referee.games.base import UNKNOWN
from referee.games.coup.cards import characters_in_game, copies_per_character


def card_locations(state: dict[str, Any]) -> Iterable[list[str]]:
    """Yield every list of cards of the state: hands, face-up cards, the court deck, the
    2-player piles and an exchange's draw (each card lives in exactly one of them)."""
    yield from state["hands"].values()
    yield from state["revealed"].values()
    yield state["court"]
    yield from state["piles"].values()
    yield state["turn"]["drawn"]


def known_counts(state: dict[str, Any]) -> Counter:
    """Count the known cards of each character anywhere in the state (COUP-X1)."""
    counts: Counter = Counter()
    for cards in card_locations(state):
        counts.update(c for c in cards if c != UNKNOWN)
    return counts


def possible_characters(state: dict[str, Any]) -> list[str]:
    """Return the characters an unknown card may still be: those with a copy unaccounted for."""
    copies = copies_per_character(len(state["players"]))
    known = known_counts(state)
    return [c for c in characters_in_game(state["options"]["exchanger"]) if known[c] < copies]


def take_cards(state: dict[str, Any], pool: list[str],
               named: list[str]) -> tuple[list[str], list[str]] | None:
    """Take the ``named`` cards out of ``pool`` (COUP-X1).

    Returns ``(rest of the pool, cards taken)`` where a taken unknown card becomes the named
    character, or ``None`` when the pool cannot hold them.  ``"unknown"`` names an unknown card.
    """
    rest = list(pool)
    taken = []
    by_unknown = []
    for card in named:
        if card != UNKNOWN and card in rest:
            rest.remove(card)
            taken.append(card)
        else:
            by_unknown.append(card)
    copies = copies_per_character(len(state["players"]))
    known = known_counts(state)
    allowed = set(characters_in_game(state["options"]["exchanger"])) | {UNKNOWN}
    for card in by_unknown:
        if UNKNOWN not in rest or card not in allowed:
            return None
        if card != UNKNOWN:
            if known[card] >= copies:
                return None
            known[card] += 1
        rest.remove(UNKNOWN)
        taken.append(card)
    return rest, taken


def can_take(state: dict[str, Any], pool: list[str], named: list[str]) -> bool:
    """True when :func:`take_cards` can take ``named`` out of ``pool``."""
    return take_cards(state, pool, named) is not None


def nameable_cards(state: dict[str, Any], pool: list[str]) -> list[str]:
    """Return, sorted, every card name one card of ``pool`` may be given: its known cards and,
    for an unknown card, every still possible character (COUP-X1)."""
    names = {c for c in pool if c != UNKNOWN}
    if UNKNOWN in pool:
        names.update(possible_characters(state))
    return sorted(names)
