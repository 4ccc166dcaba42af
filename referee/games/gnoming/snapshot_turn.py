"""Checking a Gnoming snapshot's ``turn`` bookkeeping against what the layout, the phase and
the piles imply: ``check_turn_record`` (issue 12 item 8).

How ``apply.py`` sets each field, and so what a reachable state holds:

- before the draw (``setup``, ``draw``) and at the end of the game (``over``) the turn is
  blank (``setup.blank_turn``): no card held, no source, no pile, nothing filled;
- the draw (GN-T1) sets ``source``, ``pile`` (the discard pile drawn from, else ``None``),
  ``filled = []``, ``replaced_face_down = False`` and ``mulligans_at_start`` (the face-up
  Mulligans of the layout then, GN-M1);
- each ``place`` (GN-T2, GN-B1) lays the held card face up at a position added to
  ``filled`` and holds the card replaced; ``replaced_face_down`` says whether it was face
  down.  A bounce follows only a face-down replaced card, so every filled position but the
  last held a face-down card;
- the discard (GN-T3) empties ``holding`` and leaves the rest until the next turn (``restart``,
  ``hazard`` and, when the round ends after a turn, ``reveal``).
"""
from __future__ import annotations

from referee.games.base import Problems
from referee.games.gnoming.judge import HOLDING_PHASES, bounce_problem
from referee.games.gnoming.rules import MULLIGAN, POSITIONS
from referee.games.gnoming.setup import blank_turn

BLANK_RULE = {"setup": "GN-S2", "draw": "GN-T1", "over": "GN-W1"}
"""The phases whose turn is blank, and the rule that says no card is drawn yet (or any more)."""


def check_turn_record(state: dict, problems: Problems) -> None:
    """Flag each field of ``state["turn"]`` (a type-checked turn of a checked layout and phase)
    that contradicts the layout, the phase or the piles: a blank turn before the draw (GN-T1),
    ``pile`` against ``source`` and an emptied pile (GN-T1), ``filled`` face up (GN-T2),
    ``replaced_face_down`` only after a place (GN-B1), the phase against a possible bounce
    (GN-B1), ``mulligans_at_start`` against the face-up Mulligans (GN-M1)."""
    phase, turn = state["phase"], state["turn"]
    blank = blank_turn(turn["player"])
    if phase in BLANK_RULE or phase == "reveal" and turn["source"] is None:
        for key in ("source", "pile", "filled", "replaced_face_down", "mulligans_at_start"):
            if turn[key] != blank[key]:
                problems.flag(BLANK_RULE.get(phase, "GN-E2"), "gnoming.snapshot.turn_not_blank",
                              f"state.turn.{key}", key=key, phase=phase, expected=repr(blank[key]))
        return
    if turn["source"] is None:
        problems.flag("GN-T1", "gnoming.snapshot.turn_no_source", "state.turn.source", phase=phase)
        return
    if (turn["pile"] is None) != (turn["source"] == "draw_pile"):
        problems.flag("GN-T1", "gnoming.snapshot.turn_pile", "state.turn.pile",
                      source=turn["source"])
    grid = state["layouts"][turn["player"]]
    filled = turn["filled"]
    if any(not grid[r][c]["up"] for r, c in filled):
        problems.flag("GN-T2", "gnoming.snapshot.filled_face_down", "state.turn.filled")
    if turn["replaced_face_down"] and not filled:
        problems.flag("GN-B1", "gnoming.snapshot.replaced_nothing", "state.turn.replaced_face_down")
    if problems or phase == "reveal":  # GN-E2 flips have changed the layouts since
        return
    if phase in HOLDING_PHASES:
        _check_holding(state, problems)
    _check_mulligans(state, problems)


def _check_holding(state: dict, problems: Problems) -> None:
    """Holding a card: an empty discard pile is the one just drawn from (GN-T1: both lay at
    the draw); after a place the phase says whether the held card may bounce (GN-B1)."""
    turn, phase = state["turn"], state["phase"]
    for i, pile in enumerate(state["discard_piles"]):
        if not pile and (turn["source"], turn["pile"]) != ("discard", i):
            problems.flag("GN-T1", "gnoming.snapshot.emptied_pile", "state.turn.pile", pile=i)
    if phase != "play" and (bounce_problem(state) is None) != (phase == "bounce"):
        field = "state.turn.replaced_face_down" if phase == "discard" else "state.phase"
        problems.flag("GN-B1", "gnoming.snapshot.bounce_phase", field, phase=phase,
                      holding=repr(turn["holding"]))


def _check_mulligans(state: dict, problems: Problems) -> None:
    """GN-M1: ``mulligans_at_start`` is the count of face-up Mulligans at the draw.  Since the
    draw only the filled positions changed: each but the last held a face-down card, the last
    one held the card replaced (held now, or discarded after the turn: a Hazard when Hazard
    flips are owed, the top of a discard pile otherwise)."""
    turn, phase = state["turn"], state["phase"]
    grid, filled = state["layouts"][turn["player"]], {tuple(p) for p in turn["filled"]}
    base = sum(grid[r][c]["up"] and grid[r][c]["card"] == MULLIGAN
               for r, c in POSITIONS if (r, c) not in filled)
    last_up = bool(filled) and not turn["replaced_face_down"]
    if phase in HOLDING_PHASES:
        possible = {base + (last_up and turn["holding"] == MULLIGAN)}
    elif phase == "restart" and last_up and any(pile[-1:] == [MULLIGAN]
                                                for pile in state["discard_piles"]):
        possible = {base, base + 1}
    else:
        possible = {base}
    if turn["mulligans_at_start"] not in possible:
        problems.flag("GN-M1", "gnoming.snapshot.mulligans_at_start_count",
                      "state.turn.mulligans_at_start", player=turn["player"],
                      counts=sorted(possible))
