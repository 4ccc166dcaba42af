"""Building Gnoming A Round games for tests: entered deals, layouts written as text, actions."""
from __future__ import annotations

from collections import Counter

from referee.games.base import IllegalAction
from referee.games.gnoming.engine import ENGINE
from referee.games.gnoming.rules import DECK_COUNTS

THREE = ["ana", "ben", "cy"]


def grid(text: str) -> list[list[str]]:
    """``"5 5 5 / 3 -2 8 / M 7 4"`` → 3×3 rows of cards, row 0 first."""
    return [row.split() for row in text.split("/")]


def make_deal(layouts: dict[str, str], piles=("7", "8"), draw_top=(), removed=()) -> dict:
    """An entered deal: ``layouts`` as text, discard piles of one card each, the draw pile with
    ``draw_top`` first and every other card of the deck after them in deck order."""
    grids = {p: grid(text) for p, text in layouts.items()}
    left = Counter(DECK_COUNTS)
    left.subtract(c for g in grids.values() for row in g for c in row)
    left.subtract(list(piles) + list(draw_top) + list(removed))
    assert all(n >= 0 for n in left.values()), left
    rest = [card for card in DECK_COUNTS for _ in range(left[card])]
    return {"layouts": grids, "discard_piles": [[piles[0]], [piles[1]]],
            "draw_pile": list(draw_top) + rest, "removed": list(removed)}


def setup(layouts: dict[str, str], piles=("7", "8"), draw_top=(), removed=(), **options):
    """A digital game from an entered deal (players in the order of ``layouts``)."""
    return ENGINE.setup({"players": list(layouts), "options": options, "mode": "digital",
                         "deal": make_deal(layouts, piles, draw_top, removed)}, seed=7)


def act(state: dict, **action) -> dict:
    """Apply one action (it must be legal) and return the new state."""
    new, _ = ENGINE.apply(state, action)
    return new


def act_events(state: dict, **action) -> tuple[dict, list[dict]]:
    """Apply one action (it must be legal): ``(new state, events)``."""
    return ENGINE.apply(state, action)


def broken(state: dict, **action) -> set[str]:
    """The rule IDs an action breaks; asserts apply refuses it with the same rules."""
    found = {v.rule for v in ENGINE.violations(state, action)}
    if found:
        try:
            ENGINE.apply(state, action)
        except IllegalAction as exc:
            assert {v.rule for v in exc.violations} == found
        else:  # pragma: no cover - a failure message
            raise AssertionError("apply accepted an action violations() refuses")
    return found


def flip_all(state: dict, flips: dict[str, list[tuple[int, int]]]) -> dict:
    """Do every player's setup flips (GN-S2): ``{player: [(r, c), (r, c)]}``."""
    for player, positions in flips.items():
        for r, c in positions:
            state = act(state, type="flip", player=player, position=[r, c])
    return state


def corners(players) -> dict[str, list[tuple[int, int]]]:
    """Setup flips of the two top corners for every player."""
    return {p: [(0, 0), (0, 2)] for p in players}


def cards(state: dict, player: str) -> list[list[str]]:
    """A player's layout as cards (referee knowledge)."""
    return [[cell["card"] for cell in row] for row in state["layouts"][player]]


def face_up(state: dict, player: str) -> list[list[bool]]:
    """Which cards of a layout are face up."""
    return [[cell["up"] for cell in row] for row in state["layouts"][player]]
