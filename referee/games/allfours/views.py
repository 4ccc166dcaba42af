"""What each reader may see of an All Fours state (the Observer of STYLE.md).

- A seat sees its own hand, every card played or exposed, the kicks, trump, scores and whose
  turn it is; other hands only as counts; never the stock.
- The public (spectator) view shows no hand at all, only counts.
- The referee view is the whole state.
``dealt`` (who was dealt which card) is hidden until the hand is scored, then shown.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import REFEREE

_SECRET = ("hands", "dealt", "stock", "seed", "claims")


def view(engine, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """Return ``viewer``'s view: a player name, ``None`` (public) or ``REFEREE``."""
    if viewer == REFEREE:
        return dict(state)
    out = {k: v for k, v in state.items() if k not in _SECRET}
    out["hand_sizes"] = {p: len(h) for p, h in state["hands"].items()}
    out["stock_size"] = len(state["stock"])
    out["to_move"] = engine.to_move(state)
    out["viewer"] = viewer
    if viewer in state["players"]:
        out["hand"] = list(state["hands"][viewer])
    return out
