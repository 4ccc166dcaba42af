"""Table mode (GN-X1): which cards a card turned up at the table may be.

In table mode face-down layout cards and the draw pile are ``"unknown"`` until a card is
turned up; the card is then entered (``flip``/``place``/``draw``/``discard`` with ``card``) and
must still be possible: the deck of GN-C1 minus every card already seen this round.  After a
GN-D5 reshuffle the draw pile holds known cards (in unknown order): a card drawn then must be
one of them.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from referee.games.base import UNKNOWN
from referee.games.gnoming.rules import DECK_COUNTS


def seen_counts(state: dict[str, Any]) -> Counter:
    """Count every card of the round whose place is known: face-up (or known) layout cards,
    known draw-pile cards, the discard piles, removed Hazards and the card in hand."""
    cards = [cell["card"] for grid in state["layouts"].values() for row in grid for cell in row]
    cards += state["draw_pile"] + state["removed"]
    cards += [card for pile in state["discard_piles"] for card in pile]
    holding = state["turn"]["holding"]
    if holding is not None:
        cards.append(holding)
    return Counter(card for card in cards if card != UNKNOWN)


def unseen(state: dict[str, Any]) -> list[str]:
    """Distinct cards (deck order) not all of whose copies are seen: what an unknown card may be."""
    seen = seen_counts(state)
    return [card for card, n in DECK_COUNTS.items() if seen[card] < n]


def reshuffle_source(state: dict[str, Any]) -> list[str]:
    """The cards a GN-D5 reshuffle would make the draw pile: both discard piles but their tops."""
    return [card for pile in state["discard_piles"] for card in pile[:-1]]


def possible_from_draw_pile(state: dict[str, Any]) -> list[str]:
    """Distinct cards the top of the draw pile may be (after a GN-D5 reshuffle if it is empty)."""
    pile = state["draw_pile"] or reshuffle_source(state)
    known = {card for card in pile if card != UNKNOWN}
    options = set(unseen(state)) if UNKNOWN in pile else set()
    return [card for card in DECK_COUNTS if card in known | options]


def entered_card_problem(state: dict[str, Any], card: str, place: str
                         ) -> tuple[str, dict[str, Any]] | None:
    """``(code, params)`` of the message when ``card`` cannot be the card turned up at ``place`` (``"face_down"``: an
    unknown layout card; ``"draw_pile"``: the top of the draw pile), else ``None`` (GN-X1)."""
    if place == "draw_pile":
        possible = possible_from_draw_pile(state)
        if card in possible:
            return None
        if UNKNOWN not in (state["draw_pile"] or reshuffle_source(state)):
            return ("gnoming.table.not_in_reshuffle",
                    {"possible": ", ".join(possible) or "no card", "entered": repr(card)})
    elif card in unseen(state):
        return None
    return ("gnoming.table.all_seen", {"entered": repr(card), "copies": DECK_COUNTS[card]})
