"""What each reader may see of a Spy state (SPY-S2: only the Spy is visible to opponents).

- A seat view holds the viewer's own base in full; of every other base, the Spy's gap and
  facing, the exposed cards, the lit bombs' positions and what is publicly known of each
  position (``candidates``, ``declared``), never a hidden card (shown as ``"hidden"``).
- The public view shows every base that way.  The referee view is the whole state.
- Neither holds the seed: it would give away every dealt base.
"""
from __future__ import annotations

from typing import Any

from referee.games.base import PUBLIC, REFEREE, IllegalAction
from referee.games.common.jsoncopy import json_copy
from referee.games.spy.judge import not_a_player
from referee.games.spy.table import exposure_target

HIDDEN = "hidden"
SHARED_KEYS = ("game", "rules_version", "mode", "options", "players", "colours", "eliminated",
               "winner", "turn", "log")


def public_base(base: dict[str, Any]) -> dict[str, Any]:
    """Return what everyone may see of a base: exposed cards only, the rest ``"hidden"``."""
    cards = [card if pos in base["exposed"] else HIDDEN for pos, card in enumerate(base["cards"])]
    return {"cards": cards, "spy_gap": base["spy_gap"], "facing": base["facing"],
            "exposed": list(base["exposed"]), "lit": list(base["lit"]),
            "candidates": json_copy(base["candidates"]), "declared": list(base["declared"]),
            "target": exposure_target(base)}


def own_base(base: dict[str, Any]) -> dict[str, Any]:
    """Return a base as its holder sees it: every card, plus the current exposure target."""
    return {**json_copy(base), "target": exposure_target(base)}


def view_state(state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """Return the view of ``viewer``: a player, ``PUBLIC`` (``None``) or ``REFEREE``.

    Raises :class:`IllegalAction` (SPY-S1) for a viewer who is none of these.
    """
    if viewer == REFEREE:
        return json_copy(state)
    if viewer is not PUBLIC and viewer not in state["players"]:
        raise IllegalAction(not_a_player(state, viewer, "viewer"))
    view = json_copy({key: state[key] for key in SHARED_KEYS})
    view["viewer"] = viewer
    view["bases"] = {player: own_base(base) if player == viewer else public_base(base)
                     for player, base in state["bases"].items()}
    return view
