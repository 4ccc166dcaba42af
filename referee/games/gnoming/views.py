"""What each reader may see of a Gnoming A Round state (GN-V1).

- Face-down layout cards are hidden from everyone, their owner included: ``{"card": None,
  "up": False}``.
- The draw pile is a count (``draw_pile_count``); of the discard piles only the top cards
  show (``discard_tops``, with ``discard_counts``).
- A card drawn from the draw pile is seen by its drawer at once and by the others only when
  it is placed or discarded: until then their ``turn.holding`` is ``None`` with
  ``turn.holding_hidden`` true.
- The seed is never shown (it would give away every shuffle).
- Once the game is over ``turn.player`` is ``None``: nobody's turn comes (the score and the
  winners are in the match view's envelope, :mod:`referee.games.gnoming.summary`).
The referee view is the whole state.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import REFEREE
from referee.games.common.jsoncopy import json_copy


def holding_hidden_from(state: dict[str, Any], viewer: str | None) -> bool:
    """True when ``viewer`` may not see the card in hand: it was drawn from the draw pile and is
    not placed yet, and ``viewer`` is not its drawer."""
    turn = state["turn"]
    return (turn["holding"] is not None and turn["source"] == "draw_pile"
            and not turn["filled"] and viewer != turn["player"])


def view(state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """Return what ``viewer`` (a player, ``PUBLIC`` = ``None`` or ``REFEREE``) may see."""
    if viewer == REFEREE:
        return json_copy(state)
    seen = json_copy({key: value for key, value in state.items()
                      if key not in ("seed", "draw_pile", "discard_piles", "layouts", "turn")})
    seen["viewer"] = viewer
    seen["layouts"] = {p: [[dict(cell) if cell["up"] else {"card": None, "up": False}
                            for cell in row] for row in grid]
                       for p, grid in state["layouts"].items()}
    seen["draw_pile_count"] = len(state["draw_pile"])
    seen["discard_tops"] = [pile[-1] if pile else None for pile in state["discard_piles"]]
    seen["discard_counts"] = [len(pile) for pile in state["discard_piles"]]
    turn = json_copy(state["turn"])
    turn["holding_hidden"] = holding_hidden_from(state, viewer)
    if turn["holding_hidden"]:
        turn["holding"] = None
    if state["phase"] == "over":
        turn["player"] = None
    seen["turn"] = turn
    return seen
