"""What each reader may see (COUP-V1): a seat, the public, the referee.

A seat view shows the seat's own face-down cards, every face-up card, all coins, the court
deck as a count and whose move it is; an exchange's draw only to the exchanger, an examined
card only to the Inquisitor and its owner, a 2-player pile only to its owner.  The public view
shows no face-down card.  Neither shows the seed (it would give away the court deck's order).
A seat view also shows ``known``, the seat's own knowledge records (table mode, COUP-X1) and
``last_turn``; the ``disputes`` (COUP-X1) are in the referee's view only.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import REFEREE, IllegalAction, violation
from referee.games.common.jsoncopy import json_copy


def view_of(state: dict[str, Any], viewer: str | None, to_move: list[str],
            awaiting: dict[str, Any]) -> dict[str, Any]:
    """Return ``viewer``'s view: a player's seat view, the public view (``None``) or, for
    ``REFEREE``, the whole state.  ``awaiting`` is what the game waits for, a message
    ``{"code", "params"}`` (the HTTP edge renders it in the reader's language:
    :func:`referee.i18n.answers.localize_view`).  Raises :class:`IllegalAction` for an unknown viewer."""
    if viewer == REFEREE:
        return json_copy(state)
    players = state["players"]
    if viewer is not None and viewer not in players:
        raise IllegalAction(violation("COUP-V1", "coup.view.unknown_viewer", "viewer",
                                      viewer=repr(viewer)))
    turn = state["turn"]
    seen_turn = json_copy({k: v for k, v in turn.items() if k not in ("drawn", "shown")})
    seen_turn["drawn_count"] = len(turn["drawn"])
    if viewer == turn["player"]:
        seen_turn["drawn"] = list(turn["drawn"])
    target = (turn["action"] or {}).get("target")
    if turn["shown"] is not None and viewer in (turn["player"], target):
        seen_turn["shown"] = turn["shown"]
    own = {viewer: list(state["hands"][viewer])} if viewer is not None else {}
    piles = {viewer: list(state["piles"][viewer])} if viewer in state["piles"] else {}
    return {
        "game": "coup", "mode": state["mode"], "viewer": viewer,
        "options": json_copy(state["options"]), "players": list(players),
        "coins": dict(state["coins"]), "treasury": state["treasury"],
        "hands": own, "hand_sizes": {p: len(state["hands"][p]) for p in players},
        "revealed": json_copy(state["revealed"]), "court_size": len(state["court"]),
        "piles": piles, "pile_sizes": {p: len(c) for p, c in state["piles"].items()},
        "turn": seen_turn, "loss": json_copy(state["loss"]), "winner": state["winner"],
        "to_move": to_move, "awaiting": awaiting,
        "last_turn": json_copy(state["last_turn"]),
        "known": json_copy(state["knowledge"].get(viewer, [])) if viewer is not None else [],
    }
